"""The two copies of the C search (``_dd_search.h`` compiled for the generic
baseline and, on x86-64, for BMI2; one chosen at import by CPU detection)
give the same values and visit the same nodes: the copy changes the speed
only.  The generic copy is forced in a child process with
``TRUMPS_DD_GENERIC=1``."""

from __future__ import annotations

import json
import os
import platform
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trumps.solver import c_available, solve
from trumps.solver.cengine import variant
from trumps.solver.randpos import random_match, random_position_match

pytestmark = pytest.mark.skipif(not c_available(), reason="the C solver is not built")

SRC = str(Path(__file__).resolve().parents[2] / "src")

#: (game, cards per hand; 0: a full deal from the first lead), a few of each
CASES = [("500", 0), ("coinche", 0), ("500", 6), ("coinche", 5), ("bridge", 6)]
#: full deals with four players (a six-player deal can take seconds)
FULL = {"500": {"players": "2v2"}, "coinche": {}}
PER_CASE = 12


def _answers() -> list[tuple[dict[str, int], int]]:
    out = []
    for game, cards in CASES:
        rng = random.Random(f"variants/{game}/{cards}")
        for _ in range(PER_CASE):
            m = (
                random_match(game, rng, **FULL[game])
                if cards == 0
                else random_position_match(game, rng, cards)
            )
            sol = solve(m, engine="c")
            out.append((sol.values, sol.nodes))
    return out


def _cpu_has_bmi2() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        pytest.skip("no /proc/cpuinfo to tell the CPU's instructions")
    zen12 = "AuthenticAMD" in flags and re.search(r"^cpu family\s*:\s*23$", flags, re.M) is not None
    return " bmi2" in flags and not zen12  # AMD family 17h: PEXT is microcoded, the generic copy runs


def _in_child(generic: bool) -> tuple[str, list[list[object]]]:
    """``(variant, answers)`` from a fresh process (node counts depend on what
    the solver's tables saw before, so both copies start from nothing)."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import MODULE as c; "
        "from trumps.solver.cengine import variant; print(json.dumps([variant(), c._answers()]))"
    ).replace("MODULE", Path(__file__).stem)
    env = {**os.environ, "TRUMPS_DD_GENERIC": "1" if generic else "0", "PYTHONPATH": SRC}
    run = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).resolve().parent)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    name, answers = json.loads(run.stdout)
    return name, answers


def test_generic_copy_answers_like_the_chosen_one() -> None:
    generic_name, generic = _in_child(generic=True)
    chosen_name, chosen = _in_child(generic=False)
    assert generic_name == "generic"
    assert chosen_name == ("bmi2" if _cpu_has_bmi2() else "generic")
    assert len(chosen) == len(CASES) * PER_CASE
    assert chosen == generic  # values and nodes


def test_the_fast_copy_is_chosen_where_the_cpu_has_it() -> None:
    expected = "bmi2" if _cpu_has_bmi2() else "generic"
    if os.environ.get("TRUMPS_DD_GENERIC", "0") not in ("", "0"):
        expected = "generic"
    assert variant() == expected
