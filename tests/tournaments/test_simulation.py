"""A tournament with 200 simulated entrants (bots of several levels at
South) against the plan's bots: every deal played by each, the field's
scores compared, and the ranking checked against counting by hand."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from trumps.bots.registry import bot_for
from trumps.core.protocol import Action, Deal, Match
from trumps.tournaments import TournamentPlan, frequency_table, play_deal, standings


def entrant(kind: str, seed: int) -> Callable[[Match[Deal]], Action]:
    bot = bot_for("coinche", kind)
    rng = random.Random(seed)

    def choose(m: Match[Deal]) -> Action:
        seat = m.to_act_index
        assert seat is not None
        view = m.view(seat) if bot.needs_view else {}
        return bot.choose(view, m.legal_actions(), rng)

    return choose


@pytest.mark.slow
def test_two_hundred_entrants_rank_as_counted_by_hand() -> None:
    plan = TournamentPlan.make("coinche", 3, 2026, preset="contree_exact", bots="easy")
    kinds = ["random", "easy"]
    scores: dict[str, dict[int, int]] = {}
    for i in range(200):
        kind = kinds[i % 2]
        play = entrant(kind, i)
        scores[f"{kind}-{i}"] = {k: plan.side_score(play_deal(plan, k, play)) for k in range(plan.deals)}

    def by_hand(k: int, e: str) -> float:
        mine = scores[e][k]
        others = [s[k] for f, s in scores.items() if f != e]
        return 100.0 * sum(1.0 if mine > t else 0.5 if mine == t else 0.0 for t in others) / len(others)

    rows = standings(scores, plan.deals)
    assert len(rows) == 200
    expected = {e: sum(by_hand(k, e) for k in range(plan.deals)) / plan.deals for e in scores}
    assert {r.entrant: r.score for r in rows} == pytest.approx(expected)
    assert [r.position for r in rows] == sorted(r.position for r in rows)
    # the easy bot, which bids and plays by rule, beats the random one on average
    mean = {k: sum(v for e, v in expected.items() if e.startswith(k)) / 100 for k in kinds}
    assert mean["easy"] > mean["random"] + 10
    # every deal's sheet accounts for every entrant
    for k in range(plan.deals):
        assert sum(f.count for f in frequency_table({e: s[k] for e, s in scores.items()})) == 200
