"""Property tests: random legal games keep every invariant, replay from
JSON identically and never leak hidden cards; the duplicate score is
consistent (bridge.md §3, §5)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trumps
from trumps.bridge.deal import BridgeDeal
from trumps.bridge.hands import DECK

FORMS = ["duplicate", "rubber", "chicago"]


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(_strings(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(_strings(v) for v in data)) if data else set()
    return set()


def _check_deal(d: BridgeDeal) -> None:
    played = [c for _, cards, _ in d.tricks for c in cards] + list(d.trick)
    held = [c for h in d.hands for c in h]
    assert len(played) + len(held) == 52
    assert set(played) | set(held) == set(DECK)
    for s, h in enumerate(d.hands):
        assert all(c in d.dealt[s] for c in h)
    for leader, cards, winner in d.tricks:
        assert len(cards) == 4 and 0 <= winner < 4 and 0 <= leader < 4
    if d.claimed is None:
        assert sum(d.won) == len(d.tricks)
    if d.tricks or d.trick:
        assert d.dummy in d.exposed
    else:
        assert not d.exposed


def _check_views(g: trumps.Match[Any]) -> None:
    d = g.deal
    for seat in (None, 0, 1, 2, 3):
        v = g.view(seat)
        data = json.loads(json.dumps(v))
        # calls and contracts ("3C") share their spelling with cards: skip them
        for key in ("auction", "contract", "results"):
            data.pop(key)
        if v["phase"] == "AUCTION":
            data.pop("legal")
        strings = _strings(data)
        for other in range(4):
            if other == seat or other in d.exposed:
                continue
            assert not strings & {str(c) for c in d.hands[other]}, (seat, other)


@settings(max_examples=40, deadline=None)
@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
@given(
    seed=st.integers(0, 2**32 - 1), form=st.sampled_from(FORMS), claims=st.sampled_from(["off", "consent"])
)
def test_random_games_keep_invariants_and_replay(seed: int, form: str, claims: str) -> None:
    rng = random.Random(seed)
    g = trumps.new_game("bridge", options={"scoring": form, "claims": claims}, seed=seed)
    steps = 0
    while not g.is_over and steps < 3000:
        legal = g.legal_actions()
        assert legal
        if steps % 7 == 0:
            _check_views(g)
        action = rng.choice(legal)
        g.apply(str(action) if steps % 2 else action)
        steps += 1
        if not g.is_over and g.deal.phase != "AUCTION":
            _check_deal(g.deal)
    record = g.to_json()
    again = trumps.load_game(json.loads(json.dumps(record)))
    assert again.to_json() == record
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == g.view(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 120))
def test_clone_and_partial_replay_identical(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    g = trumps.new_game("bridge", options={"scoring": "duplicate"}, seed=seed)
    for _ in range(cut):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    c = g.clone()
    again = trumps.load_game(g.to_json())
    assert again.view(None) == g.view(None) == c.view(None)
    if not g.is_over:
        a = g.legal_actions()[0]
        c.apply(a)
        assert g.view(None) != c.view(None) or g.is_over


_CONTRACTS = [f"{lv}{st}" for lv in range(1, 8) for st in ("C", "D", "H", "S", "NT")]


@given(contract=st.sampled_from(_CONTRACTS), vul=st.booleans(), tricks=st.integers(0, 13))
def test_duplicate_score_consistency(contract: str, vul: bool, tricks: int) -> None:
    score = trumps.bridge.score  # type: ignore[attr-defined]
    need = int(contract[0]) + 6
    plain = score(contract, vulnerable=vul, tricks=tricks)
    dbl = score(contract + "X", vulnerable=vul, tricks=tricks)
    rdbl = score(contract + "XX", vulnerable=vul, tricks=tricks)
    if tricks >= need:
        assert 0 < plain <= dbl <= rdbl
        assert score(contract, vulnerable=True, tricks=tricks) >= score(
            contract, vulnerable=False, tricks=tricks
        )
    else:
        assert plain < 0 and rdbl <= dbl <= plain
        assert score(contract, vulnerable=True, tricks=tricks) <= score(
            contract, vulnerable=False, tricks=tricks
        )
    if tricks < 13:
        assert score(contract, vulnerable=vul, tricks=tricks + 1) > plain
