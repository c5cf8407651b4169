"""The C search against DDS (endplay): bridge deals, and 500 suit contracts
re-ranked into 13-card bridge suits (bowers and jokers on top of trumps)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.bridge import dd
from trumps.core.cards import Card
from trumps.solver import c_available, solve
from trumps.solver.ddscheck import dds_totals, rerank_500
from trumps.solver.randpos import random_match, random_position_match

pytestmark = [
    pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed"),
    pytest.mark.skipif(not c_available(), reason="the C solver is not built"),
]


def _check(match: Any, relabel: dict[Card, str], trump: int) -> None:
    sol = solve(match, engine="c")
    assert sol.values == dds_totals(match, relabel, trump), (sol.values, str(match.log))


@pytest.mark.parametrize("cards", [9, 6])
def test_bridge_agrees_with_dds(cards: int) -> None:
    rng = random.Random(f"bridge-dds/{cards}")
    for _ in range(10 if cards == 9 else 40):
        match = random_position_match("bridge", rng, cards)
        _check(match, {c: str(c) for h in match.deal.dealt for c in h}, match.deal.trump)


@pytest.mark.parametrize("contract", ["3NT", "4S"])
def test_full_bridge_deals_agree_with_dds(contract: str) -> None:
    """Every card of the opening lead of whole 13-card deals: deep enough
    for the shape table's blocks to fill and be replaced, and for the
    bounds at every depth (docs/benchmarks.md, issue 33)."""
    rng = random.Random(f"bridge-dds-full/{contract}")
    for _ in range(3):
        match = random_match("bridge", rng, contract)
        _check(match, {c: str(c) for h in match.deal.dealt for c in h}, match.deal.trump)


@pytest.mark.parametrize("cards", [10, 6])
def test_500_suit_contracts_agree_with_dds(cards: int) -> None:
    rng = random.Random(f"500-dds/{cards}")
    for _ in range(15 if cards == 10 else 40):
        match = random_position_match(
            "500", rng, cards, contract=rng.choice(["6S", "7H", "8D", "9C"]), players="2v2"
        )
        relabel, trump = rerank_500(match)
        _check(match, relabel, trump)


def test_500_dealt_cards_rerank() -> None:
    match = trumps.new_game("500", seed=4, contract="8H", declarer="E")
    relabel, trump = rerank_500(match)
    assert trump == 1
    assert {relabel[Card(t)] for t in ("RJ", "JH", "JD") if Card(t) in relabel} <= {"AH", "KH", "QH"}
