"""``import trumps`` is light; its subpackages load on first use (PEP 562)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

HEAVY = (
    "trumps.bridge",
    "trumps.coinche",
    "trumps.five_hundred",
    "trumps.solver",
    "trumps.bots",
    "trumps.room",
    "trumps.cli",
    "numpy",
    "sqlalchemy",
    "starlette",
    "asyncio",
)


def _run(code: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_trumps_loads_no_subpackage_or_heavy_dependency() -> None:
    got = _run(
        "import json, sys, trumps\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m in heavy)))"
    )
    assert got == []


def test_subpackages_load_on_attribute_access() -> None:
    got = _run(
        "import json, sys, trumps\n"
        "r = {\n"
        " 'bridge': trumps.bridge.score('3NT', vulnerable=False, tricks=9),\n"
        " 'coinche': trumps.coinche.score('100H', 112)['taker'],\n"
        " 'five_hundred': trumps.five_hundred.score('8H', 9)['bidders'],\n"
        " 'loaded': 'trumps.bridge' in sys.modules,\n"
        " 'solver_loaded': 'trumps.solver' in sys.modules,\n"
        "}\n"
        "print(json.dumps(r))"
    )
    assert got == {"bridge": 400, "coinche": 210, "five_hundred": 300, "loaded": True, "solver_loaded": False}


def test_lazy_attribute_is_the_module_and_dir_lists_subpackages() -> None:
    import importlib

    import trumps

    for name in ("bots", "bridge", "coinche", "core", "five_hundred", "solver"):
        assert name in dir(trumps)
        assert getattr(trumps, name) is importlib.import_module(f"trumps.{name}")
    assert "new_game" in dir(trumps)


def test_unknown_attribute_raises_attribute_error() -> None:
    import pytest

    import trumps

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        trumps.nope  # noqa: B018
    assert not hasattr(trumps, "_nope")
