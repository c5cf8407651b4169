"""Random episodes (one deal each) per second: the raw engine, the PettingZoo
adapter and the OpenSpiel adapter, per game.

    python benchmarks/envs_speed.py [--episodes 200] [--seed 1]

The raw engine loop picks a random legal action object and applies it; the
PettingZoo loop reads ``last()`` (observation tensor, action mask, the view
in ``infos``) and steps a random masked index; the OpenSpiel loop deals the
chance events, then applies random legal indices.  Ratios are time over
the raw engine's (the target is at most 2×); "raw+view" adds the acting
seat's view each step, the floor of an observation built from the view.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import trumps
from trumps.envs import raw_env

CONFIGS: list[tuple[str, str | None]] = [("bridge", None), ("500", "american"), ("coinche", "ffb_2016")]


def raw(game: str, preset: str | None, episodes: int, seed: int) -> None:
    rng = random.Random(seed)
    for k in range(episodes):
        m = trumps.new_game(game, preset=preset, seed=seed + k)
        while not m.results and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))


def raw_view(game: str, preset: str | None, episodes: int, seed: int) -> None:
    """The raw loop plus the acting seat's view each step: the floor of any
    adapter whose observation is built from the view."""
    rng = random.Random(seed)
    for k in range(episodes):
        m = trumps.new_game(game, preset=preset, seed=seed + k)
        while not m.results and not m.is_over:
            m.view(m.to_act)
            m.apply(rng.choice(m.legal_actions()))


def pettingzoo(e: Any, episodes: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for k in range(episodes):
        e.reset(seed=seed + k)
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def load_openspiel(game: str, preset: str | None) -> Any:
    import pyspiel

    from trumps.envs.openspiel_game import register

    register()
    return pyspiel.load_game(f"python_trumps_{game}", {"preset": preset or ""})


def openspiel(g: Any, episodes: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(episodes):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))


def timed(fn: Callable[..., Any], *args: Any) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-openspiel", action="store_true")
    a = ap.parse_args(argv)
    print(
        f"{'game':<20} {'raw ep/s':>9} {'raw+view':>9} {'ratio':>6}"
        f" {'PettingZoo ep/s':>16} {'ratio':>6} {'OpenSpiel ep/s':>15} {'ratio':>6}"
    )
    raw("bridge", None, 2, 0)  # imports and caches out of the timings
    for game, preset in CONFIGS:
        name = game + (f" ({preset})" if preset else "")
        # separate seed ranges: the engine caches per position, so a replayed
        # seed would flatter whichever loop ran second
        t_raw = timed(raw, game, preset, a.episodes, a.seed)
        t_view = timed(raw_view, game, preset, a.episodes, a.seed + 300_000)
        t_pz = timed(pettingzoo, raw_env(game, preset=preset), a.episodes, a.seed + 100_000)
        line = (
            f"{name:<20} {a.episodes / t_raw:9.1f} {a.episodes / t_view:9.1f} {t_view / t_raw:5.2f}×"
            f" {a.episodes / t_pz:16.1f} {t_pz / t_raw:5.2f}×"
        )
        if not a.no_openspiel:
            t_os = timed(openspiel, load_openspiel(game, preset), a.episodes, a.seed + 200_000)
            line += f" {a.episodes / t_os:15.1f} {t_os / t_raw:5.2f}×"
        print(line, flush=True)


if __name__ == "__main__":
    main()
