"""A room on several real worker processes for the cluster tests and the
load benchmark: ``python -m trumps serve`` per worker on one PostgreSQL
database, optionally nginx (the shipped configuration) in front, and
asyncio table clients that play from their own view, reconnect with
``?since=`` and record every event they get."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from browser import free_port

__all__ = ["Client", "Worker", "lock_holder", "new_guest"]


class Worker:
    """One ``trumps serve`` process."""

    def __init__(
        self,
        db: str,
        bot_delay: float = 0.0,
        port: int | None = None,
        name: str | None = None,
        limits: tuple[str, ...] = ("--trusted-proxies", "127.0.0.1", "--unmetered", "127.0.0.1"),
    ) -> None:
        self.db = db
        # behind the tests' nginx as in deploy/ (its X-Forwarded-For believed);
        # every test client is on this machine: no per-address budgets
        self.limits = limits
        self.name = name  # --worker-name (for the proxy's table-socket routing)
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.said: list[str] = []  # the stderr of its earlier processes (before restarts)

    def start(self, wait: bool = True) -> Worker:
        if self.proc is not None and self.proc.poll() is not None:  # a restart: keep what it said
            self.said.append(self.stderr())
        cmd = [sys.executable, "-m", "trumps", "serve", "--port", str(self.port), "--db", self.db,
               "--bot-delay", str(self.bot_delay), *self.limits]  # fmt: skip
        if self.name is not None:
            cmd += ["--worker-name", self.name]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"worker exited: {err[-2000:]}")
            try:
                if httpx.get(self.url + "/api/me", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("worker did not start")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, timeout: float = 30) -> None:
        """A normal stop (SIGTERM): the worker hands its tables over."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stderr(self) -> str:
        if self.proc is None or self.proc.stderr is None or self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")


def lock_holder(db: str, tid: str, column: str) -> Any:
    """``column`` of ``pg_stat_activity`` (``pid``, ``client_port``) of the
    session holding table ``tid``'s advisory lock (None: nobody)."""
    from sqlalchemy import create_engine, text

    assert column in ("pid", "client_port")
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return conn.execute(
                text(
                    f"SELECT a.{column} FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                    "WHERE l.locktype='advisory' AND l.objsubid=1 AND l.granted "
                    "AND l.classid::bigint = ((hashtextextended(:t,0) >> 32) & 4294967295) "
                    "AND l.objid::bigint = (hashtextextended(:t,0) & 4294967295)"
                ),
                {"t": tid},
            ).scalar()
    finally:
        engine.dispose()


def new_guest(base: str, name: str) -> str:
    """A guest's session cookie value (made through ``base``)."""
    with httpx.Client(base_url=base, timeout=10) as http:
        http.post("/api/guest", json={"name": name}).raise_for_status()
        return str(http.cookies["trumps_session"])


@dataclass
class Client:
    """A seated player (or spectator) that plays random legal actions from
    its own view and reconnects (round robin over ``bases``) when the
    socket drops, asking for what it missed."""

    name: str
    cookie: str
    bases: list[str]  # ws://host:port of the proxy, or of each worker
    tid: str
    seat: str | None = None
    think: float = 0.02
    passive: bool = False  # sits but never acts (its move timer runs out)
    # the loopback address it connects from (127.0.0.0/8 is all this machine):
    # a player of its own, as on its own machine, for the room's per-person
    # budgets, which are per address for guests (one replay per 3 s among all
    # the guests of an address: Table.catch_up); None: the default, 127.0.0.1
    address: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    sent: list[tuple[int, str]] = field(default_factory=list)  # (seq the action should get, action)
    reconnects: int = 0
    drops: list[tuple[float, Any]] = field(default_factory=list)  # (when, close code or error)
    last_seq: int | None = None
    state_times: list[tuple[float, int]] = field(default_factory=list)  # (monotonic, seq)
    # as the table page: told the owner (a "route" event), connect again with
    # ?worker= it, once per worker named; forget a named worker it cannot reach
    follow_routes: bool = True
    routes: list[tuple[float, str]] = field(default_factory=list)  # (monotonic, worker named)
    route_to: str | None = None
    _route_tried: str | None = None
    _rerouting: bool = False
    _you: str | None = None  # the seat the last state showed as this client's
    _turn: int = 0

    async def run(self, stop: asyncio.Event, rng: random.Random) -> None:
        while not stop.is_set():
            base = self.bases[self._turn % len(self.bases)]
            self._turn += 1
            query = {} if self.last_seq is None else {"since": self.last_seq}
            if self.route_to is not None:
                query["worker"] = self.route_to
            url = f"{base}/ws/table/{self.tid}" + (f"?{urlencode(query)}" if query else "")
            opened = False
            try:
                local = {} if self.address is None else {"local_addr": (self.address, 0)}
                async with websockets.connect(
                    url, additional_headers={"Cookie": f"trumps_session={self.cookie}"}, open_timeout=5,
                    max_size=None, **local,
                ) as ws:  # fmt: skip
                    opened = True
                    if self.route_to is None:  # as the page: may be told any owner again
                        self._route_tried = None
                    await self._session(ws, stop, rng)
            except websockets.ConnectionClosed as exc:
                self.drops.append((time.monotonic(), exc.rcvd.code if exc.rcvd else None))
                if exc.rcvd is not None and exc.rcvd.code == 1012 and not self._rerouting:
                    self.route_to = None  # as the page: the worker is going away, not by name again
            except websockets.InvalidStatus as exc:
                self.drops.append((time.monotonic(), f"HTTP {exc.response.status_code}"))
            except (OSError, TimeoutError) as exc:
                self.drops.append((time.monotonic(), type(exc).__name__))
            if stop.is_set():
                return
            if not opened and self.route_to is not None:
                self.route_to = None  # the named worker is gone: any worker, at once
                self._rerouting = True
            self.reconnects += 1
            if self._rerouting:
                self._rerouting = False
                continue
            await asyncio.sleep(0.2)

    async def _session(self, ws: Any, stop: asyncio.Event, rng: random.Random) -> None:
        # sit until a state shows the seat taken (a sit sent on a socket that
        # was then moved to the table's worker may not have been applied)
        if self.seat is not None and self._you != self.seat:
            await ws.send(json.dumps({"v": 1, "type": "sit", "seat": self.seat}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            ev = json.loads(raw)
            self.events.append(ev)
            if ev.get("type") == "route" and self.follow_routes:
                self.routes.append((time.monotonic(), ev["worker"]))
                if ev["worker"] != self._route_tried:
                    self._route_tried = self.route_to = ev["worker"]
                    self._rerouting = True
                    return  # closes the socket: connect again, to that worker
            if ev.get("type") != "state":
                continue
            self.last_seq = ev["seq"]
            self._you = ev["table"]["you"]
            self.state_times.append((time.monotonic(), ev["seq"]))
            v = ev["view"]
            mine = self.seat is not None and v.get("to_act") == self.seat and not self.passive
            if ev["table"]["status"] == "playing" and mine:
                await asyncio.sleep(self.think)
                # low calls only: a random 10NT going set would end a 500 game in one deal
                legal = v["legal"][:3] if v.get("phase") == "AUCTION" else v["legal"]
                action = rng.choice(legal)
                self.sent.append((ev["seq"] + 1, action))
                await ws.send(json.dumps({"v": 1, "type": "act", "action": action, "seq": ev["seq"]}))

    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events if e.get("type") == "state"]
