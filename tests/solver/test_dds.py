"""The C search against DDS (endplay): bridge deals, and 500 suit contracts
re-ranked into 13-card bridge suits (bowers and jokers on top of trumps)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import trumps
from trumps.bridge import dd
from trumps.core.cards import Card
from trumps.solver import c_available, position_of, solve
from trumps.solver.randpos import random_position_match

pytestmark = [
    pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed"),
    pytest.mark.skipif(not c_available(), reason="the C solver is not built"),
]
RANKS = "AKQJT98765432"
SUITS = "SHDC"


def _dds_values(hands: list[list[str]], first: int, trump: int, trick: list[str]) -> dict[str, int]:
    """DDS tricks for the side to play after each of its cards (the current
    trick included); cards in bridge text, trick cards already out of hands."""
    from endplay import dds, types

    full = [list(h) for h in hands]
    for i, card in enumerate(trick):
        full[(first + i) % 4].append(card)
    groups = []
    for h in full:
        groups.append(".".join("".join(r for r in RANKS if r + s in h) for s in SUITS))
    deal = types.Deal("N:" + " ".join(groups))
    deal.first = types.Player(first)
    deal.trump = types.Denom(trump if trump >= 0 else 4)
    for card in trick:
        deal.play(types.Card(card[-1] + card[:-1]))
    out = {}
    for card, tricks in dds.solve_board(deal):
        text = str(card)
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text[0], text[0])
        out[text[1:] + suit] = int(tricks)
    return out


def _check(match: Any, relabel: dict[Card, str], trump: int) -> None:
    pos = position_of(match)
    sol = solve(match, engine="c")
    hands = [[relabel[c] for c in pos.hands[s]] for s in range(4)]
    first = pos.trick_seats[0] if pos.trick else pos.to_play
    got = _dds_values(hands, first, trump, [relabel[c] for c in pos.trick])
    # DDS counts tricks of the side to play from here; the solver the
    # declaring side's final total
    base = pos.won
    for card_text, value in sol.values.items():
        dds_tricks = got[relabel[Card(card_text)]]
        ours = dds_tricks if pos.declaring[pos.to_play] else pos.tricks_left - dds_tricks
        assert value == base + ours, (card_text, sol.values, got)


@pytest.mark.parametrize("cards", [9, 6])
def test_bridge_agrees_with_dds(cards: int) -> None:
    rng = random.Random(f"bridge-dds/{cards}")
    for _ in range(10 if cards == 9 else 40):
        match = random_position_match("bridge", rng, cards)
        _check(match, {c: str(c) for h in match.deal.dealt for c in h}, match.deal.trump)


def _rerank_500(match: Any) -> tuple[dict[Card, str], int]:
    """Each effective suit of a 500 suit contract as a bridge suit: its cards
    in order of power take the top slots A K Q ... (at most 13 in trumps)."""
    rules = match.deal.rules
    cards = [c for h in match.deal.dealt for c in h]
    relabel = {}
    for suit in range(4):
        mine = sorted((c for c in cards if rules.eff[c.index] == suit), key=lambda c: -rules.power[c.index])
        assert len(mine) <= 13
        for slot, c in enumerate(mine):
            relabel[c] = RANKS[slot] + SUITS[suit]
    return relabel, int(rules.trump)


@pytest.mark.parametrize("cards", [10, 6])
def test_500_suit_contracts_agree_with_dds(cards: int) -> None:
    rng = random.Random(f"500-dds/{cards}")
    for _ in range(15 if cards == 10 else 40):
        match = random_position_match(
            "500", rng, cards, contract=rng.choice(["6S", "7H", "8D", "9C"]), players="2v2"
        )
        relabel, trump = _rerank_500(match)
        _check(match, relabel, trump)


def test_500_dealt_cards_rerank() -> None:
    match = trumps.new_game("500", seed=4, contract="8H", declarer="E")
    relabel, trump = _rerank_500(match)
    assert trump == 1
    assert {relabel[Card(t)] for t in ("RJ", "JH", "JD") if Card(t) in relabel} <= {"AH", "KH", "QH"}
