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
from typing import Any

from trumps.core.cards import Card, format_hand, parse_cards, parse_hand, sort_cards
from trumps.core.decks import deck_bridge
from trumps.core.errors import DealError, ParseError
from trumps.core.seats import SEAT_NAMES_4, parse_seat

__all__ = ["DECK", "check_deal", "deal_from_any", "format_deal", "parse_deal"]

DECK: tuple[Card, ...] = tuple(deck_bridge())
_DECK_SET = frozenset(DECK)


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
    missing = [s for s, h in enumerate(hands) if h is None]
    if len(missing) == 1:
        used = {c for h in hands if h is not None for c in h}
        hands[missing[0]] = [c for c in DECK if c not in used]
    elif missing:
        raise DealError(f"deal: no hand for {', '.join(SEAT_NAMES_4[s] for s in missing)}")
    full = [sort_cards(h) for h in hands if h is not None]  # import format: ranks in any order
    check_deal(full)
    return full


def check_deal(hands: Sequence[Sequence[Card]]) -> None:
    """Raise :class:`DealError` unless ``hands`` are four hands of 13 distinct cards."""
    if len(hands) != 4:
        raise DealError(f"deal: {len(hands)} hands, not 4")
    seen: set[Card] = set()
    for s, h in enumerate(hands):
        if len(h) != 13:
            raise DealError(f"deal: {SEAT_NAMES_4[s]} has {len(h)} cards, not 13")
        for c in h:
            if c not in _DECK_SET:
                raise DealError(f"deal: {c} is not a bridge card")
            if c in seen:
                raise DealError(f"deal: {c} is dealt twice")
            seen.add(c)


def format_deal(hands: Sequence[Sequence[Card]], first: int = 0) -> str:
    """The PBN deal string of ``hands``, starting with seat ``first``."""
    return (
        SEAT_NAMES_4[first]
        + ":"
        + " ".join(format_hand(hands[(first + k) % 4]) if hands[(first + k) % 4] else "-" for k in range(4))
    )


def deal_from_any(deal: Mapping[Any, Any] | str) -> list[list[Card]]:
    """Hands from a PBN deal string or a mapping of seats (or ``"hands"``)
    to cards (lists of card strings or suit-grouped hand strings)."""
    if isinstance(deal, str):
        return parse_deal(deal)
    if not isinstance(deal, Mapping):
        raise DealError("a deal is a PBN deal string or a mapping of seats to cards")
    hands: list[list[Card] | None] = [None] * 4
    for key, value in deal.items():
        if key in ("dealer", "vulnerable"):
            continue
        if key == "hands" and isinstance(value, Mapping):
            for k2, v2 in value.items():
                hands[parse_seat(k2)] = _cards(v2)
            continue
        try:
            seat = parse_seat(key)
        except ParseError:
            raise DealError(f"deal: {key!r} is not a seat") from None
        hands[seat] = _cards(value)
    return [sort_cards(h) for h in _complete(hands)]


def _cards(value: Any) -> list[Card]:
    if isinstance(value, (str, list, tuple)):
        return parse_cards(value)
    raise DealError(f"deal: not a list of cards: {value!r}")
