"""Card play in 500: effective suits, card power, legal cards, trick winner
(§4, §8).

A :class:`TrickRules` is built once per deal for its contract and answers in
table look-ups indexed by :attr:`Card.index`, which keeps self-play fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from trumps.core.cards import Card, Suit
from trumps.core.trick import NO_SUIT
from trumps.five_hundred.joker_lead import JokerLead

__all__ = ["NO_SUIT", "JokerLead", "TrickRules", "joker_leads", "rules_for"]


def joker_leads(hand: list[Card], void: set[int] | None = None) -> list[Card | JokerLead]:
    """The leads from ``hand`` when jokers have no suit (no trumps, misère):
    each joker once per suit it may name — with ``void`` (the
    ``joker_lead_suit_restriction`` option), not a suit its holder has shown
    void in, unless that leaves none — and the other cards as they are."""
    out: list[Card | JokerLead] = []
    for c in hand:
        if c.suit is None:
            leads = _leads_of(c)
            if void:
                out.extend([lead for lead in leads if int(lead.suit) not in void] or leads)
            else:
                out.extend(leads)
        else:
            out.append(c)
    return out


_SUITS = tuple(Suit)
_LEADS: dict[Card, tuple[JokerLead, ...]] = {}


def _leads_of(joker: Card) -> tuple[JokerLead, ...]:
    """``joker`` led naming each suit, in suit order: made once per joker
    (an enum's iteration and ``JokerLead.__new__`` are Python-level calls,
    a few at every joker lead in no trumps)."""
    got = _LEADS.get(joker)
    if got is None:
        got = _LEADS[joker] = tuple(JokerLead(joker, s) for s in _SUITS)
    return got


class TrickRules:
    """Effective suit and power of every card under one contract (500's
    :class:`trumps.core.trick.TrickRules`).

    ``trump`` is the trump suit, or ``None`` for no trumps and misère.
    ``joker_low`` makes jokers the lowest cards (misère option)."""

    __slots__ = ("eff", "joker_low", "lead_suits", "power", "trump")

    def __init__(self, trump: Suit | None, joker_low: bool = False) -> None:
        self.trump = trump
        self.joker_low = joker_low
        eff = [NO_SUIT] * 66
        power = [0] * 66
        for index in range(66):
            if index < 64:
                suit_i, rank = divmod(index, 16)
                rank += 2
                if rank > 17:
                    continue
                eff[index] = suit_i
                power[index] = rank
            else:
                rank = 18 + index - 64
                power[index] = rank
        if trump is not None:
            t = int(trump)
            left = int(trump.partner_suit)
            for index in range(66):
                if index >= 64:
                    eff[index] = t
                    power[index] = 100 + 50 + (index - 64)  # RJ 150, BJ 151
                elif index == t * 16 + 12:  # jack of trumps (rank 14)
                    power[index] = 149
                elif index == left * 16 + 12:
                    eff[index] = t
                    power[index] = 148
                elif index // 16 == t:
                    power[index] += 100
        else:
            for index in (64, 65):
                power[index] = -1 if joker_low else 300 + index - 64
        self.eff = eff
        # a trick is led in the card's effective suit (a joker in no trumps names its suit: JokerLead)
        self.lead_suits = eff
        self.power = power

    def eff_suit(self, card: Card) -> int:
        """0-3 for a suit (as :class:`Suit`), 4 for a joker in no trumps."""
        return self.eff[card.index]

    def legal_follow(self, hand: list[Card], led: int) -> list[Card]:
        """Cards of ``hand`` that may follow a trick whose led suit is ``led`` (a new list)."""
        eff = self.eff
        same = [c for c in hand if eff[c.index] == led]
        return same or hand[:]

    def follow(
        self, hand: list[Card], cards: list[Card], seats: list[int], led: int, seat: int
    ) -> list[Card]:
        """Follow the led suit if able (a bower and the jokers are trumps)."""
        return self.legal_follow(hand, led)

    def trick_points(self, cards: Sequence[Card]) -> int:
        """500 counts tricks, not cards."""
        return 0

    def winner(self, cards: Sequence[Card], led: int, joker_led: bool | None = None) -> int:
        """Index in ``cards`` (in play order) of the card that wins;
        ``joker_led`` defaults to whether the first card is a joker."""
        if joker_led is None:
            joker_led = cards[0].index >= 64
        eff = self.eff
        power = self.power
        trump = -1 if self.trump is None else int(self.trump)
        best = -1
        best_i = 0
        for i, c in enumerate(cards):
            x = c.index
            e = eff[x]
            if e == trump:
                p = power[x] + 1000
            elif e == led:
                p = power[x]
            elif x >= 64:  # joker in no trumps
                p = (0 if i == 0 and joker_led else -1) if self.joker_low else power[x] + 1000
            else:
                p = -1
            if p > best:
                best = p
                best_i = i
        return best_i


_SHARED: dict[tuple[Suit | None, bool], TrickRules] = {}


def rules_for(trump: Suit | None, joker_low: bool = False) -> TrickRules:
    """The shared rules of a contract's trump (``None``: no trumps or
    misère): built once each, as bridge's are, since every deal needs one
    and nothing changes them after."""
    key = (trump, joker_low)
    got = _SHARED.get(key)
    if got is None:
        got = _SHARED[key] = TrickRules(trump, joker_low)
    return got
