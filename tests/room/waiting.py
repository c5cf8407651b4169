"""Waiting for a condition instead of sleeping and hoping.

A test that sleeps a fixed time before it looks is slow when the machine is
idle and flaky when it is loaded; these helpers look again and again until
the condition holds, and fail loudly, naming what was awaited, when it does
not hold within ``timeout``.  (A sleep that *is* the subject of a test — a
timer let run, a pause between a client's moves — stays a sleep.)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

STEP = 0.01  # s between looks


def wait_until(predicate: Callable[[], object], timeout: float = 10.0, what: str = "the condition") -> None:
    """Return as soon as ``predicate()`` is true; ``AssertionError`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(STEP)


async def until(predicate: Callable[[], object], timeout: float = 10.0, what: str = "the condition") -> None:
    """:func:`wait_until` inside an event loop: the loop runs while it waits."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(STEP)
