"""``solver.value``: the position's result by one search equals the best of
``solve``'s per-card values, on random positions of every game and on full
deals, with the C engine and the Python reference; bad input is refused."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.solver import SolverError, c_available, solve, value
from trumps.solver.randpos import random_match, random_position_match

needs_c = pytest.mark.skipif(not c_available(), reason="the C solver is not built")


def _best(match: object) -> int:
    sol = solve(match, engine="python")
    return (max if sol.maximising else min)(sol.values.values())


@needs_c
@pytest.mark.parametrize("game", ["500", "coinche", "bridge"])
def test_value_is_the_best_card_value(game: str) -> None:
    rng = random.Random(f"value/{game}")
    for _ in range(150):
        match = random_position_match(game, rng, 2 + rng.randrange(3))
        expected = _best(match)
        assert value(match, engine="c") == expected, str(match.log)
        assert value(match, engine="python") == expected


@needs_c
@pytest.mark.parametrize(
    ("game", "contracts", "options"),
    [
        ("500", ["6S", "8NT", "MIS"], {"players": "2v2"}),
        ("coinche", ["80S", "100NT", "110AT"], {}),
    ],
)
def test_value_of_full_deals_matches_solve(game: str, contracts: list[str], options: dict[str, str]) -> None:
    rng = random.Random(f"value-full/{game}")
    for _ in range(8):
        match = random_match(game, rng, rng.choice(contracts), **options)
        sol = solve(match, engine="c")
        assert value(match) == (max if sol.maximising else min)(sol.values.values())


def test_value_mid_trick_counts_tricks_already_won() -> None:
    match = trumps.new_game("500", seed=4, contract="8H", declarer="E")
    for _ in range(7):  # into the second trick
        match.apply(solve(match).best[0])
    sol = solve(match)
    assert value(match) == (max if sol.maximising else min)(sol.values.values())


def test_value_refuses_what_solve_refuses() -> None:
    match = trumps.new_game("500", seed=1)
    with pytest.raises(SolverError, match="trick play"):
        value(match)
    with pytest.raises(SolverError, match="engine"):
        value(trumps.new_game("500", seed=4, contract="8H", declarer="E"), engine="java")
