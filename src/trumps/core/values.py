"""The shared behaviour of value types that are their notation.

Calls of every game are immutable, interned objects whose ``str()`` is their
notation and whose ``repr()`` pastes back; they pickle by their text so a
copy is the same interned object.  Subclasses set ``_text`` once (through
``object.__setattr__``) when they are made.
"""

from __future__ import annotations

from typing import Self

__all__ = ["TextValue"]


class TextValue:
    """Immutable, interned, written and read as ``_text``."""

    __slots__ = ()
    _text: str

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[Self], tuple[str]]:
        return (type(self), (self._text,))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._text!r})"
