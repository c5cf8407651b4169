"""Play again: the players of a finished table go on to one new table,
each in the seat they had (issue 30).

The first player who presses Play again makes the new table: the same
game, rules and settings (timers, chat, a Compete buy-in, invitation-only),
the presser seated where they sat, and a bot of the same kind in every seat
a bot held.  The finished table names it (``tables.rematch``, set once: the
first one recorded wins a race between workers), so each player who presses
it afterwards reaches the same table and sits in their own seat (or the
first free one, if someone else took it meanwhile).  The seats of those who
do not come stay free, for anyone to take or the host to fill with bots;
an invitation-only copy lets the old players in.  Nobody is left watching
an empty copy: the presser is seated before the table is recorded, and a
copy they could not sit at (a Compete buy-in they cannot pay any more) is
closed at once.  A copy nobody came to is closed by the room after
:data:`~trumps.room.tables.table.ABANDON_AFTER` like any waiting table.

Like the lichess rematch, it is an offer the others see: the finished
table's state names the new table (``table.rematch``), and the page shows
who went on.
"""

from __future__ import annotations

import asyncio
import weakref
from types import SimpleNamespace
from typing import TYPE_CHECKING, TypedDict

from trumps.core.seats import seat_name
from trumps.room.tables.settings import TableSettings
from trumps.room.tables.table import RoomError, Table

if TYPE_CHECKING:
    from trumps.room.room import Room
    from trumps.room.storage.store import StoredTable

__all__ = ["Again", "play_again"]

# one Play again at a time per finished table on this worker (two players
# pressing at once make one table; between workers the stored mark decides)
_locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()


def _lock(tid: str) -> asyncio.Lock:
    lock = _locks.get(tid)
    if lock is None:
        lock = _locks[tid] = asyncio.Lock()
    return lock


class Again(TypedDict):
    """Where Play again took a player: the new table, the seat held there
    (None: the page sits down), and the seat they had."""

    table: str
    seat: str | None
    wanted: str | None


async def play_again(room: Room, player: str, tid: str) -> Again:
    """``player`` (who sat at the finished table ``tid``) plays again:
    ``{"table": the new table's id, "seat": the seat they hold there, or
    None if it runs on another worker (the page sits down) or every seat
    was taken, "wanted": the seat they had}``.  :class:`RoomError` if ``tid`` is no finished game of
    theirs, or they cannot sit at the new table (nothing is made then)."""
    store = room.store
    async with _lock(tid):
        live = room.tables.get(tid)
        if live is not None and live.status == "finished":
            # its end may still wait in the group commit (it is written after
            # the last state is sent): store it now, the same value
            await store.run(store.set_status, tid, "finished")
        st = await store.read(store.load_table, tid)
        if st is None:
            raise RoomError(f"no table {tid!r}")
        if st.status != "finished":
            raise RoomError("the game is not over yet")
        seat = next((i for i, (p, _bot) in sorted(st.seats.items()) if p == player), None)
        if seat is None:
            raise RoomError("only the players of this game can play it again")
        wanted = seat_name(seat, len(st.seats))
        made = st.rematch is None
        new_id = st.rematch or await _make(room, st, player, seat)
        if made:
            won = await store.run(store.set_rematch, tid, new_id)
            if won != new_id:  # another worker made one first: ours goes
                await _unmake(room, new_id, player)
                if won is None:
                    raise RoomError("the game is not over yet")
                new_id = won
            else:
                await _tell_old(room, tid, new_id)
                return {"table": new_id, "seat": wanted, "wanted": wanted}
        return {"table": new_id, "seat": await _sit(room, new_id, player, seat), "wanted": wanted}


async def _make(room: Room, st: StoredTable, player: str, seat: int) -> str:
    """The new table, ``player`` seated at ``seat``, bots where bots sat."""
    settings = TableSettings.from_stored(st.settings, st.id).model_dump()
    settings["start_at"] = None
    table = await room.create_table(
        player, st.game, st.preset, st.options, settings, matched=settings.get("kind") == "play"
    )
    try:
        players = {p for p, _bot in st.seats.values() if p is not None}
        await table.carry_access(players | set(st.access.get("invited", ())), st.access.get("banned", ()))
        name = await room.player_name(player) or "?"
        await table.sit(SimpleNamespace(player=player, name=name), table.match.seat_name(seat))
        bots = {i: bot for i, (p, bot) in st.seats.items() if p is None and bot is not None}
        await table.seat_bots(bots)
    except BaseException:
        await _unmake(room, table.id, player)
        raise
    return table.id


async def _unmake(room: Room, tid: str, player: str) -> None:
    """Close a copy that is not to be used (its presser stood up first)."""
    table = room.tables.get(tid)
    if table is None:
        return
    if table.seat_of(player) is not None and table.status == "waiting":
        await table.stand(SimpleNamespace(player=player, name=""))
    await room.close_waiting(table, force=True)


async def _sit(room: Room, tid: str, player: str, seat: int) -> str | None:
    """Seat ``player`` at the copy ``tid``: their old seat, or the first
    free one; None if every seat is taken or the copy runs elsewhere."""
    table = room.tables.get(tid)
    if table is None:
        return None
    held = table.seat_of(player)
    if held is not None:
        return table.match.seat_name(held)
    if table.status != "waiting":
        return None
    free = [i for i, s in enumerate(table.seats) if s.empty]
    if not free:
        return None
    chosen = seat if seat in free else free[0]
    name = await room.player_name(player) or "?"
    await table.sit(SimpleNamespace(player=player, name=name), table.match.seat_name(chosen))
    return table.match.seat_name(chosen)


async def _tell_old(room: Room, tid: str, new_id: str) -> None:
    """The finished table, if it still runs here, shows where its players went."""
    old: Table | None = room.tables.get(tid)
    if old is not None:
        old.rematch = new_id
        await old.broadcast()
