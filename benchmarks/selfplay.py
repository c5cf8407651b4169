"""Random-bot self-play speed of 500: complete deals per second on one core.

A complete deal is auction, kitty exchange, ten tricks and scoring; thrown-in
deals (everybody passed) are counted separately and not in the figure.

    python benchmarks/selfplay.py [--seconds 10] [--preset american|australian]

Target (issue 2): at least 2,000 complete deals/s in pure Python.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import trumps


def run(seconds: float, preset: str, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    complete = thrown = actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = trumps.new_game("500", preset=preset, seed=rng.randrange(2**32))
        choice = rng.choice
        while not game.is_over:
            game.apply(choice(game.legal_actions()))
            actions += 1
        games += 1
        for r in game.results:
            if r["thrown_in"]:
                thrown += 1
            else:
                complete += 1
    elapsed = time.perf_counter() - start
    return {
        "seconds": elapsed,
        "games": games,
        "complete_deals": complete,
        "thrown_in": thrown,
        "actions": actions,
        "deals_per_s": complete / elapsed,
        "actions_per_s": actions / elapsed,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--preset", default="american", choices=["american", "australian"])
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    r = run(a.seconds, a.preset, a.seed)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu'})")
    print(
        f"preset {a.preset}: {r['games']} games, {r['complete_deals']} complete deals "
        f"(+{r['thrown_in']} thrown in), {r['actions']} actions in {r['seconds']:.1f} s"
    )
    print(f"{r['deals_per_s']:,.0f} complete deals/s   {r['actions_per_s']:,.0f} actions/s")


if __name__ == "__main__":
    main()
