"""Decks (five_hundred.md §2, rules README §1.3) and seats (README §2)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from trumps.core.cards import Suit, format_cards
from trumps.core.decks import deck_500, deck_bridge, deck_coinche
from trumps.core.errors import OptionError, ParseError
from trumps.core.seats import parse_seat, seat_name

DATA = json.loads((Path(__file__).parents[1] / "data" / "five_hundred" / "decks.json").read_text())


@pytest.mark.parametrize("case", DATA, ids=lambda c: f"{c['players']}p-kitty{c['kitty_size']}")
def test_500_deck_composition(case: dict) -> None:
    deck = deck_500(case["players"], case["kitty_size"])
    assert len(deck) == case["size"]
    assert len(set(deck)) == len(deck)
    assert len(deck) - 10 * case["players"] == case["kitty_size"]
    by_suit = Counter(c.suit.code if c.suit is not None else "J" for c in deck)
    assert dict(by_suit) == case["suit_lengths"]
    assert sorted(str(c) for c in deck if c.is_joker) == sorted(case["jokers"])
    for suit, lowest in case["lowest"].items():
        assert min(c.rank for c in deck if c.suit is Suit.parse(suit)) == lowest
    for card in case.get("absent", []):
        assert card not in {str(c) for c in deck}
    for card in case.get("present", []):
        assert card in {str(c) for c in deck}


def test_canonical_deck_order() -> None:
    deck = deck_500(4, 6)
    text = format_cards(deck)
    assert text.startswith("AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH KH")
    assert text.endswith("5C 4C BJ RJ")
    six = format_cards(deck_500(6, 3))
    assert six.startswith("AS KS QS JS 12S 11S TS 9S")
    assert "AH KH QH JH 13H 12H 11H TH" in six


def test_other_decks() -> None:
    assert len(deck_bridge()) == 52
    assert len(deck_coinche()) == 32


@pytest.mark.parametrize(("players", "kitty"), [(4, 4), (5, 3), (4, 0)])
def test_bad_deck_options(players: int, kitty: int) -> None:
    with pytest.raises(OptionError):
        deck_500(players, kitty)


def test_seats() -> None:
    assert [seat_name(i) for i in range(4)] == ["N", "E", "S", "W"]
    assert [seat_name(i, 6) for i in range(6)] == ["0", "1", "2", "3", "4", "5"]
    assert parse_seat("n") == 0 and parse_seat("West") == 3 and parse_seat(2) == 2 and parse_seat("3") == 3
    assert parse_seat("5", 6) == 5
    for bad, players in [("X", 4), (4, 4), ("6", 6), (True, 4), ("N", 6), (-1, 4), (None, 4)]:
        with pytest.raises(ParseError):
            parse_seat(bad, players)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "options"),
    [("500", {}), ("500", {"options": {"players": "3v3"}}), ("bridge", {}), ("coinche", {})],
)
def test_match_seat_names_are_seat_name_in_order(game: str, options: dict) -> None:
    import trumps

    match = trumps.new_game(game, **options)
    assert match.seat_names == tuple(match.seat_name(s) for s in range(match.players))
    assert match.view(None)["seats"] == list(match.seat_names)
