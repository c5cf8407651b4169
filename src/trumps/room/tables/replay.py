"""What a reconnecting socket missed (``?since=``), replayed bounded and paced.

Apart from the actor because it keeps its own memory: the match as the
current deal started, the moment each seat's present occupant sat down,
and when each person last had a replay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.core.protocol import Deal, Match
from trumps.room.tables.wire import Connection, person_of

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

# A ``since`` replay sends only states of the current deal (a reconnect mostly
# misses part of one deal), at most this many; further behind, or asking again
# within REPLAY_PACE seconds of the same person's last replay, gets the current
# state only.  Only the last state of a replay carries the chat.
MAX_REPLAY = 120  # (a deal is 40-80 actions: the longest with a kitty exchange or a long auction)
REPLAY_PACE = 3.0


class Replays:
    """The replays of one table."""

    def __init__(self, table: Table, deal_start: tuple[int, Match[Deal]]) -> None:
        self.table = table
        self.deal_start = deal_start  # (its seq, the match then)
        # seat -> the seq at which its present occupant took it (this process's
        # memory; a replay never goes back past it nor past the deal's start)
        self.seated_at: dict[int, int] = {}
        self._replayed: dict[str, float] = {}  # person -> (clock) time of their last since replay

    def deal_started(self) -> None:
        self.deal_start = (self.table.seq, self.table.match.clone())

    def seated(self, seat: int, player: str | None) -> None:
        """``seat`` changed hands now (to nobody, a bot or ``player``)."""
        if player is not None:
            self.seated_at[seat] = self.table.seq
        else:
            self.seated_at.pop(seat, None)

    async def catch_up(self, conn: Connection, since: int | None, *, paced: bool = True) -> None:
        """Send ``conn`` every state after ``since``, in order, or only the
        current state.

        A replay is what this connection may see *now*: its seat's view,
        and only of states after both the start of the current deal and the
        moment its person took that seat (the bot's hands of earlier deals,
        or the seat's cards before a person sat there, are never replayed;
        within the deal the seat's earlier cards are its present hand, its
        own discards and cards since played, all in its present view).  It
        is bounded (:data:`MAX_REPLAY` states, the chat in the last one
        only) and paced (one per person per :data:`REPLAY_PACE` seconds):
        anything else gets the current state, which is complete.

        ``paced`` False: not counted against the person's pace, for a
        worker repairing the notifications it lost itself (a relayed
        socket's stream, :mod:`trumps.room.cluster.relay`): the person did
        not ask, and several guests of one address relayed by that worker
        would otherwise share one replay and skip states.  Still bounded."""
        t = self.table
        start_seq, start = self.deal_start
        seat = t.seat_of(conn.player)
        floor = max(start_seq, self.seated_at.get(seat, 0) if seat is not None else 0)
        if (
            since is None
            or since >= t.seq
            or since < floor
            or t.seq - since > MAX_REPLAY
            or (paced and not self._may_replay(conn))
        ):
            # a fresh page also learns how to draw this game (the same for every seat)
            event = t.state_event(conn)
            if since is None:
                event["presentation"] = t.match.presentation()
            await conn.send(event)
            return
        replay = start.clone()
        for act_seat, action, at in t.match.log[len(replay.log) :]:
            replay.apply(action, act_seat, time=at)
            if len(replay.log) == t.seq:  # the present: the live state, with its deadline
                await conn.send(t.state_event(conn))
            elif len(replay.log) > since:
                await conn.send(t.state_event(conn, replay, chat=False))

    def _may_replay(self, conn: Connection) -> bool:
        """Whether ``conn``'s person may have a replay now (one per person
        per :data:`REPLAY_PACE` seconds; the times kept are only the recent
        ones, so the memory stays bounded by the people asking)."""
        now = self.table.clock.now()
        person = person_of(conn)
        last = self._replayed.get(person)
        if last is not None and now - last < REPLAY_PACE:
            return False
        for who, at in list(self._replayed.items()):
            if now - at >= REPLAY_PACE:
                del self._replayed[who]
        self._replayed[person] = now
        return True
