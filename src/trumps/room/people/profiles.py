"""Profiles: what a player has done, and the rating leaderboards.

Each finished game leaves one :class:`~trumps.room.storage.db.GameResultRow` per
person who played it (:func:`record_game`, idempotent), so a profile is a
few indexed queries, never a replay: games played and won per game, the
contracts the person held and made, the rating with its history
(:mod:`trumps.room.people.ratings`) and the recent games, each linking to its
replay.  Profiles are of accounts (``/player/<username>``); a guest has no
page (its routes: :mod:`trumps.room.web.profiles`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict

from sqlalchemy import case, func, or_, select

import trumps
from trumps.room.people import ratings
from trumps.room.people.accounts import find_account
from trumps.room.storage.db import FriendRow, GameResultRow, Player

if TYPE_CHECKING:
    from trumps.core.protocol import Deal, Match
    from trumps.room.storage.store import Store

__all__ = ["contracts_of", "profile", "record_game"]

RECENT = 20

#: The key of a deal result naming the seat that held the contract, per game.
HOLDER_KEYS = ("contractor", "declarer", "taker")


def contracts_of(match: Match[Deal], seat: int) -> tuple[int, int]:
    """(contracts ``seat`` held, contracts it made) over a finished game.

    A game whose deal results say ``made`` is taken at its word; otherwise
    a contract is made when the holder's side scored points on the deal."""
    held = made = 0
    name = match.seat_name(seat)
    for r in match.results:
        holder = next((r[k] for k in HOLDER_KEYS if r.get(k) is not None), None)
        if holder != name or r.get("thrown_in") or r.get("passed_out"):
            continue
        held += 1
        if "made" in r:
            made += bool(r["made"])
        else:
            points = r.get("points") or [0] * len(match.teams)
            made += points[match.team_of(seat)] > 0
    return held, made


class GameStats(TypedDict):
    """A profile's figures for one game."""

    played: int
    won: int
    contracts: int
    made: int
    made_pct: float | None
    rating: int | None
    rated_games: int
    history: list[dict[str, object]]  # the rating chart: at, rating, table


class Profile(TypedDict):
    """Everything a profile page shows (:func:`profile`)."""

    player: str
    name: str
    member_since: float
    friends: list[str]
    games: dict[str, GameStats]
    recent: list[dict[str, object]]  # the last games: table, game, kind, won, score, at
    # added for the reader by the route: the owner's presence, and the reader's relation
    online: NotRequired[bool]
    you: NotRequired[bool]
    friend: NotRequired[bool]
    requested: NotRequired[bool]
    tournaments: NotRequired[list[dict[str, object]]]  # the latest tournaments (trumps.room.tournaments)


def record_game(
    store: Store, table_id: str, game: str, kind: str, rows: Sequence[Mapping[str, object]], at: float
) -> None:
    """Store each person's result of a finished game (once)."""
    with store.sessions.begin() as s:
        if s.scalar(select(GameResultRow.table_id).where(GameResultRow.table_id == table_id).limit(1)):
            return
        for r in rows:
            s.add(GameResultRow(table_id=table_id, game=game, kind=kind, at=at, **r))


def profile(store: Store, username: str) -> Profile | None:
    """Everything a profile page shows, or None if there is no such account."""
    info = find_account(store, username)
    if info is None:
        return None
    pid = info.id
    with store.sessions() as s:
        stats = {
            game: {"played": int(n), "won": int(w or 0), "contracts": int(c or 0), "made": int(m or 0)}
            for game, n, w, c, m in s.execute(
                select(
                    GameResultRow.game, func.count(), func.sum(case((GameResultRow.won, 1), else_=0)),
                    func.sum(GameResultRow.contracts), func.sum(GameResultRow.made),
                )
                .where(GameResultRow.player_id == pid)
                .group_by(GameResultRow.game)
            )
        }  # fmt: skip
        recent = [
            {"table": t, "game": g, "kind": k, "won": bool(w), "score": sc, "at": at}
            for t, g, k, w, sc, at in s.execute(
                select(
                    GameResultRow.table_id, GameResultRow.game, GameResultRow.kind, GameResultRow.won,
                    GameResultRow.score, GameResultRow.at,
                )
                .where(GameResultRow.player_id == pid)
                .order_by(GameResultRow.at.desc())
                .limit(RECENT)
            )
        ]  # fmt: skip
        friend_ids = [
            a if b == pid else b
            for a, b in s.execute(
                select(FriendRow.player_id, FriendRow.friend_id).where(
                    FriendRow.accepted, or_(FriendRow.player_id == pid, FriendRow.friend_id == pid)
                )
            )
        ]
        friends = sorted(
            s.scalars(select(Player.name).where(Player.id.in_(friend_ids))).all(), key=str.lower
        ) if friend_ids else []  # fmt: skip
    games: dict[str, GameStats] = {}
    rated = ratings.ratings_of(store, pid)
    for game in trumps.games():
        counts = stats.get(game, {"played": 0, "won": 0, "contracts": 0, "made": 0})
        r = rated.get(game)
        games[game] = {
            "played": counts["played"],
            "won": counts["won"],
            "contracts": counts["contracts"],
            "made": counts["made"],
            "made_pct": round(100 * counts["made"] / counts["contracts"], 1) if counts["contracts"] else None,
            "rating": r["display"] if r else None,
            "rated_games": r["games"] if r else 0,
            "history": [
                {"at": h["at"], "rating": h["display"], "table": h["table"]}
                for h in ratings.history(store, pid, game)
            ],
        }
    return {
        "player": pid,
        "name": info.name,
        "member_since": info.registered or info.created,
        "friends": friends,
        "games": games,
        "recent": recent,
    }
