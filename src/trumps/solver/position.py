"""A game-neutral snapshot of a deal in trick play, read from the engine.

Both search engines (the pure-Python reference and the C module) start from
a :class:`Position`: the hands still held, the cards of the current trick,
who plays next, which seats are on the declaring side, and the engine's own
per-game rule object (500 and coinche ``TrickRules``, bridge's trump suit).
Reading everything here, once, keeps the searches free of engine state
machines and keeps the rules in one place: the engine's ``play.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trumps.core.cards import Card
from trumps.core.errors import TrumpsError

__all__ = [
    "DUTIES",
    "JOKERS",
    "PLAIN",
    "Position",
    "SearchLimit",
    "SolverError",
    "check_limit",
    "position_of",
    "read_bridge",
    "read_coinche",
    "read_five_hundred",
]


#: The rule families both searches know, named by what they model (a game's
#: solver reader picks one; a new game with the same trick rules reuses it):
#: PLAIN: follow suit, the highest trump or card of the suit led wins, a trick
#: counts one (bridge); JOKERS: effective suits and powers from the rules
#: (bowers; jokers, led with a named suit in no trumps), partners may sit out
#: (500); DUTIES: the duty to trump and overtrump with partner exemptions, card
#: points and the last trick's bonus (coinche).
PLAIN, JOKERS, DUTIES = "plain", "jokers", "duties"


class SolverError(TrumpsError):
    """The solver was given something it cannot solve (not in trick play,
    no declaring side, an unknown engine)."""


class SearchLimit(SolverError):
    """A search reached the node ``limit`` it was given before it finished
    (``solve(match, limit=...)``): no value is known.  A bot under a budget
    then plays by its rules instead of waiting on one rare, long deal."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the search reached its limit of {limit:,} nodes before it finished")
        self.limit = limit


def check_limit(limit: int | None) -> int | None:
    """A search's node limit as given (``None``: no limit), or a
    :class:`SolverError` if it is not a positive integer."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise SolverError(f"a node limit is a positive integer, not {limit!r}")
    return limit


@dataclass
class Position:
    """One deal in trick play, as the solvers see it.

    ``hands`` is indexed by seat (a seat that sits out holds ``[]``);
    ``nxt[seat]`` is the next seat to play among the active ones; ``trick``
    and ``trick_seats`` are the current trick in play order; ``led`` is the
    led (or, after a 500 joker lead, nominated) suit, -1 before a lead.
    ``won`` is what the declaring side has already won (tricks or points),
    ``tricks_left`` counts the current trick too.  ``stop_at``: the 500
    misère deal ends as soon as the declaring side has this many tricks.

    ``lost_trick`` says the declaring side has already lost a trick of this
    deal (no capot any more); ``belote`` is the declaring side's belote
    bonus in coinche (20 per belote pair it holds or has scored: card play
    does not change it); ``capot``, when set, is the capot objective: a deal
    in which the declaring side wins every trick is worth this total
    (``capot_points``) instead of its card points."""

    game: str
    family: str  # PLAIN, JOKERS or DUTIES: which rules the searches apply
    rules: Any  # JOKERS / DUTIES: the engine's TrickRules; PLAIN: the trump suit number (-1 NT)
    options: Any
    n_seats: int
    active: list[int]
    nxt: list[int]
    declaring: list[bool]
    minimise: bool
    unit: str
    hands: list[list[Card]]
    trick: list[Card]
    trick_seats: list[int]
    led: int
    joker_led: bool
    to_play: int
    won: int
    tricks_left: int
    stop_at: int | None = None
    shown_void: list[set[int]] = field(default_factory=list)
    restrict_joker_lead: bool = False
    lost_trick: bool = False
    belote: int = 0
    capot: int | None = None

    def copy(self) -> Position:
        out = Position(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        out.hands = [list(h) for h in self.hands]
        out.trick = list(self.trick)
        out.trick_seats = list(self.trick_seats)
        out.shown_void = [set(s) for s in self.shown_void]
        return out


def _reader(match: object) -> Any:
    """The game's solver adapter (its spec's ``solver``: ``read(match, deal) -> Position``)."""
    from trumps.core.registry import spec

    try:
        game = spec(str(getattr(match, "game", "")))
    except TrumpsError:
        raise SolverError(f"the solver does not know the game of {type(match).__name__}") from None
    if not game.has("solver"):
        raise SolverError(f"the solver cannot read a {game.title} deal (its spec names no solver adapter)")
    return game.load("solver")


def position_of(match: Any) -> Position:
    """Read the current trick-play position of an engine ``Match``."""
    if isinstance(match, Position):
        return match.copy()
    read = _reader(match)
    deal = getattr(match, "deal", None)
    if deal is None or match.is_over or deal.phase != "PLAY":
        phase = "over" if deal is None or match.is_over else deal.phase
        raise SolverError(f"the solver needs a deal in trick play, not in phase {phase}")
    position: Position = read(match, deal)
    return position


def read_five_hundred(match: Any, d: Any) -> Position:
    """A 500 deal in trick play (jokers, misère, a partner sitting out)."""
    c = d.contract
    if c is None or d.contractor is None or d.bidding_team is None:
        raise SolverError("this 500 deal has no contract (no declaring side to solve for)")
    n = d.n
    declaring = [d.team[s] == d.bidding_team for s in range(n)]
    won = sum(d.won[s] for s in range(n) if declaring[s])
    stop_at = None
    if c.is_misere and d.o.end_hand_when_decided:
        stop_at = 3 if d.breach_seat is not None else 1
    active = list(d.active)
    hands = [list(d.hands[s]) if s in active else [] for s in range(n)]
    return Position(
        game=match.game,
        family=JOKERS,
        rules=d.rules,
        options=d.o,
        n_seats=n,
        active=active,
        nxt=list(d.next_of),
        declaring=declaring,
        minimise=bool(c.is_misere),
        unit="tricks",
        hands=hands,
        trick=list(d.trick),
        trick_seats=list(d.trick_seats),
        led=d.led if d.trick else -1,
        joker_led=bool(d.joker_led) if d.trick else False,
        to_play=d.hand_to_play,
        won=won,
        tricks_left=10 - len(d.tricks),
        stop_at=stop_at,
        shown_void=[set(s) for s in d.shown_void],
        restrict_joker_lead=bool(d.o.joker_lead_suit_restriction) and d.rules.trump is None,
        lost_trick=won < len(d.tricks),
    )


def read_bridge(match: Any, d: Any) -> Position:
    """A bridge deal in trick play (the dummy played by declarer)."""
    if d.declarer is None:
        raise SolverError("this bridge deal has no contract")
    side = d.declarer & 1
    declaring = [s & 1 == side for s in range(4)]
    return Position(
        game=match.game,
        family=PLAIN,
        rules=d.trump,
        options=match.options,
        n_seats=4,
        active=[0, 1, 2, 3],
        nxt=[1, 2, 3, 0],
        declaring=declaring,
        minimise=False,
        unit="tricks",
        hands=[list(h) for h in d.hands],
        trick=list(d.trick),
        trick_seats=list(d.trick_seats),
        led=d.led if d.trick else -1,
        joker_led=False,
        to_play=d.hand_to_play,
        won=d.side_won[side],
        tricks_left=13 - len(d.tricks),
        shown_void=[set() for _ in range(4)],
        lost_trick=d.side_won[side] < len(d.tricks),
    )


def read_coinche(match: Any, d: Any) -> Position:
    """A coinche deal in trick play (card points, belote, the capot objective)."""
    if d.taker is None or d.rules is None:
        raise SolverError("this coinche deal has no contract")
    side = d.taker % 2
    declaring = [s % 2 == side for s in range(4)]
    return Position(
        game=match.game,
        family=DUTIES,
        rules=d.rules,
        options=d.o,
        n_seats=4,
        active=[0, 1, 2, 3],
        nxt=list(d.next_of),
        declaring=declaring,
        minimise=False,
        unit="points",
        hands=[list(h) for h in d.hands],
        trick=list(d.trick),
        trick_seats=list(d.trick_seats),
        led=d.trick[0].index // 16 if d.trick else -1,
        joker_led=False,
        to_play=d.hand_to_play,
        won=d.card_points[side],
        tricks_left=8 - len(d.tricks),
        shown_void=[set() for _ in range(4)],
        lost_trick=any(t.winner % 2 != side for t in d.tricks),
        belote=_coinche_belote(d, side),
    )


def _coinche_belote(d: Any, side: int) -> int:
    """The belote points of a side: 20 per pair it scored or, when the
    announcement is required, still may announce (no card of it played)."""
    total = 0
    for key, played in d.belote_pairs.items():
        if key[0] % 2 != side:
            continue
        if not d.o.belote_requires_announcement or key in d.belote_scored or played == 0:
            total += 20
    return total
