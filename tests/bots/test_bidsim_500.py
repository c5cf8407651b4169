"""500 bidding by simulation (bots/bidsim.py): behaviour on chosen hands."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.bots.bidsim import SimulationBidder
from trumps.bots.registry import bot_for

STRONG = ["RJ", "JH", "JD", "AH", "KH", "QH", "TH", "AS", "AC", "KC"]
MISERE = ["4H", "5H", "6H", "4D", "5D", "6D", "5S", "6S", "5C", "6C"]
NOTHING = ["9S", "TS", "9C", "TC", "9D", "TD", "9H", "TH", "8S", "8C"]


def _bidder(samples: int = 4) -> SimulationBidder:
    return SimulationBidder("500", samples, bot_for("500", "rules"))


def _first_view(hand: list[str], **options: Any) -> tuple[dict[str, Any], list[str]]:
    """The first call of a fresh deal (an empty auction), with ``hand``
    swapped in for the seat to act."""
    m = trumps.new_game("500", seed=1, options=options or None)
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    me = view["seat"]
    view["hands"] = {s: (list(hand) if s == me else None) for s in view["seats"]}
    return view, [str(a) for a in m.legal_actions()]


def test_a_very_strong_hand_bids_a_high_contract() -> None:
    view, legal = _first_view(STRONG)
    call = _bidder().choose(view, legal, random.Random(2))
    assert call in legal and call[0].isdigit() and int(call.rstrip("SCDHNT")) >= 8


def test_a_hand_of_middling_cards_passes() -> None:
    view, legal = _first_view(NOTHING)
    assert _bidder().choose(view, legal, random.Random(2)) == "P"


def test_a_hand_made_for_misere_bids_it_when_the_options_allow() -> None:
    view, legal = _first_view(MISERE)
    assert "MIS" in legal
    assert _bidder().choose(view, legal, random.Random(2)) in ("MIS", "OMIS")


def test_never_misere_when_the_options_forbid_it() -> None:
    view, legal = _first_view(MISERE, nullo_mode="off")
    assert "MIS" not in legal and "OMIS" not in legal
    call = _bidder().choose(view, legal, random.Random(2))
    assert call in legal and call not in ("MIS", "OMIS")


def test_the_same_seed_gives_the_same_bid_and_reasons() -> None:
    view, legal = _first_view(STRONG)
    a, b = _bidder(), _bidder()
    assert a.choose(view, legal, random.Random(7)) == b.choose(view, legal, random.Random(7))
    assert a.explain(view, legal, random.Random(7)) == b.explain(view, legal, random.Random(7))


def test_the_explanation_lists_the_chosen_bid_first_with_its_reason() -> None:
    bidder = _bidder()
    for hand in (STRONG, NOTHING):
        view, legal = _first_view(hand)
        call = bidder.choose(view, legal, random.Random(3))
        rows = bidder.explain(view, legal, random.Random(3))
        assert rows[0]["action"] == call
        assert rows[0]["reason"] and rows[0]["samples"] == 4 and rows[0]["unit"] == "points"
        assert "P" in [r["action"] for r in rows]
        assert all(r["action"] in legal for r in rows)


@pytest.mark.parametrize("seed", [3, 8])
def test_every_call_of_whole_auctions_is_legal(seed: int) -> None:
    """Four simulation bidders bid whole auctions (inkles, overcalls, the
    dealer's last call) legally; the later calls reuse nothing stale."""
    m = trumps.new_game("500", seed=seed)
    bidders = [_bidder(3) for _ in range(4)]
    rng = random.Random(seed)
    while m.to_act_index is not None and m.view(m.to_act_index)["phase"] == "AUCTION":
        view = m.view(m.to_act_index)
        legal = [str(a) for a in m.legal_actions()]
        call = bidders[m.to_act_index].choose(view, legal, rng)
        assert call in legal
        m.apply(call)


def test_passing_is_worth_what_the_opponents_then_make() -> None:
    """After an opposing bid a pass is not worth 0: the rest of the auction
    and the opponents' contract are simulated."""
    m = trumps.new_game("500", seed=1)
    assert m.to_act_index is not None
    m.apply("8H")  # the first seat bids, with its cards unknown to us
    view = m.view(m.to_act_index)
    me = view["seat"]
    view["hands"] = {s: (list(NOTHING) if s == me else None) for s in view["seats"]}
    legal = [str(a) for a in m.legal_actions()]
    options = {o.action: o for o in _bidder(6).options_for(view, legal, random.Random(1))}
    assert options["P"].ev != 0 and options["P"].make == 1.0


def test_six_players_bid_by_rule() -> None:
    """Six-handed deals are too big to solve per sample within a bid's time:
    the rule bot's call, at once."""
    m = trumps.new_game("500", seed=4, options={"players": "2v2v2"})
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    rules = bot_for("500", "rules")
    assert _bidder().options_for(view, legal, random.Random(1)) == []
    assert _bidder().choose(view, legal, random.Random(1)) == rules.choose(view, legal, random.Random(1))
