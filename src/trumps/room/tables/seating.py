"""Seat changes and the start: people sitting and standing, bots seated by
the host, and the start of a table whose seats are all filled.

Apart from the actor because the rules of a seat (the host's rights, a
Compete table's buy-in and single bot level, a bot's seat taken over at
the next deal) are many and change with the room; each function here runs
under the table's lock, and the actor broadcasts afterwards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.core.errors import TrumpsError
from trumps.room.tables import admission as access
from trumps.room.tables.ending import ledger_of
from trumps.room.tables.errors import RoomError
from trumps.room.tables.settings import bot_level
from trumps.room.tables.timers import SLACK
from trumps.room.tables.wire import LIVE, Connection, Seat

if TYPE_CHECKING:
    from trumps.room.tables.table import Table


def seat_index(table: Table, text: str) -> int:
    try:
        return table.match.seat(text)
    except TrumpsError as exc:
        raise RoomError(str(exc)) from None


async def sit(table: Table, conn: Connection, seat_text: str) -> None:
    if conn.player is None:
        raise RoomError("choose a name before taking a seat")
    seat = seat_index(table, seat_text)
    if table.seat_of(conn.player) is not None:
        raise RoomError("you already have a seat at this table")
    if table.status == "finished":
        raise RoomError("the game is over")
    refusal = table.policy.sit_refusal(table, conn.player) if table.policy is not None else None
    if refusal is not None:
        raise RoomError(refusal)
    current = table.seats[seat]
    if current.player is not None:
        raise RoomError(f"seat {seat_text} is taken")
    if table.settings.competition:
        if table.status == "playing":
            raise RoomError("a competition game under way takes no new players")
        await check_chips(table, conn.player)
    if current.bot is not None and table.status == "playing":
        if access.waiting_for_seat(table, conn.player):
            raise RoomError("you are already waiting for a seat")
        table.pending[seat] = (conn.player, conn.name)
    else:
        await table.seat_and_start([(seat, Seat(conn.player, conn.name, None))])


async def check_chips(table: Table, player: str) -> None:
    competition = ledger_of(table)
    buy_in = table.settings.buy_in
    have = await table.store.run(competition.chips, table.store, player)
    if have < buy_in:
        raise RoomError(f"the buy-in is {buy_in} chips and you have {have}")


async def free(table: Table, seat: int) -> None:
    """Empty ``seat`` (stored first)."""
    await table.store.write(table.store.seat_write, table.id, seat, None, None)
    table.seats[seat] = Seat()
    table.replays.seated(seat, None)


async def stand(table: Table, conn: Connection) -> None:
    seat = table.seat_of(conn.player)
    if seat is None:
        raise RoomError("you have no seat at this table")
    if table.status == "playing":
        raise RoomError("the game is under way: you cannot leave your seat now")
    await free(table, seat)


async def set_bot(table: Table, conn: Connection, seat_text: str, kind: str | None) -> None:
    """Host only: seat a bot, or (``kind`` None) empty a bot's seat; mid-game
    the game then waits at that seat until someone sits there."""
    if conn.player != table.host:
        raise RoomError("only the host can seat bots")
    seat = seat_index(table, seat_text)
    current = table.seats[seat]
    if current.player is not None:
        raise RoomError(f"seat {seat_text} is held by {current.name}")
    if kind is None and table.status == "playing" and table.settings.competition:
        raise RoomError("a bot cannot leave a competition game under way")
    if table.status == "finished":
        raise RoomError("the game is over")
    if kind is None:
        table.pending.pop(seat, None)
    else:
        check_bot_level(table, kind, seat)
    await table.seat_and_start([(seat, Seat(None, None, kind))])


async def fill_bots(table: Table, conn: Connection, kind: str) -> None:
    if conn.player != table.host:
        raise RoomError("only the host can seat bots")
    check_bot_level(table, kind)
    await table.seat_and_start(bots_for_empty(table, kind))


async def seat_bots(table: Table, bots: dict[int, str]) -> None:
    """Bots of the given kinds at the given empty seats (a Play again
    copy: the bots the finished table had), starting it if that fills it."""
    changes = [(i, Seat(None, None, kind)) for i, kind in sorted(bots.items()) if table.seats[i].empty]
    for i, seat in changes:
        assert seat.bot is not None
        check_bot_level(table, seat.bot, i)
    await table.seat_and_start(changes)


def check_bot_level(table: Table, kind: str, seat: int | None = None) -> None:
    """At a Compete table every bot plays at one level (chips move only
    then: trumps.room.compete.competition.unpaid_reason), so a bot of another
    level than those seated (other than at ``seat``) is refused up front,
    rather than the game being played for nothing."""
    if not table.settings.competition:
        return
    levels = {bot_level(s.bot) for i, s in enumerate(table.seats) if s.bot is not None and i != seat}
    if levels and bot_level(kind) not in levels:
        level = ", ".join(sorted(levels))
        raise RoomError(f"at a Compete table every bot plays at the same level: {level} here")


def bots_for_empty(table: Table, kind: str = "rules") -> list[tuple[int, Seat]]:
    """A bot of ``kind`` for every empty seat (to give :func:`seat_and_start`)."""
    return [(i, Seat(None, None, kind)) for i, s in enumerate(table.seats) if s.empty]


def may_start(table: Table, seats: list[Seat]) -> bool:
    """Whether a waiting table with ``seats`` starts now: every seat
    filled and, if scheduled, its time come."""
    if table.status != "waiting" or any(s.empty for s in seats):
        return False
    start_at = table.settings.start_at
    return start_at is None or table.clock.now() >= start_at - SLACK


async def seat_and_start(table: Table, changes: list[tuple[int, Seat]]) -> None:
    """Store seat ``changes`` and, when they fill a waiting table that may
    start now, its start, in ONE transaction; then make them here.

    Committed apart (as they were), a crash between the last seat and
    the status left a table "waiting" with every seat taken that nobody
    could start or leave.  A Compete table's start charges every
    player in that transaction too (:func:`competition.start_seated`):
    a player who cannot pay any more (the chips went to another table
    starting at the same moment, a double booking) loses the seat in it
    instead, nobody is charged, and the table waits for another player.
    A refused transaction (an unknown player) changes nothing."""
    after = list(table.seats)
    for i, seat in changes:
        after[i] = seat
    writes = [(i, seat.player, seat.bot) for i, seat in changes]
    freed: list[int] = []
    started: float | None = None
    store = table.store
    if not may_start(table, after):
        if writes:
            await store.write(store.seats_write, table.id, writes)
    elif table.settings.competition:
        competition = ledger_of(table)
        started = table.clock.now()
        buy_in = table.settings.buy_in
        freed = await store.run(competition.start_seated, store, table.id, writes, buy_in, started)
    else:
        started = table.clock.now()
        await store.write(store.seats_write, table.id, writes, started)
    for i, seat in changes:
        table.seats[i] = seat
        table.replays.seated(i, seat.player)
    if freed:
        for i in freed:
            name = table.seats[i].name
            table.seats[i] = Seat()
            table.replays.seated(i, None)
            table.spawn(
                table.notify(f"{name} cannot pay the buy-in of {table.settings.buy_in} chips any more")
            )
        return
    if started is not None:
        table.status = "playing"
        table.started = started
        table.timers.cancel((table.id, "start"))
        table.timers.cancel((table.id, "abandon"))
        await access.enforce(table)


async def leave_seat(table: Table, player: str) -> bool:
    """``player`` goes to play elsewhere (Play pressed while seated here,
    :mod:`trumps.room.people.play`): a waiting table's seat is freed; in a game
    under way the seat is marked away, a bot plays it at bot pace (the
    game is not stopped for them), and "I'm back" takes it again.  Whether
    anything changed."""
    seat = table.seat_of(player)
    if seat is None or table.status not in LIVE:
        return False
    if table.status == "waiting":
        await free(table, seat)
    else:
        table.away.idle.add(seat)
    return True
