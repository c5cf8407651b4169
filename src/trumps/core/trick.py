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
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, Protocol, Self

from mypy_extensions import mypyc_attr, trait

from trumps.core.cards import Card, remove_card
from trumps.core.copying import shallow_copy
from trumps.core.errors import ParseError
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Action, Deal
from trumps.core.seats import parse_seat, seat_name

__all__ = ["DONE", "NO_SUIT", "Trick", "TrickDeal", "TrickPlay", "TrickRules", "trick_cards", "trick_winner"]

DONE: Final = "DONE"  # the phase of a finished deal, in every game (Final: a C static when compiled)
NO_SUIT: Final = 4  # the led suit of a trick led by a card of no suit (a 500 joker in no trumps)
_SUIT_CODES = "SHDC-"


@mypyc_attr(native_class=False)  # a plain class: object.__new__ makes one cheaply (below)
class Trick:
    """One finished trick: who led, the cards in play order with the seat of
    each, the winning seat and the suit led (0-3 as :class:`Suit`,
    :data:`NO_SUIT` for none).  Immutable; equal by value.

    It also reads as the tuple the engines used to keep, ``leader, cards,
    winner`` (and ``led`` in 500, made with ``width=4``), so code written
    against that form keeps working."""

    # One slot holding a tuple, read through properties without setters (so
    # nothing public can be assigned): a trick is made at the end of every
    # trick of every self-played deal, and one plain slot store is the
    # cheapest way to make an immutable value there.  The engine hands over its seat and
    # card lists (never touched again) rather than copying them; what is read
    # out is a tuple.
    __slots__ = ("_f",)
    _f: tuple[Sequence[int], Sequence[Card], int, int, int]

    def __init__(
        self, seats: Sequence[int], cards: Sequence[Card], winner: int, led: int, *, width: int = 3
    ) -> None:
        if not cards or len(seats) != len(cards):
            raise ParseError(f"a trick needs one seat per card: {len(seats)} seats, {len(cards)} cards")
        if winner not in seats:
            raise ParseError(f"the winner (seat {winner}) played no card to the trick")
        if not 0 <= led <= NO_SUIT:
            raise ParseError(f"not a led suit: {led!r}")
        if width not in (3, 4):
            raise ParseError(f"a trick reads as 3 or 4 fields, not {width}")
        self._f = (tuple(seats), tuple(cards), winner, led, width)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat of each card, in play order."""
        return tuple(self._f[0])

    @property
    def leader(self) -> int:
        return self._f[0][0]

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in play order."""
        return tuple(self._f[1])

    @property
    def winner(self) -> int:
        """The seat that won the trick."""
        return self._f[2]

    @property
    def led(self) -> int:
        """The suit led (0-3), :data:`NO_SUIT` for none."""
        return self._f[3]

    @property
    def width(self) -> int:
        """How many fields the trick's tuple form has (3, or 4 with the led suit)."""
        return self._f[4]

    @property
    def winning_card(self) -> Card:
        seats, cards, winner = self._f[:3]
        return cards[seats.index(winner)]

    def card_of(self, seat: int) -> Card | None:
        """The card ``seat`` played to this trick (``None``: it sat out)."""
        seats, cards = self._f[:2]
        return cards[seats.index(seat)] if seat in seats else None

    @property
    def players(self) -> int:
        """4, or 6 when a seat above 3 played (a six-player 500 table always
        has one in every trick: at most one seat of a side sits out)."""
        return 6 if max(self.seats) > 3 else 4

    def to_json(self, name: Callable[[int], str], *, led_suit: bool = False) -> JSONDict:
        """The trick as views send it (``name``: seat index → its name)."""
        seats, cards, winner, led, _ = self._f
        out: JSONDict = {
            "leader": name(seats[0]),
            "cards": [str(c) for c in cards],
            "winner": name(winner),
        }
        if led_suit:
            out["led_suit"] = _SUIT_CODES[led] if led < NO_SUIT else None
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
        led = _SUIT_CODES.find(led_text.upper()) if len(led_text) == 1 else -1
        if led < 0:
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

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Trick):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[tuple[int, ...], tuple[Card, ...], int, int]:
        seats, cards, winner, led, _ = self._f
        return (tuple(seats), tuple(cards), winner, led)

    def __reduce__(self) -> tuple[object, ...]:
        seats, cards, winner, led, width = self._f
        return (_rebuild, (tuple(seats), tuple(cards), winner, led, width))

    # ----- the tuple form the engines used to keep -----------------------------
    def _fields(self) -> tuple[object, ...]:
        seats, cards, winner, led, width = self._f
        head = (seats[0], tuple(cards), winner)
        return (*head, led) if width == 4 else head

    def __iter__(self) -> Iterator[Any]:
        return iter(self._fields())

    def __getitem__(self, i: int) -> Any:
        return self._fields()[i]

    def __len__(self) -> int:
        return self._f[4]


_new_trick = object.__new__


def trick_cards(trick: Trick) -> Sequence[Card]:
    """The cards of ``trick`` in play order, as the engine handed them over:
    not a copy, and not through the :attr:`Trick.cards` property (a
    Python-level call and a tuple per trick; coinche counts every trick's
    card points).  Read it, never change it."""
    return trick._f[1]


def trick_winner(trick: Trick) -> int:
    """:attr:`Trick.winner` without its Python-level property call."""
    return trick._f[2]


def _rebuild(seats: tuple[int, ...], cards: tuple[Card, ...], winner: int, led: int, width: int) -> Trick:
    return Trick(seats, cards, winner, led, width=width)


class TrickRules(Protocol):
    """What a game says about card play under one contract.  Built once per
    contract (the engines cache them) and answered from tables indexed by
    :attr:`Card.index`."""

    @property
    def lead_suits(self) -> Sequence[int]:
        """By :attr:`Card.index`: the suit a trick led by the card is in (0-3,
        or :data:`NO_SUIT`).  A table, not a method: it is read at every lead."""
        ...

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
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


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class TrickPlay:
    """The card-play half of a deal, mixed into each game's :class:`Deal`.

    It keeps the trick on the table (``trick``, ``trick_seats``, ``led``),
    the finished tricks (``tricks``) and the tricks won per side
    (``side_won``, :meth:`team_tricks`; per seat: :meth:`seat_tricks`).  The game sets
    ``rules`` when the contract is known and implements the two hooks:
    :meth:`_set_turn` (whose card is next, e.g. declarer for dummy) and
    :meth:`_trick_done` (its own bookkeeping, and whether the deal ends)."""

    # Few attributes: CPython keeps an object's attributes in a compact inline
    # array only up to 30 names per class, and a deal past that reads every
    # attribute more slowly (measured: a seventh of bridge self-play speed).
    # What the loop reads at every card or trick is set on the deal itself
    # all the same: reading a class attribute through an instance is not
    # specialised by CPython 3.11.
    rules: Any  # the game's TrickRules, once the contract is known
    trick_width: int  # fields of a trick's tuple form (4: 500's, with the led suit)
    side_of: Sequence[int]  # seat -> side
    next_of: list[int]  # seat -> the next seat to play (seats sitting out are skipped)
    hands: list[list[Card]]
    trick: list[Card]
    trick_seats: list[int]
    led: int
    tricks: list[Trick]
    side_won: list[int]

    def _init_trick_play(self, trick_width: int = 3, sides: int = 2) -> None:
        """Start with no card played, ``sides`` sides counting tricks (three
        at a six-player 500 table of three pairs).  The game sets ``next_of``
        and ``side_of`` on the deal itself first, not on its class: they are
        read at every card, and the compiled engines keep them in the deal's
        struct, where a class attribute is not seen."""
        self.trick_width = trick_width
        self.rules = None
        self.trick = []
        self.trick_seats = []
        self.led = -1
        self.tricks = []
        self.side_won = [0] * sides

    def _copy_trick_play(self, other: TrickPlay) -> None:
        """Give ``other`` (a shallow copy of ``self``) its own mutable parts."""
        other.trick = list(self.trick)
        other.trick_seats = list(self.trick_seats)
        other.tricks = list(self.tricks)
        other.side_won = list(self.side_won)

    def follow_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play to the unfinished trick on the table."""
        rules: TrickRules = self.rules
        assert self.trick
        return rules.follow(self.hands[seat], self.trick, self.trick_seats, self.led, seat)

    def _play_card(
        self, seat: int, card: Card, led: int | None = None, best: int | None = None
    ) -> Trick | None:
        """``seat`` plays ``card`` (leading in suit ``led`` when the game lets
        the leader name it; ``best``: the index of the winning card when the
        game follows it card by card, as coinche does for its legal cards).
        Returns the trick when the card closes it; then the deal is finished
        or the winner is to lead."""
        remove_card(self.hands[seat], card)
        trick = self.trick
        if not trick:
            self.led = self.rules.lead_suits[card.index] if led is None else led
        trick.append(card)
        seats = self.trick_seats
        seats.append(seat)
        after = self.next_of[seat]
        if after != seats[0]:  # the trick is complete when the turn would come back to its leader
            self._set_turn(after)
            return None
        if best is None:
            rules: TrickRules = self.rules
            best = rules.winner(trick, self.led)
        winner = seats[best]
        self.side_won[self.side_of[winner]] += 1
        # the lists are the trick's own from here: the table gets new ones
        done = _new_trick(Trick)
        done._f = (seats, trick, winner, self.led, self.trick_width)
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

    def seat_tricks(self) -> list[int]:
        """Tricks won per seat (played ones: a bridge claim gives tricks to a
        side, not a seat).  Counted when asked: nothing in play needs it."""
        out = [0] * len(self.hands)
        for t in self.tricks:
            out[trick_winner(t)] += 1
        return out

    @abstractmethod
    def _set_turn(self, seat: int) -> None:
        """Make ``seat``'s hand the one to play from."""

    @abstractmethod
    def _trick_done(self, trick: Trick) -> bool:
        """The game's own bookkeeping after ``trick``; true when the deal ends."""

    @abstractmethod
    def _finish(self) -> None:
        """End the deal."""


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickDeal(Deal, TrickPlay):
    """A deal of a trick-taking game with an auction: the protocol parts
    that are the same in every game — the phase, the legal list cached until
    the next action, the copy of what an action changes, the end — around
    :class:`TrickPlay`.  A game writes :meth:`_compute_legal`,
    :meth:`~trumps.core.protocol.Deal.apply_legal` and, for its own mutable
    state, :meth:`_copy_into`."""

    phase_: str
    auction: Any  # the game's auction, copied with the deal (None: a game without one)
    _legal: Sequence[Action] | None

    @property
    def phase(self) -> str:
        return self.phase_

    @property
    def is_done(self) -> bool:
        return self.phase_ == DONE

    def legal_actions(self) -> Sequence[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    @abstractmethod
    def _compute_legal(self) -> Sequence[Action]:
        """The legal actions of the current state (cached by :meth:`legal_actions`)."""

    def copy(self) -> Self:
        other = shallow_copy(self)
        other.hands = [list(h) for h in self.hands]
        if self.auction is not None:
            other.auction = self.auction.copy()
        self._copy_trick_play(other)
        self._copy_into(other)
        return other

    def _copy_into(self, other: Self) -> None:
        """Give ``other`` its own copies of the game's other mutable state."""

    def _finish(self) -> None:
        self.phase_ = DONE
        self.to_act = self.hand_to_play = None
