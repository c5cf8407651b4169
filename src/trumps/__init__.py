"""trumps: rules engines for trick-taking games with an auction (500,
Contract Bridge, Belote Coinche), a card room, bots and tools.

>>> import trumps
>>> g = trumps.new_game("500", preset="australian", seed=7)
>>> g.seat_name(g.to_act) in ("N", "E", "S", "W")
True

The subpackages load on first use (PEP 562), so ``import trumps`` stays
light while ``trumps.bridge.score(...)`` works without another import:

>>> trumps.bridge.score("3NT", vulnerable=False, tricks=9)
400
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps.core.cards import Card, Suit, format_hand, parse_cards, parse_hand
from trumps.core.errors import (
    DealError,
    GameOver,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
    TrumpsError,
    WrongSeat,
)
from trumps.core.protocol import Match

__version__ = "0.1.0"

__all__ = [
    "Card",
    "DealError",
    "GameOver",
    "IllegalAction",
    "Match",
    "OptionError",
    "ParseError",
    "RecordError",
    "Suit",
    "TrumpsError",
    "WrongSeat",
    "format_hand",
    "game_class",
    "games",
    "load_game",
    "new_game",
    "parse_cards",
    "parse_hand",
]

# Subpackages imported on first attribute access (``trumps.bridge``...).
_SUBPACKAGES = (
    "bots",
    "bridge",
    "cli",
    "coinche",
    "core",
    "envs",
    "five_hundred",
    "room",
    "solver",
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


# Game name -> "module:Class".  A game is one subpackage plus one line here.
_REGISTRY = {
    "500": "trumps.five_hundred.game:FiveHundred",
    "bridge": "trumps.bridge.game:Bridge",
    "coinche": "trumps.coinche.game:Coinche",
}
_ALIASES = {"five_hundred": "500", "fivehundred": "500", "belote": "coinche"}


def games() -> list[str]:
    """The names of the games this installation plays."""
    import importlib.util

    def installed(target: str) -> bool:
        try:
            return importlib.util.find_spec(target.split(":")[0]) is not None
        except ModuleNotFoundError:
            return False

    return [g for g, target in _REGISTRY.items() if installed(target)]


def game_class(game: str) -> type[Match[Any]]:
    """The :class:`Match` class of a game name (``"500"``, ``"bridge"``, ``"coinche"``)."""
    import importlib

    key = str(game).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in games():
        raise OptionError(f"unknown game {game!r} (known: {', '.join(games())})")
    module, _, name = _REGISTRY[key].partition(":")
    cls: type[Match[Any]] = getattr(importlib.import_module(module), name)
    return cls


def new_game(
    game: str,
    *,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int | None = None,
    deal: Mapping[Any, Any] | str | None = None,
    dealer: int | str | None = None,
    contract: str | None = None,
    declarer: int | str | None = None,
) -> Match[Any]:
    """Start a game.

    ``preset`` names a preset of the game's options and ``options`` overrides
    single keys; ``seed`` makes the shuffles reproducible; ``deal`` gives the
    first deal's hands explicitly (seat → cards, plus ``"kitty"`` for 500);
    ``contract`` with ``declarer`` starts that deal at the play phase (after
    any kitty exchange) and the game ends after its scoring.  Bad input
    raises a :class:`TrumpsError` (a ``ValueError``).
    """
    cls = game_class(game)
    opts = cls.schema.resolve(preset, options)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"seed must be an integer, not {seed!r}")
    return cls(opts, seed=seed, deal=deal, dealer=dealer, contract=contract, declarer=declarer)


def load_game(record: Mapping[str, Any] | str) -> Match[Any]:
    """Rebuild any game from its JSON record (a dict or a JSON string)."""
    from trumps.core.protocol import read_record

    data = read_record(record)
    try:
        cls = game_class(str(data.get("game")))
    except OptionError:
        raise RecordError(
            f"record of an unknown game {data.get('game')!r} (known: {', '.join(games())})"
        ) from None
    return cls.from_json(data)
