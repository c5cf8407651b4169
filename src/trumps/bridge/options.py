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
    duplicate = o.scoring in DUPLICATE_FORMS
    if o.board and not duplicate:
        raise OptionError("a board number only applies to duplicate scoring")
    if o.vulnerability != "None" and not duplicate:
        raise OptionError(
            f"vulnerability only applies to duplicate scoring ({o.scoring} vulnerability follows the score)"
        )
    if o.board and o.vulnerability != "None":
        from trumps.bridge.scoring import board_vulnerability

        if board_vulnerability(int(o.board)) != o.vulnerability:
            raise OptionError(
                f"board {o.board} is vulnerable {board_vulnerability(int(o.board))}, not {o.vulnerability}"
            )
    if o.chicago_vul_scheme != "dealer_side" and o.scoring != "chicago":
        raise OptionError("chicago_vul_scheme only applies to Chicago scoring")
    if (o.mp_scale != "2_1" or not o.neuberg) and not duplicate:
        raise OptionError("mp_scale and neuberg only apply to duplicate scoring")


#: What a card room's Play button offers: the forms scored at one table (duplicate
#: needs other tables to compare a board with).
POPULAR = [
    {"key": "rubber", "label": "Rubber bridge", "preset": None, "options": {"scoring": "rubber"}},
    {"key": "chicago", "label": "Chicago (four deals)", "preset": None, "options": {"scoring": "chicago"}},
]

SCHEMA = OptionSchema(_SPECS, {}, None, _validate, popular=POPULAR)
