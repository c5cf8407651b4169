"""Duplicate scoring, undertricks, IMPs, boards and honours (bridge.md §4,
§5, §7.2, §7.4, §10 items 6-8, 10), data-driven from tests/data/bridge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import trumps.bridge as bridge
from trumps.bridge.calls import STRAIN_TRUMP, Contract, parse_strain
from trumps.bridge.hands import parse_deal
from trumps.bridge.scoring import (
    board_dealer,
    board_vulnerability,
    contract_points,
    honors,
    undertrick_penalty,
)
from trumps.core.errors import ParseError

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"


def load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("ex", load("duplicate_scores.json")["examples"], ids=lambda e: f"ex{e['n']}")
def test_worked_examples(ex: dict[str, Any]) -> None:
    assert bridge.score(ex["contract"], vulnerable=ex["vul"], tricks=ex["tricks"]) == ex["score"]


@pytest.mark.parametrize("row", load("duplicate_scores.json")["trick_points"], ids=lambda r: r["contract"])
def test_trick_points(row: dict[str, Any]) -> None:
    assert contract_points(Contract.parse(row["contract"])) == row["points"]


_UT = load("undertricks.json")


@pytest.mark.parametrize("row", _UT["cumulative"]["rows"], ids=lambda r: f"down{r[0]}")
def test_undertrick_cumulative_table(row: list[int]) -> None:
    down, *values = row
    cells = [(False, 0), (False, 1), (False, 2), (True, 0), (True, 1), (True, 2)]
    for (vul, risk), want in zip(cells, values, strict=True):
        assert undertrick_penalty(risk, vul, down) == want
        level = 7
        contract = f"{level}S" + ("", "X", "XX")[risk]
        assert bridge.score(contract, vulnerable=vul, tricks=13 - down) == -want


def test_undertrick_per_trick_table() -> None:
    cells = [(True, 0), (True, 1), (True, 2), (False, 0), (False, 1), (False, 2)]
    per = _UT["per_trick"]
    for i, (vul, risk) in enumerate(cells):
        for down in range(1, 8):
            step = undertrick_penalty(risk, vul, down) - undertrick_penalty(risk, vul, down - 1)
            key = "1st" if down == 1 else "2nd_3rd" if down <= 3 else "4th_on"
            assert step == per[key][i], (vul, risk, down)


_IMPS = load("imps.json")


@pytest.mark.parametrize("rng", _IMPS["ranges"], ids=lambda r: f"{r[0]}-{r[1]}")
def test_imp_scale_ranges(rng: list[int]) -> None:
    lo, hi, want = rng
    for diff in range(lo, hi + 1, 10):
        assert bridge.imps(diff) == want
        assert bridge.imps(-diff) == -want


@pytest.mark.parametrize("ex", _IMPS["examples"], ids=str)
def test_imp_examples(ex: list[int]) -> None:
    assert bridge.imps(ex[0]) == ex[1]


def test_team_imp_example() -> None:
    from trumps.bridge.duplicate import team_imps

    t = _IMPS["team_example"]
    a = bridge.score("4S", vulnerable=True, tricks=11)
    b = bridge.score("4S", vulnerable=True, tricks=10)
    assert (a, b) == (t["a_ns_table1"], t["b_ns_table2"])
    assert team_imps(a, b) == t["imps_to_a"]


@pytest.mark.parametrize("row", load("boards.json")["boards"], ids=lambda r: f"board{r[0]}")
def test_board_dealer_and_vulnerability(row: list[Any]) -> None:
    board, dealer, vul = row
    assert "NESW"[board_dealer(board)] == dealer
    assert board_vulnerability(board) == vul


def test_board_zero_is_rejected() -> None:
    with pytest.raises(ParseError):
        board_dealer(0)


@pytest.mark.parametrize("case", load("honors.json")["cases"], ids=lambda c: c["name"])
def test_honors(case: dict[str, Any]) -> None:
    hands = parse_deal(case["deal"])
    seat, points = honors(hands, STRAIN_TRUMP[parse_strain(case["strain"])])
    assert points == case["points"]
    assert (None if seat < 0 else "NESW"[seat]) == case["seat"]


@pytest.mark.parametrize(
    "text,want",
    [("4HX", "4HX"), ("3n", "3NT"), ("7SXX", "7SXX"), ("1NT", "1NT"), ("2D", "2D"), ("6c*", "6CX")],
)
def test_contract_strings(text: str, want: str) -> None:
    assert str(Contract.parse(text)) == want


@pytest.mark.parametrize("bad", ["8S", "0H", "4Z", "", "NT", "4HXXX"])
def test_bad_contracts(bad: str) -> None:
    with pytest.raises(ParseError):
        bridge.score(bad, vulnerable=False, tricks=7)


def test_bad_trick_count() -> None:
    with pytest.raises(ParseError):
        bridge.score("3NT", vulnerable=False, tricks=14)
