"""The double-dummy par of a 500 deal, checked against the engine: the
discards that differ give the same best as all 286 discards; the par
contract bid by its declarer, the best discard made and every card the
solver's best for its player scores exactly the par in the engine."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import trumps
from trumps.five_hundred.par import _declared, deal_par, discards, par
from trumps.solver import solve, value


def _tricks_after(m: Any, out: tuple[Any, ...]) -> int:
    x = m.clone()
    for c in out:
        x.apply(c, x.to_act_index)
    return value(x)


@pytest.mark.parametrize("seed", [5, 6])
def test_the_par_contract_played_double_dummy_scores_the_par(seed: int) -> None:
    match = trumps.new_game("500", preset="american", options={"max_deals": 1}, seed=seed)
    p = par(match)
    assert p is not None and p.contract is not None and p.declarer is not None
    denom = p.contract.lstrip("0123456789")
    m = _declared(match, p.declarer, denom)
    assert m is not None
    d = m.deal
    hand = list(d.hands[p.declarer])
    others = [c for s in range(4) if s != p.declarer for c in d.hands[s]]
    every = {out: _tricks_after(m, out) for out in itertools.combinations(hand, 3)}
    reduced = discards(d.rules, hand, others)
    assert len(reduced) < len(every) == 286
    best = max(every.values())
    assert max(every[tuple(sorted(out, key=hand.index))] for out in reduced) == best
    # the par contract itself, played out in the engine
    x = match.clone()
    bid = False
    while x.phase == "AUCTION":
        seat = x.to_act_index
        call = p.contract if not bid and seat == p.declarer else "P"
        bid = bid or call == p.contract
        x.apply(call, seat)
    for c in next(out for out, t in every.items() if t == best):
        x.apply(c, x.to_act_index)
    while x.phase == "PLAY":
        x.apply(solve(x).best[0], x.to_act_index)
    result = x.results[0]
    assert result["contract"] == p.contract and tuple(result["points"]) == p.scores, result
    hook = deal_par(match)
    assert hook is not None and hook["scores"] == list(p.scores)


def test_no_par_for_six_players() -> None:
    match = trumps.new_game("500", preset="american", options={"max_deals": 1, "players": "2v2v2"}, seed=3)
    assert deal_par(match) is None
