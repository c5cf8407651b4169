"""Restart safety with a real server process: SIGKILL ``trumps serve`` in
the middle of a deal, start it again, and the table is exactly where every
client last saw it (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from browser import free_port


class Server:
    def __init__(self, db: str) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "trumps",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            "0",
        ]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/api/me", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def server(db_url: str) -> Iterator[Server]:
    s = Server(db_url)
    s.start()
    yield s
    if s.proc is not None and s.proc.poll() is None:
        s.proc.terminate()
        s.proc.wait(timeout=10)


def _state(ws: Any) -> dict[str, Any]:
    while True:
        ev = json.loads(ws.recv(timeout=20))
        if ev["type"] == "state":
            return dict(ev)
        raise AssertionError(ev)


def test_sigkill_mid_deal_loses_nothing(server: Server) -> None:
    http = httpx.Client(base_url=server.url)
    http.post("/api/guest", json={"name": "Ann"}).raise_for_status()
    cookie = f"trumps_session={http.cookies['trumps_session']}"
    table = http.post("/api/tables", json={"game": "500", "preset": "australian"}).json()
    ws_url = f"ws://127.0.0.1:{server.port}/ws/table/{table['id']}"
    with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        _state(ws)
        ws.send(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
        _state(ws)
        ws.send(json.dumps({"v": 1, "type": "fill"}))
        ev = _state(ws)
        acted = 0
        while acted < 6:  # a few of our own actions, so the deal is well under way
            if ev["view"]["to_act"] == "S" and ev["table"]["status"] == "playing" and ev["seq"] >= acted:
                ws.send(
                    json.dumps({"v": 1, "type": "act", "action": ev["view"]["legal"][-1], "seq": ev["seq"]})
                )
                acted = ev["seq"] + 1
            ev = _state(ws)
            if ev["view"]["over"]:
                break
        while ev["view"]["to_act"] != "S" and not ev["view"]["over"]:
            ev = _state(ws)
        last_seen = ev
    server.kill()
    server.start()
    with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
        again = _state(ws)
    assert again["seq"] == last_seen["seq"]
    assert again["view"] == last_seen["view"]
    assert again["table"]["you"] == "S"
