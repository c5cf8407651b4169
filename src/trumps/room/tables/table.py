"""One table: its game, seats and connections, with every change
serialised through one lock (the table's actor).

The path of one action: a client message → :meth:`Table.act` (seat, turn
and legality checks; a refused action changes nothing) → the action is
committed to storage (grouped with other tables' actions, see
:meth:`Store.write_action`) → ``match.apply`` → each connection gets a
``state`` event made by ``match.view(its seat)`` → bots to act are scheduled.

What is not the game and its seats is a collaborator's: who may be here
(:mod:`.access`), seat changes and the start (:mod:`.seating`), the chat
(:mod:`.chat`), bots (:mod:`.bots`), away players (:mod:`.away`), the move
timer (:mod:`.turns`), suggestions (:mod:`.suggestions`), replays
(:mod:`.replay`), timeout notices (:mod:`.notices`), the start and
abandonment timers (:mod:`.schedule`), the states sent (:mod:`.states`),
the end and its chips (:mod:`.ending`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from sqlalchemy.exc import IntegrityError

import trumps
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Action, Deal, Match
from trumps.room import timing
from trumps.room.storage.store import Store, StoredTable
from trumps.room.tables import admission as access
from trumps.room.tables import ending, notices, seating, states

# the names the rest of the room imports from the table (they live beside it)
from trumps.room.tables.admission import NOT_INVITED, Policy
from trumps.room.tables.away import IDLE_AFTER, Away
from trumps.room.tables.bots import DEAL_PAUSE, TRICK_PAUSE, Bots
from trumps.room.tables.chat import ADDRESS_SHARE, CHAT_BURST, CHAT_WINDOW, Chat
from trumps.room.tables.ending import ChipEntry, Ledger
from trumps.room.tables.errors import AccessDenied, RoomError, TableClosed
from trumps.room.tables.messages import PROTOCOL_VERSION, error_event
from trumps.room.tables.notices import (
    TIMEOUT_DISCARD,
    TIMEOUT_MELDS,
    TIMEOUT_MOVE,
    TIMEOUT_PASSED,
    TIMEOUT_PLAYED,
    spoken_action,
    told_action,
)
from trumps.room.tables.replay import MAX_REPLAY, REPLAY_PACE, Replays
from trumps.room.tables.schedule import ABANDON_AFTER, Schedule
from trumps.room.tables.settings import TableSettings
from trumps.room.tables.suggestions import SUGGEST_SWITCHES, SUGGESTION_LEVEL, Suggestions
from trumps.room.tables.timers import Timers
from trumps.room.tables.turns import MoveTimer
from trumps.room.tables.wire import (
    LIVE,
    Connection,
    Seat,
    SeatSummary,
    TableSummary,
    new_invite_code,
    person_of,
)
from trumps.tournaments.plan import TournamentPlan

log = logging.getLogger("trumps.room")


class _TableLock(asyncio.Lock):
    """A table's lock, refusing (:class:`TableClosed`) once the table is
    closed: a message that waited for the lock while the table was handed
    over must not be applied here, where the stored log would get an action
    the heir, which already loaded the table, does not know of (and the
    heir's next write would then collide with it)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self._table = table

    async def __aenter__(self) -> None:
        await self.acquire()
        if self._table.closed:
            self.release()
            raise TableClosed("this table has moved to another server; reconnecting")


__all__ = [
    "ABANDON_AFTER",
    "ADDRESS_SHARE",
    "CHAT_BURST",
    "CHAT_WINDOW",
    "DEAL_PAUSE",
    "IDLE_AFTER",
    "LIVE",
    "MAX_REPLAY",
    "NOT_INVITED",
    "REPLAY_PACE",
    "SUGGESTION_LEVEL",
    "SUGGEST_SWITCHES",
    "TIMEOUT_DISCARD",
    "TIMEOUT_MELDS",
    "TIMEOUT_MOVE",
    "TIMEOUT_PASSED",
    "TIMEOUT_PLAYED",
    "TRICK_PAUSE",
    "AccessDenied",
    "ChipEntry",
    "Connection",
    "Ledger",
    "Policy",
    "RoomError",
    "Seat",
    "SeatSummary",
    "Table",
    "TableClosed",
    "TableSummary",
    "new_invite_code",
    "person_of",
    "spoken_action",
    "told_action",
]


class Table:
    """A live table rebuilt from (and written through to) storage."""

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        names: dict[str, str],
        *,
        bot_delay: float = 0.6,
        grace: float = 30.0,
        on_change: Callable[[Table], Awaitable[None]] | None = None,
        timers: Timers | None = None,
        on_done: Callable[[Table], None] | None = None,
    ) -> None:
        self.id, self.game, self.preset = stored.id, stored.game, stored.preset
        self.options, self.seed, self.host = stored.options, stored.seed, stored.host
        self.status, self.created, self.started = stored.status, stored.created, stored.started
        self.settings = TableSettings.from_stored(stored.settings, stored.id)
        self.invite = stored.invite
        self.invited: set[str] = set(stored.access.get("invited", ()))
        self.banned: set[str] = set(stored.access.get("banned", ()))
        self.timers = timers or Timers()
        self.clock = self.timers.clock
        self.store = store
        self.grace = grace
        self.on_change = on_change
        self.on_done = on_done  # told when the game is over and nobody is connected any more
        self.on_fenced: Callable[[Table], None] | None = None  # another worker wrote to our log
        # a waiting table nobody was connected to for ``abandon_after`` s: the room closes it
        self.on_abandoned: Callable[[Table], Awaitable[None]] | None = None
        self.abandon_after = ABANDON_AFTER
        self.rematch: str | None = stored.rematch  # finished: the table Play again went on to
        self.policy: Policy | None = None  # set by the room
        self.ledger: Ledger | None = None  # a Compete table's chips (the room gives it)
        # a tournament's deal: the plan its bots decide by (the room gives it; never sent)
        self.tournament_plan: TournamentPlan | None = None
        self.match: Match[Deal] = trumps.new_game(self.game, options=self.options, seed=self.seed)
        # the rules in words for the lobby, and the game's name (the game's own metadata)
        self.rules_text = self.match.schema.summary(self.options, self.preset)
        # the Rules panel: the preset and every rule that differs from it (templates, terms)
        self.house_rules = self.match.schema.house_rules(self.options, self.preset)
        self.game_title = self.match.schema.title or self.game
        # the current deal's start, for the replays of sockets that missed
        # part of it: a table taken over from another worker mid-deal replays
        # from there, not from the moment it was loaded (states lost on the
        # way during the handover are replayed, not skipped)
        deal_start: tuple[int, Match[Deal]] = (0, self.match.clone())
        for seat, action, at, _auto in stored.actions:
            deal_number = self.match.deal_number
            self.match.apply(action, seat, time=at)
            if self.match.deal_number != deal_number:
                deal_start = (len(self.match.log), self.match.clone())
        self.seats = [Seat() for _ in range(self.match.players)]
        for seat, (player, bot) in stored.seats.items():
            self.seats[seat] = Seat(player, names.get(player or ""), bot)
        self.connections: set[Connection] = set()
        # humans waiting to take over a bot's seat at the start of the next deal
        self.pending: dict[int, tuple[str, str]] = {}
        self.closed = False  # stopped running here (close): the lock refuses
        self.lock: asyncio.Lock = _TableLock(self)
        self._send_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self.rng = random.Random(self.seed ^ 0x5EED)
        self._listed: TableSummary | None = None  # the summary the lobby was last told of
        self.chat = Chat(stored.chat)
        self.away = Away(stored, self.seats, grace)
        self.idle = self.away.idle  # (read by the room: a bot plays these seats)
        self.bots = Bots(self, bot_delay)
        self.move_timer = MoveTimer(self)
        self.suggestions = Suggestions(self)
        self.replays = Replays(self, deal_start)
        self.schedule = Schedule(self)

    # ----- reading -------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The number of actions applied: the version of the table state."""
        return len(self.match.log)

    def seat_of(self, player: str | None) -> int | None:
        if player is None:
            return None
        for i, s in enumerate(self.seats):
            if s.player == player:
                return i
        return None

    def summary(self) -> TableSummary:
        """The public description shown in the lobby and at the table (:func:`states.summary`)."""
        return states.summary(self)

    def spectators(self) -> dict[str, str]:
        """Player id -> name of every connected person without a seat (the
        host, who may run a table without playing, aside)."""
        return {
            c.player or f"anon-{id(c)}": c.name
            for c in self.connections
            if c.player != self.host and self.seat_of(c.player) is None
        }

    def deadline(self) -> float | None:
        """When the seat to act runs out of time (clock time), if a timer runs."""
        return self.move_timer.deadline()

    def state_event(self, conn: Connection, match: Match[Deal] | None = None, *, summary: TableSummary | None = None,
                    views: dict[int | None, dict[str, Any]] | None = None, chat: bool = True) -> dict[str, Any]:  # fmt: skip
        """The ``state`` event for ``conn`` (:func:`states.state_event`)."""
        return states.state_event(self, conn, match, summary=summary, views=views, chat=chat)

    # ----- access (the rules: trumps.room.tables.admission) -------------------------------
    def may_see(self, player: str | None) -> bool:
        """Whether ``player`` may see this table at all (lobby entry, page)."""
        return access.may_see(self, player)

    async def _store_access(self) -> None:
        await access.store(self)

    async def revoke_invite(self, conn: Connection) -> None:
        async with self.lock:
            await access.revoke_invite(self, conn)
        await self.broadcast()

    async def remove_spectator(self, conn: Connection, player: str) -> None:
        async with self.lock:
            await access.remove_spectator(self, conn, player)
        await self.broadcast()

    async def admit(self, player: str) -> None:
        await access.admit(self, player)

    async def carry_access(self, invited: Iterable[str], banned: Iterable[str]) -> None:
        await access.carry(self, invited, banned)

    # ----- connections -------------------------------------------------------------
    async def join(self, conn: Connection, since: int | None = None, *, paced: bool = True) -> None:
        """Connect ``conn`` (or raise :class:`AccessDenied`).  With ``since``
        (the last event it saw), the events it missed are sent in order;
        otherwise the current state (``paced``: :meth:`Replays.catch_up`).
        A closed table (handed over while the socket arrived) raises
        :class:`TableClosed`: the socket goes to the table's new worker."""
        if self.closed:
            raise TableClosed("this table has moved to another server; reconnecting")
        access.check_entry(self, conn)
        self.connections.add(conn)
        self.watch_alone()
        await self.replays.catch_up(conn, since, paced=paced)
        seat = self.seat_of(conn.player)
        if seat is not None and seat in self.away.gone:
            del self.away.gone[seat]
            self.move_timer.arm()
            await self.broadcast()
        elif seat is None:
            await self.broadcast(exclude=conn)  # one more spectator
        if seat is not None:
            await self.suggestions.send()

    async def catch_up(self, conn: Connection, since: int | None, *, paced: bool = True) -> None:
        await self.replays.catch_up(conn, since, paced=paced)

    def leave(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        self._check_done()
        self.watch_alone()
        seat = self.seat_of(conn.player)
        if seat is not None and any(c.player == conn.player for c in self.connections):
            return
        if seat is not None and self.status == "playing":
            since = self.away.left(seat)
            asyncio.get_running_loop().call_later(self.grace, self._grace_over, seat, since)
        elif seat is not None:
            return
        self.spawn(self.broadcast())  # the seat is away, or one spectator fewer

    def _grace_over(self, seat: int, since: float) -> None:
        """The grace of a seat whose player left is over: a bot plays it.
        The event loop's timer may fire a moment before ``time.monotonic()``
        says the grace is over (uvloop, which ``trumps serve`` runs on, times
        from a millisecond clock cached at each turn of the loop, and a busy
        turn makes it late); the bots then saw a player still in their grace,
        and nothing looked again: the table waited for ever.  So what is left
        of the grace is waited out."""
        if self.away.gone.get(seat) != since:
            return  # back, or gone again (that departure has its own wake-up)
        left = self.away.grace_left(seat)
        if left > 0.0:
            asyncio.get_running_loop().call_later(left + 0.001, self._grace_over, seat, since)
            return
        self.bots.schedule()

    def watch_alone(self) -> None:
        self.schedule.watch_alone()

    def arm_start(self) -> None:
        self.schedule.arm_start()

    def _check_done(self) -> None:
        """A finished table nobody is connected to is over for the room: its
        replay is read from storage from now on."""
        if self.status == "finished" and not self.connections and self.on_done is not None:
            self.on_done(self)

    def spawn(self, coro: Awaitable[None]) -> None:
        """Run ``coro`` beside the table (kept until done)."""

        async def run() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def broadcast(self, exclude: Connection | None = None) -> None:
        """Send every connection its state.  Under one lock, so each
        connection sees states in order (a later send never carries an
        older state); the same state may arrive twice."""
        self.move_timer.arm()  # so the deadline sent is the one for this state
        async with self._send_lock:
            # every event is made before the first send awaits: one consistent
            # state for all; an action made meanwhile goes out with the next broadcast
            cpu = time.thread_time() if timing.ENABLED else 0.0
            summary = self.summary()
            views: dict[int | None, dict[str, Any]] = {}
            events = [
                (c, self.state_event(c, summary=summary, views=views))
                for c in list(self.connections)
                if c is not exclude
            ]
            if timing.ENABLED:
                # the same work however the room is divided between workers: its
                # CPU time shows how fast the machine runs the room's code
                timing.record("events", time.thread_time() - cpu, len(events))
            for conn, event in events:
                try:
                    await conn.send(event)
                except Exception:  # a dead connection must not stop the others
                    self.connections.discard(conn)
        # the lobby shows the summary: tell it only when that changed
        if self.on_change is not None and summary != self._listed:
            self._listed = summary
            await self.on_change(self)

    async def notify(self, text: str, **extra: object) -> None:
        """A ``notice`` event to everyone at the table, the same for all: only
        for public facts (a buy-in not paid).  A notice about an action is
        made per receiver (:func:`notices.tell_timeout`)."""
        event = {"v": PROTOCOL_VERSION, "type": "notice", "seq": self.seq, "text": text, **extra}
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.send(event)

    # ----- seats (the rules: trumps.room.tables.seating) ------------------------------
    async def changed(self) -> None:
        """After a change under the lock: everyone's state, then what follows it."""
        await self.broadcast()
        self._after_change()

    async def sit(self, conn: Connection, seat_text: str) -> None:
        async with self.lock:
            await seating.sit(self, conn, seat_text)
        await self.changed()

    async def stand(self, conn: Connection) -> None:
        async with self.lock:
            await seating.stand(self, conn)
        await self.broadcast()

    async def set_bot(self, conn: Connection, seat_text: str, kind: str | None) -> None:
        async with self.lock:
            await seating.set_bot(self, conn, seat_text, kind)
        await self.changed()

    async def fill_bots(self, conn: Connection, kind: str = "rules") -> None:
        async with self.lock:
            await seating.fill_bots(self, conn, kind)
        await self.changed()

    async def seat_bots(self, bots: dict[int, str]) -> None:
        async with self.lock:
            await seating.seat_bots(self, bots)
        await self.changed()

    async def seat_and_start(self, changes: list[tuple[int, Seat]]) -> None:
        """Seat ``changes`` and maybe the start, in one transaction (:func:`seating.seat_and_start`)."""
        await seating.seat_and_start(self, changes)

    async def resume(self) -> None:
        """After a restart: finish a game whose last action was stored but
        not its end (a crash in between), start a table stored waiting with
        every seat taken (written by a version that stored the last seat
        and the start apart), re-arm the timers, wake the bots."""
        if self.status == "playing" and self.match.is_over:
            async with self.lock:
                await ending.finish(self)
        if seating.may_start(self, self.seats):
            try:
                async with self.lock:
                    await self.seat_and_start([])
            except Exception:  # (it waits, as before, for a seat change or its start time)
                log.exception("table %s could not start on resume", self.id)
        self.arm_start()
        self.watch_alone()
        self._after_change()
        self._check_done()

    # ----- play -----------------------------------------------------------------------
    async def act(self, conn: Connection | None, action: str, *, seat: int | None = None,
                  expect_seq: int | None = None, auto: bool = False, timeout: bool = False) -> None:  # fmt: skip
        """Apply ``action`` for the connection's seat (or ``seat`` for a bot)."""
        t0 = time.perf_counter()
        async with self.lock:
            t1 = time.perf_counter()
            seat, parsed = self._check_action(conn, action, seat, expect_seq, timeout)
            at = self.clock.now()
            # commit first: nothing is shown that is not stored
            try:
                await self.store.write_action(self.id, self.seq + 1, seat, str(parsed), at, auto, timeout)
            except IntegrityError:
                # the action log already has this seq: another worker runs the
                # table now (the log's key is the fence, trumps.room.cluster)
                if self.on_fenced is not None:
                    self.on_fenced(self)
                raise RoomError("this table has moved to another server; reconnecting") from None
            t2 = time.perf_counter()
            before = self.match.clone() if timeout else None  # what each receiver saw (the notice)
            await self._apply(parsed, seat, at, by_player=conn is not None, timeout=timeout)
            stored_end = await ending.finish(self, defer=True) if self.match.is_over else None
        if before is not None:  # told before the state that shows the automatic action
            await notices.tell_timeout(self, seat, str(parsed), before)
        t3 = time.perf_counter()
        await self.broadcast()
        if stored_end is not None:
            await stored_end
        if timing.ENABLED:  # lock wait, commit wait, apply, broadcast
            timing.record("act", t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t3)
        self._after_change()
        self._check_done()

    def _check_action(self, conn: Connection | None, action: str, seat: int | None,
                      expect_seq: int | None, timeout: bool) -> tuple[int, Action]:  # fmt: skip
        """The seat acting and its action parsed, or a :class:`RoomError`: the
        checks ``Match.apply`` makes (game not over, seat to act, legal
        action), made first, so the action can be stored before it is
        applied without copying the match: a refused action or a failed
        write leaves the match as it was."""
        if conn is not None:
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError("you have no seat at this table")
        assert seat is not None
        if conn is None and not timeout and self.away.controller(seat) is None:
            raise RoomError("no bot plays this seat now")  # removed, or its human came back
        if self.status != "playing":
            raise RoomError("the game has not started" if self.status == "waiting" else "the game is over")
        if expect_seq is not None and expect_seq != self.seq:
            raise RoomError("the table has moved on since your last update; try again")
        to_act = self.match.to_act_index
        if to_act != seat:
            who = "nobody" if to_act is None else self.match.seat_name(to_act)
            raise RoomError(f"it is not your turn ({who} to act)")
        try:
            parsed = self.match.parse_action(action)
        except TrumpsError as exc:
            raise RoomError(str(exc)) from None
        legal = self.match.legal_actions()
        if parsed not in legal:
            raise RoomError(self.match.explain_illegal(parsed, legal))
        return seat, parsed

    async def _apply(self, parsed: Action, seat: int, at: float, *, by_player: bool, timeout: bool) -> None:
        """Apply a stored action; at a new deal, the humans waiting for a
        bot's seat take it over."""
        deal_number = self.match.deal_number
        self.match.apply(parsed, seat, time=at)
        self.away.moved(seat, timeout=timeout, by_player=by_player)
        if self.match.deal_number == deal_number:
            return
        self.replays.deal_started()
        for s_i, (player, name) in self.pending.items():  # a human takes over a bot between deals
            await self.store.write(self.store.seat_write, self.id, s_i, player, None)
            self.seats[s_i] = Seat(player, name, None)
            self.replays.seated(s_i, player)
        self.pending.clear()

    def _after_change(self) -> None:
        """After any change: bots to act, the move timer, suggestions (none
        once the table is closed: it runs elsewhere now)."""
        if self.closed:
            return
        self.bots.schedule()
        self.move_timer.arm()
        if self.suggestions.players and self.status == "playing":
            self.spawn(self.suggestions.send())

    async def say(self, conn: Connection, text: str | None, *, phrase: str | None = None) -> None:
        """A chat line (:meth:`Chat.say`), then everyone's state."""
        await self.chat.say(self, conn, text, phrase)
        await self.broadcast()

    async def set_suggestions(self, conn: Connection, on: bool) -> None:
        """A player switches the bot's suggestions on or off for themselves."""
        await self.suggestions.switch(conn, on)

    # ----- away players -------------------------------------------------------------
    async def back(self, conn: Connection) -> None:
        """A player marked away after running out of time takes the seat
        back ("I'm back"): the timer waits for them again."""
        async with self.lock:
            self.away.back(self.seat_of(conn.player))
        await self.changed()

    async def leave_seat(self, player: str) -> None:
        """``player`` goes to play elsewhere (:func:`seating.leave_seat`)."""
        async with self.lock:
            if not await seating.leave_seat(self, player):
                return
        await self.changed()

    async def close(self) -> None:
        """Stop running here (called with the lock held): timers, bots, and
        every request still waiting for the lock (:class:`TableClosed`)."""
        self.closed = True
        for timer in ("move", "start", "abandon"):
            self.timers.cancel((self.id, timer))
        await self.bots.stop()

    def error(self, reason: str) -> dict[str, object]:
        return error_event(reason, self.seq)
