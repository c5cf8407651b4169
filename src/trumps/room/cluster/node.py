"""One worker of a room that runs on several (:class:`Cluster`).

Every worker serves any browser; each live table is run by exactly one
worker, its owner (:mod:`~trumps.room.cluster.ownership`).  This module
ties the pieces together:

- **Ownership.**  A new table belongs to the worker that made it.  Once a
  second (and at once when a worker hands its tables over) every worker
  looks for unfinished tables nobody holds and takes them: rebuilt from the
  stored actions, timers re-armed from the stored times (``Table.resume``),
  announced with ``owned``.
- **Relaying.**  A socket for a table run elsewhere is relayed
  (:mod:`~trumps.room.cluster.relay`).  Delivery gaps are repaired by
  opening again with the last ``seq`` the socket has.
- **The lobby.**  Each owner publishes a table's summary when it changes,
  with the facts the access rules need (host, members, invited, removed);
  every worker keeps the others' in :attr:`Cluster.remote`, so each lobby
  lists every table its viewer may see, whichever worker runs it.
- **People.**  Presence, pushes to a person's own channel, friendship
  changes and ended sessions are broadcast, so they hold on every worker.
- **Liveness.**  Workers beat once a second; the stand-ins of sockets on a
  worker that stopped beating leave their tables (a seat becomes away, and
  after the grace a bot plays it, as for any dropped socket).
- **Handover.**  A worker stopped normally, before it closes any socket
  (:meth:`Cluster.hand_over`, called by ``trumps serve`` ahead of
  uvicorn's shutdown), finishes what each table is doing and gives it to
  one heir, the live worker running the fewest tables, which takes it at
  once.  Behind a routing proxy its sockets are told the heir and go
  straight there; the heir's socket waits the moment the table takes to
  arrive instead of being relayed.
- **The Play button.**  One worker (whoever holds the matchmaker's lock;
  another takes it when it dies) runs the matchmaker; the others forward
  Play requests to it, so players on any worker are matched together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncIterable, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from trumps.room.cluster.asking import Asks, Matchmaker
from trumps.room.cluster.bus import Bus, stop_tasks
from trumps.room.cluster.lobby import Lobby, RemoteTable
from trumps.room.cluster.messages import (
    Answer,
    AskRequest,
    BusMessage,
    ReleasedMessage,
    TableMessage,
)
from trumps.room.cluster.ownership import Ownership
from trumps.room.cluster.people import PeopleAcross
from trumps.room.cluster.relay import RemoteConnection, routing_name
from trumps.room.cluster.sockets import Relays, StandIns
from trumps.room.cluster.state import BEAT_INTERVAL, DEAD_AFTER, Shared
from trumps.room.tables.table import Connection, Table, TableClosed

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["Cluster", "RemoteTable"]

log = logging.getLogger("trumps.cluster")

#: a bus message's handler (each reads the message shape its kind names)
Handler = Callable[[Any], Awaitable[None]]

SCAN_INTERVAL = 1.0  # seconds between looks for tables nobody runs
ARRIVAL_WAIT = 2.0  # at most, a socket sent to this worker waits for its table to arrive
HEIR_GRACE = 3.0  # seconds the others leave a table handed to an heir before taking it
TAKE_AT_ONCE = 8  # tables a worker takes over at the same time
HAND_PER_HEIR = 2  # tables a stopping worker hands an heir at a time (the fewest-loaded first)
HAND_WAIT = 1.0  # at most, seconds it waits for them (then it hands the next ones over anyway)
HAND_PACED = 10.0  # after this many seconds of handing over, the rest go at once (the stop is bounded)
STOP_HANDOVER_LIMIT = 15.0  # at most, seconds a leaving worker spends handing tables over in stop()


class Cluster:
    """This worker's part in a room spread over several processes."""

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
        self.lobby = Lobby(self.state)
        self.people = PeopleAcross(self.state)
        self.relays = Relays(self.state)
        self.stand_ins = StandIns(self.state)
        self.matchmaker = Matchmaker(self.state)
        self.asks = Asks(self.state, self.matchmaker)
        self._tasks: list[asyncio.Task[None]] = []
        self.takeovers: list[tuple[str, float]] = []  # (table, seconds the rebuild took)
        self.making: set[str] = set()  # tables this worker claimed and is storing
        self.handed: dict[str, tuple[str, float]] = {}  # table -> (its heir, until when the others leave it)
        self._arrivals: dict[str, set[asyncio.Future[bool]]] = {}  # table -> sockets waiting for it here
        # tables handed over, until their heir announces it has them
        self._owned_wanted: dict[str, asyncio.Future[None]] = {}
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
        its sockets (a rolling restart: ``trumps serve`` calls this before
        uvicorn closes them).  Each table goes to one heir, the live worker
        running the fewest, so the tables spread and nobody races for them;
        the table's sockets are told the heir (behind a routing proxy) or
        closed with 1012, and come back to the table at once.  An heir is
        given :data:`HAND_PER_HEIR` tables at a time, the next ones when it
        announces it runs these (at most :data:`HAND_WAIT` later), so it is
        never flooded; the rest play on here meanwhile."""
        if not self.state.stopping:
            self.state.stopping = True
            self.bus.send(None, {"k": "leaving"})
            # every worker knows this one is leaving before any socket is sent
            # on: a socket that reaches its heir before the table does waits
            # there for the table (Cluster.arrival) instead of being relayed
            await self.bus.flushed()
            await self.matchmaker.give_up()
        load = dict.fromkeys(self.state.live_others(2 * BEAT_INTERVAL), 0)  # heard from lately: alive
        for entry in self.remote.values():
            if entry.worker in load:
                load[entry.worker] += 1
        # a few at a time, each batch once its heirs have the one before: a
        # table waits for its own take, not behind every other table's (an
        # heir given 25 at once took the last after 1.9 s; docs/benchmarks.md)
        paced_until = time.monotonic() + HAND_PACED
        for _round in range(5):  # (a table made or taken meanwhile goes too)
            if not self.room.tables:
                break
            tids = list(self.room.tables)
            while tids:
                # (an heir that left or died meanwhile is given no more)
                alive = self.state.live_others(DEAD_AFTER)
                load = {w: n for w, n in load.items() if w in alive}
                paced = time.monotonic() < paced_until
                given: dict[str, int] = {}
                taken: list[asyncio.Future[None]] = []
                while tids:
                    tid = tids[0]
                    table = self.room.tables.get(tid)
                    heir = None
                    # (nobody takes a finished table)
                    if load and table is not None and table.status in ("waiting", "playing"):
                        heir = min(load, key=lambda w: (load[w], random.random()))
                        if paced and given.get(heir, 0) >= HAND_PER_HEIR:
                            break  # the batch is full: the heirs take it first
                        given[heir] = given.get(heir, 0) + 1
                        load[heir] += 1
                        taken.append(self._expect_owned(tid))
                    del tids[0]
                    await self.release(tid, moved=True, heir=heir)
                if taken:  # the tables not handed yet play on here meanwhile
                    await asyncio.wait(taken, timeout=HAND_WAIT)
                for fut in taken:
                    fut.cancel()
            self._owned_wanted.clear()

    def _expect_owned(self, tid: str) -> asyncio.Future[None]:
        """A future done when another worker announces it runs ``tid``."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._owned_wanted[tid] = fut
        return fut

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

    # ----- ownership ----------------------------------------------------------------
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
        now = time.monotonic()
        if self.handed:  # (forget the heirs' grace once it is over)
            self.handed = {t: h for t, h in self.handed.items() if h[1] > now}
        orphans = [
            t
            for t in await self.owner.orphans()
            if t not in self.room.tables and t not in self.making and t not in self.handed
        ]
        random.shuffle(orphans)  # several workers taking over spread the tables between them
        await self._take_all(orphans)

    async def _take_all(self, tids: list[str]) -> None:
        """Claim and take ``tids``, :data:`TAKE_AT_ONCE` at a time.  A worker
        taking a stopped worker's tables is also answering all their
        sockets coming back, and a take's time is mostly its turns on the
        database thread behind theirs: taken one after another, the last of
        30 tables waited 2 s (``benchmarks/room_load.py --rolling``)."""
        sem = asyncio.Semaphore(TAKE_AT_ONCE)

        async def one(tid: str) -> None:
            async with sem:
                if self.stopping() or not await self.owner.claim(tid):
                    return
                try:
                    await self._take(tid)
                except Exception:
                    # not run here: let it go, for the next scan (here or elsewhere)
                    log.exception("cluster: could not take table %s", tid)
                    if tid not in self.room.tables:
                        with contextlib.suppress(Exception):
                            await self.owner.release(tid)

        await asyncio.gather(*(one(t) for t in tids))

    async def _take(self, tid: str) -> None:
        t0 = time.perf_counter()
        room = self.room
        st = await room.store.read(room.store.load_table, tid)
        if st is None or st.status not in ("waiting", "playing") or tid in room.tables:
            await self.owner.release(tid)
            self._arrived_here(tid, tid in room.tables)
            if tid not in room.tables:  # (a worker handing it over need not wait for it)
                self.bus.send(None, {"k": "declined", "t": tid})
            return
        seated = [player for player, _bot in st.seats.values() if player]
        known = await room.people.learn_many(seated)  # one trip to the busy database thread
        for player in seated:
            if player not in known:
                room.names[player] = "?"
        self.remote.pop(tid, None)
        self.handed.pop(tid, None)
        table = await room.rebuild(st)  # (handed over again at once, a stop, is no failure)
        if table is None:  # set aside as broken: nobody runs it, and no later scan finds it
            await self.owner.release(tid)
            self._arrived_here(tid, False)
            self.bus.send(None, {"k": "declined", "t": tid})
            return
        self._arrived_here(tid, True)
        self.publish(table)
        self.bus.send(None, {"k": "owned", "t": tid})
        self.takeovers.append((tid, time.perf_counter() - t0))
        log.info("cluster: worker %s took table %s", self.worker, tid)

    async def claim_new(self, tid: str) -> None:
        """A table this worker is making is its own (claimed before its row
        is stored, so no scan can find it unowned; :meth:`made` once live)."""
        self.making.add(tid)
        if not await self.owner.claim(tid):
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
        (the others leave it to that one for :data:`HEIR_GRACE`)."""
        table = self.room.tables.get(tid)
        if table is None:
            return
        heir_name = routing_name(heir) if heir is not None else None
        local: list[Connection] = []
        try:
            async with table.lock:  # what the table is doing is finished and stored
                await table.close()
                self.room.tables.pop(tid, None)
                for conn in list(table.connections):
                    table.connections.discard(conn)
                    if isinstance(conn, RemoteConnection):
                        self.stand_ins.let_go(conn, tid, moved)
                    elif moved:
                        local.append(conn)
                if locked:
                    with contextlib.suppress(Exception):
                        await self.owner.release(tid)
        except TableClosed:
            return  # released meanwhile by another call (a fence, a lost lock, the handover)
        if moved:
            self.bus.send(None, {"k": "released", "t": tid, "to": heir})
        else:
            self.bus.send(None, {"k": "unlisted", "t": tid})
        for conn in local:
            with contextlib.suppress(Exception):
                # behind a routing proxy the page goes straight to the heir
                # (it was let in here, so it may know where the table runs)
                if heir_name is not None and getattr(conn, "routing", False):
                    await conn.send({"type": "route", "worker": heir_name})
                await conn.close(1012)  # the client reconnects and finds the new owner

    def publish(self, table: Table) -> None:
        """Tell every worker a table's lobby entry (it changed)."""
        self.lobby.publish(table)

    # ----- relayed sockets and stand-ins (Relays, StandIns) --------------------------------
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

    async def _worker_gone(self, worker: str) -> None:
        """A worker stopped beating: its sockets are gone; its tables are
        taken by the scan; relays to it wait for the new owner's ``owned``."""
        log.warning("cluster: worker %s is gone", worker)
        await self.stand_ins.worker_gone(worker)
        self.state.leaving.discard(worker)
        self._heir_gone(worker)
        self.people.worker_gone(worker)
        self.state.wake.set()

    # ----- messages -------------------------------------------------------------------
    def _dispatch(self) -> dict[str, Handler]:
        """Each message kind's handler: a part's own, or one here for a
        message several parts hear of."""
        return {
            "beat": self._on_beat,
            "hello": self._on_hello,
            "bye": self._on_bye,
            "summary": self.lobby.on_summary,
            "unlisted": self.lobby.on_unlisted,
            "released": self._on_released,
            "leaving": self._on_leaving,
            "owned": self._on_owned,
            "declined": self._on_declined,
            "open": self.stand_ins.on_open,
            "opened": self.relays.on_opened,
            "nothere": self.relays.on_nothere,
            "moved": self.relays.on_moved,
            "msg": self.stand_ins.on_msg,
            "gone": self.stand_ins.on_gone,
            "ev": self.relays.on_ev,
            "close": self.relays.on_close,
            "regap": self.relays.on_regap,
            "presence": self.people.on_presence,
            "push": self.people.on_push,
            "social": self.people.on_social,
            "renamed": self.people.on_renamed,
            "ended": self.people.on_ended,
            "leader": self._on_leader,
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
        self.lobby.tell(m["from"])
        self.people.tell(m["from"])

    async def _on_bye(self, m: BusMessage) -> None:
        if m["from"] != self.worker:
            self.state.beats.pop(m["from"], None)
            await self._worker_gone(m["from"])

    async def _on_released(self, m: ReleasedMessage) -> None:
        heir, tid = m.get("to"), m["t"]
        if heir is not None and heir != self.worker:
            # left to its heir a moment (whose socket may be on its way there)
            self.handed[tid] = (heir, time.monotonic() + HEIR_GRACE)
            self._arrived_here(tid, False)
            return
        if heir == self.worker and self.state.stopping:  # handed to a worker that is leaving too: to anyone
            self.bus.send(None, {"k": "released", "t": tid, "to": None})
            return
        # to this worker, or to anyone: not left to an earlier heir any more
        # (a table can move twice within HEIR_GRACE in a rolling restart)
        self.handed.pop(tid, None)
        if heir is None:
            await asyncio.sleep(random.random() * 0.02)
        self.state.wake.set()  # take it now, not at the next scan

    async def _on_leaving(self, m: BusMessage) -> None:
        if m["from"] != self.worker:
            self.state.leaving.add(m["from"])
            self._heir_gone(m["from"])
            if self.matchmaker.passing:
                self.state.wake.set()  # the last one that could take the matchmaker may be leaving

    def _heir_gone(self, worker: str) -> None:
        """``worker`` is leaving or gone: tables handed to it are anyone's now."""
        dropped = [t for t, (heir, _until) in self.handed.items() if heir == worker]
        for tid in dropped:
            del self.handed[tid]
        if dropped:
            self.state.wake.set()

    def _arrived_here(self, tid: str, here: bool) -> None:
        for fut in self._arrivals.pop(tid, set()):
            if not fut.done():
                fut.set_result(here)

    async def arrival(self, tid: str) -> bool:
        """Wait (at most :data:`ARRIVAL_WAIT`) for ``tid`` to be run here: a
        socket was sent to this worker by name (the heir's name, at a
        handover) while the table's worker hands it over.  False at once
        for a table nobody runs or a live worker runs and keeps; False when
        another worker took it or it did not come."""
        if tid in self.room.tables:
            return True
        entry = self.remote.get(tid)
        if (
            entry is None
            or entry.status not in ("waiting", "playing")
            or (entry.worker in self.state.beats and entry.worker not in self.state.leaving)
        ):
            return False  # nothing to wait for
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        waiting = self._arrivals.setdefault(tid, set())
        waiting.add(fut)
        try:
            return await asyncio.wait_for(fut, ARRIVAL_WAIT)
        except TimeoutError:
            return tid in self.room.tables
        finally:
            waiting.discard(fut)
            if not waiting and self._arrivals.get(tid) is waiting:
                del self._arrivals[tid]

    async def _on_owned(self, m: TableMessage) -> None:
        tid, owner = m["t"], m["from"]
        if owner != self.worker:
            self._arrived_here(tid, False)
            wanted = self._owned_wanted.pop(tid, None)
            if wanted is not None and not wanted.done():
                wanted.set_result(None)
        entry = self.remote.get(tid)
        if entry is not None and owner != self.worker:
            entry.worker = owner
        self.relays.owner_is(tid, owner)

    async def _on_declined(self, m: TableMessage) -> None:
        """The table needs no owner (it finished as it was handed over)."""
        wanted = self._owned_wanted.pop(m["t"], None)
        if wanted is not None and not wanted.done():
            wanted.set_result(None)

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

    # ----- people across workers (PeopleAcross) ----------------------------------------------
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

    # ----- asking the owner (Asks, Matchmaker) ----------------------------------------------
    async def ask(self, tid: str | None, request: AskRequest, timeout: float = 5.0) -> Answer:
        """A request the table's owner answers (e.g. admit by invitation);
        ``tid`` None: the matchmaker's worker (the Play button)."""
        return await self.asks.ask(tid, request, timeout)

    async def _on_leader(self, m: BusMessage) -> None:
        """A worker runs the matchmaker now: the asks for it not answered
        yet (the last one left with them) go to it, this worker too; a
        leaving worker's queue goes to it (:meth:`Matchmaker.give_up`)."""
        self.asks.leader_is(m["from"])
        self.matchmaker.leader_is(m["from"])
