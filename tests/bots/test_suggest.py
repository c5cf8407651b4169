"""Suggestions with reasons, simulation bidding, and the post-game review."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.bots.bidsim import SimulationBidder
from trumps.bots.registry import bot_for
from trumps.bots.selfplay import step
from trumps.bots.suggest import EXPLAIN_BID_SAMPLES, explain, review, suggest
from trumps.core.protocol import Match


def _finished(game: str, seed: int) -> Match[Any]:
    m = trumps.new_game(game, seed=seed)
    bots = [bot_for(game, "rules") for _ in range(m.players)]
    rng = random.Random(seed)
    while not m.results and m.to_act_index is not None:
        step(m, bots[m.to_act_index], rng)
    return m


def _in_play(game: str, seed: int, cards: int) -> Match[Any]:
    """The first deal (from ``seed`` on) that is played, after ``cards`` cards."""
    for s in range(seed, seed + 50):
        m = trumps.new_game(game, seed=s)
        bots = [bot_for(game, "rules") for _ in range(m.players)]
        rng = random.Random(s)
        seen = 0
        while not m.results and m.to_act_index is not None:
            if m.view(m.to_act_index)["phase"] == "PLAY":
                if seen >= cards and len(m.legal_actions()) > 1:
                    return m
                seen += 1
            step(m, bots[m.to_act_index], rng)
    raise AssertionError("no such position")


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_explain_ranks_every_legal_card(game: str) -> None:
    m = _in_play(game, 4, 9)
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    rows = explain(game, view, legal, "normal", random.Random(7))
    assert sorted(r["action"] for r in rows) == sorted(legal)
    assert all(r["samples"] >= 1 and r["unit"] in ("tricks", "points") for r in rows)
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=rows[0]["maximising"])
    assert rows == explain(game, view, legal, "normal", random.Random(7))  # a seed, one answer


def test_suggest_is_the_level_choice_with_reasons() -> None:
    m = _in_play("coinche", 2, 5)
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    s = suggest("coinche", view, legal, "normal", random.Random(3))
    assert s["action"] in legal
    assert {r["action"] for r in s["reasons"]} == set(legal)


def test_bridge_bids_explained_by_their_rule() -> None:
    m = trumps.new_game("bridge", seed=3)
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    rows = explain("bridge", view, view["legal"])
    assert len(rows) == 1 and rows[0]["reason"]


def _view(game: str, hand: list[str], legal: list[str], **extra: Any) -> dict[str, Any]:
    m = trumps.new_game(game, seed=1)
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    view["hands"] = {s: (hand if s == view["seat"] else None) for s in view["seats"]}
    view["auction"] = []
    view.update(extra)
    return view


def test_coinche_simulation_bids_a_strong_trump_suit_and_passes_rubbish() -> None:
    rules = bot_for("coinche", "rules")
    bidder = SimulationBidder("coinche", 6, rules)
    m = trumps.new_game("coinche", seed=1)
    legal = [str(a) for a in m.legal_actions()]
    strong = _view("coinche", ["JH", "9H", "AH", "TH", "KH", "AS", "AD", "AC"], legal)
    call = bidder.choose(strong, legal, random.Random(1))
    assert call.endswith("H") and call[:1].isdigit()
    weak = _view("coinche", ["7S", "8S", "7H", "8H", "7D", "8D", "7C", "8C"], legal)
    assert bidder.choose(weak, legal, random.Random(1)) == "P"
    rows = bidder.explain(strong, legal, random.Random(1))
    assert rows[0]["action"] == call and rows[0]["samples"] == 6 and 0.6 <= rows[0]["make"] <= 1


def test_500_simulation_bids_a_trump_hand_and_misere_with_a_low_hand() -> None:
    rules = bot_for("500", "rules")
    bidder = SimulationBidder("500", 6, rules)
    m = trumps.new_game("500", seed=1)
    legal = [str(a) for a in m.legal_actions() if not str(a).startswith("i")]
    trumpy = _view("500", ["RJ", "JH", "JD", "AH", "KH", "QH", "TH", "AS", "AC", "KC"], legal)
    call = bidder.choose(trumpy, legal, random.Random(2))
    assert call.endswith("H") and int(call[:-1]) >= 8
    low = _view("500", ["4H", "5H", "6H", "4D", "5D", "6D", "7S", "5S", "6C", "5C"], legal)
    assert bidder.choose(low, legal, random.Random(2)) in ("MIS", "OMIS", "P")


def test_review_marks_every_card() -> None:
    for game in ("500", "bridge", "coinche"):
        m = _finished(game, 6)
        rows = review(m.to_json())
        cards = [e for e in m.to_json()["actions"] if e["action"] in {r["card"] for r in rows}]
        assert len(rows) == {"500": 40, "bridge": 52, "coinche": 32}[game] or len(rows) <= len(cards)
        for r in rows:
            assert r["cost"] >= 0
            assert (r["cost"] == 0) == (r["card"] in r["best"])
        assert rows == sorted(rows, key=lambda r: r["index"])


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_the_suggested_action_is_always_among_its_reasons(game: str) -> None:
    """ "Why?" must be able to show the suggestion itself, also for bids chosen by rule."""
    for seed in range(4):
        match = trumps.new_game(game, seed=seed)
        view = match.view(match.to_act_index)
        legal = [str(a) for a in match.legal_actions()]
        got = suggest(game, view, legal, "normal", random.Random(seed))
        assert got["action"] in legal
        assert got["action"] in [r["action"] for r in got["reasons"]]


@pytest.mark.parametrize(
    ("game", "level"), [("500", "normal"), ("500", "strong"), ("coinche", "normal"), ("coinche", "strong")]
)
def test_bid_reasons_use_the_levels_own_sample_count(game: str, level: str) -> None:
    """The "why?" of a simulated bid is computed from as many deals as the
    level's bid itself (500 has its own count); a level that bids by rule
    (500 and coinche ``normal``) explains from ``EXPLAIN_BID_SAMPLES``."""
    from trumps.bots.levels import LEVELS

    budget = LEVELS[level]
    # a level that bids by rule explains with EXPLAIN_BID_SAMPLES deals
    want = (budget.bid_samples_500 if game == "500" else budget.bid_samples) or EXPLAIN_BID_SAMPLES
    match = trumps.new_game(game, seed=2)
    view = match.view(match.to_act_index)
    legal = [str(a) for a in match.legal_actions()]
    got = suggest(game, view, legal, level, random.Random(2))
    simulated = [r["samples"] for r in got["reasons"] if r.get("value") is not None]
    assert simulated and set(simulated) == {want}
