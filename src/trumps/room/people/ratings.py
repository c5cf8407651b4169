"""Ratings: one skill estimate per game per account, from finished games.

**The method.**  openskill's Plackett–Luce model
(:class:`openskill.models.PlackettLuce`, Weng & Lin 2011), a Bayesian
rating for teams and for more than two teams, so one model covers every
table of the room.  Each account has, per game (500, Bridge,
Coinche), a skill ``mu`` and an uncertainty ``sigma``.  The model's
parameters are openskill's defaults, written out in :data:`MODEL` so a
new release of the library cannot change them under stored ratings:

* ``mu`` 25 and ``sigma`` 25/3 for a player never rated;
* ``beta`` 25/6, the spread of one game's performance around the skill;
* ``tau`` 25/300, added to every ``sigma`` before each update, so a rating
  never freezes and can follow a player who improves;
* no margin of victory (``margin`` 0): a game's final scores are only used
  to rank the teams, since 500 points, Coinche points and Bridge rubber
  points mean different things and a big win is mostly big cards.

**One update per finished game**, not per deal: a single deal is mostly the
luck of the cards, and the room's games (500 to 500 points, Coinche to its
target, a Bridge rubber) are already the unit a player wins or loses.

**Teams are the partnerships**: 500, Bridge and Coinche at four are two
teams of two; 500 at six is three teams of two (2v2v2) or two of three
(3v3).  The model rates a team by the sum of its members' ``mu`` and
shares each team's update among its members in proportion to their
``sigma²``: partners move the same way, and a member the model is unsure
of moves more than one it knows well.

**Ranks come from the result**: the winning team is ranked first; with
three teams the others follow by their final score (higher first, equal
scores share a rank).  A game that ended with no winner (a drawn Bridge
rubber, say) ranks every team equal.

**Bots are anchors.**  Each bot level has a fixed reference rating
(:data:`BOT_RATINGS`); a bot takes part in the update as a team member
like anyone else, but its new rating is thrown away, never stored.  Since
their ``sigma`` is small (1), a bot partner absorbs almost none of its
team's update, so the human beside it is credited with nearly all of the
surprise, and beating strong bots is worth more than beating weak ones.
Fixed anchors keep the scale from drifting as accounts come and go.  The
reference values follow the bots' measured order, random < easy < normal
< strong (``trumps arena``, docs/bots.md):

* ``easy`` (= ``rules``, the bot that fills the room's empty seats) is at
  25, the new player's ``mu``: a newcomer is presumed to play about as
  well as the rule bot until games say otherwise;
* ``random`` is at 15: an easy partnership beat a random one in all 100
  arena games of 500 and of Coinche and all 40 Bridge rubbers; 10 points
  below gives the easy pair a predicted 99.9 %;
* ``normal`` is at 26.5: it beats easy in 53.5 % of 500 games, 71 % of
  Coinche games and 39 of 40 Bridge rubbers (arena, ``--games``); one
  number for all three games has to compromise, and 1.5 points gives the
  normal pair about 68 %;
* ``strong`` is at 27.5: it is measured better than normal in every game
  (per deal: clearly in Coinche, narrowly in 500 and Bridge), so one point
  more (about 63 % between the pairs).

A bot kind not in the table (a ``module:Class`` bot) is unrated: it plays
with the new-player rating, which is used and not stored.

**Only games between people are rated.**  A game moves ratings only when
accounts (each counted once) sit on at least two different sides at its
end (:func:`people_sides`); bots may fill the other seats.  Every rated
game makes the model surer of a player, and the displayed number is
``mu - 3 sigma``, so even games against bots the model expects a player
to win raised the number: 25 games of one account with a ``strong`` bot
partner against ``random`` bots took a new account from 1000 to 1549.  A
game of one person (or of partners) against bots is played for nothing,
and the table's end notice says so (:data:`NOT_RATED`).

**Guests are not rated.**  A guest's seat (a player with no username) takes
part as an unrated participant with the new-player rating, which is used
for the update and not stored: guests have no history to keep a rating in.

**The displayed number** is the conservative estimate ``mu - 3 sigma``
(openskill's *ordinal*: the player is 99.9 % likely to be at least that
good) on a scale of 40 points per unit of ``mu``, from 1000::

    display = round(1000 + 40 * (mu - 3 * sigma))

A new account shows 1000 and climbs as its games make the model sure of
it, so a lucky first game cannot top the leaderboard.  An average settled
player (``mu`` 25, ``sigma`` about 2) shows about 1760; two partners each
100 displayed points above two settled opponents are predicted to win
about three games in four.

**Storage.**  :func:`rate_game` is one transaction and idempotent: once any
account's rating history row for a table is stored, the table counts as
rated and a second call (after a crash and a restart, say) does nothing.
The functions are synchronous, as in :mod:`trumps.room.compete.competition`: the
room runs them on its database thread,
``await store.run(rate_game, store, table_id, game, seats, scores, winner, t)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import select

from trumps.i18n import N_
from trumps.room.storage.db import Player, RatingHistoryRow, RatingRow, TableRow

if TYPE_CHECKING:
    from trumps.room.storage.store import Store

__all__ = [
    "BOT_RATINGS",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "MAX_LIMIT",
    "MODEL",
    "NOT_RATED",
    "SeatEntry",
    "display_of",
    "history",
    "leaderboard",
    "people_sides",
    "rate_game",
    "rating",
    "ratings_of",
]

#: A new player's skill and uncertainty (openskill's defaults).
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

#: The rating model; every parameter spelled out (openskill's defaults).
MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=25.0 / 6.0, tau=25.0 / 300.0, margin=0.0)

#: Fixed reference ratings (mu, sigma) of the bot levels: never updated (see above).
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "easy": (25.0, 1.0),
    "normal": (26.5, 1.0),
    "strong": (27.5, 1.0),
}
BOT_RATINGS["rules"] = BOT_RATINGS["easy"]

#: The most rows one history or leaderboard request returns.
MAX_LIMIT = 200

#: The displayed number: ``BASE + SCALE * (mu - 3 sigma)``.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


class Rating(TypedDict):
    """A player's rating in one game: the model's ``mu``/``sigma``, the
    number shown (``display``) and how many rated games it rests on."""

    mu: float
    sigma: float
    display: int
    games: int


class RatingPoint(TypedDict):
    """The rating after one rated game (the chart's points)."""

    table: str
    at: float
    mu: float
    sigma: float
    display: int


class Ranked(TypedDict):
    """One line of a rating leaderboard."""

    rank: int
    player: str
    name: str
    display: int
    games: int


class SeatEntry(TypedDict):
    """One seat of a finished game, as given to :func:`rate_game`: the
    player sitting there (an account or a guest) or the bot kind playing
    it, and the seat's team (an index into the final scores).  A seat with
    neither is empty and takes no part; a player also marked with a bot (a
    human replaced by a bot after leaving) is rated as the player."""

    player: str | None
    bot: str | None
    team: int


#: Why a finished game moved no rating (the table's notice at the end).
NOT_RATED = N_(
    "This game was not rated: ratings move only when at least two people play on different sides "
    "(bots may fill the other seats)."
)


def people_sides(seats: Sequence[SeatEntry], accounts: set[str]) -> int:
    """On how many sides people (players in ``accounts``) sit; a game
    counts for chips and ratings only from 2.

    >>> seats = [{"player": "a", "bot": None, "team": 0}, {"player": None, "bot": "strong", "team": 1},
    ...          {"player": "b", "bot": None, "team": 0}, {"player": "g", "bot": None, "team": 1}]
    >>> people_sides(seats, {"a", "b"}), people_sides(seats, {"a", "g"})
    (1, 2)
    """
    return len({s["team"] for s in seats if s["player"] is not None and s["player"] in accounts})


def display_of(mu: float, sigma: float) -> int:
    """The number shown for a rating: the conservative estimate ``mu - 3
    sigma``, 40 points per unit of ``mu``, a new player at 1000.

    >>> display_of(DEFAULT_MU, DEFAULT_SIGMA)
    1000
    >>> display_of(25.0, 2.0)
    1760
    >>> display_of(30.0, 1.5)
    2020
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3.0 * sigma))


def _clamp(limit: int) -> int:
    return max(1, min(int(limit), MAX_LIMIT))


def _ranks(teams: Sequence[int], final_scores: Sequence[int], winner: int | None) -> list[float]:
    """The rank of each of ``teams`` (1 best): the winner first, the others
    by final score (equal scores share a rank); all equal with no winner.

    >>> _ranks([0, 1, 2], [120, 510, -40], 1)
    [2.0, 1.0, 3.0]
    >>> _ranks([0, 1, 2], [200, 510, 200], 1)
    [2.0, 1.0, 2.0]
    >>> _ranks([0, 1], [300, 300], None)
    [1.0, 1.0]
    """
    if winner is None:
        return [1.0] * len(teams)
    out: list[float] = []
    for t in teams:
        if t == winner:
            out.append(1.0)
        else:
            better = sum(1 for u in teams if u != winner and u != t and final_scores[u] > final_scores[t])
            out.append(2.0 + better)
    return out


def _check(seats: Sequence[SeatEntry], final_scores: Sequence[int], winner: int | None) -> None:
    """Refuse malformed input before anything is read or written."""
    players: set[str] = set()
    for seat in seats:
        team = seat.get("team")
        if type(team) is not int or not 0 <= team < len(final_scores):
            raise ValueError(
                f"seat {seat!r}: team must be an index into the {len(final_scores)} final scores"
            )
        pid = seat.get("player")
        if pid is not None:
            if pid in players:
                raise ValueError(f"player {pid!r} holds two seats")
            players.add(pid)
    if winner is not None and not 0 <= winner < len(final_scores):
        raise ValueError(f"winner {winner!r} is not a team of the {len(final_scores)} final scores")


def rate_game(
    store: Store,
    table_id: str,
    game: str,
    seats: Sequence[SeatEntry],
    final_scores: Sequence[int],
    winner: int | None,
    at: float,
) -> dict[str, tuple[float, float]]:
    """Update the ratings of the accounts that played a finished game, in
    one transaction, and return their new ``{player_id: (mu, sigma)}``.

    ``final_scores`` has one score per team, ``winner`` is the winning team
    (``None``: a draw).  Bots and guests take part with their fixed or
    default ratings and are not stored.  Nothing changes (and ``{}`` is
    returned) if the table was rated before (idempotent), or if accounts
    sat on fewer than two sides (:func:`people_sides`: not a game between
    people).  Raises
    :class:`ValueError` for a team or winner outside ``final_scores``, a
    player in two seats, or a table that does not exist."""
    _check(seats, final_scores, winner)
    with store.sessions.begin() as s:
        # FOR UPDATE (PostgreSQL): a second rating of this table waits, then sees the history
        if s.get(TableRow, table_id, with_for_update=True) is None:
            raise ValueError(f"no table {table_id!r}")
        done = s.scalar(select(RatingHistoryRow.player_id).where(RatingHistoryRow.table_id == table_id))
        if done is not None:
            return {}
        ids = sorted({seat["player"] for seat in seats if seat["player"] is not None})
        # lock the players in id order (as competition does: no deadlock between the two)
        accounts = set(
            s.scalars(
                select(Player.id)
                .where(Player.id.in_(ids), Player.username_key.is_not(None))
                .order_by(Player.id)
                .with_for_update()
            )
        )
        if people_sides(seats, accounts) < 2:
            return {}
        stored = {
            row.player_id: row
            for row in s.scalars(
                select(RatingRow).where(RatingRow.player_id.in_(accounts), RatingRow.game == game)
            )
        }
        teams, rated = _teams(seats, stored, accounts)
        if len(teams) < 2:
            return {}
        order = sorted(teams)
        result = MODEL.rate([teams[t] for t in order], ranks=_ranks(order, final_scores, winner))
        # rate() returns new objects in the same places: map each input rating to its result
        new = {
            id(old): upd
            for t, team in zip(order, result, strict=True)
            for old, upd in zip(teams[t], team, strict=True)
        }
        out: dict[str, tuple[float, float]] = {}
        for pid, r in rated:
            upd = new[id(r)]
            mu, sigma = float(upd.mu), float(upd.sigma)
            row = stored.get(pid)
            if row is None:
                s.add(RatingRow(player_id=pid, game=game, mu=mu, sigma=sigma, games=1, updated=at))
            else:
                row.mu, row.sigma, row.games, row.updated = mu, sigma, row.games + 1, at
            s.add(RatingHistoryRow(table_id=table_id, player_id=pid, game=game, mu=mu, sigma=sigma, at=at))
            out[pid] = (mu, sigma)
        return out


def _teams(
    seats: Sequence[SeatEntry], stored: dict[str, RatingRow], accounts: set[str]
) -> tuple[dict[int, list[PlackettLuceRating]], list[tuple[str, PlackettLuceRating]]]:
    """Each team's ratings as the model reads them (a person's stored or
    new rating, a bot's fixed one; empty seats take no part), and the
    accounts' own ratings, which the game updates."""
    teams: dict[int, list[PlackettLuceRating]] = {}
    rated: list[tuple[str, PlackettLuceRating]] = []
    for seat in seats:
        pid, bot = seat["player"], seat["bot"]
        if pid is not None:
            row = stored.get(pid)
            r = MODEL.rating() if row is None else MODEL.rating(mu=row.mu, sigma=row.sigma)
            if pid in accounts:
                rated.append((pid, r))
        elif bot is not None:
            mu, sigma = BOT_RATINGS.get(bot, (DEFAULT_MU, DEFAULT_SIGMA))
            r = MODEL.rating(mu=mu, sigma=sigma)
        else:
            continue  # an empty seat
        teams.setdefault(seat["team"], []).append(r)
    return teams, rated


def _row(mu: float, sigma: float, games: int) -> Rating:
    return {"mu": mu, "sigma": sigma, "display": display_of(mu, sigma), "games": games}


def rating(store: Store, player_id: str, game: str) -> Rating:
    """A player's rating in ``game``: ``mu``, ``sigma``, ``display`` and
    ``games`` (rated games); the new-player rating, 0 games, if none."""
    with store.sessions() as s:
        row = s.get(RatingRow, (player_id, game))
    if row is None:
        return _row(DEFAULT_MU, DEFAULT_SIGMA, 0)
    return _row(row.mu, row.sigma, row.games)


def ratings_of(store: Store, player_id: str) -> dict[str, Rating]:
    """A player's ratings for a profile: ``{game: rating}`` (as
    :func:`rating`) for each game the player has a rated game in."""
    with store.sessions() as s:
        rows = s.scalars(select(RatingRow).where(RatingRow.player_id == player_id).order_by(RatingRow.game))
        return {r.game: _row(r.mu, r.sigma, r.games) for r in rows}


def history(store: Store, player_id: str, game: str, limit: int = 50) -> list[RatingPoint]:
    """The player's rating after each of their last ``limit`` (1 to 200)
    rated games of ``game``, oldest first, for a chart: ``table``, ``at``,
    ``mu``, ``sigma`` and ``display``."""
    q = (
        select(RatingHistoryRow)
        .where(RatingHistoryRow.player_id == player_id, RatingHistoryRow.game == game)
        .order_by(RatingHistoryRow.at.desc(), RatingHistoryRow.table_id.desc())
        .limit(_clamp(limit))
    )
    with store.sessions() as s:
        rows = list(s.scalars(q))
    return [
        {"table": r.table_id, "at": r.at, "mu": r.mu, "sigma": r.sigma, "display": display_of(r.mu, r.sigma)}
        for r in reversed(rows)
    ]


def leaderboard(store: Store, game: str, limit: int = 50, min_games: int = 1) -> list[Ranked]:
    """The best rated accounts in ``game``, best first: ``rank``,
    ``player`` (id), ``name``, ``display`` and ``games``.

    Ordered by the displayed number (the conservative ``mu - 3 sigma``),
    then more games, then name and id, so the order is total; players
    showing the same number share a rank (1, 2, 2, 4).  Only accounts with
    at least ``min_games`` rated games are listed (guests are never rated);
    ``limit`` is clamped to 1..200."""
    ordinal = RatingRow.mu - 3.0 * RatingRow.sigma
    q = (
        select(Player.id, Player.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
        .join(RatingRow, RatingRow.player_id == Player.id)
        .where(RatingRow.game == game, RatingRow.games >= min_games, Player.username_key.is_not(None))
        .order_by(ordinal.desc(), RatingRow.games.desc(), Player.name, Player.id)
        .limit(_clamp(limit))
    )
    out: list[Ranked] = []
    with store.sessions() as s:
        for i, (pid, name, mu, sigma, games) in enumerate(s.execute(q), 1):
            shown = display_of(mu, sigma)
            rank = out[-1]["rank"] if out and out[-1]["display"] == shown else i
            out.append({"rank": rank, "player": pid, "name": name, "display": shown, "games": int(games)})
    return out
