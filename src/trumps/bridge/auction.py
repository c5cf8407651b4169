"""The bridge auction (docs/rules/bridge.md §2): sufficiency, double and redouble
legality, the end of the auction, the contract and its declarer.

Legal-call lists depend only on (last bid, may double, may redouble), so they
are built once per key and shared: self-play never rebuilds them.

>>> a = Auction(dealer=0)
>>> for c in ["1H", "X", "XX", "1S", "P", "P", "P"]:
...     a.apply(Call(c))
>>> a.done, str(a.contract()[1]), a.contract()[0]
(True, '1S', 3)
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from trumps.bridge.calls import BIDS, DOUBLE, PASS, REDOUBLE, Call, Contract
from trumps.core.copying import shallow_copy

__all__ = ["Auction"]

_LEGAL: Final[dict[tuple[int, bool, bool], tuple[Call, ...]]] = {}


def _legal_for(last: int, dbl: bool, rdbl: bool) -> tuple[Call, ...]:
    key = (last, dbl, rdbl)
    got = _LEGAL.get(key)
    if got is None:
        extra = (DOUBLE,) if dbl else (REDOUBLE,) if rdbl else ()
        got = _LEGAL[key] = (PASS, *extra, *BIDS[last + 1 :])
    return got


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class Auction:
    """Calls so far (``calls`` as ``(seat, call)``), whose turn it is, and
    the legal calls.  The dealer calls first, then clockwise."""

    __slots__ = ("bid_seat", "calls", "dealer", "done", "first_namer", "last_bid", "passes", "risk", "to_act")

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.calls: list[tuple[int, Call]] = []
        self.to_act: int | None = dealer
        self.done = False
        self.last_bid: Call | None = None
        self.bid_seat = -1
        self.risk = 0
        self.passes = 0
        # (side, strain) -> the first seat of that side to name the strain
        self.first_namer: dict[tuple[int, int], int] = {}

    def copy(self) -> Auction:
        other = shallow_copy(self)
        other.calls = list(self.calls)
        other.first_namer = dict(self.first_namer)
        return other

    def legal(self) -> tuple[Call, ...]:
        """The legal calls of the player to act (pass first)."""
        seat = self.to_act
        if seat is None:
            return ()
        last = self.last_bid
        if last is None:
            return _legal_for(-1, False, False)
        own = (self.bid_seat & 1) == (seat & 1)
        return _legal_for(last.index, self.risk == 0 and not own, self.risk == 1 and own)

    def apply(self, call: Call) -> None:
        """Record a call already known to be legal."""
        seat = self.to_act
        assert seat is not None
        self.calls.append((seat, call))
        if call is PASS:
            self.passes += 1
            if self.passes == (3 if self.last_bid is not None else 4):
                self.done = True
                self.to_act = None
                return
        else:
            self.passes = 0
            if call is DOUBLE:
                self.risk = 1
            elif call is REDOUBLE:
                self.risk = 2
            else:
                self.last_bid = call
                self.bid_seat = seat
                self.risk = 0
                self.first_namer.setdefault((seat & 1, call.strain), seat)
        self.to_act = (seat + 1) & 3

    @property
    def passed_out(self) -> bool:
        return self.done and self.last_bid is None

    def contract(self) -> tuple[int, Contract] | None:
        """``(declarer, contract)`` once the auction has ended, ``None`` if
        passed out (or not over).  Declarer is the first player of the
        contracting side to name the strain (§2.5)."""
        last = self.last_bid
        if not self.done or last is None:
            return None
        declarer = self.first_namer[(self.bid_seat & 1, last.strain)]
        return declarer, Contract(last.level, last.strain, self.risk)
