"""The README's loop, ``game.apply(bot.choose(view, game.legal_actions(), rng))``,
works for every game and level: a bot takes the engine's own action objects
as readily as their notations, and answers in the kind it was given."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.bots.base import BotError, RandomBot
from trumps.bots.registry import bot_for
from trumps.core.cards import Card

GAMES = [("500", "american"), ("500", "australian"), ("bridge", None), ("coinche", "ffb_2016")]


def play(game: trumps.Match, level: str, actions: int, rng: random.Random) -> list[str]:
    """Let one bot of ``level`` play every seat for ``actions`` actions (or to
    the end of the first deal), through objects; returns the phases seen."""
    bot = bot_for(game.game, level)
    phases = []
    for _ in range(actions):
        if game.is_over or game.deal_number > 0:
            break
        legal = game.legal_actions()
        phases.append(game.phase)
        chosen = bot.choose(game.view(game.to_act_index), legal, rng)
        assert any(chosen is a for a in legal), (level, chosen)
        game.apply(chosen)
    return phases


@pytest.mark.parametrize(("name", "preset"), GAMES)
@pytest.mark.parametrize("level", ["random", "easy"])
def test_a_whole_deal_with_objects(name: str, preset: str | None, level: str) -> None:
    game = trumps.new_game(name, preset=preset, seed=11)
    phases = play(game, level, 400, random.Random(1))
    assert game.deal_number == 1 or game.is_over, phases[-5:]
    assert "PLAY" in phases


@pytest.mark.parametrize(("name", "preset"), GAMES)
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_sampling_levels_bid_and_play_objects(name: str, preset: str | None, level: str) -> None:
    game = trumps.new_game(name, preset=preset, seed=5)
    rng = random.Random(2)
    phases = play(game, "easy", 400, rng)  # reach the play quickly
    assert game.deal_number == 1 or game.is_over
    game = trumps.new_game(name, preset=preset, seed=5)
    bot = bot_for(game.game, level)
    seen = set()
    while game.deal_number == 0 and not game.is_over and len(seen) < 3:
        legal = game.legal_actions()
        seen.add(game.phase)
        if game.phase == "PLAY" and len(legal) > 1:
            chosen = bot.choose(game.view(game.to_act_index), legal, rng)
            assert isinstance(chosen, Card) and chosen in legal
            break
        game.apply(bot_for(game.game, "easy").choose(game.view(game.to_act_index), legal, rng))
    else:  # pragma: no cover - every game reaches a card with a choice
        pytest.fail(f"no play decision reached: {phases}")


def test_notations_stay_notations_and_mixed_lists_work() -> None:
    game = trumps.new_game("500", seed=1)
    legal = game.legal_actions()
    as_text = [str(a) for a in legal]
    chosen = bot_for("500", "easy").choose(game.view(game.to_act_index), as_text, random.Random(0))
    assert type(chosen) is str and chosen in as_text
    mixed = [legal[0], *as_text[1:]]
    assert RandomBot().choose({}, mixed, random.Random(3)) in mixed


def test_no_legal_action_is_a_bot_error() -> None:
    with pytest.raises(BotError):
        RandomBot().choose({}, [], random.Random(0))
    assert issubclass(BotError, ValueError)


@pytest.mark.parametrize("name", ["500", "bridge", "coinche"])
def test_suggest_and_explain_take_a_live_game(name: str) -> None:
    from trumps.bots.suggest import explain, suggest

    game = trumps.new_game(name, seed=2)
    while game.phase != "PLAY":
        game.apply(game.legal_actions()[-1])  # the highest call: a contract at once
    found = suggest(game, level="normal")
    assert found["action"] in game.legal_actions() and isinstance(found["action"], Card)
    rows = explain(game)
    assert {r["action"] for r in rows} <= {str(a) for a in game.legal_actions()}
    view = game.view(game.to_act_index)
    by_name = suggest(name, view, view["legal"], level="normal")
    assert by_name["action"] == str(found["action"])  # same seed, same answer, as notation
    with pytest.raises(BotError):
        explain(name)  # a name alone does not say the decision
