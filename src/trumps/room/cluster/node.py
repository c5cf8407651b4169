"""One worker of a room that runs on several (:class:`Cluster`).

Every worker serves any browser; each live table is run by exactly one
worker, its owner (:mod:`~trumps.room.cluster.ownership`).  This module
ties the pieces together (each in a module of its own, given what it
needs: :mod:`~trumps.room.cluster.state`):

- **Ownership** (:mod:`~trumps.room.cluster.takeover`).  A new table
  belongs to the worker that made it.  Once a second (and at once when a
  worker hands its tables over) every worker looks for unfinished tables
  nobody holds and takes them: rebuilt from the stored actions, timers
  re-armed from the stored times (``Table.resume``), announced with
  ``owned``.
- **Relaying** (:mod:`~trumps.room.cluster.sockets`).  A socket for a
  table run elsewhere is relayed (:mod:`~trumps.room.cluster.relay`).
  Delivery gaps are repaired by opening again with the last ``seq`` the
  socket has.
- **The lobby** (:mod:`~trumps.room.cluster.lobby`).  Each owner publishes
  a table's summary when it changes, with the facts the access rules need
  (host, members, invited, removed); every worker keeps the others' in
  :attr:`Cluster.remote`, so each lobby lists every table its viewer may
  see, whichever worker runs it.
- **People** (:mod:`~trumps.room.cluster.people`).  Presence, pushes to a
  person's own channel, friendship changes and ended sessions are
  broadcast, so they hold on every worker.
- **Liveness** (here).  Workers beat once a second; the stand-ins of
  sockets on a worker that stopped beating leave their tables (a seat
  becomes away, and after the grace a bot plays it, as for any dropped
  socket).
- **Handover** (:mod:`~trumps.room.cluster.handover`).  A worker stopped
  normally, before it closes any socket (:meth:`Cluster.hand_over`, called
  by ``trumps serve`` ahead of uvicorn's shutdown), finishes what each
  table is doing and gives it to one heir, the live worker running the
  fewest tables, which takes it at once.  Behind a routing proxy its
  sockets are told the heir and go straight there; the heir's socket waits
  the moment the table takes to arrive instead of being relayed.
- **The Play button** (:mod:`~trumps.room.cluster.asking`).  One worker
  (whoever holds the matchmaker's lock; another takes it when it dies)
  runs the matchmaker; the others forward Play requests to it, so players
  on any worker are matched together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncIterable, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from trumps.room.cluster.asking import Asks, Matchmaker
from trumps.room.cluster.bus import Bus, stop_tasks
from trumps.room.cluster.handover import Handover, Heirs
from trumps.room.cluster.lobby import LobbyMirror, RemoteTable
from trumps.room.cluster.ownership import Ownership
from trumps.room.cluster.people import PeopleAcross
from trumps.room.cluster.sockets import Relays, StandIns
from trumps.room.cluster.state import BEAT_INTERVAL, DEAD_AFTER, Shared
from trumps.room.cluster.takeover import Takeover

if TYPE_CHECKING:
    from trumps.room.cluster.messages import Answer, AskRequest, BusMessage, TableMessage
    from trumps.room.room import Room
    from trumps.room.tables.table import Connection, Table

__all__ = ["Cluster", "RemoteTable"]

log = logging.getLogger("trumps.cluster")

SCAN_INTERVAL = 1.0  # seconds between looks for tables nobody runs
STOP_HANDOVER_LIMIT = 15.0  # at most, seconds a leaving worker spends handing tables over in stop()

#: a bus message's handler (each reads the message shape its kind names)
Handler = Callable[[Any], Awaitable[None]]


class Cluster:
    """This worker's part in a room spread over several processes: its life
    (start, the beats and the scans, stop), the dispatch of the bus's
    messages to the parts that handle them, and what the rest of the room
    calls (each handed on to the part whose job it is)."""

    def __init__(self, room: Room, url: str, worker: str | None = None) -> None:
        self.room = room
        # this process's id among the workers: its --worker-name (what the
        # proxy routes by) plus a part drawn at each start, so that a worker
        # restarted under its name, or two started by mistake under one, are
        # never taken for each other (beats, presence, relays); see routing_name
        self.worker = f"{worker}_{secrets.token_hex(3)}" if worker else secrets.token_hex(4)
        self.state = Shared(
            room, self.worker, Bus(url, self.worker, self._arrived, self._gap), Ownership(url)
        )
        self.mirror = LobbyMirror(self.state)
        self.relays = Relays(self.state)
        self.stand_ins = StandIns(self.state)
        self.people = PeopleAcross(self.state)
        self.matchmaker = Matchmaker(self.state)
        self.asks = Asks(self.state, self.matchmaker)
        self.heirs = Heirs(self.state)
        self.takeover = Takeover(self.state, self.mirror, self.stand_ins, self.heirs)
        self.handover = Handover(self.state, self.takeover, self.matchmaker)
        self._tasks: list[asyncio.Task[None]] = []
        self._handlers = self._dispatch()

    # ----- what the parts share, as the room reads it ------------------------------------
    @property
    def bus(self) -> Bus:
        return self.state.bus

    @property
    def owner(self) -> Ownership:
        return self.state.owner

    @property
    def remote(self) -> dict[str, RemoteTable]:
        """The tables other workers run (their lobby entries)."""
        return self.state.remote

    @property
    def online(self) -> defaultdict[str, set[str]]:
        """player -> the other workers with their channel open."""
        return self.people.online

    @property
    def leader(self) -> bool:
        """This worker runs the matchmaker (the Play button) for the room."""
        return self.matchmaker.leader

    # ----- life ---------------------------------------------------------------------
    async def start(self) -> None:
        await self.owner.start()
        await self.bus.start()
        self.bus.send(None, {"k": "hello"})
        await self.scan()
        self._tasks = [
            asyncio.create_task(self._scan_loop(), name="cluster-scan"),
            asyncio.create_task(self._beat_loop(), name="cluster-beat"),
        ]

    async def hand_over(self) -> None:
        """Give every table to another worker while this one still holds
        its sockets (:meth:`Handover.hand_over`)."""
        await self.handover.hand_over()

    async def stop(self) -> None:
        """Hand every table over (if :meth:`hand_over` was not called), then
        leave.  The handover is bounded (:data:`STOP_HANDOVER_LIMIT`): a table
        whose lock never comes back (a write that hangs) must not keep the
        worker from leaving; its lock goes with this worker's lock connection
        and the others' scans take it from the stored log."""
        try:
            await asyncio.wait_for(self.hand_over(), STOP_HANDOVER_LIMIT)
        except TimeoutError:
            log.error(
                "cluster: the handover took more than %.0f s; the others take the rest", STOP_HANDOVER_LIMIT
            )
        await stop_tasks(self._tasks)
        self.relays.goodbye()
        self.bus.send(None, {"k": "bye"})
        await self.bus.stop()
        await self.owner.stop()

    async def _scan_loop(self) -> None:
        while True:
            # (asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows
            # a cancel that meets the wake-up, the loop went on, and stop()
            # waited for it for ever)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SCAN_INTERVAL):
                    await self.state.wake.wait()
            self.state.wake.clear()
            try:
                await self.scan()
            except Exception:
                log.exception("cluster: scan failed")

    async def _beat_loop(self) -> None:
        while True:
            self.bus.send(None, {"k": "beat"})
            now = time.monotonic()
            for worker, seen in list(self.state.beats.items()):
                if now - seen > DEAD_AFTER:
                    del self.state.beats[worker]
                    await self._worker_gone(worker)
            await asyncio.sleep(BEAT_INTERVAL)

    def stopping(self) -> bool:
        return self.state.stopping

    async def scan(self) -> None:
        """Take every unfinished table nobody runs."""
        if self.state.stopping:
            await self.matchmaker.take_back()
            return
        if not await self.owner.check():  # the locks are gone: so are our tables
            log.error("cluster: lost the lock connection; dropping every table")
            # and the matchmaker's lock: whoever claims it next gets the players
            self.matchmaker.lost()
            for tid in list(self.room.tables):
                await self.release(tid, moved=True, locked=False)
            await self.owner.stop()
            await self.owner.start()
            return
        if not await self.matchmaker.claim():
            return  # (the handover began while this scan claimed it)
        await self.takeover.take_orphans()

    async def _worker_gone(self, worker: str) -> None:
        """A worker stopped beating: its sockets are gone; its tables are
        taken by the scan; relays to it wait for the new owner's ``owned``."""
        log.warning("cluster: worker %s is gone", worker)
        await self.stand_ins.worker_gone(worker)
        self.state.leaving.discard(worker)
        self.heirs.heir_gone(worker)
        self.people.worker_gone(worker)
        self.state.wake.set()

    # ----- the tables this worker runs (Takeover, LobbyMirror, Heirs) ---------------------------
    async def claim_new(self, tid: str) -> None:
        """A table this worker is making is its own (:meth:`Takeover.claim_new`)."""
        await self.takeover.claim_new(tid)

    def made(self, tid: str) -> None:
        self.takeover.made(tid)

    def fenced(self, table: Table) -> None:
        """Another worker wrote the next action of a table this one runs (:meth:`Takeover.fenced`)."""
        self.takeover.fenced(table)

    async def release(self, tid: str, *, moved: bool, locked: bool = True, heir: str | None = None) -> None:
        """Stop running ``tid`` here (:meth:`Takeover.release`)."""
        await self.takeover.release(tid, moved=moved, locked=locked, heir=heir)

    def publish(self, table: Table) -> None:
        """Tell every worker a table's lobby entry (it changed)."""
        self.mirror.publish(table)

    async def arrival(self, tid: str) -> bool:
        """Wait a moment for ``tid`` to be run here (:meth:`Heirs.arrival`)."""
        return await self.heirs.arrival(tid)

    # ----- sockets, people, asks (Relays, PeopleAcross, Asks) -----------------------------
    async def relay(
        self,
        conn: Connection,
        tid: str,
        since: int | None,
        messages: AsyncIterable[str | bytes],
        *,
        routing: bool = False,
    ) -> None:
        """Serve ``conn`` for a table another worker runs until the socket
        closes (:meth:`Relays.relay`)."""
        await self.relays.relay(conn, tid, since, messages, routing=routing)

    def presence(self, pid: str, on: bool) -> None:
        self.people.presence(pid, on)

    def push(self, pid: str, event: Mapping[str, object]) -> None:
        self.people.push(pid, event)

    def social_changed(self) -> None:
        self.people.social_changed()

    def renamed(self, pid: str) -> None:
        self.people.renamed(pid)

    def sessions_ended(self, sids: list[str]) -> None:
        self.people.sessions_ended(sids)

    async def ask(self, tid: str | None, request: AskRequest, timeout: float = 5.0) -> Answer:
        """A request the table's owner answers (e.g. admit by invitation);
        ``tid`` None: the matchmaker's worker (the Play button)."""
        return await self.asks.ask(tid, request, timeout)

    # ----- messages -------------------------------------------------------------------
    def _dispatch(self) -> dict[str, Handler]:
        """Each message kind's handler: a part's own, or one here for a
        message several parts hear of."""
        return {
            "beat": self._on_beat,
            "hello": self._on_hello,
            "bye": self._on_bye,
            "leaving": self._on_leaving,
            "owned": self._on_owned,
            "leader": self._on_leader,
            "summary": self.mirror.on_summary,
            "unlisted": self.mirror.on_unlisted,
            "released": self.heirs.on_released,
            "declined": self.handover.on_declined,
            "open": self.stand_ins.on_open,
            "msg": self.stand_ins.on_msg,
            "gone": self.stand_ins.on_gone,
            "opened": self.relays.on_opened,
            "nothere": self.relays.on_nothere,
            "moved": self.relays.on_moved,
            "ev": self.relays.on_ev,
            "close": self.relays.on_close,
            "regap": self.relays.on_regap,
            "presence": self.people.on_presence,
            "push": self.people.on_push,
            "social": self.people.on_social,
            "renamed": self.people.on_renamed,
            "ended": self.people.on_ended,
            "leaderless": self.matchmaker.on_leaderless,
            "ask": self.asks.on_ask,
            "answer": self.asks.on_answer,
        }

    async def _arrived(self, m: Mapping[str, object]) -> None:
        sender = m.get("from")
        if isinstance(sender, str) and sender != self.worker:
            self.state.beats[sender] = time.monotonic()
        kind = m.get("k")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            log.warning("cluster: unknown message %r", kind)
            return
        await handler(m)

    async def _on_beat(self, m: BusMessage) -> None:
        pass

    async def _on_hello(self, m: BusMessage) -> None:
        """A worker started: tell it our tables and who is online here."""
        if m["from"] == self.worker:
            return
        self.mirror.tell(m["from"])
        self.people.tell(m["from"])

    async def _on_bye(self, m: BusMessage) -> None:
        if m["from"] != self.worker:
            self.state.beats.pop(m["from"], None)
            await self._worker_gone(m["from"])

    async def _on_leaving(self, m: BusMessage) -> None:
        if m["from"] != self.worker:
            self.state.leaving.add(m["from"])
            self.heirs.heir_gone(m["from"])
            if self.matchmaker.passing:
                self.state.wake.set()  # the last one that could take the matchmaker may be leaving

    async def _on_owned(self, m: TableMessage) -> None:
        tid, owner = m["t"], m["from"]
        if owner != self.worker:
            self.heirs.arrived_here(tid, False)
            self.handover.owned(tid)
        entry = self.remote.get(tid)
        if entry is not None and owner != self.worker:
            entry.worker = owner
        self.relays.owner_is(tid, owner)

    async def _on_leader(self, m: BusMessage) -> None:
        """A worker runs the matchmaker now: the asks for it not answered
        yet (the last one left with them) go to it, this worker too; a
        leaving worker's queue goes to it (:meth:`Matchmaker.give_up`)."""
        self.asks.leader_is(m["from"])
        self.matchmaker.leader_is(m["from"])

    async def _gap(self) -> None:
        """Notifications were lost while the listener reconnected.  Every
        relayed socket here opens again from the last state it has; the
        other workers are asked to do the same for the sockets they relay to
        this worker's tables (a lost client message is sent again when its
        page sees the state again); stand-ins whose socket does not come
        back (its "gone" was lost) leave; the lobby mirror is refreshed."""
        self.relays.reopen_all()
        self.stand_ins.unconfirm()
        self.bus.send(None, {"k": "regap"})
        self.bus.send(None, {"k": "hello"})
        self.state.spawn(self.stand_ins.drop_unconfirmed())
