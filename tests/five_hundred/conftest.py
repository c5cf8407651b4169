"""Shared helpers for the 500 tests, exposed as the ``h`` fixture (test
modules are imported with ``--import-mode=importlib`` and cannot import each
other)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

import trumps
from trumps.core.cards import parse_cards
from trumps.core.decks import deck_500
from trumps.core.seats import seat_name


def full_deal(
    hands: dict[str, str], players: int = 4, kitty_size: int = 3, kitty: str | None = None
) -> dict[str, list[str]]:
    """An explicit deal: the given hands, the other seats (and the kitty,
    unless given) filled in canonical deck order with the remaining cards."""
    deck = deck_500(players, kitty_size)
    given = {k: parse_cards(v) for k, v in hands.items()}
    used = {c for cards in given.values() for c in cards}
    if kitty is not None:
        used |= set(parse_cards(kitty))
    rest = [c for c in deck if c not in used]
    out: dict[str, list[str]] = {}
    for s in range(players):
        name = seat_name(s, players)
        if name in given:
            out[name] = [str(c) for c in given[name]]
        else:
            out[name] = [str(c) for c in rest[:10]]
            rest = rest[10:]
    out["kitty"] = [str(c) for c in (parse_cards(kitty) if kitty is not None else rest)]
    assert sum(len(v) for v in out.values()) == len(deck)
    return out


def new(options: dict[str, Any] | None = None, preset: str | None = None, **kw: Any) -> Any:
    return trumps.new_game("500", preset=preset, options=options, **kw)


def play(g: Any, actions: str | list[str]) -> None:
    """Apply space-separated actions in turn."""
    for a in actions.split() if isinstance(actions, str) else actions:
        g.apply(a)


def legal(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def hand(g: Any, seat: str) -> set[str]:
    return {str(c) for c in g.deal.hands[g.seat(seat)]}


def first_legal_until(g: Any, stop: Any) -> None:
    """Apply the first legal action until ``stop(g)`` or the game is over."""
    guard = 0
    while not g.is_over and not stop(g):
        g.apply(g.legal_actions()[0])
        guard += 1
        assert guard < 10_000


def first_legal(g: Any, count: int) -> None:
    """Apply the first legal action ``count`` times."""
    for _ in range(count):
        g.apply(g.legal_actions()[0])


@pytest.fixture
def h() -> Any:
    return sys.modules[__name__]
