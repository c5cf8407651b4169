"""Test helpers: guests with their own cookies, and WebSocket peers read by
a thread into a queue (so a test can wait for an event with a timeout, or
check that none came)."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from starlette.testclient import TestClient

COOKIE = "trumps_session"
TIMEOUT = 30.0  # generous: the machine may be busy (the waits end as soon as the event comes)


def new_guest(client: TestClient, name: str) -> str:
    """A new guest named ``name``; returns its session cookie."""
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    cookie = client.cookies.get(COOKIE)
    assert cookie is not None
    return cookie


def new_account(client: TestClient, name: str, password: str = "correct horse 1") -> str:
    """A new account ``name`` (registered from a fresh guest); returns its session cookie."""
    client.cookies.clear()
    r = client.post("/api/register", json={"username": name, "password": password})
    assert r.status_code == 201, r.text
    cookie = client.cookies.get(COOKIE)
    assert cookie is not None
    return cookie


def as_guest(client: TestClient, cookie: str | None) -> TestClient:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return client


def create_table(
    client: TestClient, cookie: str, game: str = "500", status: int = 201, **body: Any
) -> dict[str, Any]:
    r = as_guest(client, cookie).post("/api/tables", json={"game": game, **body})
    assert r.status_code == status, r.text
    return dict(r.json())


class Peer:
    """One WebSocket connection to a table."""

    def __init__(self, name: str, ws: Any) -> None:
        self.name = name
        self.ws = ws
        self.q: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.last: dict[str, Any] | None = None
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                text = self.ws.receive_text()
            except BaseException:
                self.q.put(None)
                return
            self.q.put(json.loads(text))

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps({"v": 1, **msg}))

    def get(self, timeout: float = TIMEOUT) -> dict[str, Any] | None:
        """The next event, or ``None`` once the server closed the connection."""
        if self.closed:
            return None
        try:
            ev = self.q.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.name}: nothing within {timeout}s") from None
        if ev is None:
            self.closed = True
            return None
        if ev["type"] == "state":
            self.last = ev
        return ev

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT) -> dict[str, Any]:
        """Read events until one satisfies ``pred`` (errors fail the test
        unless ``pred`` accepts them)."""
        while True:
            ev = self.get(timeout)
            assert ev is not None, f"{self.name}: connection closed"
            if pred(ev):
                return ev
            assert ev["type"] != "error", f"{self.name}: {ev['reason']}"

    def state(self, pred: Callable[[dict[str, Any]], bool] = lambda ev: True) -> dict[str, Any]:
        return self.until(lambda ev: ev["type"] == "state" and pred(ev))

    def error(self) -> str:
        ev = self.until(lambda ev: ev["type"] == "error")
        return str(ev["reason"])

    def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Every event that arrives within ``seconds``."""
        out = []
        with contextlib.suppress(AssertionError):
            while True:
                ev = self.get(seconds)
                if ev is None:
                    break
                out.append(ev)
        return out


@contextlib.contextmanager
def peer(client: TestClient, tid: str, cookie: str | None, name: str = "peer") -> Iterator[Peer]:
    as_guest(client, cookie)
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        yield Peer(name, ws)


def my_turn(ev: dict[str, Any]) -> bool:
    t, v = ev["table"], ev["view"]
    return t["status"] == "playing" and t["you"] is not None and v["to_act"] == t["you"]


def advance(client: TestClient, clock: Any, seconds: float) -> None:
    """Move a fake clock (trumps.room.tables.timers.FakeClock) on, in the app's loop."""
    assert client.portal is not None
    client.portal.call(clock.advance, seconds)
