"""trumps.room.web.stopping: a stopping worker's responses close their
connections, and it waits (bounded) for its HTTP connections to go."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from trumps.room.web.stopping import CloseWhenStopping, Stopping, http_connections, wait_for_http_connections


def app(stopping: Stopping) -> Starlette:
    async def hello(_request: Any) -> PlainTextResponse:
        return PlainTextResponse("hi", headers={"Connection": "keep-alive"})

    return Starlette(
        routes=[Route("/", hello, methods=["GET", "POST"])],
        middleware=[Middleware(CloseWhenStopping, stopping=stopping)],
    )


def test_responses_close_their_connection_only_once_stopping() -> None:
    stopping = Stopping()
    with TestClient(app(stopping)) as client:
        assert client.get("/").headers["connection"] == "keep-alive"
        stopping.now = True
        for method in ("GET", "POST"):
            r = client.request(method, "/")
            assert r.status_code == 200 and r.text == "hi"
            # the app's own Connection header is replaced, not doubled
            assert r.headers.get_list("connection") == ["close"]


class Http:
    """Stands in for uvicorn's HTTP protocol objects (they have a ``cycle``)."""

    cycle = None


class Ws:
    """...and its WebSocket ones (they do not)."""


def test_only_http_connections_are_counted() -> None:
    assert http_connections([Http(), Ws(), Http()]) == 2
    assert http_connections([Ws()]) == 0


def test_the_wait_ends_when_the_last_http_connection_goes() -> None:
    conns: set[object] = {Http(), Ws()}

    async def run() -> tuple[bool, float]:
        t0 = time.monotonic()
        loop = asyncio.get_running_loop()
        loop.call_later(0.2, lambda: conns.difference_update([c for c in conns if isinstance(c, Http)]))
        done = await wait_for_http_connections(conns, 5.0, lambda: False, poll=0.01)
        return done, time.monotonic() - t0

    done, took = asyncio.run(run())
    assert done and 0.15 < took < 1.0  # not before the connection went, nor the whole limit


def test_the_wait_is_bounded_and_can_be_forced() -> None:
    conns = {Http()}
    t0 = time.monotonic()
    assert not asyncio.run(wait_for_http_connections(conns, 0.2, lambda: False, poll=0.01))
    assert 0.15 < time.monotonic() - t0 < 1.0
    t0 = time.monotonic()
    assert not asyncio.run(wait_for_http_connections(conns, 30.0, lambda: True, poll=0.01))
    assert time.monotonic() - t0 < 0.5
    assert asyncio.run(wait_for_http_connections({Ws()}, 30.0, lambda: False))
