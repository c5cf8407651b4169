"""Random-bot self-play speed of bridge: complete deals per second on one core.

A complete deal is a random legal auction that is not passed out, thirteen
tricks and the duplicate score; passed-out deals are counted separately and
not in the figure.  Each deal is a fresh single-board game created through
``trumps.new_game`` and driven through the public ``apply`` (the same path a
card room takes).  With ``--dd`` it also times double-dummy tables through
the adapter (needs ``endplay``).

    python benchmarks/bridge_selfplay.py [--seconds 10] [--dd]

Target (issue 3): at least 1,500 complete deals/s in pure Python.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import trumps


def run(seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    complete = passed = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    options = {"scoring": "duplicate"}
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = trumps.new_game("bridge", options=options, seed=rng.randrange(2**32), dealer=0)
            randrange = rng.randrange
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[randrange(len(legal))])
                actions += 1
            if game.results[0]["passed_out"]:
                passed += 1
            else:
                complete += 1
    elapsed = time.perf_counter() - start
    return {
        "seconds": elapsed,
        "complete_deals": complete,
        "passed_out": passed,
        "actions": actions,
        "deals_per_s": complete / elapsed,
        "actions_per_s": actions / elapsed,
    }


def run_dd(seconds: float, seed: int) -> dict[str, float]:
    from trumps.bridge.dd import dd_table, dd_tables
    from trumps.bridge.hands import DECK

    rng = random.Random(seed)
    tables = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        cards = list(DECK)
        rng.shuffle(cards)
        dd_table([cards[k::4] for k in range(4)])
        tables += 1
    elapsed = time.perf_counter() - start
    batch_start = time.perf_counter()
    batch = 0
    while time.perf_counter() - batch_start < seconds:
        deals = []
        for _ in range(20):
            cards = list(DECK)
            rng.shuffle(cards)
            deals.append([cards[k::4] for k in range(4)])
        dd_tables(deals)
        batch += len(deals)
    batch_elapsed = time.perf_counter() - batch_start
    return {
        "seconds": elapsed,
        "tables": tables,
        "tables_per_s": tables / elapsed,
        "batch_tables": batch,
        "batch_tables_per_s": batch / batch_elapsed,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dd", action="store_true", help="also time double-dummy tables")
    a = p.parse_args()
    r = run(a.seconds, a.seed)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu'})")
    print(
        f"{r['complete_deals']} complete deals (+{r['passed_out']} passed out), "
        f"{r['actions']} actions in {r['seconds']:.1f} s"
    )
    print(f"{r['deals_per_s']:.0f} complete deals/s, {r['actions_per_s']:.0f} actions/s")
    if a.dd:
        d = run_dd(a.seconds, a.seed)
        print(f"double dummy, one at a time: {d['tables_per_s']:.1f} tables/s ({d['tables']} tables)")
        print(
            f"double dummy, batches of 20: {d['batch_tables_per_s']:.1f} tables/s ({d['batch_tables']} tables)"
        )


if __name__ == "__main__":
    main()
