"""How a card table draws 500 (see :mod:`trumps.core.presentation`).

The bidding box is the seed room's: levels 6-10 across ♠ ♣ ♦ ♥ NT (the
Avondale order, lowest first), Pass, and one blue button for the misère
bids that opens Misère / Open Misère.  American 500 calls them Nullo and
the kitty the widow, and adds a row of 6-level inkles.
"""

from __future__ import annotations

from trumps.core.options import Options
from trumps.core.presentation import SUIT_SYMBOLS, CallGroup, Presentation, SideCall, grid_rows, number_word
from trumps.five_hundred.options import TERMS

__all__ = ["presentation"]

_COLUMNS = ("S", "C", "D", "H", "NT")
_NAMES = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts", "NT": "no trumps"}


def _label(code: str) -> str:
    return SUIT_SYMBOLS.get(code, code)


def presentation(options: Options) -> Presentation:
    american = options.variation == "american"
    words = TERMS[str(options.variation)]  # the option metadata's words: one source for both
    misere = words["misere"].capitalize()
    labels: dict[str, str] = {"P": "Pass", "MIS": misere, "OMIS": "Open " + misere, "BREACH": "Breach"}
    names: dict[str, str] = {
        "P": "pass", "MIS": misere.lower(), "OMIS": "open " + misere.lower(), "BREACH": "breach",
    }  # fmt: skip
    for level in range(6, 11):
        for col in _COLUMNS:
            call = f"{level}{col}"
            labels[call] = f"{level}{_label(col)}"
            names[call] = f"{number_word(level)} {_NAMES[col]}"
            if level == 6 and american:
                labels["i" + call] = f"inkle {level}{_label(col)}"
                names["i" + call] = f"inkle {number_word(level)} {_NAMES[col]}"
    side: list[SideCall] = [{"call": "P", "label": "Pass", "name": "pass", "kind": "pass"}]
    if options.breach_enabled:
        side.append({"call": "BREACH", "label": "Breach", "name": "breach", "kind": "double"})
    popup: CallGroup | None = None
    if options.nullo_mode != "off":
        popup = {
            "label": misere,
            "name": misere.lower() + " bids",
            "calls": ["MIS", "OMIS"],
        }
    return {
        "box": {
            "columns": [{"key": c, "label": _label(c), "name": _NAMES[c]} for c in _COLUMNS],
            "rows": grid_rows(range(6, 11), _COLUMNS, lambda lv, c: f"{lv}{c}"),
            "side": side,
            "popup": popup,
            "inkles": {"label": "Inkle", "calls": [f"i6{c}" for c in _COLUMNS]} if american else None,
        },
        "labels": labels,
        "names": names,
        "terms": {
            "kitty": words["kitty"],
            "declarer": "contractor",
            "misere": misere,
            "tricks": "tricks",
        },
        "target": {"points": 500, "text": "500 or −500"},
    }
