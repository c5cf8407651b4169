"""Comparing the field on each deal, and the tournament's ranking.

Duplicate takes the luck of the cards out: everyone plays the same deals,
so an entrant is measured against the others' results on each deal, never
against the cards.  Two ways, as in bridge clubs:

* **matchpoints** (every game): on each deal, a result scores one point per
  result it beats and half a point per tie, as a percentage of the results
  it is compared with; an entrant's tournament score is the mean of its
  deals' percentages.  A deal that only one entrant has played scores 50 %
  (nothing to compare with: the average).  For 500 and coinche this is what
  duplicate means: the points of South's side on the deal, compared.
* **cross-IMPs** (bridge): each result IMPed against every other result on
  the deal and averaged; the tournament score is the sum over the deals.

Nothing here is kept between calls: a ranking is recomputed from the
stored scores (``scores[entrant][deal]``) whenever it is asked for.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from trumps.bridge.duplicate import cross_imps
from trumps.tournaments.plan import TournamentError

__all__ = ["Frequency", "Standing", "deal_values", "frequency_table", "standings"]

K = TypeVar("K", bound=Hashable)

# two scores within this are the same (means of percentages are not exact in binary)
_EPS = 1e-9


def deal_values(scores: Mapping[K, int], scoring: str = "matchpoints") -> dict[K, float]:
    """Each entrant's value on one deal from everyone's score on it: a
    matchpoint percentage (0–100, ties split) or average cross-IMPs."""
    keys = list(scores)
    values = [int(scores[k]) for k in keys]
    if scoring == "matchpoints":
        if len(values) == 1:
            return {keys[0]: 50.0}
        # 2 per result beaten and 1 per tie (bridge's 2/1 scale), by sorting:
        # a daily tournament's deal has hundreds of results
        ordered = sorted(values)
        top = 2 * (len(values) - 1)
        out = {}
        for k, s in zip(keys, values, strict=True):
            below = bisect_left(ordered, s)
            tied = bisect_right(ordered, s) - below - 1
            out[k] = 100.0 * (2 * below + tied) / top
        return out
    if scoring == "imps":
        return dict(zip(keys, cross_imps(values), strict=True))
    raise TournamentError(f"scoring is matchpoints or imps, not {scoring!r}")


@dataclass(frozen=True)
class Frequency:
    """One line of a deal's travelling score sheet: a score, how many
    entrants made it, and what it is worth (matchpoint % or IMPs)."""

    score: int
    count: int
    value: float


def frequency_table(scores: Mapping[K, int], scoring: str = "matchpoints") -> list[Frequency]:
    """The deal's results grouped by score, best first."""
    values = deal_values(scores, scoring)
    lines: dict[int, list[float]] = {}
    for k, s in scores.items():
        lines.setdefault(int(s), []).append(values[k])
    return [Frequency(s, len(v), v[0]) for s, v in sorted(lines.items(), reverse=True)]


@dataclass(frozen=True)
class Standing(Generic[K]):
    """An entrant's place: ``position`` is shared by equal scores (1, 2, 2, 4)."""

    entrant: K
    position: int
    score: float  # mean matchpoint % or total IMPs
    deals: int  # deals played


def standings(
    scores: Mapping[K, Mapping[int, int]],
    deals: int,
    scoring: str = "matchpoints",
    *,
    complete_only: bool = True,
) -> list[Standing[K]]:
    """The ranking, best first.  Each deal compares everyone who played it
    (finished entrants or not); ``complete_only`` ranks only the entrants
    who played all ``deals`` (a tournament's final ranking), otherwise
    everyone on the deals they played (a ranking so far)."""
    by_deal: dict[int, dict[K, int]] = {}
    for entrant, theirs in scores.items():
        for k, s in theirs.items():
            if not 0 <= k < deals:
                raise TournamentError(f"a score for deal {k}, not one of the {deals}")
            by_deal.setdefault(k, {})[entrant] = s
    worth: dict[K, list[float]] = {e: [] for e in scores}
    for field in by_deal.values():
        for e, v in deal_values(field, scoring).items():
            worth[e].append(v)
    rows: list[tuple[float, K, int]] = []
    for e, vs in worth.items():
        if not vs or (complete_only and len(vs) < deals):
            continue
        total = sum(vs) / len(vs) if scoring == "matchpoints" else sum(vs)
        rows.append((total, e, len(vs)))
    rows.sort(key=lambda r: -r[0])
    out: list[Standing[K]] = []
    for i, (total, e, n) in enumerate(rows):
        position = out[-1].position if out and abs(out[-1].score - total) <= _EPS else i + 1
        out.append(Standing(e, position, total, n))
    return out
