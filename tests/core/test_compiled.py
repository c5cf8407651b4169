"""The compiled engines (mypyc, ``setup.py``) give the same results as their
Python sources, which are their specification (issue 33): 3,000 random deals
of every game and preset (the issue asks CI for a few thousand), played both
ways through ``benchmarks/engine_differential.py`` (which the benchmark runs
with 100,000); about three minutes."""

from __future__ import annotations

import importlib.machinery
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import trumps
from trumps.core.copying import shallow_copy

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "engine_differential.py"


def _run(*args: str, pure: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, TRUMPS_PURE="1" if pure else "0")
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=1200)


def test_random_deals_of_every_game_and_preset_are_identical_compiled_and_pure() -> None:
    done = _run(str(SCRIPT), "--deals", "3000", "--seed", "7")
    if done.returncode == 2:
        pytest.skip("the engines are not compiled in this install (no mypyc build)")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("identical") == 10


def test_the_digest_tells_deals_apart() -> None:
    """The comparison can fail: another seed gives another digest."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import engine_differential as ed
    finally:
        sys.path.remove(str(SCRIPT.parent))
    one = ed.play("500", "american", {}, 5, 1)
    assert one == ed.play("500", "american", {}, 5, 1)
    assert one[0] != ed.play("500", "american", {}, 5, 2)[0]


def test_trumps_pure_imports_the_sources() -> None:
    code = "import trumps; trumps.new_game('coinche'); print(trumps.compiled_modules())"
    pure = _run("-c", code, pure=True)
    assert pure.returncode == 0 and pure.stdout.strip() == "[]", pure.stderr
    mixed = _run("-c", code)
    assert mixed.returncode == 0, mixed.stderr


@pytest.mark.parametrize("game", ["bridge", "500", "coinche"])
def test_a_copy_of_a_deal_is_independent_and_equal(game: str) -> None:
    m = trumps.new_game(game, seed=3)
    rng = random.Random(5)
    while m.phase != "PLAY" or len(m.log) < 12:  # into the play, a few cards in
        m.apply(rng.choice(m.legal_actions()))
    deal = m.deal
    other = deal.copy()
    assert type(other) is type(deal) and other.hands == deal.hands and other.hands is not deal.hands
    assert other.phase == deal.phase and other.to_act == deal.to_act
    twin = m.clone()
    twin.apply(twin.legal_actions()[-1])
    assert len(twin.log) == len(m.log) + 1 and m.deal.hands == deal.hands
    auction = shallow_copy(deal.auction)
    assert type(auction) is type(deal.auction) and auction.calls is deal.auction.calls


def test_a_source_edited_after_the_build_is_found(tmp_path: Path) -> None:
    """An in-place build whose source changed afterwards (or whose rebuild
    failed) must not run the old compiled code: the stale source is named,
    and ``trumps`` then runs the sources (``trumps/_pure.py``)."""
    from trumps._pure import stale_sources

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "src" / "trumps"  # a checkout, built in place
    group = package / f"_compiled__mypyc{suffix}"
    (package / "five_hundred").mkdir(parents=True)
    for rel in ("five_hundred/deal", "five_hundred/game"):
        (package / f"{rel}.py").write_text("")
        (package / f"{rel}{suffix}").write_text("")
    (package / "solver_only.so").write_text("")  # no Python twin: not an engine module
    group.write_text("")
    os.utime(group, (1_000_000, 1_000_000))
    os.utime(package / "five_hundred" / "game.py", (900_000, 900_000))
    os.utime(package / "five_hundred" / "deal.py", (1_100_000, 1_100_000))
    assert stale_sources(str(group)) == [os.path.join("five_hundred", "deal.py")]
    os.utime(package / "five_hundred" / "deal.py", (900_000, 900_000))
    assert stale_sources(str(group)) == []
    # an installed wheel (no checkout around it): its times say nothing, never stale
    os.utime(package / "five_hundred" / "deal.py", (1_100_000, 1_100_000))
    (tmp_path / "pyproject.toml").unlink()
    assert stale_sources(str(group)) == []
