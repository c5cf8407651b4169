"""Rubber bridge and Chicago sheets and matches (bridge.md §6, §8)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.bridge.rubber import ChicagoSheet, RubberSheet, back_score_units, score_rubber
from trumps.core.errors import ParseError

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
_R = json.loads((DATA / "rubber.json").read_text(encoding="utf-8"))


def test_worked_rubber() -> None:
    ex = _R["rubber"]
    sheet = RubberSheet()
    from trumps.bridge.rubber import parse_rubber_record

    for (side, c, tricks, hon), want in zip(parse_rubber_record(ex["record"]), ex["deals"], strict=True):
        e = sheet.record(side, c, tricks, hon)
        assert e.below == want["below"] and e.above == want["above"]
        assert [sheet.vulnerable(0), sheet.vulnerable(1)] == want["vul_after"]
    assert sheet.over
    assert sheet.below == ex["below"] and sheet.above == ex["above"]
    assert sheet.totals() == ex["totals"] and sheet.games == ex["games"]
    assert sheet.back_score() == ex["back_score"] and sum(sheet.back_score()) == 0
    assert score_rubber(ex["record"]).totals() == ex["totals"]


@pytest.mark.parametrize("case", _R["back_score_units"], ids=str)
def test_back_score_units(case: list[int]) -> None:
    assert back_score_units(case[0]) == case[1]


def test_rubber_bonus_two_nil() -> None:
    c = _R["rubber_bonus_2_0"]
    assert score_rubber(c["record"]).totals() == c["totals"]


@pytest.mark.parametrize("case", _R["unfinished"], ids=lambda c: c["record"])
def test_unfinished_rubber(case: dict[str, Any]) -> None:
    sheet = score_rubber(case["record"])
    assert not sheet.over
    assert sheet.unfinished_bonus is not None and sheet.unfinished_bonus.above == case["bonuses"]
    assert sheet.totals() == case["totals"]


def test_partscores_stop_counting_after_game() -> None:
    s = RubberSheet()
    s.record(0, "2H", 8)  # NS 60
    s.record(1, "3NT", 9)  # EW game: NS 60 no longer counts
    s.record(0, "1NT", 7)  # NS 40: not a game
    assert s.games == [0, 1] and s.below_current == [40, 0]
    s.record(0, "2C", 8)  # 40 + 40 = 80
    s.record(0, "1C", 7)  # 100: game
    assert s.games == [1, 1]


def test_vulnerable_penalties_and_slams() -> None:
    s = RubberSheet()
    s.record(1, "4S", 10)
    e = s.record(1, "6S", 12)  # vulnerable small slam ends the rubber 2-0
    assert e.above == [0, 750 + 700] and s.over


def test_bad_rubber_records() -> None:
    for bad in ["XX 3NT 9", "NS 3NT", "NS 3NT nine", "NS 3NT 9 NS120"]:
        with pytest.raises(ParseError):
            score_rubber(bad)


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
def test_rubber_match_runs_until_rubber_ends() -> None:
    rng = random.Random(5)
    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=11, dealer="N")
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    played = [r for r in g.results if not r["passed_out"]]
    assert max(played[-1]["games"]) == 2
    assert g.scores == [sum(r["points"][s] for r in g.results) for s in (0, 1)]
    assert "back_score" in g.results[-1]
    dealers = [r["dealer"] for r in g.results]
    assert all("NESW".index(b) == ("NESW".index(a) + 1) % 4 for a, b in itertools.pairwise(dealers))


def test_stop_unfinished_rubber_in_match() -> None:
    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=1, dealer="N")
    for c in ["1S", "P", "P", "P"]:
        g.apply(c)
    while g.deal_number == 0:
        g.apply(g.legal_actions()[0])
    g.finish_rubber()  # type: ignore[attr-defined]
    assert g.is_over
    again = trumps.load_game(g.to_json())
    assert again.is_over and again.scores == g.scores and again.results == g.results


def test_chicago_vulnerability() -> None:
    s = ChicagoSheet()
    assert [s.vulnerability(k, (k - 1) % 4) for k in (1, 2, 3, 4)] == [
        (False, False),
        (False, True),  # deal 2 dealt by E: EW vulnerable
        (True, False),  # deal 3 dealt by S
        (True, True),
    ]
    other = ChicagoSheet("non_dealer_side")
    assert other.vulnerability(2, 1) == (True, False)


def test_chicago_scoring() -> None:
    s = ChicagoSheet()
    e1 = s.record(0, "2S", 8, (False, False))  # 60 below, no partscore bonus
    assert e1.above == [0, 0] and e1.below == [60, 0]
    e2 = s.record(0, "2H", 8, (False, True))  # 120 total: game, NS not vulnerable: 300
    assert e2.above == [300, 0]
    s.record(1, "1NT", 7, (True, False))
    e4 = s.record(1, "2C", 8, (True, True))  # 40 + 40 = 80: fourth-deal partscore +100
    assert e4.above == [0, 100] and s.over


def test_chicago_match_four_deals_and_redeal() -> None:
    g = trumps.new_game("bridge", options={"scoring": "chicago"}, seed=2, dealer="N")
    for c in ["P", "P", "P", "P"]:
        g.apply(c)
    assert g.results[0]["passed_out"] and g.deal.dealer == 0  # same dealer redeals
    rng = random.Random(1)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(
            legal[1] if g.deal.phase == "AUCTION" and len(g.deal.auction.calls) == 0 else rng.choice(legal)
        )
    counted = [r for r in g.results if not r["passed_out"]]
    assert len(counted) == 4


def test_clone_does_not_share_the_sheet() -> None:
    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=3, dealer="N")
    for c in ["4S", "P", "P", "P"]:
        g.apply(c)
    c = g.clone()
    while c.deal_number == 0:
        c.apply(c.legal_actions()[0])
    assert c.scores != [0, 0] and g.scores == [0, 0]
    assert g.rubber is not None and not g.rubber.entries  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "deal,contract,declarer,side,points",
    [
        ("N:AKQJ.AKQ.AK2.432 T98765.J.QJ.T987 2.T98765.T98.AKQ -", "4S", "S", "NS", 100),
        ("N:KQJ.KQJ.KQJ.KQJT 9876.T98.T98.987 5432.765.765.654 -", "3NT", "N", "EW", 150),
    ],
)
def test_honors_in_rubber_game(deal: str, contract: str, declarer: str, side: str, points: int) -> None:
    g = trumps.new_game(
        "bridge", options={"scoring": "rubber"}, deal=deal, dealer="N", contract=contract, declarer=declarer
    )
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    items = g.results[0]["sheet"]["items"]
    assert {"side": side, "what": "honors", "points": points} in items
