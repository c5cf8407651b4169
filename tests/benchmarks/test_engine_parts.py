"""``benchmarks/engine_parts.py``: a game's time split into its start, its
actions by phase, its last action and its freeing, with every action of
the game counted in exactly one part."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import trumps

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_engine_parts() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("engine_parts")


def actions_of(game: str, games: int, seed: int) -> int:
    """The actions the benchmark's games take, counted apart."""
    options, preset = load_engine_parts().GAMES[game]
    pick = random.Random(seed).randrange
    n = 0
    for k in range(games):
        m = trumps.new_game(game, options=options, preset=preset, seed=seed * 100_003 + k)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[pick(len(legal))])
            n += 1
    return n


@pytest.mark.parametrize("game", ["bridge", "500", "coinche"])
def test_every_action_is_in_one_part(game: str) -> None:
    parts = load_engine_parts().one_round(game, 6, 3)
    assert {"start", "freed", "last action (deal's end)", "AUCTION"} <= set(parts)
    assert parts["last action (deal's end)"][1] == 1  # one game, one last action
    counted = sum(n for _, n in parts.values()) * 6
    assert counted == pytest.approx(actions_of(game, 6, 3))
    assert all(us > 0 for us, _ in parts.values())


def test_the_command_prints_each_game() -> None:
    r = subprocess.run(
        [sys.executable, str(BENCHMARKS / "engine_parts.py"), "--rounds", "1", "--games", "3"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    for game in ("bridge:", "500:", "coinche:"):
        assert game in r.stdout
