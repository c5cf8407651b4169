"""Move timers kept by the server: one deadline per key (a table's seat to
act), firing a callback once when it passes unless cancelled or re-armed.

Deadlines are wall-clock times (``time.time()``), so a table can store the
deadline with its state and re-arm the timer after a restart.  The clock is
injected: :class:`FakeClock` drives the tests without waiting.

>>> TIME_LIMITS
(0, 7, 15, 30, 60)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

__all__ = ["SLACK", "TIME_LIMITS", "Clock", "FakeClock", "SystemClock", "Timers"]

#: A deadline is reached this close to it (a float's rounding at today's
#: epoch seconds is about 2e-7 s; an event loop's timer grain is 1e-3 s).
SLACK = 1e-6

#: The time limits a table may choose for calls and for cards (0 = off), in seconds.
TIME_LIMITS = (0, 7, 15, 30, 60)


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that only moves when told to (:meth:`advance`)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self._loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = self._loop.create_future()
        self._sleepers.append((self.t + seconds, fut))
        await fut

    async def advance(self, seconds: float) -> None:
        """Move time on and let every timer that is now due run."""
        self.t += seconds
        due = [f for at, f in self._sleepers if at <= self.t]
        self._sleepers = [(at, f) for at, f in self._sleepers if at > self.t]
        for fut in due:
            if not fut.done():
                fut.set_result(None)
        for _ in range(5):  # let the woken tasks (and what they start) run
            await asyncio.sleep(0)

    def advance_from_thread(self, seconds: float, timeout: float = 10.0) -> None:
        """:meth:`advance` from another thread (a test driving a live server)."""
        loop = self._loop
        if loop is None:  # nothing has slept yet: just move the time
            self.t += seconds
            return
        asyncio.run_coroutine_threadsafe(self.advance(seconds), loop).result(timeout)


class Timers:
    """Deadlines by key.  Arming a key replaces its previous timer."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}
        self._deadlines: dict[Hashable, float] = {}

    def arm(self, key: Hashable, deadline: float, callback: Callable[[Hashable], Awaitable[None]]) -> None:
        """Call ``callback(key)`` once at ``deadline`` (at once if it has passed)."""
        self.cancel(key)
        self._deadlines[key] = deadline

        async def wait() -> None:
            await self.clock.sleep(deadline - self.clock.now())
            # the event loop's timers may wake a moment before the deadline by
            # this clock (uvloop's, which ``trumps serve`` runs on, up to a
            # millisecond and more: their grain is a millisecond): never fire
            # early (a scheduled start checked the time and did not start)
            # (within SLACK: a fake clock moved on by exactly the time left
            # lands a rounding error short of a deadline near 1.8e9 s)
            while self.clock.now() < deadline - SLACK:
                await self.clock.sleep(deadline - self.clock.now())
            if self._deadlines.get(key) != deadline:
                return
            del self._deadlines[key]
            self._tasks.pop(key, None)
            await callback(key)

        self._tasks[key] = asyncio.get_running_loop().create_task(wait())

    def cancel(self, key: Hashable) -> None:
        task = self._tasks.pop(key, None)
        self._deadlines.pop(key, None)
        if task is not None and not task.done():
            task.cancel()

    def deadline(self, key: Hashable) -> float | None:
        return self._deadlines.get(key)

    def remaining(self, key: Hashable) -> float | None:
        """Seconds left on ``key``'s timer (never negative), or ``None``."""
        d = self._deadlines.get(key)
        return None if d is None else max(0.0, d - self.clock.now())

    def cancel_all(self) -> None:
        for key in list(self._tasks):
            self.cancel(key)
