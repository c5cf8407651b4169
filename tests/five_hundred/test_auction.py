"""The 500 auction (five_hundred.md §5.3-§5.5, §16 items 4-6)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.core.errors import IllegalAction, OptionError

SUITS = ["S", "C", "D", "H", "NT"]
INKLES = [f"i6{d}" for d in SUITS]


def bids(levels: range) -> list[str]:
    return [f"{lv}{d}" for lv in levels for d in SUITS]


def ordered(*parts: list[str]) -> list[str]:
    out: list[str] = []
    for p in parts:
        out += p
    return out


# Default ranks: MIS sits between 7NT and 8S, OMIS between 10H and 10NT.
AMERICAN_FIRST = ordered(
    ["P"],
    INKLES,
    bids(range(7, 8)),
    ["MIS"],
    bids(range(8, 10)),
    ["10S", "10C", "10D", "10H", "OMIS", "10NT"],
)
AMERICAN_LATE = ordered(
    ["P"], bids(range(7, 8)), ["MIS"], bids(range(8, 10)), ["10S", "10C", "10D", "10H", "OMIS", "10NT"]
)
AUSTRALIAN_FIRST = ordered(["P"], bids(range(6, 10)), ["10S", "10C", "10D", "10H", "OMIS", "10NT"])


def new(h: Any, options: dict[str, Any] | None = None, preset: str = "american") -> Any:
    six = (options or {}).get("players", "2v2") != "2v2"
    return h.new(options, preset=preset, seed=3, dealer="5" if six else "W")


# ----- American ---------------------------------------------------------------------
def test_american_exact_legal_calls(h: Any) -> None:
    g = new(h)
    assert g.to_act == "N"
    assert h.legal(g) == AMERICAN_FIRST
    g.apply("6H")  # a 6-level bid by one of the first two speakers is an inkle
    assert g.history() == [("N", "i6H")]
    assert h.legal(g) == ordered(["P", "i6NT"], AMERICAN_LATE[1:])
    g.apply("P")
    # third and fourth speakers: no 6-level bids at all
    assert h.legal(g) == AMERICAN_LATE
    with pytest.raises(IllegalAction, match="6 level"):
        g.apply("6NT")
    g.apply("7C")
    assert h.legal(g) == ordered(["P", "7D", "7H", "7NT", "MIS"], AMERICAN_LATE[7:])


def test_american_inkles_only_is_thrown_in_and_dealer_rotates(h: Any) -> None:
    g = new(h)
    h.play(g, "6H P P P")  # §16.5
    assert g.deal_number == 1 and g.seat_name(g.dealer) == "N"
    assert g.results[0]["thrown_in"] is True and g.results[0]["contract"] is None
    assert g.scores == [0, 0]
    assert g.to_act == "E"  # eldest of the new dealer
    h.play(g, "P P P P")
    assert g.seat_name(g.dealer) == "E" and g.to_act == "S"


def test_american_each_player_speaks_once(h: Any) -> None:
    g = new(h)
    h.play(g, "P 7S P P")
    assert g.phase == "KITTY"
    assert g.deal.contract is not None and str(g.deal.contract) == "7S"
    assert g.seat_name(g.deal.contractor) == "E"


def test_american_inkle_does_not_win_over_later_seven(h: Any) -> None:
    g = new(h)
    h.play(g, "6H 6NT P 7S")
    assert str(g.deal.contract) == "7S" and g.seat_name(g.deal.contractor) == "W"


def test_inkles_must_outrank_true(h: Any) -> None:
    g = new(h)
    g.apply("6D")
    assert [c for c in h.legal(g) if c.startswith("i")] == ["i6H", "i6NT"]
    with pytest.raises(IllegalAction):
        g.apply("6S")


def test_inkles_must_outrank_false(h: Any) -> None:
    g = new(h, {"inkles_must_outrank": False})
    g.apply("6NT")
    assert [c for c in h.legal(g) if c.startswith("i")] == INKLES
    g.apply("6S")  # a lower inkle is fine
    assert h.legal(g) == AMERICAN_LATE
    assert g.history() == [("N", "i6NT"), ("E", "i6S")]


def test_inkle_seats_three_six_players(h: Any) -> None:
    g = new(h, {"players": "2v2v2", "inkle_seats": 3})
    for _ in range(3):
        assert "i6NT" in h.legal(g)
        g.apply("P")
    for _ in range(3):
        assert not any(c.startswith("i") for c in h.legal(g))
        g.apply("P")
    assert g.deal_number == 1


def test_six_players_default_two_inkle_seats(h: Any) -> None:
    g = new(h, {"players": "3v3"})
    assert g.to_act == "0"
    h.play(g, "6S 6C")
    for _ in range(4):
        assert not any(c.startswith("i") for c in h.legal(g))
        g.apply("P")
    assert g.results[-1]["thrown_in"] is True


def test_american_inkle_parses_with_i_prefix(h: Any) -> None:
    g = new(h)
    g.apply("i6C")
    assert g.history() == [("N", "i6C")]


# ----- Australian ---------------------------------------------------------------------
def test_australian_exact_first_calls(h: Any) -> None:
    g = new(h, preset="australian")
    # after_7 by default: no MIS until a 7-level bid, OMIS any time
    assert h.legal(g) == AUSTRALIAN_FIRST


def test_australian_one_bid_three_passes(h: Any) -> None:
    g = new(h, preset="australian")
    h.play(g, "6S P P P")  # §16.6
    assert g.phase == "KITTY"
    assert str(g.deal.contract) == "6S" and g.seat_name(g.deal.contractor) == "N"


def test_australian_all_pass_redeals(h: Any) -> None:
    g = new(h, preset="australian")
    h.play(g, "P P P P")
    assert g.deal_number == 1 and g.seat_name(g.dealer) == "N" and g.results[0]["thrown_in"]


def test_australian_passed_players_are_skipped(h: Any) -> None:
    g = new(h, preset="australian")
    seq = []
    for call in ["6S", "P", "6NT", "7S", "7C", "P"]:
        seq.append(g.to_act)
        g.apply(call)
    # N 6S, E P (out), S 6NT, W 7S, N 7C, S P (out): only N and W remain
    assert seq == ["N", "E", "S", "W", "N", "S"]
    assert g.to_act == "W"
    g.apply("7D")
    assert g.to_act == "N"  # E and S are never offered a call again
    g.apply("P")
    assert g.phase == "KITTY" and str(g.deal.contract) == "7D" and g.seat_name(g.deal.contractor) == "W"
    speakers = [s for s, _ in g.history()]
    assert speakers.count("E") == 1 and speakers.count("S") == 2


def test_australian_six_level_is_a_real_bid(h: Any) -> None:
    g = new(h, preset="australian")
    h.play(g, "P P P 6C")
    assert str(g.deal.contract) == "6C" and g.seat_name(g.deal.contractor) == "W"


def test_after_7_checklist(h: Any) -> None:
    """§16.4: after 6S, 6NT misère is illegal; after 7C it is legal."""
    g = new(h, preset="australian")
    h.play(g, "6S 6NT")
    assert "MIS" not in h.legal(g)
    with pytest.raises(IllegalAction):
        g.apply("MIS")
    g.apply("7C")
    assert "MIS" in h.legal(g)
    g.apply("MIS")
    assert h.legal(g)[:2] == ["P", "8S"]


def test_after_7_open_misere_any_time(h: Any) -> None:
    g = new(h, preset="australian")
    g.apply("OMIS")
    assert h.legal(g) == ["P", "10NT"]


def test_open_nullo_after_8(h: Any) -> None:
    g = new(h, {"open_nullo_after_8": True}, preset="australian")
    assert "OMIS" not in h.legal(g)
    h.play(g, "7S")
    assert "OMIS" not in h.legal(g) and "MIS" in h.legal(g)
    h.play(g, "8S")
    assert "OMIS" in h.legal(g)


def test_nullo_mode_off(h: Any) -> None:
    for preset in ("american", "australian"):
        g = new(h, {"nullo_mode": "off"}, preset=preset)
        h.play(g, "P 7S")
        assert "MIS" not in h.legal(g) and "OMIS" not in h.legal(g)
        with pytest.raises(IllegalAction, match="off"):
            g.apply("MIS")


def test_nullo_mode_anytime(h: Any) -> None:
    g = new(h, {"nullo_mode": "anytime"}, preset="australian")
    assert "MIS" in h.legal(g) and "OMIS" in h.legal(g)
    g.apply("MIS")
    assert "OMIS" in h.legal(g) and "7NT" not in h.legal(g) and "8S" in h.legal(g)


def test_american_after_7_inkle_does_not_unlock_misere(h: Any) -> None:
    g = new(h, {"nullo_mode": "after_7"})
    g.apply("6NT")
    assert "MIS" not in h.legal(g)
    g.apply("7S")
    assert "MIS" in h.legal(g)


def test_raise_own_bid(h: Any) -> None:
    g = new(h, {"raise_own_bid": True}, preset="australian")
    h.play(g, "7H P P P")
    assert g.to_act == "N" and g.phase == "AUCTION"
    # one extra call: P keeps 7H, or anything that outranks 7H
    assert h.legal(g) == ordered(
        ["P", "7NT", "MIS"], bids(range(8, 10)), ["10S", "10C", "10D", "10H", "OMIS", "10NT"]
    )
    g.apply("P")
    assert g.phase == "KITTY" and str(g.deal.contract) == "7H" and g.seat_name(g.deal.contractor) == "N"


def test_raise_own_bid_raise_closes_the_auction(h: Any) -> None:
    g = new(h, {"raise_own_bid": True}, preset="australian")
    h.play(g, "P 7H P P")
    assert g.to_act == "E"
    g.apply("8S")  # a change of denomination does not reopen by default
    assert g.phase == "KITTY" and str(g.deal.contract) == "8S" and g.seat_name(g.deal.contractor) == "E"


def test_raise_own_bid_not_offered_twice(h: Any) -> None:
    g = new(h, {"raise_own_bid": True}, preset="australian")
    h.play(g, "6S 6C P P P")
    # the high bidder E gets the raise turn; N is out (passed)
    assert g.to_act == "E"
    g.apply("7C")
    assert g.phase == "KITTY" and str(g.deal.contract) == "7C"


def test_raise_reopens_on_denomination_change(h: Any) -> None:
    o = {"raise_own_bid": True, "raise_reopens_on_denomination_change": True}
    g = new(h, o, preset="australian")
    h.play(g, "7H P P P")
    g.apply("8S")  # denomination changed: the others may re-enter
    assert g.phase == "AUCTION" and g.to_act == "E"
    assert "8C" in h.legal(g)
    h.play(g, "P P P")
    g2 = new(h, o, preset="australian")
    h.play(g2, "7H P P P 8H")  # same denomination: closes
    assert g2.phase == "KITTY" and str(g2.deal.contract) == "8H"


def test_no_raise_without_option(h: Any) -> None:
    g = new(h, preset="australian")
    h.play(g, "7H P P P")
    assert g.phase == "KITTY"


# ----- all pass: play no trumps ----------------------------------------------------------
def test_all_pass_play_no_trumps(h: Any) -> None:
    deal = h.full_deal({"E": "RJ AH KH QH JH TH 9H 8H 7H 6H"})
    g = h.new({"all_pass_action": "play_no_trumps"}, preset="australian", deal=deal, dealer="N", seed=1)
    h.play(g, "P P P P")
    assert g.phase == "PLAY" and g.deal.no_contract
    assert g.to_act == "E"  # eldest leads
    assert len(g.deal.hands[1]) == 10  # no kitty exchange
    v = g.view("E")
    assert v["contract"] is None and v["no_contract"] is True and v["trump"] is None
    assert "kitty" not in v and "discards" not in v
    # NT: the joker lead must nominate a suit
    assert {"RJ:S", "RJ:H", "RJ:D", "RJ:C"} <= set(h.legal(g))
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    result = g.results[0]
    assert result["contract"] is None and not result["thrown_in"]
    assert sum(result["tricks"]) == 10
    assert result["points"] == [10 * t for t in result["tricks"]]
    assert g.scores == result["points"]


# ----- bans ----------------------------------------------------------------------------
def test_banned_seat_is_offered_only_pass(h: Any) -> None:
    from trumps.five_hundred.deal import FiveHundredDeal
    from trumps.five_hundred.options import resolve_options

    for preset in ("american", "australian"):
        o = resolve_options(preset)
        d = FiveHundredDeal(o, 3, [[] for _ in range(4)], [], banned=frozenset({0, 2}))
        assert [str(a) for a in d.legal_actions()] == ["P"]
        d.apply_legal(d.legal_actions()[0])
        assert len(d.legal_actions()) > 1  # E may bid
        d.apply_legal(trumps.five_hundred.Call("7S"))
        assert [str(a) for a in d.legal_actions()] == ["P"]


# ----- data-driven cases (tests/data/five_hundred/auctions.json) ---------------------------
AUCTIONS = json.loads((Path(__file__).parents[1] / "data" / "five_hundred" / "auctions.json").read_text())


@pytest.mark.parametrize("case", AUCTIONS["cases"], ids=lambda c: c["id"])
def test_auction_cases(h: Any, case: dict[str, Any]) -> None:
    g = h.new(case.get("options"), preset=case["preset"], seed=3, dealer=case.get("dealer", "W"))
    h.play(g, case["calls"])
    e = case["expect"]
    if "to_act" in e:
        assert g.to_act == e["to_act"]
    if "phase" in e:
        assert g.phase == e["phase"]
    legal = h.legal(g)
    if "legal" in e:
        assert legal == e["legal"]
    assert set(e.get("legal_has", [])) <= set(legal)
    assert not set(e.get("legal_lacks", [])) & set(legal)
    for call in e.get("illegal", []):
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(call)
        assert g.to_json() == before
    if "contract" in e:
        assert str(g.deal.contract) == e["contract"] and g.seat_name(g.deal.contractor) == e["contractor"]
    if "thrown_in" in e:
        assert g.results[-1]["thrown_in"] is e["thrown_in"] and g.deal_number == 1
    if "dealer" in e:
        assert g.seat_name(g.dealer) == e["dealer"]


@pytest.mark.parametrize("case", AUCTIONS["option_errors"], ids=lambda c: c["id"])
def test_auction_option_errors(case: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        trumps.new_game("500", preset=case.get("preset"), options=case["options"], seed=1)
