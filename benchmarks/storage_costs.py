"""The CPU a worker spends per PostgreSQL commit: the group commit's batch of
action rows and the bus's batch of notifications, each as the room sends it
and the way it was sent before.

Why it matters: a room on several workers makes more, smaller commits than
the same room on one (each worker's batches hold only its own tables'
actions), so a commit's fixed cost is what makes the CPU per action grow
with the number of workers (``docs/benchmarks.md``, "Server CPU per action").

    python benchmarks/storage_costs.py [--rounds 3] [--batches 400]

Runs a throw-away PostgreSQL server (``tests/room/pg.py``) and measures, in
this process, the CPU time (``time.process_time``) and the wall time per
batch of 1, 4 and 16 items:

- actions: ``GroupCommit._commit`` as the room runs it on PostgreSQL (one
  autocommitted ``INSERT ... SELECT ... json_to_recordset(...)`` on the
  database thread's own connection) against the SQLAlchemy transaction it
  used before (``begin()``, the insert, ``commit``), which the room still
  uses for batches with other writes and on SQLite;
- notifications: the bus's one ``SELECT pg_notify(...), ...`` against a
  transaction around ``executemany``.

The variants alternate within each round, so a slower moment of the machine
weighs on both.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "room"))
from pg import postgres_server

from trumps.room.cluster.bus import _notify_all, conninfo
from trumps.room.storage.group_commit import ActionValues
from trumps.room.storage.store import Store

SIZES = (1, 4, 16)


def measure(fn: Callable[[int], None], n: int, batches: int) -> tuple[float, float]:
    """(CPU µs, wall µs) per batch of ``n``."""
    for _ in range(20):
        fn(n)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(batches):
        fn(n)
    return (time.process_time() - c0) / batches * 1e6, (time.perf_counter() - w0) / batches * 1e6


async def ameasure(fn: Callable[[int], Awaitable[None]], n: int, batches: int) -> tuple[float, float]:
    for _ in range(20):
        await fn(n)
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(batches):
        await fn(n)
    return (time.process_time() - c0) / batches * 1e6, (time.perf_counter() - w0) / batches * 1e6


def actions(url: str, rounds: int, batches: int) -> dict[tuple[str, int], list[tuple[float, float]]]:
    store = Store(url)
    try:
        host = store.create_player("Ann")
        tid = asyncio.run(store.add_table("500", "american", {}, 7, host, 4, {}, None)).id
        commits = store._commits
        seq = 0

        def rows(n: int) -> list[ActionValues]:
            nonlocal seq
            out: list[ActionValues] = []
            for _ in range(n):
                out.append({"table_id": tid, "seq": seq, "seat": seq % 4, "action": "7H", "at": time.time(),
                            "auto": False, "timeout": False})  # fmt: skip
                seq += 1
            return out

        variants: dict[str, Callable[[int], None]] = {
            "one INSERT ... json_to_recordset, own connection (now)": lambda n: commits._commit(
                list(rows(n))
            ),
            "SQLAlchemy begin / insert / commit (before)": lambda n: commits._commit(
                list(rows(n)), fast=False
            ),
        }
        out: dict[tuple[str, int], list[tuple[float, float]]] = {}
        for _ in range(rounds):
            for n in SIZES:
                for name, fn in variants.items():
                    out.setdefault((name, n), []).append(measure(fn, n, max(50, batches // n)))
        return out
    finally:
        store.close()


async def notifications(
    url: str, rounds: int, batches: int
) -> dict[tuple[str, int], list[tuple[float, float]]]:
    conn = await psycopg.AsyncConnection.connect(conninfo(url), autocommit=True)
    try:

        def params(n: int) -> list[tuple[str, str]]:
            return [("trumps_bench", f"{i}|" + "x" * 300) for i in range(n)]

        async def one_statement(n: int) -> None:
            await conn.execute(_notify_all(n), [v for p in params(n) for v in p])

        async def transaction(n: int) -> None:
            async with conn.transaction(), conn.cursor() as cur:
                await cur.executemany("SELECT pg_notify(%s, %s)", params(n))

        variants = {
            "one SELECT pg_notify(...), ... (now)": one_statement,
            "transaction + executemany (before)": transaction,
        }
        out: dict[tuple[str, int], list[tuple[float, float]]] = {}
        for _ in range(rounds):
            for n in SIZES:
                for name, fn in variants.items():
                    out.setdefault((name, n), []).append(await ameasure(fn, n, batches))
        return out
    finally:
        await conn.close()


def report(title: str, results: dict[tuple[str, int], list[tuple[float, float]]]) -> None:
    print(f"\n{title}: µs per batch, median of the rounds (CPU of this process / wall)")
    names = list(dict.fromkeys(name for name, _ in results))
    print("| variant | " + " | ".join(f"{n} item{'s' if n > 1 else ''}" for n in SIZES) + " |")
    print("|---|" + "---:|" * len(SIZES))
    for name in names:
        cells = []
        for n in SIZES:
            runs = results[(name, n)]
            cpu = statistics.median(c for c, _ in runs)
            wall = statistics.median(w for _, w in runs)
            cells.append(f"{cpu:.0f} / {wall:.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batches", type=int, default=400, help="batches of one per measurement (fewer of more)")
    args = ap.parse_args()
    if args.rounds < 1 or args.batches < 1:
        ap.error("--rounds and --batches must be at least 1")
    with postgres_server() as url:
        report("Action rows (the group commit)", actions(url, args.rounds, args.batches))
        report("Notifications (the bus)", asyncio.run(notifications(url, args.rounds, args.batches)))


if __name__ == "__main__":
    main()
