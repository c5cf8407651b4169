"""Double-dummy values of a position, from whichever solver is installed.

The bots need one thing from a solver: for a full deal in trick play, the
final total of the declaring side after each legal card with best play from
there on (tricks in 500 and bridge, card points in coinche).  In order of
preference that comes from

1. :func:`trumps.solver.solve` (the project's solver: C when built, else its
   pure-Python reference) for 500 and coinche;
2. DDS through ``endplay`` for bridge (fast, C);
3. a small private alpha-beta over the engine itself (clone, apply, read
   the result), good for endings only: it refuses positions with more than
   :data:`FALLBACK_CARDS` cards left.

:func:`exact_limit` says how many cards a position may still hold for the
installed solver to answer within a bot's time budget; the PIMC bot plays
its rule-based fallback above that.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import trumps
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Deal, Match
from trumps.core.registry import specs
from trumps.core.trick import TrickPlay

__all__ = [
    "FALLBACK_CARDS",
    "SolveError",
    "Values",
    "bridge_dds",
    "exact_limit",
    "solve_value",
    "solve_values",
    "solver_name",
]

#: The private fallback solves positions with at most this many cards left.
FALLBACK_CARDS = 12


class SolveError(TrumpsError):
    """The position cannot be solved here (too big for the fallback)."""


@dataclass(frozen=True)
class Values:
    """Per legal action: the declaring side's final total with best play."""

    values: dict[str, float]
    maximising: bool
    unit: str
    #: search nodes spent (0 when the solver does not say): the bots'
    #: deterministic measure of work, unlike wall-clock time
    nodes: int = 0


def _project_solver() -> ModuleType | None:
    try:
        import trumps.solver as solver
    except ImportError:
        return None
    return solver if callable(getattr(solver, "solve", None)) else None


@functools.lru_cache(maxsize=1)
def _endplay_ok() -> bool:
    """Whether DDS is installed; the first call also warms it up (DDS
    allocates its tables on its first solve, which takes a second or two and
    would otherwise eat the time cap of one decision)."""
    from trumps.bridge import dd

    if not dd.available():
        dd.note_own_solver()  # bridge runs on trumps' own solver: said once
        return False
    for spec in specs():
        if spec.double_dummy_via_dds and spec.sample_contracts:
            spec.load("dds_solver")(spec.new(seed=1, contract=spec.sample_contracts[-1], declarer=0))
    return True


@functools.lru_cache(maxsize=4)
def _fast_project_solver() -> bool:
    """Whether the project solver's C engine is built."""
    solver = _project_solver()
    if solver is None:
        return False
    try:  # a deal of the first game the solver reads
        spec = next(s for s in specs() if s.has("solver") and s.sample_contracts)
        solver.solve(spec.new(seed=1, contract=spec.sample_contracts[0], declarer=0), engine="c")
    except Exception:
        return False
    return bool(getattr(solver, "c_available", lambda: True)())


def solver_name(game: str) -> str:
    """Which solver answers for ``game``: ``"dds"``, ``"c"``, ``"reference"``
    or ``"fallback"``."""
    if trumps.game_spec(game).double_dummy_via_dds and _endplay_ok():
        return "dds"
    if _project_solver() is not None:
        return "c" if _fast_project_solver() else "reference"
    return "fallback"


def exact_limit(game: str) -> int:
    """The largest number of cards left (in hands) that the installed
    solver handles within a bot's budget for many samples."""
    name = solver_name(game)
    if name in ("dds", "c"):
        return 1000
    if name == "reference":
        return 20
    return FALLBACK_CARDS


def cards_left(match: Match[Deal]) -> int:
    """Cards still held by the seats that play (a 500 misère partner sits out)."""
    deal = getattr(match, "deal", None)
    if not isinstance(deal, TrickPlay):  # only trick-taking deals hold cards
        return 0
    active: Sequence[int] = getattr(deal, "active", range(len(deal.hands)))
    return sum(len(deal.hands[s]) for s in active)


def solve_values(match: Match[Deal], limit: int | None = None) -> Values:
    """Double-dummy values of every legal action of the seat to play.
    ``limit`` bounds the project solver's search to that many nodes (past
    it: :class:`trumps.solver.SearchLimit`, a ``TrumpsError``); DDS and the
    small fallback are bounded by themselves."""
    game = match.game
    name = solver_name(game)
    if name == "dds":
        by_dds: Values = trumps.game_spec(game).load("dds_solver")(match)
        return by_dds
    solver = _project_solver() if name in ("c", "reference") else None
    if solver is not None:
        sol = solver.solve(match, limit=limit)
        values = {str(k): float(v) for k, v in sol.values.items()}
        return Values(values, bool(sol.maximising), str(sol.unit), int(getattr(sol, "nodes", 0)))
    return _fallback(match)


def solve_value(match: Match[Deal], limit: int | None = None) -> float:
    """The position's double-dummy result alone: the best of
    :func:`solve_values` for the seat to play, by one search where the
    project's solver answers (about half the work of every card's value);
    what a bidding simulation needs from each sampled deal.  ``limit`` as
    in :func:`solve_values`."""
    solver = _project_solver() if solver_name(match.game) in ("c", "reference") else None
    if solver is not None:
        return float(solver.value(match, limit=limit))
    vals = solve_values(match)
    pick = max if vals.maximising else min
    return float(pick(vals.values.values()))


# ----- bridge: DDS through endplay -------------------------------------------
def bridge_dds(match: Match[Deal]) -> Values:
    """A bridge position's card values from DDS (bridge's spec names it as its ``dds_solver``)."""
    from trumps.bridge.dd import _DENOM_OF_STRAIN, _card_text, _endplay, solve_board
    from trumps.bridge.deal import BridgeDeal
    from trumps.bridge.hands import format_deal

    _, types = _endplay()
    d = match.deal
    if not isinstance(d, BridgeDeal):
        raise SolveError(f"DDS solves bridge, not {match.game}")
    if d.contract is None or d.declarer is None or d.hand_to_play is None:
        raise SolveError("no card play to solve in this position")
    hands = [list(h) for h in d.hands]
    for seat, card in zip(d.trick_seats, d.trick, strict=True):
        hands[seat].append(card)
    leader = d.trick_seats[0] if d.trick else d.hand_to_play
    ep = types.Deal(format_deal(hands))
    ep.first = types.Player(leader)
    ep.trump = types.Denom(_DENOM_OF_STRAIN[d.contract.strain])
    for card in d.trick:
        ep.play(types.Card(str(card)[-1] + str(card)[:-1]))
    side = d.declarer & 1
    remaining = 13 - len(d.tricks)
    won = int(d.side_won[side])
    to_play = int(d.hand_to_play)
    ours = (to_play & 1) == side
    solved = {_card_text(c): int(t) for c, t in solve_board(ep)}
    legal = [str(a) for a in match.legal_actions()]
    values: dict[str, float] = {}
    for text in legal:
        t = solved.get(text)
        if t is None:  # DDS lists one card of a run of equals
            t = _equal_value(text, solved, legal)
        values[text] = float(won + (t if ours else remaining - t))
    return Values(values, ours, "tricks")


def _equal_value(card: str, solved: dict[str, int], legal: list[str]) -> int:
    """Value of a card DDS left out as equal to a solved card of its suit:
    the nearest solved card of the same suit."""
    order = "23456789TJQKA"
    suit = card[-1]
    same = [c for c in solved if c[-1] == suit]
    if not same:
        return max(solved.values())
    near = min(same, key=lambda c: abs(order.index(c[0]) - order.index(card[0])))
    return solved[near]


# ----- the private fallback: alpha-beta over the engine ------------------------
def _declaring_total(match: Match[Deal], team: int) -> float:
    """The declaring side's total of the finished deal in the solver's unit:
    its card points, or its tricks (per team, or the declarer's alone)."""
    r = match.results[-1]
    if trumps.game_spec(match.game).solver_unit == "points":
        return float(r["card_points"][team])
    tricks = r["tricks"]
    return float(tricks[team]) if isinstance(tricks, list) else float(tricks)


def _fallback(match: Match[Deal]) -> Values:
    if cards_left(match) > FALLBACK_CARDS:
        raise SolveError(f"the fallback solver takes at most {FALLBACK_CARDS} cards")
    team = _declaring_team(match)
    teams = _team_of(match)
    # a misère contract (500) wants as few tricks as it can
    misere = bool(getattr(getattr(match.deal, "contract", None), "is_misere", False))
    unit = trumps.game_spec(match.game).solver_unit
    n_results = len(match.results)

    def wants_max(m: Match[Deal]) -> bool:
        assert m.to_act_index is not None
        return (teams[m.to_act_index] == team) != misere

    def value(m: Match[Deal], alpha: float, beta: float) -> float:
        if len(m.results) > n_results or m.to_act_index is None:
            return _declaring_total(m, team)
        maxi = wants_max(m)
        best = -math.inf if maxi else math.inf
        for action in m.legal_actions():
            child = m.clone()
            child.apply(action)
            v = value(child, alpha, beta)
            if maxi:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    out: dict[str, float] = {}
    for action in match.legal_actions():
        child = match.clone()
        child.apply(action)
        out[str(action)] = value(child, -math.inf, math.inf)
    return Values(out, wants_max(match), unit)


def _team_of(match: Match[Deal]) -> list[int]:
    out = [0] * match.players
    for t, members in enumerate(match.teams):
        for s in members:
            out[s] = t
    return out


def _declaring_team(match: Match[Deal]) -> int:
    for attr in ("declarer", "taker", "contractor"):
        seat = getattr(match.deal, attr, None)
        if seat is not None:
            return _team_of(match)[int(seat)]
    raise SolveError("no declaring side in this position")
