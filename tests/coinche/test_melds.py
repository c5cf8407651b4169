"""Melds (coinche.md §7, §18.6), data-driven from melds.json."""

from __future__ import annotations

from typing import Any

import pytest

from trumps.coinche.calls import parse_denom
from trumps.coinche.melds import Declaration, Meld, announcements, declarations, find_melds, meld_winner
from trumps.coinche.options import resolve_options
from trumps.core.cards import parse_cards
from trumps.core.errors import ParseError

from .conftest import load

DATA = load("melds.json")
SEATS = "NESW"


@pytest.mark.parametrize("case", DATA["comparisons"], ids=[c["name"] for c in DATA["comparisons"]])
def test_comparison(case: dict[str, Any]) -> None:
    o = resolve_options("seed", case.get("options"))
    denom = parse_denom(case["trump"])
    trump = denom if denom < 4 else -1
    committed = [(SEATS.index(s), Declaration.parse(d)) for s, d in case["committed"]]
    team = meld_winner(committed, trump, o.meld_equal_value, o.meld_tie_rule)
    assert team == case["winner"]
    points = [0, 0]
    if team is not None:
        points[team] = sum(d.value for s, d in committed if s % 2 == team)
    assert points == case["points"]
    if "announcements" in case:
        got = announcements(committed, trump, o.meld_equal_value)
        named = [
            {
                "seat": SEATS[a["seat"]],
                "value": a["value"],
                **({"how_high": {SEATS[k]: v for k, v in a["how_high"].items()}} if "how_high" in a else {}),
            }
            for a in got
        ]
        assert named == case["announcements"]


@pytest.mark.parametrize("case", DATA["hands"], ids=[c["name"] for c in DATA["hands"]])
def test_hand_melds(case: dict[str, Any]) -> None:
    o = resolve_options("seed", case.get("options"))
    hand = parse_cards(case["hand"])
    melds = find_melds(hand, o.card_in_multiple_melds, o.long_run_split)
    assert [str(m) for m in melds] == case["melds"]
    if "values" in case:
        assert [m.value for m in melds] == case["values"]
    decls = [str(d) for d in declarations(hand, o.card_in_multiple_melds, o.long_run_split)]
    assert decls[-1] == "MELD:-"
    for d in case.get("declarations_include", []):
        assert d in decls
    for d in case.get("declarations_exclude", []):
        assert d not in decls


def test_meld_notation_round_trip() -> None:
    for text in ("AKQH", "QJT9D", "JJJJ", "AKQJT987C"):
        assert str(Meld.parse(text)) == text
    assert str(Declaration.parse("meld:akqh,jjjj")) == "MELD:JJJJ,AKQH"  # canonical order
    for bad in ("AKH", "8888", "AQJH", "MELD"):
        with pytest.raises(ParseError):
            Declaration.parse(bad if bad.startswith("MELD") else f"MELD:{bad}")
