"""Store.read: reads beside the database thread on PostgreSQL (a worker
taking over tables while their sockets come back must not queue its reads
behind the group commits), on the one database thread on SQLite."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path

from trumps.room.storage.store import READ_THREADS, Store

sys.path.insert(0, str(Path(__file__).parent))
from waiting import until


def thread_name() -> str:
    return threading.current_thread().name


def test_reads_run_beside_the_database_thread_on_postgresql_only(db_url: str) -> None:
    store = Store(db_url)
    try:
        postgres = db_url.startswith("postgresql")

        async def run() -> tuple[str, str, float, float]:
            writer = await store.run(thread_name)
            reader = await store.read(thread_name)
            # the database thread busy for 0.6 s: does a read wait for it?
            began = threading.Event()

            def hold() -> None:
                began.set()
                time.sleep(0.6)

            busy = asyncio.ensure_future(store.run(hold))
            await until(began.is_set, what="the database thread to be busy")
            t0 = time.perf_counter()
            await store.read(thread_name)
            waited = time.perf_counter() - t0
            await busy
            # several slow reads at once
            t0 = time.perf_counter()
            await asyncio.gather(*(store.read(time.sleep, 0.3) for _ in range(READ_THREADS)))
            together = time.perf_counter() - t0
            return writer, reader, waited, together

        writer, reader, waited, together = asyncio.run(run())
        assert writer.startswith("trumps-db_")
        if postgres:
            assert reader.startswith("trumps-db-read")
            assert waited < 0.3, waited
            assert together < 0.3 * READ_THREADS / 2, together
        else:
            assert reader == writer  # SQLite: everything on the one thread
            assert waited >= 0.4, waited
            assert together >= 0.3 * READ_THREADS * 0.9, together
        # what a read sees is what is committed
        pid = asyncio.run(store.run(store.create_player, "Wren"))

        async def name() -> str | None:
            from trumps.room.people.accounts import player_info

            info = await store.read(player_info, store, pid)
            return None if info is None else info.name

        assert asyncio.run(name()) == "Wren (guest)"
    finally:
        store.close()
