"""What a duplicate tournament against the bots plays: a :class:`TournamentPlan`.

Every entrant sits South and plays the same deals, with the room's bots at
the other seats, and is compared with everyone else who played them (the
robot duplicate of Funbridge and Bridge Base Online, here for 500 and
coinche too).  So a plan is a value: the game, its options, how many deals,
the seed they are dealt from, the scoring and the bots' level; the deal
``k`` is a pure function of it (:meth:`TournamentPlan.new_deal`), the same
in every process, on every worker, in every version that keeps the seeds'
deals.  It round-trips through JSON text (:meth:`~TournamentPlan.parse`),
which is how the room stores it.

Each deal is a game of its own that ends with its first result:

* as the game's spec says (``tournament_deal``): bridge plays one duplicate
  board, numbered ``k + 1`` (its number sets the dealer and the
  vulnerability, as on a real traveller);
* otherwise a game of one deal (its ``max_deals`` option set to 1), dealt
  from the deal's seed (which also chooses the dealer).

Which games have tournaments, how they may be scored and what their daily
tournament plays are the games' own facts (``GameSpec.tournament_scorings``,
``daily_tournament``): nothing here names a game.

The entrant's score on a deal is the points of South's side on it
(:meth:`TournamentPlan.side_score`); :mod:`trumps.tournaments.ranking` turns
the field's scores into matchpoints or IMPs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import trumps
from trumps.core.errors import OptionError
from trumps.core.protocol import Deal, Match

__all__ = [
    "BOT_LEVELS",
    "MAX_DEALS",
    "PLAYER_SEAT",
    "TournamentError",
    "TournamentPlan",
    "scorings",
]

#: the seat every entrant plays from (South: the third seat of N E S W)
PLAYER_SEAT = 2
#: the bots a plan may seat; the room offers ``normal`` and ``strong``
BOT_LEVELS = ("random", "easy", "normal", "strong")
MAX_DEALS = 32


class TournamentError(OptionError):
    """A tournament plan that cannot be played: an unknown game, a scoring
    the game has no use for, a deal out of range, a malformed record."""


def _frozen(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


def scorings(game: str) -> tuple[str, ...]:
    """How ``game``'s tournaments may compare a deal (its spec says; empty: none)."""
    return trumps.game_spec(game).tournament_scorings


def _one_deal(options: Mapping[str, Any], k: int, scoring: str) -> dict[str, Any]:
    """The default deal of a tournament: a game of one deal (``max_deals`` 1)."""
    if "max_deals" in options:
        raise TournamentError("each deal of a tournament is a game of its own: no max_deals option")
    return {**options, "max_deals": 1}


@dataclass(frozen=True)
class TournamentPlan:
    """The deals, bots and scoring of one tournament (see the module)."""

    game: str
    deals: int
    seed: int
    preset: str | None = None
    #: option values on top of the preset, as sorted (name, value) pairs
    options: tuple[tuple[str, Any], ...] = field(default=())
    scoring: str = "matchpoints"
    bots: str = "normal"

    def __post_init__(self) -> None:
        name = trumps.game_spec(str(self.game)).name  # an unknown game: OptionError
        object.__setattr__(self, "game", name)
        if not isinstance(self.options, tuple):
            raise TournamentError("a plan's options are (name, value) pairs: use TournamentPlan.make")
        allowed = scorings(name)
        if not allowed:
            raise TournamentError(f"no duplicate tournaments of {name}")
        if (
            isinstance(self.deals, bool)
            or not isinstance(self.deals, int)
            or not 1 <= self.deals <= MAX_DEALS
        ):
            raise TournamentError(f"a tournament has 1 to {MAX_DEALS} deals, not {self.deals!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise TournamentError(f"a tournament's seed is a whole number ≥ 0, not {self.seed!r}")
        if self.scoring not in allowed:
            raise TournamentError(
                f"{name} tournaments are scored by {' or '.join(allowed)}, not {self.scoring!r}"
            )
        if self.bots not in BOT_LEVELS:
            raise TournamentError(f"bots play at {', '.join(BOT_LEVELS)}, not {self.bots!r}")
        self.new_deal(0)  # the options and preset resolve (an OptionError otherwise)

    @classmethod
    def make(
        cls,
        game: str,
        deals: int,
        seed: int,
        *,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        scoring: str = "matchpoints",
        bots: str = "normal",
    ) -> TournamentPlan:
        """A plan from options given as a mapping."""
        return cls(game, deals, seed, preset, _frozen(options or {}), scoring, bots)

    # ----- the deals ----------------------------------------------------------
    def deal_seed(self, k: int) -> int:
        """The seed of deal ``k``: derived from the plan's, so two plans with
        another seed share no deal."""
        digest = hashlib.sha256(f"trumps.tournament/{self.seed}/{k}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def new_deal(self, k: int) -> Match[Deal]:
        """Deal ``k`` (0-based) as a new game, before its first action."""
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < self.deals:
            raise TournamentError(
                f"deal {k!r} is not one of this tournament's {self.deals} (0 to {self.deals - 1})"
            )
        one_deal = trumps.game_spec(self.game).hook("tournament_deal", _one_deal)
        assert one_deal is not None
        options = one_deal(dict(self.options), k, self.scoring)
        return trumps.new_game(self.game, preset=self.preset, options=options, seed=self.deal_seed(k))

    @staticmethod
    def deal_over(match: Match[Deal]) -> bool:
        """Whether the deal has its result (the rest of the game is not played)."""
        return bool(match.results)

    @staticmethod
    def side_score(match: Match[Deal]) -> int:
        """South's side's points on the deal: what the field is compared on."""
        if not match.results:
            raise TournamentError("the deal has no result yet")
        points = match.results[0]["points"]
        return int(points[match.team_of(PLAYER_SEAT)])

    # ----- daily plans ----------------------------------------------------------
    @classmethod
    def daily(cls, game: str, day: date, *, seed: int | None = None, bots: str = "normal") -> TournamentPlan:
        """The daily tournament of ``game`` on ``day`` (UTC): the game's
        daily preset and number of deals.

        Without ``seed`` the seed is derived from the game and the day, so
        anyone can compute its deals: fine for a practice run, never for a
        room, where the cards are hidden from the players; the room passes
        a secret random seed and stores the plan (one per game and day)."""
        spec = trumps.game_spec(str(game))
        if spec.daily_tournament is None:
            raise TournamentError(f"no daily tournament of {spec.name}")
        preset, deals = spec.daily_tournament
        if seed is None:
            digest = hashlib.sha256(f"trumps.daily/{spec.name}/{day.isoformat()}".encode()).digest()
            seed = int.from_bytes(digest[:8], "big") >> 1
        return cls(spec.name, deals, seed, preset, (), "matchpoints", bots)

    # ----- text -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "deals": self.deals,
            "seed": self.seed,
            "preset": self.preset,
            "options": dict(self.options),
            "scoring": self.scoring,
            "bots": self.bots,
        }

    def __str__(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentPlan:
        if not isinstance(data, Mapping):
            raise TournamentError(f"a tournament plan is a JSON object, not {type(data).__name__}")
        unknown = set(data) - {"game", "deals", "seed", "preset", "options", "scoring", "bots"}
        if unknown:
            raise TournamentError(f"unknown tournament plan fields: {', '.join(sorted(unknown))}")
        options = data.get("options")
        options = {} if options is None else options
        if not isinstance(options, Mapping):
            raise TournamentError("a tournament plan's options are a JSON object")
        preset = data.get("preset")
        if preset is not None and not isinstance(preset, str):
            raise TournamentError("a tournament plan's preset is a name or null")
        try:
            return cls(
                str(data["game"]),
                data["deals"],
                data["seed"],
                preset,
                _frozen(options),
                str(data.get("scoring", "matchpoints")),
                str(data.get("bots", "normal")),
            )
        except KeyError as exc:
            raise TournamentError(f"a tournament plan needs its {exc.args[0]}") from None

    @classmethod
    def parse(cls, text: str) -> TournamentPlan:
        """The plan written by ``str(plan)``."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise TournamentError(f"not a tournament plan: {exc}") from None
        return cls.from_json(data)
