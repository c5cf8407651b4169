"""The bot interface: a bot decides from one seat's view and the legal list.

A bot never receives the :class:`~trumps.core.protocol.Match`: the driver
hands it ``match.view(seat)`` (everything that seat may see, as JSON data),
the legal actions' notations and a random generator, and applies the
notation it returns.  So a bot can never see more than its seat may.

A bot that ignores the view (:class:`RandomBot`) sets ``needs_view = False``
and the driver passes an empty dict instead of building the view, which
keeps fast self-play fast.

>>> import random
>>> RandomBot().choose({}, ["P", "7H"], random.Random(1)) in ("P", "7H")
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from trumps.core.errors import TrumpsError

__all__ = ["Bot", "BotError", "RandomBot"]


class BotError(TrumpsError):
    """No such bot, or a bot answered with an action that is not legal."""


class Bot(ABC):
    """A player that picks one of ``legal`` (notations) from ``view``."""

    #: The bot's short name, shown by the command line.
    name: ClassVar[str] = "bot"
    #: ``False``: the bot ignores the view, so drivers may pass ``{}``.
    needs_view: ClassVar[bool] = True

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """One of ``legal``.  ``view`` is the acting seat's view (``{}`` when
        :attr:`needs_view` is false); ``rng`` is the only source of chance."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """A uniformly random legal action, in every game."""

    name = "random"
    needs_view = False

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        if not legal:
            raise BotError("no legal action to choose from")
        return legal[rng.randrange(len(legal))]
