"""Duplicate tournaments against the bots, for every game: the same deals
for every entrant, each compared with the field.

* :mod:`~trumps.tournaments.plan`: what a tournament plays
  (:class:`TournamentPlan`, a value that round-trips through JSON), its
  deals and the entrant's score on each;
* :mod:`~trumps.tournaments.ranking`: matchpoints and cross-IMPs per deal,
  the travelling score sheet, the ranking;
* :mod:`~trumps.tournaments.robots`: the bots at the other seats, whose
  play depends only on the deal and what was played before.

Like the engines, this package does no I/O: the room stores the plans,
entries and scores, and recomputes rankings from them.

>>> from trumps.tournaments import TournamentPlan, standings
>>> plan = TournamentPlan.make("500", deals=2, seed=7, preset="american", bots="easy")
>>> TournamentPlan.parse(str(plan)) == plan
True
>>> [(s.entrant, s.position, s.score) for s in standings({"ann": {0: 120, 1: -80}, "bob": {0: 40, 1: -80}}, 2)]
[('ann', 1, 75.0), ('bob', 2, 25.0)]
"""

from trumps.tournaments.plan import (
    BOT_LEVELS,
    MAX_DEALS,
    PLAYER_SEAT,
    TournamentError,
    TournamentPlan,
    scorings,
)
from trumps.tournaments.ranking import Frequency, Standing, deal_values, frequency_table, standings
from trumps.tournaments.robots import bot_action, play_deal, tournament_bot

__all__ = [
    "BOT_LEVELS",
    "MAX_DEALS",
    "PLAYER_SEAT",
    "Frequency",
    "Standing",
    "TournamentError",
    "TournamentPlan",
    "bot_action",
    "deal_values",
    "frequency_table",
    "play_deal",
    "scorings",
    "standings",
    "tournament_bot",
]
