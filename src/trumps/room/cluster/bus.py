"""Messages between workers over PostgreSQL ``LISTEN``/``NOTIFY``.

Why PostgreSQL and not Redis: a room on several workers needs PostgreSQL
anyway (the action log, ownership), NOTIFY carried the room's message rates
with a wide margin in ``benchmarks/broker.py`` (figures in
``docs/benchmarks.md``, the choice in ``docs/scaling.md``), and one server fewer is one failure fewer.

Every worker listens on the room's channel (broadcasts) and on its own
channel (messages addressed to it).  Messages are JSON objects; one longer
than a notification may carry (8,000 bytes) travels in numbered chunks and
is put back together on arrival.  A chunk's size is measured as sent: its
piece of text, put inside another JSON string, grows with every quote and
backslash it holds (an ordinary state is a fifth quotes) and counts its
UTF-8 bytes, so a piece is made shorter until its chunk fits.  Outgoing messages are queued and sent in
one transaction per batch (a busy worker pays one round trip for many
messages, as one ``SELECT pg_notify(...), pg_notify(...)``; PostgreSQL
delivers a transaction's notifications in the order they were made, and
each carries a per-sender number, so none is merged with an identical one).

NOTIFY is reliable while the listening connection lives; when it breaks,
the listener reconnects and tells ``on_gap``: whatever depended on the
stream (relayed table connections) is repaired from the stored log by
sequence number (:mod:`trumps.room.cluster.node`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Mapping

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

from trumps.room import wire

__all__ = ["CHUNK", "ROOM_CHANNEL", "Bus", "conninfo", "stop_tasks", "worker_channel"]

log = logging.getLogger("trumps.cluster")

ROOM_CHANNEL = "trumps_room"
CHUNK = 7_000  # bytes of JSON per notification (PostgreSQL's limit is 8,000 bytes)
BATCH = 200  # messages per sending transaction at most
STOP_TASKS_WAIT = 5.0  # at most, seconds stop() waits for its cancelled tasks to end

#: called with each message as it arrives (parsed JSON; its kind ``k`` names
#: its shape: the handlers :class:`~trumps.room.cluster.node.Cluster` dispatches to read it so)
Handler = Callable[[Mapping[str, object]], Awaitable[None]]


async def stop_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them, at most :data:`STOP_TASKS_WAIT`
    seconds: a task that swallowed its cancel (``asyncio.wait_for`` on
    Python 3.11 can) must not hold a worker's stop for ever."""
    for t in tasks:
        t.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=STOP_TASKS_WAIT)
    for t in tasks:
        if t.done() and not t.cancelled():
            t.exception()  # (seen: ended by an error while stopping)


def _chunks(text: str, mid: str) -> list[str]:
    """``text`` cut into chunk messages of at most :data:`CHUNK` bytes each,
    as sent (the wire format of every version: ``{"k": "chunk", ...}`` with
    a piece of the text).  A piece starts at half of ``CHUNK`` characters and
    is halved until its chunk fits: quotes are escaped again inside it, and
    a character may be four bytes."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        size = CHUNK // 2
        while True:
            piece = text[start : start + size]
            # the count "n" is not known yet: sized with a placeholder as long as any
            if len(wire.dumpb({"k": "chunk", "id": mid, "i": 999_999, "n": 999_999, "d": piece})) <= CHUNK:
                break
            size //= 2
        pieces.append(piece)
        start += len(piece)
    return [
        wire.dumps({"k": "chunk", "id": mid, "i": i, "n": len(pieces), "d": piece})
        for i, piece in enumerate(pieces)
    ]


def _notify_all(n: int) -> str:
    """One statement sending ``n`` notifications, in order: ``SELECT
    pg_notify(%s, %s), ...``.  A third of the CPU of a transaction around
    ``executemany`` (BEGIN, the statements, COMMIT: three round trips), 100
    against 250-480 µs a batch (``docs/benchmarks.md``)."""
    return "SELECT " + ", ".join(["pg_notify(%s, %s)"] * n)


def worker_channel(worker: str) -> str:
    return f"trumps_w_{worker}"


def conninfo(url: str) -> str:
    """A libpq connection string from the room's SQLAlchemy URL."""
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return u.set(drivername="postgresql").render_as_string(hide_password=False)


class Bus:
    """One worker's end of the broker: ``send`` to one worker or to all,
    ``handler`` called for every message that arrives (in order)."""

    def __init__(
        self, url: str, worker: str, handler: Handler, on_gap: Callable[[], Awaitable[None]]
    ) -> None:
        self.dsn = conninfo(url)
        self.worker = worker
        self.handler = handler
        self.on_gap = on_gap
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._numbers = itertools.count()
        self._parts: dict[str, list[str | None]] = {}
        self._conn: psycopg.AsyncConnection[TupleRow] | None = None  # the sending connection
        self._queued = 0  # notifications queued so far
        self._done = 0  # of which sent or given up on (in order: these are the first ones)
        self._tasks: list[asyncio.Task[None]] = []
        self._listening = asyncio.Event()
        self.sent = 0  # notifications sent (for the capacity model)
        self.received = 0

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._listen(), name="bus-listen"),
            asyncio.create_task(self._send_loop(), name="bus-send"),
        ]
        await asyncio.wait_for(self._listening.wait(), 30)

    async def stop(self) -> None:
        # let queued messages go out first (a worker stopping hands its tables over)
        await self.flushed(5)
        await stop_tasks(self._tasks)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None

    async def flushed(self, limit: float = 1.0) -> bool:
        """Wait (at most ``limit`` seconds) until every message queued so far
        is committed, i.e. on its way to every listener (not those queued
        meanwhile: a busy worker's queue is never empty); whether they were."""
        target = self._queued
        deadline = asyncio.get_running_loop().time() + limit
        while self._done < target:
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.002)
        return True

    def send(self, worker: str | None, message: Mapping[str, object]) -> None:
        """Queue ``message`` for ``worker`` (None: every worker, this one too)."""
        channel = ROOM_CHANNEL if worker is None else worker_channel(worker)
        body = wire.dumpb({**message, "from": self.worker})
        if len(body) <= CHUNK:
            self._queued += 1
            self._out.put_nowait((channel, body.decode()))
            return
        mid = f"{self.worker}.{next(self._numbers)}"
        for chunk in _chunks(body.decode(), mid):
            self._queued += 1
            self._out.put_nowait((channel, chunk))

    # ----- sending ------------------------------------------------------------------
    async def _send_loop(self) -> None:
        while True:
            batch = [await self._out.get()]
            while len(batch) < BATCH and not self._out.empty():
                batch.append(self._out.get_nowait())
            # a number per notification: identical payloads in one transaction are merged
            try:
                await self._deliver([(ch, f"{next(self._numbers)}|{body}") for ch, body in batch])
            finally:  # sent or dropped, and logged: either way no longer waited for
                self._done += len(batch)

    async def _deliver(self, params: list[tuple[str, str]]) -> None:
        """Send one batch in one transaction, reconnecting as needed.  A
        message PostgreSQL itself refuses (none should be: see ``CHUNK``) is
        dropped alone: the rest of its batch is sent one by one, in order,
        rather than retried and dropped with it."""
        for attempt in range(50):
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
                # one statement, one round trip (the connection autocommits: the
                # statement is the transaction); its pg_notify() calls run in order
                await self._conn.execute(_notify_all(len(params)), [v for p in params for v in p])
                self.sent += len(params)
                return
            except psycopg.DataError as exc:
                if len(params) == 1:
                    log.error("bus: PostgreSQL refused a message (%s); dropped", exc)
                    return
                for one in params:
                    await self._deliver([one])
                return
            except psycopg.Error:
                log.warning("bus: sending failed (attempt %d); reconnecting", attempt + 1)
                if self._conn is not None:
                    with contextlib.suppress(Exception):
                        await self._conn.close()
                self._conn = None
                await asyncio.sleep(0.2)
        log.error("bus: dropped %d messages", len(params))

    # ----- listening ----------------------------------------------------------------
    async def _listen(self) -> None:
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            except psycopg.Error:
                log.warning("bus: cannot connect to listen; retrying")
                await asyncio.sleep(0.5)
                continue
            try:
                # quoted: a channel is case-sensitive in pg_notify() and may hold
                # a '-' (worker names), which an unquoted identifier would not keep
                for channel in (ROOM_CHANNEL, worker_channel(self.worker)):
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                self._listening.set()
                if not first:  # what was sent meanwhile is lost: repair from the log
                    await self.on_gap()
                first = False
                async for note in conn.notifies():
                    self.received += 1
                    await self._arrived(note.payload)
            except psycopg.Error:
                log.warning("bus: the listening connection broke; reconnecting")
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()
            await asyncio.sleep(0.1)

    async def _arrived(self, payload: str) -> None:
        _number, _, body = payload.partition("|")
        try:
            message = wire.loads(body)
        except ValueError:
            log.error("bus: unreadable message dropped")
            return
        kind = message.get("k")
        if kind == "chunk":
            parts = self._parts.setdefault(message["id"], [None] * int(message["n"]))
            parts[int(message["i"])] = message["d"]
            if any(p is None for p in parts):
                return
            del self._parts[message["id"]]
            try:
                message = wire.loads("".join(p for p in parts if p is not None))
            except ValueError:
                log.error("bus: unreadable long message dropped")
                return
        try:
            await self.handler(message)
        except Exception:
            log.exception("bus: handling %s failed", message.get("k"))
