"""The rule bot of Toy Tricks: win the trick as cheaply as possible, else
play the lowest card.  It names itself by the game's spec (``rule_bot``)."""

from __future__ import annotations

import random
from typing import Any

from trumps.core.cards import Card


class ToyRuleBot:
    name = "toy-rules"
    needs_view = True

    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        cards = sorted((Card(a) for a in legal), key=lambda c: c.rank)
        trick = [Card(p["card"]) for p in view.get("trick") or []]
        if trick:
            led = trick[0].suit
            best = max((c.rank for c in trick if c.suit == led), default=0)
            winners = [c for c in cards if c.suit == led and c.rank > best]
            if winners:
                return str(winners[0])
        return str(cards[0])
