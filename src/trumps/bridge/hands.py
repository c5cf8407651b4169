"""Reading and writing whole deals: PBN deal strings (``N:AKQ.. ... ... ...``)
and seat → cards mappings, with the checks that make a legal bridge deal.

>>> hands = parse_deal("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -")
>>> [len(h) for h in hands], format_deal(hands, first=1)[:2]
([13, 13, 13, 13], 'E:')
>>> parse_deal("N:SAKQJT98765432 HAKQJT98765432 DAKQJT98765432 -") == hands
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trumps.core.cards import Card, format_hand, parse_hand
from trumps.core.deal_reader import DealReader
from trumps.core.decks import deck_bridge
from trumps.core.errors import DealError, ParseError
from trumps.core.seats import SEAT_NAMES_4

__all__ = ["DECK", "check_deal", "deal_from_any", "format_deal", "parse_deal"]

DECK: tuple[Card, ...] = tuple(deck_bridge())
_READER = DealReader(
    DECK,
    players=4,
    hand_size=13,
    fill_hand=True,
    sort=True,
    skip=("dealer", "vulnerable"),
    deck_words="a bridge card",
)


def parse_deal(text: str, *, complete: bool = True) -> list[list[Card]]:
    """Hands N, E, S, W of a PBN deal string ``"N:hand hand hand hand"``
    (the first hand belongs to the named seat, then clockwise).  A hand
    written ``-`` is unknown; with ``complete`` a single unknown hand is
    filled with the remaining cards and the deal is checked."""
    t = text.strip()
    if len(t) < 2 or t[1] != ":" or t[0].upper() not in "NESW":
        raise ParseError(f"not a PBN deal: {text!r} (expected 'N:S.H.D.C S.H.D.C S.H.D.C S.H.D.C')")
    first = SEAT_NAMES_4.index(t[0].upper())
    parts = t[2:].split()
    if len(parts) != 4:
        raise ParseError(f"not a PBN deal: {text!r} (expected four hands)")
    hands: list[list[Card] | None] = [None] * 4
    for k, part in enumerate(parts):
        seat = (first + k) % 4
        hands[seat] = None if part == "-" else _hand(part)
    if not complete:
        return [h or [] for h in hands]
    return _complete(hands)


def _hand(text: str) -> list[Card]:
    """A hand in dotted form (``AKQ2.JT9.876.543``) or with suit letters
    (``SAKQ2HJT9D876C543``, ``S:AKQ2,H:JT9,...``)."""
    if "." in text or text[:1].upper() not in ("S", "H", "D", "C"):
        return parse_hand(text)
    groups = dict.fromkeys("SHDC", "")
    suit = ""
    for ch in text.upper():
        if ch in "SHDC":
            suit = ch
        elif ch in ",:":
            continue
        elif not suit:
            raise ParseError(f"not a hand: {text!r}")
        else:
            groups[suit] += ch
    return parse_hand(".".join(groups[s] for s in "SHDC"))


def _complete(hands: list[list[Card] | None]) -> list[list[Card]]:
    return _READER.complete(hands)  # import format: ranks in any order, so sorted


def check_deal(hands: Sequence[Sequence[Card]]) -> None:
    """Raise :class:`DealError` unless ``hands`` are four hands of 13 distinct cards."""
    _READER.check(hands)


def format_deal(hands: Sequence[Sequence[Card]], first: int = 0) -> str:
    """The PBN deal string of ``hands``, starting with seat ``first``."""
    return (
        SEAT_NAMES_4[first]
        + ":"
        + " ".join(format_hand(hands[(first + k) % 4]) if hands[(first + k) % 4] else "-" for k in range(4))
    )


def deal_from_any(deal: object) -> list[list[Card]]:
    """Hands from a PBN deal string or a mapping of seats (or ``"hands"``)
    to cards (lists of card strings or suit-grouped hand strings)."""
    if isinstance(deal, str):
        return parse_deal(deal)
    if not isinstance(deal, Mapping):
        raise DealError("a deal is a PBN deal string or a mapping of seats to cards")
    return _READER.read(deal)[0]
