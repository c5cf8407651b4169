"""Deal scoring (coinche.md §11–§13, §16, §18.7, §18.9, §20) for every
preset, data-driven from scoring.json, plus the end-of-game rules (§14)."""

from __future__ import annotations

from typing import Any

import pytest

from trumps.coinche.options import resolve_options
from trumps.coinche.scoring import game_end, round_points, score
from trumps.core.errors import TrumpsError

from .conftest import PRESETS, load

CASES = load("scoring.json")["cases"]
ROWS = [(c, p, e) for c in CASES for p, e in c["expect"].items()]


@pytest.mark.parametrize(("case", "preset", "expected"), ROWS, ids=[f"{c['name']}-{p}" for c, p, _ in ROWS])
def test_worked_score(case: dict[str, Any], preset: str, expected: list[Any]) -> None:
    got = score(
        case["contract"],
        case["points"],
        preset=preset,
        options=case.get("options"),
        taker_tricks=case.get("taker_tricks"),
        alone=case.get("alone"),
        belote_taker=case.get("belote_taker", 0),
        belote_defence=case.get("belote_defence", 0),
        melds_taker=case.get("melds_taker", 0),
        melds_defence=case.get("melds_defence", 0),
    )
    assert [got["taker"], got["defence"], got["made"]] == expected


def test_every_preset_is_pinned_by_the_worked_examples() -> None:
    for p in PRESETS:
        assert sum(1 for c in CASES if p in c["expect"]) >= 15, p


def test_rounding_checks() -> None:
    assert [round_points(x, "nearest") for x in (84, 85, 112, 67)] == [80, 90, 110, 70]
    assert [round_points(x, "down") for x in (67, 119)] == [60, 110]
    assert round_points(67, "none") == 67


def test_calculator_rejects_impossible_input() -> None:
    with pytest.raises(TrumpsError):
        score("100H", 170)
    with pytest.raises(TrumpsError):
        score("100H", 100, defence_points=50)
    with pytest.raises(TrumpsError):
        score("100H", 100, melds_taker=20, melds_defence=20)
    with pytest.raises(TrumpsError):
        score("100H", 100, belote_taker=10)


@pytest.mark.parametrize(
    ("options", "totals", "contract_winner", "expected"),
    [
        ({}, [990, 400], 0, (False, None)),
        ({}, [1000, 400], 0, (True, 0)),
        ({}, [1010, 1020], 0, (True, 1)),
        ({}, [1010, 1010], 0, (False, None)),
        ({"target_rule": "exceed"}, [1000, 400], 0, (False, None)),
        ({"target_rule": "exceed"}, [1001, 400], 0, (True, 0)),
        ({"both_over_target_rule": "contract_winner"}, [1010, 1020], 0, (True, 0)),
        ({"both_over_target_rule": "contract_winner"}, [1010, 900], 1, (True, 0)),
        ({"target_score": 2000}, [1500, 1990], 1, (False, None)),
    ],
)
def test_game_end(
    options: dict[str, Any], totals: list[int], contract_winner: int, expected: tuple[bool, int | None]
) -> None:
    assert game_end(resolve_options("common", options), totals, contract_winner) == expected


@pytest.mark.parametrize(
    ("preset", "target"),
    [("seed", 1000), ("common", 1000), ("ffb_2016", 2000), ("contree_exact", 2000), ("pagat", 1000)],
)
def test_preset_targets(preset: str, target: int) -> None:
    o = resolve_options(preset)
    assert game_end(o, [target - 10, 0], 0) == (False, None)
    assert game_end(o, [target, 0], 0) == (True, 0)
