"""``bots.solving.solve_value``: one search gives the best of the per-card
values, for every game's solver (the project's C search, DDS for bridge)."""

from __future__ import annotations

import random

import pytest

from trumps.bots.solving import solve_value, solve_values
from trumps.solver.randpos import random_match, random_position_match


@pytest.mark.parametrize("game", ["500", "coinche", "bridge"])
def test_solve_value_is_the_best_card_value(game: str) -> None:
    rng = random.Random(f"solve-value/{game}")
    for _ in range(30):
        match = random_position_match(game, rng, rng.randint(2, 6))
        vals = solve_values(match)
        best = (max if vals.maximising else min)(vals.values.values())
        assert solve_value(match) == best


def test_solve_value_of_a_full_500_deal() -> None:
    match = random_match("500", random.Random(8), "7S", players="2v2")
    vals = solve_values(match)
    assert solve_value(match) == (max if vals.maximising else min)(vals.values.values())
