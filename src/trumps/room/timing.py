"""Optional server-side timings for the load benchmark.

Off unless the environment variable ``TRUMPS_ROOM_TIMINGS`` names a file:
then the room records, in memory, the phases of every action (lock wait,
commit wait, broadcast), every group commit, every table creation, the
event loop's lag and the garbage collector's pauses, and writes them as
JSON to that file when it stops (``benchmarks/room_load.py`` reads it).
Recording is a list append; with the variable unset every call is a
no-op test of one module global.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import time
from pathlib import Path

__all__ = ["ENABLED", "dump", "record", "start", "stop"]

_PATH = os.environ.get("TRUMPS_ROOM_TIMINGS") or None
ENABLED = _PATH is not None
LAG_TICK = 0.005  # seconds: the event-loop lag probe's sleep

_records: dict[str, list[list[float]]] = {}
_lag_task: asyncio.Task[None] | None = None
_gc_started: list[float] = []


def record(kind: str, *values: float) -> None:
    """Keep one row ``(wall time, *values)`` under ``kind`` (if enabled)."""
    if ENABLED:
        _records.setdefault(kind, []).append([time.time(), *values])


def _gc_callback(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        _gc_started.append(time.perf_counter())
    elif _gc_started:
        record("gc", time.perf_counter() - _gc_started.pop(), float(info.get("generation", -1)))


async def _lag_probe() -> None:
    """How late the loop wakes a task that sleeps ``LAG_TICK``: the time
    every other ready callback had to wait, too."""
    while True:
        t0 = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        late = time.perf_counter() - t0 - LAG_TICK
        if late > 0.002:
            record("lag", late)


def start() -> None:
    """Start the lag probe and the GC hook (in the running loop)."""
    global _lag_task
    if not ENABLED or _lag_task is not None:
        return
    gc.callbacks.append(_gc_callback)
    _lag_task = asyncio.get_running_loop().create_task(_lag_probe())


async def stop() -> None:
    global _lag_task
    if _lag_task is not None:
        _lag_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await _lag_task
        _lag_task = None
    if _gc_callback in gc.callbacks:
        gc.callbacks.remove(_gc_callback)
    dump()


def dump() -> None:
    if _PATH is not None:
        Path(_PATH).write_text(json.dumps(_records))
