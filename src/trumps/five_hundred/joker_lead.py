"""A joker led in no trumps or misère with the suit it names (§8): an
action of its own, ``RJ:C``.

A module of its own, outside the compiled engines (``setup.py``): a
flyweight built with ``object.__new__`` and kept immutable by
``__setattr__`` is a plain Python class, which mypyc does not compile.
"""

from __future__ import annotations

from typing import ClassVar

from trumps.core.cards import Card, Suit
from trumps.core.errors import ParseError

__all__ = ["JokerLead"]


class JokerLead:
    """Leading a joker in no trumps or misère, nominating the suit others
    must follow: notation ``RJ:C``."""

    __slots__ = ("_text", "card", "suit")
    _all: ClassVar[dict[tuple[Card, Suit], JokerLead]] = {}
    card: Card
    suit: Suit
    _text: str

    def __new__(cls, card: Card, suit: Suit) -> JokerLead:
        key = (card, suit)
        got = cls._all.get(key)
        if got is None:
            got = object.__new__(cls)
            object.__setattr__(got, "card", card)
            object.__setattr__(got, "suit", suit)
            object.__setattr__(got, "_text", f"{card}:{suit.code}")
            cls._all[key] = got
        return got

    @classmethod
    def parse(cls, text: str) -> JokerLead:
        head, sep, tail = text.strip().upper().partition(":")
        if not sep:
            raise ParseError(f"not a joker lead: {text!r} (write e.g. RJ:C)")
        card = Card(head)
        if not card.is_joker:
            raise ParseError(f"only a joker nominates a suit: {text!r}")
        return cls(card, Suit.parse(tail))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("JokerLead is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (JokerLead, (self.card, self.suit))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"JokerLead.parse({self._text!r})"
