"""The move-timer scheduler, engine-free, on a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

from trumps.room.tables.timers import FakeClock, SystemClock, Timers


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def test_fires_once_at_the_deadline() -> None:
    async def main() -> None:
        clock = FakeClock()
        timers = Timers(clock)
        fired: list[tuple[Hashable, float]] = []

        async def cb(key: Hashable) -> None:
            fired.append((key, clock.now()))

        timers.arm("t1", clock.now() + 15, cb)
        assert timers.remaining("t1") == 15
        await clock.advance(14.9)
        assert fired == [] and timers.remaining("t1") is not None
        await clock.advance(0.1)
        assert fired == [("t1", 1_000_015.0)]
        await clock.advance(100)
        assert len(fired) == 1 and timers.deadline("t1") is None

    run(main())


def test_rearm_replaces_and_cancel_stops() -> None:
    async def main() -> None:
        clock = FakeClock()
        timers = Timers(clock)
        fired: list[Hashable] = []

        async def cb(key: Hashable) -> None:
            fired.append(key)

        timers.arm("a", clock.now() + 7, cb)
        await clock.advance(5)
        timers.arm("a", clock.now() + 7, cb)  # the player acted: a new turn, a new deadline
        await clock.advance(5)
        assert fired == []
        await clock.advance(2)
        assert fired == ["a"]
        timers.arm("b", clock.now() + 30, cb)
        timers.cancel("b")
        await clock.advance(60)
        assert fired == ["a"]

    run(main())


def test_keys_fire_in_deadline_order_and_past_deadlines_fire_at_once() -> None:
    async def main() -> None:
        clock = FakeClock()
        timers = Timers(clock)
        fired: list[Hashable] = []

        async def cb(key: Hashable) -> None:
            fired.append(key)

        timers.arm(("t", 2), clock.now() + 30, cb)
        timers.arm(("t", 1), clock.now() + 7, cb)
        timers.arm(("t", 3), clock.now() - 5, cb)  # re-armed from a stored deadline already past
        await clock.advance(0)
        assert fired == [("t", 3)]
        await clock.advance(10)
        assert fired == [("t", 3), ("t", 1)]
        await clock.advance(30)
        assert fired == [("t", 3), ("t", 1), ("t", 2)]

    run(main())


def test_rearmed_after_a_restart_fires_at_the_stored_deadline() -> None:
    async def main() -> None:
        clock = FakeClock()
        fired: list[float] = []

        async def cb(_key: Hashable) -> None:
            fired.append(clock.now())

        first = Timers(clock)
        deadline = clock.now() + 60
        first.arm("seat", deadline, cb)
        first.cancel_all()  # the server stops
        await clock.advance(20)
        second = Timers(clock)  # the server starts again and re-arms from storage
        second.arm("seat", deadline, cb)
        assert second.remaining("seat") == 40
        await clock.advance(40)
        assert fired == [deadline]

    run(main())


def test_system_clock_really_waits() -> None:
    async def main() -> None:
        timers = Timers(SystemClock())
        done = asyncio.Event()

        async def cb(_key: Hashable) -> None:
            done.set()

        timers.arm("x", timers.clock.now() + 0.05, cb)
        await asyncio.wait_for(done.wait(), timeout=2)

    run(main())


class EarlyClock(SystemClock):
    """The wall clock, with sleeps that wake 2 ms early by it, as uvloop's
    timers (what ``trumps serve`` runs on) do by up to a millisecond and
    more: their grain is a millisecond and their clock another one."""

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds - 0.002))


def test_a_timer_never_fires_before_its_deadline_by_its_clock() -> None:
    """A scheduled start fired by such a timer found its time not come yet
    (``seating.may_start``), seated the bots and never started."""

    async def main() -> None:
        clock = EarlyClock()
        timers = Timers(clock)
        late: list[float] = []
        done = asyncio.Event()

        async def cb(key: Hashable) -> None:
            late.append(clock.now() - deadlines[key])
            if len(late) == len(deadlines):
                done.set()

        deadlines = {i: clock.now() + 0.01 * i for i in range(1, 11)}
        for key, deadline in deadlines.items():
            timers.arm(key, deadline, cb)
        await asyncio.wait_for(done.wait(), 5)
        assert min(late) >= 0, late

    run(main())
