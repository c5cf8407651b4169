"""The par of a bridge deal from its double-dummy table, without DDS.

Par is the result of an auction in which both sides know every card and bid
their best: a side outbids the other whenever that scores better for it
(a making contract of its own, or a sacrifice that costs less than the
opponents' contract), a contract that goes down is doubled, one that makes
is not.  Here that auction is searched exhaustively: after a bid, the other
side either passes (the contract stands) or bids any higher contract; at the
start the dealer's side may open first, then the other side, and so on for
the four seats before a pass-out.  The declarer of a contract is whichever
hand of the side takes more tricks in its strain.

:func:`trumps.bridge.dd.par` uses DDS's own par where endplay is installed
and this otherwise.  A par contract is listed at the lowest level at which
the other side has no bid that would score better for it (DDS's choice):
score and contracts equal DDS's on every compared case
(``tests/bridge/test_par.py``, ``tests/data/bridge/par_dds.json``).

>>> table = ((5, 7, 5, 7), (7, 5, 7, 5), (5, 7, 5, 7), (7, 5, 7, 5), (5, 5, 5, 5))
>>> par_of_table(table, vulnerable="None", dealer=0)
(80, (('1S', 'N', 0), ('1S', 'S', 0)))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from trumps.bridge.calls import Contract
from trumps.bridge.scoring import deal_score
from trumps.core.errors import TrumpsError
from trumps.core.seats import SEAT_NAMES_4

__all__ = ["par_of_table"]

#: every contract bid in auction order: 1C 1D ... 7NT
BIDS = [(level, strain) for level in range(1, 8) for strain in range(5)]
_VULNERABLE = {"None": (False, False), "NS": (True, False), "EW": (False, True), "Both": (True, True)}


def par_of_table(
    tricks: Sequence[Sequence[int]], *, vulnerable: str, dealer: int
) -> tuple[int, tuple[tuple[str, str, int], ...]]:
    """North-South's par score and the par contracts ``(contract, declarer,
    over- or undertricks)`` of a deal whose table is ``tricks[strain][seat]``
    (strains C D H S NT, seats N E S W)."""
    if vulnerable not in _VULNERABLE:
        raise TrumpsError(f"vulnerability must be None, NS, EW or Both, not {vulnerable!r}")
    table = tuple(tuple(int(t) for t in row) for row in tricks)
    if len(table) != 5 or any(len(row) != 4 or not all(0 <= t <= 13 for t in row) for row in table):
        raise TrumpsError("a double-dummy table has 5 strains of 4 seats, each 0 to 13 tricks")
    vul = _VULNERABLE[vulnerable]

    def ns_score(bid: int, side: int) -> int:
        """North-South's score when ``side`` plays ``BIDS[bid]`` (doubled if it fails)."""
        level, strain = BIDS[bid]
        t = max(table[strain][side], table[strain][side + 2])
        risk = 0 if t >= level + 6 else 1
        s = deal_score(Contract(level, strain, risk), vul[side], t)
        return s if side == 0 else -s

    def better(side: int, a: int, b: int) -> bool:
        return a > b if side == 0 else a < b

    @cache
    def after(bid: int, side: int) -> int:
        """North-South's result when ``side`` has bid ``BIDS[bid]`` and the
        other side decides: let it stand or bid higher (then recursively)."""
        other = 1 - side
        best = ns_score(bid, side)
        for higher in range(bid + 1, len(BIDS)):
            v = after(higher, other)
            if better(other, v, best):
                best = v
        return best

    def opening(side: int) -> int:
        return _best(side, [after(b, side) for b in range(len(BIDS))])

    first = int(dealer) & 1
    # the four seats in turn may open; four passes score nothing
    value = 0
    for turn in range(3, -1, -1):
        side = first if turn % 2 == 0 else 1 - first
        value = _best(side, [value, opening(side)])
    return value, _contracts(value, ns_score, after, table)


def _gains(score: int, value: int, side: int) -> bool:
    """Whether North-South's ``score`` is better than ``value`` for ``side``."""
    return score > value if side == 0 else score < value


def _best(side: int, values: list[int]) -> int:
    return max(values) if side == 0 else min(values)


def _contracts(
    value: int,
    ns_score: Callable[[int, int], int],
    after: Callable[[int, int], int],
    table: tuple[tuple[int, ...], ...],
) -> tuple[tuple[str, str, int], ...]:
    """The contracts that stand at the end of a par auction: for each side
    and strain, the lowest bid whose own result is the par score and that no
    higher bid of the other side improves on for it."""
    if value == 0:
        return ()
    out = []
    for side in (0, 1):
        for strain in range(5):
            for bid, (level, s) in enumerate(BIDS):
                if s != strain:
                    continue
                if ns_score(bid, side) != value or after(bid, side) != value:
                    continue
                if any(_gains(ns_score(h, 1 - side), value, 1 - side) for h in range(bid + 1, len(BIDS))):
                    continue  # the other side would bid over it (to make, or to lose less)
                best = max(table[strain][side], table[strain][side + 2])
                risk = "" if best >= level + 6 else "X"
                for seat in (side, side + 2):
                    if table[strain][seat] == best:
                        out.append((f"{Contract(level, strain)}{risk}", SEAT_NAMES_4[seat], best - level - 6))
                break
    return tuple(out)
