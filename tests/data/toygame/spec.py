"""Toy Tricks as the registry sees it: the one object an entry point names."""

from __future__ import annotations

from typing import Any

from toygame.rules import DECK
from trumps.core.cards import Card
from trumps.core.spec import GameSpec


def deck(options: Any) -> list[Card]:
    return list(DECK)


SPEC = GameSpec(
    name="toy",
    aliases=("toy_tricks",),
    title="Toy Tricks",
    noun="toy tricks",
    match="toygame.game:ToyTricks",
    deck="toygame.spec:deck",
    view="toygame.view:view",
    rule_bot="toygame.bot:ToyRuleBot",
    view_names_led_suit=True,
    max_game_length=8 * 20,
    reward_scales={"score": 2.0, "tricks": 2.0},
)
