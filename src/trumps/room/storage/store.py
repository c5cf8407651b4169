"""The room's storage API.  Synchronous SQLAlchemy calls run on one
dedicated worker thread (:class:`Store` ``run``), so the event loop never
blocks on the database and writes happen in the order they were made.

Actions, the busiest writes, go through :meth:`Store.write_action`: every
action waiting when the database thread gets to them is committed in one
transaction (:mod:`~trumps.room.storage.group_commit`), and each caller
resumes only once its action is committed, so nothing is shown that is not
stored.  On SQLite "committed"
includes "into the file a restart will read": a deleted, replaced or
unwritable file stops every write (:class:`trumps.room.storage.db.FileWatch`,
:class:`StoreUnavailable`)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypedDict, TypeVar, TypeVarTuple

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

import trumps
from trumps.core.protocol import Deal, Match
from trumps.room import timing
from trumps.room.storage.db import (
    ActionRow,
    ChatRow,
    Meta,
    Player,
    SeatRow,
    StoreUnavailable,
    TableRow,
    file_watch,
    make_engine,
    migrate,
)
from trumps.room.storage.group_commit import ActionValues, GroupCommit, Write

__all__ = ["READ_THREADS", "Store", "StoreUnavailable", "StoredTable", "new_id"]

#: threads for reads beside the database thread (PostgreSQL only; within
#: SQLAlchemy's default pool of 5 connections + 10 more)
READ_THREADS = 4

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class ChatLine(TypedDict):
    """One stored chat line, as the table keeps and sends it."""

    seq: int
    player: str | None  # None: the room's own line
    name: str
    text: str
    at: float
    channel: str


class BrokenTable(TypedDict):
    """A table set aside as broken (``trumps admin broken``)."""

    id: str
    game: str
    at: float | None
    reason: str | None


log = logging.getLogger("trumps.room")


def new_id(nbytes: int = 9) -> str:
    """An unguessable URL-safe identifier."""
    return secrets.token_urlsafe(nbytes)


@dataclass
class StoredTable:
    """Everything needed to rebuild one table after a restart."""

    id: str
    game: str
    preset: str | None
    options: dict[str, object]
    seed: int
    host: str
    status: str
    created: float
    settings: dict[str, object] = field(default_factory=dict)
    invite: str | None = None
    access: dict[str, list[str]] = field(default_factory=dict)  # "invited" / "banned" -> player ids
    started: float | None = None
    rematch: str | None = None  # finished: the table Play again went on to
    seats: dict[int, tuple[str | None, str | None]] = field(default_factory=dict)  # seat -> (player, bot)
    actions: list[tuple[int, str, float, bool]] = field(default_factory=list)  # seat, action, at, auto
    timeouts: list[int] = field(default_factory=list)  # the seq of every action a timer played
    chat: list[ChatLine] = field(default_factory=list)

    def replayed(self) -> Match[Deal]:
        """The table's match, rebuilt by replaying its stored actions (the game
        state itself is never stored): for the replays and for a tournament's
        score made again after a crash."""
        match = trumps.new_game(self.game, options=self.options, seed=self.seed)
        for seat, action, at, _auto in self.actions:
            match.apply(action, seat, time=at)
        return match


class Store:
    """Database access for the room."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.watch = file_watch(self.engine)  # SQLite: is the file still there (db.FileWatch)
        migrate(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trumps-db")
        # reads (:meth:`read`) on PostgreSQL get threads of their own, each
        # with a pooled connection, so that a burst of them does not queue
        # behind the group commits and one another (a worker taking over a
        # stopped worker's tables while all their sockets come back to it:
        # docs/scaling.md); on SQLite the one database thread does all
        self._reads = (
            ThreadPoolExecutor(max_workers=READ_THREADS, thread_name_prefix="trumps-db-read")
            if self.engine.dialect.name == "postgresql"
            else self._pool
        )
        # actions, and seat and status changes, committed together (group_commit)
        self._commits = GroupCommit(self.engine, self.watch, self._pool)

    async def run(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a synchronous storage call on the database thread."""
        return await self._call(self._pool, fn, args)

    async def read(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        """Run a synchronous storage call that reads what is committed (in
        its own transaction; at most a write nothing else waits for, such
        as a session's last use): beside the database thread on PostgreSQL,
        on it on SQLite."""
        return await self._call(self._reads, fn, args)

    async def _call(self, pool: ThreadPoolExecutor, fn: Callable[[*Ts], T], args: tuple[*Ts]) -> T:
        loop = asyncio.get_running_loop()
        if not timing.ENABLED:
            return await loop.run_in_executor(pool, fn, *args)
        t0 = time.perf_counter()
        out = await loop.run_in_executor(pool, fn, *args)
        timing.record("run:" + getattr(fn, "__name__", "?"), time.perf_counter() - t0)
        return out

    async def write_action(
        self, tid: str, seq: int, seat: int, action: str, at: float, auto: bool, timeout: bool = False
    ) -> None:
        """Store one action; returns once it is committed (raises if it
        could not be).  Actions from many tables share one transaction."""
        row: ActionValues = {
            "table_id": tid, "seq": seq, "seat": seat, "action": action, "at": at, "auto": auto,
            "timeout": timeout,
        }  # fmt: skip
        await self._commits.queue(row)

    async def write(self, fn: Callable[[Connection, *Ts], None], *args: *Ts) -> None:
        """Run ``fn(connection, *args)`` in the next group commit, in order
        with the actions (seat and status changes take this path, so a busy
        room does not pay one transaction for each)."""
        await self._commits.queue(Write(fn, args))

    def close(self) -> None:
        if self._reads is not self._pool:
            self._reads.shutdown(wait=True)
        self._pool.shutdown(wait=True)
        self._commits.close()  # its own connection (PostgreSQL): after the last batch
        self.engine.dispose()

    def secret(self) -> str:
        """The cookie-signing secret, created once and kept in the database
        so guest identities survive restarts."""
        try:
            with self.sessions.begin() as s:
                row = s.get(Meta, "secret")
                if row is None:
                    row = Meta(key="secret", value=secrets.token_urlsafe(32))
                    s.add(row)
                return row.value
        except IntegrityError:
            # workers started together on a new database: another one stored it first
            with self.sessions() as s:
                stored = s.get(Meta, "secret")
                assert stored is not None
                return stored.value

    # ----- players ---------------------------------------------------------
    def create_player(self, name: str) -> str:
        pid = new_id()
        with self.sessions.begin() as s:
            s.add(Player(id=pid, name=name, created=time.time()))
        return pid

    def player_name(self, pid: str) -> str | None:
        with self.sessions() as s:
            p = s.get(Player, pid)
            return None if p is None else p.name

    def rename_player(self, pid: str, name: str) -> None:
        with self.sessions.begin() as s:
            p = s.get(Player, pid)
            if p is not None:
                p.name = name

    # ----- tables -----------------------------------------------------------
    @staticmethod
    def new_table(
        game: str,
        preset: str | None,
        options: Mapping[str, object],
        seed: int,
        host: str,
        seats: int,
        settings: Mapping[str, object] | None = None,
        invite: str | None = None,
    ) -> StoredTable:
        """A new waiting table with empty seats, as :meth:`load_table` would
        read it back once written (:meth:`create_table`, :meth:`add_table`)."""
        return StoredTable(
            id=new_id(6), game=game, preset=preset, options=_as_stored(options), seed=seed, host=host,
            status="waiting", created=time.time(), settings=_as_stored(settings or {}), invite=invite,
            access={"invited": [], "banned": []}, seats={i: (None, None) for i in range(seats)},
        )  # fmt: skip

    def create_table(
        self,
        game: str,
        preset: str | None,
        options: Mapping[str, object],
        seed: int,
        host: str,
        seats: int,
        settings: Mapping[str, object] | None = None,
        invite: str | None = None,
    ) -> str:
        """Store a new table now, in a transaction of its own (tests and
        tools; the room uses :meth:`add_table`); the arguments of
        :meth:`new_table`.  Returns its id."""
        st = self.new_table(game, preset, options, seed, host, seats, settings, invite)
        with self.engine.begin() as conn:
            self._table_write(conn, st)
        return st.id

    async def add_table(
        self,
        game: str,
        preset: str | None,
        options: Mapping[str, object],
        seed: int,
        host: str,
        seats: int,
        settings: Mapping[str, object] | None = None,
        invite: str | None = None,
    ) -> StoredTable:
        """:meth:`create_table` in the next group commit (so a burst of new
        tables costs no transaction of its own, and nothing waits behind
        one); returns the table as :meth:`load_table` would read it back."""
        st = self.new_table(game, preset, options, seed, host, seats, settings, invite)
        await self.insert_table(st)
        return st

    async def insert_table(self, st: StoredTable) -> None:
        """Store a table made by :meth:`new_table` in the next group commit."""
        await self.write(self._table_write, st)

    @staticmethod
    def _table_write(conn: Connection, st: StoredTable) -> None:
        conn.execute(
            insert(TableRow).values(
                id=st.id, game=st.game, preset=st.preset, options=st.options, seed=st.seed, host=st.host,
                status=st.status, created=st.created, settings=st.settings, invite=st.invite, access=st.access,
            )
        )  # fmt: skip
        conn.execute(
            insert(SeatRow),
            [{"table_id": st.id, "seat": i, "player_id": None, "bot": None} for i in st.seats],
        )

    def set_seat(self, tid: str, seat: int, player: str | None, bot: str | None) -> None:
        with self.engine.begin() as conn:
            there = conn.scalar(select(SeatRow.seat).where(SeatRow.table_id == tid, SeatRow.seat == seat))
            if there is None:  # a seat the table was made without
                conn.execute(insert(SeatRow).values(table_id=tid, seat=seat, player_id=player, bot=bot))
            else:
                Store.seat_write(conn, tid, seat, player, bot)

    @staticmethod
    def seat_write(conn: Connection, tid: str, seat: int, player: str | None, bot: str | None) -> None:
        """:meth:`set_seat` on a group commit's connection (:meth:`write`)."""
        conn.execute(
            update(SeatRow)
            .where(SeatRow.table_id == tid, SeatRow.seat == seat)
            .values(player_id=player, bot=bot)
        )

    @staticmethod
    def seats_write(
        conn: Connection,
        tid: str,
        seats: list[tuple[int, str | None, str | None]],
        started: float | None = None,
    ) -> None:
        """Seat changes (seat, player, bot) and, with ``started``, the start
        of the waiting table, on one group commit's connection
        (:meth:`write`): all or nothing.  The seat that fills a table and
        its start commit together, so no crash can leave a table "waiting"
        with every seat taken."""
        for seat, player, bot in seats:
            Store.seat_write(conn, tid, seat, player, bot)
        if started is not None:
            conn.execute(
                update(TableRow)
                .where(TableRow.id == tid, TableRow.status == "waiting")
                .values(status="playing", started=started)
            )

    @staticmethod
    def status_write(conn: Connection, tid: str, status: str, started: float | None = None) -> None:
        """:meth:`set_status` on a group commit's connection (:meth:`write`)."""
        values: dict[str, object] = {"status": status}
        if started is not None:
            values["started"] = started
        conn.execute(update(TableRow).where(TableRow.id == tid).values(**values))

    def set_status(self, tid: str, status: str, started: float | None = None) -> None:
        with self.engine.begin() as conn:
            Store.status_write(conn, tid, status, started)

    def close_waiting(self, tid: str, playing: bool = False) -> bool:
        """Close a table still ``waiting`` (abandoned: nobody came for
        :data:`trumps.room.abandon.ABANDON_AFTER`): status ``closed``, which
        is neither resumed nor listed.  A waiting table holds no buy-in
        (a Compete table charges at its start, in the transaction that
        starts it), so nothing is refunded; a table that started meanwhile
        (on another worker) is left alone: False then.  ``playing``: a
        playing table too (a tournament's deal left unfinished when its
        tournament closed: no stake, nothing to refund)."""
        statuses = ("waiting", "playing") if playing else ("waiting",)
        with self.sessions.begin() as s:
            done = s.execute(
                update(TableRow)
                .where(TableRow.id == tid, TableRow.status.in_(statuses))
                .values(status="closed")
            )
            return bool(getattr(done, "rowcount", 0))

    def set_rematch(self, tid: str, rematch: str) -> str | None:
        """Record that the finished table ``tid`` went on to ``rematch``
        (Play again), unless it already names one: returns the table it
        names now (the first one recorded wins a race between workers), or
        None if ``tid`` is not a finished table."""
        with self.sessions.begin() as s:
            s.execute(
                update(TableRow)
                .where(TableRow.id == tid, TableRow.status == "finished", TableRow.rematch.is_(None))
                .values(rematch=rematch)
            )
            row = s.get(TableRow, tid)
            return None if row is None or row.status != "finished" else row.rematch

    def set_access(self, tid: str, invite: str | None, access: dict[str, list[str]]) -> None:
        """Store a table's invite code and its invited / banned players."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, tid)
            if row is not None:
                row.invite = invite
                row.access = {k: list(v) for k, v in access.items()}

    def table_by_invite(self, code: str) -> str | None:
        with self.sessions() as s:
            return s.scalar(select(TableRow.id).where(TableRow.invite == code))

    def append_action(self, tid: str, seq: int, seat: int, action: str, at: float, auto: bool) -> None:
        """Store one action now (synchronously; the room uses :meth:`write_action`)."""
        row: ActionValues = {
            "table_id": tid, "seq": seq, "seat": seat, "action": action, "at": at, "auto": auto,
            "timeout": False,
        }  # fmt: skip
        with self.engine.begin() as conn:
            conn.execute(insert(ActionRow), [row])

    def append_chat(
        self, tid: str, player: str | None, name: str, text: str, at: float, channel: str = "players"
    ) -> int:
        with self.sessions.begin() as s:
            seq = (s.scalar(select(func.max(ChatRow.seq)).where(ChatRow.table_id == tid)) or 0) + 1
            s.add(
                ChatRow(table_id=tid, seq=seq, player_id=player, name=name, text=text, at=at, channel=channel)
            )
        return seq

    def load_tables(self, statuses: tuple[str, ...] = ("waiting", "playing")) -> list[StoredTable]:
        """Every table in one of ``statuses``, with its seats, actions and chat."""
        out: list[StoredTable] = []
        with self.sessions() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(statuses))).all()
            for row in rows:
                out.append(self._load(s, row))
        return out

    def load_table(self, tid: str) -> StoredTable | None:
        with self.sessions() as s:
            row = s.get(TableRow, tid)
            return None if row is None else self._load(s, row)

    # ----- tables set aside (issue 29): their actions could not be replayed at a start-up
    def mark_broken(self, tid: str, reason: str) -> None:
        """Set a table aside as ``broken`` with when and why: it is not
        resumed (``load_tables`` and the cluster's scan skip it) nor listed,
        so one bad record cannot stop the room from starting or crash it at
        every start; its rows stay as they were, for an admin to look at
        (``trumps admin broken``)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, tid)
            if row is not None and row.status != "finished":
                row.status = "broken"
                row.broken_at = time.time()
                row.broken_reason = reason[:500]

    def broken_tables(self) -> list[BrokenTable]:
        """Every table set aside: id, game, when (epoch seconds), reason; oldest first."""
        with self.sessions() as s:
            rows = s.scalars(select(TableRow).where(TableRow.status == "broken").order_by(TableRow.broken_at))
            return [{"id": r.id, "game": r.game, "at": r.broken_at, "reason": r.broken_reason} for r in rows]

    def clear_broken(self, tid: str) -> str | None:
        """Take a table's broken mark away (after its data or the code was
        fixed): it is ``playing`` again if it had started, else ``waiting``,
        and the next start-up tries to resume it.  Returns that status, or
        None if ``tid`` is no broken table (nothing is changed then)."""
        with self.sessions.begin() as s:
            row = s.get(TableRow, tid)
            if row is None or row.status != "broken":
                return None
            acted = s.scalar(select(func.count()).select_from(ActionRow).where(ActionRow.table_id == tid))
            row.status = "playing" if row.started is not None or acted else "waiting"
            row.broken_at = None
            row.broken_reason = None
            return row.status

    @staticmethod
    def _load(s: Session, row: TableRow) -> StoredTable:
        t = StoredTable(
            id=row.id, game=row.game, preset=row.preset, options=dict(row.options), seed=row.seed,
            host=row.host, status=row.status, created=row.created, settings=dict(row.settings or {}),
            invite=row.invite, access={k: list(v) for k, v in (row.access or {}).items()}, started=row.started,
            rematch=row.rematch,
        )  # fmt: skip
        for seat in s.scalars(select(SeatRow).where(SeatRow.table_id == row.id)):
            t.seats[seat.seat] = (seat.player_id, seat.bot)
        acts = s.scalars(select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.seq))
        for a in acts:
            t.actions.append((a.seat, a.action, a.at, a.auto))
            if a.timeout:
                t.timeouts.append(a.seq)
        chats = s.scalars(select(ChatRow).where(ChatRow.table_id == row.id).order_by(ChatRow.seq))
        t.chat = [
            {
                "seq": c.seq,
                "player": c.player_id,
                "name": c.name,
                "text": c.text,
                "at": c.at,
                "channel": c.channel,
            }
            for c in chats
        ]
        return t


def _as_stored(value: Mapping[str, object]) -> dict[str, object]:
    """``value`` as a JSON column gives it back (tuples become lists...)."""
    out: dict[str, object] = json.loads(json.dumps(value))
    return out
