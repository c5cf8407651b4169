"""The decks of the three games, in canonical order (docs/rules/README.md §1.3).

Canonical order is suits S, H, D, C, each high to low, then ``BJ``, ``RJ``.
A seeded shuffle of this order gives a reproducible deal.
"""

from __future__ import annotations

from functools import cache

from trumps.core.cards import Card, Suit, sort_cards
from trumps.core.errors import OptionError

__all__ = ["deck_500", "deck_bridge", "deck_coinche", "make_deck"]

_LOW_TO_HIGH = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]


def make_deck(ranks: dict[Suit, list[int]], jokers: tuple[str, ...] = ()) -> list[Card]:
    """A deck holding ``ranks[suit]`` of each suit plus the named jokers."""
    cards = [Card.of(suit, r) for suit in Suit for r in ranks.get(suit, [])]
    cards += [Card(j) for j in jokers]
    return sort_cards(cards)


def deck_500(players: int, kitty_size: int) -> list[Card]:
    """The 500 deck for 4 or 6 players and a kitty of 3, 5 or 6 cards
    (43/45/46 or 63/65/66 cards; docs/rules/five_hundred.md §2)."""
    return list(_deck_500(players, kitty_size))


@cache
def _deck_500(players: int, kitty_size: int) -> tuple[Card, ...]:
    if kitty_size not in (3, 5, 6):
        raise OptionError(f"kitty_size must be 3, 5 or 6, not {kitty_size!r}")
    if players == 4:
        red = [r for r in _LOW_TO_HIGH if r >= 4 and r not in (11, 12, 13)]
        black = red if kitty_size >= 5 else [r for r in red if r >= 5]
        ranks = {Suit.HEARTS: red, Suit.DIAMONDS: red, Suit.SPADES: black, Suit.CLUBS: black}
    elif players == 6:
        red = list(_LOW_TO_HIGH)
        black = red if kitty_size >= 5 else [r for r in red if r != 13]
        ranks = {Suit.HEARTS: red, Suit.DIAMONDS: red, Suit.SPADES: black, Suit.CLUBS: black}
    else:
        raise OptionError(f"500 is played by 4 or 6 players, not {players!r}")
    jokers = ("BJ", "RJ") if kitty_size == 6 else ("RJ",)
    return tuple(make_deck(ranks, jokers))


def deck_bridge() -> list[Card]:
    """The standard 52-card deck."""
    ranks = [r for r in _LOW_TO_HIGH if r not in (11, 12, 13)]
    return make_deck({s: ranks for s in Suit})


def deck_coinche() -> list[Card]:
    """The 32-card piquet deck (7 to ace in each suit)."""
    ranks = [r for r in _LOW_TO_HIGH if r >= 7 and r not in (11, 12, 13)]
    return make_deck({s: ranks for s in Suit})
