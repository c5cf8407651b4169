"""A table's own timers: its scheduled start, and the close of a waiting
table nobody is at (:data:`ABANDON_AFTER`).

Apart from the actor because both are armed and cancelled from many places
(a socket coming or going, a restart, the start) and share the worker's
timers by key with every other table."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from trumps.room.tables import seating
from trumps.room.tables.errors import TableClosed

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

log = logging.getLogger("trumps.room")

#: A waiting table that no person has been connected to for this many seconds
#: is closed (the room's ``on_abandoned``): it left people seated at a table
#: they had walked away from (their friends saw them still "at" it), and
#: the lobby full of tables nobody would start.
ABANDON_AFTER = 300.0


class Schedule:
    """The start and abandonment timers of one table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def watch_alone(self) -> None:
        """Arm the abandonment timer of a waiting table that no person is
        connected to (from the moment the last one left, or the table was
        made or rebuilt), cancel it when one comes; :data:`ABANDON_AFTER`."""
        t = self.table
        key = (t.id, "abandon")
        alone = not any(c.player is not None for c in t.connections)
        if t.closed or t.status != "waiting" or t.on_abandoned is None or not alone:
            t.timers.cancel(key)
        elif t.timers.deadline(key) is None:
            t.timers.arm(key, t.clock.now() + t.abandon_after, self._abandoned)

    async def _abandoned(self, _key: object) -> None:
        t = self.table
        if t.on_abandoned is not None and t.status == "waiting" and not t.closed:
            await t.on_abandoned(t)

    def arm_start(self) -> None:
        """A scheduled table: start it at its time (also after a restart)."""
        t = self.table
        if not t.closed and t.status == "waiting" and t.settings.start_at is not None:
            t.timers.arm((t.id, "start"), t.settings.start_at, self._start)

    async def _start(self, _key: object) -> None:
        t = self.table
        try:
            async with t.lock:
                if t.status != "waiting":
                    return
                await t.seat_and_start(seating.bots_for_empty(t))
        except TableClosed:
            return
        except Exception as exc:  # e.g. a player can no longer pay the buy-in
            log.exception("scheduled start of table %s failed", t.id)
            await t.notify(f"the game could not start: {exc}")
            return
        await t.changed()
