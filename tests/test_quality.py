"""The code stays ruff-clean, formatted, and mypy-strict: part of the test suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    r = _run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks")
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_format() -> None:
    r = _run(sys.executable, "-m", "ruff", "format", "--check", "src", "tests", "benchmarks")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict() -> None:
    r = _run(sys.executable, "-m", "mypy")
    assert r.returncode == 0, r.stdout + r.stderr
