"""Auction calls of 500, their Avondale values and their ranking (§5).

>>> Call.parse("7NT").value
220
>>> Call.parse("i6S"), str(Call.parse("omis"))
(trumps.five_hundred.Call('i6S'), 'OMIS')
"""

from __future__ import annotations

from typing import ClassVar

from trumps.core.cards import Suit
from trumps.core.errors import OptionError, ParseError
from trumps.core.options import Options
from trumps.core.values import TextValue

__all__ = ["BREACH", "DENOMS", "MIS", "OMIS", "PASS", "Call", "bid_value", "check_contract", "rank_key"]

# Denominations low to high; None is no trumps.
DENOMS: tuple[Suit | None, ...] = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, None)
_DENOM_CODE = {Suit.SPADES: "S", Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H", None: "NT"}
_CODE_DENOM = {v: k for k, v in _DENOM_CODE.items()}
_CODE_DENOM.update({"N": None, "♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS})


def bid_value(level: int, denom: Suit | None) -> int:
    """Avondale value: ``100 (level - 6) + 40 + 20 idx(denom)``."""
    return 100 * (level - 6) + 40 + 20 * DENOMS.index(denom)


class Call(TextValue):
    """One call: ``P``, a suit/NT bid ``6S``..``10NT`` (``i6S`` when an
    inkle), ``MIS``, ``OMIS``, or ``BREACH`` (the breach side bet).
    Calls are interned: equal calls are the same object."""

    __slots__ = ("_text", "denom", "inkle", "kind", "level", "value")
    _all: ClassVar[dict[str, Call]] = {}

    kind: str  # "P", "BID", "MIS", "OMIS", "BREACH"
    level: int
    denom: Suit | None
    inkle: bool
    value: int  # Avondale value of a bid; 0 for others (misère values are options)
    _text: str

    def __new__(cls, text: str | Call) -> Call:
        if isinstance(text, Call):
            return text
        try:
            return cls._all[text]
        except (KeyError, TypeError):
            pass
        return cls.parse(text)

    @classmethod
    def _make(cls, kind: str, level: int = 0, denom: Suit | None = None, inkle: bool = False) -> Call:
        text = ("i" if inkle else "") + f"{level}{_DENOM_CODE[denom]}" if kind == "BID" else kind
        got = cls._all.get(text)
        if got is not None:
            return got
        call = object.__new__(cls)
        for name, val in (
            ("kind", kind),
            ("level", level),
            ("denom", denom),
            ("inkle", inkle),
            ("_text", text),
            ("value", bid_value(level, denom) if kind == "BID" else 0),
        ):
            object.__setattr__(call, name, val)
        cls._all[text] = call
        return call

    @classmethod
    def bid(cls, level: int, denom: Suit | None, inkle: bool = False) -> Call:
        if not 6 <= level <= 10:
            raise ParseError(f"500 bids are 6 to 10 tricks, not {level}")
        return cls._make("BID", level, denom, inkle)

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``P``/``PASS``, ``7H`` (``7♥``), ``i6S``, ``MIS``/``NULLO``,
        ``OMIS``/``OPEN NULLO``, ``BREACH``."""
        if not isinstance(text, str):
            raise ParseError(f"not a 500 call: {text!r}")
        t = text.strip().upper().replace(" ", "").replace("-", "").replace("_", "")
        if t in ("P", "PASS"):
            return PASS
        if t in ("MIS", "MISERE", "MISÈRE", "NULLO"):
            return MIS
        if t in ("OMIS", "OPENMISERE", "OPENMISÈRE", "OPENNULLO", "ONULLO"):
            return OMIS
        if t == "BREACH":
            return BREACH
        inkle = t.startswith("I")
        body = t[1:] if inkle else t
        digits = body[:2] if body[:2] == "10" else body[:1]
        denom_code = body[len(digits) :]
        if not (digits.isascii() and digits.isdigit()) or denom_code not in _CODE_DENOM:
            raise ParseError(f"not a 500 call: {text!r} (examples: P, 7H, 10NT, i6S, MIS, OMIS)")
        level = int(digits)
        if inkle and level != 6:
            raise ParseError(f"only 6-level bids can be inkles: {text!r}")
        return cls.bid(level, _CODE_DENOM[denom_code], inkle)

    @property
    def is_bid(self) -> bool:
        """A suit/NT bid (inkle or not) or a misère-type bid."""
        return self.kind in ("BID", "MIS", "OMIS")

    @property
    def is_misere(self) -> bool:
        return self.kind in ("MIS", "OMIS")

    @property
    def denom_code(self) -> str:
        return _DENOM_CODE[self.denom] if self.kind == "BID" else self.kind

    def as_inkle(self) -> Call:
        return Call._make("BID", self.level, self.denom, True)


PASS = Call._make("P")
MIS = Call._make("MIS")
OMIS = Call._make("OMIS")
BREACH = Call._make("BREACH")


def check_contract(call: Call, options: Options) -> None:
    """Raise :class:`~trumps.core.errors.OptionError` unless ``call`` can be
    the contract under ``options`` (what an auction could end with): no
    misère or open misère when ``nullo_mode`` is ``off``.  For a contract
    given outright (a game started in the play, the calculator); whether it
    is a contract at all (a bid, not an inkle) is the caller's check."""
    if call.is_misere and options.nullo_mode == "off":
        bid = call
        raise OptionError(f"{bid} is not a contract these options allow")


def rank_key(call: Call, nullo_points: int, open_nullo_points: int, eight_spades: bool) -> int:
    """Order of bids (§5.2): a misère-type bid sits just above suit bids of
    equal or lower value, except that a 250 misère drops below 8♠ when
    ``eight_spades_overbids_nullo`` is on."""
    if call.kind == "BID":
        return 10 * call.value
    if call.kind == "MIS":
        if nullo_points == 250 and eight_spades:
            return 2305
        return 10 * nullo_points + 5
    if call.kind == "OMIS":
        return 10 * open_nullo_points + 5
    raise ValueError(f"{call} is not a bid")
