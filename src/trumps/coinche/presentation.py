"""How a card table draws coinche (see :mod:`trumps.core.presentation`).

The grid of the online rooms: 80 up to the preset's highest number (160,
170 or 180) across ♠ ♥ ♦ ♣ and, where the preset allows them, Sans atout
and Tout atout; Capot (and Générale) as rows of their own beneath; then
Pass, Coinche and Surcoinche.
"""

from __future__ import annotations

from trumps.core.options import Options
from trumps.core.presentation import SUIT_SYMBOLS, Presentation, grid_rows, side_calls

__all__ = ["presentation"]

_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps", "AT": "all trumps"}
_SHORT = {**SUIT_SYMBOLS, "NT": "SA", "AT": "TA"}


def presentation(options: Options) -> Presentation:
    columns = ["S", "H", "D", "C"]
    if options.allow_no_trump:
        columns.append("NT")
    if options.allow_all_trump:
        columns.append("AT")
    top = int(options.max_numeric_bid)
    levels = list(range(80, top + 1, 10))
    labels = {"P": "Pass", "X": "Coinche", "XX": "Surcoinche"}
    names = {"P": "pass", "X": "coinche", "XX": "surcoinche"}
    for col in columns:
        for level in levels:
            labels[f"{level}{col}"] = f"{level} {_SHORT[col]}"
            names[f"{level}{col}"] = f"{level} {_NAMES[col]}"
        labels[f"CAPOT-{col}"] = f"Capot {_SHORT[col]}"
        names[f"CAPOT-{col}"] = f"capot {_NAMES[col]}"
        labels[f"GENERALE-{col}"] = f"Générale {_SHORT[col]}"
        names[f"GENERALE-{col}"] = f"générale {_NAMES[col]}"
    rows = grid_rows(levels, columns, lambda lv, c: f"{lv}{c}")
    if options.allow_capot_bid:
        rows += grid_rows(["Capot"], columns, lambda _lv, c: f"CAPOT-{c}")
    if options.allow_generale_bid:
        rows += grid_rows(["Générale"], columns, lambda _lv, c: f"GENERALE-{c}")
    return {
        "box": {
            "columns": [{"key": c, "label": _SHORT[c], "name": _NAMES[c]} for c in columns],
            "rows": rows,
            "side": side_calls(labels, names, [("P", "pass"), ("X", "double"), ("XX", "redouble")]),
            "popup": None,
            "inkles": None,
        },
        "labels": labels,
        "names": names,
        "terms": {"kitty": None, "declarer": "taker", "tricks": "card points"},
        "target": {"points": int(options.target_score), "text": f"{int(options.target_score)} points"},
    }
