"""Seeds, records, replay and the move-timer default (rules README §1.3, §3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import trumps
from trumps.core.errors import IllegalAction, RecordError


def _play(g: Any, steps: int) -> Any:
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(
            g.legal_actions()[-1]
            if g.phase == "AUCTION" and len(g.history()) % 3 == 0
            else g.legal_actions()[0]
        )
    return g


def test_seed_makes_deals_reproducible() -> None:
    a = _play(trumps.new_game("500", seed=42), 120)
    b = _play(trumps.new_game("500", seed=42), 120)
    assert a.to_json() == b.to_json()
    c = trumps.new_game("500", seed=43)
    assert c.to_json()["deals"] != trumps.new_game("500", seed=42).to_json()["deals"]
    # the first dealer is drawn from the seed too
    dealers = {
        trumps.new_game("500", seed=s).seat_name(trumps.new_game("500", seed=s).first_dealer)
        for s in range(40)
    }
    assert dealers == {"N", "E", "S", "W"}


def test_random_deal_is_dealt_from_the_dealers_left() -> None:
    g = trumps.new_game("500", seed=7, dealer="S")
    deck = list(g.deck)
    g.deal_rng(0).shuffle(deck)
    for k, card in enumerate(deck[:40]):
        assert card in g.deal.hands[(2 + 1 + k) % 4]
    assert g.deal.kitty == deck[40:]


def test_record_round_trip_and_time() -> None:
    g = trumps.new_game("500", preset="australian", options={"breach_enabled": True}, seed=5)
    g.apply("P", time=1.25)
    _play(g, 200)
    record = g.to_json()
    assert record["format"] == "trumps.record" and record["game"] == "500"
    assert record["actions"][0] == {
        "seat": g.seat_name((g.first_dealer + 1) % 4),
        "action": "P",
        "time": 1.25,
    }
    again = trumps.load_game(json.dumps(record))
    assert again.to_json() == record
    assert trumps.load_game(record).to_json() == record


def test_single_deal_record_round_trip(h: Any) -> None:
    deal = h.full_deal({"N": "RJ JH JD AH KH QH TH 9H 8H 7H"})
    g = trumps.new_game("500", deal=deal, contract="8H", declarer="N", dealer="W", seed=1)
    _play(g, 15)
    record = g.to_json()
    assert record["contract"] == "8H" and record["declarer"] == "N"
    again = trumps.load_game(record)
    assert again.to_json() == record
    h.first_legal_until(again, lambda g: False)
    assert again.is_over and len(again.results) == 1


def test_a_deal_from_a_record_starts_a_new_game() -> None:
    """Regression: ``deal=`` rejected the record's own deal form
    (``dealer``/``hands``/``kitty``) with a ParseError."""
    g = trumps.new_game("500", seed=5)
    recorded = g.to_json()["deals"][0]
    again = trumps.new_game("500", seed=99, deal=recorded, dealer=recorded["dealer"])
    assert again.deal.hands == g.deal.hands and again.deal.kitty == g.deal.kitty
    assert trumps.load_game(again.to_json()).to_json() == again.to_json()


@pytest.mark.parametrize(
    "tamper",
    [
        "not_json",
        "not_object",
        "format",
        "game",
        "other_game",
        "illegal_action",
        "bad_action",
        "scores",
        "seat_missing",
        "bad_option",
        "forbidden_options",
        "bad_deal",
        "bad_seed",
    ],
)
def test_bad_records(tamper: str) -> None:
    g = _play(trumps.new_game("500", seed=5), 30)
    record: Any = g.to_json()
    if tamper == "not_json":
        record = "{not json"
    elif tamper == "not_object":
        record = "[1, 2]"
    elif tamper == "format":
        record["format"] = "pbn"
    elif tamper == "game":
        record["game"] = "bridge"
        with pytest.raises(RecordError):
            trumps.game_class("500").from_json(record)
        return
    elif tamper == "illegal_action":
        record["actions"][0]["action"] = "OMIS" if record["actions"][0]["action"] == "P" else "P"
        record["actions"][1]["action"] = "OMIS"
        record["actions"][2]["action"] = "OMIS"
    elif tamper == "other_game":
        record["game"] = "bridge"  # load_game hands a 500 record to the bridge engine
    elif tamper == "bad_option":
        record["options"]["kitty_size"] = 4
    elif tamper == "forbidden_options":
        record["options"]["raise_own_bid"] = True
    elif tamper == "bad_deal":
        record["deals"][0]["hands"]["N"][0] = record["deals"][0]["hands"]["E"][0]
    elif tamper == "bad_seed":
        record["seed"] = "x"
    elif tamper == "bad_action":
        record["actions"][0]["action"] = "7Z"
    elif tamper == "scores":
        record["scores"] = [s + 10 for s in record["scores"]]
    elif tamper == "seat_missing":
        del record["actions"][0]["seat"]
    with pytest.raises(RecordError):
        trumps.load_game(record)


def test_default_action_is_a_pass_or_first_card() -> None:
    g = trumps.new_game("500", seed=5, dealer="W")
    assert str(g.default_action()) == "P"
    g = trumps.new_game("500", seed=5, contract="7H", declarer="N")
    assert g.default_action() in g.legal_actions()


def test_joker_lead_messages(h: Any) -> None:
    deal = h.full_deal({"N": "AS KS QS JS TS 9S 8S 7S 6S 5S", "E": "RJ 4H 4D AH KH QH JH TH 9H 8H"})
    g = trumps.new_game("500", seed=5, contract="7H", declarer="E", deal=deal, dealer="W")
    with pytest.raises(IllegalAction, match="joker is a trump, lead it as RJ"):
        g.apply("RJ:C")
    g = trumps.new_game("500", seed=5, contract="7NT", declarer="N", deal=deal, dealer="W")
    g.apply("AS")
    assert "RJ" in [str(a) for a in g.legal_actions()]  # E is void in spades
    with pytest.raises(IllegalAction, match="only the leader names a suit; play RJ"):
        g.apply("RJ:S")
