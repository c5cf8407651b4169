"""Self-play: bots play whole games against each other (pure: no I/O).

>>> from trumps.bots import RandomBot
>>> result = selfplay("500", [RandomBot()] * 4, games=3, seed=1)
>>> result.games, sum(result.wins) + result.undecided
(3, 3)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from trumps.bots.base import Bot, BotError
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Deal, Match

__all__ = ["SelfPlayResult", "bots_for_seats", "play_game", "play_games", "selfplay", "step"]

MAX_ACTIONS = 100_000  # a safety net: no game of the supported rules comes near it


def step(match: Match[Deal], bot: Bot, rng: random.Random) -> tuple[int, str]:
    """Let ``bot`` make the decision of the seat to act; returns (seat, notation).

    The bot sees only ``match.view(seat)``.  Raises :class:`BotError` if it
    answers with anything but one of the legal notations."""
    seat = match.to_act_index
    if seat is None:
        raise BotError("the game is over")
    actions = match.legal_actions()
    legal = [str(a) for a in actions]
    view = match.view(seat) if getattr(bot, "needs_view", True) else {}
    choice = bot.choose(view, list(legal), rng)
    try:
        action = actions[legal.index(choice)]
    except ValueError:
        raise BotError(
            f"{bot!r} chose {choice!r} for {match.seat_name(seat)}, which is not legal "
            f"(legal: {' '.join(legal[:40])})"
        ) from None
    match.apply(action, seat)
    return seat, choice


def play_game(match: Match[Deal], bots: Sequence[Bot], rng: random.Random) -> Match[Deal]:
    """Play ``match`` to its end with ``bots[seat]`` deciding for each seat."""
    if len(bots) != match.players:
        raise BotError(f"{len(bots)} bots for {match.players} seats")
    for _ in range(MAX_ACTIONS):
        seat = match.to_act_index
        if seat is None:
            return match
        step(match, bots[seat], rng)
    raise BotError(f"the game did not end within {MAX_ACTIONS} actions")


def bots_for_seats(
    game: str, kinds: Sequence[str | Bot], players: int, teams: Sequence[Sequence[int]]
) -> list[Bot]:
    """One bot per seat from a list of kinds: one kind for every seat, one
    per team (in team order), or one per seat."""
    from trumps.bots.registry import bot_for

    if not kinds:
        raise BotError("no bots given")
    made = [bot_for(game, k) if isinstance(k, str) else k for k in kinds]
    if len(made) == 1:
        return made * players
    if len(made) == len(teams):
        out: list[Bot | None] = [None] * players
        for t, team in enumerate(teams):
            for s in team:
                out[s] = made[t]
        return [b for b in out if b is not None]
    if len(made) == players:
        return made
    raise BotError(
        f"give 1 bot kind, one per team ({len(teams)}) or one per seat ({players}), not {len(made)}"
    )


def play_games(
    game: str,
    bots: Sequence[str | Bot],
    games: int,
    *,
    seed: int | None = None,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Iterator[Match[Deal]]:
    """Play ``games`` games one after another, yielding each finished match.

    Game ``i`` is dealt with seed ``seed + i`` and the bots draw from a
    generator seeded from the same number, so a run is reproducible."""
    import trumps

    base = seed if seed is not None else random.SystemRandom().randrange(2**62)
    seated: list[Bot] | None = None
    for i in range(games):
        match = trumps.new_game(game, preset=preset, options=options, seed=base + i)
        if seated is None:
            seated = bots_for_seats(game, bots, match.players, match.teams)
        yield play_game(match, seated, random.Random(f"{base + i}/bots"))


@dataclass
class SelfPlayResult:
    """What a self-play run produced."""

    game: str
    games: int = 0
    deals: int = 0
    wins: list[int] = field(default_factory=list)  # per team
    undecided: int = 0  # games that ended without a single winner
    points: list[int] = field(default_factory=list)  # per team, summed over deals
    seconds: float = 0.0
    records: list[JSONDict] = field(default_factory=list)

    @property
    def mean_points_per_deal(self) -> list[float]:
        return [p / self.deals if self.deals else 0.0 for p in self.points]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else float("inf")

    def win_rate(self, team: int) -> float:
        return self.wins[team] / self.games if self.games else 0.0

    def add(self, match: Match[Deal]) -> None:
        teams = len(match.teams)
        if not self.wins:
            self.wins = [0] * teams
            self.points = [0] * teams
        self.games += 1
        self.deals += len(match.results)
        if match.winner is None:
            self.undecided += 1
        else:
            self.wins[match.winner] += 1
        for t, total in enumerate(match.scores):
            self.points[t] += total


def selfplay(
    game: str,
    bots: Sequence[str | Bot],
    games: int,
    *,
    seed: int | None = None,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    keep_records: bool = False,
    on_game: Callable[[Match[Deal]], None] | None = None,
) -> SelfPlayResult:
    """Play ``games`` games and summarise them.  ``bots`` are kinds or
    :class:`Bot` objects (one, one per team, or one per seat).  With
    ``keep_records`` every game's :meth:`~Match.to_json` is kept in
    :attr:`SelfPlayResult.records`; ``on_game`` sees each finished match."""
    if games < 0:
        raise BotError(f"the number of games must be positive, not {games}")
    result = SelfPlayResult(game=game)
    start = time.perf_counter()
    for match in play_games(game, bots, games, seed=seed, preset=preset, options=options):
        result.add(match)
        if keep_records:
            result.records.append(match.to_json())
        if on_game is not None:
            on_game(match)
    result.seconds = time.perf_counter() - start
    return result
