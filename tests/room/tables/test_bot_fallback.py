"""A bot that fails for any reason is replaced by the rule bot's choice
(issue 29: the server never dies from play, and a table never stalls on a
broken bot); only if the rule bot fails too does the seat play the default
action."""

from __future__ import annotations

import asyncio
import logging
import random
from typing import Any

import pytest

import trumps
import trumps.bots.registry as registry
from trumps.room.tables.bots import bot_choice


class _Raises:
    needs_view = True

    def choose(self, view: Any, legal: list[str], rng: random.Random) -> str:
        raise RuntimeError("Sum 7 is not four")


class _Illegal(_Raises):
    def choose(self, view: Any, legal: list[str], rng: random.Random) -> str:
        return "not an action"


class _Last(_Raises):
    def choose(self, view: Any, legal: list[str], rng: random.Random) -> str:
        return legal[-1]


def _choice(monkeypatch: pytest.MonkeyPatch, bots: dict[str, Any]) -> tuple[str, Any]:
    match = trumps.new_game("500", seed=3)
    monkeypatch.setattr(registry, "bot_for", lambda game, kind="rules", **_: bots[kind]())
    seat = match.to_act_index
    assert seat is not None
    return asyncio.run(bot_choice("500", match, seat, "normal", random.Random(1), "t1")), match


@pytest.mark.parametrize("broken", [_Raises, _Illegal])
def test_a_failing_bot_is_replaced_by_the_rule_bot(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, broken: type
) -> None:
    with caplog.at_level(logging.ERROR, logger="trumps.room"):
        got, match = _choice(monkeypatch, {"normal": broken, "rules": _Last})
    legal = [str(a) for a in match.legal_actions()]
    assert got == legal[-1] != str(match.default_action())
    assert "bot normal" in caplog.text


def test_if_the_rule_bot_fails_too_the_default_action(monkeypatch: pytest.MonkeyPatch) -> None:
    got, match = _choice(monkeypatch, {"normal": _Raises, "rules": _Raises})
    assert got == str(match.default_action())
