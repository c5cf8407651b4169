"""Double-dummy (perfect-information) solver for the trick play of 500,
bridge and coinche.

>>> import trumps
>>> from trumps.solver import solve
>>> g = trumps.new_game("bridge", seed=3, contract="3NT", declarer="N")
>>> sol = solve(g)
>>> sol.unit, sol.maximising, len(sol.values) == len(g.legal_actions())
('tricks', False, True)
>>> sorted(sol.values) == sorted(str(card) for card in g.legal_actions())
True

``solve(match)`` returns, for each legal card of the seat to play, the final
total of the declaring side over the whole deal with best play by everyone
from here (tricks for 500 and bridge, card points with dix de der for
coinche).  Two engines compute the same numbers: the C module ``_dd``
(built by ``pip install``) and the pure-Python reference, its test oracle.

``value(match)`` is the position's double-dummy result alone (the best of
those totals for the seat to play), found by one search instead of one per
card: what a simulation needs from each sampled deal.

>>> value(g) == (max if sol.maximising else min)(sol.values.values())
True

``can_capot(match)`` says whether the declaring side can still win every
trick of the deal; ``solve(match, objective="capot")`` and
``value(match, objective="capot")`` score coinche outcomes as the game
does: ``capot_points`` instead of the card points when the taker's side
wins all eight tricks, plus its belote (docs/solver.md, "Capot").
"""

from __future__ import annotations

from dataclasses import dataclass

from trumps.coinche.play import DIX_DE_DER
from trumps.solver.cengine import available, solve_c, value_c
from trumps.solver.position import Position, SearchLimit, SolverError, check_limit, position_of
from trumps.solver.reference import legal_moves, solve_reference

__all__ = [
    "ENGINES",
    "OBJECTIVES",
    "Position",
    "SearchLimit",
    "Solution",
    "SolverError",
    "c_available",
    "can_capot",
    "position_of",
    "solve",
    "value",
]

ENGINES = ("auto", "c", "python")
# "total": the declaring side's tricks (card points in coinche), the default;
# "capot": coinche card points with the capot and belote scores.
OBJECTIVES = ("total", "capot")


@dataclass(frozen=True)
class Solution:
    """The value of every legal move of the seat to play.

    ``values`` maps the engine's text of each legal card (500 no-trump joker
    leads carry their nominated suit, ``RJ:C``) to the final total of the
    declaring side; ``maximising`` says whether the seat to play wants it
    larger; ``best`` lists the optimal moves in the engine's order.
    ``objective`` is ``"total"`` or ``"capot"`` (see :func:`solve`)."""

    values: dict[str, int]
    maximising: bool
    unit: str
    best: list[str]
    nodes: int
    seat: int
    engine: str
    objective: str = "total"


def c_available() -> bool:
    """Whether the compiled search is installed."""
    return available()


def _check(engine: str, objective: str) -> None:
    if engine not in ENGINES:
        raise SolverError(f"unknown solver engine {engine!r} (choose from {', '.join(ENGINES)})")
    if objective not in OBJECTIVES:
        raise SolverError(f"unknown solver objective {objective!r} (choose from {', '.join(OBJECTIVES)})")


def _use_c(engine: str) -> bool:
    return engine == "c" or (engine == "auto" and available())


def _best(pos: Position, values: dict[str, int]) -> int:
    maximising = pos.declaring[pos.to_play] != pos.minimise
    return max(values.values()) if maximising else min(values.values())


def _value_of(pos: Position, use_c: bool, limit: int | None = None) -> int:
    """The best final total of a position (without the capot rule)."""
    if use_c:
        return value_c(pos, limit)[0]
    return _best(pos, solve_reference(pos, limit)[0])


def _solve_of(pos: Position, use_c: bool, limit: int | None = None) -> tuple[dict[str, int], int]:
    return solve_c(pos, limit) if use_c else solve_reference(pos, limit)


def _tricks(pos: Position) -> Position:
    """The same position counted in the declaring side's future tricks."""
    if pos.minimise:
        raise SolverError("a misère contract has no capot to play for")
    out = pos.copy()
    out.unit, out.won, out.capot, out.stop_at = "tricks", 0, None, None
    return out


def can_capot(match_or_deal: object, *, engine: str = "auto") -> bool:
    """Whether the declaring side (coinche: the taker's side) can win every
    trick of the deal with best play by everyone from here: ``False`` once
    it has lost a trick.  Any game but a 500 misère; same errors as
    :func:`solve`."""
    _check(engine, "total")
    pos = position_of(match_or_deal)
    tricks = _tricks(pos)
    return not pos.lost_trick and _value_of(tricks, _use_c(engine)) == tricks.tricks_left


def _capot_position(pos: Position) -> Position:
    from trumps.core.registry import spec, specs

    if not spec(pos.game).capot_objective:
        having = ", ".join(s.name for s in specs() if s.capot_objective) or "none"
        raise SolverError(
            f"the capot objective scores the games that have one ({having}), not {pos.game}"
            " (use can_capot for a slam)"
        )
    out = pos.copy()
    out.capot = int(pos.options.capot_points)
    return out


def _decomposes(pos: Position) -> bool:
    """Whether the capot is worth at least every card point the declaring
    side can still reach (always, for the presets' 162, 250 and 252): then
    the capot value is ``capot`` where the capot can be forced and the
    card-points value everywhere else (docs/solver.md, "Capot")."""
    assert pos.capot is not None
    cards = [c for h in pos.hands for c in h] + pos.trick
    left: int = sum(pos.rules.points[c.index] for c in cards) + DIX_DE_DER
    return pos.capot >= pos.won + left


def _capot_solve(pos: Position, use_c: bool, limit: int | None) -> tuple[dict[str, int], int]:
    """Per move: the declaring side's card total under the capot rule (no
    belote): a card-points solve and a trick-count solve, combined."""
    if not _decomposes(pos):
        return solve_reference(pos, limit)  # the direct search (hand-made positions only)
    plain = pos.copy()
    plain.capot = None
    points, nodes = _solve_of(plain, use_c, limit)
    if pos.lost_trick:
        return points, nodes
    tricks = _tricks(pos)
    counts, more = _solve_of(tricks, use_c, limit)
    capot = pos.capot
    assert capot is not None
    return {m: capot if counts[m] == tricks.tricks_left else v for m, v in points.items()}, nodes + more


def _capot_total(pos: Position, use_c: bool, limit: int | None) -> int:
    """The best card total under the capot rule (no belote)."""
    if not _decomposes(pos):
        return _best(pos, solve_reference(pos, limit)[0])
    tricks = _tricks(pos)
    if not pos.lost_trick and _value_of(tricks, use_c, limit) == tricks.tricks_left:
        assert pos.capot is not None
        return pos.capot
    plain = pos.copy()
    plain.capot = None
    return _value_of(plain, use_c, limit)


def solve(
    match_or_deal: object, *, engine: str = "auto", objective: str = "total", limit: int | None = None
) -> Solution:
    """Solve the current trick-play position of an engine ``Match`` (or a
    :class:`Position`).  Raises :class:`SolverError` (a ``TrumpsError``)
    when the deal is not in trick play or the engine name is unknown.

    ``objective="capot"`` (coinche only) values each card at the taker's
    side's final card total scored with the capot rule (``capot_points``
    when it wins all eight tricks) plus its belote; unit ``"points"``.  It
    costs a card-points solve and a trick-count solve (docs/solver.md).

    ``limit`` bounds each search to that many nodes: past it the solve
    raises :class:`SearchLimit` (a ``SolverError``) instead of running on;
    a bot under a time budget gives it, so that one rare deal whose search
    is long cannot hold the solver (and every table waiting on it)."""
    _check(engine, objective)
    check_limit(limit)
    pos = position_of(match_or_deal)
    pos.capot = None
    use_c = _use_c(engine)
    used = "c" if use_c else "python"
    if objective == "capot":
        pos = _capot_position(pos)
        values, nodes = _capot_solve(pos, use_c, limit)
        values = {m: v + pos.belote for m, v in values.items()}
    else:
        values, nodes = _solve_of(pos, use_c, limit)
    order = [str(m) for m in legal_moves(pos)]
    if set(order) != set(values):
        raise SolverError(
            f"internal error: the {used} search saw moves {sorted(values)}, not {sorted(order)}"
        )
    values = {m: values[m] for m in order}
    maximising = pos.declaring[pos.to_play] != pos.minimise
    target = _best(pos, values)
    best = [m for m, v in values.items() if v == target]
    return Solution(values, maximising, pos.unit, best, nodes, pos.to_play, used, objective)


def value(
    match_or_deal: object, *, engine: str = "auto", objective: str = "total", limit: int | None = None
) -> int:
    """The final total of the declaring side with best play by everyone from
    the current position: ``solve(...)``'s best value, without the value of
    every other card (one search; about half the work or less).  Same
    errors, ``objective`` and ``limit`` as :func:`solve`."""
    _check(engine, objective)
    check_limit(limit)
    pos = position_of(match_or_deal)
    pos.capot = None
    if objective == "capot":
        pos = _capot_position(pos)
        return _capot_total(pos, _use_c(engine), limit) + pos.belote
    return _value_of(pos, _use_c(engine), limit)
