"""The auction (coinche.md §4, §18.3), data-driven from auctions.json, run
through the whole engine under every preset that allows the calls."""

from __future__ import annotations

from typing import Any

import pytest

import trumps
from trumps.coinche.calls import Call, Contract
from trumps.core.errors import IllegalAction, ParseError

from .conftest import PRESETS, load

CASES = load("auctions.json")["cases"]


def _game(options: dict[str, Any] | None = None, preset: str = "common") -> trumps.Match[Any]:
    return trumps.new_game("coinche", preset=preset, options=options, seed=5, dealer="E")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_auction_case(case: dict[str, Any], preset: str) -> None:
    options = dict(case.get("options", {}))
    if any("NT" in c or "AT" in c for c in case["calls"]):
        options.setdefault("allow_no_trump", True)
        options.setdefault("allow_all_trump", True)
    g = _game(options, preset)
    seats = case.get("seats")
    for i, call in enumerate(case["calls"]):
        seat = seats[i] if seats else None
        g.apply(call, seat)
    if "illegal" in case:
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(case["illegal"])
        assert g.to_json() == before
    if "to_act" in case:
        assert g.to_act_index == g.seat(case["to_act"])
    if "contract" not in case:
        return
    if case["contract"] is None:
        assert g.results[-1]["thrown_in"]
        assert g.deal_number == 1 and g.dealer == g.seat("N")  # anticlockwise: the deal passes to E's right
    else:
        taker, contract = case["contract"]
        assert g.deal.phase == "PLAY"
        assert str(g.deal.contract) == contract
        assert g.seat_name(g.deal.taker) == taker
        assert g.to_act_index == g.seat("N")  # eldest leads, not the taker


def test_thrown_in_dealer_rotates_in_play_direction() -> None:
    g = _game()
    for _ in range(4):
        g.apply("P")
    assert g.dealer == (g.seat("E") + 3) % 4
    c = trumps.new_game("coinche", preset="common", options={"direction": "clockwise"}, seed=5, dealer="E")
    assert c.to_act_index == c.seat("S")
    for _ in range(4):
        c.apply("P")
    assert c.dealer == c.seat("S") and c.to_act_index == c.seat("W")


def test_surcoinche_window_skips_defenders() -> None:
    g = _game()
    g.apply("100H", "N")
    g.apply("X", "W")
    assert g.to_act_index == g.seat("S") and [str(a) for a in g.legal_actions()] == ["P", "XX"]
    g.apply("P")
    assert g.to_act_index == g.seat("N")


def test_closed_auction_has_no_bids_for_anyone() -> None:
    g = _game()
    g.apply("100H")
    g.apply("X")
    assert not any(str(a)[0].isdigit() for a in g.legal_actions())


@pytest.mark.parametrize("text", ["9" * 5000 + "H", "9" * 5000 + "0H", "1" * 400 + "0S", "10000H", "99990NT"])
def test_a_bid_with_too_many_digits_is_a_parse_error(text: str) -> None:
    """Python's int() refuses more than 4,300 digits with a plain
    ValueError; a bid has at most four (and 10000 would rank as a capot)."""
    with pytest.raises(ParseError, match="not a coinche call"):
        Call(text)
    with pytest.raises(ParseError, match="not a coinche call"):
        Contract.parse(text + "X")
    g = _game()
    with pytest.raises(ParseError):
        g.apply(text)
    assert g.log == []


def test_bids_of_up_to_four_digits_still_read() -> None:
    assert str(Call("0080H")) == "80H" and Call("9990AT").value == 9990 and Call("160S").rank == 160
