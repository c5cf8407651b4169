"""The auction and play through the public protocol (bridge.md §2, §3,
§10 items 1-5)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.bridge.calls import Call, Contract, bid_index
from trumps.core.errors import IllegalAction, OptionError, ParseError, WrongSeat

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
_AUCTION = json.loads((DATA / "auction.json").read_text(encoding="utf-8"))
DEAL = "N:AKQJ.AKQ.AK2.432 T98765.J.QJ.T987 2.T98765.T98.AKQ 43.432.76543.J65"


def new(**kw: Any) -> trumps.Match[Any]:
    kw.setdefault("options", {"scoring": "duplicate"})
    kw.setdefault("dealer", "N")
    kw.setdefault("deal", DEAL)
    return trumps.new_game("bridge", **kw)


def test_bid_index() -> None:
    assert bid_index(1, 0) == 0 and Call("7NT").index == 34 and Call("2NT").index == 9


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ((8, 0), "not 8/0"),  # printed as 8C, which does not parse back
        ((0, 4), "not 0/4"),
        ((1, 9), "not 1/9"),  # str() was an IndexError
        ((1, -1), "not 1/-1"),
        ((1, 0, 3), "risk is 0 (undoubled), 1 (X) or 2 (XX), not 3"),
        ((1, 0, -1), "not -1"),
        (("1", 0), "not '1'/0"),
        ((1.0, 0), "not 1.0/0"),
        ((True, 0), "not True/0"),
        ((1, 0, None), "not None"),
    ],
)
def test_a_contract_out_of_range_is_a_parse_error(fields: tuple[Any, ...], says: str) -> None:
    with pytest.raises(ParseError, match=re.escape(says)):
        Contract(*fields)


def test_every_contract_round_trips_through_text() -> None:
    made = [
        Contract(level, strain, risk) for level in range(1, 8) for strain in range(5) for risk in range(3)
    ]
    assert [Contract.parse(str(c)) for c in made] == made
    assert str(Contract(7, 4, 2)) == "7NTXX" and replace(Contract(3, 4), risk=1) == Contract.parse("3NTX")
    with pytest.raises(ParseError):
        replace(Contract(3, 4), level=8)


@pytest.mark.parametrize("case", _AUCTION["legal"], ids=lambda c: f"{' '.join(c['calls'])}|{c['call']}")
def test_call_legality(case: dict[str, Any]) -> None:
    g = new()
    for c in case["calls"]:
        g.apply(c)
    legal = [str(a) for a in g.legal_actions()]
    assert (case["call"] in legal) is case["legal"]
    if not case["legal"]:
        with pytest.raises(IllegalAction):
            g.apply(case["call"])


@pytest.mark.parametrize("case", _AUCTION["contracts"], ids=lambda c: " ".join(c["calls"]))
def test_contract_and_declarer(case: dict[str, Any]) -> None:
    g = new()
    for c in case["calls"]:
        g.apply(c)
    if case["contract"] is None:
        assert g.is_over and g.results[0]["passed_out"] and g.scores == [0, 0]
        return
    assert g.deal.phase == "PLAY"
    assert str(g.deal.contract) == case["contract"]
    assert g.seat_name(g.deal.declarer) == case["declarer"]
    assert g.to_act_index == (g.deal.declarer + 1) % 4  # opening lead from declarer's left


def _play_to_lead() -> trumps.Match[Any]:
    g = new()
    for c in ["1NT", "P", "3NT", "P", "P", "P"]:
        g.apply(c)
    return g


def test_dummy_exposed_only_after_opening_lead() -> None:
    g = _play_to_lead()  # N declares, E leads, S is dummy
    assert g.view("E")["hands"]["S"] is None
    assert g.view(None)["hands"]["S"] is None
    g.apply("JH", "E")
    for seat in ("N", "E", "W", None):
        v = g.view(seat)
        assert v["hands"]["S"] is not None and v["exposed"] == ["S"]
    assert g.view("E")["hands"]["N"] is None and g.view("E")["hands"]["W"] is None


def test_declarer_plays_dummy() -> None:
    g = _play_to_lead()
    g.apply("JH", "E")
    assert g.to_act == "N"  # declarer decides...
    assert g.view("N")["hand_to_play"] == "S"  # ...dummy's card
    with pytest.raises(WrongSeat):
        g.apply("TH", "S")
    v = g.view("N")
    assert set(v["legal"]) == {"TH", "9H", "8H", "7H", "6H", "5H"}  # must follow hearts
    with pytest.raises(IllegalAction, match="follow suit"):
        g.apply("2S", "N")
    g.apply("5H", "N")
    assert g.to_act == "W"


def test_trick_winner_and_lead() -> None:
    g = _play_to_lead()
    for card in ["JH", "5H", "4H", "AH"]:
        g.apply(card)
    assert g.deal.tricks[0][2] == 0 and g.to_act == "N"
    assert g.deal.won == [1, 0]


def test_trump_wins() -> None:
    g = new(contract="4S", declarer="E")  # S leads, W dummy
    assert g.to_act == "S"
    g.apply("AC")  # S
    g.apply("JC")  # W (dummy, played by E)
    g.apply("4C")  # N
    g.apply("7C")  # E
    assert g.deal.tricks[0][2] == 2


def test_ruff() -> None:
    g = new(contract="4H", declarer="N")  # E leads; E's only heart is the jack
    for card in ["QD", "8D", "3D", "AD", "KD", "JD", "9D", "4D", "2D"]:
        g.apply(card)
    assert "JH" in g.view("E")["legal"] and "TS" in g.view("E")["legal"]  # void: anything
    for card in ["JH", "TD", "5D"]:
        g.apply(card)
    assert [t[2] for t in g.deal.tricks] == [0, 0, 1]
    assert g.deal.won == [2, 1]


def test_contract_start_and_single_deal() -> None:
    g = new(contract="7NT", declarer="N")
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert len(g.results) == 1 and g.results[0]["contract"] == "7NT"


def test_declarer_needs_contract() -> None:
    with pytest.raises(OptionError):
        new(declarer="N")
    with pytest.raises(OptionError):
        new(contract="3NT")


def test_board_sets_dealer_and_vulnerability() -> None:
    g = trumps.new_game("bridge", options={"scoring": "duplicate", "board": 5}, seed=3)
    assert g.deal.dealer == 0 and g.deal.vulnerable == (True, False)
    g = trumps.new_game("bridge", options={"scoring": "duplicate", "board": 16}, seed=3)
    assert g.to_act == "W" and g.view(None)["vulnerable"] == "EW"
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options={"scoring": "duplicate", "board": 16}, dealer="N")
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options={"scoring": "rubber", "board": 3})


def test_duplicate_score_recorded_ns_view() -> None:
    g = new(contract="3NT", declarer="E", options={"scoring": "duplicate", "vulnerability": "EW"})
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    r = g.results[0]
    assert r["points"][0] == -r["points"][1]
    assert g.scores == r["points"]


def test_unknown_option_rejected() -> None:
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options={"honours": True})
