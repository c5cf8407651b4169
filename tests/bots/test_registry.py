"""``bot_for``: a kind naming a class that cannot be a bot is a
:class:`BotError` (a ValueError), and the command line's one error line."""

from __future__ import annotations

import abc
import gc
import random

import pytest

from trumps.bots.base import Bot, BotError, RandomBot
from trumps.bots.registry import bot_for
from trumps.cli.main import main
from trumps.core.json_types import JSONObject


class HalfBot(Bot):
    """A subclass that still leaves an abstract method undefined."""

    def decide(self, view: JSONObject, legal: list[str], rng: random.Random) -> str:
        return legal[0]

    @abc.abstractmethod
    def think(self) -> None: ...


class NeedsArguments(RandomBot):
    def __init__(self, depth: int) -> None:
        self.depth = depth


class Broken(RandomBot):
    def __init__(self) -> None:
        self.table = len(3)  # type: ignore[arg-type]  # a bug in the bot's own constructor


class Fine(Bot):
    def decide(self, view: JSONObject, legal: list[str], rng: random.Random) -> str:
        return legal[0]


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        (
            "trumps.bots.base:Bot",
            "'trumps.bots.base:Bot' is an abstract bot class (it does not define decide)",
        ),
        (f"{__name__}:HalfBot", "is an abstract bot class (it does not define think)"),
        (f"{__name__}:NeedsArguments", "cannot be made without arguments"),
        ("trumps.bots.bidsim:SimulationBidder", "cannot be made without arguments"),  # was a TypeError too
        ("builtins:int", "is not a bot class"),
    ],
)
def test_a_class_that_cannot_be_a_bot_is_a_bot_error(kind: str, says: str) -> None:
    with pytest.raises(BotError) as info:
        bot_for("500", kind)
    assert says in str(info.value)
    assert isinstance(info.value, ValueError)


def test_a_bots_own_type_error_is_not_taken_for_missing_arguments() -> None:
    """A TypeError raised inside the constructor is the bot's bug: it goes
    up as it is, with its traceback, not as "cannot be made without arguments"."""
    with pytest.raises(TypeError, match="has no len"):
        bot_for("500", f"{__name__}:Broken")


def test_a_concrete_bot_class_loads() -> None:
    assert type(bot_for("500", f"{__name__}:Fine")) is Fine
    assert type(bot_for("bridge", "trumps.bots.base:RandomBot")) is RandomBot


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "500", "--a", "trumps.bots.base:Bot", "--b", "random", "--deals", "1"],
        ["selfplay", "500", "--games", "1", "--bots", "trumps.bots.base:Bot"],
        ["play", "500", "--bots", "trumps.bots.base:Bot"],
    ],
)
def test_the_command_line_says_it_in_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2  # was 70, an internal error
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("trumps: error: ") and err.count("\n") == 1
    assert "is an abstract bot class" in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["random", "rules", "normal", "strong"])
@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_making_a_bot_leaves_no_garbage(game: str, kind: str) -> None:
    """The room makes a bot for every decision: making one must leave no
    reference cycles behind (checking its signature with inspect made a
    class a call, for compiled classes, and a long soak's memory grew by
    tens of MB a minute until the cyclic collector ran)."""
    bot_for(game, kind)  # (imports and caches done)
    gc.collect()
    gc.disable()  # (what the collector would find, it finds at the end)
    try:
        for _ in range(40):
            bot_for(game, kind)
    finally:
        gc.enable()
    assert gc.collect() < 40
