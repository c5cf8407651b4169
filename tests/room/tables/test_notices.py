"""The timeout notices on their own: each receiver is told only what their
view shows."""

from __future__ import annotations

import trumps
from trumps.room.tables.notices import TimeoutNotices, spoken_action, told_action, untold_move


def test_cards_and_jokers_are_spoken() -> None:
    match = trumps.new_game("500", seed=1)
    assert spoken_action(match, "TH") == "10\u2665"
    assert spoken_action(match, "RJ:S") == "the joker (\u2660)"


def test_a_call_is_told_to_everyone() -> None:
    before = {"auction": [], "deal_number": 0}
    after = {"auction": [{"call": "P"}], "deal_number": 0}
    assert told_action(before, after, "P")
    assert not told_action(before, before, "P")


def test_an_unseen_discard_is_told_as_a_discard() -> None:
    before = {"hand_sizes": {"N": 13}}
    after = {"hand_sizes": {"N": 12}}
    assert "discarded" in untold_move("Ann", "N", before, after)
    melds = {"melds": {"announcements": [{"seat": "N", "value": 50}]}}
    assert "50" in untold_move("Ann", "N", {}, melds)
    assert "a move was made" in untold_move("Ann", "N", {}, {})


def test_the_seat_itself_is_told_the_action() -> None:
    match = trumps.new_game("500", seed=1)
    before = match.clone()
    seat = match.to_act_index
    assert seat is not None
    action = str(match.default_action())
    match.apply(match.parse_action(action), seat)
    notices = TimeoutNotices(seat, "Ann", action, before, match, len(match.log))
    mine = notices.for_seat(seat)
    assert mine["action"] == action and mine["kind"] == "call" and mine["timeout"] is True
    assert notices.for_seat(None)["action"] == action  # a call in the auction: everyone sees it
    assert notices.for_seat(None) is notices.for_seat(None)  # made once per seat
