"""The end of a coinche game by the number of deals (``max_deals``)."""

from __future__ import annotations

import random

import pytest

import trumps


@pytest.mark.parametrize("limit", [1, 2])
def test_max_deals_ends_the_game_with_the_higher_score_winning(limit: int) -> None:
    for seed in range(6):
        g = trumps.new_game("coinche", preset="ffb_2016", options={"max_deals": limit}, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        assert len(g.results) <= limit
        a, b = g.scores
        if len(g.results) == limit and max(a, b) < g.options.target_score:
            assert g.winner == (None if a == b else int(b > a))
        assert trumps.load_game(g.to_json()).to_json() == g.to_json()
