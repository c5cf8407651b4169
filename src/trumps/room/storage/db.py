"""Storage: SQLAlchemy 2 models and the migrations that create them.

Everything a table needs to come back after a restart is stored as it
happens: the table (game, options, seed), its seats, every action with its
seat and time, and every chat line.  The game state itself is never stored:
it is rebuilt by replaying the action log through the engine.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import NoReturn
from urllib.parse import unquote
from weakref import WeakKeyDictionary

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
)
from sqlalchemy.engine import Engine, ExceptionContext, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from trumps.i18n import N_

__all__ = [
    "STARTING_CHIPS",
    "ActionRow",
    "Base",
    "BlockRow",
    "ChatRow",
    "FriendRow",
    "GameResultRow",
    "InvitationRow",
    "LoginFailure",
    "Meta",
    "Player",
    "RatingHistoryRow",
    "RatingRow",
    "ResultRow",
    "SeatRow",
    "SessionRow",
    "StoreUnavailable",
    "TableRow",
    "file_watch",
    "make_engine",
    "migrate",
    "sqlite_file",
]

log = logging.getLogger("trumps.room")

#: Play chips every new account is granted once (no real money; guests have none).
STARTING_CHIPS = 1000


class Base(DeclarativeBase):
    pass


class Meta(Base):
    """Room-wide settings that must survive restarts (the cookie secret)."""

    __tablename__ = "meta"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Player(Base):
    """A person in the room: a guest (no username) or an account.

    ``name`` is what is shown; for an account it is the username as typed.
    ``username_key`` (the username folded to lower case) makes usernames
    unique without regard to case.  Guests start with no chips: chips are
    granted once, when an account is made (``chips_granted``)."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[float] = mapped_column(Float, default=time.time)
    chips: Mapped[int] = mapped_column(Integer, default=0, server_default=str(STARTING_CHIPS))
    username_key: Mapped[str | None] = mapped_column(
        String(24),
        nullable=True,
        unique=True,
        index=True,  # uq_players_username_key (0003)
    )
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    registered: Mapped[float | None] = mapped_column(Float, nullable=True)
    chips_granted: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    prefs: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)


class SessionRow(Base):
    """A login session: the cookie holds a random token, the row its SHA-256,
    so a database dump does not yield usable cookies.  Revoking a session
    (log out, log out everywhere, a password change) sets ``revoked``."""

    __tablename__ = "sessions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the token
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float)
    revoked: Mapped[float | None] = mapped_column(Float, nullable=True)
    agent: Mapped[str] = mapped_column(String(200), default="", server_default="")


class LoginFailure(Base):
    """Failed logins per key ("user:<name>" or "addr:<address>"), for throttling."""

    __tablename__ = "login_failures"
    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    count: Mapped[int] = mapped_column(Integer)
    last: Mapped[float] = mapped_column(Float)


class FriendRow(Base):
    """A friend request (``accepted`` false) or a friendship, one row per
    pair: ``player_id`` asked ``friend_id``."""

    __tablename__ = "friends"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    friend_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float)


class BlockRow(Base):
    """``player_id`` blocked ``blocked_id``."""

    __tablename__ = "blocks"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


class InvitationRow(Base):
    """A player invited to a table by a friend; ``status`` pending, accepted
    or declined."""

    __tablename__ = "invitations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    from_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    to_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    status: Mapped[str] = mapped_column(String(12), default="pending")
    created: Mapped[float] = mapped_column(Float)


class GameResultRow(Base):
    """One person's result in a finished game of any kind (Play, Join,
    Compete), for profiles: won or not, the side's score, and the contracts
    the person held and made."""

    __tablename__ = "game_results"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    game: Mapped[str] = mapped_column(String(20))
    kind: Mapped[str] = mapped_column(String(12))
    won: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    contracts: Mapped[int] = mapped_column(Integer)
    made: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """An account's current rating in one game (openskill: mu, sigma)."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """An account's rating after each rated game (one row per player and table)."""

    __tablename__ = "rating_history"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    options: Mapped[dict[str, object]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    host: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # waiting, playing, finished; or broken: its stored actions could not be replayed at a
    # start-up, so it is set aside (not resumed, not listed) until an admin clears it
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    created: Mapped[float] = mapped_column(Float, default=time.time)
    # room settings (timers, chat, watching, ...): see trumps.room.tables.settings
    settings: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    invite: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    # {"invited": [player ids let in by the invite], "banned": [player ids removed by the host]}
    access: Mapped[dict[str, list[str]] | None] = mapped_column(JSON, nullable=True)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    broken_at: Mapped[float | None] = mapped_column(Float, nullable=True)  # when it was set aside
    broken_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)  # the error
    # a finished table: the table its players went on to with Play again (trumps.room.tables.rematch)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(20), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(16))
    at: Mapped[float] = mapped_column(Float)
    auto: Mapped[bool] = mapped_column(default=False)
    timeout: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class ChatRow(Base):
    __tablename__ = "chat"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    channel: Mapped[str] = mapped_column(String(12), default="players", server_default="players")


class ResultRow(Base):
    """One human player's result in a finished competition game."""

    __tablename__ = "results"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(20))
    buy_in: Mapped[int] = mapped_column(Integer)
    prize: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int] = mapped_column(Integer)
    deals: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)


class TournamentRow(Base):
    """A duplicate tournament against the bots (:mod:`trumps.room.tournaments`):
    its plan (a :class:`trumps.tournaments.TournamentPlan` as JSON text),
    when it opens and closes.  A daily tournament carries its ``daily_key``
    (``<game>/2026-11-28``), unique: whichever worker makes it first makes it,
    the others find it."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))  # daily, instant
    game: Mapped[str] = mapped_column(String(20), index=True)
    plan: Mapped[str] = mapped_column(Text)
    opens_at: Mapped[float] = mapped_column(Float)
    closes_at: Mapped[float | None] = mapped_column(Float, nullable=True)  # daily: 24 h after it opens
    target: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # instant: closes at this many finished
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)  # an instant one, once full
    daily_key: Mapped[str | None] = mapped_column(String(40), nullable=True, unique=True)


class EntryRow(Base):
    """An entrant of a tournament: one per person (``ranked``: an account when
    it entered; a guest plays but is not ranked)."""

    __tablename__ = "tournament_entries"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    ranked: Mapped[bool] = mapped_column(Boolean)
    started: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)  # every deal played
    # the table of the deal being played (a person who left comes back to it)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class DealScoreRow(Base):
    """An entrant's result on one deal, stored as the deal ends, with the
    table it was played at (its replay).  The primary key is what makes a
    deal impossible to play twice for a better score."""

    __tablename__ = "tournament_scores"
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    contract: Mapped[str | None] = mapped_column(String(24), nullable=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    at: Mapped[float] = mapped_column(Float)


class StoreUnavailable(RuntimeError):
    """The database did not take a write, so nothing was acknowledged: the
    SQLite file was deleted, replaced or could not be written (the room
    then takes no more writes until it is restarted: :class:`FileWatch`),
    or PostgreSQL could not be reached (for this write only: the pool
    reconnects).  The client is told (an ``error`` event, a 503), never
    a 500 and never an acknowledgement of what is not stored."""


#: what a player is told when a move or any other write was not stored
GONE = N_("the room's database is gone or cannot be written: the room stops accepting moves")
#: ... and on PostgreSQL when the database could not be reached for this write
UNREACHABLE = N_("the database cannot be reached: nothing was saved; try again in a moment")

#: SQLite's primary result codes after which the file cannot be trusted with
#: another write: READONLY (also a moved file: SQLITE_READONLY_DBMOVED), IOERR,
#: CORRUPT, FULL (a full disk, a file size limit), CANTOPEN, NOTADB
_SQLITE_FATAL = {8, 10, 11, 13, 14, 26}


def sqlite_file(url: str) -> str | None:
    """The file of an SQLite URL as SQLAlchemy opens it (query parameters
    such as ``?timeout=5`` and percent-escapes are not part of the name; a
    ``file:`` URI with ``uri=true`` is reduced to its path); None for other
    databases and for a database in memory."""
    try:
        parsed = make_url(url)
    except Exception:
        return None
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    path = parsed.database
    if str(parsed.query.get("uri", "")).lower() in ("true", "1") and path.startswith("file:"):
        if "mode=memory" in path:
            return None
        path = unquote(path.removeprefix("file:").split("?", 1)[0].split("#", 1)[0])
        if path.startswith("//"):  # file://host/path: the host is empty or localhost
            path = "/" + path[2:].split("/", 1)[-1]
    return None if path in ("", ":memory:") else path


class FileWatch:
    """Is the SQLite file this engine opened still the file at its path?

    A file deleted (or moved, or replaced by a copy) under a running server
    still takes every write: SQLite writes to the open file, which is gone
    for good once the server stops, so every move acknowledged meanwhile
    is lost (issue 29).  So the identity of the file (device and inode) is
    taken when the first connection opens it, and after every commit that
    wrote, before the write is acknowledged, the file at the path must still
    be that one (one ``stat``: ~1 µs, once per group commit); a commit or
    statement that fails with an error after which the file cannot be
    trusted (a full disk, an I/O error, read-only) counts the same.  The
    first failure is logged once, loudly, and from then on every write is
    refused (:class:`StoreUnavailable`) without touching the database:
    what the room holds in memory can no longer be stored, and a restart
    (on the right file) resumes from what was.

    The identity is compared by path, not with ``fstat`` of a file
    descriptor held open for the purpose: closing any descriptor of the
    database file drops every POSIX lock SQLite holds on it in this process
    (sqlite.org/howtocorrupt.html 2.2), and a Store is closed and reopened
    in one process (``trumps serve`` checks the database first; tests)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.identity: tuple[int, int] | None = None
        self.failure: str | None = None  # why writes are refused (logged once)
        self._lock = threading.Lock()

    def opened(self) -> None:
        """A connection has just opened the file at the path: the first
        fixes the identity; a later one (the pool opens more) must find the
        same file, or it would write to another database."""
        st = self._stat()
        if st is None:
            return
        with self._lock:
            if self.identity is None:
                self.identity = st
                return
        if st != self.identity:
            self.fail("was replaced by another file")

    def check(self) -> None:
        """After a commit that wrote: raise unless the file at the path is
        still the one opened (so the commit is in the database that a
        restart will read)."""
        st = self._stat()
        if st is not None and st != self.identity:
            self.fail("was replaced by another file")

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self.fail("was deleted")
        except OSError as exc:
            self.fail(f"cannot be read ({exc.strerror})")
        return st.st_dev, st.st_ino

    def refuse(self) -> None:
        """Raise if writes stopped (no system call: a flag)."""
        if self.failure is not None:
            raise StoreUnavailable(GONE)

    def fail(self, why: str) -> NoReturn:
        """Stop taking writes; the first reason is logged (once) and raised."""
        with self._lock:
            first = self.failure is None
            if first:
                self.failure = why
        if first:
            log.critical(
                "the database file %s %s: the room stops accepting moves and every other write "
                "(nothing more is acknowledged); restart the server on the right file to go on "
                "from what was stored",
                self.path,
                why,
            )
        raise StoreUnavailable(GONE)


def _watched_connection(watch: FileWatch) -> type[sqlite3.Connection]:
    """sqlite3's connection class with :meth:`FileWatch.check` after every
    commit that wrote (and no commit at all once writes stopped).  Every
    write of the room commits through here, whatever path it took (a group
    commit, a session of accounts or ratings), so none is acknowledged
    unless it is in the file a restart will read."""

    class WatchedConnection(sqlite3.Connection):
        def commit(self) -> None:
            wrote = self.in_transaction  # sqlite3 begins a transaction only before a write
            if wrote and watch.failure is not None:
                self.rollback()
                watch.refuse()
            super().commit()
            if wrote:
                watch.check()

    return WatchedConnection


_WATCHES: WeakKeyDictionary[Engine, FileWatch] = WeakKeyDictionary()


def file_watch(engine: Engine) -> FileWatch | None:
    """The :class:`FileWatch` of an engine made by :func:`make_engine` on an SQLite file."""
    return _WATCHES.get(engine)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and foreign keys on, so a
    killed server never leaves a half-written action behind, and a
    :class:`FileWatch` (:func:`file_watch`), so a deleted or
    unwritable file stops the room's writes instead of losing them."""
    path = sqlite_file(url)
    watch = FileWatch(path) if path is not None else None
    connect_args: dict[str, object] = {}
    if watch is not None:
        Path(watch.path).parent.mkdir(parents=True, exist_ok=True)
        connect_args["factory"] = _watched_connection(watch)
    engine = create_engine(url, future=True, connect_args=connect_args)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(conn: sqlite3.Connection, _record: object) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
            if watch is not None:
                watch.opened()

    if watch is not None:
        _WATCHES[engine] = watch
    _on_errors(engine, watch)
    return engine


def _on_errors(engine: Engine, watch: FileWatch | None) -> None:
    """Errors that mean the database did not take a write become
    :class:`StoreUnavailable` with a clear reason: on SQLite one after
    which the file cannot be trusted stops all writes (:class:`FileWatch`);
    on PostgreSQL a lost connection fails this write only (the pool opens
    a new connection for the next one) and is logged once until the
    database is reached again."""
    down = threading.Event()

    @event.listens_for(engine, "handle_error")
    def _failed(ctx: ExceptionContext) -> BaseException | None:
        exc = ctx.original_exception
        if isinstance(exc, StoreUnavailable):
            return None
        if watch is not None:
            code = getattr(exc, "sqlite_errorcode", None)
            if isinstance(code, int) and code & 0xFF in _SQLITE_FATAL:
                try:
                    watch.fail(f"cannot be written ({exc})")
                except StoreUnavailable as refused:
                    return refused
            return None
        if ctx.is_disconnect or ctx.connection is None:  # lost, or no new one (a dropped database)
            if not down.is_set():
                down.set()
                log.error("the database cannot be reached (%s): writes fail until it is back", exc)
            return StoreUnavailable(UNREACHABLE)
        return None

    @event.listens_for(engine, "connect")
    def _reached(_conn: object, _record: object) -> None:
        if down.is_set():
            down.clear()
            log.warning("the database is reached again")


def migrate(engine: Engine) -> None:
    """Bring the database schema up to date with the Alembic migrations
    shipped in ``trumps/room/storage/migrations``."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # workers started together must not migrate at once: one does, the
            # others wait here and then find the schema up to date
            from sqlalchemy import text

            conn.execute(text("SELECT pg_advisory_xact_lock(7265870563)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
