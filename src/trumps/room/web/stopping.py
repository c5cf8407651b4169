"""A worker that stops leaves its proxy's connection pool without a 502.

nginx keeps idle HTTP/1.1 connections to the workers open and sends the
next request down one of them (``keepalive`` in ``deploy/nginx``).  A
server that closes such a connection itself races the proxy: a request the
proxy sent just before the close reached it fails, and nginx passes a
failed POST to no other worker (it cannot know whether the worker acted on
it), so the player gets a 502.  uvicorn's shutdown closes every idle
connection at once, so each worker of a rolling restart could cost a
request that way (docs/benchmarks.md, multi-worker runs).

So a worker of several, once it stops (``trumps serve`` on SIGTERM), lets
the *proxy* close them:

- it accepts no new connection (a refused connect is one nginx passes to
  the next worker, POST or not);
- every HTTP response from then on says ``Connection: close``
  (:class:`CloseWhenStopping`), so a connection the proxy uses again is
  closed by the proxy after that response;
- it waits (:func:`wait_for_http_connections`, bounded) until no HTTP
  connection is left: those the proxy does not use again it closes itself
  after its idle timeout (4 s in ``deploy/nginx``, below uvicorn's 5 s for
  this very reason).

WebSockets are not waited for: the handover has told the table sockets
where to go, and uvicorn closes the rest with 1012 (the page reconnects).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CloseWhenStopping", "Stopping", "http_connections", "wait_for_http_connections"]


class Stopping:
    """Whether this worker is leaving its proxy's pool (set once, never cleared)."""

    def __init__(self) -> None:
        self.now = False


class CloseWhenStopping:
    """ASGI middleware: once ``stopping.now``, every HTTP response closes its connection."""

    def __init__(self, app: ASGIApp, stopping: Stopping) -> None:
        self.app = app
        self.stopping = stopping

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and self.stopping.now:
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, send_closing)


def http_connections(connections: Iterable[object]) -> int:
    """How many of a uvicorn server's connections are plain HTTP ones (a
    request/response cycle, idle or not), WebSockets left out."""
    return sum(1 for c in connections if hasattr(c, "cycle"))


async def wait_for_http_connections(
    connections: Iterable[object], limit: float, forced: Callable[[], bool], poll: float = 0.05
) -> bool:
    """Wait until ``connections`` (uvicorn's live set) holds no HTTP
    connection, ``limit`` seconds at most, or until ``forced()`` (a second
    Ctrl-C).  True when none is left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while http_connections(connections):
        if forced() or loop.time() >= deadline:
            return False
        await asyncio.sleep(poll)
    return True
