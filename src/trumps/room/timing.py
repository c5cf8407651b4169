"""Optional server-side timings for the load benchmark.

Off unless the environment variable ``TRUMPS_ROOM_TIMINGS`` names a file:
then the room records, in memory, the phases of every action (lock wait,
commit wait, broadcast), every group commit, every table creation, the
CPU of making each broadcast's events, the garbage collector's pauses and,
with ``TRUMPS_ROOM_LAG_PROBE=1`` too, the event loop's lag, and writes them as
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
# The lag probe wakes the event loop every LAG_TICK: 200 times a second, 19 ms
# of CPU a second in an idle worker against 1 ms without it.  That is the
# benchmark's own cost, and it is per worker: at the same load on 4 workers it
# added 4 times what it added on one, so it is started only when asked
# (``TRUMPS_ROOM_LAG_PROBE=1``; ``room_load.py --lag-probe``).
LAG_PROBE = ENABLED and os.environ.get("TRUMPS_ROOM_LAG_PROBE", "") not in ("", "0")
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
    """Start the GC hook and, if asked for (:data:`LAG_PROBE`), the lag probe (in the running loop)."""
    global _lag_task
    if not ENABLED or _gc_callback in gc.callbacks:
        return
    gc.callbacks.append(_gc_callback)
    if LAG_PROBE:
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
