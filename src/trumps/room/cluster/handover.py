"""Tables handed from a stopping worker to its heirs (:class:`Handover`, :class:`Heirs`).

A worker stopped normally, before it closes any socket
(:meth:`Cluster.hand_over`, called by ``trumps serve`` ahead of uvicorn's
shutdown), finishes what each table is doing and gives it to one heir, the
live worker running the fewest tables, which takes it at once.  Behind a
routing proxy its sockets are told the heir and go straight there; the
heir's socket waits the moment the table takes to arrive instead of being
relayed.

Two sides, two classes: :class:`Handover` is this worker handing its own
tables over; :class:`Heirs` is what it knows of the others' handovers (a
table left to its heir a moment, a socket waiting here for its table).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import TYPE_CHECKING

from trumps.room.cluster.state import BEAT_INTERVAL, DEAD_AFTER

if TYPE_CHECKING:
    from trumps.room.cluster.asking import Matchmaker
    from trumps.room.cluster.messages import ReleasedMessage, TableMessage
    from trumps.room.cluster.state import Shared
    from trumps.room.cluster.takeover import Takeover

__all__ = ["ARRIVAL_WAIT", "HAND_PACED", "HAND_PER_HEIR", "HAND_WAIT", "HEIR_GRACE", "Handover", "Heirs"]

ARRIVAL_WAIT = 2.0  # at most, a socket sent to this worker waits for its table to arrive
HEIR_GRACE = 3.0  # seconds the others leave a table handed to an heir before taking it
HAND_PER_HEIR = 2  # tables a stopping worker hands an heir at a time (the fewest-loaded first)
HAND_WAIT = 1.0  # at most, seconds it waits for them (then it hands the next ones over anyway)
HAND_PACED = 10.0  # after this many seconds of handing over, the rest go at once (the stop is bounded)


class Handover:
    """This worker handing its tables over as it stops: each to one heir, a
    few at a time, the next ones once the heirs announce they run these."""

    def __init__(self, state: Shared, takeover: Takeover, matchmaker: Matchmaker) -> None:
        self.state = state
        self.takeover = takeover  # (its release lets a table go, to an heir)
        self.matchmaker = matchmaker
        # tables handed over, until their heir announces it has them
        self._owned_wanted: dict[str, asyncio.Future[None]] = {}

    async def hand_over(self) -> None:
        """Give every table to another worker while this one still holds
        its sockets (a rolling restart: ``trumps serve`` calls this before
        uvicorn closes them).  Each table goes to one heir, the live worker
        running the fewest, so the tables spread and nobody races for them;
        the table's sockets are told the heir (behind a routing proxy) or
        closed with 1012, and come back to the table at once.  An heir is
        given :data:`HAND_PER_HEIR` tables at a time, the next ones when it
        announces it runs these (at most :data:`HAND_WAIT` later), so it is
        never flooded; the rest play on here meanwhile."""
        s = self.state
        if not s.stopping:
            s.stopping = True
            s.bus.send(None, {"k": "leaving"})
            # every worker knows this one is leaving before any socket is sent
            # on: a socket that reaches its heir before the table does waits
            # there for the table (Cluster.arrival) instead of being relayed
            await s.bus.flushed()
            await self.matchmaker.give_up()
        load = dict.fromkeys(s.live_others(2 * BEAT_INTERVAL), 0)  # heard from lately: alive
        for entry in s.remote.values():
            if entry.worker in load:
                load[entry.worker] += 1
        # a few at a time, each batch once its heirs have the one before: a
        # table waits for its own take, not behind every other table's (an
        # heir given 25 at once took the last after 1.9 s; docs/benchmarks.md)
        paced_until = time.monotonic() + HAND_PACED
        for _round in range(5):  # (a table made or taken meanwhile goes too)
            if not s.room.tables:
                break
            tids = list(s.room.tables)
            while tids:
                # (an heir that left or died meanwhile is given no more)
                alive = s.live_others(DEAD_AFTER)
                load = {w: n for w, n in load.items() if w in alive}
                paced = time.monotonic() < paced_until
                given: dict[str, int] = {}
                taken: list[asyncio.Future[None]] = []
                while tids:
                    tid = tids[0]
                    table = s.room.tables.get(tid)
                    heir = None
                    # (nobody takes a finished table)
                    if load and table is not None and table.status in ("waiting", "playing"):
                        heir = min(load, key=lambda w: (load[w], random.random()))
                        if paced and given.get(heir, 0) >= HAND_PER_HEIR:
                            break  # the batch is full: the heirs take it first
                        given[heir] = given.get(heir, 0) + 1
                        load[heir] += 1
                        taken.append(self.expect_owned(tid))
                    del tids[0]
                    await self.takeover.release(tid, moved=True, heir=heir)
                if taken:  # the tables not handed yet play on here meanwhile
                    await asyncio.wait(taken, timeout=HAND_WAIT)
                for fut in taken:
                    fut.cancel()
            self._owned_wanted.clear()

    def expect_owned(self, tid: str) -> asyncio.Future[None]:
        """A future done when another worker announces it runs ``tid``."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._owned_wanted[tid] = fut
        return fut

    def owned(self, tid: str) -> None:
        """Another worker announced it runs ``tid``: if it was handed from here, it has it."""
        wanted = self._owned_wanted.pop(tid, None)
        if wanted is not None and not wanted.done():
            wanted.set_result(None)

    async def on_declined(self, m: TableMessage) -> None:
        """The table needs no owner (it finished as it was handed over)."""
        wanted = self._owned_wanted.pop(m["t"], None)
        if wanted is not None and not wanted.done():
            wanted.set_result(None)


class Heirs:
    """Other workers' handovers, as this worker sees them: a table handed
    to an heir is left to it for :data:`HEIR_GRACE` (no other scan takes
    it), and a socket sent here by name waits for its table to arrive
    (:meth:`arrival`) instead of being relayed."""

    def __init__(self, state: Shared) -> None:
        self.state = state
        self.handed: dict[str, tuple[str, float]] = {}  # table -> (its heir, until when the others leave it)
        self._arrivals: dict[str, set[asyncio.Future[bool]]] = {}  # table -> sockets waiting for it here

    def forget_graces(self) -> None:
        """Forget the heirs' grace once it is over."""
        now = time.monotonic()
        if self.handed:
            self.handed = {t: h for t, h in self.handed.items() if h[1] > now}

    def left_to_heir(self, tid: str) -> bool:
        """``tid`` was handed to an heir a moment ago: nobody else takes it."""
        return tid in self.handed

    def taken(self, tid: str) -> None:
        """This worker takes ``tid``: it is left to no heir any more."""
        self.handed.pop(tid, None)

    async def on_released(self, m: ReleasedMessage) -> None:
        s = self.state
        heir, tid = m.get("to"), m["t"]
        if heir is not None and heir != s.worker:
            # left to its heir a moment (whose socket may be on its way there)
            self.handed[tid] = (heir, time.monotonic() + HEIR_GRACE)
            self.arrived_here(tid, False)
            return
        if heir == s.worker and s.stopping:  # handed to a worker that is leaving too: to anyone
            s.bus.send(None, {"k": "released", "t": tid, "to": None})
            return
        # to this worker, or to anyone: not left to an earlier heir any more
        # (a table can move twice within HEIR_GRACE in a rolling restart)
        self.handed.pop(tid, None)
        if heir is None:
            await asyncio.sleep(random.random() * 0.02)
        s.wake.set()  # take it now, not at the next scan

    def heir_gone(self, worker: str) -> None:
        """``worker`` is leaving or gone: tables handed to it are anyone's now."""
        dropped = [t for t, (heir, _until) in self.handed.items() if heir == worker]
        for tid in dropped:
            del self.handed[tid]
        if dropped:
            self.state.wake.set()

    def arrived_here(self, tid: str, here: bool) -> None:
        for fut in self._arrivals.pop(tid, set()):
            if not fut.done():
                fut.set_result(here)

    async def arrival(self, tid: str) -> bool:
        """Wait (at most :data:`ARRIVAL_WAIT`) for ``tid`` to be run here: a
        socket was sent to this worker by name (the heir's name, at a
        handover) while the table's worker hands it over.  False at once
        for a table nobody runs or a live worker runs and keeps; False when
        another worker took it or it did not come."""
        s = self.state
        if tid in s.room.tables:
            return True
        entry = s.remote.get(tid)
        if (
            entry is None
            or entry.status not in ("waiting", "playing")
            or (entry.worker in s.beats and entry.worker not in s.leaving)
        ):
            return False  # nothing to wait for
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        waiting = self._arrivals.setdefault(tid, set())
        waiting.add(fut)
        try:
            return await asyncio.wait_for(fut, ARRIVAL_WAIT)
        except TimeoutError:
            return tid in s.room.tables
        finally:
            waiting.discard(fut)
            if not waiting and self._arrivals.get(tid) is waiting:
                del self._arrivals[tid]
