"""Card play through the engine (five_hundred.md §4, §6-§8, §13)."""

from __future__ import annotations

from typing import Any

import pytest

from trumps.core.errors import IllegalAction, WrongSeat

N_TOP = "AS KS QS JS TS AC KC QC JC TC"  # N wins every trick it leads in NT / misère
LOW = "9S 8S 7S 6S 5S 9C 8C 7C 6C 5C"


def single(h: Any, hands: dict[str, str], contract: str, declarer: str = "N", options: dict[str, Any] | None = None,
           kitty: str | None = None, players: int = 4, kitty_size: int | None = None, dealer: str = "W") -> Any:  # fmt: skip
    o = dict(options or {})
    if kitty_size is not None:
        o["kitty_size"] = kitty_size
    if players == 6:
        o.setdefault("players", "2v2v2")
    deal = h.full_deal(hands, players=players, kitty_size=kitty_size or 3, kitty=kitty)
    return h.new(o, deal=deal, contract=contract, declarer=declarer, dealer=dealer, seed=0)


# ----- trump contracts -----------------------------------------------------------------
def test_bowers_in_play(h: Any) -> None:
    g = single(h, {"N": "5D 6S 7S 8S 9S TS QS KS AS 5C", "E": "JD 5S 6C 7C 8C 9C TC QC KC AC", "S": "AD KD QD TD 9D 8D 7D 6D 4H 5H", "W": "JH AH KH QH TH 9H 8H 7H 6H 4D"}, "7H", kitty="RJ JS JC")  # fmt: skip
    assert g.to_act == "N" and g.phase == "PLAY"
    g.apply("5D")
    # E holds JD (a heart) and no other diamond: void, anything goes
    assert set(h.legal(g)) == h.hand(g, "E")
    g.apply("JD")
    assert set(h.legal(g)) == {"AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D"}
    g.apply("AD")
    assert set(h.legal(g)) == {"4D"}  # W's JH is a heart, its 4D must follow
    g.apply("4D")
    assert g.deal.tricks[-1][2] == 1  # E's left bower ruffed
    assert g.to_act == "E"
    g.apply("5S")
    assert set(h.legal(g)) == h.hand(g, "S")  # S has no spade
    g.apply("4H")
    assert (
        set(h.legal(g)) == h.hand(g, "W") == {"JH", "AH", "KH", "QH", "TH", "9H", "8H", "7H", "6H"}
    )  # W: no spade
    v = g.view(None)
    assert v["trump"] == "H" and v["led_suit"] == "S"


def test_joker_lead_in_trumps_needs_no_suit(h: Any) -> None:
    g = single(h, {"N": "RJ AS KS QS JS TS 9S 8S 7S 6S"}, "7H")
    assert "RJ" in h.legal(g) and not any(":" in a for a in h.legal(g))
    with pytest.raises(IllegalAction):
        g.apply("RJ:C")
    g.apply("RJ")
    assert g.view(None)["led_suit"] == "H"


# ----- no trumps: the joker ------------------------------------------------------------
def test_nt_joker_lead_nominates_a_suit(h: Any) -> None:
    g = single(h, {"N": "RJ AS KS QS JS TS 9S 8S 7S 6S", "E": "5C 6C 7C AH KH QH JH TH 9H 8H"}, "7NT")
    lead = h.legal(g)
    assert {"RJ:S", "RJ:H", "RJ:D", "RJ:C"} <= set(lead) and "RJ" not in lead
    before = g.to_json()
    with pytest.raises(IllegalAction, match=r"name the suit.*RJ:S"):
        g.apply("RJ")
    assert g.to_json() == before
    g.apply("rj:c")
    assert g.history() == [("N", "RJ:C")]
    assert set(h.legal(g)) == {"5C", "6C", "7C"}
    v = g.view("E")
    assert v["led_suit"] == "C" and v["trick"] == [{"seat": "N", "card": "RJ"}]
    h.play(g, "5C")
    h.first_legal(g, 2)
    assert g.deal.tricks[0][2] == 0 and g.view(None)["tricks"][0]["led_suit"] == "C"


def test_nt_black_joker_beats_red_joker(h: Any) -> None:
    g = single(h, {"N": "BJ AS KS QS JS TS 9S 8S 7S 6S", "E": "RJ AH KH QH JH TH 9H 8H 7H 6H"}, "7NT", kitty_size=6)  # fmt: skip
    g.apply("BJ:C")
    assert "RJ" in h.legal(g)  # E is void in clubs
    g.apply("RJ")
    h.first_legal(g, 2)
    assert g.deal.tricks[0][2] == 0


def test_nt_joker_restricted_when_holding_led_suit(h: Any) -> None:
    g = single(h, {"N": N_TOP, "E": "RJ 5S 6C 7C AH KH QH JH TH 9H"}, "7NT")
    g.apply("AS")
    assert h.legal(g) == ["5S"]
    with pytest.raises(IllegalAction, match="follow suit"):
        g.apply("RJ")


def test_joker_lead_suit_restriction(h: Any) -> None:
    hands = {"N": "5S 6S 7S 8S 9S TS JS QS KS AS", "E": "BJ RJ AH KH QH JH TH 9H 8H 7H"}
    for restricted, expected in [(True, {"RJ:H", "RJ:D", "RJ:C"}), (False, {"RJ:S", "RJ:H", "RJ:D", "RJ:C"})]:
        g = single(h, hands, "7NT", options={"joker_lead_suit_restriction": restricted}, kitty_size=6)
        g.apply("5S")
        g.apply("BJ")  # E fails to follow spades, wins with the black joker
        h.first_legal(g, 2)
        assert g.to_act == "E"
        assert {a for a in h.legal(g) if a.startswith("RJ")} == expected
        if restricted:
            with pytest.raises(IllegalAction, match="may not name S"):
                g.apply("RJ:S")


def test_joker_low_in_misere(h: Any) -> None:
    hands = {"N": "RJ 4H 4D AH KH QH JH TH 9H 8H", "E": "AC KC QC JC TC 9C 8C 7C 6C 5C"}
    g = single(h, hands, "MIS", options={"joker_low_in_misere": True})
    g.apply("RJ:C")
    g.apply("5C")
    g.apply(h.legal(g)[0])  # W
    assert g.deal.tricks[0][2] == 1  # the led joker loses to any club
    assert g.results == [] and g.deal.won[0] == 0
    g2 = single(h, hands, "MIS")
    g2.apply("RJ:C")
    g2.apply("5C")
    h.first_legal(g2, 1)
    assert g2.deal.tricks[0][2] == 0  # joker high: N takes the trick


# ----- six players ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "kitty_size", "deck"), [("2v2v2", 3, 63), ("3v3", 5, 65), ("2v2v2", 6, 66)]
)
def test_six_handed_decks(h: Any, players: str, kitty_size: int, deck: int) -> None:
    g = h.new({"players": players, "kitty_size": kitty_size}, seed=5)
    d = g.deal
    assert g.players == 6 and [len(x) for x in d.hands] == [10] * 6 and len(d.kitty) == kitty_size
    every = [c for x in d.hands for c in x] + d.kitty
    assert len(set(every)) == deck == len(g.deck)
    assert g.teams == ([[0, 3], [1, 4], [2, 5]] if players == "2v2v2" else [[0, 2, 4], [1, 3, 5]])


def test_six_handed_ranks_in_play(h: Any) -> None:
    hands = {"0": "TH AS KS QS JS 12S 11S TS 9S 8S", "1": "11H 2S 3S 4S 5S 6S 7S 2C 3C 4C", "2": "13H AC KC QC JC 12C 11C TC 9C 8C", "3": "12H 7C 6C 5C AD KD QD 13D 12D 11D", "4": "AH KH QH JH 9H 8H 7H 6H 5H 4H"}  # fmt: skip
    g = single(h, hands, "7NT", declarer="0", players=6, dealer="5")
    h.play(g, "TH 11H 13H 12H")
    assert h.legal(g) == ["AH", "KH", "QH", "JH", "9H", "8H", "7H", "6H", "5H", "4H"]
    g.apply("9H")
    assert h.legal(g) == ["3H", "2H"]
    g.apply("3H")
    assert len(g.deal.tricks[0][1]) == 6
    assert g.deal.tricks[0][2] == 2  # 13 > 12 > 11 > T


# ----- misère ------------------------------------------------------------------------------
def _hidden_everywhere_but(g: Any, seat: str, cards: set[str]) -> None:
    """None of ``cards`` appears in any view other than ``seat``'s."""
    import json

    for viewer in [None, *[g.seat_name(s) for s in range(g.players)]]:
        if viewer == seat:
            continue
        text = json.dumps(g.view(viewer))
        leaked = {c for c in cards if f'"{c}"' in text}
        assert not leaked, (viewer, leaked)


def test_misere_own_hand(h: Any) -> None:
    partner = "AD KD QD JD TD 9D 8D 7D 6D 5D"
    g = single(h, {"N": LOW, "S": partner}, "MIS")
    v = g.view(None)
    assert v["sitting_out"] == ["S"] and v["trump"] is None and v["exposed"] == []
    order = []
    while not g.is_over:
        order.append(g.to_act)
        _hidden_everywhere_but(g, "S", set(partner.split()))
        g.apply(g.legal_actions()[0])
    assert "S" not in order
    d = g.deal
    assert len(d.tricks) == 10 and all(len(cards) == 3 for _, cards, _, _ in d.tricks)
    assert {str(c) for c in d.hands[2]} == set(partner.split())  # never played
    _hidden_everywhere_but(g, "S", set(partner.split()))
    r = g.results[0]
    assert sum(r["tricks"]) == 10 and r["points"][1] == 10 * r["tricks"][1]


@pytest.mark.parametrize(
    ("players", "trick_size", "sitting_out"), [("2v2v2", 5, ["3"]), ("3v3", 4, ["2", "4"])]
)
def test_misere_own_hand_six_players(h: Any, players: str, trick_size: int, sitting_out: list[str]) -> None:
    g = h.new({"players": players}, seed=11, dealer="5", contract="MIS", declarer="0")
    assert g.view(None)["sitting_out"] == sitting_out
    h.first_legal_until(g, lambda g: False)
    assert all(len(cards) == trick_size for _, cards, _, _ in g.deal.tricks)
    for s in sitting_out:
        assert len(g.deal.hands[int(s)]) == 10
    assert len(g.results[0]["tricks"]) == (3 if players == "2v2v2" else 2)


def test_misere_both_hands(h: Any) -> None:
    partner = "AD KD QD JD TD 9D 8D 7D 6D 5D"
    g = single(h, {"N": LOW, "S": partner}, "MIS", options={"nullo_plays": "both_hands"})
    v = g.view("E")
    assert v["exposed"] == ["S"] and v["hands"]["S"] is not None and v["hands"]["N"] is None
    assert v["sitting_out"] == []
    h.first_legal(g, 2)  # N leads, E follows
    # S's turn: the contractor N decides for S's hand
    assert g.to_act == "N" and g.seat_name(g.deal.hand_to_play) == "S"
    vn = g.view("N")
    assert vn["to_act"] == "N" and vn["hand_to_play"] == "S"
    assert set(vn["legal"]) <= set(partner.split()) and vn["legal"]
    assert g.view("S")["legal"] == []
    with pytest.raises(WrongSeat):
        g.apply(h.legal(g)[0], "S")
    g.apply(h.legal(g)[0], "N")
    assert len(g.deal.hands[2]) == 9
    h.first_legal_until(g, lambda g: False)
    assert all(len(cards) == 4 for _, cards, _, _ in g.deal.tricks)
    r = g.results[0]
    # tricks won by either hand count against the contract
    assert r["made"] is (r["tricks"][0] == 0)


@pytest.mark.parametrize("expose", ["before_lead", "after_first_trick"])
def test_open_misere_exposure(h: Any, expose: str) -> None:
    deal = h.full_deal({"N": LOW})
    g = h.new({"open_misere_expose": expose}, deal=deal, dealer="W", seed=0)
    h.play(g, "OMIS P P P")
    assert g.phase == "KITTY"
    assert g.view("E")["hands"]["N"] is None
    for card in deal["kitty"]:
        g.apply(card)
    assert g.phase == "PLAY"
    shown = g.view("E")["hands"]["N"]
    if expose == "before_lead":
        assert sorted(shown) == sorted(LOW.split())
        assert g.view(None)["exposed"] == ["N"]
    else:
        assert shown is None
        h.first_legal(g, 2)
        assert g.view(None)["hands"]["N"] is None  # trick 1 not complete yet
        h.first_legal(g, 1)
        assert len(g.deal.tricks) == 1
        assert len(g.view(None)["hands"]["N"]) == 9
    # discards stay hidden even when the hand is exposed
    for viewer in ("E", "S", "W", None):
        v = g.view(viewer)
        assert "discards" not in v and "kitty" not in v
    assert g.view("N")["discards"] == deal["kitty"]


def test_first_lead_eldest(h: Any) -> None:
    g = h.new({"first_lead": "eldest"}, seed=2, dealer="E", contract="7H", declarer="N")
    assert g.to_act == "S"
    g = h.new({"first_lead": "eldest"}, seed=2, dealer="W", contract="MIS", declarer="S")
    # eldest N sits out the misère: the next active player leads
    assert g.to_act == "E"
    g = h.new({}, seed=2, dealer="W", contract="MIS", declarer="S")
    assert g.to_act == "S"


def test_end_hand_when_decided(h: Any) -> None:
    hands = {"N": N_TOP}
    for decided, tricks in [(True, 1), (False, 10)]:
        g = single(h, hands, "MIS", options={"end_hand_when_decided": decided}, kitty="RJ 4H 4D")
        h.first_legal_until(g, lambda g: False)
        assert len(g.deal.tricks) == tricks
        r = g.results[0]
        assert r["tricks"][0] == tricks and r["points"] == [-250, 0]


def test_end_hand_when_decided_only_for_misere(h: Any) -> None:
    g = single(h, {"N": LOW}, "7NT", options={"end_hand_when_decided": True}, kitty="RJ 4H 4D")
    h.first_legal_until(g, lambda g: False)
    assert len(g.deal.tricks) == 10
