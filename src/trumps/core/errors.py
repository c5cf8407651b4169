"""Typed errors raised by the engine.

Every error a caller can provoke with bad input is a subclass of
:class:`TrumpsError`, itself a :class:`ValueError`, so a caller that only
wants "bad input" can catch ``ValueError``.  A rejected action never changes
the state it was applied to.
"""

from __future__ import annotations

__all__ = [
    "DealError",
    "GameOver",
    "IllegalAction",
    "OptionError",
    "ParseError",
    "RecordError",
    "TrumpsError",
    "WrongSeat",
    "whole_number",
    "yes_or_no",
]


class TrumpsError(ValueError):
    """Base class of every error caused by bad input to the engine."""


class ParseError(TrumpsError):
    """A card, hand, call, seat or action string could not be read."""


class OptionError(TrumpsError):
    """An unknown option, a bad option value, an unknown preset, or an
    option combination the rules forbid."""


class DealError(TrumpsError):
    """An explicit deal is impossible: wrong card counts, duplicate cards,
    or cards that are not in the deck."""


class IllegalAction(TrumpsError):
    """The action is well formed but not legal in the current state."""


class WrongSeat(IllegalAction):
    """The action was submitted for a seat that is not the one to act."""


class GameOver(IllegalAction):
    """An action was submitted after the game ended."""


class RecordError(TrumpsError):
    """A game record (JSON) is malformed or does not replay."""


def whole_number(value: object, name: str) -> int:
    """``value`` if it is a whole number (not a bool), else :class:`ParseError`.

    Public functions of the compiled modules take such arguments as
    ``object`` and check them with this, so that a compiled build refuses a
    wrong type with the same ``ParseError`` as the Python sources rather
    than a ``TypeError`` (what mypyc raises for an argument of another
    type).

    >>> whole_number(9, "tricks")
    9
    >>> whole_number("9", "tricks")
    Traceback (most recent call last):
    ...
    trumps.core.errors.ParseError: tricks must be a whole number, not '9'
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(f"{name} must be a whole number, not {value!r}")
    return value


def yes_or_no(value: object, name: str) -> bool:
    """``value`` if it is a bool, else :class:`ParseError` (``"no"`` is true
    to ``bool()``: a vulnerability given as text must not score vulnerable).

    >>> yes_or_no(False, "vulnerable")
    False
    """
    if not isinstance(value, bool):
        raise ParseError(f"{name} must be true or false, not {value!r}")
    return value
