"""Cross-checks against DDS (``endplay``, the ``dds`` extra): the same
position solved by DDS, for the tests (``tests/solver/test_dds.py``) and the
agreement benchmark (``benchmarks/solver_agreement.py``).  Being a comparison
with DDS, it needs DDS: :class:`trumps.bridge.dd.SolverMissing` without it.

A 500 suit contract is a bridge deal once each effective suit is re-ranked
into 13 slots (:func:`rerank_500`: joker, right bower, left bower on top of
the trump suit); DDS then counts the tricks of the side to play, which
:func:`dds_totals` turns into this solver's unit (the declaring side's final
total).
"""

from __future__ import annotations

from typing import Any

from trumps.core.cards import Card
from trumps.solver.position import position_of

__all__ = ["RANKS", "SUITS", "dds_totals", "dds_tricks", "rerank_500"]

RANKS = "AKQJT98765432"
SUITS = "SHDC"


def rerank_500(match: Any) -> tuple[dict[Card, str], int]:
    """Each effective suit of a 500 suit contract as a bridge suit: its cards
    in order of power take the top slots A K Q ... (at most 13 in trumps).
    Returns the bridge text of every dealt card and the trump suit index."""
    rules = match.deal.rules
    cards = [c for h in match.deal.dealt for c in h]
    relabel = {}
    for suit in range(4):
        mine = sorted((c for c in cards if rules.eff[c.index] == suit), key=lambda c: -rules.power[c.index])
        if len(mine) > 13:
            raise ValueError("more than 13 cards in one effective suit: not a bridge deal")
        for slot, c in enumerate(mine):
            relabel[c] = RANKS[slot] + SUITS[suit]
    return relabel, int(rules.trump)


def dds_tricks(hands: list[list[str]], first: int, trump: int, trick: list[str]) -> dict[str, int]:
    """DDS tricks for the side to play after each of its cards (the current
    trick included); cards in bridge text, trick cards already out of hands,
    ``trump`` -1 for no trumps."""
    from trumps.bridge.dd import _endplay, solve_board

    _, types = _endplay()

    full = [list(h) for h in hands]
    for i, card in enumerate(trick):
        full[(first + i) % 4].append(card)
    groups = [".".join("".join(r for r in RANKS if r + s in h) for s in SUITS) for h in full]
    deal = types.Deal("N:" + " ".join(groups))
    deal.first = types.Player(first)
    deal.trump = types.Denom(trump if trump >= 0 else 4)
    for text in trick:
        deal.play(types.Card(text[-1] + text[:-1]))
    out = {}
    for solved, tricks in solve_board(deal):
        name = str(solved)
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(name[0], name[0])
        out[name[1:] + suit] = int(tricks)
    return out


def dds_totals(match: object, relabel: dict[Card, str], trump: int) -> dict[str, int]:
    """DDS's answer in this solver's terms: for each legal card (engine
    text), the declaring side's final total."""
    pos = position_of(match)
    hands = [[relabel[c] for c in pos.hands[s]] for s in range(4)]
    first = pos.trick_seats[0] if pos.trick else pos.to_play
    got = dds_tricks(hands, first, trump, [relabel[c] for c in pos.trick])
    out = {}
    for c in pos.hands[pos.to_play]:
        if relabel[c] in got:
            tricks = got[relabel[c]]
            ours = tricks if pos.declaring[pos.to_play] else pos.tricks_left - tricks
            out[str(c)] = pos.won + ours
    return out
