"""Decision time of the bot levels: median and tail per decision, per game.

Plays ``--deals`` deals of each game with one seat of each side at the
measured level and the other seats at ``easy``, and times every decision
the measured bot makes (bids and cards; forced single-choice decisions are
excluded).  The card room calls the same ``choose``.

    python benchmarks/bots.py [--deals 20] [--levels normal,strong] [--games 500,bridge,coinche]

Targets (issue 7): ``normal`` <= 150 ms and ``strong`` <= 1 s median per
decision, for every game.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Any

import trumps
from trumps.bots.base import Bot
from trumps.bots.registry import bot_for
from trumps.bots.selfplay import step


class Timed(Bot):
    """Wraps a bot and records how long each non-forced decision takes:
    wall-clock and CPU time of this process (the CPU figure is what the
    decision costs on an idle core, whatever else the machine runs)."""

    def __init__(self, inner: Bot, sink: list[tuple[str, float, float]]) -> None:
        self.inner = inner
        self.sink = sink

    def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        start, cpu = time.perf_counter(), time.process_time()
        out = self.inner.choose(view, legal, rng)
        if len(legal) > 1:
            self.sink.append((str(view.get("phase")), time.perf_counter() - start, time.process_time() - cpu))
        return out


def run(game: str, level: str, deals: int, seed: int) -> dict[str, Any]:
    times: list[tuple[str, float, float]] = []
    for d in range(deals):
        m = trumps.new_game(game, seed=seed + d)
        measured = Timed(bot_for(game, level), times)
        easy = bot_for(game, "easy")
        bots = [measured if s in (0, 1) else easy for s in range(m.players)]
        rng = random.Random(seed + d)
        while not m.results and m.to_act_index is not None:
            step(m, bots[m.to_act_index], rng)
    all_t = [t for _, t, _ in times]
    cpu = [c for _, _, c in times]
    cards = [c for p, _, c in times if p == "PLAY"]
    return {
        "game": game,
        "level": level,
        "decisions": len(all_t),
        "median_ms": 1000 * statistics.median(all_t),
        "cpu_median_ms": 1000 * statistics.median(cpu),
        "card_cpu_median_ms": 1000 * statistics.median(cards) if cards else 0.0,
        "cpu_p90_ms": 1000 * statistics.quantiles(cpu, n=10)[-1] if len(cpu) > 1 else 0.0,
        "cpu_max_ms": 1000 * max(cpu),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--levels", default="normal,strong")
    p.add_argument("--games", default="500,bridge,coinche")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}")
    print(
        "| game | level | decisions | median ms (wall) | median ms (CPU) | card median (CPU) | p90 (CPU) | max (CPU) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for level in args.levels.split(","):
        for game in args.games.split(","):
            r = run(game, level, args.deals, args.seed)
            print(
                f"| {game} | {level} | {r['decisions']} | {r['median_ms']:.0f} | {r['cpu_median_ms']:.0f} "
                f"| {r['card_cpu_median_ms']:.0f} | {r['cpu_p90_ms']:.0f} | {r['cpu_max_ms']:.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
