"""Comparing duplicate results across tables (docs/rules/bridge.md §7.3, §7.4):
matchpoints with ties and percentages, Neuberg factoring, team IMPs,
cross-IMPs and Butler datum IMPs, and a session summary over many boards.

Scores are North–South scores (EW's are their negatives).

>>> matchpoints([450, 420, 420, 170, -50])
[8, 5, 5, 2, 0]
>>> team_imps(650, 620), cross_imps([420, 420, -50])
(1, [5.0, 5.0, -10.0])
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from trumps.bridge.scoring import IMP_BOUNDS, imps
from trumps.core.errors import TrumpsError
from trumps.core.json_types import JSONDict

__all__ = [
    "BoardResult",
    "PairSummary",
    "butler_imps",
    "cross_imps",
    "ew_matchpoints",
    "matchpoints",
    "neuberg",
    "percentages",
    "session_summary",
    "team_imps",
]


def matchpoints(scores: Sequence[int], scale: str = "2_1") -> list[float]:
    """NS matchpoints of each result on one board: 2 per score beaten and 1
    per tie (``scale="1_half"``: 1 and ½)."""
    if scale not in ("2_1", "1_half"):
        raise TrumpsError(f"matchpoint scale must be 2_1 or 1_half, not {scale!r}")
    out: list[float] = []  # whole numbers on the 2_1 scale
    for i, s in enumerate(scores):
        beaten = sum(1 for j, t in enumerate(scores) if j != i and s > t)
        tied = sum(1 for j, t in enumerate(scores) if j != i and s == t)
        out.append(2 * beaten + tied if scale == "2_1" else beaten + tied / 2)
    return out


def ew_matchpoints(scores: Sequence[int], scale: str = "2_1") -> list[float]:
    """EW matchpoints at each table: top − NS matchpoints."""
    top = (2 if scale == "2_1" else 1) * (len(scores) - 1)
    return [top - m for m in matchpoints(scores, scale)]


def percentages(mps: Sequence[float], top: float) -> list[float]:
    """Matchpoints as a percentage of ``top`` (50 % when there is no top)."""
    return [100.0 * m / top if top else 50.0 for m in mps]


def neuberg(mp: float, results: int, expected: int) -> float:
    """Neuberg factoring on the 2/1 scale: ``(MP + 1) × N / n − 1``."""
    return (mp + 1) * expected / results - 1


def team_imps(ns_score_table1: int, ns_score_table2: int) -> int:
    """IMPs to the team sitting NS at table 1 (and EW at table 2)."""
    return imps(ns_score_table1 - ns_score_table2)


def cross_imps(scores: Sequence[int]) -> list[float]:
    """Each NS result IMPed against every other result, averaged.

    Counted per step of the IMP scale rather than per pair, so that a
    tournament's field of thousands stays cheap: a difference ``d`` is
    worth one IMP for each bound ``b`` of the scale with ``b <= |d|``, so
    the IMPs of ``x`` against the field are, summed over the bounds, the
    results at or below ``x - b`` less those at or above ``x + b`` (two
    bisections each): O(n log n), equal to IMPing every pair
    (``tests/bridge/test_comparisons.py``)."""
    n = len(scores)
    if n < 2:
        return [0.0] * n
    field = sorted(int(s) for s in scores)
    steps = IMP_BOUNDS[1:]
    out = []
    for x in scores:
        total = 0
        for b in steps:
            total += bisect_right(field, x - b) - (n - bisect_left(field, x + b))
        out.append(total / (n - 1))
    return out


def butler_imps(scores: Sequence[int], trim: bool = True) -> list[int]:
    """IMPs against a datum: the mean of the results (without the top and
    bottom one when ``trim`` and there are at least five), rounded to 10."""
    pool = sorted(scores)
    if trim and len(pool) >= 5:
        pool = pool[1:-1]
    if not pool:
        return []
    # to the nearest 10, an exact 5 away from zero (Python's round() would
    # send 425 to 420 but 435 to 440)
    total, n = sum(pool), len(pool)
    tens = (abs(total) * 2 + 10 * n) // (20 * n)  # floor(|mean| / 10 + 1/2), in integers
    datum = (tens if total >= 0 else -tens) * 10
    return [imps(s - datum) for s in scores]


@dataclass(frozen=True)
class BoardResult:
    """One table's result on a board: the pairs and the NS score."""

    board: int
    ns: str
    ew: str
    score: int


@dataclass
class PairSummary:
    """A pair's session: matchpoints, the possible top, percentage, cross-IMPs."""

    pair: str
    boards: int = 0
    matchpoints: float = 0.0
    top: float = 0.0
    cross_imps: float = 0.0
    per_board: dict[int, float] = field(default_factory=dict)

    @property
    def percentage(self) -> float:
        return 100.0 * self.matchpoints / self.top if self.top else 50.0

    def to_dict(self) -> JSONDict:
        return {
            "pair": self.pair,
            "boards": self.boards,
            "matchpoints": round(self.matchpoints, 2),
            "top": self.top,
            "percentage": round(self.percentage, 2),
            "cross_imps": round(self.cross_imps, 2),
        }


def session_summary(results: Iterable[BoardResult], *, factor: bool = True) -> list[PairSummary]:
    """Rank the pairs of a session.  With ``factor``, boards with fewer
    results than the most-played board are Neuberg-factored."""
    by_board: dict[int, list[BoardResult]] = {}
    for r in results:
        by_board.setdefault(r.board, []).append(r)
    expected = max((len(v) for v in by_board.values()), default=0)
    pairs: dict[str, PairSummary] = {}
    for board, rows in sorted(by_board.items()):
        scores = [r.score for r in rows]
        n = len(rows)
        ns_mp = matchpoints(scores)
        xi = cross_imps(scores)
        for r, mp, x in zip(rows, ns_mp, xi, strict=True):
            ew_mp = 2 * (n - 1) - mp
            for pair, got, imp in ((r.ns, mp, x), (r.ew, ew_mp, -x)):
                value = neuberg(got, n, expected) if factor and n != expected else float(got)
                s = pairs.setdefault(pair, PairSummary(pair))
                s.boards += 1
                s.matchpoints += value
                s.top += 2 * (expected - 1) if factor else 2 * (n - 1)
                s.cross_imps += imp
                s.per_board[board] = value
    return sorted(pairs.values(), key=lambda s: (-s.percentage, s.pair))
