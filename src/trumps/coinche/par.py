"""The double-dummy par of a coinche deal (docs/rules/coinche.md, "Par"),
for the travelling sheets of duplicate tournaments.

Coinche has no standard par as bridge has, so trumps defines one the way
bridge's is defined, with coinche's scoring: for every denomination the
options allow, the double-dummy card points of each side as the taker
(the opening lead is always eldest's, so one search per denomination gives
both sides: the points are a zero-sum split) and whether it can win every
trick; from them each side's best contract that makes, scored by the
options' own rules (:func:`~trumps.coinche.scoring.score_deal`, belote
included where the options count it).  The par contract is the one of the
side whose best made contract outranks the other's (a capot outranks every
number; at equal rank the side that speaks first holds it, having bid it
first): the other side cannot outbid it without failing.  It is played
undoubled: nobody coinches a contract that makes.

Deals with melds are not given a par (who declares which meld is a choice
of the players, not a fact of the deal): :func:`deal_par` answers None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trumps.coinche.calls import AT, DENOM_CODES, NT, Contract
from trumps.coinche.scoring import score_deal
from trumps.core.cards import Card

__all__ = ["Par", "deal_par", "par"]

LEVELS = tuple(range(80, 170, 10))


@dataclass(frozen=True)
class Par:
    """A deal's par: the points of each side (NS, EW), the contract and the
    side that plays it (None, and 0 each, when neither side can make 80)."""

    scores: tuple[int, int]
    contract: str | None
    side: int | None


def _belote(hands: list[list[Card]], denom: int, every_suit: bool) -> list[int]:
    """Belote points per side: 20 for each K-Q of trumps held in one hand
    (every suit in all-trump when the options say so; none in no-trump)."""
    suits = range(4) if denom == AT and every_suit else [denom] if denom < NT else []
    out = [0, 0]
    for seat, hand in enumerate(hands):
        names = {str(c) for c in hand}
        for s in suits:
            code = DENOM_CODES[s]
            if f"K{code}" in names and f"Q{code}" in names:
                out[seat % 2] += 20
    return out


def _taker_match(match: Any, denom: int, side: int) -> Any:
    """A copy of ``match`` with ``side`` taking an 80 in ``denom`` at once
    (its first speaker bids, everyone else passes): the deal in trick play."""
    m = match.clone()
    bid = f"80{DENOM_CODES[denom]}"
    made = False
    while m.phase == "AUCTION":
        seat = m.to_act_index
        call = bid if not made and seat % 2 == side else "P"
        made = made or call == bid
        m.apply(call, seat)
    return m


def par(match: Any) -> Par | None:
    """The par of ``match``'s deal, before its auction (see the module);
    None with melds."""
    from trumps.solver import can_capot, value

    o = match.options
    if o.melds != "none":
        return None
    denoms = [0, 1, 2, 3] + ([NT] if o.allow_no_trump else []) + ([AT] if o.allow_all_trump else [])
    first_side = match.to_act_index % 2
    hands = [list(h) for h in match.deal.hands]
    # per side: (rank, score for the side, score for the other, contract)
    best: dict[int, tuple[int, int, int, str]] = {}
    for denom in denoms:
        takers = [_taker_match(match, denom, side) for side in (0, 1)]
        if any(m.phase != "PLAY" for m in takers):
            return None
        total = int(takers[0].deal.rules.total)
        points0 = value(takers[0])
        capot = [can_capot(m) for m in takers]
        belote = _belote(hands, denom, bool(o.belote_in_all_trump))
        for side in (0, 1):
            mine = points0 if side == 0 else total - points0
            tricks = [8 if capot[side] else 0 if capot[1 - side] else 4]
            tricks.append(8 - tricks[0])
            bids = [f"{level}{DENOM_CODES[denom]}" for level in LEVELS]
            if capot[side]:
                bids.append(f"CAPOT-{DENOM_CODES[denom]}")
            for text in bids:
                contract = Contract.parse(text)
                s = score_deal(
                    o, contract, 0, [mine, total - mine], tricks, [belote[side], belote[1 - side]], [0, 0]
                )
                if not s.made:
                    continue
                rank = contract.bid.rank
                got = (rank, s.points[0], s.points[1], text)
                if side not in best or (got[0], got[1]) > (best[side][0], best[side][1]):
                    best[side] = got
    if not best:
        return Par((0, 0), None, None)
    ranks = {side: best[side][0] for side in best}
    tie = len(ranks) == 2 and ranks[0] == ranks[1]  # the same number: the side that speaks first bid it
    side = first_side if tie else max(ranks, key=lambda x: ranks[x])
    _rank, taker, defence, text = best[side]
    scores = (taker, defence) if side == 0 else (defence, taker)
    return Par(scores, text, side)


def deal_par(match: Any) -> dict[str, object] | None:
    """:func:`par` as a game spec's ``deal_par`` hook: the score per side
    (NS, EW) and the par contract with its side ("120H NS")."""
    got = par(match)
    if got is None:
        return None
    names = ("NS", "EW")
    contracts = [] if got.contract is None else [f"{got.contract} {names[got.side or 0]}"]
    return {"scores": list(got.scores), "contracts": contracts}  # (none: passed out)
