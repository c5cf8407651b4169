"""Which tables this worker runs: taken, made and let go (:class:`Takeover`).

A new table belongs to the worker that made it.  Once a second (and at
once when a worker hands its tables over) every worker looks for
unfinished tables nobody holds (:mod:`~trumps.room.cluster.ownership`) and
takes them: rebuilt from the stored actions, timers re-armed from the
stored times (``Table.resume``), announced with ``owned``.  A table is let
go when it finishes, when it is handed over, when another worker fenced
it, or with the lock connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING

from trumps.room.cluster.relay import RemoteConnection, routing_name
from trumps.room.tables.table import TableClosed

if TYPE_CHECKING:
    from trumps.room.cluster.handover import Heirs
    from trumps.room.cluster.lobby import LobbyMirror
    from trumps.room.cluster.sockets import StandIns
    from trumps.room.cluster.state import Shared
    from trumps.room.tables.table import Connection, Table

__all__ = ["TAKE_AT_ONCE", "Takeover"]

log = logging.getLogger("trumps.cluster")

TAKE_AT_ONCE = 8  # tables a worker takes over at the same time


class Takeover:
    """This worker's tables as the locks say: it takes the tables nobody
    runs, claims the ones it makes, and lets tables go (their sockets told
    where to find them next)."""

    def __init__(self, state: Shared, mirror: LobbyMirror, stand_ins: StandIns, heirs: Heirs) -> None:
        self.state = state
        self.mirror = mirror  # (a table taken is published)
        self.stand_ins = stand_ins  # (a table let go lets its stand-ins go)
        self.heirs = heirs  # (a table handed to an heir is left to it)
        self.takeovers: list[tuple[str, float]] = []  # (table, seconds the rebuild took)
        self.making: set[str] = set()  # tables this worker claimed and is storing

    async def take_orphans(self) -> None:
        """Take every unfinished table nobody runs (nor makes, nor is handed)."""
        s = self.state
        self.heirs.forget_graces()
        orphans = [
            t
            for t in await s.owner.orphans()
            if t not in s.room.tables and t not in self.making and not self.heirs.left_to_heir(t)
        ]
        random.shuffle(orphans)  # several workers taking over spread the tables between them
        await self.take_all(orphans)

    async def take_all(self, tids: list[str]) -> None:
        """Claim and take ``tids``, :data:`TAKE_AT_ONCE` at a time.  A worker
        taking a stopped worker's tables is also answering all their
        sockets coming back, and a take's time is mostly its turns on the
        database thread behind theirs: taken one after another, the last of
        30 tables waited 2 s (``benchmarks/room_load.py --rolling``)."""
        sem = asyncio.Semaphore(TAKE_AT_ONCE)

        async def one(tid: str) -> None:
            async with sem:
                if self.state.stopping or not await self.state.owner.claim(tid):
                    return
                try:
                    await self.take(tid)
                except Exception:
                    # not run here: let it go, for the next scan (here or elsewhere)
                    log.exception("cluster: could not take table %s", tid)
                    if tid not in self.state.room.tables:
                        with contextlib.suppress(Exception):
                            await self.state.owner.release(tid)

        await asyncio.gather(*(one(t) for t in tids))

    async def take(self, tid: str) -> None:
        s = self.state
        t0 = time.perf_counter()
        room = s.room
        st = await room.store.read(room.store.load_table, tid)
        if st is None or st.status not in ("waiting", "playing") or tid in room.tables:
            await s.owner.release(tid)
            self.heirs.arrived_here(tid, tid in room.tables)
            if tid not in room.tables:  # (a worker handing it over need not wait for it)
                s.bus.send(None, {"k": "declined", "t": tid})
            return
        seated = [player for player, _bot in st.seats.values() if player]
        known = await room.people.learn_many(seated)  # one trip to the busy database thread
        for player in seated:
            if player not in known:
                room.names[player] = "?"
        s.remote.pop(tid, None)
        self.heirs.taken(tid)
        table = await room.rebuild(st)  # (handed over again at once, a stop, is no failure)
        if table is None:  # set aside as broken: nobody runs it, and no later scan finds it
            await s.owner.release(tid)
            self.heirs.arrived_here(tid, False)
            s.bus.send(None, {"k": "declined", "t": tid})
            return
        self.heirs.arrived_here(tid, True)
        self.mirror.publish(table)
        s.bus.send(None, {"k": "owned", "t": tid})
        self.takeovers.append((tid, time.perf_counter() - t0))
        log.info("cluster: worker %s took table %s", s.worker, tid)

    async def claim_new(self, tid: str) -> None:
        """A table this worker is making is its own (claimed before its row
        is stored, so no scan can find it unowned; :meth:`made` once live)."""
        self.making.add(tid)
        if not await self.state.owner.claim(tid):
            self.making.discard(tid)
            raise RuntimeError(f"table {tid} is already owned")

    def made(self, tid: str) -> None:
        self.making.discard(tid)

    def fenced(self, table: Table) -> None:
        """Another worker wrote the next action of a table this one runs:
        this worker lost it (its lock went with a broken connection).  Stop
        running it; its sockets reconnect and find the new owner."""
        log.error("cluster: table %s was taken over by another worker; letting it go", table.id)
        self.state.spawn(self.release(table.id, moved=True, locked=False))

    async def release(self, tid: str, *, moved: bool, locked: bool = True, heir: str | None = None) -> None:
        """Stop running ``tid`` here.  ``moved``: it goes on elsewhere (its
        sockets are told to find it there); ``heir``: the worker to take it
        (the others leave it to that one for
        :data:`~trumps.room.cluster.handover.HEIR_GRACE`)."""
        s = self.state
        table = s.room.tables.get(tid)
        if table is None:
            return
        heir_name = routing_name(heir) if heir is not None else None
        local: list[Connection] = []
        try:
            async with table.lock:  # what the table is doing is finished and stored
                await table.close()
                s.room.tables.pop(tid, None)
                for conn in list(table.connections):
                    table.connections.discard(conn)
                    if isinstance(conn, RemoteConnection):
                        self.stand_ins.let_go(conn, tid, moved)
                    elif moved:
                        local.append(conn)
                if locked:
                    with contextlib.suppress(Exception):
                        await s.owner.release(tid)
        except TableClosed:
            return  # released meanwhile by another call (a fence, a lost lock, the handover)
        if moved:
            s.bus.send(None, {"k": "released", "t": tid, "to": heir})
        else:
            s.bus.send(None, {"k": "unlisted", "t": tid})
        for conn in local:
            with contextlib.suppress(Exception):
                # behind a routing proxy the page goes straight to the heir
                # (it was let in here, so it may know where the table runs)
                if heir_name is not None and getattr(conn, "routing", False):
                    await conn.send({"type": "route", "worker": heir_name})
                await conn.close(1012)  # the client reconnects and finds the new owner
