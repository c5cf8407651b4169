"""Bridge calls and contracts (docs/rules/bridge.md §2): ``P``, ``X``, ``XX``, bids
``1C``..``7NT``, and contract strings such as ``4HX`` or ``3NT``.

Calls are interned flyweights so the auction compares them by identity and
the legal-call lists can be precomputed once per bid index.

>>> Call.parse("2NT").index, Call.parse("1C").index, Call.parse("7NT").index
(9, 0, 34)
>>> str(Contract.parse("4hx")), Contract.parse("7SXX").risk
('4HX', 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from trumps.core.cards import Suit
from trumps.core.errors import ParseError
from trumps.core.values import TextValue

__all__ = [
    "BIDS",
    "DOUBLE",
    "PASS",
    "REDOUBLE",
    "STRAINS",
    "STRAIN_TRUMP",
    "Call",
    "Contract",
    "bid_index",
    "parse_strain",
]

# Strain index low to high as in the auction: C D H S NT (§2.2).
STRAINS = ("C", "D", "H", "S", "NT")
STRAIN_TRUMP: tuple[Suit | None, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, None)
_STRAIN_ALIASES = {
    "C": 0, "D": 1, "H": 2, "S": 3, "NT": 4, "N": 4, "SA": 4, "NOTRUMP": 4, "NOTRUMPS": 4,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
}  # fmt: skip


def parse_strain(text: str) -> int:
    """Strain index (0 = clubs … 4 = no trumps) of ``C``/``D``/``H``/``S``/``NT``/``N``."""
    t = text.strip().upper()
    try:
        return _STRAIN_ALIASES[t]
    except KeyError:
        raise ParseError(f"not a strain: {text!r} (expected C, D, H, S or NT)") from None


def bid_index(level: int, strain: int) -> int:
    """``5 (level - 1) + strain``: 1C = 0 … 7NT = 34 (§2.2)."""
    return 5 * (level - 1) + strain


class Call(TextValue):
    """One call of the auction.  ``kind`` is ``"P"``, ``"X"``, ``"XX"`` or
    ``"BID"``; a bid has ``level`` 1–7, ``strain`` 0–4 and ``index`` 0–34."""

    __slots__ = ("_text", "index", "kind", "level", "strain")
    _all: ClassVar[dict[str, Call]] = {}

    kind: str
    level: int
    strain: int
    index: int
    _text: str

    def __new__(cls, text: str | Call) -> Call:
        if isinstance(text, Call):
            return text
        got = cls._all.get(text) if isinstance(text, str) else None
        return got if got is not None else cls.parse(text)

    @classmethod
    def _make(cls, kind: str, level: int = 0, strain: int = -1) -> Call:
        text = f"{level}{STRAINS[strain]}" if kind == "BID" else kind
        got = cls._all.get(text)
        if got is not None:
            return got
        call = object.__new__(cls)
        for name, val in (
            ("kind", kind),
            ("level", level),
            ("strain", strain),
            ("index", bid_index(level, strain) if kind == "BID" else -1),
            ("_text", text),
        ):
            object.__setattr__(call, name, val)
        cls._all[text] = call
        return call

    @classmethod
    def bid(cls, level: int, strain: int) -> Call:
        if not 1 <= level <= 7 or not 0 <= strain <= 4:
            raise ParseError(f"bridge bids are 1 to 7 of C, D, H, S or NT, not {level}/{strain}")
        return BIDS[bid_index(level, strain)]

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``P``/``PASS``, ``X``/``D``/``DBL``, ``XX``/``R``/``RDBL``, or a bid
        ``1C``..``7NT`` (``N`` for NT, suit symbols accepted)."""
        if not isinstance(text, str):
            raise ParseError(f"not a bridge call: {text!r}")
        t = text.strip().upper().replace(" ", "")
        if t in ("P", "PASS", "AP"):
            return PASS
        if t in ("X", "D", "DBL", "DOUBLE"):
            return DOUBLE
        if t in ("XX", "R", "RDBL", "REDOUBLE"):
            return REDOUBLE
        if len(t) >= 2 and t[0] in "1234567":
            try:
                return cls.bid(int(t[0]), parse_strain(t[1:]))
            except ParseError:
                pass
        raise ParseError(f"not a bridge call: {text!r} (examples: P, X, XX, 1C, 3NT)")

    @property
    def is_bid(self) -> bool:
        return self.kind == "BID"

    @property
    def trump(self) -> Suit | None:
        return STRAIN_TRUMP[self.strain]


PASS = Call._make("P")
DOUBLE = Call._make("X")
REDOUBLE = Call._make("XX")
BIDS: tuple[Call, ...] = tuple(Call._make("BID", lv, st) for lv in range(1, 8) for st in range(5))


@dataclass(frozen=True)
class Contract:
    """A final contract: ``level`` 1–7, ``strain`` 0–4 (C D H S NT),
    ``risk`` 0 undoubled, 1 doubled, 2 redoubled."""

    level: int
    strain: int
    risk: int = 0

    def __post_init__(self) -> None:
        # made once per deal at most (the auction's end, a par, a record): the
        # check keeps every Contract one that prints and parses back
        level, strain, risk = self.level, self.strain, self.risk
        if (
            type(level) is int  # not a bool, a float or a string
            and type(strain) is int
            and type(risk) is int
            and 1 <= level <= 7
            and 0 <= strain <= 4
            and 0 <= risk <= 2
        ):
            return
        if type(level) is not int or type(strain) is not int or not (1 <= level <= 7 and 0 <= strain <= 4):
            raise ParseError(f"bridge bids are 1 to 7 of C, D, H, S or NT, not {level!r}/{strain!r}")
        raise ParseError(f"a contract's risk is 0 (undoubled), 1 (X) or 2 (XX), not {risk!r}")

    @classmethod
    def parse(cls, text: str | Contract) -> Contract:
        """Read ``4H``, ``3NT``, ``4HX``, ``7SXX`` (also ``3N``, ``4♥x``, ``4H*``)."""
        if isinstance(text, Contract):
            return text
        if not isinstance(text, str):
            raise ParseError(f"not a contract: {text!r}")
        t = text.strip().upper().replace(" ", "").replace("**", "XX").replace("*", "X")
        risk = 0
        if t.endswith("XX"):
            risk, t = 2, t[:-2]
        elif t.endswith("X"):
            risk, t = 1, t[:-1]
        if len(t) < 2 or t[0] not in "1234567":
            raise ParseError(f"not a contract: {text!r} (examples: 3NT, 4HX, 7SXX)")
        try:
            strain = parse_strain(t[1:])
        except ParseError:
            raise ParseError(f"not a contract: {text!r} (examples: 3NT, 4HX, 7SXX)") from None
        return cls(int(t[0]), strain, risk)

    @property
    def trump(self) -> Suit | None:
        return STRAIN_TRUMP[self.strain]

    @property
    def strain_code(self) -> str:
        return STRAINS[self.strain]

    @property
    def bid(self) -> Call:
        return BIDS[bid_index(self.level, self.strain)]

    def __str__(self) -> str:
        return f"{self.level}{STRAINS[self.strain]}{('', 'X', 'XX')[self.risk]}"
