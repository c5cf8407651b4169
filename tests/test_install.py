"""The bare package, as ``pip install trumps`` gives it: installed from this
checkout into a fresh virtual environment with no extra, it plays a deal of
each game, solves a position (C search), runs a bot and the CLI, and has no
web framework, database driver, DDS or plotting library; ``trumps serve``
says which extra it needs.  A second install with no C compiler
(``CC=/bin/false``) still succeeds and the solver answers in Python.

Slow (two pip installs, a C build): one venv serves every check of an
install.  pip needs the network (or a configured index) for the build
backend and ``rich``/``babel``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

#: packages of the extras that must not come with the bare install
NOT_INSTALLED = ("starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "pydantic", "endplay",
                 "matplotlib", "numpy", "orjson", "argon2")  # fmt: skip

#: run inside the venv: a deal of each game by bots, a solve, a bot's choice
CHECK = r"""
import importlib.util, json, random, sys
import trumps
from trumps.bots.registry import bot_for
from trumps.bots.selfplay import step
from trumps.solver import solve
from trumps.solver.cengine import available, variant

out = {"missing": [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]}
rng = random.Random(7)
for game in ("500", "bridge", "coinche"):
    m = trumps.new_game(game, seed=7)
    bot = bot_for(game, "easy")
    first, steps = m.deal, 0
    while m.deal is first and not m.is_over:  # one whole deal, auction and play
        step(m, bot, rng)
        steps += 1
    out[game] = steps
m = trumps.new_game("coinche", seed=4, contract="100H", declarer="E")
sol = solve(m)
out["solve"] = [sol.engine, len(sol.values), available(), variant()]
legal = [str(a) for a in m.legal_actions()]
out["normal"] = bot_for("coinche", "normal").choose(m.view(m.to_act_index), legal, rng) in legal
print(json.dumps(out))
"""


def _run(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run in the venv's own world: no ``PYTHONPATH`` (a test run's ``src``
    would shadow the installed package), outside the checkout."""
    clean = {k: v for k, v in (env or os.environ).items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env=clean,
        cwd=str(cwd or Path(cmd[0]).parent),
    )


def _venv(where: Path) -> Path:
    venv.EnvBuilder(with_pip=True, clear=True).create(where)
    return where / ("Scripts" if os.name == "nt" else "bin") / "python"


def _install(py: Path, env: dict[str, str] | None = None) -> None:
    """``pip install`` of a clean copy of the checkout: what a source tree
    holds for the build, without an in-place build's ``_dd*.so``,
    ``build/`` or ``*.egg-info`` (setuptools would reuse a built module
    instead of compiling, or failing to compile, for this install)."""
    src = py.parent.parent.parent / "trumps-src"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    junk = shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.egg-info", "build")
    shutil.copytree(ROOT / "src", src / "src", ignore=junk)
    run = _run([str(py), "-m", "pip", "install", "--quiet", str(src)], env=env)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> Path:
    py = _venv(tmp_path_factory.mktemp("bare") / "venv")
    _install(py)
    return py


def _check(py: Path) -> dict[str, object]:
    run = _run([str(py), "-c", CHECK, *NOT_INSTALLED])
    assert run.returncode == 0, run.stdout + run.stderr
    result: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return result


def test_bare_install_plays_solves_and_has_no_extras(bare: Path) -> None:
    got = _check(bare)
    assert got["missing"] == list(NOT_INSTALLED)
    for game in ("500", "bridge", "coinche"):
        assert isinstance(got[game], int) and got[game] > 20, got  # an auction and every card
    engine, moves, built, _ = got["solve"]  # type: ignore[misc]
    assert built is True and engine == "c" and moves >= 1
    assert got["normal"] is True


def test_bare_install_cli(bare: Path) -> None:
    trumps = bare.parent / "trumps"
    for args in (["--help"], ["games"], ["selfplay", "coinche", "--games", "1", "--seed", "1"]):
        run = _run([str(trumps), *args])
        assert run.returncode == 0, (args, run.stdout + run.stderr)
    solve = _run(
        [str(trumps), "solve", "500", "--seed", "3", "--contract", "8H", "--declarer", "N", "--json"]
    )
    assert solve.returncode == 0, solve.stderr
    serve = _run([str(trumps), "serve"])
    assert serve.returncode == 2
    assert (
        serve.stderr.strip()
        == "trumps: error: the card room needs the room extra: pip install 'trumps[room]'"
    )
    assert serve.stdout == ""


def test_bridge_double_dummy_without_dds(bare: Path) -> None:
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    run = _run([str(bare.parent / "trumps"), "dd", deal, "--par", "--json"])
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["tricks"]["NT"] == {"N": 5, "E": 5, "S": 5, "W": 5}
    assert out["par"]["score"] == 80  # 1S by North or South, as DDS has it
    notes = [line for line in run.stderr.splitlines() if "own solver" in line]
    assert len(notes) == 1 and "trumps[dds]" in notes[0]


@pytest.mark.skipif(not Path("/bin/false").exists(), reason="needs /bin/false as a failing compiler")
def test_install_without_a_compiler_falls_back_to_python(tmp_path: Path) -> None:
    py = _venv(tmp_path / "venv")
    env = {**os.environ, "CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}
    _install(py, env)
    got = _check(py)
    engine, moves, built, variant = got["solve"]  # type: ignore[misc]
    assert (engine, built, variant) == ("python", False, None) and moves >= 1
    assert got["normal"] is True and got["missing"] == list(NOT_INSTALLED)
    site = _run(
        [str(py), "-c", "import trumps.solver, pathlib; print(pathlib.Path(trumps.solver.__file__).parent)"]
    )
    assert not list(Path(site.stdout.strip()).glob("_dd*.so")), "no compiled module without a compiler"
