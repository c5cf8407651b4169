"""The protocol's surface says what a reader expects: seats by name, with
the number beside it; reprs that name the game, its options and its state;
options that round-trip and pickle."""

from __future__ import annotations

import copy
import pickle

import pytest

import trumps
from trumps.core.options import Options


@pytest.mark.parametrize("name", ["500", "bridge", "coinche"])
def test_to_act_is_the_seat_name_and_the_index_is_beside_it(name: str) -> None:
    game = trumps.new_game(name, seed=4)
    for _ in range(6):
        assert game.to_act == game.seat_names[game.to_act_index]  # type: ignore[index]
        assert game.to_act == game.view(game.to_act)["to_act"]
        assert game.seat_name(game.to_act) == game.seat_name(game.to_act_index) == game.to_act  # type: ignore[arg-type]
        legal = game.legal_actions()
        game.apply(legal[min(1, len(legal) - 1)], game.to_act)  # a bid: the game goes on


@pytest.mark.parametrize("name", ["500", "bridge", "coinche"])
def test_the_legal_list_is_the_callers_own(name: str) -> None:
    """Changing the list a game hands out changes nothing in the game: the
    deal checks actions against its own (bridge once handed out its cache,
    so a caller that emptied it made every action illegal)."""
    game = trumps.new_game(name, seed=7)
    seen = 0
    while not game.is_over and seen < 80:
        legal = game.legal_actions()
        assert legal == game.legal_actions() and legal is not game.legal_actions()
        wanted = legal[len(legal) // 2]
        legal.clear()
        assert game.legal_actions(), "the game's own list was emptied"
        game.apply(wanted)
        seen += 1
    assert seen == 80 or game.is_over


def test_six_players_name_their_seats_by_digit() -> None:
    game = trumps.new_game("500", options={"players": "3v3"}, seed=1)
    assert game.to_act is not None and game.to_act.isdigit()
    assert game.to_act == str(game.to_act_index)


def test_a_finished_game_has_nobody_to_act() -> None:
    game = trumps.new_game("bridge", options={"scoring": "duplicate_mp"}, seed=2)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.to_act is None and game.to_act_index is None
    assert "over" in repr(game)


def test_a_games_repr_names_the_game_its_changed_options_and_where_it_stands() -> None:
    game = trumps.new_game("500", preset="australian", seed=7)
    text = repr(game)
    assert "'500'" in text and "seed=7" in text and "'must_bid_to_win': True" in text
    assert f"{game.to_act} to act" in text and "AUCTION" in text and "object at" not in text
    assert "options=" not in repr(trumps.new_game("bridge", seed=1))  # all defaults: nothing to say


@pytest.mark.parametrize("name", ["500", "bridge", "coinche"])
def test_options_name_their_game_round_trip_and_pickle(name: str) -> None:
    options = trumps.new_game(name, seed=1).options
    assert options.game == trumps.game_class(name).game
    again = eval(repr(options), {"Options": Options})
    assert again == options and again.game == options.game
    assert pickle.loads(pickle.dumps(options)) == options
    assert copy.deepcopy(options).game == options.game
    with pytest.raises(AttributeError):
        options.game = "x"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["500", "bridge", "coinche"])
def test_actions_repr_round_trips(name: str) -> None:
    import importlib

    game = trumps.new_game(name, seed=3)
    package = type(game).__module__.rpartition(".")[0]  # trumps.five_hundred for 500
    for action in game.legal_actions()[:5]:
        module = importlib.import_module(type(action).__module__)
        if module.__name__ != "trumps.core.cards":  # a call names its game; a card is every game's
            assert repr(action).startswith(package + ".")
            assert eval(repr(action), {"trumps": trumps}) is action  # interned: the same value
        else:
            assert eval(repr(action), vars(module)) == action
        assert game.parse_action(str(action)) == action
