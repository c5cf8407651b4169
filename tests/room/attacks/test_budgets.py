"""Issue 29, items 1, 3, 4 and 5: no client can slow, freeze or break what
others see.  Each test is one attack the issue measured, made again: a
spectator that never reads, a flood of sockets or messages, huge bodies and
frames, password hashing and guests in bulk, a forged X-Forwarded-For."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from argon2 import PasswordHasher
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from trumps.room.limits import (
    GUEST_BURST,
    MESSAGE_BURST,
    PASSWORD_BURST,
    PERSON_MESSAGE_BURST,
    SEND_QUEUE_MESSAGES,
    SOCKETS_PER_TABLE,
)
from trumps.room.tables.table import ADDRESS_SHARE, CHAT_BURST
from trumps.room.web.app import create_app

sys.path.insert(0, str(Path(__file__).parent.parent))
from cluster_harness import Worker
from cluster_harness import new_guest as guest_cookie
from peers import new_account, new_guest, peer

COOKIE = "trumps_session"
STATES = SEND_QUEUE_MESSAGES * 2  # the watcher's states: the slow socket's queue has overflowed by then


@pytest.fixture
def budgets_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'room.db'}", bot_delay=0.0)) as client:
        yield client


@pytest.fixture
def budgets_server(tmp_path: Path) -> Iterator[Worker]:
    """``trumps serve`` on SQLite, with its budgets as deployed (no address
    unmetered, no proxy trusted), bots quick."""
    w = Worker(f"sqlite:///{tmp_path / 'room.db'}", bot_delay=0.0, limits=())
    w.start()
    yield w
    w.stop()


def new_table(base: str, cookie: str, game: str = "500", **options: Any) -> str:
    """A new table (its host is the guest of ``cookie``)."""
    with httpx.Client(base_url=base, timeout=10, cookies={COOKIE: cookie}) as http:
        r = http.post("/api/tables", json={"game": game, "options": options})
        assert r.status_code == 201, r.text
        return str(r.json()["id"])


# ----- item 1: a spectator that never reads ------------------------------------------------
def test_a_spectator_that_never_reads_is_dropped_and_the_table_goes_on(budgets_server: Worker) -> None:
    """A spectator socket that reads nothing (a tiny receive buffer, never
    read) while four bots play a long game at full speed: the table keeps
    sending the other watcher its states (STATES of them), and the server
    drops the slow socket once SEND_QUEUE_MESSAGES wait for it.  (Before:
    the table waited on the slow socket's writes, and froze for everyone.)"""
    base = budgets_server.url
    ws_base = base.replace("http", "ws")
    host = guest_cookie(base, "Host")
    tid = new_table(base, host, "coinche", target_score=10000)  # the longest game allowed
    headers = {"Cookie": f"{COOKIE}={host}", "Origin": base}

    async def run() -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", budgets_server.port))
        slow = await websockets.connect(
            f"{ws_base}/ws/table/{tid}", sock=sock, additional_headers=headers, max_queue=1, max_size=None
        )
        async with websockets.connect(
            f"{ws_base}/ws/table/{tid}", additional_headers=headers, max_size=None
        ) as watcher:
            await watcher.send(json.dumps({"v": 1, "type": "fill", "kind": "rules"}))
            seqs: list[tuple[float, int]] = []
            over = False
            start = time.monotonic()
            while time.monotonic() - start < 100 and not over and len(seqs) < STATES:
                try:
                    ev = json.loads(await asyncio.wait_for(watcher.recv(), 15))
                except TimeoutError:
                    break  # frozen
                if ev.get("type") == "state":
                    seqs.append((time.monotonic(), ev["seq"]))
                    over = bool(ev["view"].get("over"))
            # the slow socket was dropped: reading it now ends in a close
            closed = False
            deadline = time.monotonic() + 10
            try:
                while time.monotonic() < deadline:
                    await asyncio.wait_for(slow.recv(), deadline - time.monotonic())
            except websockets.ConnectionClosed:
                closed = True
            except TimeoutError:
                pass
            finally:
                slow.transport.abort()
        assert closed, "the socket that never read was not dropped"
        last = seqs[-1][1] if seqs else 0
        assert len(seqs) >= STATES, f"the table stopped at seq {last} for its other watcher (over: {over})"

    asyncio.run(run())
    assert budgets_server.proc is not None and budgets_server.proc.poll() is None


# ----- item 3: sizes, sockets, messages ------------------------------------------------------
def raw_request(port: int, head: str, body: bytes = b"", wait: float = 5.0) -> bytes:
    """Send a raw HTTP request (maybe only the start of its body); the answer
    that came within ``wait`` seconds (b"" if none)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(head.encode() + body)
        try:
            return s.recv(65536)
        except TimeoutError:
            return b""


def test_a_huge_body_is_refused_as_it_arrives(budgets_server: Worker) -> None:
    """A 300 MB body is refused by its Content-Length before any of it is
    read, a chunked one as soon as it passes 64 KB: both 413 at once.
    (Before: the server waited to read all of it, then answered 400.)"""
    port = budgets_server.port
    head = (
        f"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: 300000000\r\n\r\n"
    )
    assert raw_request(port, head, b'{"name": "').startswith(b"HTTP/1.1 413")
    head = (
        f"POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"  # 16 KB chunks, and never the last one
    assert raw_request(port, head, chunk * 6).startswith(b"HTTP/1.1 413")
    # a small chunked body still reaches the room
    small = b'{"name": "Chunky"}'
    body = f"{len(small):x}\r\n".encode() + small + b"\r\n0\r\n\r\n"
    assert raw_request(port, head, body).startswith(b"HTTP/1.1 200")


def test_a_huge_websocket_frame_closes_the_socket(budgets_server: Worker) -> None:
    """A 1 MB WebSocket message is refused as it arrives (close 1009); the
    server read 16 MB messages before its 4 KB check."""
    base = budgets_server.url
    host = guest_cookie(base, "Host")
    tid = new_table(base, host)

    async def run() -> int | None:
        url = f"{base.replace('http', 'ws')}/ws/table/{tid}"
        async with websockets.connect(url, additional_headers={"Origin": base}, max_size=None) as ws:
            await ws.recv()  # the first state
            await ws.send(json.dumps({"v": 1, "type": "chat", "text": "x" * 1_000_000}))
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 5)
            except websockets.ConnectionClosed as exc:
                return exc.rcvd.code if exc.rcvd else None
            except TimeoutError:
                return None

    assert asyncio.run(run()) == 1009


def test_one_person_cannot_open_hundreds_of_sockets(budgets_client: TestClient) -> None:
    """One guest may hold SOCKETS_PER_TABLE sockets to a table; the next is
    refused with an error event and a policy close (the issue's guest opened
    300, counted as one spectator, and was sent 1.17 GB)."""
    client = budgets_client
    new_guest(client, "Many")
    tid = client.post("/api/tables", json={"game": "500"}).json()["id"]
    with contextlib.ExitStack() as stack:
        for _ in range(SOCKETS_PER_TABLE):
            ws = stack.enter_context(client.websocket_connect(f"/ws/table/{tid}"))
            assert json.loads(ws.receive_text())["type"] == "state"
        with client.websocket_connect(f"/ws/table/{tid}") as extra:
            ev = json.loads(extra.receive_text())
            assert ev["type"] == "error" and "too many connections" in ev["reason"]
            with pytest.raises(WebSocketDisconnect) as closed:
                extra.receive_text()
            assert closed.value.code == 1008
    # once they are closed, the person may connect again
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        assert json.loads(ws.receive_text())["type"] == "state"


def test_guests_of_one_address_cannot_multiply_their_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guests are free to make, so the guests of one address share one
    count of sockets (SOCKETS_PER_ADDRESS; 4 here): a fresh guest from the
    same address gets no more.  (Counted per guest alone, GUEST_BURST guests
    of SOCKETS_PER_PERSON sockets each were over a thousand.)"""
    app = create_app(f"sqlite:///{tmp_path / 'room.db'}", bot_delay=0.0)
    app.state.web.sockets.per_address = 4
    with TestClient(app) as client:
        cookies = [new_guest(client, f"G{i}") for i in range(3)]
        with contextlib.ExitStack() as stack:
            for cookie in cookies[:2]:
                client.cookies.set(COOKIE, cookie)
                for _ in range(2):
                    ws = stack.enter_context(client.websocket_connect("/ws/lobby"))
                    assert json.loads(ws.receive_text())["type"] == "lobby"
            client.cookies.set(COOKIE, cookies[2])
            with client.websocket_connect("/ws/lobby") as extra:
                ev = json.loads(extra.receive_text())
                assert ev["type"] == "error" and "too many open connections" in ev["reason"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_text()
                assert closed.value.code == 1008


def test_an_unmetered_address_does_not_share_one_count_of_sockets(tmp_path: Path) -> None:
    """``--unmetered`` exempts an address from the per-address budgets, the
    shared count of sockets included (a load test's 1,200 sockets come from
    one machine); each guest's own count still holds."""
    app = create_app(f"sqlite:///{tmp_path / 'room.db'}", bot_delay=0.0, unmetered=("testclient",))
    app.state.web.sockets.per_address = 4
    app.state.web.sockets.per_person = 3
    with TestClient(app) as client:
        cookies = [new_guest(client, f"G{i}") for i in range(3)]
        with contextlib.ExitStack() as stack:
            for cookie in cookies:  # 9 sockets of one address: over its 4, each guest within 3
                client.cookies.clear()
                client.cookies.set(COOKIE, cookie)
                for _ in range(3):
                    ws = stack.enter_context(client.websocket_connect("/ws/lobby"))
                    assert json.loads(ws.receive_text())["type"] == "lobby"
            with client.websocket_connect("/ws/lobby") as extra:  # the guest's own fourth: refused
                ev = json.loads(extra.receive_text())
                assert ev["type"] == "error" and "too many open connections" in ev["reason"]


def test_guests_of_one_address_share_a_chat_budget(budgets_client: TestClient) -> None:
    """Each guest may say CHAT_BURST lines in CHAT_WINDOW seconds, and all
    the guests of one address ADDRESS_SHARE times that together: four fresh
    guests of one address get 15 lines through, not 20.  (The issue's six
    new guests posted 30 lines in 3.1 s.)"""
    client = budgets_client
    cookies = [new_guest(client, f"Talker{i}") for i in range(4)]
    tid = client.post("/api/tables", json={"game": "500"}).json()["id"]
    said = refused = 0
    with contextlib.ExitStack() as stack:
        talkers = [stack.enter_context(peer(client, tid, c, f"t{i}")) for i, c in enumerate(cookies)]
        for t in talkers:
            t.state()
            t.quiet(0.2)  # the others' lines so far
            for i in range(CHAT_BURST):
                line = f"{t.name} {i}"
                t.send(type="chat", text=line)
                ev = t.until(
                    lambda e, line=line: (
                        e["type"] == "error"  # type: ignore[misc]
                        or (e["type"] == "state" and bool(e["chat"]) and e["chat"][-1]["text"] == line)
                    )
                )
                if ev["type"] == "error":
                    assert ev["reason"] == "you are sending messages too fast; wait a few seconds"
                    refused += 1
                else:
                    said += 1
                t.quiet(0.05)
    assert (said, refused) == (CHAT_BURST * ADDRESS_SHARE, 4 * CHAT_BURST - CHAT_BURST * ADDRESS_SHARE)


def test_a_flood_of_messages_is_refused_then_closed(budgets_client: TestClient) -> None:
    """Messages beyond a socket's budget (here: ``hello``, each answered
    with a state) are answered "too many messages" and not handled; a client
    that keeps on is closed (1008).  (The issue's 1,755 ``suggest on`` in
    20 s were all handled.)"""
    client = budgets_client
    new_guest(client, "Flood")
    tid = client.post("/api/tables", json={"game": "500"}).json()["id"]
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        assert json.loads(ws.receive_text())["type"] == "state"
        for _ in range(MESSAGE_BURST * 5):  # each answered with the table's state
            ws.send_text(json.dumps({"v": 1, "type": "hello"}))
        reasons: list[str] = []
        code = None
        states = 0
        try:
            while states + len(reasons) < MESSAGE_BURST * 5:  # (without a budget: every one answered)
                ev = json.loads(ws.receive_text())
                if ev["type"] == "error":
                    reasons.append(ev["reason"])
                states += ev["type"] == "state"
        except WebSocketDisconnect as exc:
            code = exc.code
    assert set(reasons) == {"too many messages: slow down"}
    assert MESSAGE_BURST <= states < MESSAGE_BURST * 2
    assert code == 1008


def test_refused_messages_from_many_sockets_are_charged(budgets_client: TestClient) -> None:
    """The attack: sockets sending messages the room refuses ("you have no
    seat") were never charged, so a few guests' 32 sockets were answered
    22,000 times a second and a player at the table waited a second for
    each move.  Now a refused message is charged, to its socket and to the
    budget every socket of its person shares: 4 sockets of one guest get
    about PERSON_MESSAGE_BURST answers of the room between them, the rest
    "too many messages"."""
    client = budgets_client
    new_guest(client, "Host")
    tid = client.post("/api/tables", json={"game": "500"}).json()["id"]
    new_guest(client, "Flood")
    sockets = [client.websocket_connect(f"/ws/table/{tid}") for _ in range(4)]
    per_socket = MESSAGE_BURST  # within each socket's own budget: only the shared one refuses
    answers: list[str] = []
    try:
        for ws in sockets:
            ws.__enter__()
            assert json.loads(ws.receive_text())["type"] == "state"
        for ws in sockets:
            for _ in range(per_socket):
                ws.send_text(json.dumps({"v": 1, "type": "act", "action": "6S", "seq": 0}))
        for ws in sockets:
            errors = 0
            while errors < per_socket:  # (states come too: the spectators' count changed)
                ev = json.loads(ws.receive_text())
                if ev["type"] == "error":
                    errors += 1
                    answers.append(ev["reason"])
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    refused_by_room = sum(r != "too many messages: slow down" for r in answers)
    assert (
        PERSON_MESSAGE_BURST <= refused_by_room < PERSON_MESSAGE_BURST + 30
    )  # (30: a second's refill, at most)
    assert refused_by_room < 4 * per_socket  # (before: every one of them handled)


# ----- item 4: password hashing -----------------------------------------------------------------
def test_password_hashing_never_runs_on_the_database_thread(
    budgets_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sign-up, login (right and wrong) and a password change hash on
    threads of their own: the database thread, which every table's writes
    wait for, never runs argon2 (8 clients signing up cut every table from
    13.5 to 1 action a second)."""
    threads: list[str] = []
    real_hash, real_verify = PasswordHasher.hash, PasswordHasher.verify

    def hash_(self: PasswordHasher, *args: Any, **kw: Any) -> str:
        threads.append(threading.current_thread().name)
        return real_hash(self, *args, **kw)

    def verify(self: PasswordHasher, *args: Any, **kw: Any) -> bool:
        threads.append(threading.current_thread().name)
        return real_verify(self, *args, **kw)

    monkeypatch.setattr(PasswordHasher, "hash", hash_)
    monkeypatch.setattr(PasswordHasher, "verify", verify)
    client = budgets_client
    new_account(client, "Hasher", "correct horse 1")
    assert client.post("/api/logout").status_code == 200
    assert (
        client.post("/api/login", json={"username": "Hasher", "password": "wrong horse 1"}).status_code == 400
    )
    assert (
        client.post("/api/login", json={"username": "Hasher", "password": "correct horse 1"}).status_code
        == 200
    )
    r = client.post("/api/password", json={"old": "correct horse 1", "new": "correct horse 2"})
    assert r.status_code == 200, r.text
    assert len(threads) >= 5
    assert not [t for t in threads if t.startswith("trumps-db")], threads


def test_sign_ups_with_a_taken_name_count_against_the_address(budgets_client: TestClient) -> None:
    """Every sign-up attempt from an address counts before any hashing, a
    taken name too (before, a taken name's attempt was not counted, so a
    script could make the server hash without end)."""
    client = budgets_client
    new_account(client, "Taken", "correct horse 1")
    client.cookies.clear()
    codes = [
        client.post("/api/register", json={"username": "Taken", "password": f"correct horse {i}"}).status_code
        for i in range(PASSWORD_BURST + 2)
    ]
    assert codes[: PASSWORD_BURST - 1] == [400] * (PASSWORD_BURST - 1)
    assert codes[-1] == 429
    r = client.post("/api/register", json={"username": "Fresh", "password": "correct horse 1"})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0


# ----- item 5: guests, and who an address is ------------------------------------------------
def test_guests_made_in_bulk_are_refused(budgets_client: TestClient) -> None:
    """One address makes GUEST_BURST guests at once, then no more for a
    while (the issue made 100 in 3.7 s)."""
    client = budgets_client
    codes = []
    for i in range(GUEST_BURST + 5):
        client.cookies.clear()
        codes.append(client.post("/api/guest", json={"name": f"G{i}"}).status_code)
    assert codes[:GUEST_BURST] == [200] * GUEST_BURST
    assert set(codes[GUEST_BURST:]) == {429}


def test_every_socket_carries_its_persons_budget_key(budgets_client: TestClient) -> None:
    """A socket's ``person``: ``a:<player id>`` for an account, the address
    for a guest (so many guests share one budget)."""
    client = budgets_client
    new_guest(client, "Gus")
    gid = client.get("/api/me").json()["player"]
    tid = client.post("/api/tables", json={"game": "500"}).json()["id"]
    room = client.app.state.current_room()  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        ws.receive_text()
        (conn,) = room.tables[tid].connections
        assert conn.player == gid and conn.person == "ip:testclient"
    client.cookies.clear()
    new_account(client, "Acco", "correct horse 1")
    aid = client.get("/api/me").json()["player"]
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        ws.receive_text()
        (conn,) = room.tables[tid].connections
        assert conn.player == aid and conn.person == f"a:{aid}"


def forged_logins(base: str) -> list[int]:
    """Failed logins, each claiming another address: their answers' codes."""
    codes = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for i in range(PASSWORD_BURST + 2):
            r = http.post(
                "/api/login",
                json={"username": f"nobody{i}", "password": "wrong horse 1"},
                headers={"X-Forwarded-For": f"203.0.113.{i + 1}"},
            )
            codes.append(r.status_code)
    return codes


def test_forwarded_headers_are_believed_only_from_configured_proxies(
    budgets_server: Worker, tmp_path: Path
) -> None:
    """A server started without ``--trusted-proxies`` believes no
    X-Forwarded-For, from loopback either: a client that sends a new one
    with every failed login is still one address to the throttle (before,
    uvicorn believed any local peer, so each try came from a "new" address).
    With ``--trusted-proxies 127.0.0.1`` (nginx on the machine) it does."""
    codes = forged_logins(budgets_server.url)
    assert 429 in codes, codes
    proxied = Worker(f"sqlite:///{tmp_path / 'proxied.db'}", limits=("--trusted-proxies", "127.0.0.1"))
    proxied.start()
    try:
        assert set(forged_logins(proxied.url)) == {400}
    finally:
        proxied.stop()
    from trumps.room.web.server import uvicorn_limits

    assert uvicorn_limits(())["proxy_headers"] is False
    assert uvicorn_limits(("10.0.0.5",))["forwarded_allow_ips"] == ["10.0.0.5"]
