"""Shared helpers of the coinche tests: the data directory and the presets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data" / "coinche"
PRESETS = ["seed", "common", "ffb_2016", "contree_exact", "pagat"]


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))
