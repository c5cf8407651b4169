"""Budgets: how much one person may ask of the room.

Every budget is a token bucket (:class:`Bucket`): it holds up to ``burst``
tokens, gains ``rate`` tokens a second, and each request takes one; an empty
bucket refuses, and says how long until the next token.  A :class:`Budget`
keeps one bucket per *key* (a person: ``"a:<player id>"`` for an account,
``"ip:<address>"`` for a guest or nobody, see :func:`person_key`), forgets
full buckets so that memory stays bounded, and takes an injectable clock so
that tests need not sleep.

Why buckets: a person's ordinary use comes in bursts (a sign-up page
tried three times, a family sitting down together behind one address), and
a bucket lets a burst through at once while a script that keeps going is
held to ``rate``.  Budgets live in each worker's memory: several workers
each count on their own, so a cluster of N workers allows up to N times
each rate (the proxy spreads one person's requests); that is still a
fixed bound per person, which is what the room needs.

The numbers (and why each was chosen) are the constants below; the table
of them is in docs/room.md, "Limits".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from trumps.i18n import N_

__all__ = [
    "BODY_LIMIT",
    "GUEST_BURST",
    "GUEST_RATE",
    "HASH_QUEUE",
    "HASH_THREADS",
    "MESSAGE_BURST",
    "MESSAGE_RATE",
    "PASSWORD_BURST",
    "PASSWORD_RATE",
    "SEND_QUEUE_BYTES",
    "SEND_QUEUE_MESSAGES",
    "SOCKETS_PER_PERSON",
    "SOCKETS_PER_TABLE",
    "STRIKE_BURST",
    "STRIKE_RATE",
    "WS_MAX_SIZE",
    "BodyLimit",
    "Bucket",
    "Budget",
    "MessageBudget",
    "SocketCount",
    "person_key",
]

HOUR = 3600.0
_K = TypeVar("_K")

#: Messages waiting to be written to one socket before it is dropped as a
#: reader too slow (or unwilling) to keep up.  A table sends one state per
#: action; a reconnect's replay is up to ``MAX_REPLAY`` (120) states written
#: at once (table.py).  1,024 covers such a replay, many times over, and the table's moves
#: meanwhile; a page that reads at all never gets near it.
SEND_QUEUE_MESSAGES = 1024
#: ... or bytes waiting (a state is 1-5 KB; 4 MB is ~1,000 states): a
#: socket that reads nothing is dropped before it holds more of the
#: server's memory than that.
SEND_QUEUE_BYTES = 4 * 1024 * 1024

#: The largest request body read (bytes; 413 beyond).  The largest the room
#: accepts is 16 KB (a new table's options and settings, app.py); 64 KB
#: leaves room for that and refuses a 300 MB upload at its first bytes.
BODY_LIMIT = 64 * 1024
#: The largest WebSocket message read (bytes; uvicorn closes the socket with
#: 1009 beyond).  A client's messages are checked against 4 KB
#: (messages.py); a chat line of 500 characters in JSON is under 3 KB.
WS_MAX_SIZE = 16 * 1024

#: Messages one socket may send: ``MESSAGE_BURST`` at once, then
#: ``MESSAGE_RATE`` a second.  A person clicks a few times a second.  A
#: message the room refuses (an ``error`` answer) is charged like any
#: other: refusing it costs a parse and an answer, and 32 sockets sending
#: refused messages as fast as they could were answered 22,000 times a
#: second while another player's moves at the same table waited up to a
#: second.
MESSAGE_RATE = 30.0
MESSAGE_BURST = 120
#: ... and all of one person's sockets together (``PERSON_MESSAGE_*``: a
#: player with a table, the lobby and the personal channel open in a few
#: tabs sends far less), and all the guests' (and visitors') sockets of one
#: address together (``ADDRESS_MESSAGE_*``: twenty players behind one
#: address), so that opening more sockets or making more guests buys no
#: more messages.  Accounts are not counted by address.
PERSON_MESSAGE_RATE = 60.0
PERSON_MESSAGE_BURST = 240
ADDRESS_MESSAGE_RATE = 300.0
ADDRESS_MESSAGE_BURST = 1200
#: Messages over the budget a socket may send before it is closed (1008):
#: they are answered (``too many messages``), and a client that keeps on
#: regardless is closed.  120 at once, then 3 a second forgiven.
STRIKE_RATE = 3.0
STRIKE_BURST = 120

#: Sockets one person may hold open at one table (page tabs; a table page
#: has one table socket) and in all (each page also has a lobby and a
#: personal socket).  8 tabs on one table is more than anyone watches; 64
#: sockets are ~20 open pages.  Counted per player (guest or account), so a
#: household's guests behind one address each have their own.
SOCKETS_PER_TABLE = 8
SOCKETS_PER_PERSON = 64
#: ... and all the guests (and visitors) of one address together: guests are
#: free to make (``GUEST_BURST`` at once), so without this one address could
#: hold ``GUEST_BURST`` x ``SOCKETS_PER_PERSON`` sockets.  256 is a class of
#: twenty behind one address with a dozen pages each.  Accounts are not
#: counted here: an account is a person of its own.
SOCKETS_PER_ADDRESS = 256

#: Tables one person may host that have not ended (waiting or playing), on
#: one worker: a player needs one or two (and a few scheduled ones); one
#: guest made 1,000 in 12 s, 21 KB of the worker's memory each, until the
#: abandonment timer closed them 5 minutes later.  Play tables (made by
#: the matchmaker) and tournament deals (made by the room) are not counted.
TABLES_PER_HOST = 8

#: New guests one address may make: ``GUEST_BURST`` at once (a family or a
#: class behind one address sits down together), then ``GUEST_RATE`` an
#: hour.  Guests cost a stored player each, and since chat and suggestion
#: budgets are per address for guests, more guests buy no more of those.
GUEST_BURST = 20
GUEST_RATE = 30 / HOUR

#: Password attempts (sign-ups and logins, counted before any hashing) one
#: address may make: 10 at once, then one every 2 minutes.  Each costs an
#: argon2id hash (64 MiB, ~50-100 ms of a core); failed logins are also
#: throttled per username (accounts.FREE_TRIES).
PASSWORD_BURST = 10
PASSWORD_RATE = 30 / HOUR

#: Threads hashing passwords (off the database thread): at most 2, and at
#: most half the machine's cores, so hashing never takes every core from the
#: tables.  ``HASH_QUEUE`` hashes may wait; beyond, the answer is 503.
HASH_THREADS = 2
HASH_QUEUE = 8


def person_key(player: str | None, account: bool, address: str | None) -> str:
    """Whose budget a request or socket spends: an account's own
    (``a:<player id>``), else its address's (``ip:<address>``).  Guests
    are free to make, so a guest's identity is no limit: its address is.

    >>> person_key("p1", True, "10.0.0.1"), person_key("g1", False, "10.0.0.1")
    ('a:p1', 'ip:10.0.0.1')
    """
    if account and player is not None:
        return f"a:{player}"
    return f"ip:{address or '?'}"


@dataclass
class Bucket:
    """``burst`` tokens at most, ``rate`` more a second."""

    rate: float
    burst: float
    tokens: float
    at: float

    def refill(self, now: float) -> None:
        if now > self.at:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, now: float, n: float = 1.0) -> float:
        """Take ``n`` tokens: 0.0 if taken, else the seconds until they are there."""
        self.refill(now)
        if self.tokens >= n:
            self.tokens -= n
            return 0.0
        return (n - self.tokens) / self.rate if self.rate > 0 else float("inf")


@dataclass
class Budget:
    """A bucket per key.  ``take(key)`` spends one token of ``key``'s
    bucket: 0.0 if allowed, else the seconds to wait (a ``Retry-After``).

    Full buckets are forgotten (a new one starts full anyway), looked for
    once the takes since the last look reach half the buckets kept, so a
    stream of distinct keys (addresses) holds memory only for those still
    spending, at a constant cost per take."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, Bucket] = field(default_factory=dict)
    _takes: int = 0

    def take(self, key: str, n: float = 1.0) -> float:
        now = self.clock()
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = Bucket(self.rate, self.burst, float(self.burst), now)
        wait = b.take(now, n)
        self._takes += 1
        if self._takes >= max(64, len(self.buckets) // 2):  # amortised: O(1) a take
            self._forget(now)
        return wait

    def _forget(self, now: float) -> None:
        self._takes = 0
        for key, b in list(self.buckets.items()):
            b.refill(now)
            if b.tokens >= b.burst:
                del self.buckets[key]


def _person_messages() -> Budget:
    # the constants are read when a count is made: tests patch them
    return Budget(PERSON_MESSAGE_RATE, PERSON_MESSAGE_BURST)


def _address_messages() -> Budget:
    return Budget(ADDRESS_MESSAGE_RATE, ADDRESS_MESSAGE_BURST)


@dataclass
class SocketCount:
    """Open sockets per person, per table and in all: :meth:`open` says
    why a new one is refused (None: counted; call :meth:`close` after).
    The messages a person's sockets, and a guests' address's, send together
    are spent with :meth:`spend` (the same key and address)."""

    per_table: int = SOCKETS_PER_TABLE
    per_person: int = SOCKETS_PER_PERSON
    per_address: int = SOCKETS_PER_ADDRESS
    tables: dict[tuple[str, str], int] = field(default_factory=dict)
    people: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, int] = field(default_factory=dict)
    person_messages: Budget = field(default_factory=_person_messages)
    address_messages: Budget = field(default_factory=_address_messages)

    def spend(self, key: str, address: str | None = None) -> bool:
        """Spend a message of ``key``'s sockets (and of ``address``'s
        guests'): False if over either shared budget."""
        if self.person_messages.take(key) > 0.0:
            return False
        return address is None or self.address_messages.take(address) == 0.0

    def spender(self, key: str, address: str | None = None) -> Callable[[], bool]:
        """:meth:`spend` for one socket's messages (a ``MessageBudget``'s ``shared``)."""
        return lambda: self.spend(key, address)

    def open(self, key: str, table: str | None = None, address: str | None = None) -> str | None:
        """Count a socket of ``key`` (at ``table``; a guest's or nobody's
        also against its ``address``, an account's not: pass None)."""
        if self.people.get(key, 0) >= self.per_person:
            return N_("too many open connections: close some of your pages")
        if address is not None and self.addresses.get(address, 0) >= self.per_address:
            return N_("too many open connections: close some of your pages")
        if table is not None and self.tables.get((key, table), 0) >= self.per_table:
            return N_("too many connections to this table: close some of its pages")
        self.people[key] = self.people.get(key, 0) + 1
        if address is not None:
            self.addresses[address] = self.addresses.get(address, 0) + 1
        if table is not None:
            self.tables[key, table] = self.tables.get((key, table), 0) + 1
        return None

    def close(self, key: str, table: str | None = None, address: str | None = None) -> None:
        """Release what :meth:`open` counted (the same arguments)."""
        _drop(self.people, key)
        if address is not None:
            _drop(self.addresses, address)
        if table is not None:
            _drop(self.tables, (key, table))


def _drop(counts: dict[_K, int], key: _K) -> None:
    n = counts.get(key, 0) - 1
    if n > 0:
        counts[key] = n
    else:
        counts.pop(key, None)


class MessageBudget:
    """One socket's budget of messages: :meth:`check` says ``"ok"``,
    ``"refuse"`` (over :data:`MESSAGE_RATE`, or ``shared`` said no: the
    budget of every socket of its person or guests' address, see
    :meth:`SocketCount.spend`; answer "too many messages" and ignore the
    message) or ``"close"`` (it kept on regardless: more than
    :data:`STRIKE_BURST` refusals beyond :data:`STRIKE_RATE` a second)."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, shared: Callable[[], bool] | None = None
    ) -> None:
        self.clock = clock
        self.shared = shared
        now = clock()
        self.messages = Bucket(MESSAGE_RATE, MESSAGE_BURST, MESSAGE_BURST, now)
        self.strikes = Bucket(STRIKE_RATE, STRIKE_BURST, STRIKE_BURST, now)

    def check(self) -> str:
        now = self.clock()
        if self.messages.take(now) == 0.0 and (self.shared is None or self.shared()):
            return "ok"
        return "refuse" if self.strikes.take(now) == 0.0 else "close"


class BodyLimit:
    """ASGI middleware refusing a request body over ``limit`` bytes (413)
    as it arrives: at once by its ``Content-Length`` (the server never
    passes more than that), or, for a chunked body, as soon as the bytes
    read pass the limit.  Nothing over the limit is ever held in memory
    (a 300 MB body was read whole before the route's own 16 KB check)."""

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        length = headers.get(b"content-length")
        if length is not None:
            if not length.strip().isdigit() or int(length) > self.limit:
                await self.refuse(send)
                return
            await self.app(scope, receive, send)
            return
        if b"chunked" not in headers.get(b"transfer-encoding", b"").lower():
            await self.app(scope, receive, send)
            return
        early: list[Message] = []  # the whole (small) body, read before the app runs
        size = 0
        while True:
            message = await receive()
            early.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.limit:
                await self.refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return early.pop(0) if early else await receive()

        await self.app(scope, replay, send)

    async def refuse(self, send: Send) -> None:
        body = f'{{"error": "request too large: at most {self.limit} bytes"}}'.encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),  # the rest of the body is not read
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
