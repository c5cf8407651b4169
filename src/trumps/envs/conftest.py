"""pytest collects the package's doctests: skip these modules when the
optional extras they need are not installed."""

from __future__ import annotations

import importlib.util

_NEEDS = {
    "encoding.py": ("numpy",),
    "rewards.py": (),
    "pettingzoo_env.py": ("numpy", "gymnasium", "pettingzoo"),
    "openspiel_game.py": ("numpy", "pyspiel"),
    "vector.py": ("numpy",),
}

collect_ignore = [f for f, mods in _NEEDS.items() if any(importlib.util.find_spec(m) is None for m in mods)]
