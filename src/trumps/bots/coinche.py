"""A rule-based coinche bot that sees only its view (what the seat may see).

Bidding: each possible trump suit is valued from the trumps held (jack and
nine first), their length, the belote and the side aces; the bot bids the
best suit up to that value, coinches an opponent's high bid when it holds
the master trumps of that suit, and otherwise passes.  Play: the legal list
already enforces the obligations; among legal cards it wins cheaply when an
opponent is winning, loads points on a winning partner ("charger"), counts
the trumps played and draws the rest as a taker while it holds the master
trump, leads its aces, keeps the belote pair
together (and announces it when announcing is required), and discards the
card worth the fewest points.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trumps.bots.base import Bot
from trumps.coinche.play import PLAIN_ORDER, TRUMP_ORDER, TRUMP_POINTS
from trumps.core.cards import Card

__all__ = ["CoincheRuleBot"]

_SUITS = "SHDC"
_ALL = [Card(r + s) for s in _SUITS for r in "AKQJT987"]
_NT_POINTS = {17: 19, 10: 10, 16: 4, 15: 3, 14: 2}
_PLAIN_POINTS = {17: 11, 10: 10, 16: 4, 15: 3, 14: 2}


class _Table:
    """Order and points of cards under the contract in the view."""

    def __init__(self, denom: str | None) -> None:
        self.trump = _SUITS.index(denom) if denom in ("S", "H", "D", "C") else -1
        self.all_trump = denom == "AT"
        self.no_trump = denom == "NT"

    def is_trump(self, c: Card) -> bool:
        return c.suit is not None and int(c.suit) == self.trump

    def order(self, c: Card) -> int:
        if self.all_trump or self.is_trump(c):
            return TRUMP_ORDER[c.rank]
        return PLAIN_ORDER[c.rank]

    def points(self, c: Card) -> int:
        if self.all_trump or self.is_trump(c):
            return TRUMP_POINTS.get(c.rank, 0)
        return (_NT_POINTS if self.no_trump else _PLAIN_POINTS).get(c.rank, 0)

    def strength(self, c: Card, led: int) -> int:
        if self.is_trump(c):
            return 100 + self.order(c)
        return self.order(c) if c.suit is not None and int(c.suit) == led else 0


def suit_value(hand: list[Card], suit: int) -> int:
    """A rough count of what a hand can make with ``suit`` as trumps."""
    trumps = [c for c in hand if c.suit is not None and int(c.suit) == suit]
    value = sum(TRUMP_POINTS.get(c.rank, 0) for c in trumps) + 8 * len(trumps)
    ranks = {c.rank for c in trumps}
    if {15, 16} <= ranks:
        value += 20
    if 14 not in ranks:
        value -= 15
    value += sum(12 for c in hand if c.rank == 17 and c not in trumps)
    value += sum(
        5
        for c in hand
        if c.rank == 10 and c.suit is not None and c not in trumps and Card.of(c.suit, 17) in hand
    )
    return value


class CoincheRuleBot(Bot):
    """``choose(view, legal, rng)`` returns one of the ``legal`` strings."""

    name = "rules"

    def searches(self, view: Mapping[str, Any], legal: Sequence[str]) -> bool:
        return False  # rules, answered in milliseconds

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        hand = [Card(c) for c in view["hands"][seat] or []]
        if view["phase"] == "AUCTION":
            return self._bid(view, legal, hand, seat)
        if legal[0].startswith("MELD"):
            return legal[0]  # the most valuable declaration comes first
        return self._play(view, legal, hand, seat, rng)

    # ----- auction ---------------------------------------------------------
    def _bid(self, view: Mapping[str, Any], legal: list[str], hand: list[Card], seat: str) -> str:
        seats: list[str] = view["seats"]
        me = seats.index(seat)
        auction = view["auction"]
        high = None
        for entry in auction:
            if entry["call"] not in ("P", "X", "XX"):
                high = entry
        partner = seats[(me + 2) % 4]
        if "X" in legal and high is not None:
            call = high["call"]
            denom = call.split("-")[-1] if "-" in call else call.lstrip("0123456789")
            if denom in _SUITS:
                s = _SUITS.index(denom)
                held = {c.rank for c in hand if c.suit is not None and int(c.suit) == s}
                aces = sum(1 for c in hand if c.rank == 17)
                value = int(call[: len(call) - len(denom)]) if call[0].isdigit() else 250
                if {14, 9} <= held and aces >= 2 and value >= 110:
                    return "X"
        best_suit = max(range(4), key=lambda s: suit_value(hand, s))
        value = suit_value(hand, best_suit)
        if high is not None and high["seat"] == partner:
            value += 10 * sum(1 for c in hand if c.rank == 17)
        target = min(160, (value // 10) * 10 + 10) if value >= 70 else 0
        options = [c for c in legal if c.endswith(_SUITS[best_suit]) and c[0].isdigit()]
        options = [c for c in options if int(c[:-1]) <= target]
        if options:
            return max(options, key=lambda c: int(c[:-1]))
        return "P"

    # ----- play ------------------------------------------------------------
    def _play(
        self, view: Mapping[str, Any], legal: list[str], hand: list[Card], seat: str, rng: random.Random
    ) -> str:
        contract = view.get("contract") or {}
        t = _Table(contract.get("denom"))
        seats: list[str] = view["seats"]
        me = seats.index(seat)
        partner = seats[(me + 2) % 4]
        announce = {s.split("+")[0]: s for s in legal if "+" in s}
        cards = [Card(s) for s in legal if "+" not in s]
        trick = view["trick"]
        played = {Card(c) for tr in view.get("tricks", []) for c in tr["cards"]}
        played |= {Card(e["card"]) for e in trick}
        taking = contract.get("seat") in (seat, partner)
        choice = self._card(t, cards, hand, trick, partner, taking, played)
        text = str(choice)
        return announce.get(text, text)

    def _card(
        self,
        t: _Table,
        cards: list[Card],
        hand: list[Card],
        trick: list[dict[str, str]],
        partner: str,
        taking: bool,
        played: set[Card],
    ) -> Card:
        def cheap(c: Card) -> tuple[int, int, int]:
            belote = int(t.is_trump(c) and c.rank in (15, 16))
            return (belote, t.points(c) + (30 if t.is_trump(c) else 0), t.order(c))

        if not trick:
            trumps = [c for c in cards if t.is_trump(c)]
            if taking and trumps:
                # count the trumps: draw them while the opponents may hold some
                # and ours is the master (highest not yet played)
                mine = [c for c in hand if t.is_trump(c)]
                out = [c for c in _ALL if t.is_trump(c) and c not in played and c not in mine]
                master = max(mine, key=t.order)
                if out and all(t.order(master) > t.order(c) for c in out) and master in trumps:
                    return master
            aces = [c for c in cards if c.rank == 17 and not t.is_trump(c)]
            if aces:
                return aces[0]
            return min(cards, key=cheap)
        in_trick = [Card(e["card"]) for e in trick]
        led = int(in_trick[0].suit) if in_trick[0].suit is not None else -1
        best = max(range(len(in_trick)), key=lambda i: (t.strength(in_trick[i], led), -i))
        winner = trick[best]["seat"]
        if winner == partner:
            loads = [c for c in cards if not t.is_trump(c)]
            if loads and len(trick) == 3:
                return max(loads, key=lambda c: (t.points(c), -t.order(c)))
            return min(cards, key=cheap)
        beat = [c for c in cards if t.strength(c, led) > t.strength(in_trick[best], led)]
        if beat:
            return min(beat, key=lambda c: (t.strength(c, led), t.points(c)))
        return min(cards, key=cheap)
