"""Solving from several threads at once gives the same values as one at a
time (the C module has one solver per processor: more threads wait)."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from trumps.solver import c_available, solve
from trumps.solver.randpos import random_position_match


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_threads_agree() -> None:
    rng = random.Random(9)
    matches = [random_position_match(g, rng, 6) for g in ("500", "coinche", "bridge") * 4]
    alone = [solve(m, engine="c").values for m in matches]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda m: solve(m, engine="c").values, matches))
    assert together == alone


@pytest.mark.skipif(not c_available(), reason="the C solver is not built")
def test_one_solver_per_processor() -> None:
    """Searches from that many threads run at once (benchmarks/solver_threads.py)."""
    import os

    from trumps.solver.cengine import _dd

    assert _dd is not None
    assert _dd.solvers() == max(1, min(8, os.cpu_count() or 1))
