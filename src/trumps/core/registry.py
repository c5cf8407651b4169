"""The one registry of games: name or alias -> :class:`~trumps.core.spec.GameSpec`.

The built-in games are registered directly (so a plain checkout on
``PYTHONPATH`` has them); then every entry point of the group
``trumps.games`` is loaded, so an installed package adds a game without
touching trumps::

    [project.entry-points."trumps.games"]
    toy = "toygame.spec:SPEC"

An entry point naming a game already registered by the same spec object is
the same game seen twice (trumps' own metadata after ``pip install -e``) and
is skipped; one naming a *different* spec under a taken name, or one that
fails to load, is skipped with a warning, so a broken plugin never breaks
the built-in games.

>>> spec("five_hundred").name, spec("Belote").name
('500', 'coinche')
>>> spec("chess")
Traceback (most recent call last):
...
trumps.core.registry.UnknownGame: unknown game 'chess' (known: 500, bridge, coinche)
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from trumps.core.errors import OptionError, ParseError, RecordError
from trumps.core.protocol import Deal, Match
from trumps.core.spec import GameSpec, SpecError, resolve_ref

__all__ = [
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "UnknownGame",
    "catalogue",
    "game_class",
    "games",
    "load_game",
    "new_game",
    "register",
    "reload",
    "spec",
    "specs",
    "unregister",
]

#: The entry-point group an outside package declares its games in.
ENTRY_POINT_GROUP = "trumps.games"

#: The games that ship with trumps, registered without package metadata.
BUILTIN = (
    "trumps.five_hundred.spec:SPEC",
    "trumps.bridge.spec:SPEC",
    "trumps.coinche.spec:SPEC",
)


class UnknownGame(OptionError):
    """No registered game has this name or alias."""


_lock = threading.RLock()
_specs: dict[str, GameSpec] | None = None  # name -> spec, in registration order
_names: dict[str, str] = {}  # name or alias (lower case) -> name


def _index(spec: GameSpec) -> None:
    for key in (spec.name, *spec.aliases):
        _names[key.strip().lower()] = spec.name


def _add(table: dict[str, GameSpec], spec: object, source: str) -> None:
    if not isinstance(spec, GameSpec):
        warnings.warn(f"trumps: {source} is not a GameSpec ({type(spec).__name__}); skipped", stacklevel=3)
        return
    have = table.get(spec.name)
    if have is spec:
        return
    taken = [a for a in (spec.name, *spec.aliases) if a.strip().lower() in _names]
    if have is not None or taken:
        warnings.warn(f"trumps: {source} names a game already registered ({taken}); skipped", stacklevel=3)
        return
    table[spec.name] = spec
    _index(spec)


def _load() -> dict[str, GameSpec]:
    global _specs
    with _lock:
        if _specs is not None:
            return _specs
        table: dict[str, GameSpec] = {}
        _names.clear()
        for ref in BUILTIN:
            try:
                _add(table, resolve_ref(ref), ref)
            except SpecError:  # a built-in game left out of a trimmed install
                continue
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                loaded = ep.load()
            except Exception as exc:  # any error in a plugin: skip it, keep the others
                warnings.warn(f"trumps: game entry point {ep.value!r} failed to load: {exc}", stacklevel=2)
                continue
            if isinstance(loaded, GameSpec) and loaded.name != ep.name.strip().lower():
                warnings.warn(
                    f"trumps: game entry point {ep.name!r} names a game called {loaded.name!r}; skipped",
                    stacklevel=2,
                )
                continue
            _add(table, loaded, f"entry point {ep.name} = {ep.value}")
        _specs = table
        return table


def reload() -> None:
    """Forget the registry; the next look-up reads the built-ins and the
    entry points again (after installing a package, or in tests)."""
    global _specs
    with _lock:
        _specs = None
        _names.clear()


def register(spec: GameSpec) -> GameSpec:
    """Add a game at run time (a test, a notebook).  Raises :class:`SpecError`
    if its name or an alias is taken by another game."""
    with _lock:
        table = _load()
        if table.get(spec.name) is spec:
            return spec
        taken = [a for a in (spec.name, *spec.aliases) if a.strip().lower() in _names]
        if taken:
            raise SpecError(f"game name(s) {taken} already registered")
        table[spec.name] = spec
        _index(spec)
        return spec


def unregister(name: str) -> None:
    """Remove a game registered at run time (by name or alias)."""
    with _lock:
        table = _load()
        key = _names.get(str(name).strip().lower())
        if key is None:
            return
        gone = table.pop(key)
        for alias in (gone.name, *gone.aliases):
            _names.pop(alias.strip().lower(), None)


def specs() -> list[GameSpec]:
    """Every registered game, built-ins first."""
    return list(_load().values())


def catalogue() -> list[dict[str, Any]]:  # (the schema's description, as the schema gives it)
    """Every installed game with its option metadata (a form is built from
    it) and its names for people: ``short_title`` ("Bridge", a heading) and
    ``noun`` (inside a sentence: "a … table"), so that no page names a game.
    What the room's ``/api/games`` answers, and what the catalogue of
    translations takes the options' words from."""
    return [{"game": s.name, "short_title": s.title, "noun": s.noun, **s.schema.describe()} for s in specs()]


def games() -> list[str]:
    """The names of the games this installation plays."""
    return list(_load())


def spec(game: str | GameSpec) -> GameSpec:
    """The spec of a game name or alias (case-insensitive)."""
    if isinstance(game, GameSpec):
        return game
    # the table once loaded needs no lock to be read (every new game asks)
    table = _specs if _specs is not None else _load()
    name = _names.get(game) if type(game) is str else None  # a name as registered: the usual call
    if name is None:
        name = _names.get(str(game).strip().lower())
    if name is None:
        raise UnknownGame(f"unknown game {game!r} (known: {', '.join(table)})")
    return table[name]


def game_class(game: str | GameSpec) -> type[Match[Deal]]:
    """The :class:`Match` class of a game name or alias."""
    return spec(game).match_class()


def new_game(
    game: str | GameSpec,
    *,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    seed: int | None = None,
    deal: object = None,  # a deal spec (or text), checked by the reader
    dealer: int | str | None = None,
    contract: object = None,
    declarer: int | str | None = None,
) -> Match[Deal]:
    """Start a game (``trumps.new_game``).

    ``preset`` names a preset of the game's options and ``options`` overrides
    single keys; ``seed`` makes the shuffles reproducible; ``deal`` gives the
    first deal's hands explicitly (seat → cards, plus ``"kitty"`` for 500);
    ``contract`` with ``declarer`` starts that deal at the play phase (after
    any kitty exchange) and the game ends after its scoring.  Bad input
    raises a :class:`~trumps.core.errors.TrumpsError` (a ``ValueError``).
    """
    cls = game_class(game)
    opts = cls.schema.resolve(preset, options)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise OptionError(f"seed must be an integer, not {seed!r}")
    if deal is None and dealer is None and contract is None and declarer is None:
        return cls(opts, seed=seed)  # self-play's call: one keyword for the class to read
    # checked here, in Python: a compiled class would refuse a wrong type with
    # a TypeError where the Python sources give a ParseError
    for value in (dealer, declarer):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
            raise ParseError(f"not a seat: {value!r}")
    # a contract's text or value (its text); text that is no contract: ParseError
    text = None if contract is None else contract if isinstance(contract, str) else str(contract)
    return cls(opts, seed=seed, deal=deal, dealer=dealer, contract=text, declarer=declarer)


def load_game(record: Mapping[str, object] | str) -> Match[Deal]:
    """Rebuild any game from its JSON record (a dict or a JSON string)."""
    from trumps.core.protocol import read_record

    data = read_record(record)
    try:
        cls = game_class(str(data.get("game")))
    except UnknownGame:
        raise RecordError(
            f"record of an unknown game {data.get('game')!r} (known: {', '.join(games())})"
        ) from None
    return cls.from_json(data)
