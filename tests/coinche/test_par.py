"""The double-dummy par of a coinche deal, checked against the engine: the
par contract bid by its side and played out card by card with the solver's
best card for whoever is to play scores exactly the par, and the same side
one level higher goes down."""

from __future__ import annotations

from typing import Any

import pytest

import trumps
from trumps.coinche.calls import Contract
from trumps.coinche.par import LEVELS, deal_par, par
from trumps.solver import solve


def _played(match: Any, contract: str, side: int) -> dict[str, Any]:
    """``contract`` bid by ``side``'s first speaker, everyone else passing,
    then every card the double-dummy best for its player."""
    m = match.clone()
    bid = False
    while m.phase == "AUCTION":
        seat = m.to_act_index
        call = contract if not bid and seat % 2 == side else "P"
        bid = bid or call == contract
        m.apply(call, seat)
    objective = "capot" if contract.startswith("CAPOT") else "total"
    while m.phase == "PLAY":
        m.apply(solve(m, objective=objective).best[0], m.to_act_index)
    return dict(m.results[0])


CASES = [("contree_exact", 11), ("contree_exact", 12), ("common", 13), ("ffb_2016", 14)]


@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_the_par_contract_played_double_dummy_scores_the_par(preset: str, seed: int) -> None:
    match = trumps.new_game("coinche", preset=preset, options={"max_deals": 1}, seed=seed)
    p = par(match)
    assert p is not None and p.contract is not None and p.side is not None
    got = _played(match, p.contract, p.side)
    assert got["made"] and tuple(got["points"]) == p.scores
    c = Contract.parse(p.contract)
    if c.kind == "BID" and c.bid.value < LEVELS[-1]:  # one level higher goes down
        higher = f"{c.bid.value + 10}{p.contract[len(str(c.bid.value)) :]}"
        assert not _played(match, higher, p.side)["made"]
    hook = deal_par(match)
    assert hook is not None and hook["scores"] == list(p.scores)


def test_no_par_with_melds() -> None:
    match = trumps.new_game("coinche", preset="seed", options={"max_deals": 1}, seed=3)
    assert match.options.melds != "none" and deal_par(match) is None
