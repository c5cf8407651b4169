"""Score building blocks shared by every scoring form (docs/rules/bridge.md §4, §5,
§7.2, §7.4): trick points, overtricks, undertricks, the duplicate deal
score, honours, board dealer/vulnerability and the WBF IMP scale.

>>> score("4S", vulnerable=True, tricks=11), score("4HX", vulnerable=True, tricks=7)
(650, -800)
>>> imps(-600), board_dealer(5), board_vulnerability(5)
(-12, 0, 'NS')
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from trumps.bridge.calls import Contract
from trumps.core.cards import Card, Suit
from trumps.core.errors import ParseError, whole_number, yes_or_no

__all__ = [
    "IMP_BOUNDS",
    "VULS",
    "board_dealer",
    "board_vulnerability",
    "contract_points",
    "deal_score",
    "honors",
    "imps",
    "overtrick_points",
    "score",
    "slam_bonus",
    "undertrick_penalty",
    "vulnerable_sides",
]

VULS = ("None", "NS", "EW", "Both")
IMP_BOUNDS = (
    0, 20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def contract_points(c: Contract) -> int:
    """Trick points of the tricks bid (§4.1), doubled ×2, redoubled ×4."""
    per = 20 if c.strain < 2 else 30
    return (per * c.level + (10 if c.strain == 4 else 0)) * (1, 2, 4)[c.risk]


def overtrick_points(c: Contract, vul: bool, over: int) -> int:
    """Overtricks (§4.2)."""
    if c.risk == 0:
        return over * (20 if c.strain < 2 else 30)
    return over * (100 if c.risk == 1 else 200) * (2 if vul else 1)


def undertrick_penalty(risk: int, vul: bool, down: int) -> int:
    """Points to the defenders for ``down`` undertricks (§4.5 table)."""
    if down <= 0:
        return 0
    if risk == 0:
        return down * (100 if vul else 50)
    pen = 200 + 300 * (down - 1) if vul else 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return pen * (2 if risk == 2 else 1)


def slam_bonus(level: int, vul: bool) -> int:
    """Small or grand slam bonus for a slam bid and made (§4.4)."""
    if level == 6:
        return 750 if vul else 500
    if level == 7:
        return 1500 if vul else 1000
    return 0


def deal_score(c: Contract, vul: bool, tricks: int) -> int:
    """The duplicate score of the declaring side (§5); negative when down."""
    if not 0 <= tricks <= 13:
        raise ParseError(f"tricks must be 0 to 13, not {tricks}")
    need = c.level + 6
    if tricks < need:
        return -undertrick_penalty(c.risk, vul, need - tricks)
    points = contract_points(c)
    total = points + overtrick_points(c, vul, tricks - need) + (0, 50, 100)[c.risk]
    total += (500 if vul else 300) if points >= 100 else 50
    return total + slam_bonus(c.level, vul)


def score(contract: object, *, vulnerable: object, tricks: object) -> int:
    """Duplicate score of a contract result for the declaring side:
    ``score("4HX", vulnerable=True, tricks=9)``.  (The arguments are typed
    ``object`` and checked, here and below: compiled, a wrong type is then
    the same ParseError as in the Python sources, not a TypeError.)"""
    if not isinstance(contract, str | Contract):
        raise ParseError(f"not a contract: {contract!r}")
    return deal_score(
        Contract.parse(contract), yes_or_no(vulnerable, "vulnerable"), whole_number(tricks, "tricks")
    )


def imps(difference: object) -> int:
    """IMPs of a score difference on the WBF scale, sign kept (§7.4)."""
    d = whole_number(difference, "a score difference")
    n = bisect_right(IMP_BOUNDS, abs(d)) - 1
    return n if d >= 0 else -n


def board_dealer(board: object) -> int:
    """Dealer seat (0 = N) of board ``board`` ≥ 1 (§7.2)."""
    n = whole_number(board, "a board number")  # an int variable: native arithmetic compiled
    if n < 1:
        raise ParseError(f"board numbers start at 1, not {n}")
    return (n - 1) % 4


def board_vulnerability(board: object) -> str:
    """``None``/``NS``/``EW``/``Both`` of board ``board`` ≥ 1 (§7.2)."""
    n = whole_number(board, "a board number")
    if n < 1:
        raise ParseError(f"board numbers start at 1, not {n}")
    k = (n - 1) % 16
    return VULS[(k + k // 4) % 4]


# made once: built inside vulnerable_sides it cost a bridge game's start 9k
# instructions (every board asks)
_VULNERABLE_SIDES: dict[str, tuple[bool, bool]] = {
    "NONE": (False, False), "LOVE": (False, False), "-": (False, False), "": (False, False),
    "NS": (True, False), "N-S": (True, False), "N": (True, False),
    "EW": (False, True), "E-W": (False, True), "E": (False, True),
    "BOTH": (True, True), "ALL": (True, True), "B": (True, True), "O": (False, False),
}  # fmt: skip


def vulnerable_sides(vul: str) -> tuple[bool, bool]:
    """``(NS vulnerable, EW vulnerable)`` of a vulnerability name (PBN spellings accepted)."""
    try:
        return _VULNERABLE_SIDES[vul.strip().upper()]
    except KeyError:
        raise ParseError(f"not a vulnerability: {vul!r} (None, NS, EW or Both)") from None


_HONOR_RANKS = frozenset({17, 16, 15, 14, 10})


def honors(hands: Sequence[Sequence[Card]], trump: Suit | None) -> tuple[int, int]:
    """``(seat, points)`` of an honours holding in the hands as dealt
    (§4.6): 150 for all five trump honours or four aces at no trumps, 100
    for four of the five trump honours; ``(-1, 0)`` for none."""
    for seat, hand in enumerate(hands):
        if trump is None:
            if sum(1 for c in hand if c.rank == 17) == 4:
                return seat, 150
            continue
        n = sum(1 for c in hand if c.suit is trump and c.rank in _HONOR_RANKS)
        if n == 5:
            return seat, 150
        if n == 4:
            return seat, 100
    return -1, 0
