"""GroupCommit: writes that arrive together share a transaction; a batch
lingers for more writes up to its limit and no longer; the lingering thread
sleeps until the batch fills instead of waking every millisecond."""

from __future__ import annotations

import asyncio
import resource
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, create_engine, event, insert, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from trumps.room.storage.db import ActionRow, make_engine, migrate
from trumps.room.storage.group_commit import ActionValues, GroupCommit, Write
from trumps.room.storage.store import Store


@pytest.fixture
def parts(tmp_path: Path) -> Iterator[tuple[Engine, ThreadPoolExecutor]]:
    engine = make_engine(f"sqlite:///{tmp_path / 'room.db'}")
    migrate(engine)
    pool = ThreadPoolExecutor(max_workers=1)
    yield engine, pool
    pool.shutdown(wait=True)
    engine.dispose()


def writes(log: list[tuple[int, int]], n: int) -> list[Write]:
    def note(conn: Connection, i: int) -> None:
        log.append((id(conn), i))

    return [Write(note, (i,)) for i in range(n)]


def commit_writes(commits: GroupCommit, n: int) -> tuple[float, list[tuple[int, int]]]:
    """Queue ``n`` writes at once; (seconds until all were committed, (transaction, write) of each)."""
    log: list[tuple[int, int]] = []

    async def run() -> float:
        t0 = time.perf_counter()
        await asyncio.gather(*(commits.queue(w) for w in writes(log, n)))
        return time.perf_counter() - t0

    return asyncio.run(run()), log


def test_a_batch_that_fills_commits_at_once_in_one_transaction(
    parts: tuple[Engine, ThreadPoolExecutor],
) -> None:
    engine, pool = parts
    took, log = commit_writes(GroupCommit(engine, None, pool, linger=30.0, fill=8), 8)
    assert took < 5.0  # not the 30 s linger: the eighth write woke the thread
    assert [i for _, i in log] == list(range(8))  # in the order queued
    assert len({conn for conn, _ in log}) == 1  # one transaction


def test_a_batch_that_does_not_fill_waits_the_linger_and_no_longer(
    parts: tuple[Engine, ThreadPoolExecutor],
) -> None:
    engine, pool = parts
    took, log = commit_writes(GroupCommit(engine, None, pool, linger=0.3, fill=16), 3)
    assert 0.25 < took < 5.0
    assert [i for _, i in log] == [0, 1, 2] and len({conn for conn, _ in log}) == 1


def test_the_lingering_thread_sleeps(parts: tuple[Engine, ThreadPoolExecutor]) -> None:
    """A 1.5 s linger with one write: the process's CPU time stays near zero
    (a thread polling every millisecond woke 1,500 times in it)."""
    engine, pool = parts
    commits = GroupCommit(engine, None, pool, linger=1.5, fill=16)
    log: list[tuple[int, int]] = []

    async def run() -> None:
        await commits.queue(writes(log, 1)[0])  # the engine's first transaction: paid here
        before = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        await commits.queue(writes(log, 1)[0])
        took = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_SELF)
        assert took >= 1.4
        switches = (after.ru_nvcsw - before.ru_nvcsw) + (after.ru_nivcsw - before.ru_nivcsw)
        assert switches < 200, switches  # polling: about 1,500 (one per sleep)

    asyncio.run(run())


def test_a_failing_write_fails_alone(parts: tuple[Engine, ThreadPoolExecutor]) -> None:
    engine, pool = parts
    commits = GroupCommit(engine, None, pool, linger=0.05, fill=3)
    log: list[tuple[int, int]] = []

    def bad(conn: Connection) -> None:
        raise ValueError("refused")

    async def run() -> Sequence[BaseException | None]:
        good = writes(log, 2)
        return await asyncio.gather(
            commits.queue(good[0]),
            commits.queue(Write(bad, ())),
            commits.queue(good[1]),
            return_exceptions=True,
        )

    results = asyncio.run(run())
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], ValueError)
    # the good writes were committed (each again in a transaction of its own)
    assert sorted(i for _, i in log if i in (0, 1))[-2:] == [0, 1]


# ----- the stored rows, on SQLite and PostgreSQL (where action rows alone take one statement) -----
def action(tid: str, seq: int, **over: object) -> ActionValues:
    row: ActionValues = {
        "table_id": tid, "seq": seq, "seat": seq % 4, "action": f"{6 + seq % 5}S", "at": 1700000000.25 + seq,
        "auto": seq % 2 == 0, "timeout": seq % 3 == 0,
    }  # fmt: skip
    row.update(over)  # type: ignore[typeddict-item]
    return row


def stored(store: Store, tid: str) -> list[tuple[object, ...]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(
                ActionRow.seq,
                ActionRow.seat,
                ActionRow.action,
                ActionRow.at,
                ActionRow.auto,
                ActionRow.timeout,
            )
            .where(ActionRow.table_id == tid)
            .order_by(ActionRow.seq)
        )
        return [tuple(r) for r in rows]


def a_table(store: Store) -> str:
    host = store.create_player("Ann")
    return asyncio.run(store.add_table("500", "american", {}, 7, host, 4, {}, None)).id


def test_action_rows_are_stored_as_given(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = a_table(store)
        commits = GroupCommit(store.engine, store.watch, store._pool, linger=0.05, fill=20)
        through: list[str] = []  # statements SQLAlchemy ran

        @event.listens_for(store.engine, "before_cursor_execute")
        def note(_c: object, _cur: object, statement: str, *_: object) -> None:
            through.append(statement)

        async def run() -> None:
            await asyncio.gather(*(commits.queue(action(tid, i)) for i in range(20)))
            await commits.queue(action(tid, 20))  # a batch of one

        asyncio.run(run())
        event.remove(store.engine, "before_cursor_execute", note)
        # PostgreSQL: one statement of its own per batch, beside SQLAlchemy
        inserts = [s for s in through if s.startswith("INSERT INTO actions")]
        assert len(inserts) == (0 if db_url.startswith("postgresql") else 2)
        want = [
            (r["seq"], r["seat"], r["action"], r["at"], r["auto"], r["timeout"])
            for r in map(action, [tid] * 21, range(21))
        ]
        assert stored(store, tid) == want
        # the pooled connection went back as it came (not in autocommit): a transaction still rolls back
        with store.engine.connect() as conn:
            conn.execute(insert(ActionRow), [action(tid, 99)])
            conn.rollback()
        assert len(stored(store, tid)) == 21
    finally:
        store.close()


def test_a_refused_action_row_fails_its_caller_alone(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = a_table(store)
        commits = GroupCommit(store.engine, store.watch, store._pool, linger=0.05, fill=4)

        async def run() -> Sequence[BaseException | None]:
            await commits.queue(action(tid, 0))
            return await asyncio.gather(
                commits.queue(action(tid, 1)),
                commits.queue(action(tid, 0, action="7H")),  # seq 0 again: refused
                commits.queue(action(tid, 2)),
                commits.queue(action(tid, 3, action="x" * 17)),  # longer than the column
                return_exceptions=True,
            )

        results = asyncio.run(run())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], IntegrityError)
        assert isinstance(results[3], DBAPIError) or db_url.startswith("sqlite")  # SQLite keeps long text
        assert [r[0] for r in stored(store, tid)][:3] == [0, 1, 2]
        assert stored(store, tid)[0][2] == "6S"  # the first one stands
        # and the pool's connections still work
        asyncio.run(commits.queue(action(tid, 10)))
        assert stored(store, tid)[-1][0] == 10
    finally:
        store.close()


def test_actions_and_other_writes_keep_their_order_in_one_transaction(db_url: str) -> None:
    store = Store(db_url)
    try:
        tid = a_table(store)
        commits = GroupCommit(store.engine, store.watch, store._pool, linger=0.05, fill=3)
        seen: list[int] = []

        def count(conn: Connection) -> None:  # runs between the two actions: sees the first only
            seen.append(len(conn.execute(select(ActionRow.seq).where(ActionRow.table_id == tid)).all()))

        async def run() -> None:
            await asyncio.gather(
                commits.queue(action(tid, 0)), commits.queue(Write(count, ())), commits.queue(action(tid, 1))
            )

        asyncio.run(run())
        assert seen == [1]
        assert [r[0] for r in stored(store, tid)] == [0, 1]
    finally:
        store.close()


def test_a_batch_whose_connections_were_cut_is_written_on_new_ones(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's connections (SQLite has none to cut)")
    store = Store(db_url)
    admin = create_engine(db_url, isolation_level="AUTOCOMMIT")
    try:
        tid = a_table(store)
        commits = GroupCommit(store.engine, store.watch, store._pool, linger=0.05, fill=3)

        async def batch(first: int) -> Sequence[BaseException | None]:
            return await asyncio.gather(
                *(commits.queue(action(tid, i)) for i in range(first, first + 3)), return_exceptions=True
            )

        assert asyncio.run(batch(0)) == [None] * 3
        held = [store.engine.connect() for _ in range(3)]  # the pool keeps several
        for conn in held:
            conn.close()
        with admin.connect() as conn:  # every other connection to the database is cut
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
        assert asyncio.run(batch(3)) == [None] * 3  # the batch failed, each write again on a new one
        assert [r[0] for r in stored(store, tid)] == list(range(6))
        assert asyncio.run(batch(6)) == [None] * 3
        # and what the pool holds is as it should be: a transaction rolls back
        with store.engine.connect() as conn:
            conn.execute(insert(ActionRow), [action(tid, 99)])
            conn.rollback()
        assert len(stored(store, tid)) == 9
    finally:
        admin.dispose()
        store.close()


def test_action_rows_go_on_one_connection_of_their_own(db_url: str) -> None:
    """PostgreSQL: every batch of action rows alone uses the database
    thread's own autocommitting connection (no pool check-out per batch), the
    pool lends nothing meanwhile, and closing the store closes it."""
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only (SQLite commits every batch through SQLAlchemy)")
    store = Store(db_url)
    try:
        tid = a_table(store)
        commits = store._commits
        backends: set[int] = set()
        for i in range(5):  # five batches, one after the other
            asyncio.run(commits.queue(action(tid, i)))
            own = commits._own
            assert own is not None
            backends.add(own.dbapi_connection.info.backend_pid)  # type: ignore[union-attr]
        assert len(backends) == 1
        assert store.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        assert [r[0] for r in stored(store, tid)] == list(range(5))
        assert own is not None
        pg = own.dbapi_connection
        assert pg is not None and pg.autocommit
    finally:
        store.close()
    assert commits._own is None and pg.closed
