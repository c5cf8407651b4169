"""One store, one truth (issue 29, items 10 and 12).

10. A second ``trumps serve`` on the SQLite database of a running one is
    refused however the file is named (``?timeout=5``, a symlink, a hard link,
    a relative path): the lock is on the database file itself; the first
    server, and SQLite in other processes, go on.
12. A database file deleted, replaced or unwritable under a running server
    stops every write at once with a clear error (an ``error`` event, a 503),
    logged once; nothing is acknowledged that is not stored.  On PostgreSQL a
    lost connection is retried on a new one; a database that cannot be
    reached (dropped) fails the write clearly, logged once.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from websockets.sync.client import connect

from trumps.room.storage.db import GONE, UNREACHABLE
from trumps.room.web.app import create_app

sys.path.insert(0, str(Path(__file__).parent.parent))
from browser import free_port
from cluster_harness import Worker, new_guest
from test_kill import _state
from test_room import _sit_and_fill, create, guest

from conftest import fresh_database


def act(ev: dict[str, Any]) -> str:
    return json.dumps({"v": 1, "type": "act", "action": ev["view"]["legal"][0], "seq": ev["seq"]})


def reply(ws: Any) -> dict[str, Any]:
    """The next message (a refusal; a state here would be an acknowledged act)."""
    ev: dict[str, Any] = json.loads(ws.receive_text())
    return ev


# ----- item 10: one server per SQLite file ------------------------------------------------------
def second_server(db: str, cwd: Path) -> tuple[int, str, str]:
    """``trumps serve`` on ``db`` while another serves it: exit code, stdout,
    stderr.  One that starts (prints its URL) is stopped and fails the test."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "trumps", "serve", "--db", db, "--port", str(free_port())],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()  # the startup line, or "" when it exits first
    if first:
        proc.terminate()
        proc.communicate(timeout=30)
        pytest.fail(f"a second server started on {db}: {first.strip()}")
    out, err = proc.communicate(timeout=60)
    return proc.returncode, first + out, err


def test_a_second_server_on_the_same_sqlite_file_is_refused_however_it_is_named(tmp_path: Path) -> None:
    path = tmp_path / "room.db"
    first = Worker(f"sqlite:///{path}").start()
    try:
        (tmp_path / "link.db").symlink_to(path)
        os.link(path, tmp_path / "hard.db")
        (tmp_path / "sub").mkdir()
        spellings = {
            "the same": f"sqlite:///{path}",
            "a query": f"sqlite:///{path}?timeout=5",
            "a symlink": f"sqlite:///{tmp_path / 'link.db'}",
            "a hard link": f"sqlite:///{tmp_path / 'hard.db'}",
            "a relative path": "sqlite:///sub/../room.db",
        }
        for how, db in spellings.items():
            code, out, err = second_server(db, tmp_path)
            lines = err.strip().splitlines()
            assert code != 0, how
            assert len(lines) == 1, (how, err)
            assert lines[0].startswith("trumps: error: another trumps serve is already using"), (how, err)
            assert "http://" not in out, how
        # the first goes on serving, and its lock (flock) does not stop SQLite's
        # own (POSIX) locks: another process reads and writes the file meanwhile
        with httpx.Client(base_url=first.url, timeout=10) as http:
            assert http.post("/api/guest", json={"name": "Ann"}).status_code == 200
            made = http.post("/api/tables", json={"game": "500"})
            assert made.status_code == 201, made.text
            con = sqlite3.connect(path, timeout=10)
            with con:
                con.execute("INSERT INTO meta (key, value) VALUES ('probe', 'x')")
            with con:
                con.execute("DELETE FROM meta WHERE key = 'probe'")
            assert con.execute("SELECT count(*) FROM tables").fetchone() == (1,)
            con.close()
            assert [t["id"] for t in http.get("/api/tables").json()] == [made.json()["id"]]
    finally:
        first.stop()
    assert "Traceback" not in first.stderr()
    assert not (tmp_path / "room.db.lock").exists()  # the old lock file beside it is gone


# ----- item 12: a lost or unwritable database --------------------------------------------------
def lose(path: Path, how: str) -> None:
    """Take the database file away from under the server."""
    if how == "replaced":  # e.g. a backup restored over it while it runs
        shutil.copy(path, path.with_suffix(".copy"))
        os.replace(path.with_suffix(".copy"), path)
        return
    for f in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        f.unlink()
    if how == "a directory":
        path.mkdir()


@pytest.mark.parametrize("how", ["deleted", "replaced", "a directory"])
def test_a_lost_database_file_stops_every_write(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "room.db"
    with TestClient(create_app(f"sqlite:///{path}", bot_delay=0)) as client:
        guest(client, "Ann")
        t = create(client)
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ev = _sit_and_fill(ws)
            lose(path, how)
            with caplog.at_level(logging.CRITICAL, logger="trumps.room"):
                ws.send_text(act(ev))
                refused = reply(ws)
                assert refused["type"] == "error", refused  # not a state: nothing acknowledged
                assert refused["reason"] == GONE
                renamed = client.post("/api/guest", json={"name": "Bea"})
                assert (renamed.status_code, renamed.json()) == (503, {"error": GONE})
                ws.send_text(json.dumps({"v": 1, "type": "chat", "text": "hello?"}))
                assert reply(ws)["reason"] == GONE
                ws.send_text(act(ev))
                assert reply(ws)["reason"] == GONE
                ws.send_text(json.dumps({"v": 1, "type": "hello"}))
                after = recv_state_of(ws)
            assert after["seq"] == ev["seq"]  # the room shows nothing it did not store
            assert client.get("/api/me").status_code == 200  # reads go on
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.CRITICAL]
    assert len(said) == 1, said  # loud, once
    assert str(path) in said[0] and "stops accepting moves" in said[0]


def recv_state_of(ws: Any) -> dict[str, Any]:
    while True:
        ev: dict[str, Any] = json.loads(ws.receive_text())
        if ev["type"] == "state":
            return ev


def test_an_unwritable_database_stops_every_write_and_loses_nothing(tmp_path: Path) -> None:
    """As root ``chmod a-w`` does not stop a write; a full disk is simulated
    with a file size limit on the server process (every write past the first
    byte of any file fails with EFBIG, which SQLite reports as a failed write).
    Lifting the limit does not bring writes back: the server's memory may be
    ahead of the file, so it takes no more writes until it is restarted, and
    the restarted server is exactly where the players last saw it."""
    server = Worker(f"sqlite:///{tmp_path / 'room.db'}").start()
    try:
        cookie = "trumps_session=" + new_guest(server.url, "Ann")
        with httpx.Client(base_url=server.url, timeout=10, headers={"Cookie": cookie}) as http:
            tid = http.post("/api/tables", json={"game": "500"}).json()["id"]
            ws_url = f"ws://127.0.0.1:{server.port}/ws/table/{tid}"
            with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
                for message in ({"type": "sit", "seat": "S"}, {"type": "fill"}):
                    ws.send(json.dumps({"v": 1, **message}))
                ev = _state(ws)
                while ev["view"]["to_act"] != "S" or ev["table"]["status"] != "playing":
                    ev = _state(ws)
                assert server.proc is not None
                _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
                resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (1, hard))
                ws.send(act(ev))
                refused = json.loads(ws.recv(timeout=20))
                assert (refused["type"], refused.get("reason")) == ("error", GONE), refused
                renamed = http.post("/api/guest", json={"name": "Bea"})
                assert (renamed.status_code, renamed.json()) == (503, {"error": GONE})
                resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
                ws.send(act(ev))  # the disk has room again: still refused until a restart
                assert json.loads(ws.recv(timeout=20)).get("reason") == GONE
        server.kill()
        server.start()
        with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
            again = _state(ws)
        assert (again["seq"], again["view"]) == (ev["seq"], ev["view"])
        with httpx.Client(base_url=server.url, timeout=10, headers={"Cookie": cookie}) as http:
            assert http.get("/api/me").json()["name"].startswith("Ann")
    finally:
        server.stop()
    said = "\n".join([*server.said, server.stderr()])
    assert said.count("stops accepting moves") == 1, said
    assert "Traceback" not in said, said


# ----- item 12 on PostgreSQL ------------------------------------------------------------------
@pytest.fixture
def store_pg(pg_url: str) -> Iterator[tuple[str, Any]]:
    """A fresh database and an administrator's engine on its server (to cut it off)."""
    db = fresh_database(pg_url)
    admin = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    yield db, admin
    admin.dispose()


def test_a_lost_postgresql_database_fails_writes_clearly(
    store_pg: tuple[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    db, admin = store_pg
    name = db.rsplit("/", 1)[1]
    with TestClient(create_app(db, bot_delay=0, cluster=False)) as client:
        guest(client, "Ann")
        t = create(client)
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ev = _sit_and_fill(ws)
            with caplog.at_level(logging.WARNING, logger="trumps.room"):
                with admin.connect() as conn:  # every connection of the room is cut
                    conn.execute(
                        text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :d"),
                        {"d": name},
                    )
                ws.send_text(act(ev))  # retried on a new connection: stored, then shown
                ev = recv_state_of(ws)
                while ev["view"]["to_act"] != "S":
                    ev = recv_state_of(ws)
                with admin.connect() as conn:
                    conn.execute(text(f"DROP DATABASE {name} WITH (FORCE)"))
                ws.send_text(act(ev))
                refused = reply(ws)
                assert (refused["type"], refused.get("reason")) == ("error", UNREACHABLE), refused
                ws.send_text(json.dumps({"v": 1, "type": "hello"}))
                assert recv_state_of(ws)["seq"] == ev["seq"]  # nothing acknowledged
                for _ in range(2):
                    renamed = client.post("/api/guest", json={"name": "Bea"})
                    assert (renamed.status_code, renamed.json()) == (503, {"error": UNREACHABLE})
    # once per outage, not once per request: each one cut the connections (the writes
    # went again on new ones); after the drop no new one could be made
    said = [r.getMessage() for r in caplog.records]
    assert sum("connection was lost" in m for m in said) == 2, said
    assert sum("cannot be reached" in m for m in said) == 1, said
