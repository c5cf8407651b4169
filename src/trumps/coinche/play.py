"""Card order, card points, trick winner and legal cards (docs/rules/coinche.md §2, §5).

A :class:`TrickRules` is built once per contract (and cached per contract
type and values option): every per-card fact is a list indexed by
:attr:`Card.index`, so the legal-card and winner tests are a few look-ups.
The legal-card rules follow §5.2 with every obligation option.

>>> from trumps.core.cards import parse_cards
>>> from trumps.coinche.options import resolve_options
>>> r = rules_for(1, resolve_options("common"))
>>> [str(c) for c in r.legal(parse_cards("7H KD"), parse_cards("AC"), 0, False)]
['7H']
>>> r.total
162
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from trumps.coinche.calls import AT, NT
from trumps.core.cards import Card
from trumps.core.options import Options

__all__ = ["DIX_DE_DER", "PLAIN_ORDER", "TRUMP_ORDER", "TrickRules", "card_points", "rules_for"]

DIX_DE_DER: Final = 10  # Final: a constant in the compiled engines, not a module look-up
# rank value (Card.rank) -> order within a suit, higher is better
TRUMP_ORDER = {14: 8, 9: 7, 17: 6, 10: 5, 16: 4, 15: 3, 8: 2, 7: 1}  # J 9 A T K Q 8 7
PLAIN_ORDER = {17: 8, 10: 7, 16: 6, 15: 5, 14: 4, 9: 3, 8: 2, 7: 1}  # A T K Q J 9 8 7
TRUMP_POINTS = {14: 20, 9: 14, 17: 11, 10: 10, 16: 4, 15: 3}
PLAIN_POINTS = {17: 11, 10: 10, 16: 4, 15: 3, 14: 2}
NT_ACE19 = {17: 19, 10: 10, 16: 4, 15: 3, 14: 2}
AT_SCALED38 = {14: 14, 9: 9, 17: 6, 10: 5, 16: 3, 15: 1}


def card_points(denom: int, o: Options) -> list[int]:
    """Points of every card index under a contract's denomination."""
    points = [0] * 64
    for index in range(64):
        suit, rank = divmod(index, 16)
        rank += 2
        if denom == NT:
            table = NT_ACE19 if o.nt_values == "ace19" else PLAIN_POINTS
        elif denom == AT:
            table = AT_SCALED38 if o.at_values == "scaled38" else TRUMP_POINTS
        else:
            table = TRUMP_POINTS if suit == denom else PLAIN_POINTS
        points[index] = table.get(rank, 0)
    return points


class TrickRules:
    """Order, points and obligations under one contract denomination
    (coinche's :class:`trumps.core.trick.TrickRules`)."""

    __slots__ = (
        "by_led", "denom", "exempt_trump_lead", "lead_suits", "master_exempt", "master_overtrump", "points", "power",
        "suit", "total", "trump", "trumpkey", "undertrump",
    )  # fmt: skip

    def __init__(self, denom: int, o: Options) -> None:
        self.denom = denom
        self.trump = denom if denom < 4 else -1
        self.suit = [i // 16 for i in range(64)]
        self.lead_suits = self.suit
        self.power = [0] * 64
        self.trumpkey = [0] * 64  # > 0 only for trumps of a colour contract
        for index in range(64):
            suit, rank = divmod(index, 16)
            rank += 2
            trump_like = denom == AT or suit == denom
            self.power[index] = (TRUMP_ORDER if trump_like else PLAIN_ORDER).get(rank, 0)
            if suit == denom:
                self.trumpkey[index] = 100 + self.power[index]
        # by_led[led][index]: strength of a card in a trick led in suit ``led``
        self.by_led = [
            [self.trumpkey[i] or (self.power[i] if i // 16 == led else 0) for i in range(64)]
            for led in range(4)
        ]
        self.points = card_points(denom, o)
        self.total = sum(self.points) + DIX_DE_DER
        self.exempt_trump_lead = bool(o.partner_exempt_on_trump_lead)
        self.undertrump = bool(o.must_undertrump)
        self.master_exempt = bool(o.partner_master_exemption)
        self.master_overtrump = bool(o.partner_master_trump_must_overtrump)

    def strength(self, card: Card, led: int) -> int:
        """How strongly ``card`` bids for a trick led in suit ``led`` (0: cannot win)."""
        i = card.index
        key = self.trumpkey[i]
        if key:
            return key
        return self.power[i] if i // 16 == led else 0

    def winner(self, cards: Sequence[Card], led: int) -> int:
        """Index in ``cards`` of the strongest card (the first of equals)."""
        strength = self.by_led[led]
        best = 0
        top = strength[cards[0].index]
        for i in range(1, len(cards)):
            s = strength[cards[i].index]
            if s > top:
                best, top = i, s
        return best

    def trick_points(self, cards: Sequence[Card]) -> int:
        """The card points of ``cards`` (the last trick's 10 are the deal's)."""
        points = self.points
        return sum(points[c.index] for c in cards)

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
        """:meth:`legal` for ``seat`` (its partner is the seat opposite)."""
        best = self.winner(cards, led)
        return self.legal(hand, cards, best, (seats[best] - seat) % 4 == 2)

    def legal(self, hand: list[Card], trick: list[Card], best: int, partner_winning: bool) -> list[Card]:
        """The cards of ``hand`` that may be played to ``trick`` (cards in play
        order), whose winning card is ``trick[best]`` (§5.2).

        A card's suit is ``index >> 4`` (``index`` is 16 × suit + rank − 2,
        and coinche has no jokers): native arithmetic where the table
        :attr:`suit` is a list read per card."""
        if not trick:
            return hand[:]
        power = self.power
        led = trick[0].index >> 4
        follow = [c for c in hand if c.index >> 4 == led]
        denom = self.denom
        if denom == NT:
            return follow or hand[:]
        top = trick[best]
        if denom == AT:
            if not follow:
                return hand[:]
            if partner_winning and self.exempt_trump_lead:
                return follow
            floor = power[top.index]
            higher = [c for c in follow if power[c.index] > floor]
            return higher or follow
        t = denom
        if led == t:
            if not follow:
                return hand[:]
            if partner_winning and self.exempt_trump_lead:
                return follow
            floor = power[top.index]
            over = [c for c in follow if power[c.index] > floor]
            return over or follow
        if follow:
            return follow
        trumps = [c for c in hand if c.index >> 4 == t]
        floor = power[top.index] if top.index >> 4 == t else 0
        if partner_winning and self.master_exempt:
            if self.master_overtrump:
                allowed = [c for c in hand if c.index >> 4 != t or power[c.index] > floor]
                return allowed or hand[:]
            return hand[:]
        if not trumps:
            return hand[:]
        over = [c for c in trumps if power[c.index] > floor]
        if over:
            return over
        return trumps if self.undertrump else hand[:]


_CACHE: dict[tuple[object, ...], TrickRules] = {}


def rules_for(denom: int, o: Options) -> TrickRules:
    """The (shared, immutable) rules of a denomination under options ``o``:
    kept by denomination in the options' memo (every deal's contract asks;
    the key of option values below is built once per rule set)."""
    by_denom: list[TrickRules | None] | None = o.memo.get("coinche.rules")
    if by_denom is None:
        by_denom = o.memo["coinche.rules"] = [None] * 6
    got = by_denom[denom]
    if got is None:
        got = by_denom[denom] = _shared_rules(denom, o)
    return got


def _shared_rules(denom: int, o: Options) -> TrickRules:
    key = (
        denom, o.nt_values, o.at_values, o.partner_exempt_on_trump_lead, o.must_undertrump,
        o.partner_master_exemption, o.partner_master_trump_must_overtrump,
    )  # fmt: skip
    got = _CACHE.get(key)
    if got is None:
        got = _CACHE[key] = TrickRules(denom, o)
    return got
