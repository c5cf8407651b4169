"""The double-dummy par of a four-player 500 deal (docs/rules/five_hundred.md,
"Par"), for the travelling sheets of duplicate tournaments.

500 has no standard par, so trumps defines one as bridge's is defined, with
500's contracts and scoring: for every seat as declarer and every trump
suit or no trumps, the most tricks its side takes double dummy after the
declarer's best discard from the kitty (every discard that differs: of
cards that touch in the contract's order, with no other hand's card
between them, which one goes makes no difference, so each set of such
cards is tried once).  A side's best contract is the highest-valued bid it
makes; the par is the contract of the side whose best bid is the higher
(the other side cannot outbid it without failing; at the same bid the
side that speaks first holds it), scored as the deal would be: the
declarers' contract points, the other side 10 a trick.  Misère and open
misère are left out (a contract of style, whose value is a house rule), and
so are deals of six players: :func:`deal_par` answers None there.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trumps.core.cards import Card
from trumps.five_hundred.calls import Call
from trumps.five_hundred.scoring import contract_points, contract_value, defender_points

__all__ = ["Par", "deal_par", "discards", "par"]

DENOMS = ("S", "C", "D", "H", "NT")


@dataclass(frozen=True)
class Par:
    """A deal's par: the points of each team, the contract and its
    declarer (None each, and 0 points, when no side makes a contract)."""

    scores: tuple[int, ...]
    contract: str | None
    declarer: int | None


def _order(rules: Any, cards: list[Card], suit: int) -> list[Card]:
    """``cards`` of one suit as the contract ranks them, highest first."""

    def cmp(a: Card, b: Card) -> int:
        return -1 if rules.winner([a, b], suit) == 0 else 1

    return sorted(cards, key=functools.cmp_to_key(cmp))


def discards(rules: Any, hand: Sequence[Card], others: Sequence[Card], n: int = 3) -> list[tuple[Card, ...]]:
    """Every discard of ``n`` cards from ``hand`` that differs double dummy:
    cards of one suit (as the contract's rules say: the left bower is a
    trump) with no card of ``others`` between them in the contract's order
    are equivalent, so only the lowest ones of such a run are discarded."""
    by_suit: dict[int, list[Card]] = {}
    for c in [*hand, *others]:
        by_suit.setdefault(int(rules.lead_suits[c.index]), []).append(c)
    mine = set(hand)
    runs: list[list[Card]] = []  # each run highest first
    for suit, cards in by_suit.items():
        run: list[Card] = []
        for c in _order(rules, cards, suit):
            if c in mine:
                run.append(c)
            elif run:
                runs.append(run)
                run = []
        if run:
            runs.append(run)
    out: list[tuple[Card, ...]] = []
    for counts in itertools.product(*(range(min(len(r), n) + 1) for r in runs)):
        if sum(counts) == n:
            out.append(tuple(c for r, k in zip(runs, counts, strict=True) for c in r[len(r) - k :]))
    return out


def _declared(match: Any, declarer: int, denom: str) -> Any | None:
    """A copy of ``match`` where ``declarer`` bids the lowest contract in
    ``denom`` and everyone else passes (None if that is not legal)."""
    m = match.clone()
    bid = False
    while m.phase == "AUCTION":
        seat = m.to_act_index
        call: Any = "P"
        if not bid and seat == declarer:
            bids = [a for a in m.legal_actions() if isinstance(a, Call) and a.kind == "BID"]
            mine = [a for a in bids if str(a).endswith(denom) and not str(a).startswith("i")]
            if not mine:
                return None
            call = min(mine, key=lambda a: a.level)
            bid = True
        m.apply(call, seat)
    return m if bid and m.phase == "KITTY" else None


def _best_tricks(m: Any) -> int:
    """The most tricks the declaring side of ``m`` (in its kitty phase)
    takes double dummy, over every declarer's discard that differs."""
    from trumps.solver import value
    from trumps.solver.position import position_of

    d = m.deal
    declarer = d.contractor
    hand = list(d.hands[declarer])
    probe = m.clone()
    first = hand[:3]
    for c in first:
        probe.apply(c, probe.to_act_index)
    pos = position_of(probe)
    others = [c for s in range(d.n) if s != declarer for c in d.hands[s]]
    best = -1
    for out in discards(d.rules, hand, others):
        p = pos.copy()
        p.hands[declarer] = [c for c in hand if c not in out]
        best = max(best, value(p))
        if best == 10:
            break
    return best


def par(match: Any) -> Par | None:
    """The par of ``match``'s deal, before its auction (see the module);
    None for six players."""
    d = match.deal
    if d.n != 4 or len(set(d.team)) != 2:
        return None
    o = match.options
    first = match.to_act_index
    order = [(first + k) % 4 for k in range(4)]  # who speaks first holds a bid both could make
    # the par is the best (value, speaking first) of every (declarer, trump): a candidate
    # whose ten-trick contract cannot beat the best found so far is not searched
    candidates = sorted(
        ((_top_value(denom, o), -k, declarer, denom) for k, declarer in enumerate(order) for denom in DENOMS),
        reverse=True,
    )
    best: tuple[int, int, Call, int, int] | None = None  # (value, -order, contract, declarer, tricks)
    for top, rank, declarer, denom in candidates:
        if best is not None and (top, rank) <= best[:2]:
            continue
        m = _declared(match, declarer, denom)
        if m is None:
            continue
        tricks = _best_tricks(m)
        for level in range(tricks, 5, -1):
            c = Call(f"{level}{denom}")
            got = (contract_value(c, o), rank, c, declarer, tricks)
            if best is None or got[:2] > best[:2]:
                best = got
            break
    if best is None:
        return Par((0, 0), None, None)
    _value, _rank, contract, declarer, tricks = best
    team = d.team[declarer]
    scores = [0, 0]
    scores[team] = contract_points(contract, tricks, o)
    scores[1 - team] = defender_points(contract, 10 - tricks, o)
    return Par(tuple(scores), str(contract), declarer)


def _top_value(denom: str, o: Any) -> int:
    """The value of the ten-trick contract in ``denom``: the most a
    declarer in it can score."""
    return contract_value(Call(f"10{denom}"), o)


def deal_par(match: Any) -> dict[str, object] | None:
    """:func:`par` as a game spec's ``deal_par`` hook: the score per team
    and the par contract with its declarer ("8H by N")."""
    got = par(match)
    if got is None:
        return None
    contracts = [] if got.contract is None else [f"{got.contract} {match.seat_name(got.declarer)}"]
    return {"scores": list(got.scores), "contracts": contracts}  # (none: nobody makes a contract)
