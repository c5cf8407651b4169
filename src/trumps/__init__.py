"""trumps: rules engines for trick-taking games with an auction (500,
Contract Bridge, Belote Coinche), a card room, bots and tools.

>>> import trumps
>>> g = trumps.new_game("500", preset="australian", seed=7)
>>> g.to_act in ("N", "E", "S", "W")
True

The subpackages load on first use (PEP 562), so ``import trumps`` stays
light while ``trumps.bridge.score(...)`` works without another import:

>>> trumps.bridge.score("3NT", vulnerable=False, tricks=9)
400
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps._pure import compiled_modules, install_if_asked

install_if_asked()  # TRUMPS_PURE=1: the engines' Python sources, not their compiled modules

from trumps.core.cards import Card, Suit, format_hand, parse_cards, parse_hand  # noqa: E402
from trumps.core.errors import (  # noqa: E402
    DealError,
    GameOver,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
    TrumpsError,
    WrongSeat,
)
from trumps.core.protocol import Deal, Match  # noqa: E402

# new_game is the registry's own function, not a wrapper: a wrapper's call of
# eight keywords was a tenth of starting a game, and self-play starts many
from trumps.core.registry import BUILTIN as _BUILTIN_GAMES  # noqa: E402
from trumps.core.registry import new_game  # noqa: E402
from trumps.core.spec import GameSpec  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "Card",
    "DealError",
    "GameOver",
    "GameSpec",
    "IllegalAction",
    "Match",
    "OptionError",
    "ParseError",
    "RecordError",
    "Suit",
    "TrumpsError",
    "WrongSeat",
    "compiled_modules",
    "format_hand",
    "game_class",
    "game_spec",
    "games",
    "load_game",
    "new_game",
    "parse_cards",
    "parse_hand",
]

# Subpackages imported on first attribute access (``trumps.bridge``...): the
# layers, and the package of each built-in game (named by the registry).
_SUBPACKAGES = tuple(
    sorted(
        {"bots", "cli", "core", "envs", "room", "solver"}
        | {ref.split(":")[0].split(".")[1] for ref in _BUILTIN_GAMES}
    )
)


def __getattr__(name: str) -> Any:
    """``trumps.<subpackage>`` imports that subpackage on first use."""
    if name in _SUBPACKAGES:
        import importlib

        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBPACKAGES))


def games() -> list[str]:
    """The names of the games this installation plays (the built-ins, then
    every game of the entry-point group ``trumps.games``)."""
    from trumps.core.registry import games as _games

    return _games()


def game_spec(game: str) -> GameSpec:
    """The :class:`~trumps.core.spec.GameSpec` of a game name or alias."""
    from trumps.core.registry import spec

    return spec(game)


def game_class(game: str) -> type[Match[Deal]]:
    """The :class:`Match` class of a game name (``"500"``, ``"bridge"``, ``"coinche"``) or alias."""
    from trumps.core.registry import game_class as _game_class

    return _game_class(game)


def load_game(record: Mapping[str, object] | str) -> Match[Deal]:
    """Rebuild any game from its JSON record (a dict or a JSON string)."""
    from trumps.core.registry import load_game as _load_game

    return _load_game(record)
