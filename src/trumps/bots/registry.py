"""Which bot plays which game: ``bot_for("500", "rules")``.

Kinds: ``"random"`` (every game), ``"rules"`` (a game's rule-based bot,
named by its :class:`~trumps.core.spec.GameSpec` (``rule_bot``) and imported
lazily, so a game's bot module is only loaded when asked for), and the levels ``"easy"`` (the rule bot), ``"normal"`` and
``"strong"`` (PIMC card play, :mod:`trumps.bots.levels`), and for coinche
``"colver:<agent>"``, a bot of the outside engine colver
(:mod:`trumps.bots.colver_bot`, needs ``pip install trumps[arena]``).  A kind written ``"package.module:Class"`` loads any other
:class:`~trumps.bots.base.Bot` subclass.

>>> bot_for("500", "random").name
'random'
>>> type(bot_for("500", "rules")).__name__
'FiveHundredRuleBot'
"""

from __future__ import annotations

import importlib
import inspect

from trumps.bots.base import Bot, BotError, RandomBot

__all__ = ["KINDS", "LEVEL_BOTS", "bot_for", "canonical_game", "has_rule_bot"]

KINDS = ("random", "rules", "easy", "normal", "strong")

#: Level -> "module:Class" of the bot (``easy`` is the game's rule bot).
LEVEL_BOTS = {
    "normal": "trumps.bots.levels:NormalBot",
    "strong": "trumps.bots.levels:StrongBot",
}


def canonical_game(game: str) -> str:
    """The registry name of ``game`` (``"five_hundred"`` -> ``"500"``);
    raises :class:`~trumps.core.errors.OptionError` for an unknown game."""
    from trumps.core.registry import spec

    return spec(game).name


def _load(path: str) -> object:
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise BotError(f"a bot path is 'package.module:Class', not {path!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # only "this module is absent"; an import error inside it propagates
        if exc.name is not None and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise BotError(f"no module {module_name!r} for bot {path!r}") from None
        raise
    try:
        return getattr(module, attr)
    except AttributeError:
        raise BotError(f"module {module_name!r} has no {attr!r}") from None


def has_rule_bot(game: str) -> bool:
    """Whether the rule-based bot of ``game`` is installed."""
    try:
        bot_for(game, "rules")
    except BotError:
        return False
    return True


def bot_for(game: str, kind: str = "rules", *, fallback: bool = False) -> Bot:
    """A new bot of ``kind`` for ``game``.

    Raises :class:`BotError` for an unknown kind, or for ``"rules"`` when the
    game's rule bot module is absent, unless ``fallback`` is true: then a
    :class:`RandomBot` stands in.
    """
    k = str(kind).strip()
    if k.lower() == "random":
        return RandomBot()
    if k.lower().startswith("colver:"):  # an outside engine's bot (trumps.bots.colver_bot)
        from trumps.bots.colver_bot import colver_bot

        return colver_bot(game, k.partition(":")[2])
    if ":" in k:
        cls = _load(k)
    elif k.lower() in LEVEL_BOTS:
        canonical_game(game)  # an unknown game is an error here too
        cls = _load(LEVEL_BOTS[k.lower()])
    elif k.lower() in ("rules", "rule", "easy"):
        from trumps.core.registry import spec

        name = canonical_game(game)
        path = spec(name).rule_bot
        try:
            if path is None:
                raise BotError("none is registered")
            cls = _load(path)
        except BotError as exc:
            if fallback:
                return RandomBot()
            raise BotError(f"there is no rule bot for {name} ({exc}); use the random bot") from None
    else:
        raise BotError(f"unknown bot kind {kind!r} (known: {', '.join(KINDS)}, or module:Class)")
    # a Bot subclass, or any class with the same ``choose`` method (duck typing)
    if not (isinstance(cls, type) and callable(getattr(cls, "choose", None))):
        raise BotError(f"{k!r} is not a bot class (it needs a choose(view, legal, rng) method)")
    if inspect.isabstract(cls):  # Bot itself, or a subclass that leaves decide() undefined
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise BotError(f"{k!r} is an abstract bot class (it does not define {missing})")
    # made without arguments, or a BotError (not inspect.signature, which for
    # a compiled class parses its text signature into a new class each call:
    # the room makes a bot for every decision, and that garbage grew its memory)
    try:
        bot: Bot = cls()
    except TypeError as exc:
        if exc.__traceback__ is not None and exc.__traceback__.tb_next is not None:
            raise  # raised inside the constructor: the bot's own error, with its traceback
        raise BotError(f"{k!r} cannot be made without arguments ({exc})") from None
    return bot
