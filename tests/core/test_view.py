"""The view frame every game's view is built on (``trumps.core.view``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import trumps

KEYS = json.loads((Path(__file__).parents[1] / "data" / "core" / "view_keys.json").read_text())


def _after_one_trick(game: str) -> trumps.Match:  # type: ignore[type-arg]
    g = trumps.new_game(game, seed=3)
    rng = random.Random(3)
    while g.deal.phase != "PLAY" or len(g.deal.tricks) < 1:
        g.apply(rng.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_keys_keep_their_order(game: str) -> None:
    g = _after_one_trick(game)
    assert list(g.view(g.to_act_index).keys()) == KEYS[game]["to_act"]
    assert list(g.view(None).keys()) == KEYS[game]["spectator"]


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_the_frame_shows_a_seat_what_it_may_see(game: str) -> None:
    g = _after_one_trick(game)
    actor = g.to_act_index
    assert actor is not None
    exposed = g.deal.visible_hands(None) if hasattr(g.deal, "visible_hands") else set()  # coinche shows none
    other = next(s for s in range(g.players) if s != actor and actor not in exposed)
    mine, theirs, nobody = g.view(actor), g.view(other), g.view(None)
    name = g.seat_name
    assert mine["legal"] == [str(a) for a in g.legal_actions()] and theirs["legal"] == [] == nobody["legal"]
    assert mine["hands"][name(actor)] is not None and theirs["hands"][name(actor)] is None
    assert nobody["hands"][name(actor)] is None
    assert mine["tricks"] == theirs["tricks"] == nobody["tricks"]
    t = g.deal.tricks[0]
    assert mine["tricks"][0]["winner"] == name(t.winner) and mine["tricks"][0]["cards"] == [
        str(c) for c in t.cards
    ]
    assert ("led_suit" in mine["tricks"][0]) == (game == "500")
