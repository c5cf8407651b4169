"""Random-bot self-play speed of coinche: complete deals per second on one core.

A complete deal is an auction that produced a contract, eight tricks and
scoring; thrown-in deals (four passes) are counted separately and not in the
figure.  Games are played through the public protocol
(``legal_actions`` / ``apply``), exactly as a bot would.  Time is the
process's CPU time (``time.process_time``), so other jobs on a shared machine
do not distort the one-core figure; wall time is printed too.

    python benchmarks/coinche_selfplay.py [--seconds 10] [--preset common]

Target (issue 4): at least 3,000 complete deals/s in pure Python.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import trumps

PRESETS = ["seed", "common", "ffb_2016", "contree_exact", "pagat"]


def run(seconds: float, preset: str, seed: int) -> dict[str, float]:
    """Play random games for ``seconds``; return the counts and rates."""
    rng = random.Random(seed)
    complete = thrown = actions = games = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    while time.process_time() < deadline:
        game = trumps.new_game("coinche", preset=preset, seed=rng.randrange(2**32))
        choice = rng.choice
        legal = game.legal_actions
        apply = game.apply
        while not game.is_over:
            apply(choice(legal()))
            actions += 1
        games += 1
        for r in game.results:
            if r["thrown_in"]:
                thrown += 1
            else:
                complete += 1
    elapsed = time.process_time() - start
    return {
        "seconds": elapsed,
        "wall_seconds": time.perf_counter() - wall,
        "games": games,
        "complete_deals": complete,
        "thrown_in": thrown,
        "actions": actions,
        "deals_per_s": complete / elapsed,
        "actions_per_s": actions / elapsed,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--preset", default="common", choices=PRESETS)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    r = run(a.seconds, a.preset, a.seed)
    print(f"python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'cpu'})")
    print(
        f"preset {a.preset}: {r['games']} games, {r['complete_deals']} complete deals "
        f"(+{r['thrown_in']} thrown in), {r['actions']} actions in {r['seconds']:.1f} CPU s ({r['wall_seconds']:.1f} s wall)"
    )
    print(f"{r['deals_per_s']:,.0f} complete deals/s   {r['actions_per_s']:,.0f} actions/s (per CPU second)")


if __name__ == "__main__":
    main()
