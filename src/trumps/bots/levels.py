"""The bot levels of every game: ``easy``, ``normal`` and ``strong``.

* ``easy`` is the game's rule-based bot (:mod:`trumps.bots.five_hundred`,
  :mod:`~trumps.bots.bridge`, :mod:`~trumps.bots.coinche`).
* ``normal`` and ``strong`` play their cards by perfect-information Monte
  Carlo (:mod:`trumps.bots.pimc`) with a growing number of sampled deals and
  time budget; when several cards are worth the same the rule bot chooses
  among them (double dummy is indifferent between, say, two small
  discards; the rules are not).  Bidding: bridge uses the natural system of
  :mod:`trumps.bots.sayc` at both levels; 500 and coinche bid by rule at
  ``normal`` and by simulation (:mod:`trumps.bots.bidsim`) at ``strong``:
  the simulation is the larger budget that makes ``strong`` the stronger
  bidder (in 500 more play samples alone do not, docs/bots.md).

When the installed solver is too slow for a position (see
:func:`trumps.bots.solving.exact_limit`) the card is chosen by the rule bot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import trumps
from trumps.bots.base import Bot
from trumps.bots.pimc import Evaluation, evaluate
from trumps.bots.solving import exact_limit
from trumps.core.errors import TrumpsError

if TYPE_CHECKING:
    from trumps.bots.bidsim import SimulationBidder

__all__ = [
    "LEVELS",
    "Budget",
    "NormalBot",
    "NormalRuleBot",
    "NormalSimBot",
    "PimcBot",
    "StrongBot",
    "card_actions",
    "cards_in_hands",
]


@dataclass(frozen=True)
class Budget:
    """The work of one card decision: at most ``samples`` deals and
    ``nodes`` solver nodes (the C solver searches about 4.5 million a second
    here), and a wall-clock ``cap`` that only an overloaded machine hits.
    Bridge's DDS reports no nodes, so there ``bridge_samples`` bounds it.

    ``limit`` bounds one search (a sampled deal) in nodes: the rare deal
    whose search would run for seconds or minutes is dropped (with none
    solved, the rule bot plays), so that no decision holds the solver,
    which runs one search per processor at once, for long.  A bid's
    simulation has the same ``limit`` per search and ``bid_cap`` seconds."""

    samples: int
    nodes: int
    cap: float
    bridge_samples: int
    #: deals simulated per coinche bid (0: the rule bot bids)
    bid_samples: int = 0
    #: deals simulated per 500 bid (0: the rule bot bids)
    bid_samples_500: int = 0
    limit: int = 4_000_000
    bid_cap: float = 4.0


_NORMAL = Budget(16, 1_000_000, 1.0, 8, bid_samples=0, bid_samples_500=0)

LEVELS: dict[str, Budget] = {
    "normal": _NORMAL,
    "normal-sim": Budget(16, 1_000_000, 1.0, 8, bid_samples=8, bid_samples_500=12),
    "normal-rules": _NORMAL,  # the name of docs/bots.md's arena runs
    "strong": Budget(
        96, 8_000_000, 4.0, 48, bid_samples=8, bid_samples_500=16, limit=16_000_000, bid_cap=8.0
    ),
}


def cards_in_hands(view: Mapping[str, object]) -> int:
    """Cards still held by the seats that play (from the public hand sizes)."""
    sitting = view.get("sitting_out") or []
    sizes = view.get("hand_sizes") or {}
    if not isinstance(sitting, (list, tuple)) or not isinstance(sizes, Mapping):
        raise TypeError("a view's sitting_out is a list and its hand_sizes an object")
    out = set(sitting)
    return sum(int(k) for s, k in sizes.items() if s not in out)


def card_actions(legal: list[str]) -> list[str]:
    """The card plays among ``legal`` (not bridge's claims and their answers,
    nor coinche's meld declarations)."""
    return [a for a in legal if not a.startswith(("CLAIM", "MELD")) and a not in ("ACCEPT", "REJECT")]


class PimcBot(Bot):
    """Card play by PIMC; other decisions by the game's bidder."""

    name: ClassVar[str] = "pimc"
    level: ClassVar[str] = "normal"

    def __init__(self) -> None:
        self._rules: dict[str, Bot] = {}
        self._bidders: dict[str, Bot] = {}
        self.budget = LEVELS[self.level]
        self.last: Evaluation | None = None  # the last card decision's evaluation

    def rules(self, game: str) -> Bot:
        """The game's rule-based bot (the ``easy`` level)."""
        if game not in self._rules:
            from trumps.bots.registry import bot_for

            self._rules[game] = bot_for(game, "rules")
        return self._rules[game]

    def bidder(self, game: str) -> Bot:
        """Who makes this level's non-card decisions in ``game``."""
        if game not in self._bidders:
            spec = trumps.game_spec(game)
            samples = self.bid_samples(game)
            self._bidders[game] = (
                self.simulation_bidder(game, samples)
                if samples > 0 and spec.has("bid_simulation") and not spec.has("system_bidder")
                else _bidder(game, self.rules(game))
            )
        return self._bidders[game]

    def bid_samples(self, game: str) -> int:
        """Deals this level simulates per bid in ``game`` (0: it bids by rule);
        the game's spec names the budget's field (``bid_budget``)."""
        spec = trumps.game_spec(game)
        return int(getattr(self.budget, spec.bid_budget)) if spec.has("bid_simulation") else 0

    def simulation_bidder(self, game: str, samples: int) -> SimulationBidder:
        """A bidder by simulation of ``samples`` deals under this level's
        bounds (500 or coinche)."""
        from trumps.bots.bidsim import SimulationBidder

        b = self.budget
        return SimulationBidder(game, samples, self.rules(game), limit=b.limit, cap=b.bid_cap)

    def _route(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """Who makes this decision: ``"one"`` (a single legal action or
        card), ``"bidder"`` (anything but card play), ``"rules"`` (a claim
        to answer or a meld) or ``"cards"`` (a card among several: searched,
        unless more cards are in hand than the search takes on).  Cheap and
        free of the solver (:meth:`searches` asks it on the room's event
        loop; :func:`exact_limit` may warm the solver up the first time)."""
        if len(legal) == 1:
            return "one"
        if str(view.get("phase", "")).upper() != "PLAY":
            return "bidder"
        cards = card_actions(list(legal))
        if len(cards) != len(legal) and ("ACCEPT" in legal or not cards or legal[0].startswith("MELD")):
            return "rules"  # a bridge claim to answer, or a meld to declare
        if len(cards) == 1:
            return "one"
        return "cards"

    def searches(self, view: Mapping[str, Any], legal: Sequence[str]) -> bool:
        route = self._route(view, legal)
        if route == "bidder":
            return self.bidder(str(view.get("game"))).searches(view, legal)
        return route == "cards"  # (a hand too big to search goes to the rule bot there: rare, and quick)

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        game = str(view.get("game"))
        route = self._route(view, legal)
        if route == "one":
            return legal[0] if len(legal) == 1 else card_actions(legal)[0]
        if route == "bidder":
            return self.bidder(game).choose(view, legal, rng)
        if route == "rules" or cards_in_hands(view) > exact_limit(game):
            return self.rules(game).choose(view, legal, rng)
        cards = card_actions(legal)
        try:
            ev = self.evaluate(view, cards, rng)
        except TrumpsError:  # no consistent deal, or a position the solver refuses
            return self.rules(game).choose(view, legal, rng)
        self.last = ev
        best = ev.best(eps=1e-6)
        if len(best) == 1:
            return best[0]
        choice = self.rules(game).choose(view, list(best), rng)
        return choice if choice in best else best[0]

    def evaluate(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> Evaluation:
        """This level's PIMC evaluation of a card decision."""
        b = self.budget
        # DDS reports no node counts: there the sample count alone bounds the work
        samples = (
            b.bridge_samples if trumps.game_spec(str(view.get("game"))).double_dummy_via_dds else b.samples
        )
        return evaluate(view, legal, rng, samples=samples, nodes=b.nodes, budget=b.cap, limit=b.limit)


def _bidder(game: str, rules: Bot) -> Bot:
    """The bidder of a level that does not simulate: the game's bidding
    system (bridge's natural system), else the rule bot."""
    system = trumps.game_spec(game).hook("system_bidder")
    if system is not None:
        bot: Bot = system()
        return bot
    return rules


class NormalBot(PimcBot):
    """``normal``: PIMC with a small budget (about 0.1 s a card)."""

    name = "normal"
    level = "normal"


class NormalSimBot(PimcBot):
    """``normal`` card play with simulation bidding (coinche as ``strong``,
    500 with 12 deals per bid): the arena variant that measures what the
    bidding alone is worth."""

    name = "normal-sim"
    level = "normal-sim"


class NormalRuleBot(PimcBot):
    """``normal`` card play with rule bidding everywhere (500 and coinche),
    now the same as ``normal``; kept as the name the arena runs in
    docs/bots.md used."""

    name = "normal-rules"
    level = "normal-rules"


class StrongBot(PimcBot):
    """``strong``: PIMC with a large budget (under a second a card)."""

    name = "strong"
    level = "strong"
