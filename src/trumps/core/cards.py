"""Cards, suits, ranks and jokers, with the text forms of docs/rules/README.md §1.

A card is written rank first, suit last (``AS``, ``TD``, ``13H``); the jokers
are the whole tokens ``RJ`` and ``BJ``.  ``10`` is accepted for ``T`` on input
and never emitted.  Cards are flyweights: ``Card("AS") is Card("AS")``, so
they compare by identity and hash to their small integer :attr:`Card.index`,
which keeps the engines' inner loops cheap.

>>> Card("10h")
Card('TH')
>>> str(Card("13D")), Card("RJ").is_joker
('13D', True)
>>> format_hand(parse_cards("AS KS 2H JD 9C RJ"))
'AK.2.J.9+RJ'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum
from operator import attrgetter
from typing import ClassVar, Final

from trumps.core.errors import ParseError

__all__ = [
    "RANK_CODES",
    "Card",
    "Suit",
    "card_texts",
    "card_words",
    "deal_sorted",
    "format_cards",
    "format_hand",
    "parse_cards",
    "parse_hand",
    "rank_value",
    "remove_card",
    "sort_cards",
]


class Suit(IntEnum):
    """The four suits, in the canonical order S, H, D, C."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def code(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def partner_suit(self) -> Suit:
        """The other suit of the same colour (♠↔♣, ♥↔♦)."""
        return _PARTNER_SUIT[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit code (``S``/``H``/``D``/``C``, any case, or its symbol)."""
        t = text.strip().upper()
        for suit in cls:
            if t in (suit.code, suit.symbol, suit.name):
                return suit
        raise ParseError(f"not a suit: {text!r} (expected one of S, H, D, C)")

    def __str__(self) -> str:
        return self.code


_PARTNER_SUIT = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}

# Natural rank values, higher is better: 2..9, T=10, 11, 12, 13, J, Q, K, A.
# The six-handed 500 ranks 11-13 sit between the ten and the jack.
RANK_CODES: dict[str, int] = {
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "11": 11,
    "12": 12,
    "13": 13,
    "J": 14,
    "Q": 15,
    "K": 16,
    "A": 17,
}
_RANK_TEXT = {v: k for k, v in RANK_CODES.items()}
RED_JOKER_RANK = 18
BLACK_JOKER_RANK = 19


def rank_value(code: str) -> int:
    """The natural rank value of a rank code (``"10"`` is read as ``"T"``)."""
    c = code.upper()
    if c == "10":
        c = "T"
    try:
        return RANK_CODES[c]
    except KeyError:
        raise ParseError(f"not a rank: {code!r}") from None


class Card:
    """One playing card or joker.  Construct from text: ``Card("QH")``."""

    __slots__ = ("_text", "index", "order", "rank", "suit")
    _cache: ClassVar[dict[str, Card]] = {}
    _by_key: ClassVar[dict[tuple[Suit | None, int], Card]] = {}

    suit: Suit | None
    rank: int
    index: int
    #: the card's place in the canonical order (S H D C, high rank first,
    #: BJ then RJ last): sorting by it is a slot read, not a Python call
    order: int
    _text: str

    # ``text`` is typed ``object``: compiled, a narrower type would be
    # checked on the way in and a stranger raise TypeError, not ParseError
    def __new__(cls, text: object, _key: tuple[Suit | None, int] | None = None) -> Card:
        if _key is not None:  # a card not made before (from _make): built here, the one
            # place a compiled class may call object.__new__
            suit, rank = _key
            card = object.__new__(cls)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "rank", rank)
            if suit is None:
                index = 64 + rank - RED_JOKER_RANK
                made = "RJ" if rank == RED_JOKER_RANK else "BJ"
            else:
                index = int(suit) * 16 + rank - 2
                made = _RANK_TEXT[rank] + suit.code
            object.__setattr__(card, "index", index)
            object.__setattr__(card, "order", (4 if suit is None else int(suit)) * 64 + 63 - rank)
            object.__setattr__(card, "_text", made)
            return card
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise ParseError(f"not a card: {text!r}")
        known = cls._cache.get(text)
        if known is not None:
            return known
        t = text.strip().upper()
        if t in ("RJ", "BJ"):
            card = cls._make(None, RED_JOKER_RANK if t == "RJ" else BLACK_JOKER_RANK)
        elif len(t) < 2:
            raise ParseError(f"not a card: {text!r}")
        else:
            try:
                suit = Suit.parse(t[-1])
                rank = rank_value(t[:-1])
            except ParseError:
                raise ParseError(
                    f"not a card: {text!r} (write rank then suit, e.g. AS, TD, 13H, RJ)"
                ) from None
            card = cls._make(suit, rank)
        if len(cls._cache) < 4096:
            cls._cache[text] = card
        return card

    @classmethod
    def _make(cls, suit: Suit | None, rank: int) -> Card:
        key = (suit, rank)
        card = cls._by_key.get(key)
        if card is None:
            card = cls("", key)
            cls._by_key[key] = card
            cls._cache[card._text] = card
        return card

    @classmethod
    def of(cls, suit: Suit, rank: int | str) -> Card:
        """The card of ``suit`` with rank value or code ``rank``."""
        value = rank_value(rank) if isinstance(rank, str) else rank
        if value not in _RANK_TEXT:
            raise ParseError(f"not a rank value: {rank!r}")
        return cls._make(Suit(suit), value)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Same as ``Card(text)``."""
        return cls(text)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def rank_code(self) -> str:
        return self._text if self.suit is None else self._text[:-1]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self._text,))

    def __lt__(self, other: Card) -> bool:
        """Canonical deck order: suits S H D C, high rank first, jokers last."""
        return self.order < other.order


_order_key = attrgetter("order")


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in canonical order (S, H, D, C; high to low; BJ, RJ last).

    A hand (8 to 13 cards, sorted at every deal) is sorted by insertion on
    the ``order`` field: compiled, that is a few integer comparisons, where
    ``sorted`` with a key calls back per card; longer lists take ``sorted``."""
    out = list(cards)
    n = len(out)
    if n > 16:
        out.sort(key=_order_key)
        return out
    for i in range(1, n):
        card = out[i]
        key = card.order
        j = i - 1
        while j >= 0 and out[j].order > key:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = card
    return out


def remove_card(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)``, found by identity: a card is one object
    (``Card("QH") is Card("QH")``), and ``list.remove`` compares each card
    before it through the rich comparison, a hundred instructions a card, at
    every card played.  A card not found (a copy made around ``Card``) is
    left to ``list.remove``: equality, or its ``ValueError``."""
    for i in range(len(cards)):
        if cards[i] is card:
            del cards[i]
            return
    cards.remove(card)


def card_texts(cards: list[Card]) -> list[str]:
    """``[str(c) for c in cards]`` reading each card's text as a field (no
    ``str()`` call per card): every deal's record writes all its cards."""
    return [c._text for c in cards]


def deal_sorted(cards: list[Card], seat_of: list[int], seats: int, in_order: list[Card]) -> list[list[Card]]:
    """Deal a shuffled pack into ``seats`` hands, each in canonical order:
    the card at position ``p`` of ``cards`` goes to seat ``seat_of[p]``
    (positions past ``seat_of``, a kitty, are not dealt).  ``in_order`` is
    the same pack sorted (:func:`sort_cards`).

    The same hands as sorting each dealt hand, by one walk of the sorted
    pack: every card of the pack is distinct, so its owner is all there is
    to know, and nothing is compared.  500 and coinche sort their hands at
    every deal (a fifth of dealing one).

    >>> pack = parse_cards("AS KS QS JS")
    >>> [format_cards(h) for h in deal_sorted(pack[::-1], [0, 1, 0], 2, pack)]
    ['KS JS', 'QS']
    """
    hands: list[list[Card]] = [[] for _ in range(seats)]
    # by Card.index (0-63 the suits' cards, 64-65 the jokers): the hand it goes to
    owner: list[list[Card] | None] = [None] * 66
    for p, seat in enumerate(seat_of):
        owner[cards[p].index] = hands[seat]
    for card in in_order:
        hand = owner[card.index]
        if hand is not None:
            hand.append(card)
    return hands


def parse_cards(text: str | Iterable[str | Card]) -> list[Card]:
    """Read cards from ``"AS KH 10D"`` (spaces or commas) or an iterable of
    card strings.  A hand string with dots (``AK.QJ.T9.87``) is also read."""
    if isinstance(text, str):
        if "." in text or "+" in text:
            return parse_hand(text)
        tokens = text.replace(",", " ").split()
        return [Card(t) for t in tokens]
    return [Card(t) for t in text]


def parse_hand(text: str) -> list[Card]:
    """Read the suit-grouped hand form ``AKQ2.JT9.876.543+RJ`` (S.H.D.C, with
    ``[13]`` brackets for the six-handed ranks and ``+`` before jokers)."""
    body, _, jokers = text.strip().partition("+")
    groups = body.split(".")
    if len(groups) != 4:
        raise ParseError(f"not a hand: {text!r} (expected four suit groups S.H.D.C)")
    cards: list[Card] = []
    for suit, group in zip(Suit, groups, strict=True):
        i = 0
        while i < len(group):
            ch = group[i]
            if ch == "[":
                end = group.find("]", i)
                if end < 0:
                    raise ParseError(f"not a hand: {text!r} (unclosed '[')")
                code = group[i + 1 : end]
                i = end + 1
            elif group.startswith("10", i):
                code = "T"
                i += 2
            else:
                code = ch
                i += 1
            if code in ("-", ""):
                continue
            cards.append(Card.of(suit, rank_value(code)))
    joker_text = jokers.replace(",", "").replace("+", "").replace(" ", "")
    for k in range(0, len(joker_text), 2):
        token = joker_text[k : k + 2]
        card = Card(token)
        if not card.is_joker:
            raise ParseError(f"not a joker after '+': {token!r}")
        cards.append(card)
    return cards


_SUITS: Final = tuple(Suit)


def format_hand(cards: Iterable[Card]) -> str:
    """The suit-grouped hand form of ``cards`` (inverse of :func:`parse_hand`)."""
    ordered = sort_cards(cards)
    groups: list[str] = []
    for suit in _SUITS:  # (iterating the Enum itself is a Python generator per suit)
        parts = []
        for c in ordered:
            if c.suit is suit:
                code = c.rank_code
                parts.append(f"[{code}]" if len(code) > 1 else code)
        groups.append("".join(parts))
    text = ".".join(groups)
    jokers = [str(c) for c in ordered if c.is_joker]
    if jokers:
        text += "+" + "+".join(jokers)
    return text


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as a space-separated list of card strings."""
    return " ".join(str(c) for c in cards)


_SUITED_CODE = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


def card_words(text: str) -> str | None:
    """A suited card's code as a sentence writes it: ``TH`` -> ``10♥``,
    ``7C`` -> ``7♣`` (None: ``text`` is no suited card's code)."""
    m = _SUITED_CODE.match(text)
    if m is None:
        return None
    return ("10" if m.group(1) == "T" else m.group(1)) + Suit.parse(m.group(2)).symbol
