"""How a card table draws bridge (see :mod:`trumps.core.presentation`).

The bidding box everybody knows: levels 1-7 across ♣ ♦ ♥ ♠ NT, then
Pass, X and XX.
"""

from __future__ import annotations

from trumps.core.options import Options
from trumps.core.presentation import SUIT_SYMBOLS, Presentation, grid_rows, number_word, side_calls

__all__ = ["presentation"]

_COLUMNS = ("C", "D", "H", "S", "NT")
_PLURAL = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}
_SINGULAR = {"C": "club", "D": "diamond", "H": "heart", "S": "spade", "NT": "no trump"}
_TARGETS = {
    "rubber": "rubber (2 games)",
    "chicago": "Chicago (4 deals)",
}


def presentation(options: Options) -> Presentation:
    labels = {"P": "Pass", "X": "X", "XX": "XX"}
    names = {"P": "pass", "X": "double", "XX": "redouble"}
    for level in range(1, 8):
        for col in _COLUMNS:
            labels[f"{level}{col}"] = f"{level}{SUIT_SYMBOLS.get(col, col)}"
            names[f"{level}{col}"] = f"{number_word(level)} {(_SINGULAR if level == 1 else _PLURAL)[col]}"
    form = str(options.scoring)
    return {
        "box": {
            "columns": [{"key": c, "label": SUIT_SYMBOLS.get(c, c), "name": _PLURAL[c]} for c in _COLUMNS],
            "rows": grid_rows(range(1, 8), _COLUMNS, lambda lv, c: f"{lv}{c}"),
            "side": side_calls(labels, names, [("P", "pass"), ("X", "double"), ("XX", "redouble")]),
            "popup": None,
            "inkles": None,
        },
        "labels": labels,
        "names": names,
        "terms": {"kitty": None, "declarer": "declarer", "dummy": "dummy", "tricks": "tricks"},
        "target": {"points": None, "text": _TARGETS.get(form, "one board")},
    }
