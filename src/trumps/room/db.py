"""Storage: SQLAlchemy 2 models and the migrations that create them.

Everything a table needs to come back after a restart is stored as it
happens: the table (game, options, seed), its seats, every action with its
seat and time, and every chat line.  The game state itself is never stored:
it is rebuilt by replaying the action log through the engine.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

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
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

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
    "TableRow",
    "make_engine",
    "migrate",
]

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
    prefs: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


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
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    host: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # waiting, playing, finished; or broken: its stored actions could not be replayed at a
    # start-up, so it is set aside (not resumed, not listed) until an admin clears it
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    created: Mapped[float] = mapped_column(Float, default=time.time)
    # room settings (timers, chat, watching, ...): see trumps.room.settings
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    invite: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    # {"invited": [player ids let in by the invite], "banned": [player ids removed by the host]}
    access: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    broken_at: Mapped[float | None] = mapped_column(Float, nullable=True)  # when it was set aside
    broken_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)  # the error


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


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL and foreign keys on, so a
    killed server never leaves a half-written action behind."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, future=True)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the database schema up to date with the Alembic migrations
    shipped in ``trumps/room/migrations``."""
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
