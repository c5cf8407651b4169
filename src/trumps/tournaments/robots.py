"""The bots of a tournament: the same play for every entrant on a deal.

Fairness needs the bots at North, East and West to answer the same way to
the same cards: two entrants who play the same cards on a deal must meet
the same bids and plays.  So a bot's decision here is a pure function of
the plan, the deal and the game's history:

* its random numbers come from a generator seeded by the plan's seed, the
  deal and the number of actions so far (not the table's generator, whose
  state depends on what came before, possibly other deals or a restart);
* a new bot makes each decision, so nothing a bot remembered from another
  entrant's game (or another deal) steers it;
* ``normal`` and ``strong`` keep their budgets in solver nodes and sampled
  deals but lose the wall-clock cap, which only an overloaded machine hits
  and which would make the same position play differently under load.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable

from trumps.bots.base import Bot
from trumps.bots.levels import PimcBot
from trumps.bots.registry import bot_for
from trumps.core.protocol import Action, Deal, Match
from trumps.tournaments.plan import PLAYER_SEAT, TournamentError, TournamentPlan

__all__ = ["bot_action", "decision_rng", "play_deal", "tournament_bot"]


def tournament_bot(game: str, level: str) -> Bot:
    """A new bot of ``level`` for ``game`` whose decisions depend on nothing
    but its view and its generator (no wall-clock cap)."""
    bot = bot_for(game, "rules" if level == "easy" else level, fallback=level == "easy")
    if isinstance(bot, PimcBot):
        bot.budget = dataclasses.replace(bot.budget, cap=math.inf, bid_cap=math.inf)
    return bot


def decision_rng(plan: TournamentPlan, k: int, actions: int) -> random.Random:
    """The generator of the bot decision after ``actions`` actions of deal ``k``."""
    return random.Random(f"trumps.tournament/{plan.seed}/{k}/{actions}")


def bot_action(plan: TournamentPlan, k: int, match: Match[Deal]) -> Action:
    """The action of the bot to act on deal ``k`` of ``plan``.  Raises
    :class:`TournamentError` when it is the entrant's turn or the deal is over."""
    seat = match.to_act_index
    if seat is None or plan.deal_over(match):
        raise TournamentError("the deal is over")
    if seat == PLAYER_SEAT:
        raise TournamentError("it is the entrant's turn, not a bot's")
    bot = tournament_bot(plan.game, plan.bots)
    legal = match.legal_actions()
    view = match.view(seat) if bot.needs_view else {}
    return bot.choose(view, legal, decision_rng(plan, k, len(match.log)))


def play_deal(plan: TournamentPlan, k: int, entrant: Callable[[Match[Deal]], Action]) -> Match[Deal]:
    """Deal ``k`` played to its result: the plan's bots at their seats and
    ``entrant`` (called with the game when it is South's turn) at South.
    What the room does one action at a time; here for simulations, tests
    and benchmarks."""
    match = plan.new_deal(k)
    while not plan.deal_over(match):
        if match.to_act_index == PLAYER_SEAT:
            match.apply(entrant(match))
        else:
            match.apply(bot_action(plan, k, match))
    return match
