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
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final, TypedDict

from sqlalchemy import Engine, insert

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
        its columns as arrays, so one round trip and one prepared statement
        whatever the batch's size.

        It costs half the CPU of the same rows through SQLAlchemy's
        ``begin()``, insert and commit (three round trips): 170 against 330
        µs for one row, 280 against 590 for sixteen (``docs/benchmarks.md``),
        and a room on several workers makes more, smaller commits than on
        one.  A failure here is not reported as is: the batch is written
        again item by item through SQLAlchemy (:meth:`_retry`), which names
        the error."""
        raw = self.engine.raw_connection()
        try:
            pg = raw.driver_connection
            assert pg is not None
            pg.autocommit = True
            try:
                pg.execute(
                    _INSERT_ACTIONS, [list(column) for column in zip(*(_row(r) for r in rows), strict=True)]
                )
            finally:
                with contextlib.suppress(Exception):
                    pg.autocommit = False
                # back into the pool only as it came out: in autocommit, the room's
                # other writes would each commit alone (a refused row, the fence of a
                # table taken over, leaves it usable)
                if pg.closed or pg.broken:
                    # lost: so are its siblings, most likely (a restarted server), and
                    # the retry must not take one; what SQLAlchemy does on a disconnect
                    log.warning("a database connection was lost: the writes go again on a new one")
                    raw.invalidate()
                    self.engine.dispose(close=False)
                elif pg.autocommit:
                    raw.invalidate()
        finally:
            raw.close()


_INSERT_ACTIONS: Final = (
    "INSERT INTO actions (table_id, seq, seat, action, at, auto, timeout) "
    "SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::float8[], %s::bool[], %s::bool[])"
)


def _row(r: ActionValues) -> tuple[object, ...]:
    """An action row's values in :data:`_INSERT_ACTIONS`'s column order."""
    return (r["table_id"], r["seq"], r["seat"], r["action"], r["at"], r["auto"], r["timeout"])


def _resolve(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for fut, exc in done:
        if fut.done():  # the caller was cancelled
            continue
        if exc is None:
            fut.set_result(None)
        else:
            fut.set_exception(exc)
