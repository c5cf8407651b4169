"""One table: its game, seats, connections and bots, with every change
serialised through one lock (the table's actor).

The path of one action: a client message → :meth:`Table.act` (seat, turn
and legality checks; a refused action changes nothing) → the action is
committed to storage (grouped with other tables' actions, see
:meth:`Store.write_action`) → ``match.apply`` → each connection gets a
``state`` event made by ``match.view(its seat)`` → bots to act are scheduled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import trumps
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Match
from trumps.room.messages import PROTOCOL_VERSION, error_event
from trumps.room.store import Store, StoredTable

__all__ = ["Connection", "RoomError", "Table"]

log = logging.getLogger("trumps.room")
MAX_REPLAY = 500  # a client further behind than this just gets the current state


class RoomError(ValueError):
    """A request the table refuses (wrong seat, not the host, table full...)."""


class Connection(Protocol):
    """What a table needs of a client connection."""

    player: str | None
    name: str

    async def send(self, event: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    player: str | None = None
    name: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None


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
    ) -> None:
        self.id = stored.id
        self.game = stored.game
        self.preset = stored.preset
        self.options = stored.options
        self.seed = stored.seed
        self.host = stored.host
        self.status = stored.status
        self.created = stored.created
        self.store = store
        self.bot_delay = bot_delay
        self.grace = grace
        self.on_change = on_change
        self.match: Match[Any] = trumps.new_game(self.game, options=self.options, seed=self.seed)
        for seat, action, at, _auto in stored.actions:
            self.match.apply(action, seat, time=at)
        self.seats = [Seat() for _ in range(self.match.players)]
        for seat, (player, bot) in stored.seats.items():
            self.seats[seat] = Seat(player, names.get(player or ""), bot)
        self.chat = list(stored.chat)
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self._send_lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        # seats whose player left mid-game: after the grace period a bot plays for them
        self.away: dict[int, float] = {}
        # humans waiting to take over a bot's seat at the start of the next deal
        self.pending: dict[int, tuple[str, str]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random(self.seed ^ 0x5EED)
        self._listed: dict[str, Any] | None = None  # the summary the lobby was last told of

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

    def summary(self) -> dict[str, Any]:
        """The public description shown in the lobby."""
        name = self.match.seat_name
        return {
            "id": self.id,
            "game": self.game,
            "preset": self.preset,
            "options": self.options,
            "status": self.status,
            "host": self.host,
            "seats": [
                {"seat": name(i), "name": s.name, "bot": s.bot, "empty": s.empty, "away": i in self.away}
                for i, s in enumerate(self.seats)
            ],
            "free": sum(1 for s in self.seats if s.empty),
            "scores": self.match.scores,
            "created": self.created,
        }

    def state_event(
        self,
        conn: Connection,
        match: Match[Any] | None = None,
        *,
        summary: dict[str, Any] | None = None,
        views: dict[int | None, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The ``state`` event for ``conn``: the table and the engine's view
        of the connection's seat (a spectator's view when it has none).
        A broadcast passes the table's ``summary`` and a cache of ``views``
        per seat, so each is built once per state rather than once per
        connection."""
        seat = self.seat_of(conn.player)
        m = self.match if match is None else match
        cached = None if views is None else views.get(seat)
        view = m.view(seat) if cached is None else cached
        if views is not None and cached is None:
            views[seat] = view
        return {
            "v": PROTOCOL_VERSION,
            "type": "state",
            "seq": len(m.log),
            "table": {
                **(self.summary() if summary is None else summary),
                "you": None if seat is None else self.match.seat_name(seat),
                "is_host": conn.player == self.host,
            },
            "view": view,
            "chat": self.chat[-50:],
        }

    # ----- connections -------------------------------------------------------------
    async def join(self, conn: Connection, since: int | None = None) -> None:
        """Connect ``conn``.  With ``since`` (the last event it saw), the
        events it missed are sent in order; otherwise the current state."""
        self.connections.add(conn)
        await self.catch_up(conn, since)
        seat = self.seat_of(conn.player)
        if seat is not None and seat in self.away:
            del self.away[seat]
            await self.broadcast()

    async def catch_up(self, conn: Connection, since: int | None) -> None:
        if since is None or since >= self.seq or self.seq - since > MAX_REPLAY:
            await conn.send(self.state_event(conn))
            return
        replay = trumps.new_game(self.game, options=self.options, seed=self.seed)
        for seat, action, at in self.match.log:
            replay.apply(action, seat, time=at)
            if len(replay.log) > since:
                await conn.send(self.state_event(conn, replay))

    def leave(self, conn: Connection) -> None:
        self.connections.discard(conn)
        seat = self.seat_of(conn.player)
        if seat is None or self.status != "playing":
            return
        if any(c.player == conn.player for c in self.connections):
            return
        self.away[seat] = time.monotonic()
        loop = asyncio.get_running_loop()
        loop.call_later(self.grace, self._schedule_bot)
        task = loop.create_task(self.broadcast())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _controller(self, seat: int) -> str | None:
        """The bot kind playing ``seat`` now, or ``None`` for a present human."""
        s = self.seats[seat]
        if s.bot is not None:
            return s.bot
        since = self.away.get(seat)
        if since is not None and time.monotonic() - since >= self.grace:
            return "rules"
        return None

    async def broadcast(self) -> None:
        """Send every connection its state.  Under one lock, so each
        connection sees states in order (a later send never carries an
        older state); the same state may arrive twice."""
        async with self._send_lock:
            # every event is made before the first send awaits: one consistent
            # state for all; an action made meanwhile goes out with the next broadcast
            summary = self.summary()
            views: dict[int | None, dict[str, Any]] = {}
            events = [(c, self.state_event(c, summary=summary, views=views)) for c in list(self.connections)]
            for conn, event in events:
                try:
                    await conn.send(event)
                except Exception:  # a dead connection must not stop the others
                    self.connections.discard(conn)
        # the lobby shows the summary: tell it only when that changed
        if self.on_change is not None and summary != self._listed:
            self._listed = summary
            await self.on_change(self)

    # ----- seats ---------------------------------------------------------------------
    def _seat_index(self, text: str) -> int:
        try:
            return self.match.seat(text)
        except TrumpsError as exc:
            raise RoomError(str(exc)) from None

    async def sit(self, conn: Connection, seat_text: str) -> None:
        async with self.lock:
            if conn.player is None:
                raise RoomError("choose a name before taking a seat")
            seat = self._seat_index(seat_text)
            if self.seat_of(conn.player) is not None:
                raise RoomError("you already have a seat at this table")
            if self.status == "finished":
                raise RoomError("the game is over")
            current = self.seats[seat]
            if current.player is not None:
                raise RoomError(f"seat {seat_text} is taken")
            if current.bot is not None and self.status == "playing":
                if conn.player in {p for p, _ in self.pending.values()}:
                    raise RoomError("you are already waiting for a seat")
                self.pending[seat] = (conn.player, conn.name)
            else:
                await self.store.run(self.store.set_seat, self.id, seat, conn.player, None)
                self.seats[seat] = Seat(conn.player, conn.name, None)
                await self._maybe_start()
        await self.broadcast()
        self._schedule_bot()

    async def stand(self, conn: Connection) -> None:
        async with self.lock:
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError("you have no seat at this table")
            if self.status == "playing":
                raise RoomError("the game is under way: you cannot leave your seat now")
            await self.store.run(self.store.set_seat, self.id, seat, None, None)
            self.seats[seat] = Seat()
        await self.broadcast()

    async def set_bot(self, conn: Connection, seat_text: str, kind: str | None) -> None:
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can seat bots")
            seat = self._seat_index(seat_text)
            current = self.seats[seat]
            if current.player is not None:
                raise RoomError(f"seat {seat_text} is held by {current.name}")
            if kind is None and self.status == "playing":
                raise RoomError("a bot cannot leave a game under way")
            await self.store.run(self.store.set_seat, self.id, seat, None, kind)
            self.seats[seat] = Seat(None, None, kind)
            await self._maybe_start()
        await self.broadcast()
        self._schedule_bot()

    async def fill_bots(self, conn: Connection) -> None:
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can seat bots")
            for i, s in enumerate(self.seats):
                if s.empty:
                    await self.store.run(self.store.set_seat, self.id, i, None, "rules")
                    self.seats[i] = Seat(None, None, "rules")
            await self._maybe_start()
        await self.broadcast()
        self._schedule_bot()

    async def _maybe_start(self) -> None:
        if self.status == "waiting" and all(not s.empty for s in self.seats):
            self.status = "playing"
            await self.store.run(self.store.set_status, self.id, "playing")

    # ----- play -----------------------------------------------------------------------
    async def act(self, conn: Connection | None, action: str, *, seat: int | None = None,
                  expect_seq: int | None = None, auto: bool = False) -> None:  # fmt: skip
        """Apply ``action`` for the connection's seat (or ``seat`` for a bot)."""
        async with self.lock:
            if conn is not None:
                seat = self.seat_of(conn.player)
                if seat is None:
                    raise RoomError("you have no seat at this table")
            assert seat is not None
            if self.status != "playing":
                raise RoomError(
                    "the game has not started" if self.status == "waiting" else "the game is over"
                )
            if expect_seq is not None and expect_seq != self.seq:
                raise RoomError("the table has moved on since your last update; try again")
            to_act = self.match.to_act
            if to_act != seat:
                who = "nobody" if to_act is None else self.match.seat_name(to_act)
                raise RoomError(f"it is not your turn ({who} to act)")
            at = time.time()
            try:
                parsed = self.match.parse_action(action)
            except TrumpsError as exc:
                raise RoomError(str(exc)) from None
            # the checks Match.apply makes (game not over, seat to act, legal
            # action), made first, so the action can be stored before it is
            # applied without copying the match: a refused action or a failed
            # write leaves the match as it was
            legal = self.match.legal_actions()
            if parsed not in legal:
                raise RoomError(self.match.explain_illegal(parsed, legal))
            # commit first: nothing is shown that is not stored
            await self.store.write_action(self.id, self.seq + 1, seat, str(parsed), at, auto)
            deal_number = self.match.deal_number
            self.match.apply(parsed, seat, time=at)
            new_deal = self.match.deal_number != deal_number
            if new_deal and self.pending:
                for s_i, (player, name) in self.pending.items():  # a human takes over a bot between deals
                    await self.store.run(self.store.set_seat, self.id, s_i, player, None)
                    self.seats[s_i] = Seat(player, name, None)
                self.pending.clear()
            if self.match.is_over:
                self.status = "finished"
                await self.store.run(self.store.set_status, self.id, "finished")
        await self.broadcast()
        self._schedule_bot()

    async def say(self, conn: Connection, text: str) -> None:
        clean = " ".join(text.split())[:300]
        if not clean:
            raise RoomError("empty message")
        at = time.time()
        seq = await self.store.run(self.store.append_chat, self.id, conn.player, conn.name, clean, at)
        self.chat.append({"seq": seq, "name": conn.name, "text": clean, "at": at})
        await self.broadcast()

    # ----- bots ----------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        """Start the bot loop if a bot is to act and none is running."""
        if self.status != "playing" or self.match.to_act is None:
            return
        if self._controller(self.match.to_act) is None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    async def _bot_loop(self) -> None:
        from trumps.bots.registry import bot_for

        while self.status == "playing" and self.match.to_act is not None:
            seat = self.match.to_act
            kind = self._controller(seat)
            if kind is None:
                return
            seq = self.seq
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            if self.seq != seq:
                continue
            legal = [str(a) for a in self.match.legal_actions()]
            try:
                bot = bot_for(self.game, kind)
                view = self.match.view(seat) if bot.needs_view else {}
                choice = await asyncio.to_thread(bot.choose, view, legal, self._rng)
            except Exception:  # a broken bot must never stall the table
                log.exception("bot %s failed at table %s; playing the default action", kind, self.id)
                choice = str(self.match.default_action())
            if choice not in legal:
                log.error("bot %s chose illegal %r at table %s", kind, choice, self.id)
                choice = str(self.match.default_action())
            try:
                await self.act(None, choice, seat=seat, expect_seq=seq, auto=True)
            except RoomError:
                continue

    async def close(self) -> None:
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task

    def error(self, reason: str) -> dict[str, Any]:
        return error_event(reason, self.seq)
