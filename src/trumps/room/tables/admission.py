"""Who may be at a table: the table's own rules (private tables and their
invitation, removed people, spectators allowed and how many) and the
room's :class:`Policy` (friends, blocks, accounts) it consults.

Apart from the actor because these rules are the room's, not the game's:
the actor asks :func:`check_entry` when a socket comes and closes the
sockets :func:`enforce` finds no longer welcome."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from trumps.i18n import N_
from trumps.room.tables.errors import AccessDenied, RoomError
from trumps.room.tables.settings import MAX_SPECTATORS
from trumps.room.tables.wire import Connection, new_invite_code

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

NOT_INVITED = N_("this table is private: you need an invitation")


class Policy(Protocol):
    """The room's rules about people that a table consults (friends, blocks,
    accounts: :mod:`trumps.room.tables.access`), and what it tells the room when a
    game ends (ratings)."""

    def may_see(self, table: Table, player: str | None) -> bool: ...

    def sit_refusal(self, table: Table, player: str) -> str | None: ...

    def hidden_from(self, viewer: str | None) -> set[str]: ...

    async def finished(self, table: Table) -> None: ...


def waiting_for_seat(table: Table, player: str | None) -> bool:
    """Whether ``player`` waits to take over a bot's seat at the next deal."""
    return player is not None and player in {p for p, _ in table.pending.values()}


def may_see(table: Table, player: str | None) -> bool:
    """Whether ``player`` may see this table at all (lobby entry, page)."""
    if table.policy is not None:
        return table.policy.may_see(table, player)
    if player is not None and player in table.banned:
        return False
    if not table.settings.private:
        return True
    return player is not None and (
        player == table.host
        or player in table.invited
        or table.seat_of(player) is not None
        or waiting_for_seat(table, player)
    )


def check_entry(table: Table, conn: Connection) -> None:
    """Raise :class:`AccessDenied` if ``conn`` may not be connected now."""
    player = conn.player
    if player is not None and player in table.banned:
        raise AccessDenied("you were removed from this table")
    if not may_see(table, player):
        why = getattr(table.policy, "not_seen_because", None)
        reason = why(table, player) if why is not None else None
        raise AccessDenied(reason or NOT_INVITED)
    if table.seat_of(player) is not None or player == table.host:
        return
    if waiting_for_seat(table, player):
        return
    if table.status == "playing" and not table.settings.watching:
        raise AccessDenied("this table does not allow spectators")
    others = {p for p in table.spectators() if p != player}
    if len(others) >= MAX_SPECTATORS and player not in others:
        raise AccessDenied(f"this table already has {MAX_SPECTATORS} spectators")


async def enforce(table: Table) -> None:
    """Close every connection that may no longer be here (revoked
    invitation, removed spectator, game started without spectators)."""
    for conn in list(table.connections):
        try:
            check_entry(table, conn)
        except AccessDenied as exc:
            table.connections.discard(conn)
            with contextlib.suppress(Exception):
                await conn.send(table.error(str(exc)))
                await conn.close(4403)


async def store(table: Table) -> None:
    access = {"invited": sorted(table.invited), "banned": sorted(table.banned)}
    await table.store.run(table.store.set_access, table.id, table.invite, access)


async def revoke_invite(table: Table, conn: Connection) -> None:
    """Host only (called with the lock held): a new invitation code; the old
    one and everyone let in by it (without a seat) lose access at once."""
    if conn.player != table.host:
        raise RoomError("only the host can change the invitation")
    if not table.settings.private:
        raise RoomError("this table is public: there is no invitation to revoke")
    table.invite = new_invite_code()
    table.invited.clear()
    await store(table)
    await enforce(table)


async def remove_spectator(table: Table, conn: Connection, player: str) -> None:
    """Host only (called with the lock held): remove a spectator, who cannot
    come back."""
    if conn.player != table.host:
        raise RoomError("only the host can remove a spectator")
    if player == table.host:
        raise RoomError("you cannot remove yourself")
    if table.seat_of(player) is not None:
        raise RoomError("that person has a seat at this table, not a spectator")
    if player not in table.spectators():
        raise RoomError("no such spectator at this table")
    table.banned.add(player)
    table.invited.discard(player)
    await store(table)
    await enforce(table)


async def admit(table: Table, player: str) -> None:
    """``player`` used this table's invitation."""
    if player in table.banned:
        raise AccessDenied("you were removed from this table")
    if player not in table.invited:
        table.invited.add(player)
        await store(table)


async def carry(table: Table, invited: Iterable[str], banned: Iterable[str]) -> None:
    """A Play again copy (:mod:`trumps.room.rematch`) keeps who was let
    in and who was removed at the finished table."""
    table.banned |= set(banned)
    table.invited |= set(invited) - table.banned
    await store(table)
