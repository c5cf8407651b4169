"""Instructions per action of each engine's random self-play, counted by
valgrind: a measure that does not move with the machine's load (CPU-time
rounds move by ±5 % on a shared VM), for comparing two builds change by
change.

    python benchmarks/engine_instructions.py [--deals 1500] [--python PATH]

For each game, the loop of ``engine_peers.py``'s whole-match rows (bridge
duplicate boards, 500 American, coinche ``contree_exact``; seeded games and
seeded random legal actions, so two builds take the same actions) runs under
``valgrind --tool=callgrind``, and again with no deal; the difference over
the actions taken is the engine's instructions per action, the interpreter's
start and the imports left out.  ``--python`` measures another build (a
second virtualenv).  Instructions are not time: a chain of dependent
multiplications (the seeding of each deal's generator) costs more cycles per
instruction than the rest, so a ratio of instructions and one of CPU time
differ by a few per cent.  Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

CASES = {
    "bridge": ("None", '{"scoring": "duplicate"}'),
    "500": ('"american"', "None"),
    "coinche": ('"contree_exact"', "None"),
}

LOOP = """
import random, sys, trumps
def main(game, preset, options, n):
    pick = random.Random(1).randrange
    deals = k = actions = 0
    trumps.new_game(game, preset=preset, options=options, seed=10**9)  # imports and caches, counted in both runs
    while deals < n:
        m = trumps.new_game(game, preset=preset, options=options, seed=k)
        k += 1
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[pick(len(legal))])
            actions += 1
        deals += len(m.results)
    return actions
print(main({game!r}, {preset}, {options}, {deals}))
"""


def run(python: str, game: str, deals: int) -> tuple[int, int]:
    """(instructions, actions) of ``deals`` deals of ``game`` under callgrind."""
    preset, options = CASES[game]
    code = LOOP.format(game=game, preset=preset, options=options, deals=deals)
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"engine_instructions: valgrind printed no instruction count:\n{out.stderr[-500:]}")
    return int(found.group(1)), int(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--deals", type=int, default=1500)
    p.add_argument("--python", default=sys.executable, help="the interpreter of the build to measure")
    a = p.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("engine_instructions: valgrind is not installed (apt-get install valgrind)")
    per_action: dict[str, float] = {}
    for game in CASES:
        full, actions = run(a.python, game, a.deals)
        empty, _ = run(a.python, game, 0)
        per_action[game] = (full - empty) / actions
        print(f"{game:8} {actions:7,} actions  {per_action[game]:8,.0f} instructions per action")
    for game in ("500", "coinche"):
        print(
            f"{game}: bridge's instructions per action ÷ {game}'s = {per_action['bridge'] / per_action[game]:.3f}"
        )


if __name__ == "__main__":
    main()
