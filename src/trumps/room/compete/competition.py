"""Competitions: play-chip buy-ins, a fixed prize table and the leaderboard.

Every player has a balance of play chips (no real money; new players get
:data:`trumps.room.storage.db.STARTING_CHIPS`).  A competition table has a buy-in of
30, 110, 275 or 550 chips.  Each buy-in is a *stake* plus a house fee of
about 10% of the stake, as in the usual tournament buy-ins (110 = 100 + 10).
Each player of the winning side is paid ``sides × stake``:

>>> for buy_in, pays in PRIZE_TABLE.items():
...     print(buy_in, STAKES[buy_in], buy_in - STAKES[buy_in], pays[2], pays[3])
30 27 3 54 81
110 100 10 200 300
275 250 25 500 750
550 500 50 1000 1500
>>> prize(110, 2), prize(550, 3)
(200, 1500)

Why this table: at a table of human players every side has the same
number of players ``k``, so the stakes collected are ``sides × k × stake``
and the ``k`` winners, paid ``sides × stake`` each, share exactly those
stakes: the prize never depends on who else is at the table, and the fees
are the only chips that leave play (a sink that offsets the chips new
players bring and the prizes won against bots).  Bots pay no buy-in and win
nothing; a human side that beats bots is still paid from the table, by the
house.  Winning a two-sided game nets ``stake - fee`` (+24, +90, +225,
+450), so a player must win 55% of them to keep their chips.  A drawn game
(no winner) refunds every buy-in, fee included.

**Chips move only between people** (:func:`unpaid_reason`).  Since the
house pays a side that beats bots, a table of one person and bots would
print chips: a ``strong`` bot partner against ``random`` bots won 5 games
of 5 and took 1,000 chips to 3,250 in 23 seconds.  So a Compete game pays
only when, at its end, people (accounts, each counted once) sit on at
least two different sides, and every bot at the table plays at one level.
Two people on one side against bots are still one side against the house
(a second account is free to make), and a host who gives one person a
``strong`` partner and the other a ``random`` one chooses the result: the
same level for every bot keeps the sides even, whichever it is.  Any other
game is played for nothing: every buy-in is refunded in full (fee
included), nobody is paid, and the result row is stored with a buy-in and
prize of 0, so the leaderboard, which counts only games with chips at
stake, does not count it (nor its win).

Every write is one transaction, all-or-nothing and idempotent, so a crash
and restart never charges or pays twice: :func:`start_competition` does
nothing once the table is ``playing`` or ``finished`` (the status and the
charges commit together), and :func:`pay_out` skips every player whose
result row is already stored (the row and the prize commit together).
The functions are synchronous: the room runs them on the database thread,
``await store.run(start_competition, store, table_id, players, buy_in, t)``.

:class:`CompetitionError` is a :class:`~trumps.room.tables.table.RoomError`, so
a refused start reaches the player as any refused request does.  The table
and the room import this module inside their functions (it imports
:mod:`trumps.room.tables.table`, so a module-level import back would be a cycle).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypedDict

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

import trumps
from trumps.core.protocol import Deal, Match
from trumps.i18n import N_
from trumps.room.people import ratings
from trumps.room.storage.db import Player, ResultRow, SeatRow, TableRow
from trumps.room.tables.settings import bot_level
from trumps.room.tables.table import ChipEntry, RoomError

if TYPE_CHECKING:
    from trumps.room.people.presence import People
    from trumps.room.storage.store import Store
    from trumps.room.tables.table import Table

__all__ = [
    "PRIZE_TABLE",
    "STAKES",
    "CompetitionError",
    "Entry",
    "can_afford",
    "chips",
    "leaderboard",
    "pay_out",
    "prize",
    "prize_rows",
    "start_competition",
    "start_seated",
    "unpaid_reason",
]

#: The part of each buy-in that is at stake; the rest (about 10%) is the house fee.
STAKES: dict[int, int] = {30: 27, 110: 100, 275: 250, 550: 500}

#: buy-in -> {number of sides: chips paid to EACH player of the winning side}.
PRIZE_TABLE: dict[int, dict[int, int]] = {
    buy_in: {sides: sides * stake for sides in (2, 3)} for buy_in, stake in STAKES.items()
}

#: The most rows one leaderboard request may ask for.
MAX_LIMIT = 200


class CompetitionError(RoomError):
    """A competition request refused with a message fit to show the player
    (not enough chips, unknown buy-in, a table not started...)."""


class Standing(TypedDict):
    """One line of the competition leaderboard (:func:`leaderboard`)."""

    rank: int
    player: str
    name: str
    won: int
    games: int
    wins: int
    average: float | None
    chips: int


#: One human seat's result, as the table gives it to :func:`pay_out`.
Entry = ChipEntry


def prize(buy_in: int, sides: int) -> int:
    """Chips paid to each player of the winning side.

    >>> prize(30, 2)
    54
    >>> prize(40, 2)
    Traceback (most recent call last):
    ...
    trumps.room.compete.competition.CompetitionError: no competition has a buy-in of 40 (30, 110, 275 or 550)
    """
    pays = PRIZE_TABLE.get(buy_in)
    if pays is None:
        raise CompetitionError(f"no competition has a buy-in of {buy_in} (30, 110, 275 or 550)")
    if sides not in pays:
        raise CompetitionError(f"a competition game has 2 or 3 sides, not {sides}")
    return pays[sides]


def prize_rows() -> list[dict[str, int]]:
    """The prize table as rows for the page: buy-in, stake, fee, prizes."""
    return [
        {"buy_in": b, "stake": STAKES[b], "fee": b - STAKES[b], "two_sides": p[2], "three_sides": p[3]}
        for b, p in PRIZE_TABLE.items()
    ]


# ----- who plays for chips ------------------------------------------------------------
#: Why a game paid nothing (the table's notice at the end says so).
BETWEEN_PEOPLE = N_(
    "No chips moved: a Compete game pays only when at least two people play on different sides "
    "(bots may fill the other seats). Every buy-in was refunded."
)
MIXED_BOTS = N_(
    "No chips moved: at a Compete game every bot must play at the same level. Every buy-in was refunded."
)


async def tell_unpaid(table: Table, people: People) -> None:
    """Say at a finished Compete table why it moved no chips (chips move
    only in games between people: :func:`unpaid_reason`).  The pay-out
    decides the same way from the stored seats; this only says so."""
    if not table.settings.competition:
        return
    reason = unpaid_reason(*people.seats_of(table))
    if reason is not None:
        await table.notify(reason, kind="unpaid")


def unpaid_reason(seats: Sequence[ratings.SeatEntry], accounts: set[str]) -> str | None:
    """Why a Compete game with these seats pays no chips, or None if it pays.

    ``accounts`` are the players who are accounts (people; a guest cannot
    sit at a Compete table anyway).  It pays when accounts sit on at least
    two sides and every bot plays at the same level (see the module's
    docstring for why).

    >>> def seat(player, bot, team): return {"player": player, "bot": bot, "team": team}
    >>> unpaid_reason([seat("a", None, 0), seat(None, "strong", 1), seat(None, "strong", 0),
    ...                seat("b", None, 1)], {"a", "b"}) is None
    True
    >>> unpaid_reason([seat("a", None, 0), seat(None, "easy", 1), seat("b", None, 0),
    ...                seat(None, "easy", 1)], {"a", "b"}) == BETWEEN_PEOPLE
    True
    >>> unpaid_reason([seat("a", None, 0), seat(None, "random", 1), seat(None, "strong", 0),
    ...                seat("b", None, 1)], {"a", "b"}) == MIXED_BOTS
    True
    """
    if ratings.people_sides(seats, accounts) < 2:
        return BETWEEN_PEOPLE
    if len({bot_level(s["bot"]) for s in seats if s["player"] is None and s["bot"] is not None}) > 1:
        return MIXED_BOTS
    return None


def _seat_entries(
    s: Session, table: TableRow, match: Match[Deal], entries: Sequence[Entry]
) -> list[ratings.SeatEntry]:
    """Who sat where at the end: the table's stored seats (player or bot),
    each entry's player in its own seat, and every seat's side."""
    seats = {
        r.seat: (r.player_id, r.bot) for r in s.scalars(select(SeatRow).where(SeatRow.table_id == table.id))
    }
    for e in entries:
        seats[e["seat"]] = (e["player"], None)
    return [
        {"player": player, "bot": bot, "team": match.team_of(seat)}
        for seat, (player, bot) in sorted(seats.items())
        if 0 <= seat < match.players
    ]


# ----- balances -------------------------------------------------------------------
def chips(store: Store, player_id: str) -> int:
    """The player's current balance (:class:`CompetitionError` if unknown)."""
    with store.sessions() as s:
        balance = s.scalar(select(Player.chips).where(Player.id == player_id))
    if balance is None:
        raise CompetitionError(f"no player {player_id!r}")
    return int(balance)


def can_afford(store: Store, player_id: str, buy_in: int) -> bool:
    """Whether the player could pay ``buy_in`` now (False if unknown): for
    refusing a seat early; :func:`start_competition` checks again."""
    try:
        return chips(store, player_id) >= buy_in
    except CompetitionError:
        return False


def _table(s: Session, table_id: str) -> TableRow:
    # FOR UPDATE (PostgreSQL): concurrent starts or payouts of one table queue up
    row = s.get(TableRow, table_id, with_for_update=True)
    if row is None:
        raise CompetitionError(f"no table {table_id!r}")
    return row


def _players(s: Session, ids: Sequence[str]) -> dict[str, Player]:
    """The players' rows, locked (in id order, so two transactions never
    deadlock), or :class:`CompetitionError` naming one that does not exist."""
    rows = s.scalars(select(Player).where(Player.id.in_(set(ids))).order_by(Player.id).with_for_update())
    found = {p.id: p for p in rows}
    for pid in ids:
        if pid not in found:
            raise CompetitionError(f"no player {pid!r}")
    return found


# ----- the lifecycle ----------------------------------------------------------------
def start_competition(store: Store, table_id: str, players: list[str], buy_in: int, started: float) -> None:
    """Charge every human player the buy-in and start the table, in one
    transaction.  If anyone cannot pay, raise :class:`CompetitionError`
    naming everyone short (``"Ann has 20 chips; the buy-in is 30"``) and
    change nothing.  A table already ``playing`` or ``finished`` was
    charged before (the status commits with the charges): do nothing."""
    prize(buy_in, 2)  # an unknown buy-in is refused before anything is read
    if len(set(players)) != len(players):
        raise CompetitionError("a player can be charged only once per table")
    with store.sessions.begin() as s:
        table = _table(s, table_id)
        if table.status in ("playing", "finished"):
            return
        rows = _players(s, players)
        short = [rows[pid] for pid in players if rows[pid].chips < buy_in]
        if short:
            if len(short) == 1:
                raise CompetitionError(f"{short[0].name} has {short[0].chips} chips; the buy-in is {buy_in}")
            names = ", ".join(p.name for p in short)
            raise CompetitionError(f"{names} have fewer chips than the buy-in of {buy_in}")
        for pid in players:
            rows[pid].chips -= buy_in
        table.status = "playing"
        table.started = started


def start_seated(
    store: Store, table_id: str, seats: list[tuple[int, str | None, str | None]], buy_in: int, started: float
) -> list[int]:
    """Seat changes (seat, player, bot) and the start of a full Compete
    table, in one transaction: every human player seated is charged the
    buy-in and the table is ``playing``; or, if some cannot pay any more
    (their chips went to another table that started first: a double
    booking), their seats are emptied, nobody is charged and the table
    stays ``waiting``.  Returns those freed seats (empty: it started).

    The players' rows are locked (PostgreSQL) before they are read, so of
    two tables starting at once with one player who can pay only one
    buy-in, exactly one starts.  A table already started (or finished)
    only gets the seat changes.  An unknown player, or one seated twice,
    raises :class:`CompetitionError` and changes nothing."""
    prize(buy_in, 2)
    with store.sessions.begin() as s:
        table = _table(s, table_id)
        conn = s.connection()
        for seat, player, bot in seats:
            store.seat_write(conn, table_id, seat, player, bot)
        if table.status in ("playing", "finished"):
            return []
        seated = dict(
            s.execute(select(SeatRow.seat, SeatRow.player_id).where(SeatRow.table_id == table_id)).all()
        )
        players = [pid for pid in seated.values() if pid is not None]
        if len(set(players)) != len(players):
            raise CompetitionError("a player can be charged only once per table")
        rows = _players(s, players)
        short = sorted(seat for seat, pid in seated.items() if pid is not None and rows[pid].chips < buy_in)
        if short:
            for seat in short:
                store.seat_write(conn, table_id, seat, None, None)
            return short
        for pid in players:
            rows[pid].chips -= buy_in
        table.status = "playing"
        table.started = started
    return []


def _match(table: TableRow) -> Match[Deal]:
    """A fresh match of the table's game: its sides and who plays on which."""
    return trumps.new_game(table.game, options=table.options, seed=table.seed)


def _check(entry: Entry) -> None:
    ok = (
        isinstance(entry.get("player"), str)
        and all(type(entry.get(k)) is int for k in ("seat", "score", "deals"))
        and type(entry.get("won")) is bool
        and entry["deals"] >= 0
    )
    if not ok or set(entry) != set(Entry.__annotations__):
        raise CompetitionError(f"bad result entry {entry!r}")


def pay_out(
    store: Store,
    table_id: str,
    game: str,
    buy_in: int,
    entries: list[Entry],
    sides: int | None = None,
    draw: bool = False,
    at: float | None = None,
) -> str | None:
    """Record the human players' results and pay the winners, in one
    transaction, then mark the table ``finished``.

    ``entries`` has one :class:`Entry` per human seat.  Each winner is paid
    :func:`prize` ``(buy_in, sides)``; ``sides`` (2 or 3) is taken from the
    engine (the table's game and options) when not given, since bots'
    seats have no entry to count them from.  ``draw=True`` means the game
    ended with no winner: every entry is refunded its buy-in (no entry may
    then be ``won``).  A player whose result is already stored is skipped,
    so calling this again (after a crash, say) pays nobody twice.  The
    table must have been started (charged) by :func:`start_competition`.

    A game not between people (:func:`unpaid_reason`, read from the
    table's stored seats and the entries' accounts) pays nothing: every
    entry is refunded its buy-in and its row stores a buy-in and prize of
    0.  Returns the reason, or None when the game paid.
    """
    prize(buy_in, 2)
    for entry in entries:
        _check(entry)
    ids = [e["player"] for e in entries]
    if len(set(ids)) != len(ids):
        raise CompetitionError("a player can have only one result per table")
    if draw and any(e["won"] for e in entries):
        raise CompetitionError("a drawn game has no winner")
    when = time.time() if at is None else at
    with store.sessions.begin() as s:
        table = _table(s, table_id)
        if table.status not in ("playing", "finished"):
            raise CompetitionError(f"table {table_id!r} has not started: nobody has paid the buy-in")
        match = _match(table)
        pays = prize(buy_in, len(match.teams) if sides is None else sides)
        done = set(s.scalars(select(ResultRow.player_id).where(ResultRow.table_id == table_id)))
        rows = _players(s, ids)
        seats = _seat_entries(s, table, match, entries)
        seated = {seat["player"] for seat in seats if seat["player"] is not None}
        accounts = set(
            s.scalars(select(Player.id).where(Player.id.in_(seated), Player.username_key.is_not(None)))
        )
        reason = unpaid_reason(seats, accounts)
        stake = 0 if reason is not None else buy_in
        for e in entries:
            if e["player"] in done:
                continue
            paid = buy_in if draw or reason is not None else pays if e["won"] else 0
            s.add(
                ResultRow(
                    table_id=table_id, player_id=e["player"], seat=e["seat"], game=game, buy_in=stake,
                    prize=paid if reason is None else 0, won=e["won"], score=e["score"], deals=e["deals"],
                    at=when,
                )
            )  # fmt: skip
            rows[e["player"]].chips += paid
        table.status = "finished"
        return reason


# ----- the leaderboard -------------------------------------------------------------
def leaderboard(store: Store, limit: int = 50, game: str | None = None) -> list[Standing]:
    """Players with at least one competition result, best first.

    Each row: ``rank``, ``player`` (id), ``name``, ``won`` (chips won: the
    sum of prize minus buy-in, negative for a net loss), ``games``,
    ``wins``, ``average`` (the sides' points per deal over all the player's
    deals, to 2 decimals; ``None`` before any deal) and ``chips`` (the
    current balance).  Ranked by chips won, then wins, then name and id (so
    the order is total); ``game`` limits it to one game.  A game played
    for nothing (not between people, stored with a buy-in of 0) is not
    counted: neither its game nor its win."""
    net = func.sum(ResultRow.prize - ResultRow.buy_in)
    wins = func.sum(case((ResultRow.won, 1), else_=0))
    columns = (Player.id, Player.name, Player.chips, net, func.count(), wins)
    q = (
        select(*columns, func.sum(ResultRow.score), func.sum(ResultRow.deals))
        .join(ResultRow, ResultRow.player_id == Player.id)
        .where(ResultRow.buy_in > 0)
        .group_by(Player.id, Player.name, Player.chips)
        .order_by(net.desc(), wins.desc(), Player.name, Player.id)
        .limit(max(1, min(limit, MAX_LIMIT)))
    )
    if game is not None:
        q = q.where(ResultRow.game == game)
    out: list[Standing] = []
    with store.sessions() as s:
        for rank, (pid, name, balance, won, games, n_wins, score, deals) in enumerate(s.execute(q), 1):
            out.append(
                {
                    "rank": rank,
                    "player": pid,
                    "name": name,
                    "won": int(won),
                    "games": int(games),
                    "wins": int(n_wins),
                    "average": round(int(score) / int(deals), 2) if deals else None,
                    "chips": int(balance),
                }
            )
    return out
