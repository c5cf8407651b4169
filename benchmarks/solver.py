"""Double-dummy solver benchmark: median and worst time to solve random full
deals from the first lead, one core, in two modes: the deal's result
(``solver.value``: one search, what DDS's ``SolveBoard`` gives with
``solutions=1``) and the value of every legal card (``solver.solve``, DDS's
``solutions=3``).  Times are CPU time of this process (``time.process_time``),
so other work on the machine inflates them less than wall time.

    python benchmarks/solver.py [--deals 100] [--seed 1] [--engine c] [--mode value|all|both]

Rows: 500 suit and no-trump contracts (4 players, 10 cards), 500 misère,
coinche (8 cards, card points); with --all also 6-player 500 and 13-card
bridge (slow: fewer deals).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from trumps.solver import position_of, solve, value
from trumps.solver.cengine import value_c
from trumps.solver.randpos import random_match

# name, game, contracts, options, deals (None: --deals), opt-in only
ROWS: list[tuple[str, str, list[str], dict[str, Any], int | None, bool]] = [
    ("500 suit (4p, 10 cards)", "500", ["6S", "7H", "8D", "9C", "10S"], {"players": "2v2"}, None, False),
    ("500 no trumps (4p)", "500", ["6NT", "8NT"], {"players": "2v2"}, None, False),
    ("500 misère (3 hands)", "500", ["MIS"], {"players": "2v2"}, None, False),
    ("coinche (8 cards, points)", "coinche", ["80S", "90H", "100NT", "110AT"], {}, None, False),
    ("500 6-player suit (3v3)", "500", ["7S", "8H"], {"players": "3v3"}, 20, True),
    ("bridge (13 cards)", "bridge", ["4S", "3NT"], {}, 10, True),
]


def run_row(
    game: str, contracts: list[str], options: dict[str, Any], deals: int, seed: int, engine: str, mode: str
) -> tuple[list[float], list[int]]:
    rng = random.Random(seed)
    times, nodes = [], []
    for _ in range(deals):
        match = random_match(game, rng, rng.choice(contracts), **options)
        t = time.process_time()
        if mode == "all":
            n = solve(match, engine=engine).nodes
        elif engine == "c":
            n = value_c(position_of(match))[1]
        else:
            value(match, engine=engine)
            n = 0
        times.append(time.process_time() - t)
        nodes.append(n)
    return times, nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, default=100, help="deals per target row (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="c")
    ap.add_argument("--all", action="store_true", help="also the slow rows (6-player 500, 13-card bridge)")
    ap.add_argument("--only", help="run the rows whose name contains this")
    ap.add_argument(
        "--mode", choices=["value", "all", "both"], default="both", help="what to solve (default both)"
    )
    args = ap.parse_args()
    modes = ["value", "all"] if args.mode == "both" else [args.mode]
    print(
        f"{'row':28} {'mode':>5} {'deals':>5} {'median ms':>10} {'p90 ms':>9} {'max ms':>9} {'median nodes':>13}"
    )
    for name, game, contracts, options, count, slow in ROWS:
        if args.only and args.only not in name:
            continue
        if slow and not (args.all or args.only):
            continue
        for mode in modes:
            t, nodes = run_row(game, contracts, options, count or args.deals, args.seed, args.engine, mode)
            t.sort()
            p90 = t[int(0.9 * (len(t) - 1))]
            print(
                f"{name:28} {mode:>5} {len(t):5} {1000 * statistics.median(t):10.2f} {1000 * p90:9.2f}"
                f" {1000 * t[-1]:9.2f} {int(statistics.median(nodes)):13d}",
                flush=True,
            )


if __name__ == "__main__":
    main()
