"""The lobby's **Play** button: who sits down with whom, and when.

A player picks a game and one of its popular rule sets and presses Play; a
:class:`Ticket` enters the :class:`Matchmaker`, and each :meth:`Matchmaker.poll`
returns the tables (:class:`Group`) that are due: humans in seat order,
the number of bots for the empty seats, and move timers chosen from the
players' usual speed.

The module is a sans-I/O core, like the ``websockets`` protocol objects: no
asyncio, no database, no clock.  Time is an argument (``since``, ``now``),
so the decisions are deterministic and the tests need not wait.  The glue
enqueues and cancels tickets, calls :meth:`~Matchmaker.poll` after every
change and sleeps until :meth:`~Matchmaker.next_deadline`.

The rules, in order of priority:

* only tickets for the same game and rule set are grouped;
* a full table forms as soon as enough compatible players are queued, the
  longest-waiting players first (FIFO): four people pressing Play in the
  same second land at one table on the next poll;
* compatible means a rating spread within a window that widens while the
  longest waiter of the group waits (200 points at once, +100 a second), and
  no fast player (under 4 s a move) with a slow one (over 15 s a move) during
  the first half of the wait; an unknown speed suits everyone;
* after ``wait`` seconds (10) the oldest ticket is seated at once with
  whoever is waiting, bots taking the other seats: nobody waits longer;
* two people kept apart (``apart``: one blocked the other) never share a
  table: of a group found as above, a later arrival kept apart from an
  earlier member stays in the queue, keeping its place in time, and the
  group sits with a bot in that seat.  Dropping members afterwards, rather
  than searching around them, keeps every deadline exact (a group due at
  a time still forms then, only smaller), so a poll always seats someone
  and the glue never spins.

>>> mm = Matchmaker()
>>> for i, name in enumerate("ABCD"):
...     mm.enqueue(Ticket(name, "500", "american", 1000.0, None, since=100.0 + i / 10))
>>> [(g.players, g.bots, g.tempo) for g in mm.poll(100.3)]
[(('A', 'B', 'D', 'C'), 0, (30, 15))]
>>> mm.enqueue(Ticket("E", "500", "american", 1000.0, 2.5, since=101.0))
>>> mm.poll(105.0), mm.next_deadline()
([], 111.0)
>>> [(g.players, g.bots, g.tempo) for g in mm.poll(111.0)]
[(('E',), 3, (15, 7))]
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Literal

import trumps

__all__ = [
    "BASE_WINDOW",
    "DEFAULT_RATING",
    "FAST_SPEED",
    "POPULAR",
    "RULE_SETS",
    "SLOW_SPEED",
    "TEMPOS",
    "WIDEN_PER_SECOND",
    "Group",
    "Matchmaker",
    "MatchmakingError",
    "RuleSet",
    "Ticket",
    "rule_set",
    "seats_for",
    "tempo_for",
]

#: A new player's displayed rating (the glue passes it when a player has no rating yet); the
#: same as ``trumps.room.people.ratings.DISPLAY_BASE``, not imported to keep this module free of the
#: database.  On that scale (40 points per unit of openskill's mu) 200 points is 5 mu.
DEFAULT_RATING = 1000.0
#: The rating spread (display points) a group may have at once...
BASE_WINDOW = 200.0
#: ... and how much it widens for each second the group's longest waiter has waited.
WIDEN_PER_SECOND = 100.0
#: Usual seconds per move under which a player is fast, and over which slow.
FAST_SPEED = 4.0
SLOW_SPEED = 15.0
#: (bid time, play time) in seconds for fast, ordinary and slow tables; every value is a
#: time limit a table may have (:data:`trumps.room.tables.settings.TIME_LIMITS`).
TEMPOS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"fast": (15, 7), "normal": (30, 15), "slow": (60, 30)}
)


class MatchmakingError(ValueError):
    """A Play request the matchmaker refuses (unknown game or rule set, bad ticket)."""


# --------------------------------------------------------------------------- rule sets


@dataclass(frozen=True)
class RuleSet:
    """One rule set offered by Play: an engine preset and/or option overrides.

    A rule set is more than a preset name because a game may have no
    presets: its forms of play are then values of an option.  ``game``
    is part of it so :func:`seats_for` can start a game from it alone.
    ``options`` is a plain dict (JSON-ready for the table row): treat it as
    read-only, it is shared.
    """

    game: str
    key: str
    label: str
    preset: str | None
    options: dict[str, object] = field(default_factory=dict, hash=False)


def _offered() -> dict[str, list[RuleSet]]:
    """The rule sets each installed game names as popular (its option
    metadata, ``schema.popular``), checked against the engine so that a
    renamed preset drops out of Play instead of failing when a table starts
    (the tests check that nothing on the lists is dropped)."""
    out: dict[str, list[RuleSet]] = {}
    for game in trumps.games():
        schema = trumps.game_class(game).schema
        out[game] = [
            RuleSet(game, p["key"], p["label"], p.get("preset"), dict(p.get("options") or {}))
            for p in schema.popular
            if p.get("preset") is None or p["preset"] in schema.presets
        ]
    return {g: sets for g, sets in out.items() if sets}


#: Per game, the rule sets Play offers.
RULE_SETS: dict[str, list[RuleSet]] = _offered()
#: Per game, the (rule-set key, human label) pairs of the Play menu.
POPULAR: dict[str, list[tuple[str, str]]] = {
    game: [(rs.key, rs.label) for rs in sets] for game, sets in RULE_SETS.items()
}


def rule_set(game: str, key: str) -> RuleSet:
    """The Play rule set ``key`` of ``game``; :class:`MatchmakingError` if there is none.

    >>> rule_set("500", "american").preset
    'american'
    >>> rule_set("500", "klondike")
    Traceback (most recent call last):
    ...
    trumps.room.people.matchmaking.MatchmakingError: 500 has no Play rule set 'klondike' (choose one of: american, australian)
    """
    sets = RULE_SETS.get(game)
    if sets is None:
        raise MatchmakingError(f"Play offers no game {game!r} (choose one of: {', '.join(RULE_SETS)})")
    for rs in sets:
        if rs.key == key:
            return rs
    keys = ", ".join(rs.key for rs in sets)
    raise MatchmakingError(f"{game} has no Play rule set {key!r} (choose one of: {keys})")


def seats_for(rs: RuleSet) -> int:
    """How many players a table of this rule set seats, asked of the engine.

    >>> seats_for(rule_set("500", "american"))
    4
    """
    try:
        return _seats(rs.game, rs.preset, tuple(sorted(rs.options.items())))
    except trumps.OptionError as e:
        raise MatchmakingError(f"{rs.game} rule set {rs.key!r}: {e}") from None


@cache
def _seats(game: str, preset: str | None, options: tuple[tuple[str, object], ...]) -> int:
    return trumps.new_game(game, preset=preset, options=dict(options), seed=0).players


# --------------------------------------------------------------------------- tickets and groups


@dataclass(frozen=True)
class Ticket:
    """One press of Play: who, for what, how good and how quick, since when.

    ``rating`` is the player's displayed rating in ``game`` (a new player
    has :data:`DEFAULT_RATING`); ``speed`` is their usual seconds per move,
    ``None`` when unknown; ``since`` is when they pressed Play, on the same
    clock as the ``now`` given to :meth:`Matchmaker.poll`.
    """

    player: str
    game: str
    rules: str
    rating: float
    speed: float | None
    since: float


@dataclass(frozen=True)
class Group:
    """A table to start now.

    ``players`` are the humans in seat order: the glue seats them in seats
    0, 1, ... and gives the ``bots`` remaining seats to bots.  A full
    four-seat table is ordered so that the strongest and the weakest are
    partners (seats 0 and 2) against the two middle players (seats 1 and 3);
    otherwise the order is the order of arrival.  ``tempo`` is the table's
    (bid time, play time) in seconds.
    """

    game: str
    rules: str
    players: tuple[str, ...]
    seats: int
    bots: int
    tempo: tuple[int, int]


Pace = Literal["fast", "normal", "slow", "unknown"]


def _pace(speed: float | None) -> Pace:
    if speed is None:
        return "unknown"
    if speed < FAST_SPEED:
        return "fast"
    if speed > SLOW_SPEED:
        return "slow"
    return "normal"


def tempo_for(speeds: Iterable[float | None]) -> tuple[int, int]:
    """The move timers of a table from its players' usual speeds.

    One slow player slows the table (a timer they keep running out of ruins
    the game for everyone); the table is fast only if every known speed is
    fast; unknown speeds do not count.

    >>> tempo_for([None, 3.0]), tempo_for([3.0, 9.0]), tempo_for([2.0, 20.0]), tempo_for([])
    ((15, 7), (30, 15), (60, 30), (30, 15))
    """
    paces = {_pace(s) for s in speeds} - {"unknown"}
    if "slow" in paces:
        return TEMPOS["slow"]
    if paces == {"fast"}:
        return TEMPOS["fast"]
    return TEMPOS["normal"]


# --------------------------------------------------------------------------- the matchmaker


@dataclass(frozen=True)
class _Entry:
    ticket: Ticket
    seq: int  # order of enqueueing: breaks ties between equal ``since``

    @property
    def order(self) -> tuple[float, int]:
        return (self.ticket.since, self.seq)

    @property
    def rating(self) -> float:
        return self.ticket.rating

    @property
    def pace(self) -> Pace:
        return _pace(self.ticket.speed)


def _no_slow(e: _Entry) -> bool:
    return e.pace != "slow"


def _no_fast(e: _Entry) -> bool:
    return e.pace != "fast"


def _everyone(e: _Entry) -> bool:
    return True


def _finite(x: float) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


class Matchmaker:
    """The queue of Play tickets and the decisions of who plays together.

    ``wait`` is the longest any ticket waits: then its player is seated with
    whoever is waiting for the same rule set, bots in the other seats.
    ``start_fill_after`` (at most ``wait``; ``None`` = ``wait``) lets a table
    of two or more compatible humans start earlier with bots, while a lone
    player still waits the full ``wait`` for company.  The rating window
    (``base_window`` + ``widen_per_second`` × seconds waited) and the time
    after which fast and slow players may be mixed (``mix_speeds_after``,
    default half the wait) can be tuned.  ``apart(a, b)`` says whether two
    players may not share a table (the room: either blocked the other); it
    is asked as groups form.

    Every decision depends only on the tickets and on ``now``, and a group
    valid at some time stays valid later: so :meth:`poll` finds every table
    due in one pass and :meth:`next_deadline` is exact.  Times are compared
    as computed deadlines (``since + x <= now``), never as differences, so
    polling at the time :meth:`next_deadline` gave always forms a table.
    """

    def __init__(
        self,
        wait: float = 10.0,
        start_fill_after: float | None = None,
        *,
        base_window: float = BASE_WINDOW,
        widen_per_second: float = WIDEN_PER_SECOND,
        mix_speeds_after: float | None = None,
        apart: Callable[[str, str], bool] | None = None,
    ) -> None:
        for name, value in (
            ("wait", wait),
            ("base_window", base_window),
            ("widen_per_second", widen_per_second),
        ):
            if not _finite(value) or value < 0:
                raise MatchmakingError(f"{name} must be a finite number >= 0, not {value!r}")
        fill = wait if start_fill_after is None else start_fill_after
        mix = wait / 2 if mix_speeds_after is None else mix_speeds_after
        for name, value in (("start_fill_after", fill), ("mix_speeds_after", mix)):
            if not _finite(value) or not 0 <= value <= wait:
                raise MatchmakingError(f"{name} must be between 0 and wait ({wait}), not {value!r}")
        self.wait = float(wait)
        self.start_fill_after = float(fill)
        self.base_window = float(base_window)
        self.widen_per_second = float(widen_per_second)
        self.mix_speeds_after = float(mix)
        self.apart = apart  # (a, b) -> whether the two may not share a table
        self._tickets: dict[str, _Entry] = {}
        self._seq = 0

    # ------------------------------------------------------------------ the queue

    def enqueue(self, ticket: Ticket) -> None:
        """Queue a ticket; a player already queued is re-queued with the new one.

        Re-queueing (another game, or Play pressed again) puts the player at
        the back: their new ``since`` counts.  A bad ticket raises
        :class:`MatchmakingError` and leaves the queue unchanged.
        """
        if not isinstance(ticket.player, str) or not ticket.player:
            raise MatchmakingError(f"a ticket needs a player id, not {ticket.player!r}")
        rule_set(ticket.game, ticket.rules)
        if not _finite(ticket.rating):
            raise MatchmakingError(f"rating must be a finite number, not {ticket.rating!r}")
        if ticket.speed is not None and (not _finite(ticket.speed) or ticket.speed < 0):
            raise MatchmakingError(f"speed must be None or a finite number >= 0, not {ticket.speed!r}")
        if not _finite(ticket.since):
            raise MatchmakingError(f"since must be a finite time, not {ticket.since!r}")
        self._tickets.pop(ticket.player, None)
        self._seq += 1
        self._tickets[ticket.player] = _Entry(ticket, self._seq)

    def cancel(self, player: str) -> bool:
        """Take a player out of the queue; False if they were not queued."""
        return self._tickets.pop(player, None) is not None

    def waiting(self, game: str, rules: str) -> int:
        """How many players are queued for this game and rule set (for the lobby)."""
        return sum(1 for e in self._tickets.values() if (e.ticket.game, e.ticket.rules) == (game, rules))

    def queued(self, player: str) -> Ticket | None:
        """The player's queued ticket, or None."""
        e = self._tickets.get(player)
        return None if e is None else e.ticket

    def __len__(self) -> int:
        return len(self._tickets)

    # ------------------------------------------------------------------ decisions

    def poll(self, now: float) -> list[Group]:
        """The tables due at ``now``; their players leave the queue.

        First every full table that can form, anchored on the longest
        waiters in turn; then, for tickets that have waited long enough, the
        biggest partial table around each (bots in the empty seats).  Groups
        come in the order of their longest waiter.
        """
        if not _finite(now):
            raise MatchmakingError(f"now must be a finite time, not {now!r}")
        formed: list[tuple[tuple[float, int], Group]] = []
        for (game, rules), entries in self._buckets().items():
            seats = seats_for(rule_set(game, rules))
            for full in (True, False):
                taken: set[str] = set()
                for i, anchor in enumerate(entries):
                    if anchor.ticket.player in taken:
                        continue
                    rest = [e for e in entries[i + 1 :] if e.ticket.player not in taken]
                    chosen = self._choose(anchor, rest, seats, now, full)
                    if chosen is None:
                        continue
                    members = self._apart_dropped([anchor, *chosen])
                    taken.update(e.ticket.player for e in members)
                    formed.append((anchor.order, self._group(game, rules, seats, members)))
                entries = [e for e in entries if e.ticket.player not in taken]
        for _, group in formed:
            for p in group.players:
                del self._tickets[p]
        return [g for _, g in sorted(formed, key=lambda x: x[0])]

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`poll` forms a table if no ticket changes.

        ``None`` when the queue is empty.  It is never later than the oldest
        ticket's ``since + wait``, and it may be in the past when a table is
        already due (a ticket was queued since the last poll): poll at once.
        After ``poll(now)`` it is always later than ``now``.
        """
        best: float | None = None
        for (game, rules), entries in self._buckets().items():
            seats = seats_for(rule_set(game, rules))
            for i, anchor in enumerate(entries):
                t = self._earliest(anchor, entries[i + 1 :], seats)
                best = t if best is None else min(best, t)
        return best

    # ------------------------------------------------------------------ internals

    def _buckets(self) -> dict[tuple[str, str], list[_Entry]]:
        """The tickets per (game, rules), longest waiter first."""
        out: dict[tuple[str, str], list[_Entry]] = {}
        for e in sorted(self._tickets.values(), key=lambda e: e.order):
            out.setdefault((e.ticket.game, e.ticket.rules), []).append(e)
        return out

    def _ready(self, anchor: _Entry, spread: float) -> float:
        """When a group whose longest waiter is ``anchor`` may have this rating spread.

        Monotone in ``spread`` and capped at ``since + wait``, after which any
        spread goes.  :meth:`poll` and :meth:`next_deadline` both compare
        ``now`` with this very number, so they never disagree by a rounding.
        """
        since = anchor.ticket.since
        limit = since + self.wait
        if spread <= self.base_window:
            return since
        if self.widen_per_second == 0:
            return limit
        return min(since + (spread - self.base_window) / self.widen_per_second, limit)

    def _filters(self, anchor: _Entry, narrow: bool) -> list[Callable[[_Entry], bool]]:
        """The speed filters a group around ``anchor`` may use: a group with no slow
        player or one with no fast player while the window is narrow, anyone after."""
        if not narrow:
            return [_everyone]
        return [f for f in (_no_slow, _no_fast) if f(anchor)]

    def _choose(
        self, anchor: _Entry, rest: list[_Entry], seats: int, now: float, full: bool
    ) -> list[_Entry] | None:
        """The companions of ``anchor`` at ``now`` (older ones first), or None.

        ``full``: exactly ``seats - 1`` companions, if that many are compatible.
        Otherwise a partial table once ``anchor`` has waited ``start_fill_after``
        (at least one companion) or ``wait`` (alone if need be): the most
        companions possible.  Every group with ``anchor`` as its lowest rating
        ``lo`` or above it is tried: each companion must fit with the anchor in
        a spread counted from ``lo``, which makes the search complete.
        """
        since = anchor.ticket.since
        need = seats - 1
        if not full:
            if now < since + self.start_fill_after:
                return None
            # before the deadline only with another human; at the deadline alone if need be
            need = 1 if now < since + self.wait else 0
        narrow = now < since + self.mix_speeds_after
        best: list[_Entry] | None = None
        best_key: tuple[int, list[tuple[float, int]]] | None = None
        for keep in self._filters(anchor, narrow):
            pool = [e for e in rest if keep(e)]
            lows = sorted({anchor.rating, *(e.rating for e in pool if e.rating <= anchor.rating)})
            if now >= since + self.wait:
                lows = lows[:1]  # any spread goes: the lowest ``lo`` admits everyone
            for lo in lows:
                if self._ready(anchor, anchor.rating - lo) > now:
                    continue  # the anchor itself is out of this window
                fit = [
                    e
                    for e in pool
                    if e.rating >= lo and self._ready(anchor, max(e.rating, anchor.rating) - lo) <= now
                ]
                picked = fit[: seats - 1]  # ``rest`` is in order of arrival
                if len(picked) < need or (full and len(picked) < seats - 1):
                    continue
                key = (-len(picked), [e.order for e in picked])
                if best_key is None or key < best_key:
                    best, best_key = picked, key
        return best

    def _earliest(self, anchor: _Entry, rest: list[_Entry], seats: int) -> float:
        """The earliest time ``anchor`` heads a table with companions from ``rest``."""
        since = anchor.ticket.since
        times = [since + self.wait]
        mix_at = since + self.mix_speeds_after
        fill_at = since + self.start_fill_after
        for need, start in ((seats - 1, since), (1, fill_at)):
            if need > len(rest) or need < 1:
                continue
            if mix_at > since:  # a narrow phase, speeds kept apart
                for keep in self._filters(anchor, True):
                    spread = self._min_spread(anchor, [e for e in rest if keep(e)], need)
                    if spread is not None:
                        t = max(self._ready(anchor, spread), start)
                        if t < mix_at:
                            times.append(t)
            spread = self._min_spread(anchor, rest, need)
            if spread is not None:
                times.append(max(self._ready(anchor, spread), start, mix_at))
        return min(times)

    @staticmethod
    def _min_spread(anchor: _Entry, pool: list[_Entry], need: int) -> float | None:
        """The smallest spread, counted as in :meth:`_choose`, of ``anchor`` with
        ``need`` companions from ``pool``; None if the pool is too small."""
        ratings = sorted(e.rating for e in pool)
        if len(ratings) < need:
            return None
        best: float | None = None
        for lo in sorted({anchor.rating, *(r for r in ratings if r <= anchor.rating)}):
            i = bisect_left(ratings, lo) + need - 1  # the need-th companion rated lo or more
            if i >= len(ratings):
                continue
            spread = max(ratings[i], anchor.rating) - lo
            best = spread if best is None else min(best, spread)
        return best

    def _apart_dropped(self, members: list[_Entry]) -> list[_Entry]:
        """``members`` (the anchor first, then in order of arrival) without
        each one kept apart from an earlier kept member; the anchor stays."""
        if self.apart is None:
            return members
        kept: list[_Entry] = []
        for e in members:
            if not any(self.apart(k.ticket.player, e.ticket.player) for k in kept):
                kept.append(e)
        return kept

    def _group(self, game: str, rules: str, seats: int, members: list[_Entry]) -> Group:
        """A :class:`Group` of ``members`` (in order of arrival), seated fairly."""
        order = members
        if len(members) == seats == 4:
            a, b, c, d = sorted(members, key=lambda e: (-e.rating, e.order))
            order = [a, b, d, c]  # partners 0 & 2: strongest with weakest
        return Group(
            game=game,
            rules=rules,
            players=tuple(e.ticket.player for e in order),
            seats=seats,
            bots=seats - len(members),
            tempo=tempo_for(e.ticket.speed for e in members),
        )
