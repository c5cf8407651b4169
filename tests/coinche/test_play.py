"""Card order, card points and the legal-card obligations (coinche.md §2,
§5, §18.1-2, §18.4), data-driven from legality.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from trumps.coinche.calls import parse_denom
from trumps.coinche.options import resolve_options
from trumps.coinche.play import rules_for
from trumps.core.cards import Card, parse_cards
from trumps.core.decks import deck_coinche

from .conftest import PRESETS, load

CASES = load("legality.json")["cases"]
VECTORS = [(c, k, v) for c in CASES for k, v in c["legal"].items()]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("case", "override", "expected"), VECTORS, ids=[f"{c['name']}{k}" for c, k, _ in VECTORS]
)
def test_legality_vector(preset: str, case: dict[str, Any], override: str, expected: list[str]) -> None:
    options = json.loads(override)
    if preset == "contree_exact":  # its free under-trump is pinned by its own test below
        options.setdefault("must_undertrump", True)
    o = resolve_options(preset, options)
    r = rules_for(parse_denom(case["denom"]), o)
    trick = [Card(c) for _, c in case["trick"]]
    led = trick[0].index // 16
    best = max(range(len(trick)), key=lambda i: (r.strength(trick[i], led), -i))
    pw = case["trick"][best][0] == "partner"
    got = r.legal(parse_cards(case["hand"]), trick, best, pw)
    assert [str(c) for c in got] == expected


def test_contree_exact_has_free_undertrump() -> None:
    o = resolve_options("contree_exact")
    r = rules_for(1, o)
    trick = parse_cards("AC TC JH")
    assert [str(c) for c in r.legal(parse_cards("9H 8H KD"), trick, 2, False)] == ["9H", "8H", "KD"]


def test_deck_and_orders() -> None:
    deck = deck_coinche()
    assert len(deck) == 32 and len(set(deck)) == 32
    r = rules_for(0, resolve_options("common"))
    spades = [c for c in deck if c.index // 16 == 0]
    hearts = [c for c in deck if c.index // 16 == 1]
    assert "".join(c.rank_code for c in sorted(spades, key=lambda c: -r.power[c.index])) == "J9ATKQ87"
    assert "".join(c.rank_code for c in sorted(hearts, key=lambda c: -r.power[c.index])) == "ATKQJ987"


@pytest.mark.parametrize("preset", PRESETS)
def test_totals(preset: str) -> None:
    o = resolve_options(preset)
    deck = deck_coinche()
    for denom in range(6):
        r = rules_for(denom, o)
        assert sum(r.points[c.index] for c in deck) == 152 and r.total == 162
    plain = resolve_options(preset, {"nt_values": "plain", "at_values": "trump62"})
    assert rules_for(4, plain).total == 130 and rules_for(5, plain).total == 258


def test_point_tables() -> None:
    o = resolve_options("common")
    pts = {d: rules_for(d, o).points for d in range(6)}
    jack_s, ace_s, nine_s = Card("JS").index, Card("AS").index, Card("9S").index
    assert (pts[0][jack_s], pts[0][nine_s], pts[0][ace_s]) == (20, 14, 11)
    assert (pts[1][jack_s], pts[1][nine_s], pts[1][ace_s]) == (2, 0, 11)
    assert (pts[4][ace_s], pts[4][jack_s]) == (19, 2)
    assert (pts[5][jack_s], pts[5][nine_s], pts[5][ace_s], pts[5][Card("QS").index]) == (14, 9, 6, 1)


def test_trick_winner_by_contract() -> None:
    o = resolve_options("common")
    trick = parse_cards("KS AS 7H JD")

    def win(denom: int) -> str:
        r = rules_for(denom, o)
        led = trick[0].index // 16
        return str(max(trick, key=lambda c: r.strength(c, led)))

    assert win(1) == "7H"  # trump hearts: the 7 of trumps
    assert win(2) == "JD"  # trump diamonds
    assert win(3) == "AS"  # clubs trumps: none played, highest spade
    assert win(4) == "AS"  # no-trump
    r = rules_for(5, o)
    assert str(max(parse_cards("9S JH AS"), key=lambda c: r.strength(c, 0))) == "9S"  # all-trump
