"""Melds (*annonces*, docs/rules/coinche.md §7): finding them, the declarations a
player may commit, the "How high?" announcements and the comparison.

A meld is written as its cards' ranks then the suit for a sequence
(``AKQH`` = tierce to the ace of hearts) and as four equal ranks for a carré
(``JJJJ``); the codes of ranks and suits never collide.  A declaration
action is ``MELD:`` followed by the melds joined by commas, or ``MELD:-``.

>>> from trumps.core.cards import parse_cards
>>> [str(m) for m in find_melds(parse_cards("AH KH QH JH 9S 9H 9D 9C"), True, False)]
['9999', 'AKQJH']
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import ClassVar, NotRequired, TypedDict

from trumps.core.cards import Card, Suit
from trumps.core.errors import ParseError

__all__ = [
    "Declaration",
    "Meld",
    "announcements",
    "declarations",
    "find_melds",
    "meld_key",
    "meld_winner",
]

NATURAL = "AKQJT987"  # sequence order, high to low
CARRE = "J9ATKQ"  # carré order, high to low: J 9 A T K Q
CARRE_VALUES = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
SEQ_VALUES = {3: 20, 4: 50}


class Meld:
    """A tierce/quarte/quinte (``suit`` set) or a carré (``suit`` None)."""

    __slots__ = ("cards", "rank", "suit", "value")
    cards: tuple[Card, ...]
    rank: str  # top card of a sequence, or the carré's rank
    suit: Suit | None
    value: int

    def __init__(self, cards: Sequence[Card], suit: Suit | None) -> None:
        self.cards = tuple(cards)
        self.suit = suit
        self.rank = self.cards[0].rank_code
        if suit is None:
            self.value = CARRE_VALUES.get(self.rank, 0)
        else:
            self.value = SEQ_VALUES.get(len(self.cards), 100)

    @property
    def is_carre(self) -> bool:
        return self.suit is None

    @classmethod
    def parse(cls, text: str) -> Meld:
        t = text.strip().upper()
        if len(t) == 4 and len(set(t)) == 1 and t[0] in CARRE_VALUES:
            return cls([Card(t[0] + s) for s in "SHDC"], None)
        suit = Suit.parse(t[-1:]) if t else None
        ranks = t[:-1]
        if suit is None or len(ranks) < 3 or ranks not in NATURAL:
            raise ParseError(f"not a meld: {text!r} (e.g. AKQH, QJT9D, JJJJ)")
        return cls([Card(r + suit.code) for r in ranks], suit)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)

    def __str__(self) -> str:
        if self.suit is None:
            return self.rank * 4
        return "".join(c.rank_code for c in self.cards) + self.suit.code

    def __repr__(self) -> str:
        return f"Meld({str(self)!r})"


_NAT_RANKS = (17, 16, 15, 14, 10, 9, 8, 7)  # Card.rank values in sequence order
_CARRE_RANKS = (14, 9, 17, 10, 16, 15)  # J 9 A T K Q
_CARDS = {Card.of(s, r).index: Card.of(s, r) for s in Suit for r in _NAT_RANKS}


def _runs(held: set[int]) -> list[list[Card]]:
    """Maximal runs of three or more, per suit, in natural order."""
    runs: list[list[Card]] = []
    for s in range(4):
        base = s * 16 - 2
        run: list[int] = []
        for r in (*_NAT_RANKS, 0):
            i = base + r
            if r and i in held:
                run.append(i)
                continue
            if len(run) >= 3:
                runs.append([_CARDS[x] for x in run])
            run = []
    return runs


def find_melds(hand: Sequence[Card], sharing: bool, long_run_split: bool) -> list[Meld]:
    """The candidate melds of a hand: carrés (high to low) then maximal runs.
    Without ``sharing`` the runs broken by a carré's cards are added too, so
    a player can declare both without using a card twice."""
    held = {c.index for c in hand}
    out: list[Meld] = []
    carre_ranks: list[int] = []
    for r in _CARRE_RANKS:
        cards = [r - 2, 14 + r, 30 + r, 46 + r]
        if all(i in held for i in cards):
            out.append(Meld([_CARDS[i] for i in cards], None))
            carre_ranks.append(r)
    for run in _runs(held):
        suit = run[0].suit
        if long_run_split and len(run) == 8:
            out += [Meld(run[:5], suit), Meld(run[5:], suit)]
        else:
            out.append(Meld(run, suit))
        if not sharing and carre_ranks:
            part: list[Card] = []
            for c in [*run, None]:
                if c is not None and c.rank not in carre_ranks:
                    part.append(c)
                    continue
                if 3 <= len(part) < len(run):
                    out.append(Meld(part, suit))
                part = []
    return out


class Declaration:
    """The melds one player commits at trick 1 (possibly none).  Interned
    by text so ``in`` tests on legal lists are cheap."""

    __slots__ = ("_text", "melds")
    _all: ClassVar[dict[str, Declaration]] = {}
    melds: tuple[Meld, ...]
    _text: str

    def __new__(cls, melds: Sequence[Meld]) -> Declaration:
        melds = sorted(melds, key=_canonical)
        text = "MELD:" + (",".join(str(m) for m in melds) or "-")
        got = cls._all.get(text)
        if got is None:
            got = object.__new__(cls)
            object.__setattr__(got, "melds", tuple(melds))
            object.__setattr__(got, "_text", text)
            cls._all[text] = got
        return got

    @classmethod
    def parse(cls, text: str) -> Declaration:
        t = text.strip().upper()
        if not t.startswith("MELD:"):
            raise ParseError(f"not a meld declaration: {text!r} (e.g. MELD:AKQH,JJJJ or MELD:-)")
        body = t[5:].strip()
        if body in ("", "-"):
            return cls([])
        return cls([Meld.parse(p) for p in body.split(",")])

    @property
    def value(self) -> int:
        return sum(m.value for m in self.melds)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Declaration is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (Declaration.parse, (self._text,))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Declaration({self._text!r})"


def _canonical(m: Meld) -> tuple[int, int, int]:
    """Carrés first (carré order), then sequences by suit and top card."""
    if m.suit is None:
        return (0, CARRE.index(m.rank), 0)
    return (1, int(m.suit), NATURAL.index(m.rank) - len(m.cards))


def declarations(hand: Sequence[Card], sharing: bool, long_run_split: bool) -> list[Declaration]:
    """Every declaration a player may commit, the most valuable first and
    the empty one last.  Sequences never share cards; with ``sharing`` off
    no card may serve twice at all."""
    cands = find_melds(hand, sharing, long_run_split)
    if not cands:
        return [_NONE]
    out: list[Declaration] = []
    for k in range(len(cands), -1, -1):
        for combo in combinations(cands, k):
            ok = True
            for a, b in combinations(combo, 2):
                if (sharing and (a.is_carre or b.is_carre)) or not set(a.cards) & set(b.cards):
                    continue
                ok = False
                break
            if ok:
                out.append(Declaration(combo))
    out.sort(key=lambda d: (-d.value, -len(d.melds)))
    return out


_NONE = Declaration([])


def meld_key(m: Meld, trump: int, equal_value: str) -> tuple[int, int, int, int]:
    """§7.3: value, then carré-first or rank-only, then trump sequence."""
    trump_seq = int(not m.is_carre and m.suit is not None and int(m.suit) == trump)
    if equal_value == "carre_first":
        if m.is_carre:
            return (m.value, 1, 6 - CARRE.index(m.rank), 0)
        return (m.value, 0, 8 - NATURAL.index(m.rank), trump_seq)
    return (m.value, 0, 8 - NATURAL.index(m.rank), trump_seq)


def meld_winner(
    committed: Sequence[tuple[int, Declaration]], trump: int, equal_value: str, tie_rule: str
) -> int | None:
    """The team (seat % 2) whose single best meld wins, or ``None``.
    ``committed`` is (seat, declaration) in turn order from eldest."""
    best: list[tuple[tuple[int, int, int, int], int]] = []  # (key, order) per team
    keys: dict[int, tuple[tuple[int, int, int, int], int]] = {}
    for order, (seat, decl) in enumerate(committed):
        for m in decl.melds:
            k = meld_key(m, trump, equal_value)
            team = seat % 2
            cur = keys.get(team)
            if cur is None or k > cur[0]:
                keys[team] = (k, order)
    best = list(keys.values())
    if not best:
        return None
    if len(keys) == 1:
        return next(iter(keys))
    a, b = keys[0], keys[1]
    if a[0] != b[0]:
        return 0 if a[0] > b[0] else 1
    if tie_rule == "first_announcer":
        return 0 if a[1] < b[1] else 1
    return None


class Announcement(TypedDict):
    """A seat's announced value class, with the "How high?" answers (seat ->
    its top meld's rank) when it tied the one before."""

    seat: int
    value: int
    how_high: NotRequired[dict[int, str]]


def announcements(
    committed: Sequence[tuple[int, Declaration]], trump: int, equal_value: str
) -> list[Announcement]:
    """The public "value class" announcements and "How high?" exchanges of
    §7.2, as (seat, value[, how_high]) records in turn order."""
    out: list[Announcement] = []
    current: tuple[int, tuple[int, int, int, int], str] | None = None  # seat, key, rank
    for seat, decl in committed:
        if not decl.melds:
            continue
        top = max(decl.melds, key=lambda m: meld_key(m, trump, equal_value))
        key = meld_key(top, trump, equal_value)
        if current is None or top.value > current[1][0]:
            out.append({"seat": seat, "value": top.value})
            current = (seat, key, top.rank)
        elif top.value == current[1][0]:
            out.append(
                {"seat": seat, "value": top.value, "how_high": {current[0]: current[2], seat: top.rank}}
            )
            if key > current[1]:
                current = (seat, key, top.rank)
    return out
