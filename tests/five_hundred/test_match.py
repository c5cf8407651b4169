"""Whole deals and matches: breach windows and bans, game end, single-deal
mode, dealer rotation (five_hundred.md §11, §12, §15)."""

from __future__ import annotations

from typing import Any

import pytest

import trumps
from trumps.core.errors import GameOver, IllegalAction, OptionError, ParseError

N_TOP = "AS KS QS JS TS AC KC QC JC TC"
# N and S hold only cards lower than every E/W card of the same suit: NS take no trick at NT
NS_LOW = {
    "N": "5S 6S 7S 8S 9S 5C 6C 7C 8C 9C",
    "S": "4H 5H 6H 7H 8H 4D 5D 6D 7D 8D",
    "E": "TS JS QS KS AS TC JC QC KC AC",
    "W": "9H TH JH QH KH AH 9D TD JD QD",
}
NS_LOW_KITTY = ["KD", "AD", "RJ"]


def start(
    h: Any, hands: dict[str, str], options: dict[str, Any] | None = None, kitty: str | None = None
) -> Any:
    deal = h.full_deal(hands, kitty=kitty)
    return h.new({"breach_enabled": True, **(options or {})}, deal=deal, dealer="W", seed=4)


def discard_kitty(h: Any, g: Any) -> None:
    for c in g.deal.kitty:
        g.apply(str(c))


def test_breach_windows_poll_defenders_twice(h: Any) -> None:
    g = start(h, {"N": N_TOP}, kitty="RJ 4H 4D")
    h.play(g, "7NT P P P")
    assert g.phase == "BREACH"
    assert [g.to_act, h.legal(g)] == ["E", ["P", "BREACH"]]
    g.apply("P")
    assert g.to_act == "W"
    assert g.view("W")["hands"]["N"] is None and "kitty" not in g.view("N")
    g.apply("P")
    assert g.phase == "KITTY"
    discard_kitty(h, g)
    assert g.phase == "BREACH" and g.to_act == "E"
    g.apply("P")
    g.apply("BREACH")
    assert g.phase == "PLAY" and g.view(None)["breach"] == "W"
    assert g.to_act == "N"


def test_breach_first_call_wins_and_closes_windows(h: Any) -> None:
    g = start(h, {"N": N_TOP}, kitty="RJ 4H 4D")
    h.play(g, "7NT P P P BREACH")
    assert g.phase == "KITTY"
    discard_kitty(h, g)
    assert g.phase == "PLAY"
    assert g.deal.breach_seat == 1


def test_no_breach_window_below_seven_or_when_disabled(h: Any) -> None:
    g = start(h, {"N": N_TOP}, options={"variation": "australian"}, kitty="RJ 4H 4D")
    h.play(g, "6NT P P P")
    assert g.phase == "KITTY"
    g = h.new({}, deal=h.full_deal({"N": N_TOP}), dealer="W", seed=4)
    h.play(g, "7NT P P P")
    assert g.phase == "KITTY"
    with pytest.raises(ParseError):
        g.apply("BREACH")  # a call, not a card, in the kitty phase


def test_breach_misere_window(h: Any) -> None:
    g = start(h, {"N": N_TOP}, kitty="RJ 4H 4D")
    h.play(g, "MIS P P P")
    assert g.phase == "BREACH"


def test_failed_breach_bans_the_caller_next_deal(h: Any) -> None:
    g = start(h, {"N": N_TOP}, kitty="RJ 4H 4D")
    h.play(g, "7NT P P P BREACH")
    discard_kitty(h, g)
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    r = g.results[0]
    assert r["tricks"] == [10, 0]
    assert r["points"] == [250, 0]  # slam: 7NT (220) with all ten tricks
    assert r["breach"] == {"seat": "E", "succeeded": False, "points": [0, -100]}
    assert r["banned_next_deal"] == ["E"]
    assert g.scores == [250, -100]
    # next deal, dealer N: E speaks first and may only pass
    assert g.seat_name(g.dealer) == "N" and g.to_act == "E"
    assert h.legal(g) == ["P"]
    assert g.view("E")["banned"] == ["E"]
    with pytest.raises(IllegalAction, match="breach"):
        g.apply("7S")
    g.apply("P")
    assert len(h.legal(g)) > 1  # S is free
    # bans last one deal only
    h.play(g, "P P P")
    assert g.deal_number == 2 and g.view(None)["banned"] == []


def test_successful_breach_bans_the_contractor(h: Any) -> None:
    g = start(h, NS_LOW, kitty=" ".join(NS_LOW_KITTY))
    h.play(g, "7NT P P P BREACH")
    h.play(g, NS_LOW_KITTY)  # N throws away the strong kitty
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    r = g.results[0]
    assert r["tricks"] == [0, 10]
    assert r["points"] == [-220, 100]
    assert r["breach"]["succeeded"] is True and r["breach"]["points"] == [0, 100]
    assert g.scores == [-220, 200] and r["banned_next_deal"] == ["N"]
    h.play(g, "P P P")  # E, S, W
    assert g.to_act == "N" and h.legal(g) == ["P"]


@pytest.mark.parametrize(("contract", "banned"), [("8NT", []), ("7NT", ["N"])])
def test_breach_ban_any_level_false(h: Any, contract: str, banned: list[str]) -> None:
    g = start(h, NS_LOW, options={"breach_ban_any_level": False}, kitty=" ".join(NS_LOW_KITTY))
    h.play(g, f"{contract} P P P BREACH")
    h.play(g, NS_LOW_KITTY)
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    assert g.results[0].get("banned_next_deal", []) == banned
    assert g.view(None)["banned"] == banned


def test_end_hand_when_decided_waits_for_breach(h: Any) -> None:
    g = start(h, {"N": N_TOP}, options={"end_hand_when_decided": True}, kitty="RJ 4H 4D")
    h.play(g, "MIS P P P BREACH")
    discard_kitty(h, g)
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    d = g.results[0]
    # N wins every trick it leads; with a breach the hand runs until N has three
    assert d["tricks"] == [3, 0] and d["points"] == [-250, 0]
    assert d["breach"] == {"seat": "E", "succeeded": True, "points": [0, 100]}
    assert g.scores == [-250, 100] and d["banned_next_deal"] == ["N"]


def test_game_over_at_500(h: Any) -> None:
    g = h.new({}, deal=h.full_deal({"N": N_TOP}, kitty="RJ 4H 4D"), dealer="W", seed=4)
    h.play(g, "10NT P P P")
    discard_kitty(h, g)
    h.first_legal_until(g, lambda g: False)
    assert g.is_over and g.winner == 0 and g.scores == [520, 0]
    assert g.phase == "GAME_OVER" and g.to_act_index is None and g.legal_actions() == []
    v = g.view("E")
    assert v["over"] is True and v["winner"] == 0 and v["legal"] == []
    before = g.to_json()
    with pytest.raises(GameOver):
        g.apply("P")
    assert g.to_json() == before
    assert isinstance(GameOver("x"), IllegalAction)


def test_dealer_rotates_after_played_deals(h: Any) -> None:
    """§3.1: the deal passes clockwise after every hand, played or thrown in."""
    g = h.new({}, seed=9, dealer="S")
    dealers: list[str] = []
    while g.deal_number < 6 and not g.is_over:
        if g.deal_number == len(dealers):
            dealers.append(g.seat_name(g.dealer))
            assert g.to_act == g.seat_name((g.dealer + 1) % 4)
        # odd deals are thrown in, even deals played at 7S by the first speaker
        bid = g.phase == "AUCTION" and not g.deal.auction.calls and len(dealers) % 2 == 0
        g.apply("7S" if bid else g.legal_actions()[0])
    assert len(dealers) >= 4
    assert dealers == ["S", "W", "N", "E", "S", "W"][: len(dealers)]
    assert [r["dealer"] for r in g.results] == dealers[: len(g.results)]
    assert [r["thrown_in"] for r in g.results] == [k % 2 == 0 for k in range(len(g.results))]


# ----- single-deal mode --------------------------------------------------------------------
def test_single_deal_mode(h: Any) -> None:
    deal = h.full_deal({"N": "RJ JH JD AH KH QH TH 9H 8H 7H"})
    g = trumps.new_game("500", deal=deal, contract="8H", declarer="N", dealer="W", seed=1)
    assert g.phase == "PLAY" and g.to_act == "N"
    assert g.view("N")["discards"] == deal["kitty"] and "discards" not in g.view("E")
    h.first_legal_until(g, lambda g: False)
    assert g.is_over and len(g.results) == 1
    r = g.results[0]
    assert r["contract"] == "8H" and r["contractor"] == "N" and r["tricks"] == [10, 0]
    assert r["points"][0] == 300 and g.winner == 0
    with pytest.raises(GameOver):
        g.apply("AS")


def test_single_deal_mode_defeated_and_scores_not_carried(h: Any) -> None:
    g = h.new(
        {},
        deal=h.full_deal(NS_LOW, kitty=" ".join(NS_LOW_KITTY)),
        contract="7NT",
        declarer="N",
        dealer="W",
        seed=0,
    )
    h.first_legal_until(g, lambda g: False)
    assert g.results[0]["tricks"] == [0, 10] and g.scores == [-220, 100] and g.winner == 1


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"contract": "8H"}, OptionError),
        ({"declarer": "N"}, OptionError),
        ({"contract": "P", "declarer": "N"}, ParseError),
        ({"contract": "i6S", "declarer": "N"}, ParseError),
        ({"contract": "BREACH", "declarer": "N"}, ParseError),
        ({"contract": "11H", "declarer": "N"}, ParseError),
        ({"contract": "8H", "declarer": "X"}, ParseError),
        ({"contract": "8H", "declarer": 4}, ParseError),
    ],
)
def test_single_deal_mode_errors(kw: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        trumps.new_game("500", seed=1, **kw)


# ----- copies --------------------------------------------------------------------------------
def test_clone_in_auction_is_independent_of_turn_order(h: Any) -> None:
    """Regression: a clone that reached a misère (partner sits out) used to
    rewrite the original's turn order, so the original skipped S."""
    g = h.new({}, seed=3, dealer="W")
    c = g.clone()
    h.play(c, "MIS P P P")
    h.play(g, "7S P P P")
    for first, second in ((g, c), (c, g)):  # whichever starts playing first
        a, b = first.clone(), second.clone()
        h.play(a, [str(x) for x in a.deal.kitty])
        h.play(b, [str(x) for x in b.deal.kitty])
        full, misere = (a, b) if a.deal.contract == g.deal.contract else (b, a)
        h.first_legal(full, 3)
        h.first_legal(misere, 3)
        assert [s for s, _ in full.history()[-3:]] == ["N", "E", "S"]
        assert len(misere.deal.tricks) == 1 and [s for s, _ in misere.history()[-3:]] == ["N", "E", "W"]
    h.play(g, [str(x) for x in g.deal.kitty])
    h.play(c, [str(x) for x in c.deal.kitty])
    assert c.view(None)["sitting_out"] == ["S"] and g.view(None)["sitting_out"] == []
    h.first_legal(g, 4)
    h.first_legal(c, 3)
    assert [len(t[1]) for t in g.deal.tricks] == [4] and [len(t[1]) for t in c.deal.tricks] == [3]
    assert [s for s, _ in g.history()[-4:]] == ["N", "E", "S", "W"]
    assert [s for s, _ in c.history()[-3:]] == ["N", "E", "W"]


def test_clone_does_not_share_state(h: Any) -> None:
    g = h.new({}, seed=8, dealer="W")
    h.play(g, "7S P P P")
    snapshot = (g.to_json(), g.view(None), g.view("N"))
    c = g.clone()
    h.first_legal_until(c, lambda c: c.deal_number == 2)
    assert (g.to_json(), g.view(None), g.view("N")) == snapshot
    c_snapshot = c.to_json()
    h.first_legal_until(g, lambda g: g.deal_number == 1)
    assert c.to_json() == c_snapshot


def test_game_over_at_minus_500(h: Any) -> None:
    """§16.12: a team at -500 ends the game and the highest score wins."""
    g = h.new({}, deal=h.full_deal(NS_LOW, kitty=" ".join(NS_LOW_KITTY)), dealer="W", seed=4)
    h.play(g, "10NT P P P")
    h.play(g, NS_LOW_KITTY)
    h.first_legal_until(g, lambda g: False)
    assert g.results[0]["tricks"] == [0, 10]
    assert g.is_over and g.scores == [-520, 100] and g.winner == 1


@pytest.mark.parametrize(("inclusive", "over"), [(True, True), (False, False)])
def test_exactly_500_by_threshold_option(h: Any, inclusive: bool, over: bool) -> None:
    hands = {"N": "RJ JH JD AH KH QH TH 9H 8H 7H"}
    g = h.new(
        {"win_threshold_inclusive": inclusive}, deal=h.full_deal(hands, kitty="6H 4D 5S"), dealer="W", seed=4
    )
    h.play(g, "10H P P P 6H 4D 5S")
    h.first_legal_until(g, lambda g: g.is_over or g.deal_number == 1)
    assert g.results[0]["points"][0] == 500
    assert g.is_over is over


def test_game_end_is_judged_before_the_breach_delta(h: Any) -> None:
    """§11.5 / §16.11: a breaching team at 500 after normal scoring whose
    breach fails has gone out (and wins) even though it is recorded at 400."""
    hands = {
        "N": "AS KS QS JS TS AC KC QC JC TC",
        "E": "9S 8S 7S 6S 5S 9C 8C 7C 6C 5C",
        "S": "AD KD QD JD TD 9D 8D 7D 6D 5D",
        "W": "AH KH QH JH TH 9H 8H 7H 6H 5H",
    }
    g = h.new({"breach_enabled": True}, deal=h.full_deal(hands, kitty="4H 4D RJ"), dealer="W", seed=4)
    g.totals = [0, 490]  # as if earlier deals had been played
    h.play(g, "9NT P P P BREACH")
    h.play(g, "TC 4D RJ")  # N keeps the 4H: nine winners and one loser
    h.first_legal_until(g, lambda g: False)
    r = g.results[0]
    assert r["tricks"] == [9, 1] and r["points"] == [420, 10]
    assert r["breach"] == {"seat": "E", "succeeded": False, "points": [0, -100]}
    assert g.scores == [420, 400]
    assert g.is_over and g.winner == 1


@pytest.mark.parametrize("limit", [1, 3])
def test_max_deals_ends_the_game_with_the_higher_score_winning(limit: int) -> None:
    import random

    for seed in range(6):
        g = trumps.new_game("500", preset="american", options={"max_deals": limit}, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        assert len(g.results) <= limit
        totals = g.scores
        if len(g.results) == limit and max(totals) < 500 and min(totals) > -500:
            best = max(totals)
            assert g.winner == (totals.index(best) if totals.count(best) == 1 else None)
        assert trumps.load_game(g.to_json()).to_json() == g.to_json()
