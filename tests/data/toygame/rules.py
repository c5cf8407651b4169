"""The deal of Toy Tricks: follow suit, highest card of the suit led wins.

It is written the way a fourth game would be: its card-play rules as a
:class:`~trumps.core.trick.TrickRules`, and the deal as a
:class:`~trumps.core.trick.TrickDeal`, which plays the tricks."""

from __future__ import annotations

from collections.abc import Sequence

from trumps.core.cards import Card, Suit
from trumps.core.decks import make_deck
from trumps.core.protocol import Action
from trumps.core.trick import NO_SUIT, Trick, TrickDeal

_AKQJ = [Card(f"{r}S").rank for r in "AKQJ"]
DECK: tuple[Card, ...] = tuple(make_deck({Suit.SPADES: _AKQJ, Suit.HEARTS: _AKQJ}))


class ToyRules:
    """Follow suit if able; the highest card of the suit led wins; no points."""

    lead_suits: list[int] = [NO_SUIT] * 72

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
        return [c for c in hand if int(c.suit) == led] or list(hand)

    def winner(self, cards: Sequence[Card], led: int) -> int:
        return max(range(len(cards)), key=lambda i: (int(cards[i].suit) == led, cards[i].rank))

    def trick_points(self, cards: Sequence[Card]) -> int:
        return 0


for _card in DECK:
    ToyRules.lead_suits[_card.index] = int(_card.suit)
RULES = ToyRules()


class ToyDeal(TrickDeal):
    """One deal: two tricks of four cards, no auction."""

    def __init__(self, hands: list[list[Card]], dealer: int) -> None:
        self.side_of = (0, 1, 0, 1)
        self.next_of = [1, 2, 3, 0]
        self.dealer = dealer
        self.dealt = [list(h) for h in hands]
        self.hands = [list(h) for h in hands]
        self._init_trick_play()
        self.rules = RULES
        self.auction = None
        self.phase_ = "PLAY"
        self._legal = None
        self.to_act: int | None = (dealer + 1) % 4
        self.hand_to_play: int | None = self.to_act

    @property
    def won(self) -> list[int]:
        """Tricks won per side."""
        return self.team_tricks()

    def _compute_legal(self) -> list[Action]:
        seat = self.to_act
        assert seat is not None
        return list(self.follow_cards(seat) if self.trick else self.hands[seat])

    def apply_legal(self, action: Action) -> None:
        assert self.to_act is not None and isinstance(action, Card)
        self._legal = None
        self._play_card(self.to_act, action)

    def _set_turn(self, seat: int) -> None:
        self.to_act = self.hand_to_play = seat

    def _trick_done(self, trick: Trick) -> bool:
        return not any(self.hands)
