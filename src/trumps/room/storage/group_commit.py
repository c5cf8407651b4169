"""Group commit: every write waiting when the database thread gets to them
goes into one transaction, and each caller resumes only once its write is
committed.

Actions are the room's busiest writes (one per card or call, from every
table at once); one transaction each would cap a busy room at the disk's
fsync rate.  Seat and status changes ride along in the same order, so what
a table shows after them is what a restart will read.

A batch lingers up to :data:`LINGER` seconds for :data:`FILL` writes before
it commits (as Kafka's ``linger.ms``).  Without it a batch held whatever
arrived during the previous commit, so its size followed one worker's load:
spread over two workers, the same room's commits held 3.5 writes instead of
22 and cost 4× as many commits per action, which is most of why the CPU per
action grew with the number of workers (``docs/benchmarks.md``).  A few
milliseconds more before an action is acknowledged is not seen at a card
table; a busy worker fills its batch before the linger ends."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from sqlalchemy import Engine, insert
from sqlalchemy.pool import PoolProxiedConnection

from trumps.room import timing
from trumps.room.storage.db import ActionRow, FileWatch, StoreUnavailable

__all__ = ["ActionValues", "GroupCommit", "Write"]

log = logging.getLogger("trumps.room")

#: how long a batch may wait for more writes (seconds), and how many it waits for
LINGER = 0.004
FILL = 16


class ActionValues(TypedDict):
    """One ``actions`` row as the group commit inserts it."""

    table_id: str
    seq: int
    seat: int
    action: str
    at: float
    auto: bool
    timeout: bool


@dataclass(frozen=True)
class Write:
    """A write queued for a group commit: ``fn(connection, *args)``."""

    fn: Callable[..., None]  # called with (connection, *args): checked where made (Store.write)
    args: tuple[object, ...]


Item = ActionValues | Write


class GroupCommit:
    """The queue of writes waiting for the next transaction, committed on
    ``pool`` (the one database thread)."""

    def __init__(
        self,
        engine: Engine,
        watch: FileWatch | None,
        pool: ThreadPoolExecutor,
        *,
        linger: float = LINGER,
        fill: int = FILL,
    ) -> None:
        self.engine = engine
        self.watch = watch
        self.pool = pool
        self.linger = linger
        self.fill = fill
        # action rows alone in one autocommitted statement (_insert_actions): PostgreSQL
        self._fast = engine.dialect.name == "postgresql"
        # writes waiting for the next group commit, with the future of each caller
        self._batch: list[tuple[Item, asyncio.Future[None]]] = []
        self._lock = threading.Lock()
        # signalled when the batch reaches ``fill``: the lingering database thread
        # sleeps until then or the linger's end, and is not woken for nothing
        self._filled = threading.Condition(self._lock)
        self._queued = False
        # the database thread's own connection for batches of action rows alone
        # (PostgreSQL, :meth:`_insert_actions`): kept out of the pool and left in
        # autocommit, opened on first use and again after it is lost
        self._own: PoolProxiedConnection | None = None

    async def queue(self, item: Item) -> None:
        """Add ``item`` to the next transaction; returns once it is committed
        (raises if it could not be)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._batch.append((item, fut))
            if len(self._batch) == self.fill:
                self._filled.notify()
            queue = not self._queued
            self._queued = True
        if queue:
            self.pool.submit(self._write_batch)
        if not timing.ENABLED:
            await fut
            return
        t0 = time.perf_counter()
        await fut
        timing.record("dbwait", time.perf_counter() - t0)

    def _write_batch(self) -> None:
        """On the database thread: commit every waiting write at once, then
        wake their callers.  If the batch fails, each write is retried in a
        transaction of its own, so one bad row fails only its own caller."""
        self._linger()
        with self._lock:
            batch, self._batch = self._batch, []
            self._queued = False
        if not batch:
            return
        t0 = time.perf_counter()
        try:
            if self.watch is not None:
                self.watch.refuse()  # writes stopped: not even a transaction
            self._commit([item for item, _ in batch])
            results: list[BaseException | None] = [None] * len(batch)
        except Exception as exc:
            # each write again alone: one bad row fails only its caller, and a lost
            # PostgreSQL connection is replaced; but no retry helps a lost SQLite file
            gone = isinstance(exc, StoreUnavailable) and self.watch is not None
            results = [exc] * len(batch) if gone else [self._retry(item) for item, _ in batch]
        timing.record("batch", len(batch), time.perf_counter() - t0)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]] = {}
        for (_, fut), failure in zip(batch, results, strict=True):
            by_loop.setdefault(fut.get_loop(), []).append((fut, failure))
        for loop, done in by_loop.items():
            try:
                loop.call_soon_threadsafe(_resolve, done)
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                log.warning("dropped %d action acknowledgements: event loop closed", len(done))

    def _linger(self) -> None:
        """Wait, on the database thread, until the batch holds :attr:`fill`
        writes or :attr:`linger` seconds have passed.

        It sleeps on a condition the writers signal, not in a polling loop:
        a worker whose batches do not fill (one of several, each with a share
        of the room) woke every millisecond of every linger, and each wake
        took the GIL from the event loop (``docs/benchmarks.md``)."""
        if self.linger <= 0:
            return
        deadline = time.monotonic() + self.linger
        with self._filled:
            while len(self._batch) < self.fill:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._filled.wait(left)

    def _retry(self, item: Item) -> BaseException | None:
        """One write of a failed batch in a transaction of its own: its failure, or None.
        Through SQLAlchemy, whose error handling names what went wrong
        (:func:`trumps.room.storage.db.make_engine`)."""
        try:
            self._commit([item], fast=False)
        except Exception as exc:
            return exc
        return None

    def _commit(self, items: list[Item], *, fast: bool = True) -> None:
        """One transaction: consecutive action rows in one insert, writes in order."""
        if fast and self._fast and all(isinstance(item, dict) for item in items):
            self._insert_actions(items)  # type: ignore[arg-type]  # (all ActionValues: checked above)
            return
        with self.engine.begin() as conn:
            rows: list[ActionValues] = []
            for item in items:
                if isinstance(item, dict):
                    rows.append(item)
                    continue
                if rows:
                    conn.execute(insert(ActionRow), rows)
                    rows = []
                item.fn(conn, *item.args)
            if rows:
                conn.execute(insert(ActionRow), rows)

    def _insert_actions(self, rows: list[ActionValues]) -> None:
        """A batch of action rows alone, on PostgreSQL: one ``INSERT``
        statement in autocommit (a statement is a transaction of its own),
        the rows as one JSON text, on the database thread's own connection.

        Two workers make more, smaller commits than one for the same room
        (each batches only its own tables' writes), so a commit's fixed cost
        is part of what grows with the number of workers.  Measured per
        batch of one row, CPU of the worker (``benchmarks/storage_costs.py``,
        ``docs/benchmarks.md``): SQLAlchemy's ``begin()``, insert and commit
        235–300 µs; the columns as arrays on a pooled connection about 150 µs;
        the rows as JSON on a connection of its own (no pool check-out and
        return, no switching of autocommit, one text parameter instead of
        seven arrays to adapt) 84 µs.  A failure here is not reported as is: the batch is
        written again item by item through SQLAlchemy (:meth:`_retry`),
        which names the error; a lost connection is replaced at the next
        batch."""
        own = self._own
        if own is None:
            own = self._own = self._connect()
        pg: Any = own.dbapi_connection  # psycopg's own (SQLAlchemy adapts nothing here)
        try:
            pg.execute(_INSERT_ACTIONS, (json.dumps(rows),))
        except Exception:
            if pg.closed or pg.broken:
                # lost: so are its siblings in the pool, most likely (a restarted
                # server), and the retry must not take one; what SQLAlchemy does
                # on a disconnect
                log.warning("a database connection was lost: the writes go again on a new one")
                self.close()
                self.engine.dispose(close=False)
            raise

    def _connect(self) -> PoolProxiedConnection:
        """A connection of the pool's kind (its ``connect`` events run), then
        detached from it: the pool neither counts it nor resets it, and it
        stays in autocommit, which no pooled connection may be (the room's
        other writes would each commit alone)."""
        own = self.engine.raw_connection()
        try:
            own.detach()
            pg: Any = own.dbapi_connection
            pg.autocommit = True
        except Exception:
            own.close()
            raise
        return own

    def close(self) -> None:
        """Close the database thread's own connection (the store is closing,
        or the connection was lost)."""
        own, self._own = self._own, None
        if own is not None:
            with contextlib.suppress(Exception):
                own.close()  # detached: this closes the connection itself


# the rows' keys are ActionValues' (a float's JSON text reads back as the same float8)
_INSERT_ACTIONS: Final = (
    "INSERT INTO actions (table_id, seq, seat, action, at, auto, timeout) "
    "SELECT table_id, seq, seat, action, at, auto, timeout FROM json_to_recordset(%s::json) "
    "AS r(table_id text, seq int, seat int, action text, at float8, auto bool, timeout bool)"
)


def _resolve(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for fut, exc in done:
        if fut.done():  # the caller was cancelled
            continue
        if exc is None:
            fut.set_result(None)
        else:
            fut.set_exception(exc)
