"""Duplicate matches between two bots: the yardstick of bot strength.

Each deal is played twice from the same cards (the same seed, dealer and
options): at table 1 bot A holds the first team's seats and bot B the
second's, at table 2 the seats are swapped.  Luck of the cards cancels, so
the per-deal difference measures skill alone and a few hundred deals give a
useful confidence interval.

Per deal, A's gain is measured from A's side of both tables:

* 500: points per deal, ``((A - B) at table 1 + (A - B) at table 2) / 2``;
* Coinche: the same for the deal score, and for the card points taken;
* Bridge: IMPs per board, A's score as North-South at table 1 against B's
  as North-South at table 2 (one team-of-four board).

The interval is the normal 95% interval of the mean (1.96 standard errors).
The arena takes the bots' wall-clock cap off (:func:`uncapped`): a decision
is bounded by its sample and node budgets alone, so a seed gives the same
result on a loaded machine too.
Deals ``seed, seed+1, ...`` are independent, so ``jobs > 1`` plays them in
worker processes with exactly the same results as ``jobs == 1``.

>>> r = duplicate_match("coinche", "random", "random", deals=2, seed=1)
>>> r.deals, len(r.per_deal)
(2, 2)
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import trumps
from trumps.bots.base import Bot, BotError
from trumps.bots.selfplay import step
from trumps.core.json_types import JSON, JSONDict
from trumps.core.protocol import Deal, Match

__all__ = [
    "ArenaResult",
    "ArenaResultJSON",
    "DealOutcome",
    "Interval",
    "IntervalJSON",
    "duplicate_deal",
    "duplicate_match",
    "interval",
    "uncapped",
]

MAX_ACTIONS = 10_000


class IntervalJSON(TypedDict):
    """:meth:`Interval.to_dict`."""

    mean: float
    low: float
    high: float
    n: int


class ArenaResultJSON(TypedDict):
    """:meth:`ArenaResult.to_dict`: the match and A's gain per measure."""

    game: str
    a: str
    b: str
    seed: int
    deals: int
    summary: dict[str, IntervalJSON]


@dataclass(frozen=True)
class Interval:
    """Mean of a sample with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def format(self, digits: int = 2) -> str:
        return f"{self.mean:+.{digits}f} [{self.low:+.{digits}f}, {self.high:+.{digits}f}]"

    def to_dict(self) -> IntervalJSON:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` and its normal 95% confidence interval
    (zero width for fewer than two values)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0, 0)
    mean = statistics.fmean(values)
    if n < 2:
        return Interval(mean, mean, mean, n)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class DealOutcome:
    """One duplicate deal: A's gain per measure, and the two tables' results."""

    seed: int
    gains: dict[str, float]
    tables: tuple[JSONDict, JSONDict]


@dataclass
class ArenaResult:
    """A whole duplicate match."""

    game: str
    a: str
    b: str
    seed: int
    measures: tuple[str, ...]
    per_deal: list[DealOutcome] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return len(self.per_deal)

    def summary(self) -> dict[str, Interval]:
        """Measure name -> mean of A's gain per deal with its 95% interval."""
        return {m: interval([d.gains[m] for d in self.per_deal]) for m in self.measures}

    def to_dict(self) -> ArenaResultJSON:
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "deals": self.deals,
            "summary": {m: i.to_dict() for m, i in self.summary().items()},
        }

    def format(self) -> str:
        lines = [f"{self.game}: {self.a} (A) vs {self.b} (B), {self.deals} duplicate deals, seed {self.seed}"]
        for m, i in self.summary().items():
            verdict = (
                "too few deals to tell"
                if i.n < 2
                else "A better"
                if i.low > 0
                else "B better"
                if i.high < 0
                else "no significant difference"
            )
            lines.append(f"  {m:<22} A - B per deal {i.format()}  ({verdict})")
        return "\n".join(lines)


def _measures(game: str) -> tuple[str, ...]:
    """What the arena compares in ``game`` (its spec's ``arena_measures``)."""
    return trumps.game_spec(game).arena_measures


def _play_one_deal(match: Match[Deal], bots: Sequence[Bot], rng: random.Random) -> JSONDict:
    """Play until the first deal has a result; return that result."""
    for _ in range(MAX_ACTIONS):
        if match.results:
            return dict(match.results[0])
        seat = match.to_act_index
        if seat is None:
            break
        step(match, bots[seat], rng)
    if match.results:
        return dict(match.results[0])
    raise BotError("the deal did not finish")


def _new_match(game: str, options: Mapping[str, object] | None, seed: int) -> Match[Deal]:
    opts = dict(options or {})
    preset = opts.pop("preset", None)
    if preset is not None and not isinstance(preset, str):
        raise BotError(f"a preset is named by a string, not {preset!r}")
    return trumps.new_game(game, preset=preset, options=opts, seed=seed)


def duplicate_deal(
    game: str,
    make_a: Callable[[], Bot],
    make_b: Callable[[], Bot],
    seed: int,
    options: Mapping[str, object] | None = None,
) -> DealOutcome:
    """Play the first deal of the game seeded ``seed`` twice, seats swapped.
    ``options`` may hold a ``"preset"`` key besides the game's options."""
    name = trumps.game_class(game).game
    results: list[JSONDict] = []
    teams: list[list[int]] = []
    for table in (0, 1):
        match = _new_match(name, options, seed)
        teams = [list(t) for t in match.teams]
        if len(teams) != 2:
            raise BotError("the arena needs a two-team format")
        a_team = table  # table 0: A is team 0; table 1: A is team 1
        bot_a, bot_b = make_a(), make_b()
        bots = [bot_a if s in teams[a_team] else bot_b for s in range(match.players)]
        # the same chance stream at both tables: only the seats differ
        results.append(_play_one_deal(match, bots, random.Random(seed * 7919 + 17)))
    gains = _gains(name, results)
    return DealOutcome(seed, gains, (results[0], results[1]))


def _points(result: JSONDict) -> tuple[float, float]:
    """A table's ``points`` of the two teams (none for a thrown-in deal)."""
    p: JSON = result.get("points")
    if isinstance(p, Sequence) and not isinstance(p, str) and len(p) == 2:
        a, b = p
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return a, b
    return 0, 0


def _gains(game: str, results: list[JSONDict]) -> dict[str, float]:
    """Side A's gain on one deal played at two tables with the seats swapped:
    the game's own comparison (its spec's ``arena_gains``: IMPs in bridge),
    else the difference in ``points`` of the two teams averaged over the tables."""
    gains = trumps.game_spec(game).hook("arena_gains")
    if gains is not None:
        out: dict[str, float] = gains(results)
        return out
    t1, t2 = results
    p1, p2 = _points(t1), _points(t2)
    # A is team 0 at table 1 and team 1 at table 2; a thrown-in deal scores zero each
    return {"points": ((p1[0] - p1[1]) + (p2[1] - p2[0])) / 2}


def uncapped(bot: Bot) -> Bot:
    """``bot`` without its wall-clock caps, if it has them (the PIMC levels'
    ``budget.cap`` and ``bid_cap``): their sample and node budgets (and the
    node limit per search) alone bound a decision, so a seed gives the same
    result however loaded the machine is."""
    budget = getattr(bot, "budget", None)
    if dataclasses.is_dataclass(budget) and not isinstance(budget, type) and hasattr(budget, "cap"):
        caps = {"cap": math.inf, **({"bid_cap": math.inf} if hasattr(budget, "bid_cap") else {})}
        bot.budget = dataclasses.replace(budget, **caps)  # type: ignore[attr-defined]
    return bot


def _factory(game: str, kind: str | Bot) -> Callable[[], Bot]:
    from trumps.bots.registry import bot_for

    if isinstance(kind, Bot):
        bot = kind
        return lambda: bot
    bot_for(game, kind)  # fail early on an unknown kind
    return lambda: uncapped(bot_for(game, kind))


def _worker(args: tuple[str, str, str, int, dict[str, object] | None]) -> DealOutcome:
    game, a, b, seed, options = args
    return duplicate_deal(game, _factory(game, a), _factory(game, b), seed, options)


def duplicate_match(
    game: str,
    a: str | Bot,
    b: str | Bot,
    *,
    deals: int,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
    jobs: int = 1,
    progress: Callable[[int, DealOutcome], None] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals (seeds ``seed`` ... ``seed+deals-1``)
    between bot kinds (or bot objects) ``a`` and ``b``."""
    name = trumps.game_class(game).game
    if deals < 1:
        raise BotError("the arena needs at least one deal")
    result = ArenaResult(name, str(getattr(a, "name", a)), str(getattr(b, "name", b)), seed, _measures(name))
    seeds = range(seed, seed + deals)
    opts = dict(options) if options else None
    if jobs > 1 and isinstance(a, str) and isinstance(b, str):
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            work = [(name, a, b, s, opts) for s in seeds]
            for i, outcome in enumerate(pool.imap(_worker, work, chunksize=1)):
                result.per_deal.append(outcome)
                if progress is not None:
                    progress(i + 1, outcome)
        return result
    make_a, make_b = _factory(name, a), _factory(name, b)
    for i, s in enumerate(seeds):
        outcome = duplicate_deal(name, make_a, make_b, s, opts)
        result.per_deal.append(outcome)
        if progress is not None:
            progress(i + 1, outcome)
    return result
