"""Duplicate matches of whole games between two bots: games won.

Where :mod:`trumps.bots.arena` plays single deals, this plays complete games
in the game's match format and counts who won them:

* 500: to the engine's end of the game (a team at 500 or -500, with the
  options' threshold and simultaneous-out rules);
* coinche: to the target score (option ``target_score``, default 1000);
* bridge: a rubber (the default here) or, with ``scoring=chicago``, a
  Chicago round of four deals.  A duplicate board is a single deal: the
  deal mode measures that.

The engine alone decides when a game is over and who won it
(:attr:`~trumps.core.protocol.Match.is_over`, :attr:`~Match.winner`,
:attr:`~Match.scores`); the arena only plays until then.

Duplicate: game ``i`` (match seed ``seed + i``) is played twice, with bot A
holding the first team's seats at table 1 and the second team's at table 2.
Deal ``k`` of a game is shuffled from the match seed and ``k`` alone, and the
bots' chance stream restarts from the same seed at every deal, so deal ``k``
is the same at both tables even after the two games have diverged (one may
end after 7 deals, the other after 9).

Statistics, over the duplicate pairs (which are independent; the two games
of a pair are not: the cards they share tie their outcomes):

* A's win rate (a draw counts a half) with the normal 95% interval of the
  per-pair mean (each pair scores 0, 1/4, ... 1 for A), and for comparison
  the Wilson score interval of the games taken as independent trials;
* A's mean margin, the final score difference A - B, per game, with the
  normal 95% interval of the per-pair mean.

>>> r = duplicate_games("coinche", "random", "random", games=1, seed=1,
...                     options={"target_score": 200})
>>> r.games, r.wins_a + r.wins_b + r.draws
(2, 2)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

import trumps
from trumps.bots.arena import MAX_ACTIONS, Interval, IntervalJSON, _factory, _new_match, interval
from trumps.bots.base import Bot, BotError
from trumps.bots.selfplay import step
from trumps.core.errors import OptionError
from trumps.core.options import Options
from trumps.core.protocol import Deal, Match

__all__ = [
    "MAX_DEALS",
    "GameOutcome",
    "GameOutcomeJSON",
    "MatchResult",
    "MatchResultJSON",
    "PairOutcome",
    "duplicate_game",
    "duplicate_games",
    "match_format",
    "match_options",
    "play_game",
    "wilson",
]

MAX_DEALS = 200  # default cap on a game's deals (see play_game)

Z95 = 1.96


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """The proportion ``successes / n`` with its Wilson score interval
    (``(0, 0, 1)`` for ``n == 0``)."""
    if n <= 0:
        return (0.0, 0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (p, max(0.0, centre - half), min(1.0, centre + half))


def match_options(game: str, options: Mapping[str, object] | None) -> dict[str, object]:
    """The options a match of ``game`` is played with: bridge plays a rubber
    unless ``scoring`` says Chicago; a duplicate board is refused (one deal
    is not a match: use the deal mode)."""
    hook = trumps.game_spec(game).hook("match_options")
    opts = dict(options or {})
    if hook is None:
        return opts
    try:
        out: dict[str, object] = hook(opts)
    except OptionError as exc:
        raise BotError(str(exc)) from None
    return out


def _resolved(game: str, options: Mapping[str, object]) -> Options:
    opts = dict(options)
    preset = opts.pop("preset", None)
    if preset is not None and not isinstance(preset, str):
        raise BotError(f"a preset is named by a string, not {preset!r}")
    return trumps.game_class(game).schema.resolve(preset, opts)


def match_format(game: str, options: Mapping[str, object] | None = None) -> str:
    """A short description of the match format, e.g. ``"to 1000 points"``."""
    spec = trumps.game_spec(game)
    o = _resolved(spec.name, match_options(spec.name, options))
    hook = spec.hook("match_format")
    return str(hook(o)) if hook is not None else "one game"


def play_game(
    game: str,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    max_deals: int = MAX_DEALS,
) -> Match[Deal]:
    """Play one whole game seeded ``seed`` with ``bots[seat]`` deciding for
    each seat, until the engine says it is over; returns the finished match.

    The bots' random stream restarts at each deal from ``(seed, deal)``, so
    a deal is played alike wherever it falls.  A bridge rubber still
    unfinished after ``max_deals`` deals is stopped and scored by the
    engine's rule for an unfinished rubber (``finish_rubber``: bridge.md
    §6.6); another game that long raises :class:`BotError`, as does a deal
    that does not finish."""
    name = trumps.game_class(game).game
    match = _new_match(name, match_options(name, options), seed)
    if len(bots) != match.players:
        raise BotError(f"{name} needs {match.players} bots, not {len(bots)}")
    rng = random.Random()
    dealt = -1
    actions = 0
    while not match.is_over:
        if match.deal_number != dealt:
            dealt = match.deal_number
            if dealt >= max_deals:
                finish = getattr(match, "finish_rubber", None)
                if getattr(match, "rubber", None) is not None and callable(finish):
                    finish()
                    break
                raise BotError(f"a {name} game did not end in {max_deals} deals (raise --max-deals)")
            rng = random.Random(f"arena/{seed}/{dealt}")
            actions = 0
        seat = match.to_act_index
        if seat is None or actions >= MAX_ACTIONS:
            raise BotError(f"deal {dealt + 1} did not finish")
        step(match, bots[seat], rng)
        actions += 1
    return match


class GameOutcomeJSON(TypedDict):
    """:meth:`GameOutcome.to_dict`."""

    a_team: int
    winner: str | None
    scores: dict[str, int]
    deals: int
    stopped: bool


class PairJSON(TypedDict):
    """One pair of games in :meth:`MatchResult.to_dict`."""

    seed: int
    games: list[GameOutcomeJSON]


class WinRateJSON(TypedDict):
    """A's win rate: the paired interval and Wilson's."""

    paired: IntervalJSON
    wilson: IntervalJSON


class MatchResultJSON(TypedDict):
    """:meth:`MatchResult.to_dict`: the match, the games won, A's win rate and margin."""

    game: str
    a: str
    b: str
    seed: int
    format: str
    pairs: int
    games: int
    won: dict[str, int]
    stopped: int
    win_rate: WinRateJSON
    margin: IntervalJSON
    deals_per_game: float
    per_pair: list[PairJSON]


@dataclass(frozen=True)
class GameOutcome:
    """One game seen from A's side: who won, the final scores, its length."""

    a_team: int
    winner: str | None  # "A", "B", or None for a drawn game
    score_a: int
    score_b: int
    deals: int
    stopped: bool = False  # a rubber stopped unfinished after the deal cap

    @property
    def margin(self) -> int:
        return self.score_a - self.score_b

    @property
    def points_a(self) -> float:
        """1 for A's win, 0.5 for a draw, 0 for a loss."""
        return 1.0 if self.winner == "A" else 0.5 if self.winner is None else 0.0

    @classmethod
    def of(cls, match: Match[Deal], a_team: int) -> GameOutcome:
        if not match.is_over:
            raise BotError("the game is not over")
        scores = match.scores
        w = match.winner
        return cls(
            a_team=a_team,
            winner=None if w is None else ("A" if w == a_team else "B"),
            score_a=int(scores[a_team]),
            score_b=int(scores[1 - a_team]),
            deals=len([r for r in match.results if r.get("deal") is not None]),
            stopped=any(r.get("deal") is None for r in match.results),
        )

    def to_dict(self) -> GameOutcomeJSON:
        return {
            "a_team": self.a_team,
            "winner": self.winner,
            "scores": {"A": self.score_a, "B": self.score_b},
            "deals": self.deals,
            "stopped": self.stopped,
        }


@dataclass(frozen=True)
class PairOutcome:
    """Game ``seed`` played at both tables."""

    seed: int
    games: tuple[GameOutcome, GameOutcome]

    @property
    def score(self) -> float:
        """A's share of the pair's games (a draw counts a half): 0 ... 1."""
        return sum(g.points_a for g in self.games) / 2

    @property
    def margin(self) -> float:
        """A's mean final margin over the two games."""
        return sum(g.margin for g in self.games) / 2


def duplicate_game(
    game: str,
    make_a: Callable[[], Bot],
    make_b: Callable[[], Bot],
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    max_deals: int = MAX_DEALS,
) -> PairOutcome:
    """Play the game seeded ``seed`` twice, A as the first team then as the
    second.  ``options`` may hold a ``"preset"`` key besides the game's options."""
    name = trumps.game_class(game).game
    opts = match_options(name, options)
    outcomes: list[GameOutcome] = []
    for a_team in (0, 1):
        probe = _new_match(name, opts, seed)
        teams = [list(t) for t in probe.teams]
        if len(teams) != 2:
            raise BotError("the arena needs a two-team format")
        bot_a, bot_b = make_a(), make_b()
        bots = [bot_a if s in teams[a_team] else bot_b for s in range(probe.players)]
        outcomes.append(GameOutcome.of(play_game(name, bots, seed, opts, max_deals=max_deals), a_team))
    return PairOutcome(seed, (outcomes[0], outcomes[1]))


@dataclass
class MatchResult:
    """A whole duplicate match of games."""

    game: str
    a: str
    b: str
    seed: int
    match_format: str
    per_pair: list[PairOutcome] = field(default_factory=list)

    @property
    def pairs(self) -> int:
        return len(self.per_pair)

    @property
    def games(self) -> int:
        return 2 * len(self.per_pair)

    def _count(self, who: str | None) -> int:
        return sum(1 for p in self.per_pair for g in p.games if g.winner == who)

    @property
    def wins_a(self) -> int:
        return self._count("A")

    @property
    def wins_b(self) -> int:
        return self._count("B")

    @property
    def draws(self) -> int:
        return self._count(None)

    @property
    def stopped(self) -> int:
        """Rubbers stopped unfinished at the deal cap (scored by the engine)."""
        return sum(1 for p in self.per_pair for g in p.games if g.stopped)

    def win_rate(self) -> Interval:
        """A's share of the games (draws count a half), with the 95% interval
        of the paired analysis (the mean of the per-pair shares)."""
        i = interval([p.score for p in self.per_pair])
        return Interval(i.mean, max(0.0, i.low), min(1.0, i.high), i.n)

    def wilson(self) -> tuple[float, float, float]:
        """A's share with the Wilson interval of the games as independent trials."""
        return wilson(self.wins_a + self.draws / 2, self.games)

    def margin(self) -> Interval:
        """A's mean final margin per game, 95% interval over the pairs."""
        return interval([p.margin for p in self.per_pair])

    def deals_per_game(self) -> float:
        n = self.games
        return sum(g.deals for p in self.per_pair for g in p.games) / n if n else 0.0

    def to_dict(self) -> MatchResultJSON:
        rate, (share, low, high) = self.win_rate(), self.wilson()
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "format": self.match_format,
            "pairs": self.pairs,
            "games": self.games,
            "won": {"A": self.wins_a, "B": self.wins_b, "drawn": self.draws},
            "stopped": self.stopped,
            "win_rate": {
                "paired": rate.to_dict(),
                "wilson": {"mean": share, "low": low, "high": high, "n": self.games},
            },
            "margin": self.margin().to_dict(),
            "deals_per_game": self.deals_per_game(),
            "per_pair": [{"seed": p.seed, "games": [g.to_dict() for g in p.games]} for p in self.per_pair],
        }

    def format(self) -> str:
        rate, (_, low, high), margin = self.win_rate(), self.wilson(), self.margin()
        # both intervals must agree: the paired one can be too narrow over a
        # few pairs that all came out alike (zero spread)
        verdict = _verdict(rate.n, rate.low > 0.5 and low > 0.5, rate.high < 0.5 and high < 0.5)
        m_verdict = _verdict(margin.n, margin.low > 0, margin.high < 0)
        games = "duplicate game" if self.pairs == 1 else "duplicate games"
        lines = [
            f"{self.game}: {self.a} (A) vs {self.b} (B), {self.pairs} {games} "
            f"({self.games} played), {self.match_format}, seed {self.seed}",
            f"  games won              A {self.wins_a}, B {self.wins_b}, drawn {self.draws}",
            f"  A's win rate           {rate.mean:.3f} [{rate.low:.3f}, {rate.high:.3f}] paired  "
            f"({verdict}; Wilson [{low:.3f}, {high:.3f}])",
            f"  margin A - B per game  {margin.format(1)}  ({m_verdict})",
            f"  deals per game         {self.deals_per_game():.1f}",
        ]
        if self.stopped:
            lines.append(f"  stopped unfinished     {self.stopped} (at the deal cap, scored by the engine)")
        return "\n".join(lines)


def _verdict(n: int, a_better: bool, b_better: bool) -> str:
    if n < 2:
        return "too few games to tell"
    return "A better" if a_better else "B better" if b_better else "no significant difference"


def _worker(args: tuple[str, str, str, int, dict[str, object], int]) -> PairOutcome:
    game, a, b, seed, options, max_deals = args
    return duplicate_game(game, _factory(game, a), _factory(game, b), seed, options, max_deals=max_deals)


def duplicate_games(
    game: str,
    a: str | Bot,
    b: str | Bot,
    *,
    games: int,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
    jobs: int = 1,
    max_deals: int = MAX_DEALS,
    progress: Callable[[int, PairOutcome], None] | None = None,
) -> MatchResult:
    """Play ``games`` duplicate games (seeds ``seed`` ... ``seed+games-1``,
    each twice: ``2 * games`` games) between bot kinds (or objects) ``a``
    and ``b``.  ``jobs > 1`` plays pairs in worker processes with the same
    results."""
    name = trumps.game_class(game).game
    if games < 1:
        raise BotError("the arena needs at least one game")
    if max_deals < 1:
        raise BotError("a game needs at least one deal (max_deals)")
    opts = match_options(name, options)
    fmt = match_format(name, opts)  # bad options fail here, before any play
    result = MatchResult(name, str(getattr(a, "name", a)), str(getattr(b, "name", b)), seed, fmt)
    seeds = range(seed, seed + games)
    if jobs > 1 and isinstance(a, str) and isinstance(b, str):
        import multiprocessing

        _factory(name, a), _factory(name, b)  # unknown kinds fail before the pool starts
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            work = [(name, a, b, s, opts, max_deals) for s in seeds]
            for i, outcome in enumerate(pool.imap(_worker, work, chunksize=1)):
                result.per_pair.append(outcome)
                if progress is not None:
                    progress(i + 1, outcome)
        return result
    make_a, make_b = _factory(name, a), _factory(name, b)
    for i, s in enumerate(seeds):
        outcome = duplicate_game(name, make_a, make_b, s, opts, max_deals=max_deals)
        result.per_pair.append(outcome)
        if progress is not None:
            progress(i + 1, outcome)
    return result
