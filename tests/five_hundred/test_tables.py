"""Data-driven tests of the spec's tables and worked examples
(five_hundred.md §5.1, §5.2, §8, §9.5, §11, §12, §16).  The cases live in
``tests/data/five_hundred/*.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.core.cards import Card, Suit
from trumps.core.errors import IllegalAction
from trumps.core.seats import parse_seat, seat_name
from trumps.five_hundred import Call, JokerLead, TrickRules, bid_value, rank_key, resolve_options, score
from trumps.five_hundred.calls import DENOMS
from trumps.five_hundred.scoring import breach_succeeded, game_end, score_deal

DATA = Path(__file__).parents[1] / "data" / "five_hundred"


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text())


VALUES = _load("values.json")
RANKING = _load("ranking.json")
LEGAL = _load("legal_cards.json")["cases"]
TRICKS = _load("tricks.json")["cases"]
SCORING = _load("scoring.json")["cases"]
BREACH = _load("breach.json")
GAME_END = _load("game_end.json")["cases"]


# ----- §5.1 values -------------------------------------------------------------
@pytest.mark.parametrize("level", [6, 7, 8, 9, 10])
def test_avondale_table(level: int) -> None:
    row = VALUES["table"][str(level)]
    for denom_code, expected in zip(VALUES["denoms"], row, strict=True):
        call = Call.parse(f"{level}{denom_code}")
        assert call.value == expected
        assert bid_value(level, call.denom) == expected
        assert trumps.five_hundred.contract_value(call) == expected


@pytest.mark.parametrize(("call", "value"), sorted(VALUES["checklist"].items()))
def test_checklist_values(call: str, value: int) -> None:
    assert Call(call).value == value


def test_denomination_order() -> None:
    assert [Call.bid(7, d).denom_code for d in DENOMS] == ["S", "C", "D", "H", "NT"]


# ----- §5.2 ranking ---------------------------------------------------------------
def _key(call: str, options: dict[str, Any]) -> int:
    o = resolve_options(None, options)
    return rank_key(Call(call), o.nullo_points, o.open_nullo_points, o.eight_spades_overbids_nullo)


@pytest.mark.parametrize("case", RANKING["cases"], ids=lambda c: c["id"])
def test_ranking_order(case: dict[str, Any]) -> None:
    keys = [_key(c, case["options"]) for c in case["order"]]
    assert keys == sorted(keys) and len(set(keys)) == len(keys), case["order"]


@pytest.mark.parametrize("case", RANKING["cases"], ids=lambda c: c["id"])
def test_ranking_in_the_auction(case: dict[str, Any]) -> None:
    """After each bid of the chain, the next one (and only higher ones) may be
    called: checked in an Australian auction where misère is always open."""
    options = {"variation": "australian", "nullo_mode": "anytime", **case["options"]}
    order = case["order"]
    for i, low in enumerate(order):
        g = trumps.new_game("500", options=options, seed=0, dealer="W")
        g.apply(low)
        offered = {str(a) for a in g.legal_actions()}
        for higher in order[i + 1 :]:
            assert higher in offered, (low, higher)
        for lower in order[: i + 1]:
            assert lower not in offered, (low, lower)
            with pytest.raises(IllegalAction):
                g.apply(lower)


@pytest.mark.parametrize("case", RANKING["keys"], ids=lambda c: f"{c['call']}-{c['options']}")
def test_rank_keys(case: dict[str, Any]) -> None:
    assert _key(case["call"], case["options"]) == case["key"]


# ----- §4 / §8 legal cards and trick winners -----------------------------------
def _rules(trump: str) -> TrickRules:
    if trump == "NT" or trump == "MIS":
        return TrickRules(None)
    if trump == "MIS-LOW":
        return TrickRules(None, joker_low=True)
    return TrickRules(Suit.parse(trump))


def _trick(rules: TrickRules, tokens: list[str]) -> tuple[list[Card], int, bool]:
    first = tokens[0]
    if ":" in first:
        lead = JokerLead.parse(first)
        return [lead.card] + [Card(t) for t in tokens[1:]], int(lead.suit), True
    cards = [Card(t) for t in tokens]
    return cards, rules.eff_suit(cards[0]), cards[0].is_joker


@pytest.mark.parametrize("case", LEGAL["cases"] if isinstance(LEGAL, dict) else LEGAL, ids=lambda c: c["id"])
def test_legal_cards(case: dict[str, Any]) -> None:
    rules = _rules(case["trump"])
    _, led, _ = _trick(rules, case["trick"])
    hand = [Card(c) for c in case["hand"]]
    assert {str(c) for c in rules.legal_follow(hand, led)} == set(case["legal"])


@pytest.mark.parametrize("case", TRICKS, ids=lambda c: c["id"])
def test_trick_winner(case: dict[str, Any]) -> None:
    rules = _rules(case["trump"])
    cards, led, joker_led = _trick(rules, case["trick"])
    assert rules.winner(cards, led, joker_led) == case["winner"]


def test_trump_suit_sizes_43_card_deck() -> None:
    """§4.1: hearts or diamonds trumps -> 13 trumps; spades or clubs -> 12."""
    from trumps.core.decks import deck_500

    deck = deck_500(4, 3)
    for suit, size in [("H", 13), ("D", 13), ("S", 12), ("C", 12)]:
        rules = _rules(suit)
        assert sum(1 for c in deck if rules.eff_suit(c) == int(Suit.parse(suit))) == size
    nt = _rules("NT")
    assert nt.eff_suit(Card("RJ")) == 4 and nt.eff_suit(Card("JD")) == int(Suit.DIAMONDS)


# ----- §9 scoring ---------------------------------------------------------------
@pytest.mark.parametrize("case", SCORING, ids=lambda c: c["id"])
def test_scoring(case: dict[str, Any]) -> None:
    got = score(
        case["contract"],
        case["tricks"],
        preset=case.get("preset"),
        options=case.get("options"),
        defender_tricks=case.get("defender_tricks"),
        scores=case.get("scores"),
    )
    assert got["bidders"] == case["bidders"]
    assert got["defenders"] == case["defenders"]
    assert got["made"] is (case["bidders"] > 0)
    if "totals" in case:
        assert got["totals"] == case["totals"]


def test_score_calculator_rejects_bad_input() -> None:
    for args, kw in [
        (("P", 5), {}),
        (("i6S", 5), {}),
        (("7H", 11), {}),
        (("7H", -1), {}),
        (("7H", 6), {"defender_tricks": [5]}),
        (("7H", 6), {"defender_tricks": [2], "scores": [0, 0, 0]}),
        (("7H", 6), {"options": {"nonsense": 1}}),
        (("XX", 6), {}),
    ]:
        with pytest.raises(ValueError):
            score(*args, **kw)  # type: ignore[arg-type]


# ----- §11 breach ---------------------------------------------------------------
@pytest.mark.parametrize("row", BREACH["thresholds"], ids=lambda r: f"level{r['level']}")
def test_breach_thresholds(row: dict[str, Any]) -> None:
    level = row["level"]
    assert 10 - row["defenders_need_to_defeat"] == level - 1  # the contract fails
    for bidders in range(11):
        defenders = 10 - bidders
        expected = bidders <= row["bidders_at_most"]
        assert (defenders >= row["breach_defenders_take"]) is expected
        for denom in "SCDH":
            assert breach_succeeded(f"{level}{denom}", bidders) is expected, (level, bidders)
        assert breach_succeeded(f"{level}NT", bidders) is expected


def test_breach_threshold_misere() -> None:
    for contract in ("MIS", "OMIS"):
        assert [breach_succeeded(contract, t) for t in range(11)] == [False] * 3 + [True] * 8


@pytest.mark.parametrize("case", BREACH["cases"], ids=lambda c: c["id"])
def test_breach_outcomes(case: dict[str, Any]) -> None:
    o = resolve_options(None, case.get("options"))
    players = 4 if o.players == "2v2" else 6
    team = [0, 1, 0, 1] if players == 4 else ([0, 1, 2] * 2 if o.players == "2v2v2" else [0, 1] * 3)
    contractor = parse_seat(case.get("contractor", "N"), players)
    breacher = parse_seat(case.get("breach_seat", "E"), players)
    s = score_deal(
        o,
        case["totals"],
        case["tricks"],
        Call(case["contract"]),
        team[contractor],
        contractor,
        breacher,
        team[breacher],
    )
    assert s.points == case["points"]
    assert s.breach_points == case["breach_points"]
    assert s.totals == case["totals_after"]
    assert s.totals_before_breach == case.get(
        "before", [t + p for t, p in zip(case["totals"], case["points"], strict=True)]
    )
    assert s.made is case["made"]
    assert s.breach_success is case["success"]
    assert [seat_name(b, players) for b in s.bans] == [str(b) for b in case["bans"]]
    if "game_over" in case:
        over, winner = game_end(o, s.totals_before_breach, team[contractor])
        assert over is case["game_over"]
        if over:
            assert winner == case["winner"]


# ----- §12 end of game -------------------------------------------------------------
@pytest.mark.parametrize("case", GAME_END, ids=lambda c: c["id"])
def test_game_end(case: dict[str, Any]) -> None:
    players = "2v2" if len(case["totals"]) == 2 else "2v2v2"
    o = resolve_options(None, {"players": players, **case.get("options", {})})
    assert game_end(o, case["totals"], case["bidders"]) == (case["over"], case["winner"])
