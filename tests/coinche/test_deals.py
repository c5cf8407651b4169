"""Whole deals through the engine (coinche.md §17): the pinned deals of
deals.json for every preset, belote (§6, §18.5), melds in play, explicit
contracts, the match to the target, replay and records."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import trumps
from trumps.coinche.deal import BelotePlay
from trumps.coinche.melds import Declaration
from trumps.core.errors import DealError, IllegalAction, OptionError, ParseError

from .conftest import PRESETS, load

DEALS = load("deals.json")
ROWS = [(c, p, e) for c in DEALS["cases"] for p, e in c["expect"].items()]


def play_out(g: trumps.Match[Any], plays: dict[str, str]) -> None:
    """Play each seat's cards in the given order; declare the best melds."""
    queue = {s: v.split() for s, v in plays.items()}
    while not g.is_over and g.deal.phase == "PLAY":
        legal = g.legal_actions()
        if isinstance(legal[0], Declaration):
            g.apply(legal[0])
            continue
        seat = g.to_act
        g.apply(queue[seat].pop(0), seat)


@pytest.mark.parametrize(("case", "preset", "expected"), ROWS, ids=[f"{c['name']}-{p}" for c, p, _ in ROWS])
def test_pinned_deal(case: dict[str, Any], preset: str, expected: list[Any]) -> None:
    g = trumps.new_game("coinche", preset=preset, deal=DEALS["hands"], dealer=DEALS["dealer"], seed=1)
    for call in case["auction"]:
        g.apply(call)
    assert str(g.deal.contract) == case["contract"] and g.seat_name(g.deal.taker) == case["taker"]
    play_out(g, DEALS["plays"])
    r = g.results[0]
    assert [r["points"][0], r["points"][1], r["made"]] == expected
    assert r["card_points"] == case["card_points"] and r["belote"] == case["belote"]
    assert r["tricks"] == case["tricks"]
    if preset in case.get("melds", {}):
        assert r["melds"] == case["melds"][preset]
    assert g.scores == expected[:2]


def _single(contract: str, declarer: str, hands: dict[str, str], preset: str = "common", **opts: Any) -> Any:
    return trumps.new_game(
        "coinche",
        preset=preset,
        options=opts or None,
        deal=hands,
        contract=contract,
        declarer=declarer,
        seed=3,
        dealer="E",
    )


BELOTE_HANDS = {
    "N": "KH QH KS QS 7C 8C 9C TC",
    "E": "AH TH 9H JH 8H 7H JC QC",
    "S": "AS TS 9S JS 8S 7S KC AC",
    "W": "AD TD KD QD JD 9D 8D 7D",
}


@pytest.mark.parametrize(
    ("contract", "belote"), [("80H", [20, 0]), ("80NT", [0, 0]), ("80AT", [40, 20]), ("80D", [0, 20])]
)
@pytest.mark.parametrize("preset", PRESETS)
def test_belote_by_contract(contract: str, belote: list[int], preset: str) -> None:
    if preset == "contree_exact" and contract[-2:] in ("NT", "AT"):
        with pytest.raises(OptionError):
            _single(contract, "N", BELOTE_HANDS, preset)
        return
    g = _single(contract, "N", BELOTE_HANDS, preset)
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.results[0]["belote"] == belote


def test_belote_in_all_trump_option() -> None:
    g = _single("80AT", "N", BELOTE_HANDS, belote_in_all_trump=False)
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.results[0]["belote"] == [0, 0]


def test_announced_belote() -> None:
    g = _single("80H", "N", BELOTE_HANDS, belote_requires_announcement=True)
    # eldest is N (dealer E, anticlockwise); N leads the K of trumps and may announce
    legal = [str(a) for a in g.legal_actions()]
    assert "KH+BELOTE" in legal and "QH+BELOTE" in legal and "7C+BELOTE" not in legal
    g.apply("KH+BELOTE")
    assert g.view(None)["belote"] == [{"seat": "N", "suit": "H", "call": "belote"}]
    while g.to_act_index != g.seat("N"):
        g.apply(g.legal_actions()[0])
    if g.seat_name(g.deal.tricks[-1][2]) == "N":
        assert "QH+BELOTE" not in [str(a) for a in g.legal_actions()]
        g.apply("QH")
        assert g.view(None)["belote"][-1]["call"] == "rebelote"


def test_unannounced_belote_scores_nothing() -> None:
    g = _single("80H", "N", BELOTE_HANDS, belote_requires_announcement=True)
    g.apply("KH")
    assert g.view(None)["belote"] == []
    rng = random.Random(2)
    while not g.is_over:
        g.apply(rng.choice([a for a in g.legal_actions() if not isinstance(a, BelotePlay)]))
    assert g.results[0]["belote"] == [0, 0]


def test_automatic_belote_is_public_when_played() -> None:
    g = _single("80S", "N", BELOTE_HANDS)
    g.apply("KS")
    assert g.view("E")["belote"] == [{"seat": "N", "suit": "S", "call": "belote"}]


def test_contract_start_and_eldest_leads() -> None:
    g = trumps.new_game("coinche", preset="common", seed=4, contract="110HX", declarer="S", dealer="N")
    assert g.deal.phase == "PLAY" and str(g.deal.contract) == "110HX"
    assert g.to_act_index == g.seat("W")  # eldest = dealer's right
    rng = random.Random(1)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.results) == 1 and g.results[0]["multiplier"] == 2
    with pytest.raises(OptionError):
        trumps.new_game("coinche", contract="110H")
    with pytest.raises(ParseError):
        trumps.new_game("coinche", contract="75H", declarer="N")


@pytest.mark.parametrize(
    "bad",
    [
        {"N": "AS KS", "E": "", "S": "", "W": ""},
        {
            "N": "JS 9S AS TS KS QS 8S 7S",
            "E": "JS 9S AS TS KS QS 8S 7S",
            "S": "AD KD QD JD TD 9D 8D 7D",
            "W": "AC KC QC JC TC 9C 8C 7C",
        },
        {
            "N": "JS 9S AS TS KS QS 8S 2S",
            "E": "AH KH QH JH TH 9H 8H 7H",
            "S": "AD KD QD JD TD 9D 8D 7D",
            "W": "AC KC QC JC TC 9C 8C 7C",
        },
        {"N": "JS 9S AS TS KS QS 8S 7S"},
    ],
)
def test_bad_deals(bad: dict[str, str]) -> None:
    with pytest.raises((DealError, ParseError)):
        trumps.new_game("coinche", deal=bad)


def test_deal_pattern_and_direction() -> None:
    for pattern in ("3-2-3", "3-3-2", "2-3-3"):
        for direction in ("anticlockwise", "clockwise"):
            g = trumps.new_game("coinche", options={"deal_pattern": pattern, "direction": direction}, seed=9)
            hands = g.deal.hands
            assert sorted(len(h) for h in hands) == [8, 8, 8, 8]
            assert len({c for h in hands for c in h}) == 32


def test_play_order_follows_direction() -> None:
    g = trumps.new_game(
        "coinche", options={"direction": "clockwise"}, seed=2, contract="80S", declarer="N", dealer="N"
    )
    order = []
    for _ in range(4):
        order.append(g.to_act)
        g.apply(g.legal_actions()[0])
    assert order == ["E", "S", "W", "N"]


def test_illegal_play_is_rejected_without_change() -> None:
    g = trumps.new_game("coinche", preset="common", deal=DEALS["hands"], dealer="E", seed=1)
    for c in ["80S", "P", "P", "P"]:
        g.apply(c)
    g.apply("JS")
    before = g.to_json()
    with pytest.raises(IllegalAction):
        g.apply("AH")  # not W's card
    with pytest.raises(IllegalAction):
        g.apply("7C", "S")  # wrong seat
    assert g.to_json() == before


@pytest.mark.parametrize("preset", PRESETS)
def test_full_match_replays_exactly(preset: str) -> None:
    rng = random.Random(preset)
    g = trumps.new_game("coinche", preset=preset, seed=rng.randrange(10**6))
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.winner is not None and max(g.scores) >= g.options.target_score
    data = json.loads(json.dumps(g.to_json()))
    again = trumps.load_game(data)
    assert again.to_json() == g.to_json()
    assert [r["points"] for r in again.results] == [r["points"] for r in g.results]
    clone = g.clone()
    assert clone.to_json() == g.to_json()


@pytest.mark.parametrize("preset", PRESETS)
def test_clone_is_independent(preset: str) -> None:
    rng = random.Random(5)
    g = trumps.new_game("coinche", preset=preset, seed=8)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    snapshot = g.to_json()
    views = [g.view(s) for s in (None, 0, 1, 2, 3)]
    c = g.clone()
    while not c.is_over:
        c.apply(rng.choice(c.legal_actions()))
    assert g.to_json() == snapshot
    assert [g.view(s) for s in (None, 0, 1, 2, 3)] == views
