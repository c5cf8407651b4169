"""The options of bridge (docs/rules/bridge.md §9).  Bridge has no presets: the
``scoring`` option selects the form of the game.

``duplicate`` is accepted as the plain name of single-board duplicate scoring
(``duplicate_mp`` and ``duplicate_imp`` score the board the same way; they
differ only in how boards are compared across tables).
"""

from __future__ import annotations

from trumps.core.errors import OptionError
from trumps.core.options import OptionGroup, Options, OptionSchema, OptionSpec, PopularRules

__all__ = ["DUPLICATE_FORMS", "SCHEMA"]

DUPLICATE_FORMS = ("duplicate", "duplicate_mp", "duplicate_imp")

_DUPLICATE = {"scoring": DUPLICATE_FORMS}

GROUPS = [
    OptionGroup("game", "The game", "How the deals are scored, and claims."),
    OptionGroup("duplicate", "Duplicate", "One board, compared with other tables.", advanced=True),
]

_SPECS = [
    OptionSpec("scoring", str, "duplicate_mp", ("rubber", "chicago", *DUPLICATE_FORMS),
               "Rubber bridge, Chicago (four deals) or one duplicate board.",
               label="Scoring", group="game",
               choice_labels={"rubber": "rubber bridge", "chicago": "Chicago (four deals)",
                              "duplicate": "duplicate", "duplicate_mp": "duplicate, matchpoints",
                              "duplicate_imp": "duplicate, IMPs"},
               summary={"rubber": "Rubber", "chicago": "Chicago", "duplicate": "Duplicate",
                        "duplicate_mp": "Duplicate · matchpoints", "duplicate_imp": "Duplicate · IMPs"}),
    OptionSpec("board", int, 0, None,
               "Duplicate board number (sets dealer and vulnerability); 0 = none.",
               check=lambda v: 0 <= v <= 9999, check_doc="board must be 0 to 9999",
               label="Board number", group="duplicate", when=_DUPLICATE, bounds=(0, 9999, 1)),
    OptionSpec("vulnerability", str, "None", ("None", "NS", "EW", "Both"),
               "Duplicate vulnerability when no board number is given.",
               label="Vulnerability", group="duplicate", when=_DUPLICATE,
               choice_labels={"None": "none", "NS": "North-South", "EW": "East-West", "Both": "both sides"}),
    OptionSpec("claims", str, "off", ("off", "consent", "verify"),
               "Claims: off, agreed by the opponents, or checked by the double-dummy solver.",
               label="Claims", group="game",
               choice_labels={"off": "off", "consent": "if the opponents agree", "verify": "checked by the solver"},
               summary={"consent": "claims", "verify": "checked claims"}),
    OptionSpec("chicago_vul_scheme", str, "dealer_side", ("dealer_side", "non_dealer_side"),
               "Chicago deals 2 and 3: the dealer's side or the other side is vulnerable.",
               label="Chicago vulnerability", group="game", when={"scoring": ("chicago",)},
               choice_labels={"dealer_side": "dealer's side", "non_dealer_side": "the other side"}),
    OptionSpec("mp_scale", str, "2_1", ("2_1", "1_half"), "Matchpoint scale for pair events.",
               label="Matchpoints", group="duplicate", when=_DUPLICATE,
               choice_labels={"2_1": "2 a win, 1 a tie", "1_half": "1 a win, ½ a tie"}),
    OptionSpec("neuberg", bool, True, None, "Neuberg factoring when result counts differ.",
               label="Neuberg factoring", group="duplicate", when=_DUPLICATE),
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
POPULAR: list[PopularRules] = [
    {"key": "rubber", "label": "Rubber bridge", "preset": None, "options": {"scoring": "rubber"}},
    {"key": "chicago", "label": "Chicago (four deals)", "preset": None, "options": {"scoring": "chicago"}},
]

SCHEMA = OptionSchema(
    _SPECS, {}, None, _validate, popular=POPULAR, title="Contract Bridge", groups=GROUPS, game="bridge"
)
