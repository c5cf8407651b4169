"""What a card table needs to draw a game, beyond the state's view.

A room's page knows no game: the bidding box layout, the words of the
variant (Nullo or Misère, widow or kitty), the spelled-out name of every
call for screen readers and the short label of every call in the auction
all come from here, built by each game from its option set.  A fourth game
supplies its own :func:`Presentation` and the page draws it unchanged.

The shape, JSON-ready:

``box``
    ``columns``: the denominations across the grid (``key``, ``label``,
    ``name``); ``rows``: one per level (``label``, ``calls`` with ``None``
    where a level has no call of that column); ``side``: the calls beside
    the grid (Pass, Double, Capot...) in order; ``popup``: a button that
    opens a choice of calls (500's Misère / Open Misère), or ``None``;
    ``inkles``: a second, smaller grid row of calls (500's American
    inkles), or ``None``.
``labels`` / ``names``
    Every call that can ever be legal: its short label ("7♥", "Coinche")
    and its spelled-out accessible name ("seven hearts", "coinche").
``terms``
    The words of the variant: ``kitty``, ``declarer``, ``dummy``...
``target``
    The match target in words ("500 or −500", "1000 points").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypedDict, TypeVar

__all__ = ["SUIT_SYMBOLS", "Presentation", "grid_rows", "number_word", "side_calls"]

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
]


class Column(TypedDict):
    key: str
    label: str
    name: str


class GridRow(TypedDict):
    label: str
    calls: list[str]  # the games fill every cell (a page also draws None as an empty one)


class SideCall(TypedDict):
    call: str
    label: str
    name: str
    kind: str


class CallGroup(TypedDict, total=False):
    """A row of calls apart from the grid: 500's Misère popup (``name``: its
    accessible name), its inkles; a reader may start from ``{}``."""

    label: str
    name: str
    calls: list[str]


# total=False: the games give every key, but a page (and a reader that
# starts from ``{}``) must cope with a game that gives less
class Box(TypedDict, total=False):
    columns: list[Column]
    rows: list[GridRow]
    side: list[SideCall]
    popup: CallGroup | None
    inkles: CallGroup | None


class Target(TypedDict):
    points: int | None
    text: str


class Presentation(TypedDict, total=False):
    """The shape the module docstring describes."""

    box: Box | None
    labels: dict[str, str]
    names: dict[str, str]
    terms: dict[str, str | None]
    target: Target | None


L = TypeVar("L")


def number_word(n: int) -> str:
    """``7`` -> ``"seven"`` for the small numbers bids use; larger ones as digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def grid_rows(
    levels: Iterable[L],
    columns: Sequence[str],
    call: Callable[[L, str], str],
    *,
    label: Callable[[L], str] = str,
) -> list[GridRow]:
    """One row per level: ``call(level, column)`` gives each cell's call
    and ``label(level)`` the row's heading."""
    return [{"label": label(level), "calls": [call(level, col) for col in columns]} for level in levels]


def side_calls(
    labels: dict[str, str], names: dict[str, str], kinds: Sequence[tuple[str, str]]
) -> list[SideCall]:
    """The buttons beside the grid (Pass, X, XX...): ``(call, kind)`` pairs,
    their words taken from ``labels`` and ``names`` so they are written once."""
    return [{"call": c, "label": labels[c], "name": names[c], "kind": k} for c, k in kinds]
