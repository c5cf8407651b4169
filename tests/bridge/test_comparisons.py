"""Matchpoints, Neuberg, cross-IMPs, Butler and a session summary (§7.3, §7.4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trumps.bridge.duplicate import (
    BoardResult,
    butler_imps,
    cross_imps,
    ew_matchpoints,
    matchpoints,
    neuberg,
    percentages,
    session_summary,
)
from trumps.bridge.scoring import imps

DATA = Path(__file__).resolve().parents[1] / "data" / "bridge"
_MP = json.loads((DATA / "matchpoints.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("board", _MP["boards"], ids=lambda b: str(b["scores"]))
def test_matchpoints(board: dict[str, Any]) -> None:
    n = len(board["scores"])
    mp = matchpoints(board["scores"])
    assert mp == board["mp"]
    assert sum(mp) == n * (n - 1)
    assert matchpoints(board["scores"], "1_half") == board["mp_half"]
    assert ew_matchpoints(board["scores"]) == board["ew_mp"]


def test_percentages() -> None:
    assert percentages([8, 5, 0], 8) == [100.0, 62.5, 0.0]


@pytest.mark.parametrize("case", _MP["neuberg"])
def test_neuberg(case: dict[str, Any]) -> None:
    assert neuberg(case["mp"], case["n"], case["N"]) == pytest.approx(case["factored"])


def test_cross_imps_are_antisymmetric_and_average() -> None:
    scores = [620, 170, -100, 620]
    xi = cross_imps(scores)
    assert sum(xi) == pytest.approx(0)
    assert xi[0] == pytest.approx((10 + 12 + 0) / 3)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-7600, 7600).map(lambda x: x * 10), max_size=40))
def test_cross_imps_equal_imping_every_pair(scores: list[int]) -> None:
    n = len(scores)
    by_pairs = [
        sum(imps(s - t) for j, t in enumerate(scores) if j != i) / (n - 1) if n > 1 else 0.0
        for i, s in enumerate(scores)
    ]
    assert cross_imps(scores) == pytest.approx(by_pairs)


def test_butler_datum() -> None:
    # trimmed mean of 420 420 400 -> 413 -> datum 410
    assert butler_imps([1430, 420, 420, 400, -100]) == [14, 0, 0, 0, -11]


def test_session_summary_ranks_pairs() -> None:
    rows = [
        BoardResult(1, "A", "B", 420),
        BoardResult(1, "C", "D", 450),
        BoardResult(2, "A", "B", -100),
        BoardResult(2, "C", "D", -100),
    ]
    summary = session_summary(rows)
    by = {s.pair: s for s in summary}
    assert by["C"].matchpoints == 3 and by["C"].top == 4
    assert by["B"].percentage == pytest.approx(75.0)
    assert summary[0].pair in ("B", "C")
    assert by["A"].matchpoints + by["B"].matchpoints == 4
