"""The bot interface: a bot decides from one seat's view and the legal list.

A bot never receives the :class:`~trumps.core.protocol.Match`: the driver
hands it ``match.view(seat)`` (everything that seat may see, as JSON data),
the legal actions and a random generator, and applies what it returns.  So a
bot can never see more than its seat may.

The legal actions may be the engine's own objects (``match.legal_actions()``:
cards, calls) or their notation strings (a view's ``"legal"``, the wire);
:meth:`Bot.choose` answers in the same kind it was given, so both
``match.apply(bot.choose(view, match.legal_actions(), rng))`` and the
room's string loop work.  Implementations write :meth:`Bot.decide`, which
always sees notations.

A bot that ignores the view (:class:`RandomBot`) sets ``needs_view = False``
and the driver passes an empty dict instead of building the view, which
keeps fast self-play fast.

A view is JSON data (:data:`~trumps.core.json_types.JSONObject`) here,
where it is only handed on.  The bots that read it declare
``Mapping[str, Any]`` in :meth:`Bot.decide` and their helpers: they read it
key by key in their decision loops (and the simulations' sampling loops),
where narrowing every value with ``isinstance`` would cost self-play speed
(``benchmarks/bots.py`` measures it); the views' shapes are the games'
(``five_hundred/view.py`` and its siblings).

>>> import random
>>> RandomBot().choose({}, ["P", "7H"], random.Random(1)) in ("P", "7H")
True
>>> from trumps import Card
>>> RandomBot().choose({}, [Card.parse("7H")], random.Random(1))
Card('7H')
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from trumps.core.errors import TrumpsError
from trumps.core.json_types import JSONObject

__all__ = ["Bot", "BotError", "RandomBot"]


class BotError(TrumpsError):
    """No such bot, or a bot answered with an action that is not legal."""


A = TypeVar("A")


class Bot(ABC):
    """A player that picks one of ``legal`` from ``view``."""

    #: The bot's short name, shown by the command line.
    name: ClassVar[str] = "bot"
    #: ``False``: the bot ignores the view, so drivers may pass ``{}``.
    needs_view: ClassVar[bool] = True

    def choose(self, view: JSONObject, legal: Sequence[A], rng: random.Random) -> A:
        """One of ``legal``, the same object it was given (an action or its
        notation).  ``view`` is the acting seat's view (``{}`` when
        :attr:`needs_view` is false); ``rng`` is the only source of chance.
        Raises :class:`BotError` with no legal action."""
        if not legal:
            raise BotError("no legal action to choose from")
        if all(type(a) is str for a in legal):
            return self.decide(view, list(legal), rng)  # type: ignore[arg-type, return-value]
        notations = [str(a) for a in legal]
        chosen = self.decide(view, notations, rng)
        try:
            return legal[notations.index(chosen)]
        except ValueError:
            raise BotError(f"{self.name} chose {chosen!r}, which is not legal") from None

    @abstractmethod
    def decide(self, view: JSONObject, legal: list[str], rng: random.Random) -> str:
        """One of ``legal`` (notations): what each bot implements."""

    def searches(self, view: JSONObject, legal: Sequence[str]) -> bool:
        """Whether deciding this (``view``, ``legal`` as notations) may take
        long, a search or a simulation: a driver that keeps slow work apart
        asks first (the room thinks on one thread pool for searches and on
        another for quick answers, so a bid by rule never queues behind
        other tables' searches).  True unless the bot knows better: the
        rule bots answer False, the search levels by the decision."""
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """A uniformly random legal action, in every game."""

    name = "random"
    needs_view = False

    def decide(self, view: JSONObject, legal: list[str], rng: random.Random) -> str:
        if not legal:
            raise BotError("no legal action to choose from")
        return legal[rng.randrange(len(legal))]

    def searches(self, view: JSONObject, legal: Sequence[str]) -> bool:
        return False
