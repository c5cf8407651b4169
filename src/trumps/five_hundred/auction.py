"""The 500 auction: American (one round, inkles) and Australian (rounds
until all but one have passed, optional raise of one's own bid) — §5."""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from trumps.core.copying import shallow_copy
from trumps.core.options import Options
from trumps.five_hundred.calls import BREACH, DENOMS, MIS, OMIS, PASS, Call, rank_key

__all__ = ["Auction"]

_SUIT_BIDS = {level: [Call.bid(level, d) for d in DENOMS] for level in range(6, 11)}
_INKLES = [Call.bid(6, d, inkle=True) for d in DENOMS]


_KEYS: dict[tuple[int, int, bool], dict[Call, int]] = {}
_ONLY_PASS: Final = (PASS,)
# the calls every call is compared with: names of this module (C statics when
# compiled), not look-ups in the calls module's dictionary at every call
_PASS: Final = PASS
_BREACH: Final = BREACH
_LEGAL: Final[dict[tuple[object, ...], tuple[Call, ...]]] = {}
_LEGAL_LIMIT: Final = 4096
# the number of each combination of the options the legal calls depend on (a
# handful per process: one per rule set played)
_RULES: Final[dict[tuple[object, ...], int]] = {}


def _rank_keys(nullo_points: int, open_nullo_points: int, eight_spades: bool) -> dict[Call, int]:
    """The rank key of every bid under one misère setting.  Computed once per
    setting and shared (read-only) by every auction: building it per deal was
    a noticeable part of the cost of a random self-play deal."""
    setting = (nullo_points, open_nullo_points, bool(eight_spades))
    keys = _KEYS.get(setting)
    if keys is None:
        bids = [c for lvl in _SUIT_BIDS.values() for c in lvl] + _INKLES + [MIS, OMIS]
        keys = _KEYS[setting] = {c: rank_key(c, *setting) for c in bids}
    return keys


# the bids' rank keys, the inkle seats, American or not, and the number of
# the rules the legal calls depend on
_Fixed = tuple[dict[Call, int], int, bool, int]


def _fixed(options: Options) -> _Fixed:
    """What an auction reads of its options (:class:`Auction`'s fields of the
    same names).  The legal calls depend on the options below besides the
    state: they are numbered, so that the key of every call's look-up is
    flat (a nested tuple is hashed and compared field by field each time)."""
    keys = _rank_keys(options.nullo_points, options.open_nullo_points, options.eight_spades_overbids_nullo)
    inkle_seats = int(options.inkle_seats)
    american = bool(options.variation == "american")  # read at every call: a field, not an option
    rules = (
        id(keys),
        american,
        bool(options.inkles_must_outrank),
        inkle_seats,
        str(options.nullo_mode),
        bool(options.open_nullo_after_8),
    )
    number = _RULES.get(rules)
    if number is None:
        number = _RULES[rules] = len(_RULES)
    return keys, inkle_seats, american, number


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class Auction:
    """Calls so far, whose turn it is, and the legal calls.

    ``banned`` seats may only pass (breach rule, §11.6)."""

    __slots__ = (
        "_american",
        "_inkle_seats",
        "_keys",
        "_rules_key",
        "banned",
        "calls",
        "dealer",
        "done",
        "high",
        "high_real",
        "o",
        "passed",
        "players",
        "raise_turn",
        "raise_used",
        "seen_7",
        "seen_8",
        "spoken",
        "to_act",
    )  # fmt: skip

    def __init__(self, options: Options, players: int, dealer: int, banned: frozenset[int]) -> None:
        self.o = options
        self.players = players
        self.dealer = dealer
        self.banned = banned
        self.calls: list[tuple[int, Call]] = []
        self.to_act: int | None = (dealer + 1) % players
        self.done = False
        self.high: tuple[int, Call] | None = None  # highest bid for ordering (inkles too)
        self.high_real: tuple[int, Call] | None = None  # highest bid that can be the contract
        self.passed: set[int] = set()
        self.spoken = 0
        self.raise_turn = False
        self.raise_used = False
        self.seen_7 = False
        self.seen_8 = False
        # what the auction reads of the options, worked out once per rule set
        # (the options' memo) rather than at every deal
        fixed: _Fixed | None = options.memo.get("500.auction")
        if fixed is None:
            fixed = options.memo["500.auction"] = _fixed(options)
        self._keys, self._inkle_seats, self._american, self._rules_key = fixed

    def copy(self) -> Auction:
        other = shallow_copy(self)
        other.calls = list(self.calls)
        other.passed = set(self.passed)
        return other

    @property
    def american(self) -> bool:
        return self._american

    def contract(self) -> tuple[int, Call] | None:
        """The winning (seat, bid) once the auction is done, or ``None``."""
        return self.high_real

    def key(self, call: Call) -> int:
        return self._keys[call]

    def legal(self) -> tuple[Call, ...]:
        """The legal calls, lowest first (a pass first).  They depend on a
        few facts of the state (the highest bid and inkle, whose turn of
        which kind, the levels seen) and the options, not on the seat, so
        each combination is computed once and shared: sorting the calls by
        rank on every turn was a large part of a 500 auction's cost."""
        seat = self.to_act
        if seat is None or self.done:
            return ()
        if seat in self.banned:
            return _ONLY_PASS
        high = self.high
        high_real = self.high_real
        state = (
            self._rules_key,
            self.raise_turn,
            self.spoken < self._inkle_seats,
            None if high is None else high[1],
            None if high_real is None else high_real[1],
            self.seen_7,
            self.seen_8,
        )
        legal = _LEGAL.get(state)
        if legal is None:
            if len(_LEGAL) >= _LEGAL_LIMIT:  # bounded: option sets come and go in a long-running room
                _LEGAL.clear()
            legal = _LEGAL[state] = tuple(self._compute_legal())
        return legal

    def _compute_legal(self) -> list[Call]:
        o = self.o
        keys = self._keys
        out = [PASS]
        if self._american and not self.raise_turn:
            floor_real = self.high if o.inkles_must_outrank else self.high_real
            floor = keys[floor_real[1]] if floor_real else -1
            if self.spoken < o.inkle_seats:
                if o.inkles_must_outrank:
                    inkle_floor = keys[self.high[1]] if self.high else -1
                    out += [c for c in _INKLES if keys[c] > inkle_floor]
                else:
                    out += _INKLES
            levels = range(7, 11)
        else:
            floor = keys[self.high[1]] if self.high else -1
            levels = range(6, 11)
        for level in levels:
            for c in _SUIT_BIDS[level]:
                if keys[c] > floor:
                    out.append(c)
        if o.nullo_mode != "off":
            if (o.nullo_mode == "anytime" or self.seen_7) and keys[MIS] > floor:
                out.append(MIS)
            if (not o.open_nullo_after_8 or self.seen_8) and keys[OMIS] > floor:
                out.append(OMIS)
        out.sort(key=lambda c: keys.get(c, -1))
        return out

    def apply(self, call: Call) -> None:
        """Record a legal call and move the turn on."""
        seat = self.to_act
        assert seat is not None
        self.calls.append((seat, call))
        n = self.players
        reopened = False
        if call is not _PASS and call is not _BREACH:  # call.is_bid (interned calls; no property call)
            prev = self.high_real
            self.high = (seat, call)
            if not call.inkle:
                self.high_real = (seat, call)
                if call.kind == "BID":
                    self.seen_7 = self.seen_7 or call.level >= 7
                    self.seen_8 = self.seen_8 or call.level >= 8
                if (
                    self.raise_turn
                    and self.o.raise_reopens_on_denomination_change
                    and prev is not None
                    and (prev[1].kind != call.kind or prev[1].denom != call.denom)
                ):
                    self.passed.clear()
                    reopened = True
        if self._american:
            self.spoken += 1
            if self.spoken >= n:
                self._close()
            else:
                self.to_act = (seat + 1) % n
            return
        if self.raise_turn:
            self.raise_turn = False
            self.raise_used = not reopened
            if not reopened:
                self._close()
                return
        elif call is _PASS:
            self.passed.add(seat)
        if self.high is None:
            if len(self.passed) == n:
                self._close()
                return
        elif len(self.passed) >= n - 1:
            if self.o.raise_own_bid and not self.raise_used:
                self.raise_turn = True
                self.to_act = self.high[0]
                return
            self._close()
            return
        nxt = (seat + 1) % n
        while nxt in self.passed:
            nxt = (nxt + 1) % n
        self.to_act = nxt

    def _close(self) -> None:
        self.done = True
        self.to_act = None
