"""The match of Toy Tricks: deals until a side reaches the target."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toygame.rules import DECK, ToyDeal
from trumps.core.cards import Card, parse_cards
from trumps.core.errors import DealError, OptionError, ParseError
from trumps.core.options import Options, OptionSchema, OptionSpec
from trumps.core.protocol import Match
from trumps.core.seats import parse_seat

SCHEMA = OptionSchema(
    [
        OptionSpec(
            "target",
            int,
            3,
            doc="the points a side needs at the end of a deal to win",
            label="Target",
            bounds=(1, 20, 1),
        )
    ],
    title="Toy Tricks",
)


class ToyTricks(Match[ToyDeal]):
    game = "toy"
    schema = SCHEMA

    def __init__(
        self,
        options: Options,
        *,
        seed: int | None = None,
        deal: Any = None,
        dealer: int | str | None = None,
        contract: str | None = None,
        declarer: int | str | None = None,
        _deals: list[Mapping[str, Any]] | None = None,
    ) -> None:
        if contract is not None or declarer is not None:
            raise OptionError("Toy Tricks has no auction: no contract or declarer")
        self._setup(options, 4, seed=seed, dealer=dealer, init={"deal": deal})
        self.totals = [0, 0]
        self._stored = list(_deals or [])
        self._explicit = deal
        self.deal = self._new_deal()

    def _new_deal(self) -> ToyDeal:
        number = self.deal_number
        given = self._stored[number] if number < len(self._stored) else None
        if given is None and number == 0:
            given = self._explicit
        if given is not None:
            hands = self._read(given)
        else:
            cards = list(DECK)
            self.deal_rng(number).shuffle(cards)
            hands = [cards[i * 2 : i * 2 + 2] for i in range(4)]
        deal = ToyDeal(hands, self.dealer)
        self.deal_records.append(
            {
                "dealer": self.seat_name(self.dealer),
                "hands": {self.seat_name(s): [str(c) for c in h] for s, h in enumerate(hands)},
            }
        )
        return deal

    def _read(self, given: Mapping[str, Any]) -> list[list[Card]]:
        if not isinstance(given, Mapping):
            raise DealError("a deal is a mapping of seats to cards")
        source = given.get("hands", given)
        hands: list[list[Card]] = [[] for _ in range(4)]
        for key, cards in source.items():
            if key == "dealer":
                continue
            hands[parse_seat(key, 4)] = (
                parse_cards(cards) if isinstance(cards, str) else [Card(c) for c in cards]
            )
        if sorted(c.index for h in hands for c in h) != sorted(c.index for c in DECK) or any(
            len(h) != 2 for h in hands
        ):
            raise DealError("a Toy Tricks deal gives two cards of the eight to each seat")
        return hands

    def team_of(self, seat: int) -> int:
        return seat % 2

    @property
    def teams(self) -> list[list[int]]:
        return [[0, 2], [1, 3]]

    def parse_action(self, text: str) -> Any:
        try:
            return Card(text.strip())
        except (ValueError, KeyError):
            raise ParseError(f"not a card: {text!r}") from None

    def _finish_deal(self) -> None:
        d = self.deal
        self.totals = [self.totals[0] + d.won[0], self.totals[1] + d.won[1]]
        self.results.append(
            {
                "deal": self.deal_number + 1,
                "tricks": list(d.won),
                "points": list(d.won),
                "scores": list(self.totals),
            }
        )
        target = int(self.options.target)
        if max(self.totals) >= target and self.totals[0] != self.totals[1]:
            self._over = True
            self._winner = int(self.totals[1] > self.totals[0])
            return
        self.deal_number += 1
        self.dealer = (self.dealer + 1) % 4
        self.deal = self._new_deal()

    def view(self, seat: int | str | None) -> dict[str, Any]:
        from toygame.view import view

        return view(self, None if seat is None else self.seat(seat))
