"""The hooks records and notices read an action through (``Match.card_text``,
``spoken``, ``card_phases``, ``own_view_keys``): each game says what is
its own, so the room holds no game's notation."""

from __future__ import annotations

import pytest

import trumps
from trumps.core.cards import card_words


@pytest.mark.parametrize(
    "game,action,card",
    [
        ("500", "RJ:H", "RJ"),  # a joker led naming hearts
        ("500", "RJ", "RJ"),
        ("500", "TS", "TS"),
        ("coinche", "KH+BELOTE", "KH"),  # a card with its belote announced
        ("coinche", "7D", "7D"),
        ("bridge", "AS", "AS"),
        ("bridge", "1NT", "1NT"),  # not a card: unchanged
        ("500", "P", "P"),
    ],
)
def test_card_text_is_the_card_alone(game: str, action: str, card: str) -> None:
    assert trumps.new_game(game).card_text(action) == card


@pytest.mark.parametrize(
    "game,action,words",
    [
        ("500", "TH", "10\u2665"),
        ("500", "RJ:S", "the joker (\u2660)"),
        ("500", "RJ", "the joker"),
        ("500", "P", "Pass"),
        ("bridge", "7C", "7\u2663"),  # a bid: the game's own label
        ("bridge", "AS", "A\u2660"),
        ("coinche", "KH+BELOTE", "KH+BELOTE"),  # no card code, no label: as it is
    ],
)
def test_spoken_says_a_call_by_its_label_and_a_card_by_its_symbols(
    game: str, action: str, words: str
) -> None:
    match = trumps.new_game(game)
    label = match.presentation().get("labels", {}).get(action)
    assert match.spoken(action) == (label or words)


def test_bridge_bids_are_spoken_by_their_label() -> None:
    match = trumps.new_game("bridge")
    label = match.presentation()["labels"]["7C"]
    assert match.spoken("7C") == label != "7C"


def test_card_words() -> None:
    assert card_words("TD") == "10\u2666"
    assert card_words("10D") == "10\u2666"
    assert card_words("RJ") is None
    assert card_words("1NT") is None


def test_only_500_discards_cards_outside_the_play_and_keeps_them_from_others() -> None:
    assert trumps.new_game("500").card_phases == {"PLAY", "KITTY"}
    assert trumps.new_game("500").own_view_keys == ("discards", "kitty")
    for game in ("bridge", "coinche"):
        match = trumps.new_game(game)
        assert match.card_phases == {"PLAY"}
        assert match.own_view_keys == ()


def test_500_own_view_keys_are_hidden_from_a_spectator() -> None:
    """What a replay takes from a seat's own view is what the others do not see."""
    match = trumps.new_game("500", seed=3)
    match.apply("7S", match.to_act_index)  # one bid, three passes: the kitty goes to the contractor
    for _ in range(3):
        match.apply("P", match.to_act_index)
    assert match.phase == "KITTY"
    contractor = match.to_act_index
    assert contractor is not None
    own, spectator = match.view(contractor), match.view(None)
    assert "kitty" in own
    assert all(own.get(key) != spectator.get(key) for key in match.own_view_keys if key in own)
