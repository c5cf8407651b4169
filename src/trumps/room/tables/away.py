"""Players who are not playing their seat: gone (their socket left during a
game) or idle (the timer moved for them :data:`IDLE_AFTER` times in a row,
or they went to play elsewhere), and the count of timed-out moves.

Apart from the actor because it answers one question the bots, the timer
and the summary all ask: who controls a seat now (:meth:`Away.controller`)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from trumps.room.storage.store import StoredTable
from trumps.room.tables.errors import RoomError
from trumps.room.tables.wire import Seat

#: A seat whose player ran out of time this many times in a row is marked
#: away: a bot plays it at bot pace until the player says "I'm back" (or
#: acts), rather than every move waiting out the whole timer.
IDLE_AFTER = 2


class Away:
    """Away and idle seats of one table, rebuilt from its stored log (a
    restart keeps an idle player idle)."""

    def __init__(self, stored: StoredTable, seats: Sequence[Seat], grace: float) -> None:
        self.seats = seats
        self.grace = grace
        # seats whose player left mid-game (time.monotonic() then): after the
        # grace period a bot plays for them
        self.gone: dict[int, float] = {}
        actions = stored.actions
        self.timeouts: Counter[int] = Counter(actions[seq - 1][0] for seq in stored.timeouts)
        # per seat, its moves made by the timer since its player's own last move
        self.in_a_row: Counter[int] = Counter()
        for seq, (seat, _action, _at, auto) in enumerate(actions, start=1):
            if seq in stored.timeouts:
                self.in_a_row[seat] += 1
            elif not auto:  # the player's own move (a bot's for an away player changes nothing)
                self.in_a_row[seat] = 0
        # seats whose player let the timer move IDLE_AFTER times in a row
        self.idle: set[int] = {
            s for s, n in self.in_a_row.items() if n >= IDLE_AFTER and seats[s].player is not None
        }

    def marked(self, seat: int) -> bool:
        """Whether the seat shows as away (gone or idle)."""
        return seat in self.gone or seat in self.idle

    def controller(self, seat: int) -> str | None:
        """The bot kind playing ``seat`` now, or ``None`` for a present human
        (or an empty seat: the game waits for someone to sit)."""
        s = self.seats[seat]
        if s.bot is not None:
            return s.bot
        if seat in self.idle:
            return "rules"
        since = self.gone.get(seat)
        if since is not None and time.monotonic() - since >= self.grace:
            return "rules"
        return None

    def left(self, seat: int) -> float:
        """The player of ``seat`` left mid-game: the time it was marked gone."""
        since = self.gone[seat] = time.monotonic()
        return since

    def grace_left(self, seat: int) -> float:
        """Seconds until a bot plays for the gone ``seat`` (0.0: now)."""
        since = self.gone.get(seat)
        return 0.0 if since is None else max(0.0, self.grace - (time.monotonic() - since))

    def moved(self, seat: int, *, timeout: bool, by_player: bool) -> None:
        """A move for ``seat``: by the timer (counted; idle after
        :data:`IDLE_AFTER` in a row), or by its player (back, if away)."""
        if timeout:
            self.timeouts[seat] += 1
            self.in_a_row[seat] += 1
            if self.in_a_row[seat] >= IDLE_AFTER and self.seats[seat].player is not None:
                self.idle.add(seat)
        elif by_player:
            self.in_a_row[seat] = 0
            self.idle.discard(seat)

    def back(self, seat: int | None) -> None:
        """The player of ``seat`` says "I'm back": the timer waits for them again."""
        if seat is None:
            raise RoomError("you have no seat at this table")
        if seat not in self.idle:
            raise RoomError("you are not marked away")
        self.idle.discard(seat)
        self.in_a_row[seat] = 0
