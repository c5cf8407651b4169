"""A rule-based bridge player that decides from its seat's view alone.

Bidding is deliberately simple natural bidding (issue 3): open 1NT with a
balanced 15–17, otherwise open one of the longest suit with 12+ HCP; raise
partner's suit with support (one level with 6–9, two with 10–12, game in a
major with 13+), raise 1NT to 2NT/3NT with 8–9/10+; opener goes to game after a raise with
extras (16+ over a single raise, 14+ over a jump raise, a maximum over
2NT); pass otherwise.
Claims by the other side are accepted unless this hand holds more masters
than the claim leaves.  Card play: lead a master if it has one, else low
from the longest side suit; second hand low; third and fourth hand win as cheaply as possible unless
partner already wins; otherwise play the lowest card, discarding from the
side suits.  Declarer plays dummy's cards the same way: the hand to play is
``view["hand_to_play"]``, visible to declarer once dummy is exposed.

>>> import random, trumps
>>> g = trumps.new_game("bridge", seed=4)
>>> v = g.view(g.to_act)
>>> BridgeRuleBot().choose(v, v["legal"], random.Random(0)) in v["legal"]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from trumps.bots.base import Bot
from trumps.core.cards import Card

__all__ = ["BridgeRuleBot", "hcp", "suit_lengths"]

_SEATS = "NESW"
_SUITS = "SHDC"
_HCP = {17: 4, 16: 3, 15: 2, 14: 1}
_STRAIN_OF_SUIT = {"C": "C", "D": "D", "H": "H", "S": "S"}


def hcp(cards: Sequence[Card]) -> int:
    """Milton Work high-card points (A 4, K 3, Q 2, J 1)."""
    return sum(_HCP.get(c.rank, 0) for c in cards)


def suit_lengths(cards: Sequence[Card]) -> dict[str, int]:
    out = dict.fromkeys(_SUITS, 0)
    for c in cards:
        out[str(c)[-1]] += 1
    return out


def _balanced(lengths: dict[str, int]) -> bool:
    shape = sorted(lengths.values())
    return (shape[0] >= 2 and shape[1] >= 3) or shape == [2, 3, 4, 4]


class BridgeRuleBot(Bot):
    """Simple natural bidding and sensible card play."""

    name = "rules"

    def searches(self, view: Mapping[str, Any], legal: Sequence[str]) -> bool:
        return False  # rules, answered in milliseconds

    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if not legal:
            raise ValueError("no legal action to choose from")
        if view.get("phase") == "AUCTION":
            return self._bid(view, legal)
        if "ACCEPT" in legal:
            return "ACCEPT" if view.get("claim") and self._claim_plausible(view) else "REJECT"
        cards = [a for a in legal if not a.startswith("CLAIM")]
        if not cards:
            return legal[0]
        return self._play(view, cards)

    # ----- bidding -----------------------------------------------------------
    def _bid(self, view: Mapping[str, Any], legal: list[str]) -> str:
        seat = view["seat"]
        hand = [Card(c) for c in view["hands"][seat]]
        points = hcp(hand)
        lengths = suit_lengths(hand)
        me = _SEATS.index(seat)
        partner = _SEATS[(me + 2) % 4]
        bids = [(a["seat"], a["call"]) for a in view["auction"] if a["call"][0].isdigit()]
        mine = [c for s, c in bids if s == seat]
        theirs = [c for s, c in bids if s == partner]
        choice = "P"
        if not bids:
            if 15 <= points <= 17 and _balanced(lengths):
                choice = "1NT"
            elif points >= 12:
                choice = "1" + self._longest(lengths)
        elif theirs and not mine and bids[-1][0] == partner:
            choice = self._raise(theirs[-1], points, lengths)
        elif len(mine) == 1 and theirs and bids[-1][0] == partner:
            choice = self._accept_invitation(mine[0], theirs[-1], points)
        return choice if choice in legal else "P"

    @staticmethod
    def _accept_invitation(opening: str, raise_: str, points: int) -> str:
        """Opener's one rebid: game after a single raise with extras, or
        after an invitational 2NT with a maximum."""
        strain = opening[1:]
        if raise_[1:] != strain:
            return "P"
        level = int(raise_[0])
        if strain == "NT":
            return "3NT" if level == 2 and points >= 16 else "P"
        if strain in ("H", "S") and level == 2 and points >= 16:
            return f"4{strain}"
        if strain in ("H", "S") and level == 3 and points >= 14:
            return f"4{strain}"
        return "P"

    @staticmethod
    def _longest(lengths: dict[str, int]) -> str:
        for suit in ("S", "H"):
            if lengths[suit] >= 5 and lengths[suit] >= max(lengths.values()):
                return suit
        if lengths["S"] >= 5 or lengths["H"] >= 5:
            return "S" if lengths["S"] >= lengths["H"] else "H"
        return "D" if lengths["D"] > lengths["C"] else "C"

    @staticmethod
    def _raise(partner_bid: str, points: int, lengths: dict[str, int]) -> str:
        level, strain = int(partner_bid[0]), partner_bid[1:]
        if strain == "NT":
            if points >= 10:
                return "3NT"
            return "2NT" if points >= 8 else "P"
        need = 3 if strain in ("H", "S") else 4
        if lengths[strain] < need or points < 6:
            return "P"
        target = 4 if points >= 13 and strain in ("H", "S") else level + (2 if points >= 10 else 1)
        return f"{min(target, 7)}{strain}"

    # ----- play ---------------------------------------------------------------
    def _claim_plausible(self, view: Mapping[str, Any]) -> bool:
        """Accept a claim unless this hand alone holds more sure winners
        (masters) than the claim leaves to our side."""
        claim = view["claim"]
        me = _SEATS.index(view["seat"])
        if _SEATS.index(claim["seat"]) % 2 == me % 2:
            return True  # partner's claim: no objection
        remaining = 13 - len(view.get("tricks", []))
        played = {Card(c) for t in view.get("tricks", []) for c in t["cards"]}
        played |= {Card(t["card"]) for t in view.get("trick", [])}
        hand = [Card(c) for c in view["hands"][view["seat"]] or []]
        masters = sum(1 for c in hand if _is_master(c, played))
        return masters <= remaining - int(claim["tricks"])

    def _play(self, view: Mapping[str, Any], legal: list[str]) -> str:
        cards = [Card(c) for c in legal]
        trump = view.get("trump")
        played = {Card(c) for t in view.get("tricks", []) for c in t["cards"]}
        played |= {Card(t["card"]) for t in view.get("trick", [])}
        trick = view.get("trick", [])
        if not trick:
            return str(self._lead(view, cards, trump, played))
        led = trick[0]["card"][-1]
        best_i = _winning_index([Card(t["card"]) for t in trick], trump)
        best_seat = trick[best_i]["seat"]
        best = Card(trick[best_i]["card"])
        hand_seat = view["hand_to_play"]
        partner = _SEATS[(_SEATS.index(hand_seat) + 2) % 4]
        position = len(trick)  # 1: second hand, 3: fourth hand
        winners = [c for c in cards if _beats(c, best, led, trump)]
        if best_seat == partner and (position == 3 or _is_master(best, played)):
            return str(_lowest(cards, trump))
        if winners and position >= 2:
            return str(min(winners, key=lambda c: (_is_trump(c, trump), c.rank)))
        if winners and position == 1 and any(_is_master(c, played) for c in winners):
            return str(min((c for c in winners if _is_master(c, played)), key=lambda c: c.rank))
        return str(_lowest(cards, trump))

    def _lead(self, view: Mapping[str, Any], cards: list[Card], trump: str | None, played: set[Card]) -> Card:
        masters = [c for c in cards if _is_master(c, played) and not _is_trump(c, trump)]
        if masters:
            return max(masters, key=lambda c: c.rank)
        lengths = suit_lengths(cards)
        side = [s for s in _SUITS if lengths[s] and s != trump] or [s for s in _SUITS if lengths[s]]
        suit = max(side, key=lambda s: lengths[s])
        return min((c for c in cards if str(c)[-1] == suit), key=lambda c: c.rank)


def _is_trump(card: Card, trump: str | None) -> bool:
    return trump is not None and str(card)[-1] == trump


def _beats(card: Card, best: Card, led: str, trump: str | None) -> bool:
    cs, bs = str(card)[-1], str(best)[-1]
    if cs == bs:
        return card.rank > best.rank
    return trump is not None and cs == trump


def _winning_index(cards: list[Card], trump: str | None) -> int:
    led = str(cards[0])[-1]
    best = 0
    for i in range(1, len(cards)):
        if _beats(cards[i], cards[best], led, trump):
            best = i
    return best


def _is_master(card: Card, played: set[Card]) -> bool:
    """No unplayed card of the suit ranks higher."""
    suit = card.suit
    assert suit is not None
    return all(Card.of(suit, r) in played for r in range(card.rank + 1, 18) if r not in (11, 12, 13))


def _lowest(cards: list[Card], trump: str | None) -> Card:
    return min(cards, key=lambda c: (_is_trump(c, trump), c.rank))
