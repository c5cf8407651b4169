"""The one deal reader (``trumps.core.deal_reader``) and the three games'
explicit deals read through it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.core.cards import Card, parse_cards, sort_cards
from trumps.core.deal_reader import DealReader, cards_of, deal_json
from trumps.core.decks import deck_500, deck_bridge, deck_coinche
from trumps.core.errors import DealError

CASES = json.loads((Path(__file__).parents[1] / "data" / "core" / "deal_reader_errors.json").read_text())[
    "cases"
]

READERS = {
    "coinche": DealReader(deck_coinche(), players=4, hand_size=8, sort=True),
    "bridge": DealReader(
        deck_bridge(), players=4, hand_size=13, fill_hand=True, sort=True, deck_words="a bridge card"
    ),
    "500": DealReader(deck_500(4, 3), players=4, hand_size=10, piles={"kitty": 3}),
}

COINCHE = {
    "N": "AS KS QS JS TS 9S 8S 7S",
    "E": "AH KH QH JH TH 9H 8H 7H",
    "S": "AD KD QD JD TD 9D 8D 7D",
    "W": "7C 8C 9C TC JC QC KC AC",
}
FIVE_HUNDRED = {
    "N": "5S 6S 7S 8S 9S TS JS QS KS AS",
    "E": "AH KH QH JH TH 9H 8H 7H 6H 5H",
    "S": "AD KD QD JD TD 9D 8D 7D 6D 5D",
    "W": "AC KC QC JC TC 9C 8C 7C 6C 5C",
}


@pytest.mark.parametrize("case", CASES, ids=[c["error"] for c in CASES])
def test_refused_deals_say_why(case: dict[str, Any]) -> None:
    with pytest.raises(DealError, match="^" + case["error"].replace("(", r"\(").replace(")", r"\)")):
        READERS[case["game"]].read(case["deal"])


def test_a_flat_deal_and_a_record_deal_read_alike() -> None:
    reader = READERS["coinche"]
    flat, _ = reader.read(COINCHE)
    record, _ = reader.read({"dealer": "N", "hands": COINCHE})
    assert flat == record
    assert flat[3] == sort_cards(parse_cards(COINCHE["W"]))  # sorted: the reader was made with sort=True


def test_500_keeps_the_order_given_and_fills_the_kitty() -> None:
    hands, piles = READERS["500"].read(FIVE_HUNDRED)
    assert [str(c) for c in hands[0]][:2] == ["5S", "6S"]  # not sorted: the record keeps the deal as given
    assert [str(c) for c in piles["kitty"]] == [str(c) for c in sort_cards(parse_cards("RJ 4H 4D"))]


def test_bridge_fills_the_one_missing_hand() -> None:
    deal = {"N": "AKQJT98765432...", "E": ".AKQJT98765432..", "S": "..AKQJT98765432."}
    hands, _ = READERS["bridge"].read(deal)
    assert [str(c) for c in hands[3]] == [f"{r}C" for r in "AKQJT98765432"]


def test_deal_json_flattens_what_the_reader_takes() -> None:
    out = deal_json({"dealer": "N", "hands": {"N": "AS KS"}, "kitty": ["RJ"]}, ["kitty"])
    assert out == {"N": ["AS", "KS"], "kitty": ["RJ"]}
    with pytest.raises(DealError, match=r"mapping of seats \(and 'kitty'\)"):
        deal_json("N:AS", ["kitty"])  # type: ignore[arg-type]
    assert cards_of(("AS", Card("KS"))) == [Card("AS"), Card("KS")]


@pytest.mark.parametrize(
    ("game", "deal"),
    [
        ("coinche", COINCHE),
        ("500", FIVE_HUNDRED),
        ("bridge", "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"),
    ],
)
def test_each_game_starts_from_an_explicit_deal_through_the_reader(game: str, deal: Any) -> None:
    g = trumps.new_game(game, deal=deal, dealer="W")
    view = g.view("N")
    assert sorted(view["hands"]["N"]) == sorted(str(c) for c in trumps.load_game(g.to_json()).deal.dealt[0])
    bad = dict(COINCHE, N="AS KS QS JS TS 9S 8S AH") if game == "coinche" else {"N": ["AS"]}
    with pytest.raises(DealError):
        trumps.new_game(game, deal=bad)
