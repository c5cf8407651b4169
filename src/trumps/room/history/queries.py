"""Read-only queries behind the history pages (a player's own game list).

Kept apart from :mod:`trumps.room.storage.store`, which owns every write: these
functions only read, through :attr:`Store.sessions`, and like every other
storage call they run on the database thread (``store.run(fn, store, ...)``)
so the event loop never blocks on the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, or_, select

from trumps.room.people.accounts import display_name
from trumps.room.storage.db import ActionRow, Player, SeatRow, TableRow
from trumps.room.storage.store import Store

__all__ = ["GameSeat", "PlayerGame", "player_games", "player_names", "table_exists"]


@dataclass(frozen=True)
class GameSeat:
    """One seat of a listed table: who sits there (a player, a bot, nobody)."""

    seat: int
    player: str | None
    name: str | None
    bot: str | None


@dataclass(frozen=True)
class PlayerGame:
    """One table of a player's game list, as stored (no game state: the
    scores of a finished game come from replaying its actions)."""

    id: str
    game: str
    preset: str | None
    options: dict[str, object]
    status: str
    host: str
    created: float
    actions: int
    last_action: float | None
    seats: list[GameSeat] = field(default_factory=list)


def player_games(store: Store, player: str, limit: int = 100) -> list[PlayerGame]:
    """The tables ``player`` sits at or hosts, newest first (at most ``limit``).

    Hosting counts: a host may fill every seat with bots and only watch, and
    the game is still theirs to replay.  Three queries, whatever the number of
    tables: the tables, their seats (with player names), their action counts."""
    with store.sessions() as s:
        seated = select(SeatRow.table_id).where(SeatRow.player_id == player)
        rows = s.scalars(
            select(TableRow)
            .where(or_(TableRow.host == player, TableRow.id.in_(seated)))
            .where(TableRow.status != "closed")  # (nobody played there: trumps.room.abandon)
            .order_by(TableRow.created.desc(), TableRow.id)
            .limit(limit)
        ).all()
        ids = [r.id for r in rows]
        if not ids:
            return []
        seats: dict[str, list[GameSeat]] = {tid: [] for tid in ids}
        seat_rows = s.execute(
            select(
                SeatRow.table_id,
                SeatRow.seat,
                SeatRow.player_id,
                SeatRow.bot,
                Player.name,
                Player.username_key,
            )
            .outerjoin(Player, Player.id == SeatRow.player_id)
            .where(SeatRow.table_id.in_(ids))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all()
        for tid, seat, pid, bot, name, key in seat_rows:
            seats[tid].append(GameSeat(seat, pid, None if name is None else display_name(name, key), bot))
        counts = {
            tid: (n, last)
            for tid, n, last in s.execute(
                select(ActionRow.table_id, func.count(), func.max(ActionRow.at))
                .where(ActionRow.table_id.in_(ids))
                .group_by(ActionRow.table_id)
            ).all()
        }
        out = []
        for r in rows:
            n, last = counts.get(r.id, (0, None))
            out.append(
                PlayerGame(
                    id=r.id, game=r.game, preset=r.preset, options=dict(r.options), status=r.status,
                    host=r.host, created=r.created, actions=int(n), last_action=last, seats=seats[r.id],
                )
            )  # fmt: skip
        return out


def player_names(store: Store, ids: list[str]) -> dict[str, str]:
    """The display names of the players ``ids`` (unknown ids are left out)."""
    if not ids:
        return {}
    with store.sessions() as s:
        return {
            pid: display_name(name, key)
            for pid, name, key in s.execute(
                select(Player.id, Player.name, Player.username_key).where(Player.id.in_(ids))
            )
        }


def table_exists(store: Store, tid: str) -> bool:
    """Is there a table ``tid``, whatever its status?"""
    with store.sessions() as s:
        return s.get(TableRow, tid) is not None


def table_status(store: Store, tid: str) -> str | None:
    """The stored status of table ``tid`` (None: no such table)."""
    with store.sessions() as s:
        row = s.get(TableRow, tid)
        return None if row is None else row.status
