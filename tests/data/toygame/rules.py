"""The deal of Toy Tricks: follow suit, highest card of the suit led wins."""

from __future__ import annotations

from typing import Any, Self

from trumps.core.cards import Card, Suit
from trumps.core.decks import make_deck
from trumps.core.protocol import Deal

_AKQJ = [Card(f"{r}S").rank for r in "AKQJ"]
DECK: tuple[Card, ...] = tuple(make_deck({Suit.SPADES: _AKQJ, Suit.HEARTS: _AKQJ}))


class ToyDeal(Deal):
    """One deal: two tricks of four cards."""

    def __init__(self, hands: list[list[Card]], dealer: int) -> None:
        self.dealer = dealer
        self.dealt = [list(h) for h in hands]
        self.hands = [list(h) for h in hands]
        self.trick: list[Card] = []
        self.trick_seats: list[int] = []
        self.tricks: list[tuple[int, list[Card], int]] = []  # (leader, cards, winner)
        self.won = [0, 0]  # tricks per side
        self.led = 4  # the suit led to the current trick (4: none yet)
        self.to_act: int | None = (dealer + 1) % 4
        self.hand_to_play: int | None = self.to_act

    def legal_actions(self) -> list[Any]:
        assert self.to_act is not None
        hand = self.hands[self.to_act]
        if self.trick:
            follow = [c for c in hand if c.suit == self.trick[0].suit]
            if follow:
                return follow
        return list(hand)

    def apply_legal(self, action: Any) -> None:
        seat = self.to_act
        assert seat is not None
        self.hands[seat].remove(action)
        if not self.trick:
            self.led = int(action.suit)
        self.trick.append(action)
        self.trick_seats.append(seat)
        if len(self.trick) < 4:
            self.to_act = self.hand_to_play = (seat + 1) % 4
            return
        led = self.trick[0].suit
        best = max(range(4), key=lambda i: (self.trick[i].suit == led, self.trick[i].rank))
        winner = self.trick_seats[best]
        self.tricks.append((self.trick_seats[0], list(self.trick), winner))
        self.won[winner % 2] += 1
        self.trick, self.trick_seats, self.led = [], [], 4
        done = not any(self.hands)
        self.to_act = self.hand_to_play = None if done else winner

    @property
    def is_done(self) -> bool:
        return not any(self.hands) and not self.trick

    @property
    def phase(self) -> str:
        return "DONE" if self.is_done else "PLAY"

    def copy(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.trick = list(self.trick)
        other.trick_seats = list(self.trick_seats)
        other.tricks = list(self.tricks)
        other.won = list(self.won)
        return other
