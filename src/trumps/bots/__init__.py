"""Bots: players that decide from one seat's view (never the game itself).

* :class:`Bot` — the interface: ``choose(view, legal, rng) -> str``.
* :class:`RandomBot` — a uniformly random legal action (every game).
* :func:`bot_for` — ``bot_for("500", "rules")``; rule bots load lazily.
* :func:`selfplay` — bots play whole games; a pure summary comes back.

>>> from trumps.bots import bot_for, selfplay
>>> r = selfplay("500", ["rules", "random"], games=2, seed=5)
>>> r.games
2
"""

from trumps.bots.base import Bot, BotError, RandomBot
from trumps.bots.registry import KINDS, bot_for, has_rule_bot
from trumps.bots.selfplay import SelfPlayResult, bots_for_seats, play_game, play_games, selfplay, step

__all__ = [
    "KINDS",
    "Bot",
    "BotError",
    "RandomBot",
    "SelfPlayResult",
    "bot_for",
    "bots_for_seats",
    "has_rule_bot",
    "play_game",
    "play_games",
    "selfplay",
    "step",
]
