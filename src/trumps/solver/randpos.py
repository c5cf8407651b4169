"""Random trick-play positions of every game and option family, for the
property tests (C search == Python reference) and the benchmark.

A position is made the way a game reaches it: a seeded deal started at its
play phase under a random contract and option set, then random legal cards
through the engine's own ``Match.apply`` until every hand holds at most
``cards`` cards (and, with ``mid_trick``, a few more cards into the trick).
"""

from __future__ import annotations

import random
from typing import Any

import trumps
from trumps.core.errors import TrumpsError
from trumps.solver.position import position_of
from trumps.solver.reference import legal_moves

__all__ = ["random_match", "random_position_match"]


def _families() -> dict[str, tuple[tuple[str, ...], tuple[dict[str, Any], ...]]]:
    """Game -> (contracts, option sets) to start sample positions from: every
    registered game whose spec has a solver adapter and sample contracts."""
    from trumps.core.registry import specs

    return {
        s.name: (s.sample_contracts, tuple(dict(o) for o in s.sample_options))
        for s in specs()
        if s.has("solver") and s.sample_contracts
    }


def random_match(game: str, rng: random.Random, contract: str | None = None, **options: object) -> Any:
    """A fresh deal at its first lead under a random (or given) contract and
    option family; option sets the engine rejects are skipped."""
    contracts, families = _families()[trumps.game_spec(game).name]
    while True:
        opts = dict(rng.choice(families)) if not options else dict(options)
        c = contract or rng.choice(contracts)
        try:
            seats = trumps.new_game(game, options=opts, seed=0).players
            return trumps.new_game(
                game, options=opts, seed=rng.randrange(1 << 30), contract=c, declarer=rng.randrange(seats)
            )
        except TrumpsError:
            if options:
                raise
            continue


def random_position_match(
    game: str,
    rng: random.Random,
    cards: int,
    mid_trick: bool = True,
    contract: str | None = None,
    **options: object,
) -> Any:
    """A match whose hands hold at most ``cards`` cards each, in trick play
    (random contract and option family unless given)."""
    while True:
        match = random_match(game, rng, contract, **options)
        pos = position_of(match)
        extra = rng.randrange(len(pos.active)) if mid_trick else 0
        ok = True
        while True:
            pos = position_of(match)
            longest = max(len(pos.hands[s]) for s in pos.active)
            if longest <= cards and not pos.trick:
                break
            ok = _play_random(match, rng)
            if not ok:
                break
        for _ in range(extra):
            if not ok:
                break
            ok = _play_random(match, rng)
        if ok:
            return match


def _play_random(match: Any, rng: random.Random) -> bool:
    """Play one random legal card; False when the deal is over."""
    pos = position_of(match)
    move = rng.choice(legal_moves(pos))
    match.apply(str(move))
    deal = match.deal
    return not match.is_over and deal.phase == "PLAY"
