"""What a game is, in one value: :class:`GameSpec`.

Every game package exposes one ``SPEC`` (``trumps.five_hundred.spec:SPEC``)
and :mod:`trumps.core.registry` collects them (the built-in games directly,
any other through the entry-point group ``trumps.games``).  The room, the
CLI, the bots, the solver, the arena, the environments and the translations
ask a spec what they need instead of comparing a game's name, so a new game
is one package and one entry-point line.

A spec must be cheap to import: the fields that name code are ``"module:attr"``
(or ``"module"``) references resolved on first use (:meth:`GameSpec.load`).  That also keeps
the layering: a game package names its rule bot (``trumps.bots.*``) or its
CLI calculator (``trumps.cli.games.*``) without importing either.

A game-neutral fact a consumer needs (a dummy is shown, a kitty is dealt, the
double-dummy search can use DDS) is a field named by what it means, never by
which game has it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any

from trumps.core.errors import OptionError

if TYPE_CHECKING:
    from trumps.core.options import OptionSchema
    from trumps.core.protocol import Deal, Match

__all__ = ["GameSpec", "SpecError", "resolve_ref"]


class SpecError(OptionError):
    """A spec names code that is not there (``"module:attr"`` that does not
    import), or a spec is malformed.  An :class:`OptionError`, because asking
    for a game that cannot be built is a bad choice of game."""


# match reference -> (its module as imported, the class): GameSpec.match_class
_MATCH_CLASSES: dict[str, tuple[ModuleType, Any]] = {}


def resolve_ref(ref: str) -> Any:
    """The object a ``"package.module:attr"`` reference names (``attr`` may be
    dotted: ``"module:Class.method"``), or the module ``"package.module"``
    itself.  Raises :class:`SpecError` when the module is absent or has no
    such attribute; an import error *inside* the module propagates, so a
    broken module is not mistaken for a missing one."""
    module_name, sep, attr = ref.partition(":")
    if not module_name or (sep and not attr) or " " in ref:
        raise SpecError(f"a reference is 'package.module' or 'package.module:attr', not {ref!r}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise SpecError(f"no module {module_name!r} (for {ref!r})") from None
        raise
    for part in attr.split(".") if attr else ():
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SpecError(f"module {module_name!r} has no {attr!r}") from None
    return obj


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """One game as the rest of trumps sees it.

    Required: ``name`` (the registry key, written in records and the room's
    addresses), ``match`` (the :class:`~trumps.core.protocol.Match` subclass
    as ``"module:Class"``), ``title`` (the game as players name it: "Bridge")
    and ``noun`` (inside a sentence: "a bridge table").  Everything else has a
    default that a simple trick game needs; a ``None`` reference means the
    game does not have that part (no rule bot: the easy level falls back to
    the random bot where a caller allows it; no solver adapter: the solver
    and the PIMC levels refuse the game with a typed error).
    """

    name: str
    match: str
    title: str
    noun: str
    aliases: tuple[str, ...] = ()

    # ----- the engine's parts (references into the game package) -------------
    #: ``deck(options) -> list[Card]``: every card the game deals under ``options``.
    deck: str | None = None
    #: ``parse(text) -> call``: an auction call from its notation, outside a match.
    notation: str | None = None
    #: ``view(match, seat) -> dict``: the one view function (also ``Match.view``).
    view: str | None = None
    #: ``presentation(options) -> dict``: how a card table draws the game.
    presentation: str | None = None

    # ----- the layers above (references resolved lazily; never imported here) -
    #: ``read(match, deal) -> Position``: the solver's reading of a trick-play position.
    solver: str | None = None
    #: ``values(match) -> Values``: double-dummy values through DDS (endplay),
    #: used instead of the project's solver when endplay is installed.
    dds_solver: str | None = None
    #: the PIMC sampler's inferences (a ``trumps.bots.inference.Inference``;
    #: none: sampled as a plain trick game).
    sampling: str | None = None
    #: the rule-based bot class (the ``easy`` level).
    rule_bot: str | None = None
    #: a bidding system's bot class that bids for every bot level (bridge's SAYC),
    #: and ``explain(view, legal) -> (call, rule)``, the rule it bid by.
    system_bidder: str | None = None
    system_explainer: str | None = None
    #: the module of the game's CLI sub-commands (``score_command``, ``dd_command``).
    cli: str | None = None
    #: the module with ``records_from_game`` and ``write_pbn`` (PBN export), if any.
    pbn: str | None = None
    #: ``gains(results) -> {measure: float}``: the arena's comparison of one deal
    #: played at two tables with the seats swapped (default: the difference in
    #: ``points`` of the two teams, averaged over the two tables).
    arena_gains: str | None = None
    #: ``match_options(options) -> options``: the options a whole match in the
    #: arena is played with (bridge: a rubber unless Chicago); may raise
    #: :class:`OptionError` for a format that is not a match.
    match_options: str | None = None
    #: ``match_format(resolved options) -> str``: the match's end in words
    #: ("to 1000 points"); default "one game".
    match_format: str | None = None
    #: ``one_deal(options, k, scoring) -> options``: the options of a game that is
    #: deal ``k`` of a duplicate tournament alone (``trumps.tournaments``; bridge:
    #: board ``k + 1``); it refuses, with an :class:`OptionError`, options it sets
    #: itself.  Default: the game's ``max_deals`` option set to 1.
    tournament_deal: str | None = None
    #: ``rl_actions(options, deck) -> (calls, extras)``: the RL action space's
    #: actions beyond the bidding box and the cards (a breach call, a joker
    #: with its suit, a card with an announcement, meld declarations).
    rl_actions: str | None = None

    # ----- game-neutral facts ------------------------------------------------------
    #: ``new_game``'s ``deal`` may be one string in the game's own notation (bridge: PBN).
    deal_notation: bool = False
    #: outside engines whose bots play this game (``colver``: ``colver:<agent>`` bots).
    outside_engines: tuple[str, ...] = ()
    #: seats the game can have (the largest is the RL encodings' player count).
    seat_counts: tuple[int, ...] = (4,)
    #: the view names the suit led to the current trick (``"led"``).
    view_names_led_suit: bool = True
    #: a deal may be played for every trick at a fixed value (the solver's
    #: capot objective, ``options.capot_points``).
    capot_objective: bool = False
    #: how the bot levels bid by simulating deals (a ``trumps.bots.bidsim.BidStrategy``);
    #: ``bid_budget`` names the level budget's field of deals per bid, and
    #: ``suggest_ranked_bid`` makes a suggestion in the auction the
    #: simulation's first-ranked call (else the level's own choice).
    bid_simulation: str | None = None
    bid_budget: str = "bid_samples"
    suggest_ranked_bid: bool = False
    #: what a card-play value counts ("tricks", "points").
    solver_unit: str = "tricks"
    #: the arena's measures, in the order ``arena_gains`` returns them.
    arena_measures: tuple[str, ...] = ("points",)
    #: contracts and option sets that start play-phase deals for the solver's
    #: property tests and benchmarks (``trumps.solver.randpos``).
    sample_contracts: tuple[str, ...] = ()
    sample_options: tuple[Mapping[str, object], ...] = ({},)
    #: ``par(match) -> {"scores": [per team], "contracts": [str]} | None``: the
    #: double-dummy par of the match's first deal (a tournament's sheet shows it;
    #: the hook answers None for a deal it gives none); None: the game has no par.
    deal_par: str | None = None
    #: how a duplicate tournament may compare a deal's results (``"matchpoints"``,
    #: ``"imps"``); empty: the game has no tournaments.
    tournament_scorings: tuple[str, ...] = ()
    #: the daily tournament: its preset and number of deals (None: no daily one).
    daily_tournament: tuple[str | None, int] | None = None
    #: the longest game in actions (OpenSpiel's ``max_game_length``).
    max_game_length: int = 1000
    #: reward name -> the largest magnitude of that reward (OpenSpiel's utility bounds).
    reward_scales: Mapping[str, float] = field(default_factory=lambda: _frozen({"score": 1000.0}))

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise SpecError(f"a game's name is lower case without spaces, not {self.name!r}")
        if not self.seat_counts:
            raise SpecError(f"{self.name}: seat_counts is empty")
        object.__setattr__(self, "reward_scales", _frozen(self.reward_scales))

    def __repr__(self) -> str:
        return f"<GameSpec {self.name!r} ({self.title}) match={self.match!r}>"

    # ----- resolution ---------------------------------------------------------------
    def load(self, part: str) -> Any:
        """The object a reference field names (``spec.load("rule_bot")``).
        Raises :class:`SpecError` when the game has no such part."""
        ref = getattr(self, part, None)
        if not isinstance(ref, str):
            raise SpecError(f"{self.name} has no {part}")
        return resolve_ref(ref)

    def has(self, part: str) -> bool:
        """Whether the reference field ``part`` is set (it is not imported)."""
        return isinstance(getattr(self, part, None), str)

    def match_class(self) -> type[Match[Deal]]:
        """The game's :class:`Match` subclass.  Remembered per reference while
        its module stays the one imported: every new game asks, and an import
        and attribute walk cost a fifth of starting a bridge deal."""
        module_name = self.match.partition(":")[0]
        hit = _MATCH_CLASSES.get(self.match)
        if hit is not None and sys.modules.get(module_name) is hit[0]:
            known: type[Match[Deal]] = hit[1]
            return known
        cls: type[Match[Deal]] = self.load("match")
        _MATCH_CLASSES[self.match] = (sys.modules[module_name], cls)
        return cls

    @property
    def schema(self) -> OptionSchema:
        """The option schema (every option, its presets, its checks)."""
        return self.match_class().schema

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(self.schema.presets)

    @property
    def double_dummy_via_dds(self) -> bool:
        """Whether the game's double dummy may go through DDS (it names a ``dds_solver``)."""
        return self.has("dds_solver")

    @property
    def max_players(self) -> int:
        return max(self.seat_counts)

    def new(self, **kwargs: Any) -> Match[Deal]:
        """A new match: the keywords of :func:`trumps.new_game` (``preset``, ``options``...)."""
        from trumps.core.registry import new_game

        return new_game(self.name, **kwargs)

    def hook(self, part: str, default: Callable[..., Any] | None = None) -> Callable[..., Any] | None:
        """The callable a reference field names, or ``default`` when unset."""
        return self.load(part) if self.has(part) else default
