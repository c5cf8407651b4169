"""The move timer: the seat to act has the table's bid or play time, then
the timer moves for it (a pass in an auction, else the rule bot's choice).

Apart from the actor because the deadline is a rule of its own (from the
time of the last stored action, so the same after a restart) and the
timers are shared by key with the other tables of the worker."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from trumps.core.cards import Card
from trumps.room.tables.bots import in_auction
from trumps.room.tables.errors import RoomError

if TYPE_CHECKING:
    from trumps.room.tables.table import Table


class MoveTimer:
    """The move timer of one table (key ``(table id, "move")``)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.key = (table.id, "move")

    def deadline(self) -> float | None:
        """When the seat to act runs out of time (clock time), if a timer runs."""
        return self.table.timers.deadline(self.key)

    def card_turn(self) -> bool:
        """Whether the seat to act chooses a card (play time) rather than a
        call, exchange or declaration (bid time)."""
        legal = self.table.match.legal_actions()
        return bool(legal) and all(isinstance(getattr(a, "card", a), Card) for a in legal)

    def arm(self) -> None:
        """Arm (or cancel) the move timer of the seat to act.  The deadline
        is the time of the last stored action (or the start) plus the
        limit, so it is the same after a restart."""
        t = self.table
        if t.closed:  # (the timers are shared by key: never touch the new owner's)
            return
        seat = t.match.to_act_index
        timed = t.settings.bid_time or t.settings.play_time
        if (
            not timed
            or t.status != "playing"
            or seat is None
            or t.seats[seat].empty
            or t.away.controller(seat)
        ):
            t.timers.cancel(self.key)
            return
        limit = t.settings.time_limit(self.card_turn())
        if not limit:
            t.timers.cancel(self.key)
            return
        since = t.match.log[-1][2] if t.match.log else (t.started or t.clock.now())
        deadline = float(since if since is not None else t.clock.now()) + limit
        if t.timers.deadline(self.key) != deadline:
            t.timers.arm(self.key, deadline, self._on_timeout)

    async def _on_timeout(self, _key: object) -> None:
        """Time is up: in an auction the seat passes (a timer never bids, so
        it never wins a contract for an absent player); otherwise the rule
        bot's choice is played (never a forfeit)."""
        t = self.table
        seat = t.match.to_act_index
        if t.status != "playing" or seat is None:
            return
        seq = t.seq
        if in_auction(t.match):
            choice = str(t.match.default_action())  # the pass (Match.default_action)
        else:
            choice = await t.bots.choice(seat, "rules")
        with contextlib.suppress(RoomError):  # the seat acted meanwhile
            await t.act(None, choice, seat=seat, expect_seq=seq, auto=True, timeout=True)
