"""WebSockets that no reader can stall: a bounded send queue per socket.

A table sends each connection its state while it holds the table (so that
every socket sees the states in order).  Awaiting a socket's write there
let one client that never reads freeze the table for everyone: once its
TCP window is full, the write waits for ever.  So :meth:`QueuedSocket.send`
only queues the message and returns; each socket has a writer task of its
own that writes the queue in order.  A socket whose queue grows past
:data:`~trumps.room.limits.SEND_QUEUE_MESSAGES` messages or
:data:`~trumps.room.limits.SEND_QUEUE_BYTES` bytes is a reader that does not
keep up: it is dropped (closed with :data:`SLOW_READER`, and cut off if the
close itself cannot be written), and every later ``send`` raises
:class:`SocketGone`, which removes it from its table, the lobby or the
personal channels (they drop a connection whose send raises).

Cutting a connection off needs the transport, which ASGI does not show:
:class:`TransportAccess` (the outermost middleware) keeps uvicorn's
``abort`` in the socket's scope.  A close frame cannot pass a full window,
and the transport's ``close`` waits for the buffer to drain, which a reader
that reads nothing never lets happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from trumps.i18n import N_
from trumps.room import wire
from trumps.room.limits import SEND_QUEUE_BYTES, SEND_QUEUE_MESSAGES, MessageBudget, SocketCount
from trumps.room.tables.messages import error_event

__all__ = [
    "ABORT_KEY",
    "CLOSE_WAIT",
    "POLICY_CLOSE",
    "SLOW_READER",
    "QueuedSocket",
    "SocketGone",
    "TransportAccess",
    "admit_socket",
    "client_messages",
]

log = logging.getLogger("trumps.room")

#: The close code of a socket dropped for not reading (a policy close, in
#: the range for applications).
SLOW_READER = 4008
#: The close code of a socket refused by a budget, or that kept sending over it.
POLICY_CLOSE = 1008
#: Seconds a close may take to be written before the connection is cut off.
CLOSE_WAIT = 2.0
#: Where :class:`TransportAccess` puts the transport's ``abort`` in a socket's scope.
ABORT_KEY = "trumps.abort"


class SocketGone(ConnectionError):
    """The socket was dropped or has closed: it takes no more messages."""


class TransportAccess:
    """ASGI middleware keeping the server's way to cut a WebSocket off
    (uvicorn's transport ``abort``) in the socket's scope.  Outermost,
    so that ``send`` is still uvicorn's own; with any other server (or
    the test client) there is none, and a dropped socket is only closed."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            abort = getattr(transport, "abort", None)
            if callable(abort):
                scope[ABORT_KEY] = abort
        await self.app(scope, receive, send)


class QueuedSocket:
    """A WebSocket written from a bounded queue by a task of its own.

    ``send`` keeps the order of messages (one writer) and never waits for
    the client; ``close`` is queued after what was sent before it."""

    def __init__(
        self,
        ws: WebSocket,
        max_messages: int = SEND_QUEUE_MESSAGES,
        max_bytes: int = SEND_QUEUE_BYTES,
    ) -> None:
        self.ws = ws
        self.max_messages = max_messages
        self.max_bytes = max_bytes
        self._queue: deque[str | int] = deque()  # texts, and a close code last
        self._bytes = 0
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._idle = False  # the writer waits for something to write
        self.gone = False  # dropped, closed, or its client went away
        self.dropped = False  # dropped for reading too slowly
        self.on_drop: Callable[[], object] | None = None  # told when dropped (e.g. to log)

    async def send(self, event: Mapping[str, object]) -> None:
        self.send_text(wire.dumps(event))

    @property
    def backlog(self) -> tuple[int, int]:
        """(messages, bytes) queued and not yet written: a sender of many
        messages at once (a replay) can pace itself by it."""
        return len(self._queue), self._bytes

    def send_text(self, text: str) -> None:
        """Queue ``text`` (raises :class:`SocketGone` once the socket is gone)."""
        if self.gone:
            raise SocketGone("the socket is closed")
        self._queue.append(text)
        self._bytes += len(text)
        if len(self._queue) > self.max_messages or self._bytes > self.max_bytes:
            self.drop()
            raise SocketGone("the socket did not read its messages: dropped")
        self._start()

    async def close(self, code: int = 1000) -> None:
        """Close after the messages already queued (cut off if that takes
        longer than :data:`CLOSE_WAIT`)."""
        if self.gone:
            return
        self.gone = True
        self._queue.append(code)
        self._start()
        asyncio.get_running_loop().call_later(CLOSE_WAIT, self._overdue)

    def drop(self) -> None:
        """Drop a reader that does not keep up: nothing more is written to it
        and it is closed with :data:`SLOW_READER` (cut off if need be)."""
        if self.dropped:
            return
        self.gone = self.dropped = True
        self._queue.clear()
        self._bytes = 0
        if self._writer is not None:
            self._writer.cancel()
        self._writer = asyncio.get_running_loop().create_task(self._close_or_abort(SLOW_READER))
        client = self.ws.client
        log.warning(
            "dropped a WebSocket that does not read (%s %s)", client.host if client else "?", self.ws.url.path
        )
        if self.on_drop is not None:
            self.on_drop()

    async def finish(self) -> None:
        """The socket's handler is done: let a queued close be written
        (for at most :data:`CLOSE_WAIT`), then stop the writer."""
        self.gone = True
        writer = self._writer
        if writer is None or writer.done():
            return
        if self._queue or not self._idle:  # something to write yet (a close, say)
            await asyncio.wait({writer}, timeout=CLOSE_WAIT)
        if not writer.done():
            writer.cancel()

    def _start(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())
        self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                while not self._queue:
                    self._wake.clear()
                    self._idle = True
                    await self._wake.wait()
                    self._idle = False
                item = self._queue.popleft()
                if isinstance(item, int):
                    self._queue.clear()
                    await self._close_or_abort(item)
                    return
                self._bytes -= len(item)
                await self.ws.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away: later sends raise, its handler cleans up
            self.gone = True
            self._queue.clear()
            self._bytes = 0

    async def _close_or_abort(self, code: int) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code=code), CLOSE_WAIT)
        except asyncio.CancelledError:
            raise
        except Exception:  # a full window (or already closed): cut it off
            self.abort()

    def _overdue(self) -> None:
        """A queued close not written in time: the client does not read."""
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            self.abort()

    def abort(self) -> None:
        """Cut the connection off (its handler then sees a disconnect)."""
        abort = self.ws.scope.get(ABORT_KEY)
        if abort is not None:
            with contextlib.suppress(Exception):
                abort()


async def admit_socket(
    ws: WebSocket, counts: SocketCount, key: str, table: str | None = None, address: str | None = None
) -> bool:
    """Count an accepted socket of ``key`` (at ``table``, from a guest's
    ``address``) in ``counts``: True if counted (``counts.close`` it with the
    same arguments when it ends), else it was refused with an error event
    and closed (:data:`POLICY_CLOSE`)."""
    refusal = counts.open(key, table, address)
    if refusal is None:
        return True
    with contextlib.suppress(Exception):
        await ws.send_text(wire.dumps(error_event(refusal)))
        await ws.close(code=POLICY_CLOSE)
    return False


#: The answer to a socket's message over its budget (trumps.room.limits.MessageBudget).
TOO_MANY_MESSAGES = N_("too many messages: slow down")


async def client_messages(
    ws: WebSocket,
    conn: QueuedSocket,
    error: Callable[[str], Mapping[str, object]] = error_event,
    shared: Callable[[], bool] | None = None,
) -> AsyncIterator[str | bytes]:
    """A socket's messages, within its budget (trumps.room.limits.MessageBudget;
    ``shared`` spends one of its person's, see SocketCount.spend): one over
    it is answered "too many messages" (an event made by ``error``: a
    table's carries its ``seq``) and dropped; a client that keeps on
    regardless is closed (:data:`POLICY_CLOSE`).  A message the room
    refuses is charged too: refusing costs a parse and an answer."""
    budget = MessageBudget(shared=shared)
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            verdict = budget.check()
            if verdict == "refuse":
                with contextlib.suppress(Exception):
                    await conn.send(error(TOO_MANY_MESSAGES))
                continue
            if verdict == "close":
                client = ws.client
                log.warning(
                    "closed a WebSocket that kept sending over its budget (%s %s)",
                    client.host if client else "?",
                    ws.url.path,
                )
                await conn.close(POLICY_CLOSE)
                return
            raw = message.get("text")
            yield raw if raw is not None else (message.get("bytes") or b"")
    except (WebSocketDisconnect, RuntimeError):  # (RuntimeError: receive after a disconnect)
        return
