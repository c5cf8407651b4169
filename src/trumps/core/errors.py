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
