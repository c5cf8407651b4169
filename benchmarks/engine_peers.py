"""The engines against their peers: random complete deals per second of CPU
time, trumps and the peer measured in the same run, rounds interleaved.

    python benchmarks/engine_peers.py [--rounds 7] [--deals 400] [--seed 1]

- **bridge**: trumps through its public API (``trumps.new_game``, then
  ``legal_actions`` / ``apply`` with every check: seat, legality, the log)
  against OpenSpiel's C++ ``bridge`` game stepped from Python as OpenSpiel's
  own examples step it: the deal as 52 chance outcomes, then random legal
  actions, ``use_double_dummy_result=false`` so that the cards are played.
- **500 and coinche**: trumps only (no peer plays them from Python with the
  same rules), per action against trumps' bridge: the target is "at least
  as fast per action as bridge".  Two measures: per action of one-deal
  games (``trumps ...`` rows: 500 and coinche with ``max_deals`` 1, as
  bridge's duplicate board is a one-deal match: a game started, one deal
  dealt and played, nothing dealt after it; until session 29 these games
  were unlimited and stopped at their first scored deal, when they had
  already dealt the next one, whose cost their first deal's actions paid),
  and per action over whole matches (``match ...`` rows: every deal dealt
  once and played, games to their end).  The ``start ...`` rows start the
  one-deal games and play nothing: a game's fixed cost (the first dealer
  drawn, the first deal dealt), the same for a deal of 38, 45 or 62
  actions; the last rows give the one-deal ratios with it taken out.

Each round runs ``--deals`` deals of each loop, in turn; the ratio of each
round is trumps' rate over the peer's in that round, and the report gives
the min / median / max of the ratios (issue 33: ≥ 1.0× is the target).
Time is CPU time of this process (``time.process_time``), so another job on
the machine costs little.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

import trumps

Loop = Callable[[int, int], int]  # (deals, seed) -> actions taken

#: the one-deal games of the "trumps ..." and "start ..." rows, game -> (options, preset):
#: bridge's duplicate board is a one-deal match, and 500 and coinche stop after
#: their first deal (an unlimited game deals its next deal as the first is
#: scored, which the first's actions would pay for)
ONE_DEAL: dict[str, tuple[dict[str, object], str | None]] = {
    "bridge": ({"scoring": "duplicate"}, None),
    "500": ({"max_deals": 1}, "american"),
    "coinche": ({"max_deals": 1}, "contree_exact"),
}


def trumps_loop(game: str, options: dict[str, object] | None = None, preset: str | None = None) -> Loop:
    """Random deals of ``game`` through the public API (one deal each: a
    fresh game, stepped until its first deal is scored)."""

    def run(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = 0
        for k in range(deals):
            m = trumps.new_game(game, options=options, preset=preset, seed=seed * 100_003 + k)
            while not m.results and not m.is_over:
                legal = m.legal_actions()
                m.apply(legal[randrange(len(legal))])
                actions += 1
        return actions

    return run


def match_loop(game: str, options: dict[str, object] | None = None, preset: str | None = None) -> Loop:
    """Whole matches of ``game`` (until ``deals`` deals are scored), so each
    deal is dealt once: the per-action measure of self-play."""

    def run(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = done = k = 0
        while done < deals:
            m = trumps.new_game(game, options=options, preset=preset, seed=seed * 100_003 + k)
            k += 1
            while not m.is_over:
                legal = m.legal_actions()
                m.apply(legal[randrange(len(legal))])
                actions += 1
            done += len(m.results)
        return actions

    return run


def start_loop(game: str, options: dict[str, object] | None = None, preset: str | None = None) -> Loop:
    """:func:`trumps_loop`'s games started and not played (``new_game``:
    the first dealer drawn, the first deal dealt), the same seeds: what a
    one-deal game pays once, whatever its number of actions.  Takes no
    action (returns 0)."""

    def run(deals: int, seed: int) -> int:
        for k in range(deals):
            trumps.new_game(game, options=options, preset=preset, seed=seed * 100_003 + k)
        return 0

    return run


def openspiel_bridge() -> Loop | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})

    def run(deals: int, seed: int) -> int:
        rng = random.Random(seed)
        randrange = rng.randrange
        actions = 0
        for _ in range(deals):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[randrange(len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                state.apply_action(legal[randrange(len(legal))])
                actions += 1
        return actions

    return run


def timed(loop: Loop, deals: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, actions) of ``deals`` deals."""
    t0 = time.process_time()
    actions = loop(deals, seed)
    return time.process_time() - t0, actions


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    loops: dict[str, Loop] = {
        **{f"trumps {g}": trumps_loop(g, options=o, preset=pre) for g, (o, pre) in ONE_DEAL.items()},
        "match bridge": match_loop("bridge", options={"scoring": "duplicate"}),
        "match 500": match_loop("500", preset="american"),
        "match coinche": match_loop("coinche", preset="contree_exact"),
        **{f"start {g}": start_loop(g, options=o, preset=pre) for g, (o, pre) in ONE_DEAL.items()},
    }
    peer = openspiel_bridge()
    if peer is not None:
        loops["OpenSpiel bridge (C++)"] = peer
    for loop in loops.values():  # warm up: imports, caches
        loop(20, a.seed + 999)
    rates: dict[str, list[float]] = {name: [] for name in loops}
    per_action: dict[str, list[float]] = {name: [] for name in loops}
    taken: dict[str, list[tuple[float, int]]] = {name: [] for name in loops}  # (seconds, actions)
    for r in range(a.rounds):
        for name, loop in loops.items():
            seconds, actions = timed(loop, a.deals, a.seed + r)
            rates[name].append(a.deals / seconds)
            taken[name].append((seconds, actions))
            if actions:
                per_action[name].append(seconds / actions * 1e6)
    print(f"python {platform.python_version()} on {platform.machine()}; {a.rounds} rounds of {a.deals} deals")
    for name in loops:
        if name.startswith("start "):
            print(f"{name:24} {1e6 / statistics.median(rates[name]):8.2f} µs per game started (median)")
            continue
        print(
            f"{name:24} {statistics.median(rates[name]):8,.0f} deals/s (median), "
            f"{statistics.median(per_action[name]):6.2f} µs per action"
        )
    if peer is not None:
        ratios = [t / o for t, o in zip(rates["trumps bridge"], rates["OpenSpiel bridge (C++)"], strict=True)]
        print(f"bridge, trumps ÷ OpenSpiel (deals/s), min / median / max: {spread(ratios)}")
    for kind in ("trumps", "match"):
        for game in ("500", "coinche"):
            ratios = [
                b / g for g, b in zip(per_action[f"{kind} {game}"], per_action[f"{kind} bridge"], strict=True)
            ]
            what = "first deals" if kind == "trumps" else "whole matches"
            print(f"{game}, speed per action ÷ bridge's ({what}), min / median / max: {spread(ratios)}")
    # the one-deal games with each round's game starts taken out: the
    # actions and the deal's end, which a start's fixed cost does not weigh on
    played = {
        game: [
            (seconds - start) / actions
            for (seconds, actions), (start, _) in zip(
                taken[f"trumps {game}"], taken[f"start {game}"], strict=True
            )
        ]
        for game in ("bridge", "500", "coinche")
    }
    for game in ("500", "coinche"):
        ratios = [b / g for g, b in zip(played[game], played["bridge"], strict=True)]
        print(f"{game}, speed per action ÷ bridge's (first deals, game starts left out): {spread(ratios)}")
    compiled = len(trumps.compiled_modules())
    print(f"compiled engine modules: {compiled} (TRUMPS_PURE=1 measures the Python sources)")


if __name__ == "__main__":
    main()
