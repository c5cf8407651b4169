"""Steps per CPU second of the vectorised environment (``trumps.envs.vector``)
for each game, against trumps' PettingZoo loop and OpenSpiel's C++ bridge.

    python benchmarks/envs_vector.py [--steps 20000] [--repeat 5] [--n 1,16,64,256]

A step is one action of one game (``n`` games stepped by one call make ``n``
steps), with the acting seat's observation (``float32[n, D]``) and legal mask
(``bool[n, A]``) after it, the auto-reset of finished games included; the
actions are uniformly random legal ones drawn for all games at once
(``random_actions``: one numpy pass, its time counted).  ``copy=False``
unless the column says ``copy``: the environment's own buffers are returned,
as EnvPool and PufferLib do.  Beside it, in the same rounds: the PettingZoo
AEC loop of ``envs_speed.py`` (one game, an observation per step) and, for
bridge, OpenSpiel's C++ ``bridge`` stepped from Python with
``observation_tensor()`` per step (``use_double_dummy_result=false``).
Each loop runs about ``--steps`` steps per round; the rounds are
interleaved; CPU time of this process (``time.process_time``); min / median
/ max over the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from trumps.envs import raw_env
from trumps.envs.vector import VectorEnv, random_actions

sys.path.insert(0, str(Path(__file__).resolve().parent))
from envs_speed import load_cpp_bridge, openspiel, pettingzoo

CONFIGS: list[tuple[str, str | None]] = [("bridge", None), ("500", "american"), ("coinche", "ffb_2016")]
STEPS_PER_DEAL = {"bridge": 62, "500": 45, "coinche": 38}  # about, to size the AEC loops' rounds


def vector_loop(v: VectorEnv, steps: int, seed: int) -> int:
    """``steps`` steps (rounded up to whole calls) from a fresh reset; then
    the games are let go (``close``), so that the games of the other loops
    do not stay in memory for the garbage collector to walk."""
    rng = np.random.default_rng(seed)
    _obs, mask, _to_act = v.reset(seed=seed)
    done = 0
    while done < steps:
        _obs, mask, _rewards, _terminated, _info = v.step(random_actions(mask, rng))
        done += v.num_envs
    v.close()
    return done


def spread(values: list[float]) -> str:
    return " / ".join(f"{v:,.0f}" for v in (min(values), statistics.median(values), max(values)))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--steps", type=int, default=20_000, help="steps per loop per round")
    ap.add_argument("--repeat", type=int, default=5, help="rounds, interleaved")
    ap.add_argument("--n", default="1,16,64,256", help="numbers of games per call")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-peers", action="store_true", help="no PettingZoo / C++ bridge loops")
    a = ap.parse_args(argv)
    sizes = [int(x) for x in a.n.split(",")]
    loops: dict[tuple[str, str], Callable[[int], int]] = {}
    for game, preset in CONFIGS:
        for n in sizes:
            v = VectorEnv(game, n, preset=preset, copy=False)
            loops[(game, f"vector n={n}")] = lambda seed, v=v: vector_loop(v, a.steps, seed)
        big = max(sizes)
        vc = VectorEnv(game, big, preset=preset, copy=True)
        loops[(game, f"vector n={big} copy")] = lambda seed, v=vc: vector_loop(v, a.steps, seed)
        if not a.no_peers:
            e = raw_env(game, preset=preset)
            episodes = max(1, a.steps // STEPS_PER_DEAL[game])
            loops[(game, "PettingZoo AEC")] = lambda seed, e=e, k=episodes: pettingzoo(e, k, seed)
            if game == "bridge":
                g: Any = load_cpp_bridge()
                loops[(game, "C++ bridge+obs")] = lambda seed, g=g, k=episodes: openspiel(
                    g, k, seed, observe=True
                )
    vector_loop(VectorEnv("bridge", 2), 200, 0)  # imports and caches out of the timings
    rates: dict[tuple[str, str], list[float]] = {k: [] for k in loops}
    for r in range(a.repeat):
        for i, (key, fn) in enumerate(loops.items()):
            seed = a.seed + (r * len(loops) + i) * 100_000
            t = time.process_time()
            steps = fn(seed)
            rates[key].append(steps / (time.process_time() - t))
        print(f"round {r + 1}/{a.repeat} done", file=sys.stderr, flush=True)
    print(f"steps per CPU second (min / median / max over {a.repeat} interleaved rounds)")
    print(f"{'game':<10} {'loop':<22} {'steps/s':>30} {'÷ PettingZoo (median)':>22}")
    for (game, name), values in rates.items():
        pz = rates.get((game, "PettingZoo AEC"))
        rel = f"{statistics.median(values) / statistics.median(pz):.2f}×" if pz else ""
        print(f"{game:<10} {name:<22} {spread(values):>30} {rel:>22}")
    cpp = rates.get(("bridge", "C++ bridge+obs"))
    if cpp:
        print("\nspeed ÷ OpenSpiel C++ bridge+obs, each round's pair (min / median / max)")
        for (game, name), values in rates.items():
            if name != "C++ bridge+obs":
                ratios = [x / y for x, y in zip(values, cpp, strict=True)]
                print(
                    f"{game:<10} {name:<22} "
                    + " / ".join(f"{x:.2f}" for x in (min(ratios), statistics.median(ratios), max(ratios)))
                )


if __name__ == "__main__":
    main()
