"""The shared behaviour of value types that are their notation.

Calls of every game are immutable, interned objects whose ``str()`` is their
notation and whose ``repr()`` names their game and pastes back; they pickle by their text so a
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
        """Named by its game's package (``trumps.bridge.Call('1C')``): a 500
        bid and a bridge bid may read alike, and with ``import trumps`` the
        repr pastes back as the same value."""
        package = type(self).__module__.rpartition(".")[0]
        return f"{package}.{type(self).__name__}({self._text!r})"
