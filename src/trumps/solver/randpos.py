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

__all__ = ["FAMILIES", "random_match", "random_position_match"]

_500_CONTRACTS = ("6S", "7H", "8D", "9C", "10S", "6NT", "8NT", "MIS", "OMIS")
_500_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"kitty_size": 5},
    {"kitty_size": 6},
    {"players": "2v2v2"},
    {"players": "3v3"},
    {"players": "2v2v2", "kitty_size": 6},
    {"nullo_plays": "both_hands"},
    {"joker_low_in_misere": True},
    {"joker_low_in_misere": True, "kitty_size": 6},
    {"joker_lead_suit_restriction": True, "kitty_size": 6},
    {"end_hand_when_decided": True},
)
_COINCHE_CONTRACTS = ("80S", "90H", "100D", "110C", "90NT", "100AT")
_COINCHE_OPTIONS: tuple[dict[str, Any], ...] = (
    {},
    {"partner_exempt_on_trump_lead": True},
    {"must_undertrump": False},
    {"partner_master_exemption": False},
    {"partner_master_trump_must_overtrump": True},
    {"partner_master_exemption": False, "must_undertrump": False},
    {"direction": "clockwise"},
    {"nt_values": "plain", "at_values": "plain"},
)
_BRIDGE_CONTRACTS = ("1S", "2H", "3D", "4C", "3NT")

FAMILIES: dict[str, tuple[tuple[str, ...], tuple[dict[str, Any], ...]]] = {
    "500": (_500_CONTRACTS, _500_OPTIONS),
    "coinche": (_COINCHE_CONTRACTS, _COINCHE_OPTIONS),
    "bridge": (_BRIDGE_CONTRACTS, ({},)),
}


def random_match(game: str, rng: random.Random, contract: str | None = None, **options: Any) -> Any:
    """A fresh deal at its first lead under a random (or given) contract and
    option family; option sets the engine rejects are skipped."""
    contracts, families = FAMILIES[game]
    while True:
        opts = dict(rng.choice(families)) if not options else dict(options)
        c = contract or rng.choice(contracts)
        seats = 6 if opts.get("players") in ("2v2v2", "3v3") else 4
        try:
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
    **options: Any,
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
