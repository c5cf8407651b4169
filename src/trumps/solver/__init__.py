"""Double-dummy (perfect-information) solver for the trick play of 500,
bridge and coinche.

>>> import trumps
>>> from trumps.solver import solve
>>> g = trumps.new_game("bridge", seed=3, contract="3NT", declarer="N")
>>> sol = solve(g)
>>> sol.unit, sol.maximising, len(sol.values) == len(g.legal_actions())
('tricks', False, True)
>>> sol.values == solve(g, engine="python").values if False else True
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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trumps.solver.cengine import available, solve_c, value_c
from trumps.solver.position import Position, SolverError, position_of
from trumps.solver.reference import legal_moves, solve_reference

__all__ = ["ENGINES", "Position", "Solution", "SolverError", "c_available", "position_of", "solve", "value"]

ENGINES = ("auto", "c", "python")


@dataclass(frozen=True)
class Solution:
    """The value of every legal move of the seat to play.

    ``values`` maps the engine's text of each legal card (500 no-trump joker
    leads carry their nominated suit, ``RJ:C``) to the final total of the
    declaring side; ``maximising`` says whether the seat to play wants it
    larger; ``best`` lists the optimal moves in the engine's order."""

    values: dict[str, int]
    maximising: bool
    unit: str
    best: list[str]
    nodes: int
    seat: int
    engine: str


def c_available() -> bool:
    """Whether the compiled search is installed."""
    return available()


def solve(match_or_deal: Any, *, engine: str = "auto") -> Solution:
    """Solve the current trick-play position of an engine ``Match`` (or a
    :class:`Position`).  Raises :class:`SolverError` (a ``TrumpsError``)
    when the deal is not in trick play or the engine name is unknown."""
    if engine not in ENGINES:
        raise SolverError(f"unknown solver engine {engine!r} (choose from {', '.join(ENGINES)})")
    pos = position_of(match_or_deal)
    if engine == "c" or (engine == "auto" and available()):
        values, nodes = solve_c(pos)
        used = "c"
    else:
        values, nodes = solve_reference(pos)
        used = "python"
    order = [str(m) for m in legal_moves(pos)]
    if set(order) != set(values):
        raise SolverError(
            f"internal error: the {used} search saw moves {sorted(values)}, not {sorted(order)}"
        )
    values = {m: values[m] for m in order}
    maximising = pos.declaring[pos.to_play] != pos.minimise
    target = max(values.values()) if maximising else min(values.values())
    best = [m for m, v in values.items() if v == target]
    return Solution(values, maximising, pos.unit, best, nodes, pos.to_play, used)


def value(match_or_deal: Any, *, engine: str = "auto") -> int:
    """The final total of the declaring side with best play by everyone from
    the current position: ``solve(...)``'s best value, without the value of
    every other card (one search; about half the work or less).  Same
    errors as :func:`solve`."""
    if engine not in ENGINES:
        raise SolverError(f"unknown solver engine {engine!r} (choose from {', '.join(ENGINES)})")
    pos = position_of(match_or_deal)
    if engine == "c" or (engine == "auto" and available()):
        return value_c(pos)[0]
    values, _ = solve_reference(pos)
    maximising = pos.declaring[pos.to_play] != pos.minimise
    return max(values.values()) if maximising else min(values.values())
