"""The coinche auction (docs/rules/coinche.md §4): bids by tens, capot and générale,
coinche / surcoinche with the closing and timing options, rebidding after a
pass, the three-pass and four-pass endings.

Legal call lists are cached per (highest bid, coinche flags), so an auction
step costs a dict look-up; calls are interned so ``in`` tests are cheap.
The turn moves through a list of next seats, not a function call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from trumps.coinche.calls import AT, COINCHE, NT, PASS, SURCOINCHE, Call, Contract
from trumps.core.copying import shallow_copy
from trumps.core.options import Options

__all__ = ["Auction", "BidTable", "bid_table"]


class BidTable:
    """Every bid the options allow, in rank order, and the cached legal lists."""

    __slots__ = ("_cache", "bids", "denoms")

    def __init__(self, o: Options) -> None:
        denoms = [0, 1, 2, 3]
        if o.allow_no_trump:
            denoms.append(NT)
        if o.allow_all_trump:
            denoms.append(AT)
        self.denoms = tuple(denoms)
        bids = [Call.bid(v, d) for v in range(80, int(o.max_numeric_bid) + 1, 10) for d in denoms]
        if o.allow_capot_bid:
            bids += [Call.capot(d) for d in denoms]
        if o.allow_generale_bid:
            bids += [Call.generale(d) for d in denoms]
        self.bids = bids
        self._cache: dict[int, tuple[Call, ...]] = {}

    def legal(self, high_rank: int, coinche: bool, surcoinche: bool) -> tuple[Call, ...]:
        # one integer, not a tuple made and hashed at every call
        key = high_rank * 4 + (2 if coinche else 0) + (1 if surcoinche else 0)
        got = self._cache.get(key)
        if got is None:
            calls = [PASS] + [b for b in self.bids if b.rank > high_rank]
            if coinche:
                calls.append(COINCHE)
            if surcoinche:
                calls.append(SURCOINCHE)
            got = self._cache[key] = tuple(calls)  # shared by every auction: immutable
        return got


_TABLES: dict[tuple[object, ...], BidTable] = {}


def bid_table(o: Options) -> BidTable:
    """The shared bid table of the options' contract settings (kept in the
    options' memo: every deal's auction asks)."""
    table: BidTable | None = o.memo.get("coinche.bid_table")
    if table is None:
        table = o.memo["coinche.bid_table"] = _shared_table(o)
    return table


def _shared_table(o: Options) -> BidTable:
    key = (o.allow_no_trump, o.allow_all_trump, o.max_numeric_bid, o.allow_capot_bid, o.allow_generale_bid)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = BidTable(o)
    return table


_WINDOW_CALLS: Final = (PASS, SURCOINCHE)
_POLL_CALLS: Final = (PASS, COINCHE)
# the calls every call is compared with: names of this module (C statics when
# compiled), not look-ups in the calls module's dictionary at every call
_PASS: Final = PASS
_COINCHE: Final = COINCHE
_SURCOINCHE: Final = SURCOINCHE


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class Auction:
    """Calls so far, whose turn it is, the legal calls, and the contract.

    Three modes: the open auction; the surcoinche *window* after a coinche
    that closes the auction (each taker-side player once, in turn from the
    coincher); and the *poll* of ``coinche_timing = any_time``, in which
    the defenders of an uncoinched bid are asked after every call."""

    __slots__ = (
        "any_time",
        "calls",
        "closes",
        "coincher",
        "done",
        "high",
        "level",
        "next_of",
        "o",
        "passes",
        "polls",
        "resume",
        "table",
        "to_act",
        "window",
    )  # fmt: skip

    def __init__(self, o: Options, dealer: int, next_of: Sequence[int]) -> None:
        """``next_of[seat]``: the seat after ``seat`` in the direction of play."""
        self.o = o
        self.next_of = next_of
        self.table = bid_table(o)
        self.closes = bool(o.coinche_closes_auction)
        self.any_time = o.coinche_timing == "any_time"
        self.calls: list[tuple[int, Call]] = []
        self.to_act: int | None = next_of[dealer]
        self.high: tuple[int, Call] | None = None
        self.level = 0
        self.coincher: int | None = None
        self.passes = 0
        self.window: list[int] = []
        self.polls: list[int] = []
        self.resume = 0
        self.done = False

    def copy(self) -> Auction:
        other = shallow_copy(self)
        other.calls = list(self.calls)
        other.window = list(self.window)
        other.polls = list(self.polls)
        return other

    @property
    def thrown_in(self) -> bool:
        return self.done and self.high is None

    def contract(self) -> tuple[int, Contract] | None:
        """(taker, contract) once the auction is over; ``None`` if all passed."""
        if self.high is None:
            return None
        return self.high[0], Contract(self.high[1], self.level)

    def legal(self) -> tuple[Call, ...]:
        seat = self.to_act
        if seat is None or self.done:
            return ()
        if self.window:
            return _WINDOW_CALLS
        if self.polls:
            return _POLL_CALLS
        high = self.high
        if high is None:
            return self.table.legal(-1, False, False)
        ours = (high[0] - seat) % 2 == 0
        return self.table.legal(
            high[1].rank,
            not ours and self.level == 0,
            ours and self.level == 1 and not self.closes,
        )

    def apply(self, call: Call) -> None:
        """Record a legal call and move the turn on."""
        seat = self.to_act
        assert seat is not None
        self.calls.append((seat, call))
        if self.window:
            self.window.pop(0)
            if call is _SURCOINCHE:
                self.level = 2
                self._close()
            elif self.window:
                self.to_act = self.window[0]
            else:
                self._close()
            return
        if self.polls:
            self.polls.pop(0)
            if call is _COINCHE:
                self.polls = []
                if self._coinche(seat):
                    return
            if self.polls:
                self.to_act = self.polls[0]
            else:
                self.to_act = self.resume
            return
        if call is _PASS:
            self.passes += 1
            if self.passes >= (4 if self.high is None else 3):
                self._close()
                return
        elif call is _COINCHE:
            if self._coinche(seat):
                return
        elif call is _SURCOINCHE:
            self.level = 2
            self.passes = 0
        else:
            self.high = (seat, call)
            self.level = 0
            self.coincher = None
            self.passes = 0
        nxt = self.next_of[seat]
        self.to_act = nxt
        if self.any_time and self.high is not None and self.level == 0:
            bidder = self.high[0]
            polls = []
            s = nxt
            for _ in range(3):
                s = self.next_of[s]
                if s != seat and (s - bidder) % 2 == 1:
                    polls.append(s)
            if polls:
                self.polls = polls
                self.resume = nxt
                self.to_act = polls[0]

    def _coinche(self, seat: int) -> bool:
        """Apply a coinche by ``seat``; True when it opened the surcoinche window."""
        assert self.high is not None
        self.level = 1
        self.coincher = seat
        self.passes = 0
        if not self.closes:
            return False
        bidder = self.high[0]
        s = seat
        window = []
        for _ in range(3):
            s = self.next_of[s]
            if (s - bidder) % 2 == 0:
                window.append(s)
        self.window = window
        self.to_act = window[0]
        return True

    def _close(self) -> None:
        self.done = True
        self.to_act = None
        self.window = []
        self.polls = []
