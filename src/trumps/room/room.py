"""The room: every live table, table creation, the rebuild of every
unfinished table at start-up, and what follows a table's change or end
(the lobby, the other workers, friends, profiles and ratings)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import secrets
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import ValidationError

import trumps
from trumps.core.errors import TrumpsError
from trumps.room import timing
from trumps.room.compete import competition
from trumps.room.limits import TABLES_PER_HOST
from trumps.room.people.lobby import Lobby
from trumps.room.people.play import PlayDesk
from trumps.room.people.presence import People
from trumps.room.storage.store import Store, StoredTable
from trumps.room.tables.settings import SCHEDULE_HORIZON, TableSettings
from trumps.room.tables.table import (
    ABANDON_AFTER,
    LIVE,
    RoomError,
    Table,
    TableClosed,
    new_invite_code,
)
from trumps.room.tables.timers import Clock, Timers
from trumps.room.tournaments.desk import TournamentDesk

if TYPE_CHECKING:
    from trumps.room.cluster import Cluster, RemoteTable
    from trumps.room.web.accounts import Sessions

__all__ = ["Room"]

KEEP_FINISHED = 60.0  # seconds a finished table nobody is connected to stays live

log = logging.getLogger("trumps.room")


class Room:
    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.6,
        grace: float = 30.0,
        clock: Clock | None = None,
        keep_finished: float = KEEP_FINISHED,
        abandon_after: float = ABANDON_AFTER,
    ) -> None:
        self.store = store
        self.keep_finished = keep_finished
        self.abandon_after = abandon_after
        self.timers = Timers(clock)
        self.clock = self.timers.clock
        self.bot_delay = bot_delay
        self.grace = grace
        self.tables: dict[str, Table] = {}
        self.names: dict[str, str] = {}
        self.people = People(store, self.tables, self.names)
        self.people.on_finished.append(functools.partial(competition.tell_unpaid, people=self.people))
        self.people.on_finished.append(self._game_over)
        self.play = PlayDesk(self)
        self.tournaments = TournamentDesk(self)
        self.people.on_finished.append(self.tournaments.deal_over)
        self.lobby = Lobby(self.tables, self.people)
        self.cluster: Cluster | None = None  # several workers: see trumps.room.cluster
        self.sessions: Sessions | None = None  # the app's Sessions (ends sockets of revoked sessions)
        self._seated: dict[str, set[str]] = {}  # table id -> people seated there (presence told)
        self._tasks: set[asyncio.Task[None]] = set()

    def use_cluster(self, url: str, worker: str | None = None) -> None:
        """Run as one worker of a room on several processes (PostgreSQL)."""
        from trumps.room.cluster import Cluster

        self.cluster = Cluster(self, url, worker)
        self.people.cluster = self.cluster
        self.people.remote = self.cluster.remote

    async def start(self) -> None:
        """Rebuild every unfinished table from storage and restart its bots
        (on several workers: take those nobody runs, see trumps.room.cluster)."""
        timing.start()
        await self.people.start()
        if self.cluster is not None:
            await self.cluster.start()
            return
        stored = await self.store.run(self.store.load_tables)
        for st in stored:
            try:
                for player, _bot in st.seats.values():
                    if player and await self.people.learn(player) is None:
                        self.names[player] = "?"
            except Exception as exc:  # e.g. a seat row naming no player
                await self.set_aside(st.id, exc)
                continue
            await self.rebuild(st)

    async def rebuild(self, st: StoredTable) -> Table | None:
        """Make a stored table live again and resume it (timers re-armed from
        the stored times, bots woken).  A table that cannot be (a corrupt
        record, an action the engine refuses, any exception of the engine or
        a bot) is set aside as broken instead of stopping the room's start,
        and of crashing it again at every later start: None then."""
        table: Table | None = None
        try:
            tid = (st.settings or {}).get("tournament")
            if isinstance(tid, str):  # its bots play by the tournament's plan
                await self.tournaments.plan_of(tid)
            table = self._make(st)
            self.tables[st.id] = table
            await table.resume()
            self.tournaments.close_with_tournament(table)
        except TableClosed:  # a cluster worker handed it on at once (a stop): not broken
            pass
        except Exception as exc:
            if table is not None:
                if self.tables.get(st.id) is table:
                    del self.tables[st.id]
                with contextlib.suppress(Exception):
                    await table.close()
            await self.set_aside(st.id, exc)
            return None
        return table

    async def set_aside(self, tid: str, exc: BaseException) -> None:
        """Log why table ``tid`` cannot run and mark it broken in storage
        (``trumps admin broken`` lists it); a failure to store the mark is
        logged too, the room goes on either way."""
        log.error("table %s cannot be resumed; set aside as broken", tid, exc_info=exc)
        try:
            await self.store.run(self.store.mark_broken, tid, f"{type(exc).__name__}: {exc}")
        except Exception:
            log.exception("table %s: the broken mark could not be stored", tid)

    def _make(self, st: StoredTable) -> Table:
        table = Table(
            st, self.store, self.names, bot_delay=self.bot_delay, grace=self.grace, on_change=self._changed,
            timers=self.timers, on_done=self._done,
        )  # fmt: skip
        table.policy = self.people
        table.ledger = competition
        if table.settings.tournament is not None:
            table.tournament_plan = self.tournaments.plans.get(table.settings.tournament)
        table.on_abandoned = self.close_waiting
        table.abandon_after = self.abandon_after
        if self.cluster is not None:
            table.on_fenced = self.cluster.fenced
        return table

    async def close_waiting(self, table: Table, *, force: bool = False, playing: bool = False) -> None:
        """Close a waiting table no person has been connected to for
        :data:`~trumps.room.tables.table.ABANDON_AFTER` seconds (``force``: whoever
        is connected, a Play again copy not to be used): stored ``closed``
        (never resumed nor listed again), gone from the live tables, and the
        friends of whoever sat there told they are no longer at it.  A
        Compete table takes its buy-ins only when it starts, so nothing is
        refunded; a table that started meanwhile is left alone.
        ``playing`` (with ``force``): a playing table too, a tournament's
        deal left unfinished when its tournament closed."""
        try:
            async with table.lock:
                if table.status != "waiting" and not (playing and table.status == "playing"):
                    return
                if not force and any(c.player is not None for c in table.connections):
                    return
                if not await self.store.run(self.store.close_waiting, table.id, playing):
                    return
                table.status = "closed"
                if self.cluster is None:  # (a worker's release closes it, and gives it up)
                    await table.close()
        except TableClosed:
            return
        if playing:
            log.info("table %s closed: its tournament closed before the deal ended", table.id)
        else:
            log.info("table %s closed: nobody was at it for %.0f s", table.id, table.abandon_after)
        await table.broadcast()  # (a nameless socket still on the page is told)
        await self._changed(table)  # (the lobby, and the presence of whoever sat there)
        if self.cluster is not None:
            await self.cluster.release(table.id, moved=False)
        self.tables.pop(table.id, None)

    def _done(self, table: Table) -> None:
        """A finished game nobody is connected to leaves the live tables
        ``keep_finished`` seconds later unless someone came back (a reload
        still shows the table; afterwards its page is the replay, read from
        storage), so a long-running room keeps the tables in use, not every
        table it ever had."""
        asyncio.get_running_loop().call_later(self.keep_finished, self._drop, table)

    def _drop(self, table: Table) -> None:
        if self.tables.get(table.id) is table and table.status == "finished" and not table.connections:
            if self.cluster is not None:
                asyncio.get_running_loop().create_task(self.cluster.release(table.id, moved=False))
                return
            del self.tables[table.id]

    async def stop(self) -> None:
        if self.cluster is not None:  # hand the tables over first
            await self.cluster.stop()
        await self.lobby.stop()
        self.tournaments.stop()
        for t in self.tables.values():
            await t.close()
        await self.people.close_all()
        self.timers.cancel_all()
        await timing.stop()

    async def _game_over(self, table: Table) -> None:
        """A finished game: each person's result for their profile
        (:mod:`trumps.room.people.profiles`), and the ratings of the accounts that
        played it (:mod:`trumps.room.people.ratings`); both idempotent."""
        from trumps.room.people import profiles, ratings

        if table.settings.kind == "tournament":  # a deal against bots: the tournament keeps its score
            return
        m = table.match
        winner = m.winner
        rows = []
        for i, seat in enumerate(table.seats):
            if seat.player is None:
                continue
            held, made = profiles.contracts_of(m, i)
            team = m.team_of(i)
            rows.append(
                {"player_id": seat.player, "won": winner is not None and team == winner,
                 "score": int(m.scores[team]), "deals": len(m.results), "contracts": held, "made": made}
            )  # fmt: skip
        now = self.clock.now()
        if rows:
            await self.store.run(
                profiles.record_game, self.store, table.id, table.game, table.settings.kind, rows, now
            )
        seats: list[ratings.SeatEntry] = [
            {"player": s.player, "bot": s.bot, "team": m.team_of(i)} for i, s in enumerate(table.seats)
        ]
        if any(s["player"] and self.people.is_account(s["player"]) for s in seats):
            await self.store.run(
                ratings.rate_game, self.store, table.id, table.game, seats, list(m.scores), winner, now
            )

    # ----- players ---------------------------------------------------------------
    async def new_player(self, name: str) -> str:
        """A new guest."""
        pid = await self.store.run(self.store.create_player, name)
        await self.people.learn(pid)
        return pid

    async def player_name(self, pid: str) -> str | None:
        """The name shown for ``pid`` (guests marked), None if unknown."""
        return await self.people.learn(pid)

    # ----- tables ------------------------------------------------------------------
    async def create_table(
        self,
        host: str,
        game: str,
        preset: str | None,
        options: Mapping[str, object] | None,
        settings: Mapping[str, object] | None = None,
        *,
        matched: bool = False,
        seed: int | None = None,
        by_room: bool = False,
    ) -> Table:
        """Validate the options through the engine and the settings, store
        the table, go live.  ``matched``: a Play table made by the
        matchmaker; ``by_room`` with ``seed``: a tournament's deal (the seed
        deals it), which no request may make."""
        t0 = time.perf_counter()
        try:
            cls = trumps.game_class(game)
            resolved = cls.schema.resolve(preset or None, options or {})
            if seed is None or not by_room:
                seed = random.SystemRandom().randrange(2**62)
            probe = trumps.new_game(cls.game, options=resolved.to_dict(), seed=seed)
        except TrumpsError as exc:
            raise RoomError(str(exc)) from None
        chosen = self.check_settings(settings or {})
        if not (by_room or matched):
            hosted = sum(
                1
                for t in self.tables.values()
                if t.host == host and not t.closed and t.status in ("waiting", "playing")
            )
            if hosted >= TABLES_PER_HOST:
                raise RoomError(
                    f"you already host {hosted} tables that have not ended: play or leave one of them first"
                )
        if chosen.kind == "play" and not matched:
            raise RoomError("Play tables are made by the Play button")
        if chosen.kind == "tournament" and not by_room:
            raise RoomError("tournament tables are made by the Tournaments tab")
        await self.people.learn(host)
        if chosen.competition and not self.people.is_account(host):
            raise RoomError("Compete games are for accounts: register (free) to play for chips")
        if chosen.competition:
            from trumps.room.compete import competition

            have = await self.store.run(competition.chips, self.store, host)
            if have < chosen.buy_in:
                raise RoomError(f"the buy-in is {chosen.buy_in} chips and you have {have}")
        # an invitation-only table's link/code (any other table's address is its link)
        # (a tournament's deal has none: nobody else comes to it)
        invite = new_invite_code() if chosen.private and chosen.kind != "tournament" else None
        st = self.store.new_table(
            cls.game,
            preset or None,
            resolved.to_dict(),
            seed,
            host,
            probe.players,
            chosen.model_dump(),
            invite,
        )
        if self.cluster is not None:  # owned before it exists: no other worker's scan can take it
            await self.cluster.claim_new(st.id)
        try:
            await self.store.insert_table(st)
        except BaseException:
            if self.cluster is not None:
                self.cluster.made(st.id)
                await self.cluster.owner.release(st.id)
            raise
        table = self._make(st)
        self.tables[st.id] = table
        if self.cluster is not None:
            self.cluster.made(st.id)
        table.arm_start()
        table.watch_alone()
        await self._changed(table)
        timing.record("create_table", time.perf_counter() - t0)
        return table

    def check_settings(self, settings: Mapping[str, object]) -> TableSettings:
        """The table settings, or :class:`RoomError` with the first reason."""
        try:
            chosen = TableSettings.model_validate(settings)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            msg = str(first.get("msg")).removeprefix("Value error, ")
            raise RoomError(f"settings.{where}: {msg}" if where else f"settings: {msg}") from None
        if chosen.start_at is not None:
            now = self.clock.now()
            if chosen.start_at <= now:
                raise RoomError("settings.start_at: the start time must be in the future")
            if chosen.start_at > now + SCHEDULE_HORIZON:
                raise RoomError("settings.start_at: a table can be scheduled at most 24 hours ahead")
        return chosen

    async def join_by_code(self, player: str, code: str) -> Table | RemoteTable:
        """Let ``player`` into the private table whose invitation is ``code``."""
        for table in self.tables.values():
            if table.invite is not None and secrets.compare_digest(table.invite, code):
                await table.admit(player)
                return table
        if self.cluster is not None:
            for entry in list(self.cluster.remote.values()):
                if entry.invite is not None and secrets.compare_digest(entry.invite, code):
                    await self.people.admit(entry, player)
                    return entry
        raise RoomError("this invitation is not valid (it may have been revoked)")

    def get(self, tid: str) -> Table:
        try:
            return self.tables[tid]
        except KeyError:
            raise RoomError(f"no table {tid!r}") from None

    async def _changed(self, _table: Table) -> None:
        """A table's lobby entry changed: tell the other workers, the friends
        of whoever sat down or stood up, and the lobby (which gathers the
        changes into one push, :mod:`trumps.room.people.lobby`)."""
        if self.cluster is not None:
            self.cluster.publish(_table)
        self._presence_changed(_table)
        await self.lobby.changed()

    def _presence_changed(self, table: Table) -> None:
        """Whoever sat down at, stood up from or finished ``table`` (closed,
        too): their online friends get a fresh friends list, whose presence
        ("at a table of this game") would otherwise stay as it was until the
        person went offline."""
        now = {s.player for s in table.seats if s.player is not None} if table.status in LIVE else set()
        before = self._seated.get(table.id, set())
        if now == before:
            return
        if now:
            self._seated[table.id] = now
        else:
            self._seated.pop(table.id, None)
        for player in now ^ before:
            if self.people.social.friends.get(player):
                task = asyncio.get_running_loop().create_task(self.people.tell_friends(player))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
