"""The end of a game: its status stored (or a competition's pay-out made)
and the room told (ratings).

Apart from the actor because the end is where the chips move
(:mod:`trumps.room.compete.competition`) and where the room's :class:`Policy`
hears of the game; the actor only calls :func:`finish` when the match is over."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol, TypedDict

from trumps.room.tables.errors import RoomError

if TYPE_CHECKING:
    from trumps.room.storage.store import Store
    from trumps.room.tables.table import Table

log = logging.getLogger("trumps.room")


class ChipEntry(TypedDict):
    """One human seat's result at the end of a Compete game, as the table
    gives it to the ledger's ``pay_out``."""

    player: str
    seat: int
    won: bool
    score: int  # the side's final score
    deals: int


class Ledger(Protocol):
    """The chips of Compete tables: the balance a buy-in is checked
    against, the buy-ins charged at the start and the pay-out at the end
    (:mod:`trumps.room.compete.competition`, given by the room: the tables
    do not know the competition, they are given it, as they are given the
    people's :class:`~trumps.room.tables.admission.Policy`)."""

    def chips(self, store: Store, player_id: str) -> int: ...

    def start_seated(
        self,
        store: Store,
        table_id: str,
        seats: list[tuple[int, str | None, str | None]],
        buy_in: int,
        started: float,
    ) -> list[int]: ...

    def pay_out(
        self,
        store: Store,
        table_id: str,
        game: str,
        buy_in: int,
        entries: list[ChipEntry],
        sides: int | None = None,
        draw: bool = False,
        at: float | None = None,
    ) -> str | None: ...


def ledger_of(table: Table) -> Ledger:
    """The ledger of a Compete table's chips (the room gives it)."""
    if table.ledger is None:
        raise RoomError("this room keeps no chips: Compete tables cannot be played here")
    return table.ledger


async def finish(table: Table, *, defer: bool = False) -> asyncio.Future[None] | None:
    """The game is over.  With ``defer``, the status write of an ordinary
    table is only queued and returned, to be awaited after the final
    state is sent: the action that ended the game is already stored, and
    a table stored as playing whose log ends the game is finished again
    at start-up (:meth:`Table.resume`), so the end costs no second commit
    wait (it did for the last action of every game).  A competition's
    pay-out is always made before anything is shown."""
    table.status = "finished"
    if table.policy is not None:  # ratings: after the end is stored (they are idempotent)
        table.spawn(tell_finished(table))
    store = table.store
    if table.settings.competition:
        competition = ledger_of(table)
        winner = table.match.winner
        sides = len(table.match.teams)
        await store.run(
            competition.pay_out,
            store,
            table.id,
            table.game,
            table.settings.buy_in,
            entries(table),
            sides,
            winner is None,
        )
        return None
    write = asyncio.ensure_future(store.write(store.status_write, table.id, "finished"))
    if defer:
        return write
    await write
    return None


def entries(table: Table) -> list[ChipEntry]:
    """Each seated player's result, as the pay-out reads it."""
    match = table.match
    winner = match.winner
    return [
        {
            "player": s.player,
            "seat": i,
            "won": winner is not None and match.team_of(i) == winner,
            "score": match.scores[match.team_of(i)],
            "deals": len(match.results),
        }
        for i, s in enumerate(table.seats)
        if s.player is not None
    ]


async def tell_finished(table: Table) -> None:
    # the end (and any pay-out) is stored by then; told even if the table
    # was closed meanwhile (a finished table is not handed over)
    await table.lock.acquire()
    table.lock.release()
    if table.policy is not None:
        try:
            await table.policy.finished(table)
        except Exception:
            log.exception("after the end of table %s", table.id)
