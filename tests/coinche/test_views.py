"""Views never leak: every string of the serialized view of each seat and of
a spectator is checked against the other players' hidden cards and the
melds that are not yet (or never) shown (coinche.md §17)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trumps
from trumps.coinche.melds import Meld
from trumps.core.cards import Card
from trumps.core.errors import ParseError

from .conftest import PRESETS


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, path)]
    return []


def _card(text: str) -> Card | None:
    try:
        return Card(text)
    except ParseError:
        return None


def check_view(g: Any, seat: int | None) -> None:
    d = g.deal
    v = json.loads(json.dumps(g.view(seat)))
    shown: set[Card] = set()
    if d.melds_done and d.tricks and d.meld_team is not None:
        shown = {c for s, decl in d.meld_order if s % 2 == d.meld_team for m in decl.melds for c in m.cards}
    hidden = {c for s in range(4) if s != seat for c in d.hands[s]} - shown
    for path, text in _strings(v):
        if path == ".options.direction" or path.startswith(".options"):
            continue
        card = _card(text)
        if card is not None:
            assert card not in hidden, (seat, path, text)
            continue
        if path.startswith(".melds"):
            try:
                meld = Meld.parse(text)
            except ParseError:
                continue
            if path.endswith(".mine"):
                assert seat is not None and set(meld.cards) <= set(d.dealt[seat])
            else:
                assert set(meld.cards) <= shown, (seat, path, text)
    hands = v["hands"]
    for name, cards in hands.items():
        assert cards is None or name == v["seat"]
    if seat is None or seat != g.to_act_index:
        assert v["legal"] == []
    if v["melds"] is not None and "mine" in v["melds"]:
        assert seat is not None and seat in d.declared


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(PRESETS), announce=st.booleans())
def test_views_never_leak(seed: int, preset: str, announce: bool) -> None:
    g = trumps.new_game(
        "coinche", preset=preset, options={"belote_requires_announcement": announce}, seed=seed
    )
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and steps < 120:
        for seat in (None, 0, 1, 2, 3):
            check_view(g, seat)
        g.apply(rng.choice(g.legal_actions()))
        steps += 1


def test_melds_are_shown_at_trick_two_only_for_the_winning_side() -> None:
    hands = {"N": "JS 9S AS TS KS QS 8S 7S", "E": "AH KH QH JH TH 9H 8H 7H",
             "S": "AD KD QD JD TD 9D 8D 7D", "W": "AC KC QC JC TC 9C 8C 7C"}  # fmt: skip
    g = trumps.new_game("coinche", preset="seed", deal=hands, dealer="E", seed=1)
    for call in ("80S", "P", "P", "P"):
        g.apply(call)
    g.apply("MELD:AKQJT987S")
    g.apply("JS")
    spectator = g.view(None)["melds"]
    assert spectator["announcements"] == [{"seat": "N", "value": 100}]
    assert spectator["shown"] == {} and "mine" not in spectator
    assert g.view("N")["melds"]["mine"] == ["AKQJT987S"]
    for _ in range(3):
        g.apply(g.legal_actions()[0])  # W, S, E declare their quintes
        g.apply(g.legal_actions()[0])
    melds = g.view("E")["melds"]
    assert melds["winner"] == 0 and set(melds["shown"]) == {"N", "S"}
    assert melds["points"] == [200, 0]
    assert len(melds["announcements"]) == 4 and melds["announcements"][1]["how_high"] == {"N": "A", "W": "A"}
