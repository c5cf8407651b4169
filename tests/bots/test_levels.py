"""The levels in the registry, and what each level delegates."""

from __future__ import annotations

import random

import pytest

import trumps
from trumps.bots.base import BotError
from trumps.bots.bidsim import BidTimeout, SimulationBidder
from trumps.bots.levels import LEVELS, NormalBot, NormalRuleBot, NormalSimBot, StrongBot, card_actions
from trumps.bots.registry import KINDS, bot_for
from trumps.bots.sayc import SaycBot
from trumps.solver import SearchLimit


def test_kinds() -> None:
    assert set(KINDS) >= {"random", "rules", "easy", "normal", "strong"}
    assert type(bot_for("500", "easy")) is type(bot_for("500", "rules"))
    assert isinstance(bot_for("coinche", "normal"), NormalBot)
    assert isinstance(bot_for("bridge", "strong"), StrongBot)
    with pytest.raises(BotError):
        bot_for("bridge", "grandmaster")


def test_budgets_grow_with_the_level() -> None:
    n, s = LEVELS["normal"], LEVELS["strong"]
    assert s.samples > n.samples and s.nodes > n.nodes and s.bridge_samples > n.bridge_samples
    assert n.bid_samples == 0 and s.bid_samples > 0
    assert n.bid_samples_500 == 0 and s.bid_samples_500 > 0
    assert LEVELS["normal-rules"].bid_samples == LEVELS["normal-rules"].bid_samples_500 == 0


def test_bidders() -> None:
    assert isinstance(NormalBot().bidder("bridge"), SaycBot)
    assert type(NormalBot().bidder("coinche")) is type(bot_for("coinche", "rules"))
    assert isinstance(StrongBot().bidder("coinche"), SimulationBidder)
    for level, samples in ((StrongBot(), 16), (NormalSimBot(), 12)):
        bidder = level.bidder("500")
        assert isinstance(bidder, SimulationBidder) and bidder.samples == samples
    assert type(NormalBot().bidder("500")) is type(bot_for("500", "rules"))
    assert type(NormalRuleBot().bidder("500")) is type(bot_for("500", "rules"))
    assert type(NormalRuleBot().bidder("coinche")) is type(bot_for("coinche", "rules"))


def test_card_actions_leave_out_claims() -> None:
    assert card_actions(["AS", "CLAIM3", "ACCEPT", "REJECT", "2H"]) == ["AS", "2H"]


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_strong_plays_a_whole_deal_legally(game: str) -> None:
    from trumps.bots.selfplay import step

    m = trumps.new_game(game, seed=12)
    bots = [StrongBot() if s % 2 == 0 else bot_for(game, "easy") for s in range(m.players)]
    rng = random.Random(1)
    while not m.results and m.to_act_index is not None:
        step(m, bots[m.to_act_index], rng)
    assert m.results


def test_a_bid_simulation_past_its_bounds_bids_by_rule() -> None:
    """A simulated bid whose searches pass the node limit, or that runs past
    its time cap, is the rule bot's bid: never a long wait at the table."""
    m = trumps.new_game("coinche", seed=2)  # the simulation bids 120H, the rules 100H
    assert m.to_act_index is not None
    view = m.view(m.to_act_index)
    legal = [str(a) for a in m.legal_actions()]
    rules = bot_for("coinche", "rules")
    want = rules.choose(view, legal, random.Random(3))
    assert SimulationBidder("coinche", 4, rules).choose(view, legal, random.Random(3)) != want
    for bounds in ({"limit": 20}, {"cap": 0.0}):
        bidder = SimulationBidder("coinche", 4, rules, **bounds)
        assert bidder.choose(view, legal, random.Random(3)) == want
    m = trumps.new_game("500", seed=2)
    assert m.to_act_index is not None
    view, legal = m.view(m.to_act_index), [str(a) for a in m.legal_actions()]
    with pytest.raises(SearchLimit):
        SimulationBidder("500", 4, bot_for("500", "rules"), limit=20).options_for(
            view, legal, random.Random(1)
        )
    with pytest.raises(BidTimeout):
        SimulationBidder("500", 4, bot_for("500", "rules"), cap=0.0).options_for(
            view, legal, random.Random(1)
        )


def test_the_levels_bound_each_search() -> None:
    for name in ("normal", "strong"):
        b = LEVELS[name]
        assert b.nodes < b.limit <= 20_000_000 and 0 < b.bid_cap <= 10
    assert StrongBot().bidder("500").limit == LEVELS["strong"].limit  # type: ignore[attr-defined]
