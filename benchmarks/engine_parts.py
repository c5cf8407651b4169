"""Where a one-deal game's time goes, measured inside the self-play loop of
``engine_peers.py`` (not each part alone, warm in the caches): the game's
start (``trumps.new_game``), its actions by phase (the deal's end paid by
the last action, shown apart), and the game freed after it.

    python benchmarks/engine_parts.py [--rounds 25] [--games 400]

Why: ``engine_peers.py`` finds 500 and coinche slower per action than
bridge in one-deal games.  A cost paid once a deal weighs on each action in
inverse proportion to the deal's length (38 actions in coinche, 45 in 500,
62 in bridge), so this splits the costs paid once from those paid per
action, and those per action by kind (calls, the kitty, cards).  Each round
runs ``--games`` games of each game in turn; the figures are the medians of
the rounds.  The clock is read once per action (before it is applied, so
that the last action's time is known), which adds about 0.05 µs to each.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections import defaultdict

from engine_peers import ONE_DEAL as GAMES  # the one-deal games engine_peers.py times

import trumps


def one_round(game: str, games: int, seed: int) -> dict[str, tuple[float, float]]:
    """{part: (µs per game, actions per game)} over ``games`` games."""
    options, preset = GAMES[game]
    pick = random.Random(seed).randrange
    clock = time.perf_counter_ns
    spent: dict[str, int] = defaultdict(int)
    counted: dict[str, int] = defaultdict(int)
    for k in range(games):
        t0 = clock()
        m = trumps.new_game(game, options=options, preset=preset, seed=seed * 100_003 + k)
        t = clock()
        spent["start"] += t - t0
        deal = m.deal
        phase = str(deal.phase)
        while True:
            legal = m.legal_actions()
            before = clock()
            m.apply(legal[pick(len(legal))])
            if m.is_over:  # the last action: the deal's end and its scoring with it
                t2 = clock()
                spent[phase] += before - t
                spent["last action (deal's end)"] += t2 - before
                counted["last action (deal's end)"] += 1
                t = t2
                break
            counted[phase] += 1
            now = str(deal.phase)
            if now != phase:
                t2 = clock()
                spent[phase] += t2 - t
                t, phase = t2, now
        del m, deal, legal
        spent["freed"] += clock() - t
    return {part: (spent[part] / games / 1000, counted[part] / games) for part in spent}


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rounds", type=int, default=25)
    p.add_argument("--games", type=int, default=400)
    a = p.parse_args()
    taken: dict[str, dict[str, list[tuple[float, float]]]] = {g: defaultdict(list) for g in GAMES}
    for game in GAMES:  # warm up: imports, caches
        one_round(game, 20, 999)
    for r in range(a.rounds):
        for game in GAMES:
            for part, got in one_round(game, a.games, r + 1).items():
                taken[game][part].append(got)
    print(f"python {platform.python_version()} on {platform.machine()}; {a.rounds} rounds of {a.games} games")
    for game, parts in taken.items():
        total = sum(statistics.median(x[0] for x in v) for v in parts.values())
        actions = sum(statistics.median(x[1] for x in v) for v in parts.values())
        print(f"{game}: {total:6.2f} µs a game, {actions:4.1f} actions, {total / actions:5.3f} µs per action")
        for part, v in parts.items():
            us = statistics.median(x[0] for x in v)
            n = statistics.median(x[1] for x in v)
            each = f"{us / n:6.3f} µs each" if n else ""
            print(f"  {part:26} {us:6.2f} µs a game {n:5.1f} actions {each}")


if __name__ == "__main__":
    main()
