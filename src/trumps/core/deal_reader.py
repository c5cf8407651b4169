"""Reading an explicit deal — who holds which cards — with the game's deck.

Every game accepts a deal as a mapping of seats to cards (lists of card
strings, or hand strings), flat or as a record writes it (``dealer``,
``hands``: seat → cards), plus the game's extra piles (500's ``kitty``).  The
checks are the same for all: every seat has its hand of the right size, every
card is in the deck and is dealt once.  A game describes its deal with one
:class:`DealReader`; the reader does the rest.

>>> from trumps.core.decks import deck_coinche
>>> reader = DealReader(deck_coinche(), players=4, hand_size=8, sort=True)
>>> hands, piles = reader.read({"N": "AS KS QS JS TS 9S 8S 7S", "E": "AH KH QH JH TH 9H 8H 7H",
...                            "S": "AD KD QD JD TD 9D 8D 7D", "hands": {"W": "AC KC QC JC TC 9C 8C 7C"}})
>>> [len(h) for h in hands], piles
([8, 8, 8, 8], {})
>>> reader.read({"N": ["AS"]})
Traceback (most recent call last):
...
trumps.core.errors.DealError: deal: no hand for E, S, W
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from trumps.core.cards import Card, parse_cards, sort_cards
from trumps.core.errors import DealError, ParseError
from trumps.core.json_types import JSONDict
from trumps.core.seats import parse_seat, seat_name

__all__ = ["DealReader", "cards_of", "deal_json"]


def cards_of(value: object) -> list[Card]:
    """Cards from a hand string (``"AS KS"``, ``"AK.2.J.9"``) or a list of cards."""
    if isinstance(value, (str, list, tuple)):
        return parse_cards(value)
    raise DealError(f"deal: not a list of cards: {value!r}")


def deal_json(deal: object, piles: Sequence[str] = ()) -> JSONDict:
    """An explicit deal as a game record stores it: seat (or pile) → card
    strings, flat.  Takes the forms :meth:`DealReader.read` takes, so a deal
    taken from a record can start a new game."""
    if not isinstance(deal, Mapping):
        raise _not_a_mapping(piles)
    out: JSONDict = {}
    for k, v in deal.items():
        if k == "dealer":
            continue
        if k == "hands" and isinstance(v, Mapping):
            out.update({str(k2): [str(c) for c in cards_of(v2)] for k2, v2 in v.items()})
        else:
            out[str(k)] = [str(c) for c in cards_of(v)]
    return out


def _not_a_mapping(piles: Sequence[str]) -> DealError:
    extra = "".join(f" (and {p!r})" for p in piles)
    return DealError(f"a deal is a mapping of seats{extra} to cards")


class DealReader:
    """How one game's deals are written: its ``deck``, ``players`` hands of
    ``hand_size`` cards, and named ``piles`` with their sizes (500's kitty).

    ``fill_hand``: a single missing hand gets the cards nobody holds (bridge
    deals name three hands); a missing pile always gets them.  ``sort``:
    hands come back in the canonical order.  ``skip``: keys that are not
    cards (``dealer``, bridge's ``vulnerable``).  ``deck_words`` say what a
    stranger card is not (``in the 32-card deck``, ``a bridge card``)."""

    def __init__(
        self,
        deck: Sequence[Card],
        *,
        players: int,
        hand_size: int,
        piles: Mapping[str, int] | None = None,
        fill_hand: bool = False,
        sort: bool = False,
        skip: Sequence[str] = ("dealer",),
        deck_words: str | None = None,
    ) -> None:
        self.deck = tuple(deck)
        self.deck_set = frozenset(self.deck)
        self.players = players
        self.hand_size = hand_size
        self.piles = dict(piles or {})
        self.fill_hand = fill_hand
        self.sort = sort
        self.skip = tuple(skip)
        self.deck_words = deck_words or f"in the {len(self.deck)}-card deck"

    def read(self, spec: object) -> tuple[list[list[Card]], dict[str, list[Card]]]:
        """The hands (indexed by seat) and the piles of the deal ``spec``;
        :class:`DealError` for anything that is not a deal of this game."""
        if not isinstance(spec, Mapping):
            raise _not_a_mapping(list(self.piles))
        hands: list[list[Card] | None] = [None] * self.players
        piles: dict[str, list[Card]] = {}
        for key, value in spec.items():
            if key in self.skip:
                continue
            if key == "hands" and isinstance(value, Mapping):
                for k2, v2 in value.items():
                    hands[parse_seat(k2, self.players)] = cards_of(v2)
                continue
            pile = key.lower() if isinstance(key, str) else None
            if pile in self.piles:
                piles[pile] = cards_of(value)
                continue
            try:
                seat = parse_seat(key, self.players)
            except ParseError:
                raise DealError(f"deal: {key!r} is {self._not_a_place()}") from None
            hands[seat] = cards_of(value)
        return self.complete(hands, piles), piles

    def _not_a_place(self) -> str:
        if not self.piles:
            return "not a seat"
        return "neither a seat nor " + " nor ".join(repr(p) for p in self.piles)

    def complete(
        self, hands: list[list[Card] | None], piles: dict[str, list[Card]] | None = None
    ) -> list[list[Card]]:
        """Fill what may be left out (one hand with ``fill_hand``, a missing
        pile), check the deal, and return the hands; ``piles`` is completed
        in place."""
        piles = {} if piles is None else piles
        missing = [s for s, h in enumerate(hands) if h is None]
        if self.fill_hand and len(missing) == 1:
            hands[missing[0]] = self._rest(hands, piles)
        elif missing:
            raise DealError(f"deal: no hand for {', '.join(seat_name(s, self.players) for s in missing)}")
        full = [h for h in hands if h is not None]
        for pile in self.piles:
            if pile not in piles:
                piles[pile] = sort_cards(self._rest(full, piles))
        if self.sort:
            full = [sort_cards(h) for h in full]
        self.check(full, piles)
        return full

    def _rest(
        self, hands: Sequence[Sequence[Card] | None], piles: Mapping[str, Sequence[Card]]
    ) -> list[Card]:
        used = {c for h in hands if h is not None for c in h}
        used.update(c for p in piles.values() for c in p)
        return [c for c in self.deck if c not in used]

    def check(
        self, hands: Sequence[Sequence[Card]], piles: Mapping[str, Sequence[Card]] | None = None
    ) -> None:
        """Raise :class:`DealError` unless ``hands`` (and ``piles``) are a deal
        of this game: every hand and pile of its size, every card of the deck
        dealt once."""
        piles = piles or {}
        if len(hands) != self.players:
            raise DealError(f"deal: {len(hands)} hands, not {self.players}")
        for s, h in enumerate(hands):
            if len(h) != self.hand_size:
                raise DealError(
                    f"deal: {seat_name(s, self.players)} has {len(h)} cards, not {self.hand_size}"
                )
        for pile, size in self.piles.items():
            got = len(piles.get(pile, ()))
            if got != size:
                raise DealError(f"deal: the {pile} has {got} cards, not {size}")
        seen: set[Card] = set()
        for cards in [*hands, *piles.values()]:
            for c in cards:
                if c not in self.deck_set:
                    raise DealError(f"deal: {c} is not {self.deck_words}")
                if c in seen:
                    raise DealError(f"deal: {c} is dealt twice")
                seen.add(c)
