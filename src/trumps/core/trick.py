"""Trick play, written once for every game: the :class:`Trick` value, the
:class:`TrickRules` protocol a game implements (legal cards, winner, points), and :class:`TrickPlay`, the
deal-play loop (follow, win, next leader, tricks won per seat and per side).

The three games differ only in their rules (500's bowers and jokers, coinche's
obligations to overtrump and its card points, bridge's plain follow-suit), so
those are all a game supplies; laying a card, closing a trick, counting it and
handing the lead to the winner are the same everywhere and live here.

>>> t = Trick.parse("N:AS E:KS S:2H W:QS led:S won:N")
>>> t.leader, t.winner, [str(c) for c in t.cards]
(0, 0, ['AS', 'KS', '2H', 'QS'])
>>> t == eval(repr(t)), str(t)
(True, 'N:AS E:KS S:2H W:QS led:S won:N')
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from trumps.core.cards import Card
from trumps.core.errors import ParseError
from trumps.core.seats import parse_seat, seat_name

__all__ = ["NO_SUIT", "Trick", "TrickPlay", "TrickRules"]

NO_SUIT = 4  # the led suit of a trick led by a card of no suit (a 500 joker in no trumps)
_SUIT_CODES = "SHDC-"


class Trick:
    """One finished trick: who led, the cards in play order with the seat of
    each, the winning seat and the suit led (0-3 as :class:`Suit`,
    :data:`NO_SUIT` for none).  Immutable; equal by value.

    It also reads as the tuple the engines used to keep, ``leader, cards,
    winner`` (and ``led`` in 500, made with ``width=4``), so code written
    against that form keeps working."""

    __slots__ = ("cards", "leader", "led", "seats", "width", "winner")
    leader: int
    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    winner: int
    led: int
    width: int

    def __init__(
        self, seats: Sequence[int], cards: Sequence[Card], winner: int, led: int, *, width: int = 3
    ) -> None:
        if not cards or len(seats) != len(cards):
            raise ParseError(f"a trick needs one seat per card: {len(seats)} seats, {len(cards)} cards")
        if winner not in seats:
            raise ParseError(f"the winner (seat {winner}) played no card to the trick")
        if not 0 <= led <= NO_SUIT:
            raise ParseError(f"not a led suit: {led!r}")
        setattr_ = object.__setattr__
        setattr_(self, "seats", tuple(seats))
        setattr_(self, "leader", seats[0])
        setattr_(self, "cards", tuple(cards))
        setattr_(self, "winner", winner)
        setattr_(self, "led", led)
        setattr_(self, "width", width)

    @classmethod
    def _made(cls, seats: list[int], cards: list[Card], winner: int, led: int, width: int) -> Trick:
        """The engine's constructor: its arguments are consistent by construction."""
        self = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(self, "seats", tuple(seats))
        setattr_(self, "leader", seats[0])
        setattr_(self, "cards", tuple(cards))
        setattr_(self, "winner", winner)
        setattr_(self, "led", led)
        setattr_(self, "width", width)
        return self

    @property
    def winning_card(self) -> Card:
        return self.cards[self.seats.index(self.winner)]

    def card_of(self, seat: int) -> Card | None:
        """The card ``seat`` played to this trick (``None``: it sat out)."""
        try:
            return self.cards[self.seats.index(seat)]
        except ValueError:
            return None

    @property
    def players(self) -> int:
        """4, or 6 when a seat above 3 played (a six-player 500 table always
        has one in every trick: at most one seat of a side sits out)."""
        return 6 if max(self.seats) > 3 else 4

    def to_json(self, name: Any, *, led_suit: bool = False) -> dict[str, Any]:
        """The trick as views send it (``name``: seat index → its name)."""
        out: dict[str, Any] = {
            "leader": name(self.leader),
            "cards": [str(c) for c in self.cards],
            "winner": name(self.winner),
        }
        if led_suit:
            out["led_suit"] = _SUIT_CODES[self.led] if self.led < NO_SUIT else None
        return out

    @classmethod
    def parse(cls, text: str) -> Trick:
        """Read the text form ``N:AS E:KS S:2H W:QS led:S won:N`` (seats as
        letters at four players, digits at six; ``led:-`` for no suit)."""
        tokens = text.split()
        if len(tokens) < 3:
            raise ParseError(f"not a trick: {text!r} (write e.g. 'N:AS E:KS S:2H W:QS led:S won:N')")
        players = 4 if all(t[:1].isalpha() for t in tokens[:-2]) else 6
        seats: list[int] = []
        cards: list[Card] = []
        for token in tokens[:-2]:
            seat, sep, card = token.partition(":")
            if not sep:
                raise ParseError(f"not a seat:card pair in a trick: {token!r}")
            seats.append(parse_seat(seat, players))
            cards.append(Card(card))
        led_key, _, led_text = tokens[-2].partition(":")
        won_key, _, won_text = tokens[-1].partition(":")
        if led_key.lower() != "led" or won_key.lower() != "won":
            raise ParseError(f"a trick ends with 'led:SUIT won:SEAT': {text!r}")
        led = NO_SUIT if led_text == "-" else "SHDC".find(led_text.upper())
        if led < 0 or len(led_text) != 1:
            raise ParseError(f"not a led suit: {led_text!r}")
        if len(set(seats)) != len(seats) or len(set(cards)) != len(cards):
            raise ParseError(f"a seat or a card appears twice in the trick {text!r}")
        return cls(seats, cards, parse_seat(won_text, players), led)

    def __str__(self) -> str:
        n = self.players
        played = " ".join(f"{seat_name(s, n)}:{c}" for s, c in zip(self.seats, self.cards, strict=True))
        return f"{played} led:{_SUIT_CODES[self.led]} won:{seat_name(self.winner, n)}"

    def __repr__(self) -> str:
        return f"Trick.parse({str(self)!r})"

    def _key(self) -> tuple[Any, ...]:
        return (self.seats, self.cards, self.winner, self.led)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trick):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Trick is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.seats, self.cards, self.winner, self.led, self.width))

    # ----- the tuple form the engines used to keep -----------------------------
    def _fields(self) -> tuple[Any, ...]:
        head = (self.leader, self.cards, self.winner)
        return head + (self.led,) if self.width == 4 else head

    def __iter__(self) -> Iterator[Any]:
        return iter(self._fields())

    def __getitem__(self, i: int) -> Any:
        return self._fields()[i]

    def __len__(self) -> int:
        return self.width


def _rebuild(seats: tuple[int, ...], cards: tuple[Card, ...], winner: int, led: int, width: int) -> Trick:
    return Trick(seats, cards, winner, led, width=width)


class TrickRules(Protocol):
    """What a game says about card play under one contract.  Built once per
    contract (the engines cache them) and answered from tables indexed by
    :attr:`Card.index`."""

    def lead_suit(self, card: Card) -> int:
        """The suit a trick led by ``card`` is led in (0-3, or :data:`NO_SUIT`)."""
        ...

    def follow(self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int) -> list[Card]:
        """The cards of ``hand`` that ``seat`` may play to the unfinished trick
        ``cards`` (played by ``seats``) led in suit ``led``."""
        ...

    def winner(self, cards: Sequence[Card], led: int) -> int:
        """Index in ``cards`` (in play order) of the card that wins."""
        ...

    def trick_points(self, cards: Sequence[Card]) -> int:
        """The card points the trick's winner scores for ``cards`` (0 where
        only tricks count)."""
        ...


class TrickPlay:
    """The card-play half of a deal, mixed into each game's :class:`Deal`.

    It keeps the trick on the table (``trick``, ``trick_seats``, ``led``),
    the finished tricks (``tricks``), the tricks won per seat (``seat_won``)
    and per side (``side_won``; :meth:`team_tricks`).  The game sets
    ``trick_rules`` when the contract is known and implements the two hooks:
    :meth:`_set_turn` (whose card is next, e.g. declarer for dummy) and
    :meth:`_trick_done` (its own bookkeeping, and whether the deal ends)."""

    trick_rules: TrickRules | None
    hands: list[list[Card]]
    trick: list[Card]
    trick_seats: list[int]
    led: int
    tricks: list[Trick]
    seat_won: list[int]
    side_won: list[int]
    side_of: Sequence[int]
    next_of: list[int]
    trick_size: int
    trick_width: int

    def _init_trick_play(self, side_of: Sequence[int], next_of: list[int], *, trick_width: int = 3) -> None:
        """Start with no card played; ``side_of[seat]`` is the seat's side,
        ``next_of[seat]`` the seat after it in play order."""
        self.trick_rules = None
        self.trick = []
        self.trick_seats = []
        self.led = -1
        self.tricks = []
        self.seat_won = [0] * len(side_of)
        self.side_of = side_of
        self.side_won = [0] * (max(side_of) + 1)
        self.next_of = next_of
        self.trick_size = len(side_of)
        self.trick_width = trick_width

    def _copy_trick_play(self, other: TrickPlay) -> None:
        """Give ``other`` (a shallow copy of ``self``) its own mutable parts."""
        other.trick = list(self.trick)
        other.trick_seats = list(self.trick_seats)
        other.tricks = list(self.tricks)
        other.seat_won = list(self.seat_won)
        other.side_won = list(self.side_won)
        other.next_of = list(self.next_of)

    def follow_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play to the unfinished trick on the table."""
        rules = self.trick_rules
        assert rules is not None and self.trick
        return rules.follow(self.hands[seat], self.trick, self.trick_seats, self.led, seat)

    def _play_card(self, seat: int, card: Card, led: int | None = None) -> Trick | None:
        """``seat`` plays ``card`` (leading in suit ``led`` when the game lets
        the leader name it).  Returns the trick when the card closes it; then
        the deal is finished or the winner is to lead."""
        rules = self.trick_rules
        assert rules is not None
        self.hands[seat].remove(card)
        trick = self.trick
        if not trick:
            self.led = rules.lead_suit(card) if led is None else led
        trick.append(card)
        self.trick_seats.append(seat)
        if len(trick) < self.trick_size:
            self._set_turn(self.next_of[seat])
            return None
        seats = self.trick_seats
        winner = seats[rules.winner(trick, self.led)]
        self.seat_won[winner] += 1
        self.side_won[self.side_of[winner]] += 1
        done = Trick._made(seats, trick, winner, self.led, self.trick_width)
        self.tricks.append(done)
        self.trick = []
        self.trick_seats = []
        if self._trick_done(done):
            self._finish()
        else:
            self._set_turn(winner)
        return done

    def team_tricks(self) -> list[int]:
        """Tricks won per side (claimed tricks included)."""
        return list(self.side_won)

    @abstractmethod
    def _set_turn(self, seat: int) -> None:
        """Make ``seat``'s hand the one to play from."""

    @abstractmethod
    def _trick_done(self, trick: Trick) -> bool:
        """The game's own bookkeeping after ``trick``; true when the deal ends."""

    @abstractmethod
    def _finish(self) -> None:
        """End the deal."""
