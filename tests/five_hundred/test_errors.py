"""Bad input: options, deals, actions (five_hundred.md §5.3, §5.5, §7, §14;
rules README §3).  Every error is a ValueError and leaves the state alone."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

import trumps
from trumps.core.errors import (
    DealError,
    GameOver,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
    TrumpsError,
    WrongSeat,
)


@pytest.mark.parametrize(
    "error", [DealError, GameOver, IllegalAction, OptionError, ParseError, RecordError, WrongSeat]
)
def test_errors_are_value_errors(error: type[Exception]) -> None:
    assert issubclass(error, TrumpsError) and issubclass(error, ValueError)


# ----- options ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "options"),
    [
        (None, {"colour": "red"}),
        (None, {"kitty_size": 4}),
        (None, {"kitty_size": "four"}),
        (None, {"players": "3v2"}),
        (None, {"variation": "english"}),
        (None, {"nullo_points": 240}),
        (None, {"open_nullo_points": 510}),
        (None, {"nullo_mode": "sometimes"}),
        (None, {"must_bid_to_win": "perhaps"}),
        (None, {"breach_value": 0}),
        (None, {"breach_value": 55}),
        (None, {"breach_value": -100}),
        (None, {"inkle_seats": 4}),
        ("canadian", None),
        # forbidden combinations
        (None, {"open_nullo_after_8": True}),  # american default nullo_mode anytime
        (None, {"open_nullo_after_8": True, "nullo_mode": "anytime"}),
        (None, {"open_nullo_after_8": True, "nullo_mode": "off"}),
        ("australian", {"open_nullo_after_8": True, "nullo_mode": "off"}),
        (None, {"raise_own_bid": True}),
        ("american", {"raise_own_bid": True}),
        ("australian", {"raise_own_bid": True, "variation": "american"}),
        ("australian", {"raise_reopens_on_denomination_change": True}),
        (None, {"players": "3v3", "nullo_plays": "both_hands"}),
        (None, {"inkle_seats": 3}),  # four players: the last two must bid 7+
    ],
)
def test_bad_options(preset: str | None, options: dict[str, Any] | None) -> None:
    with pytest.raises(OptionError):
        trumps.new_game("500", preset=preset, options=options, seed=1)


def test_good_option_strings_are_coerced() -> None:
    g = trumps.new_game("500", options={"kitty_size": "5", "must_bid_to_win": "yes", "breach_enabled": "no", "nullo_points": "210"}, seed=1)  # fmt: skip
    o = g.options
    assert (
        o.kitty_size == 5
        and o.must_bid_to_win is True
        and o.breach_enabled is False
        and o.nullo_points == 210
    )
    assert len(g.deck) == 45
    g = trumps.new_game(
        "500", preset="AUSTRALIAN", options={"open_nullo_after_8": "true", "raise_own_bid": "1"}, seed=1
    )
    assert g.options.open_nullo_after_8 is True and g.options.raise_own_bid is True


def test_presets_and_variation_defaults() -> None:
    am = trumps.new_game("500", preset="american", seed=1).options
    au = trumps.new_game("500", preset="australian", seed=1).options
    assert (am.variation, am.must_bid_to_win, am.nullo_mode) == ("american", False, "anytime")
    assert (au.variation, au.must_bid_to_win, au.nullo_mode) == ("australian", True, "after_7")
    for key in ("players", "kitty_size", "nullo_points", "open_nullo_points", "nullo_plays", "first_lead",
                "misere_defender_points", "open_misere_expose", "inkle_seats", "all_pass_action"):  # fmt: skip
        assert am[key] == au[key]
    assert (am.breach_enabled, am.breach_value, am.breach_ban_any_level) == (False, 100, True)
    assert am.win_threshold_inclusive is True and am.simultaneous_out_rule == "highest_score_then_bidders"
    # a key the preset does not set takes the variation's default
    v = trumps.new_game("500", options={"variation": "australian"}, seed=1).options
    assert v.must_bid_to_win is True and v.nullo_mode == "after_7"
    assert trumps.new_game("500", seed=1).options.to_dict() == dict(am)


def test_unknown_game_and_bad_seed() -> None:
    with pytest.raises(OptionError):
        trumps.new_game("skat")
    with pytest.raises(OptionError):
        trumps.new_game("500", seed="7")  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        trumps.new_game("500", seed=True)  # type: ignore[arg-type]


# ----- a contract given outright ------------------------------------------------------------
@pytest.mark.parametrize("preset", ["american", "australian"])
@pytest.mark.parametrize("contract", ["MIS", "OMIS", "misere", "open nullo"])
def test_a_misere_contract_needs_misere_in_the_options(preset: str, contract: str) -> None:
    """As an auction under ``nullo_mode = off`` never ends in misère, a game
    started in the play refuses one (coinche refuses a bid its options
    forbid the same way); with misère on, the same start is fine."""
    with pytest.raises(OptionError, match="is not a contract these options allow"):
        trumps.new_game(
            "500", preset=preset, seed=1, contract=contract, declarer="N", options={"nullo_mode": "off"}
        )
    for mode in ("after_7", "anytime"):
        m = trumps.new_game(
            "500", preset=preset, seed=1, contract=contract, declarer="N", options={"nullo_mode": mode}
        )
        assert m.phase == "PLAY" and m.deal.contract is not None and m.deal.contract.is_misere
    m = trumps.new_game(
        "500", preset=preset, seed=1, contract="7H", declarer="N", options={"nullo_mode": "off"}
    )
    assert m.phase == "PLAY"


_MISERE_OFF = """
import trumps
try:
    trumps.new_game("500", seed=1, contract="MIS", declarer="N", options={"nullo_mode": "off"})
    print("accepted")
except Exception as exc:
    print(type(exc).__name__)
print("trumps.five_hundred.deal" in trumps.compiled_modules())
"""


@pytest.mark.parametrize("pure", ["0", "1"])
def test_the_misere_contract_is_refused_compiled_and_pure(pure: str) -> None:
    """The check is in the deal (a compiled module): the same OptionError in both builds."""
    env = dict(os.environ, TRUMPS_PURE=pure)
    done = subprocess.run(
        [sys.executable, "-c", _MISERE_OFF], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    raised, compiled = done.stdout.split()
    if pure == "0" and compiled != "True":
        pytest.skip("the engines are not compiled in this install (no mypyc build)")
    assert raised == "OptionError" and compiled == str(pure == "0")


# ----- deals -----------------------------------------------------------------------------
def _deal(h: Any) -> dict[str, list[str]]:
    return h.full_deal({})


def test_explicit_deal_is_used(h: Any) -> None:
    deal = _deal(h)
    g = trumps.new_game("500", deal=deal, dealer="W", seed=1)
    for s, name in enumerate("NESW"):
        assert sorted(str(c) for c in g.deal.hands[s]) == sorted(deal[name])
    assert [str(c) for c in g.deal.kitty] == deal["kitty"]
    # without a kitty, the kitty is the rest of the deck
    g2 = trumps.new_game("500", deal={k: v for k, v in deal.items() if k != "kitty"}, dealer="W", seed=1)
    assert sorted(str(c) for c in g2.deal.kitty) == sorted(deal["kitty"])
    # the hand form is accepted too
    g3 = trumps.new_game(
        "500", deal={**deal, "N": trumps.format_hand(trumps.parse_cards(deal["N"]))}, dealer="W", seed=1
    )
    assert g3.deal.hands[0] == g.deal.hands[0]


@pytest.mark.parametrize(
    "mutate",
    [
        "nine_cards",
        "eleven_cards",
        "duplicate_across_hands",
        "duplicate_in_hand",
        "duplicate_in_hand_no_kitty",
        "not_in_deck",
        "six_handed_rank",
        "kitty_too_big",
        "missing_hand",
        "bad_key",
        "not_a_list",
    ],
)
def test_bad_deals(h: Any, mutate: str) -> None:
    deal: dict[str, Any] = _deal(h)
    if mutate == "nine_cards":
        deal["kitty"].append(deal["N"].pop())
    elif mutate == "eleven_cards":
        deal["N"].append(deal["kitty"].pop())
    elif mutate == "duplicate_across_hands":
        deal["N"][0] = deal["E"][0]
    elif mutate == "duplicate_in_hand":
        deal["N"][0] = deal["N"][1]
    elif mutate == "duplicate_in_hand_no_kitty":
        deal["N"][0] = deal["N"][1]
        del deal["kitty"]
    elif mutate == "not_in_deck":
        deal["N"][0] = "4S"  # the 43-card deck has no black fours
    elif mutate == "six_handed_rank":
        deal["N"][0] = "13H"
    elif mutate == "kitty_too_big":
        deal["kitty"].append("4C")
    elif mutate == "missing_hand":
        del deal["W"]
    elif mutate == "bad_key":
        deal["X"] = deal.pop("W")
    elif mutate == "not_a_list":
        deal["N"] = 7
    with pytest.raises(DealError):
        trumps.new_game("500", deal=deal, dealer="W", seed=1)


def test_bad_card_in_deal_is_a_parse_error_or_deal_error(h: Any) -> None:
    deal = _deal(h)
    deal["N"][0] = "ZZ"
    with pytest.raises((ParseError, DealError)):
        trumps.new_game("500", deal=deal, dealer="W", seed=1)


# ----- actions ---------------------------------------------------------------------------
def _rejects(g: Any, action: Any, error: type[Exception], seat: Any = None) -> None:
    before = g.to_json()
    legal = [str(a) for a in g.legal_actions()]
    view = g.view(None)
    with pytest.raises(error):
        g.apply(action, seat)
    assert g.to_json() == before
    assert [str(a) for a in g.legal_actions()] == legal
    assert g.view(None) == view


def test_illegal_actions_change_nothing(h: Any) -> None:
    g = trumps.new_game("500", options={"breach_enabled": True}, deal=h.full_deal({"N": "AS KS QS JS TS AC KC QC JC TC", "E": "RJ 5S AH KH QH JH TH 9H 8H 7H"}), dealer="W", seed=1)  # fmt: skip
    _rejects(g, "AS", ParseError)
    _rejects(g, "7Z", ParseError)
    _rejects(g, "11H", ParseError)
    _rejects(g, 17, IllegalAction)
    _rejects(g, "P", WrongSeat, "E")
    _rejects(g, "BREACH", IllegalAction)
    g.apply("7NT")
    _rejects(g, "7NT", IllegalAction)
    _rejects(g, "7S", IllegalAction)
    _rejects(g, "6NT", IllegalAction)
    _rejects(g, "P", ParseError, "Q")
    h.play(g, "P P P")
    assert g.phase == "BREACH"
    _rejects(g, "7NT", IllegalAction)
    _rejects(g, "AS", ParseError)
    h.play(g, "P P")
    assert g.phase == "KITTY"
    _rejects(g, "5S", IllegalAction)  # E's card
    _rejects(g, "P", ParseError)
    _rejects(g, "4S", IllegalAction)  # not in the deck at all
    for c in g.deal.kitty:
        g.apply(str(c))
    h.play(g, "P P")
    assert g.phase == "PLAY"
    _rejects(g, "5S", IllegalAction)
    _rejects(g, "AS", WrongSeat, "E")
    g.apply("AS")
    _rejects(g, "RJ", IllegalAction)  # no trumps: E holds 5S, so the joker may not be played
    _rejects(g, "AH", IllegalAction)
    _rejects(g, "RJ:S", IllegalAction)
    _rejects(g, "XJ:S", ParseError)
    _rejects(g, "AH:S", ParseError)


SPEC_KEYS = {
    # five_hundred.md §14 (Trickster labels with a rules effect) ...
    "variation", "players", "kitty_size", "must_bid_to_win", "raise_own_bid", "nullo_mode", "nullo_points",
    "nullo_plays", "open_nullo_points", "open_nullo_after_8", "eight_spades_overbids_nullo",
    # ... and the engine-only options of §14 / §17
    "inkles_must_outrank", "inkle_seats", "all_pass_action", "raise_reopens_on_denomination_change",
    "joker_lead_suit_restriction", "joker_low_in_misere", "open_misere_expose", "end_hand_when_decided",
    "first_lead", "misere_defender_points", "breach_enabled", "breach_value", "breach_ban_any_level",
    "win_threshold_inclusive", "simultaneous_out_rule",
}  # fmt: skip


def test_every_rules_option_of_the_spec_exists() -> None:
    described = trumps.five_hundred.SCHEMA.describe()
    names = {o["name"] for o in described["options"]}
    assert names >= SPEC_KEYS
    assert set(described["presets"]) == {"american", "australian"}
    for o in described["options"]:
        assert o["doc"], o["name"]
