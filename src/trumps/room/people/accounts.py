"""Accounts, guests and sessions.

Everyone in the room is a :class:`~trumps.room.storage.db.Player`: a *guest* (a
display name, no password) or an *account* (a unique username and an
argon2id password hash).  A browser is tied to a player by a *session*: a
random token in an HttpOnly, SameSite cookie, stored on the server as its
SHA-256 only, so a session can be revoked (log out, log out everywhere, a
password change) and a database dump yields no usable cookie.

Why guests stay: people play straight away.  A guest can turn into an
account later (:func:`register` with ``guest``): the same player row, so its
games, results and chips stay.  Guests never hold chips; an account is
granted :data:`~trumps.room.storage.db.STARTING_CHIPS` once (``chips_granted``), so
clearing cookies mints nothing.

Failed logins are throttled per username typed and per address
(:data:`FREE_TRIES` tries, then a delay that doubles with each further
failure, up to :data:`MAX_DELAY`), and the answer never says whether the
username exists: the same message, and an argon2 verification against a
dummy hash when there is no such account, so the time taken does not tell
either.

The functions are synchronous, one transaction each; the room runs them on
its database thread (``await store.run(register, store, ...)``).  Password
hashing is not done there: an argon2id hash takes ~50-100 ms of a core, and
every table's writes queue behind the one database thread (8 clients signing
up cut every table from 13.5 to 1 action a second).  The room's routes call
:func:`register_async`, :func:`login_async` and :func:`change_password_async`,
which hash on a small pool of their own (:class:`Hashing`) and use the
database thread only for the reads and writes around it.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar, TypeVarTuple

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from trumps.i18n import N_
from trumps.room.limits import HASH_QUEUE, HASH_THREADS
from trumps.room.storage.db import STARTING_CHIPS, LoginFailure, Player, SessionRow
from trumps.room.storage.store import new_id
from trumps.room.tables.table import RoomError

if TYPE_CHECKING:
    from trumps.room.storage.store import Store

__all__ = [
    "FREE_TRIES",
    "GUEST_MARK",
    "MAX_DELAY",
    "REGISTRATIONS_PER_HOUR",
    "AccountError",
    "Busy",
    "Hashing",
    "PlayerInfo",
    "Throttled",
    "change_password",
    "change_password_async",
    "check_username",
    "display_name",
    "find_account",
    "login",
    "login_async",
    "new_guest",
    "new_session",
    "player_info",
    "player_infos",
    "register",
    "register_async",
    "revoke_all",
    "revoke_session",
    "session_player",
    "session_player_info",
    "token_id",
]

#: Failed logins allowed (per username and per address) before delays start.
FREE_TRIES = 5
#: The longest delay between two tries, in seconds.
MAX_DELAY = 900.0
#: Failures older than this (seconds since the last one) are forgotten.
FAILURE_MEMORY = 3600.0
#: Accounts one address may make in an hour.
REGISTRATIONS_PER_HOUR = 5
#: How long a session lasts without use (accounts and guests), in seconds.
SESSION_DAYS = 30
GUEST_SESSION_DAYS = 365
#: Marks a guest's name wherever a name is shown (usernames cannot contain it).
GUEST_MARK = " (guest)"

USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")
RESERVED = frozenset({"admin", "administrator", "bot", "guest", "system", "trumps", "moderator", "root"})
MIN_PASSWORD, MAX_PASSWORD = 8, 128
WRONG = N_("wrong username or password")


class AccountError(RoomError):
    """An account request refused with a message fit to show the person."""


#: what a throttle counted -> the whole message (each a template the pages
#: translate, :func:`tMsg` in ``i18n.js``, not a phrase glued into another)
THROTTLED = {
    "failed logins": N_("too many failed logins: try again in {n} s"),
    "new accounts from this address": N_("too many new accounts from this address: try again in {n} s"),
    "new guests from this address": N_("too many new guests from this address: try again in {n} s"),
    "password attempts from this address": N_(
        "too many password attempts from this address: try again in {n} s"
    ),
}


class Throttled(AccountError):
    """Too many failed logins (or sign-ups): try again after ``retry_after``
    seconds.  ``what`` is one of :data:`THROTTLED`'s keys."""

    def __init__(self, retry_after: float, what: str = "failed logins") -> None:
        self.retry_after = max(1, int(retry_after + 0.999))
        super().__init__(THROTTLED[what].format(n=self.retry_after))


class Busy(AccountError):
    """Every password hashing thread is busy and the queue is full (503)."""

    def __init__(self) -> None:
        super().__init__(N_("the server is busy: try again in a moment"))


T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class Hashing:
    """Threads of their own for password hashing, with a bounded queue.

    ``threads`` (by default :data:`~trumps.room.limits.HASH_THREADS`, at most
    half the cores) hash at once; up to ``queue`` more wait; beyond that
    :meth:`run` raises :class:`Busy` at once rather than let a flood of
    sign-ups and logins queue without end.  argon2-cffi releases the GIL
    while it hashes, so the event loop and the database thread go on."""

    def __init__(self, threads: int | None = None, queue: int = HASH_QUEUE) -> None:
        if threads is None:
            threads = max(1, min(HASH_THREADS, (os.cpu_count() or 2) // 2))
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="trumps-hash")
        self.limit = threads + queue
        self.pending = 0

    async def run(self, fn: Callable[[*Ts], T], *args: *Ts) -> T:
        if self.pending >= self.limit:
            raise Busy()
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        self.pool.shutdown(wait=False)


@dataclass(frozen=True)
class PlayerInfo:
    """What the room shows of a player: the display name (guests marked)."""

    id: str
    name: str
    username: str | None  # None for a guest
    created: float
    registered: float | None

    @property
    def is_account(self) -> bool:
        return self.username is not None


@lru_cache(maxsize=1)
def _hasher() -> PasswordHasher:
    """argon2id with argon2-cffi's defaults (RFC 9106's second recommended
    profile: 64 MiB, 3 passes, 4 lanes)."""
    return PasswordHasher()


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return _hasher().hash(secrets.token_urlsafe(16))


def token_id(token: str) -> str:
    """The stored identifier of a session token (its SHA-256)."""
    return hashlib.sha256(token.encode()).hexdigest()


def display_name(name: str, username_key: str | None) -> str:
    """A guest's name carries :data:`GUEST_MARK`, so nobody can pass for an account.

    >>> display_name("Ann", None), display_name("Ann", "ann")
    ('Ann (guest)', 'Ann')
    """
    return name if username_key is not None else name + GUEST_MARK


def check_username(username: str) -> str:
    """The username, or :class:`AccountError` saying what is wrong.

    >>> check_username("Ann_1")
    'Ann_1'
    >>> check_username("A")
    Traceback (most recent call last):
    ...
    trumps.room.people.accounts.AccountError: a username has 3 to 24 characters
    """
    if not 3 <= len(username) <= 24:
        raise AccountError("a username has 3 to 24 characters")
    if not USERNAME.fullmatch(username):
        raise AccountError(
            "a username is letters, digits and _ . - (starting with a letter or digit), no spaces"
        )
    if username.lower() in RESERVED:
        raise AccountError("that username is reserved; choose another")
    return username


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (slow on purpose: not on the database thread)."""
    return _hasher().hash(password)


def check_signup(username: str, password: str) -> None:
    """Refuse a bad username or password (cheap: before any hashing)."""
    check_username(username)
    _check_password(password, username)


def _check_password(password: str, username: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if password.lower() == username.lower():
        raise AccountError("the password must not be the username")


# ----- players -----------------------------------------------------------------------
def new_guest(store: Store, name: str) -> str:
    """A new guest (no chips); returns its player id."""
    return store.create_player(name)


def _info(p: Player) -> PlayerInfo:
    return PlayerInfo(
        p.id, display_name(p.name, p.username_key), p.name if p.username_key else None, p.created,
        p.registered,
    )  # fmt: skip


def player_info(store: Store, pid: str) -> PlayerInfo | None:
    with store.sessions() as s:
        p = s.get(Player, pid)
        return None if p is None else _info(p)


def player_infos(store: Store, pids: list[str]) -> dict[str, PlayerInfo]:
    """Several players at once (one query; unknown ids are left out): a
    table taken over learns its four seats in one trip to the database
    thread, which is busiest just then (trumps.room.cluster.node)."""
    if not pids:
        return {}
    with store.sessions() as s:
        return {p.id: _info(p) for p in s.scalars(select(Player).where(Player.id.in_(pids)))}


def session_player_info(store: Store, sid: str, now: float | None = None) -> PlayerInfo | None:
    """:func:`session_player` and :func:`player_info` in one trip to the
    database thread (a socket's first request on a worker needs both; a
    worker taking over tables gets hundreds of such sockets at once)."""
    with store.sessions() as s:  # one connection and transaction for both
        pid = _session_player(s, sid, time.time() if now is None else now)
        p = None if pid is None else s.get(Player, pid)
        return None if p is None else _info(p)


def find_account(store: Store, username: str) -> PlayerInfo | None:
    """The account with this username (any case), or None."""
    with store.sessions() as s:
        p = s.scalar(select(Player).where(Player.username_key == username.strip().lower()))
        if p is None:
            return None
        return PlayerInfo(p.id, p.name, p.name, p.created, p.registered)


def register(
    store: Store,
    username: str,
    password: str,
    guest: str | None = None,
    address: str | None = None,
    now: float | None = None,
    digest: str | None = None,
) -> str:
    """Make an account; with ``guest`` (the caller's guest player id), that
    guest becomes the account and keeps its games, results and chips.
    The starting chips are granted once per player; from one ``address`` at
    most :data:`REGISTRATIONS_PER_HOUR` accounts are made in an hour, so
    chips cannot be farmed by scripting sign-ups.  ``digest``: the
    password's hash, made beforehand off the database thread
    (:func:`register_async`).  Returns the player id."""
    check_signup(username, password)
    now = time.time() if now is None else now
    key = f"reg:{address[:100]}" if address is not None else None
    if key is not None:
        with store.sessions() as s:
            row = s.get(LoginFailure, key)
            if row is not None and now - row.last < 3600 and row.count >= REGISTRATIONS_PER_HOUR:
                raise Throttled(row.last + 3600 - now, "new accounts from this address")
    digest = hash_password(password) if digest is None else digest
    with store.sessions.begin() as s:
        if key is not None:
            row = s.get(LoginFailure, key)
            if row is None:
                s.add(LoginFailure(key=key, count=1, last=now))
            else:
                row.count = 1 if now - row.last >= 3600 else row.count + 1
                row.last = now
        if s.scalar(select(Player.id).where(Player.username_key == username.lower())) is not None:
            raise AccountError("that username is taken; choose another")
        p = s.get(Player, guest) if guest is not None else None
        if p is None or p.username_key is not None:  # no guest, or already an account: a new player
            p = Player(id=new_id(), name=username, created=now, chips=0, chips_granted=False)
            s.add(p)
        p.name = username
        p.username_key = username.lower()
        p.password_hash = digest
        p.registered = now
        if not p.chips_granted:
            p.chips = (p.chips or 0) + STARTING_CHIPS
            p.chips_granted = True
        return p.id


def login(store: Store, username: str, password: str, address: str, now: float | None = None) -> str:
    """The player id of the account, or :class:`AccountError` (the same
    message whether the username exists or not) / :class:`Throttled`."""
    pid, digest = login_check(store, username, address, now)
    ok = _verify(digest, password)
    rehash = hash_password(password) if ok and _needs_rehash(digest) else None
    return login_result(store, username, address, pid if ok else None, rehash, now)


async def login_async(store: Store, hashing: Hashing, username: str, password: str, address: str) -> str:
    """:func:`login`, with the verification on ``hashing``'s threads."""
    pid, digest = await store.run(login_check, store, username, address, None)
    ok = await hashing.run(_verify, digest, password)
    rehash = await hashing.run(hash_password, password) if ok and _needs_rehash(digest) else None
    return await store.run(login_result, store, username, address, pid if ok else None, rehash, None)


def _login_keys(username: str, address: str) -> list[str]:
    return [f"user:{username.strip().lower()[:100]}", f"addr:{address[:100]}"]


def login_check(
    store: Store, username: str, address: str, now: float | None = None
) -> tuple[str | None, str | None]:
    """Before a login's verification: :class:`Throttled` while its username
    or address waits after failures, else the account's id and hash (None,
    None if there is no such account)."""
    now = time.time() if now is None else now
    with store.sessions() as s:
        for key in _login_keys(username, address):
            row = s.get(LoginFailure, key)
            if row is None or now - row.last > FAILURE_MEMORY or row.count < FREE_TRIES:
                continue
            delay = min(MAX_DELAY, 2.0 ** (row.count - FREE_TRIES + 1))
            if now - row.last < delay:
                raise Throttled(row.last + delay - now)
        p = s.scalar(select(Player).where(Player.username_key == username.strip().lower()))
        return (None, None) if p is None else (p.id, p.password_hash)


def login_result(
    store: Store,
    username: str,
    address: str,
    pid: str | None,
    rehash: str | None = None,
    now: float | None = None,
) -> str:
    """After a login's verification: ``pid`` if it succeeded (its failures
    forgotten, its hash replaced by ``rehash`` if given), else the failure
    counted for its username and address, and :class:`AccountError`."""
    now = time.time() if now is None else now
    keys = _login_keys(username, address)
    with store.sessions.begin() as s:
        if pid is not None:
            s.execute(delete(LoginFailure).where(LoginFailure.key == keys[0]))
            if rehash is not None:
                s.execute(update(Player).where(Player.id == pid).values(password_hash=rehash))
            return pid
        for key in keys:
            row = s.get(LoginFailure, key)
            if row is None:
                s.add(LoginFailure(key=key, count=1, last=now))
            else:
                row.count = 1 if now - row.last > FAILURE_MEMORY else row.count + 1
                row.last = now
    raise AccountError(WRONG)


def _needs_rehash(digest: str | None) -> bool:
    return bool(digest) and _hasher().check_needs_rehash(digest or "")


async def register_async(
    store: Store,
    hashing: Hashing,
    username: str,
    password: str,
    guest: str | None = None,
    address: str | None = None,
) -> str:
    """:func:`register`, with the hashing on ``hashing``'s threads."""
    check_signup(username, password)
    digest = await hashing.run(hash_password, password)
    return await store.run(register, store, username, password, guest, address, None, digest)


def _verify(digest: str | None, password: str) -> bool:
    try:
        return _hasher().verify(digest or _dummy_hash(), password) and digest is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def change_password(store: Store, pid: str, old: str, new: str, keep: str | None = None) -> list[str]:
    """Change an account's password (the old one is checked); every other
    session of the account is revoked (all but ``keep``, a session id).
    Returns the revoked session ids."""
    name, digest = password_of(store, pid)
    if not _verify(digest, old):
        raise AccountError("the current password is wrong")
    _check_password(new, name)
    return set_password(store, pid, digest, hash_password(new), keep)


async def change_password_async(
    store: Store, hashing: Hashing, pid: str, old: str, new: str, keep: str | None = None
) -> list[str]:
    """:func:`change_password`, with the hashing on ``hashing``'s threads."""
    name, digest = await store.run(password_of, store, pid)
    if not await hashing.run(_verify, digest, old):
        raise AccountError("the current password is wrong")
    _check_password(new, name)
    new_digest = await hashing.run(hash_password, new)
    return await store.run(set_password, store, pid, digest, new_digest, keep)


def password_of(store: Store, pid: str) -> tuple[str, str]:
    """An account's name and password hash (:class:`AccountError` for a guest)."""
    with store.sessions() as s:
        p = s.get(Player, pid)
        if p is None or p.username_key is None or p.password_hash is None:
            raise AccountError("guests have no password: register first")
        return p.name, p.password_hash


def set_password(store: Store, pid: str, old_digest: str, digest: str, keep: str | None = None) -> list[str]:
    """Store a new password hash, if the old one is still ``old_digest``
    (another change meanwhile wins: this one is refused), and revoke every
    other session; returns the revoked session ids."""
    with store.sessions.begin() as s:
        done = s.execute(
            update(Player)
            .where(Player.id == pid, Player.password_hash == old_digest)
            .values(password_hash=digest)
        )
        if not getattr(done, "rowcount", 1):
            raise AccountError("the current password is wrong")
    return revoke_all(store, pid, keep=keep)


# ----- sessions ------------------------------------------------------------------------
def new_session(store: Store, pid: str, agent: str = "", account: bool = True) -> str:
    """A new session for ``pid``; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    now = time.time()
    days = SESSION_DAYS if account else GUEST_SESSION_DAYS
    with store.sessions.begin() as s:
        s.add(
            SessionRow(
                id=token_id(token), player_id=pid, created=now, seen=now, expires=now + days * 86400,
                agent=agent[:200],
            )
        )  # fmt: skip
    return token


def session_player(store: Store, sid: str, now: float | None = None) -> str | None:
    """The player of a live session (by id), or None if unknown, revoked or
    expired.  A used session is extended (sliding expiry, touched at most
    once an hour)."""
    with store.sessions() as s:
        return _session_player(s, sid, time.time() if now is None else now)


def _session_player(s: Session, sid: str, now: float) -> str | None:
    row = s.get(SessionRow, sid)
    if row is None or row.revoked is not None or row.expires <= now:
        return None
    pid = row.player_id
    if now - row.seen > 3600:
        account = s.scalar(select(Player.username_key).where(Player.id == pid)) is not None
        days = SESSION_DAYS if account else GUEST_SESSION_DAYS
        s.execute(update(SessionRow).where(SessionRow.id == sid).values(seen=now, expires=now + days * 86400))
        s.commit()
    return pid


def revoke_session(store: Store, sid: str) -> None:
    with store.sessions.begin() as s:
        s.execute(
            update(SessionRow)
            .where(SessionRow.id == sid, SessionRow.revoked.is_(None))
            .values(revoked=time.time())
        )


def revoke_all(store: Store, pid: str, keep: str | None = None) -> list[str]:
    """Revoke every live session of ``pid`` but ``keep``; returns their ids."""
    with store.sessions.begin() as s:
        q = select(SessionRow.id).where(SessionRow.player_id == pid, SessionRow.revoked.is_(None))
        ids = [i for i in s.scalars(q) if i != keep]
        if ids:
            s.execute(update(SessionRow).where(SessionRow.id.in_(ids)).values(revoked=time.time()))
        return ids
