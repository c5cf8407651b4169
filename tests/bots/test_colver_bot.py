"""The colver adapter (:mod:`trumps.bots.colver_bot`): notation, rules, arena."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

import trumps
from trumps.bots import colver_bot as cb
from trumps.bots.arena import duplicate_match
from trumps.bots.registry import bot_for

colver = pytest.importorskip("colver", reason="colver is not installed (pip install trumps[arena])")

PRESET = {"preset": "contree_exact"}


def test_every_card_round_trips() -> None:
    cards = [r + s for s in "SHDC" for r in "789JQKTA"]
    assert sorted(cb.card_to_colver(c) for c in cards) == list(range(32))
    for c in cards:
        assert cb.colver_to_card(cb.card_to_colver(c)) == c
    for i in range(32):
        assert cb.card_to_colver(cb.colver_to_card(i)) == i
        # colver's own name of the card agrees (10 is "T", suits in order S H D C)
        name = colver.Env.card_name(i)
        rank, suit = name[:-1], name[-1]
        assert cb.colver_to_card(i) == ("T" if rank == "10" else rank) + "SHDC"["♠♥♦♣".index(suit)]


def test_every_call_round_trips() -> None:
    for a in range(43):
        assert cb.call_to_colver(cb.colver_to_call(a)) == a
        name = colver.Env.action_name(a, 0)
        call = cb.colver_to_call(a)
        expected = {"Pass": "P", "Coinche": "X", "Surcoinche": "XX"}.get(name)
        if expected is None:
            value, suit = name[:-1], "SHDC"["♠♥♦♣".index(name[-1])]
            expected = f"CAPOT-{suit}" if value == "Capot" else value + suit
        assert call == expected
    # every call trumps knows under the preset has a colver twin
    m = trumps.new_game("coinche", preset="contree_exact", seed=1)
    assert sorted(cb.call_to_colver(str(a)) for a in m.legal_actions()) == list(range(41))
    with pytest.raises(cb.ColverError):
        cb.call_to_colver("90NT")
    with pytest.raises(cb.ColverError):
        cb.colver_to_card(32)


def _mirror(seed: int) -> tuple[dict[str, Any], Any, int]:
    """Play one deal at random (coinches and surcoinches made likely) in
    both engines at once, checking the same seat acts with the same legal
    actions at every step; returns trumps' result, the colver Env and the
    number of actions checked."""
    m = trumps.new_game("coinche", preset="contree_exact", seed=seed)
    v = m.view(m.to_act_index)
    seat_of = cb._seat_map(v)
    hands: list[list[int]] = [[] for _ in range(4)]
    for i, name in enumerate(v["seats"]):
        hands[seat_of[name]] = sorted(cb.card_to_colver(str(c)) for c in m.deal.hands[i])
    env = colver.Env.deal_with_hands(seat_of[v["dealer"]], hands)
    rng = random.Random(seed)
    checked = 0
    while not m.results:
        v = m.view(m.to_act_index)
        auction = v["phase"] == "AUCTION"
        cb._forced_passes(env, None, seat_of[v["seat"]])
        assert env.current_player() == seat_of[v["seat"]]
        assert (env.phase() == 0) == auction
        legal = [str(a) for a in m.legal_actions()]
        to_colver = cb.call_to_colver if auction else cb.card_to_colver
        assert sorted(to_colver(a) for a in legal) == sorted(env.legal_actions())
        if auction:
            if "X" in legal and rng.random() < 0.3:
                pick = "X"
            elif "XX" in legal and rng.random() < 0.5:
                pick = "XX"
            else:
                pick = "P" if rng.random() < 0.7 else rng.choice(legal)
        else:
            pick = rng.choice(legal)
        m.apply(m.legal_actions()[legal.index(pick)])
        env.step(to_colver(pick))
        checked += 1
    return dict(m.results[0]), env, checked


def test_both_engines_agree_on_random_deals() -> None:
    played = 0
    for seed in range(60):
        result, env, checked = _mirror(seed)
        assert checked >= 4
        if not result.get("card_points"):  # thrown in: colver's deal is over too
            assert env.phase() == 2
            continue
        played += 1
        assert env.phase() == 2
        assert list(env.rewards()) == list(result["points"])
        ours, theirs = list(result["card_points"]), list(env.get_points())
        # a capot is 162 card points in trumps' result, 252 in colver's count
        assert ours == theirs or (sorted(ours) == [0, 162] and sorted(theirs) == [0, 252])
    assert played > 30


def test_unknown_agent_game_and_missing_package(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(cb.ColverError, match="unknown colver agent"):
        bot_for("coinche", "colver:nope")
    with pytest.raises(cb.ColverError, match="coinche"):
        bot_for("bridge", "colver:heuristic")
    monkeypatch.setitem(sys.modules, "colver", None)
    with pytest.raises(cb.ColverError, match=r"pip install trumps\[arena\]"):
        bot_for("coinche", "colver:heuristic")


def test_agents_are_named_and_seeded() -> None:
    bot = bot_for("coinche", "colver:smart_ismcts@5")
    assert isinstance(bot, cb.ColverBot)
    assert bot.determinizations == 5 and "determinizations = 5" in bot.spec
    assert {"heuristic", "ismcts", "smart_ismcts", "random"} <= set(cb.AGENTS)


@pytest.mark.parametrize(
    ("a", "b"),
    [("easy", "colver:heuristic"), ("random", "colver:smart_ismcts@4"), ("colver:random", "colver:ismcts@4")],
)
def test_duplicate_deals_complete(a: str, b: str) -> None:
    """Whole deals, auction included: every colver decision replays the
    deal so far in colver (each past action checked legal there) and its
    choice is checked legal in trumps."""
    r1 = duplicate_match("coinche", a, b, deals=4, seed=3, options=PRESET)
    assert r1.deals == 4
    if "ismcts" not in a + b:
        # seeded: the same seed gives the same match (colver's IS-MCTS
        # agents are not reproducible from their seed)
        r2 = duplicate_match("coinche", a, b, deals=4, seed=3, options=PRESET)
        assert [d.gains for d in r1.per_deal] == [d.gains for d in r2.per_deal]


def test_the_bot_sees_only_its_seat() -> None:
    """The Env given to colver holds the seat's real hand but not the real
    hidden hands (they are drawn at random consistently with the view)."""
    m = trumps.new_game("coinche", preset="contree_exact", seed=5)
    bot = cb.ColverBot("heuristic")
    view = m.view(m.to_act_index)
    env, _ = bot._build(view, random.Random(1))
    seat_of = cb._seat_map(view)
    hands = env.get_hands()
    me = seat_of[view["seat"]]
    assert sorted(hands[me]) == sorted(cb.card_to_colver(c) for c in view["hands"][view["seat"]])
    real = {
        seat_of[name]: sorted(cb.card_to_colver(str(c)) for c in m.deal.hands[i])
        for i, name in enumerate(view["seats"])
    }
    others = [s for s in range(4) if s != me]
    assert any(sorted(hands[s]) != real[s] for s in others)


def test_fixed_contract_card_play() -> None:
    """A deal set up with its contract and no auction (card play alone):
    colver's Env gets the same contract and the deal completes."""
    m = trumps.new_game("coinche", preset="contree_exact", seed=9)
    view = m.view(0)
    hands = {name: [str(c) for c in m.deal.hands[i]] for i, name in enumerate(view["seats"])}
    g = trumps.new_game(
        "coinche", options=dict(view["options"]), deal=hands, dealer="E", contract="100HX", declarer="S"
    )
    bots = [bot_for("coinche", "colver:smart_ismcts@4"), bot_for("coinche", "easy")] * 2
    rng = random.Random(2)
    from trumps.bots.selfplay import step

    env = None
    while not g.results:
        if g.to_act_index == 0 and len(g.legal_actions()) > 1:
            env, _ = bots[0]._build(g.view(0), random.Random(1))  # type: ignore[attr-defined]
            assert env.get_contract() == {"coinche": 1, "value": 100, "trump": 1, "team": 0}
        step(g, bots[g.to_act_index], rng)  # type: ignore[index]
    assert env is not None and g.results[0]["contract"] == "100HX"
