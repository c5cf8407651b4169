"""The C search against the pure-Python reference, and the reference against
plain minimax, on many small random positions of every game and option
family (C == Python is the property the C module lives by)."""

from __future__ import annotations

import random

import pytest

from trumps.solver import c_available, position_of, solve
from trumps.solver.randpos import random_position_match
from trumps.solver.reference import brute_force, legal_moves, play

GAMES = ["500", "coinche", "bridge"]
needs_c = pytest.mark.skipif(not c_available(), reason="the C solver is not built")


@needs_c
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cards", [2, 3, 4])
def test_c_equals_python(game: str, cards: int) -> None:
    rng = random.Random(f"{game}/{cards}")
    count = {2: 300, 3: 300, 4: 60}[cards]
    for _ in range(count):
        match = random_position_match(game, rng, cards)
        c = solve(match, engine="c")
        py = solve(match, engine="python")
        assert c.values == py.values, (match.deal.contract, match.options, str(match.log))
        assert c.best == py.best and c.maximising == py.maximising


@pytest.mark.parametrize("game", GAMES)
def test_reference_equals_minimax(game: str) -> None:
    rng = random.Random(f"minimax/{game}")
    for _ in range(120):
        match = random_position_match(game, rng, 2 + rng.randrange(2))
        pos = position_of(match)
        values = solve(match, engine="python").values
        for move in legal_moves(pos):
            child, over = play(pos, move)
            assert values[str(move)] == (child.won if over else brute_force(child))


@needs_c
@pytest.mark.parametrize(
    "options",
    [
        {"players": "2v2v2"},
        {"players": "3v3"},
        {"nullo_plays": "both_hands"},
        {"joker_low_in_misere": True, "kitty_size": 6},
        {"joker_lead_suit_restriction": True, "kitty_size": 6},
        {"end_hand_when_decided": True},
    ],
)
def test_c_equals_python_500_options(options: dict[str, object]) -> None:
    rng = random.Random(str(options))
    for _ in range(60):
        match = random_position_match("500", rng, 3, **options)
        assert solve(match, engine="c").values == solve(match, engine="python").values


@needs_c
@pytest.mark.parametrize(("seed", "cards", "index"), [(5, 5, 171), (5, 5, 298), (5, 3, 19)])
def test_c_equals_python_no_trump_joker_regressions(seed: int, cards: int, index: int) -> None:
    """500 no-trump positions where a later-trick bound counting the side on
    lead's own joker as one more trick was wrong (the joker can also fell one
    of the other side's top cards, thrown on it): kept as regressions."""
    rng = random.Random(seed)
    for _ in range(index):
        random_position_match("500", rng, cards)
    match = random_position_match("500", rng, cards)
    assert position_of(match).rules.trump is None
    assert solve(match, engine="c").values == solve(match, engine="python").values


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
@needs_c
def test_c_equals_python_500_no_trumps_with_the_joker() -> None:
    """No-trump positions with the joker still in a hand: the later-trick
    bound counts our joker's trick and the suits it would fell (each card
    of theirs above ours a singleton), which the reference does not know."""
    rng = random.Random("500/nt-joker")
    checked = 0
    while checked < 150:
        match = random_position_match(
            "500", rng, 4, contract=rng.choice(["6NT", "7NT", "8NT", "9NT", "10NT"])
        )
        pos = position_of(match)
        if pos.rules.trump is not None or not any(c.is_joker for s in pos.active for c in pos.hands[s]):
            continue
        checked += 1
        assert solve(match, engine="c").values == solve(match, engine="python").values, str(match.log)
