"""Auction calls of coinche and the contract record (docs/rules/coinche.md §4).

Denominations are small integers so the play tables can index by them:
0-3 are the suits S H D C (as :class:`~trumps.core.cards.Suit`), 4 is
sans-atout (``NT``) and 5 tout-atout (``AT``).  Denominations have no rank:
only the bid's number matters; a capot beats every number and a générale
beats a capot.

>>> Call.parse("100nt"), Call.parse("capot-h").rank > Call.parse("160S").rank
(trumps.coinche.Call('100NT'), True)
>>> Contract.parse("110HX")
Contract('110HX')
"""

from __future__ import annotations

from typing import ClassVar, Final

from trumps.core.errors import ParseError
from trumps.core.values import TextValue

__all__ = [
    "AT",
    "COINCHE",
    "DENOM_CODES",
    "NT",
    "PASS",
    "SURCOINCHE",
    "Call",
    "Contract",
    "parse_denom",
]

# Final literals: the compiled engines inline them (they are read at every legal card)
NT: Final = 4
AT: Final = 5
DENOM_CODES = ("S", "H", "D", "C", "NT", "AT")
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "SA": "NT", "TA": "AT", "N": "NT", "A": "AT"}
CAPOT_RANK = 10_000
GENERALE_RANK = 20_000
#: the most digits a numeric bid is written with (9990 at most: below a capot's rank)
_MAX_DIGITS = 4


def parse_denom(text: str) -> int:
    """``S``/``H``/``D``/``C``/``NT``/``AT`` (also ``SA``, ``TA``, suit symbols)."""
    t = text.strip().upper()
    t = _SYMBOLS.get(t, t)
    if t not in DENOM_CODES:
        raise ParseError(f"not a coinche denomination: {text!r} (S, H, D, C, NT, AT)")
    return DENOM_CODES.index(t)


class Call(TextValue):
    """One call: ``P``, ``X`` (coinche), ``XX`` (surcoinche), a numeric bid
    ``80H``..``160AT``, ``CAPOT-<denom>`` or ``GENERALE-<denom>``.  Interned:
    equal calls are the same object, so ``in`` tests on legal lists are cheap."""

    __slots__ = ("_text", "denom", "kind", "rank", "value")
    _all: ClassVar[dict[str, Call]] = {}

    kind: str  # "P", "X", "XX", "BID", "CAPOT", "GENERALE"
    value: int  # the bid number (0 for capot/générale/non-bids)
    denom: int  # 0-5, or -1 for non-bids
    rank: int  # ordering of bids: number, capot 10000, générale 20000
    _text: str

    def __new__(cls, text: str | Call) -> Call:
        if isinstance(text, Call):
            return text
        got = cls._all.get(text) if isinstance(text, str) else None
        return got if got is not None else cls.parse(text)

    @classmethod
    def _make(cls, kind: str, value: int = 0, denom: int = -1) -> Call:
        if kind == "BID":
            text = f"{value}{DENOM_CODES[denom]}"
        elif kind in ("CAPOT", "GENERALE"):
            text = f"{kind}-{DENOM_CODES[denom]}"
        else:
            text = kind
        got = cls._all.get(text)
        if got is not None:
            return got
        call = object.__new__(cls)
        rank = {"BID": value, "CAPOT": CAPOT_RANK, "GENERALE": GENERALE_RANK}.get(kind, -1)
        for name, val in (
            ("kind", kind),
            ("value", value),
            ("denom", denom),
            ("rank", rank),
            ("_text", text),
        ):
            object.__setattr__(call, name, val)
        cls._all[text] = call
        return call

    @classmethod
    def bid(cls, value: int, denom: int) -> Call:
        if value < 80 or value % 10:
            raise ParseError(f"coinche bids are multiples of 10 from 80, not {value}")
        return cls._make("BID", value, denom)

    @classmethod
    def capot(cls, denom: int) -> Call:
        return cls._make("CAPOT", 0, denom)

    @classmethod
    def generale(cls, denom: int) -> Call:
        return cls._make("GENERALE", 0, denom)

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``P``/``PASS``, ``X``/``COINCHE``, ``XX``/``SURCOINCHE``,
        ``100H``, ``90NT``, ``CAPOT-S``, ``GENERALE-AT``."""
        if not isinstance(text, str):
            raise ParseError(f"not a coinche call: {text!r}")
        t = text.strip().upper().replace(" ", "")
        if t in ("P", "PASS", "PASSE"):
            return PASS
        if t in ("X", "COINCHE", "CONTRE"):
            return COINCHE
        if t in ("XX", "SURCOINCHE", "SURCONTRE"):
            return SURCOINCHE
        for kind in ("CAPOT", "GENERALE"):
            if t.startswith(kind):
                return cls._make(kind, 0, parse_denom(t[len(kind) :].lstrip("-_")))
        digits = ""
        while len(digits) < len(t) and t[len(digits)] in "0123456789":
            digits += t[len(digits)]
        # a bid has at most _MAX_DIGITS digits (the options allow up to 240): a
        # longer number is no call (and past 4,300 digits Python's int() refuses it)
        if not digits or len(digits) == len(t) or len(digits) > _MAX_DIGITS:
            raise ParseError(f"not a coinche call: {text!r} (examples: P, X, XX, 80H, 100NT, CAPOT-S)")
        return cls.bid(int(digits), parse_denom(t[len(digits) :]))

    @property
    def is_bid(self) -> bool:
        return self.rank >= 0


PASS = Call._make("P")
COINCHE = Call._make("X")
SURCOINCHE = Call._make("XX")


class Contract:
    """The final contract (§4.5): the winning bid and its coinche level
    (1, 2, or ``surcoinche_multiplier`` once the options are known — here the
    *level* 0/1/2 is stored, the multiplier is computed by the scorer)."""

    __slots__ = ("bid", "level")

    def __init__(self, bid: Call, level: int = 0) -> None:
        if not bid.is_bid:
            raise ParseError(f"{bid} is not a contract")
        if level not in (0, 1, 2):
            raise ParseError(f"coinche level must be 0, 1 or 2, not {level}")
        self.bid = bid
        self.level = level

    @classmethod
    def parse(cls, text: str) -> Contract:
        """``110HX`` (coinched), ``90SXX`` (surcoinched), ``CAPOT-H``."""
        if not isinstance(text, str):
            raise ParseError(f"not a coinche contract: {text!r}")
        t = text.strip().upper().replace(" ", "")
        level = 0
        if t.endswith("XX"):
            level, t = 2, t[:-2]
        elif t.endswith("X"):
            level, t = 1, t[:-1]
        return cls(Call.parse(t), level)

    @property
    def kind(self) -> str:
        return self.bid.kind

    @property
    def denom(self) -> int:
        return self.bid.denom

    def multiplier(self, surcoinche_multiplier: int) -> int:
        return (1, 2, surcoinche_multiplier)[self.level]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Contract) and (self.bid, self.level) == (other.bid, other.level)

    def __hash__(self) -> int:
        return hash((self.bid, self.level))

    def __str__(self) -> str:
        return str(self.bid) + "X" * self.level

    def __repr__(self) -> str:
        return f"Contract({str(self)!r})"
