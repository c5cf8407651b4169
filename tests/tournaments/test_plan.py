"""A tournament plan is a value: it round-trips through text, refuses what
cannot be played, and its deals are the same wherever they are dealt."""

from __future__ import annotations

import random
from datetime import date

import pytest

import trumps
from trumps.tournaments import PLAYER_SEAT, TournamentError, TournamentPlan


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        ("bridge", None, {}),
        ("500", "american", {}),
        ("500", "australian", {"players": "3v3"}),
        ("coinche", "pagat", {}),
    ],
)
def test_a_plan_round_trips_through_text(game: str, preset: str | None, options: dict[str, object]) -> None:
    plan = TournamentPlan.make(game, 4, 99, preset=preset, options=options, bots="strong")
    again = TournamentPlan.parse(str(plan))
    assert again == plan and str(again) == str(plan)
    assert TournamentPlan.from_json(plan.to_json()) == plan


def test_deals_are_a_function_of_the_plan() -> None:
    plan = TournamentPlan.make("500", 6, 5, preset="american")
    first = [plan.new_deal(k).to_json() for k in range(6)]
    assert first == [TournamentPlan.parse(str(plan)).new_deal(k).to_json() for k in range(6)]
    hands = [plan.new_deal(k).deal.dealt for k in range(6)]
    assert len({str(h) for h in hands}) == 6, "six different deals"
    other = TournamentPlan.make("500", 6, 6, preset="american")
    assert other.new_deal(0).deal.dealt != hands[0]
    # each deal is a game of its own, over with its result
    assert all(plan.new_deal(k).options.max_deals == 1 for k in range(6))


def test_bridge_deals_are_numbered_boards() -> None:
    plan = TournamentPlan.make("bridge", 8, 3, scoring="imps")
    board5 = plan.new_deal(4)
    assert board5.options.board == 5 and board5.options.scoring == "duplicate_imp"
    assert board5.deal.dealer == 0  # board 5 is dealt by North, as board 1
    assert TournamentPlan.make("bridge", 8, 3).new_deal(0).options.scoring == "duplicate_mp"


@pytest.mark.parametrize("game", ["bridge", "500", "coinche"])
def test_the_side_score_is_south_sides_points(game: str) -> None:
    plan = TournamentPlan.make(game, 2, 11)
    m = plan.new_deal(1)
    with pytest.raises(TournamentError):
        plan.side_score(m)
    rng = random.Random(3)
    while not plan.deal_over(m):
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    assert plan.side_score(m) == m.results[0]["points"][m.team_of(PLAYER_SEAT)]
    assert m.seat_names[PLAYER_SEAT] == "S"


def test_the_daily_plan_is_the_same_for_everyone_and_changes_every_day() -> None:
    day = date(2026, 11, 28)
    assert TournamentPlan.daily("bridge", day) == TournamentPlan.daily("Bridge", day)
    assert TournamentPlan.daily("bridge", day).seed != TournamentPlan.daily("bridge", date(2026, 11, 29)).seed
    assert TournamentPlan.daily("500", day).seed != TournamentPlan.daily("coinche", day).seed
    assert [TournamentPlan.daily(g, day).deals for g in ("bridge", "500", "coinche")] == [8, 6, 8]
    secret = TournamentPlan.daily("bridge", day, seed=12345)  # what a room passes: a seed nobody can derive
    assert (
        secret.seed == 12345
        and secret.deals == 8
        and secret.preset == TournamentPlan.daily("bridge", day).preset
    )
    with pytest.raises(TournamentError):
        TournamentPlan.daily("bridge", day, seed=-1)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"game": "chess", "deals": 4, "seed": 1}, "unknown game"),
        ({"game": "500", "deals": 0, "seed": 1}, "1 to 32 deals"),
        ({"game": "500", "deals": 33, "seed": 1}, "1 to 32 deals"),
        ({"game": "500", "deals": True, "seed": 1}, "1 to 32 deals"),
        ({"game": "500", "deals": 4, "seed": -1}, "seed"),
        ({"game": "500", "deals": 4, "seed": 1, "scoring": "imps"}, "matchpoints"),
        ({"game": "coinche", "deals": 4, "seed": 1, "bots": "genius"}, "bots play at"),
        ({"game": "bridge", "deals": 4, "seed": 1, "options": {"board": 3}}, "numbers its own boards"),
        ({"game": "500", "deals": 4, "seed": 1, "preset": "nonesuch"}, "preset"),
        ({"game": "500", "deals": 4, "seed": 1, "options": {"kitty_size": 99}}, "kitty"),
    ],
)
def test_a_plan_that_cannot_be_played_is_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(trumps.OptionError) as err:
        TournamentPlan.make(**kwargs)  # type: ignore[arg-type]
    assert words in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        "{}",
        '{"game": "500"}',
        '{"game": "500", "deals": 2, "seed": 1, "extra": 1}',
        '{"game": "500", "deals": 2, "seed": 1, "options": []}',
        '{"game": "500", "deals": 2, "seed": 1, "preset": 5}',
    ],
)
def test_a_malformed_plan_text_is_a_tournament_error(text: str) -> None:
    with pytest.raises(TournamentError):
        TournamentPlan.parse(text)


def test_a_deal_out_of_range_is_refused() -> None:
    plan = TournamentPlan.make("coinche", 3, 1)
    for k in (-1, 3, "1", None):
        with pytest.raises(TournamentError):
            plan.new_deal(k)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["500", "coinche"])
def test_a_deal_is_a_game_that_ends_with_its_result(game: str) -> None:
    plan = TournamentPlan.make(game, 4, 12)
    rng = random.Random(1)
    for k in range(4):
        m = plan.new_deal(k)
        while not m.is_over:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        assert len(m.results) == 1
    with pytest.raises(TournamentError):
        TournamentPlan.make(game, 4, 12, options={"max_deals": 3})
