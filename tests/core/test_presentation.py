"""The presentation each game gives a card table: every call that can ever be
legal is on its bidding box once, with a label and a spelled-out name; the
words follow the variant; the contract in the view says what it needs."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.coinche.options import SCHEMA as COINCHE

CASES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("500", "american", {}),
    ("500", "australian", {}),
    ("500", "american", {"players": "2v2v2", "inkle_seats": 3}),
    ("500", "australian", {"players": "3v3", "nullo_mode": "off"}),
    ("500", "australian", {"breach_enabled": True}),
    ("bridge", None, {}),
    ("bridge", None, {"scoring": "rubber"}),
    *[("coinche", p, {}) for p in COINCHE.presets],
    ("coinche", None, {"max_numeric_bid": 180, "allow_generale_bid": True}),
]


def box_calls(pres: dict[str, Any]) -> list[str]:
    box = pres["box"]
    out = [c for r in box["rows"] for c in r["calls"] if c]
    out += [s["call"] for s in box["side"]]
    out += (box["popup"] or {}).get("calls", []) + (box["inkles"] or {}).get("calls", [])
    return out


@pytest.mark.parametrize(("game", "preset", "options"), CASES)
def test_every_legal_call_is_on_the_box_once(game: str, preset: str | None, options: dict[str, Any]) -> None:
    pres = trumps.new_game(game, preset=preset, options=options, seed=0).presentation()
    calls = box_calls(pres)
    assert len(calls) == len(set(calls))
    assert set(calls) <= set(pres["labels"]) and set(calls) <= set(pres["names"])
    names = [pres["names"][c] for c in calls]
    assert len(names) == len(set(names)), "every call is named apart"
    rng = random.Random(7)
    for seed in range(25):
        m = trumps.new_game(game, preset=preset, options=options, seed=seed)
        while not m.is_over and m.deal_number < 1:
            if m.phase in ("AUCTION", "BREACH"):
                assert {str(a) for a in m.legal_actions()} <= set(calls), m.phase
            m.apply(rng.choice(m.legal_actions()))


def test_the_words_follow_the_variant() -> None:
    am = trumps.new_game("500", preset="american", seed=0).presentation()
    au = trumps.new_game("500", preset="australian", seed=0).presentation()
    assert (
        am["names"]["MIS"] == "nullo"
        and am["names"]["OMIS"] == "open nullo"
        and am["terms"]["kitty"] == "widow"
    )
    assert (
        au["names"]["MIS"] == "misère"
        and au["names"]["OMIS"] == "open misère"
        and au["terms"]["kitty"] == "kitty"
    )
    assert am["box"]["inkles"] and au["box"]["inkles"] is None
    assert am["names"]["7H"] == "seven hearts" and am["box"]["popup"]["calls"] == ["MIS", "OMIS"]
    br = trumps.new_game("bridge", seed=0).presentation()
    assert (
        br["names"]["1C"] == "one club"
        and br["names"]["7NT"] == "seven no trump"
        and br["names"]["XX"] == "redouble"
    )
    assert [c["key"] for c in br["box"]["columns"]] == ["C", "D", "H", "S", "NT"]
    co = trumps.new_game("coinche", preset="contree_exact", seed=0).presentation()
    assert [c["key"] for c in co["box"]["columns"]] == ["S", "H", "D", "C"]  # no NT / AT in this preset
    assert co["labels"]["X"] == "Coinche" and co["labels"]["XX"] == "Surcoinche"
    big = trumps.new_game("coinche", options={"max_numeric_bid": 180}, seed=0).presentation()
    assert [r["label"] for r in big["box"]["rows"]][-3:] == ["170", "180", "Capot"]


@pytest.mark.parametrize(
    ("game", "options", "contract", "goal"),
    [
        ("bridge", {}, "4HX", {"unit": "tricks", "need": 10}),
        ("500", {}, "8S", {"unit": "tricks", "need": 8, "misere": False}),
        ("500", {}, "OMIS", {"unit": "tricks", "need": 0, "misere": True}),
        (
            "coinche",
            {"min_82_for_80": True, "must_beat_opponents": False},
            "80H",
            {"unit": "points", "need": 82, "beat_opponents": False},
        ),
        ("coinche", {}, "CAPOT-S", {"unit": "tricks", "need": 8}),
    ],
)
def test_the_contract_says_what_it_needs(
    game: str, options: dict[str, Any], contract: str, goal: dict[str, Any]
) -> None:
    m = trumps.new_game(game, options=options, seed=1, contract=contract, declarer="N")
    assert m.view(None)["contract"]["goal"] == goal


def test_a_finished_500_deal_shows_its_kitty_and_discards() -> None:
    rng = random.Random(3)
    for seed in range(10):
        m = trumps.new_game("500", seed=seed)
        while m.deal_number < 1 and not m.is_over:
            if m.phase == "KITTY" and not m.view(m.to_act_index).get("discards"):
                kitty = sorted(m.view(m.to_act_index)["kitty"])
            m.apply(rng.choice(m.legal_actions()))
        r = m.results[0]
        assert sorted(r["kitty"]) == sorted(m.deal_records[0]["kitty"])
        if r["contract"] and not r["thrown_in"]:
            assert len(r["discards"]) == 3
            assert sorted(kitty) == sorted(r["kitty"])
