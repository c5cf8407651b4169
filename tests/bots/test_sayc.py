"""The natural bidding system: specific hands and auctions -> calls."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.bots.registry import bot_for
from trumps.bots.sayc import RULES, HandInfo, SaycBot, choose_call
from trumps.bots.selfplay import step

ALL = ["P", "X", "XX"] + [f"{lv}{s}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")]


def _legal(auction: list[tuple[str, str]]) -> list[str]:
    """Calls above the last bid (doubles allowed: the rules decide)."""
    last = -1
    for _, c in auction:
        if c[0].isdigit():
            last = ALL.index(c)
    return ["P", "X", "XX"] + [c for c in ALL[3:] if ALL.index(c) > last]


def call_for(hand: str, auction: list[tuple[str, str]], seat: str = "S") -> tuple[str, str]:
    view: dict[str, Any] = {
        "seat": seat,
        "hands": {seat: hand.split()},
        "auction": [{"seat": s, "call": c} for s, c in auction],
        "vulnerable": "None",
    }
    return choose_call(view, _legal(auction))


@pytest.mark.parametrize(
    ("hand", "auction", "expected"),
    [
        # openings
        ("AS KS 3S 2S AH 4H 3H KD 5D 4D 3D QC 2C", [], "1NT"),  # 15 balanced
        ("AS KS QS 3S 2S AH 4H 3H 5D 4D 3D 3C 2C", [], "1S"),  # 13, five spades
        ("AS KS 3S 2S AH KH QH 3H KD 5D 4D QC 2C", [], "2NT"),  # 21 balanced
        ("AS 9S 3S 2S AH KH 5H 3H 5D 4D 3D QC 2C", [], "1D"),  # 13, 4-4 majors, 3-2 minors
        ("AS KS QS JS TS 9S 4H 3H 2D 5D 4D 3C 2C", [], "2S"),  # weak two
        ("AS KS QS AH KH QH AD KD QD 4D 3D 3C 2C", [], "2C"),  # 24
        ("AS KS 3S AH KH 4H AD QD 4D 3D JC 3C 2C", [], "2NT"),  # 20 balanced
        ("KS QS JS TS 9S 8S 7S 4H 3H 2D 3C 2C 4C", [], "3S"),  # seven-card preempt
        ("AS 3S 2S KH 4H 3H KD 5D 4D 3D QC 3C 2C", [], "1D"),  # 12, 3-3-4-3
        ("AS 3S 2S KH 4H 3H KD 5D 4D QC 4C 3C 2C", [], "1C"),  # 12, four clubs longer
        ("5S 3S 2S 7H 4H 3H KD 5D 4D QC 4C 3C 2C", [], "P"),
        # 1NT responses
        ("KS QS 3S 2S 5H 4H 3H KD 5D 4D 3D 3C 2C", [("N", "1NT"), ("E", "P")], "2C"),
        ("KS QS JS 3S 2S 4H 3H 5D 4D 3D 2D 3C 2C", [("N", "1NT"), ("E", "P")], "2H"),
        ("KS 3S 2S QH JH 4H 3H 2H 4D 3D 2D 3C 2C", [("N", "1NT"), ("E", "P")], "2D"),
        ("KS 3S 2S QH 4H 3H QD 4D 3D 2D QC 3C 2C", [("N", "1NT"), ("E", "P")], "2NT"),  # 9 flat
        ("KS 3S 2S QH 4H 3H KD 4D 3D 2D AC 3C 2C", [("N", "1NT"), ("E", "P")], "3NT"),  # 12 flat
        ("5S 3S 2S 7H 4H 3H KD 5D 4D QC 4C 3C 2C", [("N", "1NT"), ("E", "P")], "P"),
        # opener answers
        ("AS KS 3S 2S AH 4H 3H KD 5D 4D 3D QC 2C", [("S", "1NT"), ("W", "P"), ("N", "2C"), ("E", "P")], "2S"),
        ("AS KS 3S AH 4H 3H 2H KD 5D 4D QC 3C 2C", [("S", "1NT"), ("W", "P"), ("N", "2C"), ("E", "P")], "2H"),
        ("AS KS 3S AH 4H 3H KD 5D 4D 2D QC 3C 2C", [("S", "1NT"), ("W", "P"), ("N", "2C"), ("E", "P")], "2D"),
        ("AS KS 3S AH 4H 3H KD 5D 4D 2D QC 3C 2C", [("S", "1NT"), ("W", "P"), ("N", "2D"), ("E", "P")], "2H"),
        ("AS KS 3S AH 4H 3H KD 5D 4D 2D QC 3C 2C", [("S", "1NT"), ("W", "P"), ("N", "2H"), ("E", "P")], "2S"),
        # responses to one of a suit
        ("KS 3S 2S QH 4H 3H 9D 4D 3D 2D QC 3C 2C", [("N", "1S"), ("E", "P")], "2S"),  # 7, support
        ("KS 3S 2S QH 4H 3H AD 4D 3D 2D QC 3C 2C", [("N", "1S"), ("E", "P")], "3S"),  # 11, limit
        ("KS 3S 2S AH 4H 3H AD 4D 3D 2D QC 3C 2C", [("N", "1S"), ("E", "P")], "4S"),  # 15
        ("3S 2S KH QH 4H 3H 9D 4D 3D 2D QC 3C 2C", [("N", "1D"), ("E", "P")], "1H"),
        ("3S 2S KH 5H 4H KD 4D 3D 2D QC 3C 2C 4C", [("N", "1S"), ("E", "P")], "1NT"),
        ("3S 2S 4H 3H 9D 4D 3D 2D QC 3C 2C 4C 5C", [("N", "1S"), ("E", "P")], "P"),
        # competition
        ("AS KS QS 3S 2S 4H 3H KD 5D 4D 3C 2C 4C", [("E", "1H")], "1S"),  # overcall
        ("AS KS 3S 2S AH KH 4H 3H 5D KC QC 3C 2C", [("E", "1D")], "X"),  # takeout double
        ("KS QS 3S 2S 4H 3H KD 5D 4D 3D 2C 3C 4C", [("N", "1D"), ("E", "2C")], "X"),  # negative
        # Blackwood answers
        (
            "AS 3S 2S AH 4H 3H 5D 4D 3D 2D 2C 3C 4C",
            [("N", "1S"), ("E", "P"), ("S", "3S"), ("W", "P"), ("N", "4NT"), ("E", "P")],
            "5H",
        ),
    ],
)
def test_calls(hand: str, auction: list[tuple[str, str]], expected: str) -> None:
    assert call_for(hand, auction)[0] == expected


def test_rule_names_are_reported() -> None:
    assert call_for("KS QS JS 3S 2S 4H 3H 5D 4D 3D 2D 3C 2C", [("N", "1NT"), ("E", "P")]) == (
        "2H",
        "1NT/2NT: transfers and Stayman",
    )
    assert next(name for name, _ in RULES) == "opening"


def test_hand_info() -> None:
    h = HandInfo.of(["AS", "KS", "3S", "2S", "AH", "4H", "3H", "KD", "5D", "4D", "3D", "QC", "2C"])
    assert (h.hcp, h.aces, h.balanced) == (16, 2, True)
    assert h.longest() == "S"


def test_blackwood_slam_placement() -> None:
    # South asked with 4NT after a spade fit; North showed two aces.
    hand = "AS KS QS 3S 2S AH KH 3H KD 5D 3C 2C 4C"
    auction = [
        ("S", "1S"),
        ("W", "P"),
        ("N", "3S"),
        ("E", "P"),
        ("S", "4NT"),
        ("W", "P"),
        ("N", "5H"),
        ("E", "P"),
    ]
    assert call_for(hand, auction)[0] == "6S"
    auction[-2] = ("N", "5C")
    assert call_for(hand, auction)[0] == "5S"


def test_whole_auctions_end_legally() -> None:
    for seed in range(1, 40):
        m = trumps.new_game("bridge", seed=seed)
        bots = [SaycBot(), bot_for("bridge", "rules")] * 2
        rng = random.Random(seed)
        while not m.results and m.to_act_index is not None:
            step(m, bots[m.to_act_index], rng)
        assert m.results
