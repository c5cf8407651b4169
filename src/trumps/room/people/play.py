"""The Play button: the glue around the sans-I/O :mod:`~trumps.room.people.matchmaking` core.

Pressing Play (``POST /api/play``) puts a ticket in the matchmaker with the
player's displayed rating in that game and their usual seconds per move
(the median over their recent moves, :func:`usual_speed`); the request
waits until the player is seated and answers with the table.  The desk
polls the matchmaker after every change and at its next deadline (a room
timer, so the fake clock of the tests drives it too), and turns each group
into a Play table: the rule set's options, timers chosen from the group's
speed, suggestions allowed, the humans seated, bots in the other seats.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import statistics
from types import SimpleNamespace
from typing import TYPE_CHECKING

from sqlalchemy import select

from trumps.room.people import ratings
from trumps.room.people.matchmaking import RULE_SETS, Group, Matchmaker, MatchmakingError, Ticket, rule_set
from trumps.room.storage.db import ActionRow, SeatRow
from trumps.room.tables.table import RoomError, Table

if TYPE_CHECKING:
    from trumps.room.cluster.messages import AskRequest
    from trumps.room.room import Room
    from trumps.room.storage.store import Store

__all__ = ["MatchmakerMoved", "PlayCancelled", "PlayDesk", "usual_speed"]

log = logging.getLogger("trumps.room")

#: How long a Play request may wait for its table (the matchmaker seats everyone within 10 s).
REQUEST_WAIT = 30.0
#: The moves a usual speed is measured over, and the fewest that make one.
SPEED_MOVES, MIN_MOVES = 300, 10


class MatchmakerMoved(Exception):
    """This worker gave the matchmaker up (it is leaving the room): a Play
    request waiting here goes to the worker that runs it next."""


class PlayCancelled(RoomError):
    """The player cancelled this Play request (or pressed Play for another
    game or rule set)."""


def usual_speed(store: Store, pid: str) -> float | None:
    """The median seconds ``pid`` took per move over their last moves (the
    time since the action before theirs), or None with too few moves.
    Moves a bot or a timer made for them are left out."""
    with store.sessions() as s:
        seats = s.execute(select(SeatRow.table_id, SeatRow.seat).where(SeatRow.player_id == pid)).all()
        gaps: list[float] = []
        for tid, seat in seats[-40:]:
            rows = s.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.at, ActionRow.auto)
                .where(ActionRow.table_id == tid)
                .order_by(ActionRow.seq)
            ).all()
            for before, row in itertools.pairwise(rows):
                if row.seat == seat and not row.auto and row.at >= before.at:
                    gaps.append(row.at - before.at)
        gaps = gaps[-SPEED_MOVES:]
    return statistics.median(gaps) if len(gaps) >= MIN_MOVES else None


class PlayDesk:
    """Tickets in, tables out."""

    def __init__(self, room: Room, wait: float = 10.0) -> None:
        self.room = room
        # people who blocked one another never sit at one Play table
        self.mm = Matchmaker(wait=wait, apart=lambda a, b: room.people.social.blocked(a, b))
        self.waiters: dict[str, asyncio.Future[str]] = {}
        self.moved = False  # gave the matchmaker up (leaving, or its lock was lost)
        self.seating: set[str] = set()  # players of a group whose table is being made

    def _elsewhere(self, here: bool) -> bool:
        """On several workers, whether another worker runs the matchmaker."""
        cluster = self.room.cluster
        return not here and cluster is not None and not cluster.leader

    async def press(
        self, pid: str, game: str, rules: str, *, here: bool = False, since: float | None = None
    ) -> str:
        """Queue ``pid`` for ``game`` under rule set ``rules``; returns the
        table id once seated.  (On several workers the matchmaker's worker
        does this; ``here``: this worker is it.)  ``since``: when the player
        pressed (kept when the request moves to another matchmaker)."""
        try:
            rule_set(game, rules)
        except MatchmakingError as exc:
            raise RoomError(str(exc)) from None
        now = self.room.clock.now()
        since = now if since is None else max(min(since, now), now - REQUEST_WAIT)
        while True:
            if self._elsewhere(here):
                return await self._forward(pid, game, rules, since)
            try:
                return await self._queue(pid, game, rules, since)
            except MatchmakerMoved:
                if here:  # (asked by another worker: it asks the next matchmaker itself)
                    raise
                # this worker is leaving and gave the matchmaker up: the next one queues the player

    async def _forward(self, pid: str, game: str, rules: str, since: float) -> str:
        assert self.room.cluster is not None
        q: AskRequest = {"what": "play", "player": pid, "game": game, "rules": rules, "since": since}
        answer = await self.room.cluster.ask(None, q, timeout=REQUEST_WAIT + 5)
        if answer.get("timeout"):
            raise TimeoutError
        if answer.get("cancelled"):
            raise PlayCancelled("cancelled")
        if not answer["ok"]:
            raise RoomError(answer["error"])
        return answer["table"]

    async def _queue(self, pid: str, game: str, rules: str, since: float) -> str:
        for t in self.room.tables.values():
            seat = t.seat_of(pid)
            if (
                t.status == "playing"
                and t.settings.kind == "play"
                and seat is not None
                and seat not in t.idle
            ):
                return t.id  # already playing: back to that table (one that never started is no game)
        store = self.room.store
        is_account = self.room.people.is_account(pid)
        rating = (await store.run(ratings.rating, store, pid, game))["display"] if is_account else None
        speed = await store.run(usual_speed, store, pid)
        if self.moved:  # (given up while this request read the player's figures)
            raise MatchmakerMoved
        fut: asyncio.Future[str]
        old = self.waiters.get(pid)
        queued = self.mm.queued(pid)
        if (
            old is not None
            and not old.done()
            and queued is not None
            and (queued.game, queued.rules) == (game, rules)
        ):
            # the same search pressed again (a second tab, a double click):
            # one place in the queue, and every request gets the table
            fut = old
        else:  # another game or rule set: that search ends (its request is told: cancelled)
            self.waiters.pop(pid, None)
            if old is not None and not old.done():
                old.cancel()
            fut = asyncio.get_running_loop().create_future()
            self.waiters[pid] = fut
            default = ratings.display_of(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
            self.mm.enqueue(Ticket(pid, game, rules, float(rating if rating is not None else default), speed,
                                   since=since))  # fmt: skip
            await self.poll()
        try:
            return await asyncio.wait_for(asyncio.shield(fut), REQUEST_WAIT)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if fut.cancelled() and (task is None or not task.cancelling()):
                raise PlayCancelled("cancelled") from None  # (a cancel, not this request's end)
            raise

    def give_up(self) -> None:
        """Stop running the matchmaker here (this worker is leaving the
        room, or lost the matchmaker's lock): every request waiting here is
        told :class:`MatchmakerMoved` and goes to the next matchmaker,
        keeping its place in time."""
        self.moved = True
        self.room.timers.cancel(("play",))
        # (those whose table is being made get it: they are out of the queue)
        waiters = {p: f for p, f in self.waiters.items() if p not in self.seating}
        self.waiters = {p: f for p, f in self.waiters.items() if p in self.seating}
        for pid, fut in waiters.items():
            self.mm.cancel(pid)
            if not fut.done():
                fut.set_exception(MatchmakerMoved())
                fut.exception()  # (seen: a request that timed out no longer awaits it)

    def take_up(self) -> None:
        """Run the matchmaker here (this worker holds its lock now)."""
        self.moved = False

    def waiting(self) -> dict[str, int]:
        """How many wait for each game and rule set."""
        return {f"{g}/{r.key}": self.mm.waiting(g, r.key) for g, sets in RULE_SETS.items() for r in sets}

    def cancel(self, pid: str, *, here: bool = False) -> bool:
        if self._elsewhere(here):
            assert self.room.cluster is not None
            task = asyncio.get_running_loop().create_task(
                self.room.cluster.ask(None, {"what": "cancel", "player": pid}, timeout=5)
            )
            task.add_done_callback(lambda t: t.exception())  # answered or not: nothing to wait for
            return True
        fut = self.waiters.pop(pid, None)
        if fut is not None and not fut.done():
            fut.cancel()
        return self.mm.cancel(pid)

    async def poll(self, _key: object = None) -> None:
        """Seat every group that is due, then wait for the next deadline."""
        for group in self.mm.poll(self.room.clock.now()):
            self.seating.update(group.players)
            try:
                tid = await self._seat(group)
            except Exception as exc:
                log.exception("a Play table could not be made")
                for pid in group.players:
                    fut = self.waiters.pop(pid, None)
                    if fut is not None and not fut.done():
                        fut.set_exception(RoomError(f"the table could not be made: {exc}"))
                continue
            finally:
                self.seating.difference_update(group.players)
            for pid in group.players:
                fut = self.waiters.pop(pid, None)
                if fut is not None and not fut.done():
                    fut.set_result(tid)
        deadline = self.mm.next_deadline()
        if deadline is None:
            self.room.timers.cancel(("play",))
        else:
            self.room.timers.arm(("play",), max(deadline, self.room.clock.now()), self.poll)

    async def _seat(self, group: Group) -> str:
        rs = rule_set(group.game, group.rules)
        bid_time, play_time = group.tempo
        settings = {"kind": "play", "bid_time": bid_time, "play_time": play_time, "suggestions": True}
        host = group.players[0]
        table = await self.room.create_table(
            host, group.game, rs.preset, dict(rs.options), settings, matched=True
        )
        try:
            for i, pid in enumerate(group.players):
                name = await self.room.player_name(pid) or "?"
                await table.sit(SimpleNamespace(player=pid, name=name), table.match.seat_name(i))
            if group.bots:
                await table.fill_bots(SimpleNamespace(player=host, name=""), "rules")
        except Exception:
            await self._abandon(table)
            raise
        return table.id

    async def _abandon(self, table: Table) -> None:
        """A Play table that could not be made (someone could not sit):
        nobody stays seated there and it is closed, so it captures nobody
        (Play pressed again used to return to it, dead, every time) and is
        not rebuilt at a restart."""
        if table.status == "playing":
            return  # it started after all: a game like any other
        try:
            for seat in table.seats:
                if seat.player is not None:
                    await table.stand(SimpleNamespace(player=seat.player, name=seat.name or ""))
            await self.room.store.run(self.room.store.set_status, table.id, "finished")
            table.status = "finished"
            await self.room._changed(table)
            self.room._drop(table)
        except Exception:
            log.exception("the unmade Play table %s could not be closed", table.id)
