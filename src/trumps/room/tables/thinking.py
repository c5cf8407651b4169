"""Where the room's bots and suggestions think: two bounded thread pools of
their own, apart from asyncio's default executor.

A ``normal`` or ``strong`` bot (and a suggestion) samples deals and solves
each double dummy; the C solver runs one search per processor at once, so
a burst of such decisions queues.  Run on the default executor
(``asyncio.to_thread``, min(32, cores + 4) threads) they once took every
thread for minutes and every other table's move waited behind them, a
``rules`` bot's included (docs/benchmarks.md, "Soak").  So:

- **search** work (the solver's bots and suggestions) has its own pool,
  sized for the solver (:data:`SEARCH_THREADS`), first come first served:
  each table has at most one decision waiting, so tables take turns;
- **quick** work (a decision the bot says needs no search,
  :meth:`trumps.bots.base.Bot.searches`: a rule bot's, or a search level's
  bid by a bidding system or by rule) has another pool, so such a move
  never waits for other tables' searches (a table of ``normal`` bots once
  waited a second and more for each bid behind the card play of others);
- each search decision is bounded by its own budget (a node limit per
  search and a time cap, :mod:`trumps.bots.levels`), so a turn in the
  search pool ends in seconds.

The pools are made on first use, once per process.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["QUICK_THREADS", "SEARCH_THREADS", "think"]

T = TypeVar("T")

#: threads for the solver's bots and suggestions: the C search runs one per
#: processor at once (more threads only wait on it), DDS as many
SEARCH_THREADS = max(2, min(8, os.cpu_count() or 1))
#: threads for the decisions that need no search
QUICK_THREADS = 2

_pools: dict[bool, ThreadPoolExecutor] = {}
_made = threading.Lock()


def _pool(quick: bool) -> ThreadPoolExecutor:
    with _made:
        pool = _pools.get(quick)
        if pool is None:
            size, name = (QUICK_THREADS, "trumps-quick") if quick else (SEARCH_THREADS, "trumps-search")
            pool = _pools[quick] = ThreadPoolExecutor(size, thread_name_prefix=name)
        return pool


async def think(quick: bool, fn: Callable[..., T], *args: object) -> T:
    """Run ``fn(*args)`` on the quick pool or the search pool and await its answer."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_pool(quick), functools.partial(fn, *args))
