"""Card play in bridge (bridge.md §3 rules 4-5): follow suit if able, the
highest trump wins, else the highest card of the suit led.

The facts are lists indexed by :attr:`Card.index`; one :class:`TrickRules`
per strain is built once and shared.

>>> from trumps.core.cards import parse_cards
>>> rules_for(2).winner(parse_cards("AS 2H KS QS"), 0)  # strain 2: hearts are trumps
1
>>> [str(c) for c in rules_for(4).follow(parse_cards("2H 3D"), parse_cards("AS"), [0], 0, 1)]
['2H', '3D']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from trumps.core.cards import Card

__all__ = ["RANK_OF", "SUIT_OF", "TrickRules", "rules_for", "trick_winner"]

# Card.index -> suit number (0 S, 1 H, 2 D, 3 C) and rank value; -1 for non-bridge indices.
SUIT_OF: Final[list[int]] = [i // 16 if i < 64 else -1 for i in range(72)]
RANK_OF: Final[list[int]] = [i % 16 + 2 for i in range(72)]
_TRUMP_SUIT = (3, 2, 1, 0, -1)  # strain index (C D H S NT) -> suit number


def trick_winner(cards: Sequence[Card], trump: int) -> int:
    """Index in ``cards`` (in play order) of the winner; ``trump`` is a suit
    number or -1 for no trumps (§3 rule 5)."""
    return _BY_TRUMP[trump].winner(cards, -1)


class TrickRules:
    """Bridge's :class:`trumps.core.trick.TrickRules` under one strain."""

    __slots__ = ("lead_suits", "trump")

    def __init__(self, trump: int) -> None:
        self.trump = trump  # suit number, -1 for no trumps
        self.lead_suits = SUIT_OF

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
        """Follow suit if able, else any card (§3 rule 4)."""
        return [c for c in hand if SUIT_OF[c.index] == led] or list(hand)

    def winner(self, cards: Sequence[Card], led: int) -> int:
        """The highest trump, else the highest card of the first card's suit."""
        trump = self.trump
        best = 0
        bi = cards[0].index
        bs = SUIT_OF[bi]
        br = RANK_OF[bi]
        for k in (1, 2, 3):
            ci = cards[k].index
            s = SUIT_OF[ci]
            if s == bs:
                r = RANK_OF[ci]
                if r > br:
                    best, br = k, r
            elif s == trump:
                best, bs, br = k, s, RANK_OF[ci]
        return best

    def trick_points(self, cards: Sequence[Card]) -> int:
        """Bridge counts tricks, not cards."""
        return 0


_BY_STRAIN = tuple(TrickRules(t) for t in _TRUMP_SUIT)
_BY_TRUMP = {r.trump: r for r in _BY_STRAIN}


def rules_for(strain: int) -> TrickRules:
    """The shared rules of a strain (0 C, 1 D, 2 H, 3 S, 4 NT)."""
    return _BY_STRAIN[strain]
