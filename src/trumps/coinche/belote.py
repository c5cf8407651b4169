"""Playing the first card of a belote pair and announcing it (§17,
``belote_requires_announcement``): an action of its own, ``KH+BELOTE``.

A module of its own, outside the compiled engines (``setup.py``): a
flyweight built with ``object.__new__`` and kept immutable by
``__setattr__`` is a plain Python class, which mypyc does not compile.
"""

from __future__ import annotations

from typing import ClassVar

from trumps.core.cards import Card
from trumps.core.errors import ParseError

__all__ = ["BelotePlay"]


class BelotePlay:
    """Playing the first card of a belote pair *and* announcing it
    (``belote_requires_announcement``): notation ``KH+BELOTE``."""

    __slots__ = ("_text", "card")
    _all: ClassVar[dict[Card, BelotePlay]] = {}
    card: Card
    _text: str

    def __new__(cls, card: Card) -> BelotePlay:
        got = cls._all.get(card)
        if got is None:
            got = object.__new__(cls)
            object.__setattr__(got, "card", card)
            object.__setattr__(got, "_text", f"{card}+BELOTE")
            cls._all[card] = got
        return got

    @classmethod
    def parse(cls, text: str) -> BelotePlay:
        head, sep, tail = text.strip().upper().partition("+")
        if not sep or tail.strip() not in ("BELOTE", "B"):
            raise ParseError(f"not a belote announcement: {text!r} (write e.g. KH+BELOTE)")
        return cls(Card(head))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("BelotePlay is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (BelotePlay, (self.card,))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"BelotePlay({self._text!r})"
