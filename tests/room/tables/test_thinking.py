"""The bots' own thread pools: a search never delays a rule bot's move."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

from trumps.room.tables import thinking

sys.path.insert(0, str(Path(__file__).parent))
from waiting import until


def test_which_kinds_are_quick() -> None:
    assert thinking.is_quick("rules") and thinking.is_quick("Easy") and thinking.is_quick("random")
    assert not thinking.is_quick("normal") and not thinking.is_quick("strong")
    assert not thinking.is_quick("colver:heuristic") and not thinking.is_quick(None)  # None: a suggestion


def test_a_rule_bot_moves_while_every_search_thread_is_busy() -> None:
    release = threading.Event()
    started: list[str] = []

    def long_search() -> str:
        started.append(threading.current_thread().name)
        release.wait(30)
        return threading.current_thread().name

    async def main() -> None:
        searches = [
            asyncio.ensure_future(thinking.think("strong", long_search))
            for _ in range(thinking.SEARCH_THREADS + 2)
        ]
        await until(lambda: len(started) == thinking.SEARCH_THREADS, what="every search thread to be busy")
        # every search thread is taken and two more wait: a rule bot does not
        name = await asyncio.wait_for(thinking.think("rules", lambda: threading.current_thread().name), 5)
        assert name.startswith("trumps-quick")
        # nor does asyncio's default executor (replays, history)
        await asyncio.wait_for(asyncio.to_thread(lambda: None), 5)
        assert not any(s.done() for s in searches)
        release.set()
        names = await asyncio.wait_for(asyncio.gather(*searches), 10)
        assert all(n.startswith("trumps-search") for n in names)

    asyncio.run(main())
