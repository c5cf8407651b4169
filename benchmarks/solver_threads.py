"""The C double-dummy solver from several threads at once (issue 29).

The module has one solver (transposition table) per processor and releases
the GIL while it searches, so a room's bots on several tables search in
parallel.  This solves the same full deals (500 with four and six players,
coinche) on 1, 2, ... threads and prints deals per second; every answer is
checked against the single-threaded run.

    python benchmarks/solver_threads.py [--deals 16] [--threads 1 2 4]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import trumps
from trumps.solver import solve
from trumps.solver.cengine import _dd

LIMIT = 16_000_000  # the strong bot's limit: the long tail of six-player deals is left out


def deals(n: int) -> list[Any]:
    out = []
    for seed in range(n):
        out.append(trumps.new_game("500", seed=seed, contract="7NT", declarer=0))
        out.append(trumps.new_game("500", options={"players": "3v3"}, seed=seed, contract="7S", declarer=0))
        out.append(trumps.new_game("coinche", seed=seed, contract="80H", declarer=0))
    return out


def answer(m: Any) -> dict[str, int] | None:
    try:
        return dict(solve(m, engine="c", limit=LIMIT).values)
    except trumps.solver.SearchLimit:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=16, help="seeds (three deals each)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2, 4])
    a = ap.parse_args()
    if a.deals < 1 or any(t < 1 for t in a.threads):
        ap.error("--deals and --threads must be >= 1")
    assert _dd is not None, "the C solver is not built"
    ms = deals(a.deals)
    print(f"machine: {os.cpu_count()} cores ({platform.processor() or platform.machine()}), "
          f"CPython {platform.python_version()}; solvers in the module: {_dd.solvers()}")  # fmt: skip
    base: list[dict[str, int] | None] | None = None
    for n in a.threads:
        with ThreadPoolExecutor(n) as pool:
            t = time.perf_counter()
            got = list(pool.map(answer, ms))
            dt = time.perf_counter() - t
        if base is None:
            base = got
        assert got == base, "a threaded solve differs from the single-threaded one"
        print(f"threads {n}: {len(ms)} deals in {dt:.2f} s, {len(ms) / dt:.1f} deals/s")


if __name__ == "__main__":
    main()
