"""The duplicate arena: same cards both ways, exact gains, honest intervals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from trumps.bots.arena import duplicate_deal, duplicate_match, interval
from trumps.bots.base import Bot, BotError, RandomBot
from trumps.bots.registry import bot_for
from trumps.cli.arena import main


def test_interval_of_known_sample() -> None:
    i = interval([1.0, 2.0, 3.0, 4.0])
    assert i.mean == 2.5
    assert i.n == 4
    # sd = 1.29099..., half width 1.96 * sd / 2
    assert i.high - i.mean == pytest.approx(1.96 * 1.2909944487358056 / 2)
    assert i.excludes_zero
    assert not interval([-1.0, 1.0]).excludes_zero
    assert interval([]).n == 0
    assert interval([5.0]).low == 5.0


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_same_bot_both_ways_gains_nothing(game: str) -> None:
    r = duplicate_match(game, "rules", "rules", deals=6, seed=3)
    for deal in r.per_deal:
        assert all(v == 0 for v in deal.gains.values())
        # the two tables are mirror images
        assert deal.tables[0].get("contract") == deal.tables[1].get("contract")


def test_rules_beat_random_in_coinche() -> None:
    r = duplicate_match("coinche", "rules", "random", deals=30, seed=1)
    s = r.summary()
    assert set(s) == {"deal_score", "card_points"}
    assert s["card_points"].low > 0


def test_seats_are_swapped() -> None:
    seen: list[tuple[int, str]] = []

    class Tag(Bot):
        name = "tag"

        def __init__(self, tag: str) -> None:
            self.tag = tag

        def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
            seen.append((["N", "E", "S", "W"].index(view["seat"]), self.tag))
            return RandomBot().choose(view, legal, rng)

    duplicate_deal("bridge", lambda: Tag("A"), lambda: Tag("B"), seed=4)
    first = [(s, t) for s, t in seen[: len(seen) // 2]]
    a_seats_1 = {s for s, t in first if t == "A"}
    assert a_seats_1 <= {0, 2}
    a_seats_2 = {s for s, t in seen[len(seen) // 2 :] if t == "A"}
    assert a_seats_2 <= {1, 3}


def test_bridge_gain_is_imps_of_the_two_ns_scores() -> None:
    out = duplicate_deal("bridge", lambda: bot_for("bridge", "rules"), lambda: RandomBot(), seed=2)
    from trumps.bridge.duplicate import team_imps

    ns1 = out.tables[0]["points"][0]
    ns2 = out.tables[1]["points"][0]
    assert out.gains["imps"] == team_imps(ns1, ns2)


def test_jobs_give_the_same_result() -> None:
    one = duplicate_match("500", "rules", "random", deals=4, seed=9)
    two = duplicate_match("500", "rules", "random", deals=4, seed=9, jobs=2)
    assert [d.gains for d in one.per_deal] == [d.gains for d in two.per_deal]


def test_errors() -> None:
    with pytest.raises(BotError):
        duplicate_match("500", "rules", "nonsense", deals=1)
    with pytest.raises(BotError):
        duplicate_match("500", "rules", "rules", deals=0)


def test_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coinche", "--a", "rules", "--b", "random", "--deals", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "3 duplicate deals" in out and "card_points" in out
    assert main(["500", "--a", "rules", "--b", "rules", "--deals", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["points"]["mean"] == 0.0
    assert main(["500", "--a", "nope"]) == 2


def test_arena_bots_have_no_wall_clock_cap() -> None:
    import math

    from trumps.bots.arena import _factory, uncapped
    from trumps.bots.levels import PimcBot

    bot, level = _factory("500", "normal")(), bot_for("500", "normal")
    assert isinstance(bot, PimcBot) and isinstance(level, PimcBot)
    assert bot.budget.cap == bot.budget.bid_cap == math.inf
    assert bot.budget.limit == level.budget.limit  # the node limit is deterministic: kept
    assert level.budget.cap < math.inf  # the levels keep theirs
    plain = RandomBot()
    assert uncapped(plain) is plain
