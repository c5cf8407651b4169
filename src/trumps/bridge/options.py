"""The options of bridge (bridge.md §9).  Bridge has no presets: the
``scoring`` option selects the form of the game.

``duplicate`` is accepted as the plain name of single-board duplicate scoring
(``duplicate_mp`` and ``duplicate_imp`` score the board the same way; they
differ only in how boards are compared across tables).
"""

from __future__ import annotations

from trumps.core.errors import OptionError
from trumps.core.options import Options, OptionSchema, OptionSpec

__all__ = ["DUPLICATE_FORMS", "SCHEMA"]

DUPLICATE_FORMS = ("duplicate", "duplicate_mp", "duplicate_imp")

_SPECS = [
    OptionSpec("scoring", str, "duplicate_mp", ("rubber", "chicago", *DUPLICATE_FORMS),
               "Rubber bridge, Chicago (four deals) or one duplicate board."),
    OptionSpec("board", int, 0, None,
               "Duplicate board number (sets dealer and vulnerability); 0 = none.",
               check=lambda v: 0 <= v <= 9999, check_doc="board must be 0 to 9999"),
    OptionSpec("vulnerability", str, "None", ("None", "NS", "EW", "Both"),
               "Duplicate vulnerability when no board number is given."),
    OptionSpec("claims", str, "off", ("off", "consent", "verify"),
               "Claims: off, agreed by the opponents, or checked by the double-dummy solver."),
    OptionSpec("chicago_vul_scheme", str, "dealer_side", ("dealer_side", "non_dealer_side"),
               "Chicago deals 2 and 3: the dealer's side or the other side is vulnerable."),
    OptionSpec("mp_scale", str, "2_1", ("2_1", "1_half"), "Matchpoint scale for pair events."),
    OptionSpec("neuberg", bool, True, None, "Neuberg factoring when result counts differ."),
]  # fmt: skip


def _validate(o: Options) -> None:
    if o.board and o.scoring not in DUPLICATE_FORMS:
        raise OptionError("a board number only applies to duplicate scoring")


SCHEMA = OptionSchema(_SPECS, {}, None, _validate)
