"""One room on several worker processes (trumps.room.cluster), for real:
a throw-away PostgreSQL server, three ``trumps serve`` workers as separate
processes, and table clients spread over them.  The owner of a table is
killed (-9) mid-deal and the game goes on; every worker is restarted in
turn during play; every client saw every action once, in order, and only
what its seat may see."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).parent))
from browser import free_port
from cluster_harness import Client, Worker, lock_holder, new_guest
from nginx import nginx_proxy, worker_names
from test_ws_games import Oracle

SEATS = ("N", "E", "S", "W")


@pytest.fixture
def workers(pg_db: str) -> Iterator[list[Worker]]:
    ws = [Worker(pg_db, name=name).start(wait=False) for name in worker_names(3)]
    try:
        for w in ws:
            w.wait_ready()
        yield ws
    finally:
        for w in ws:
            w.stop(timeout=10)
        for w in ws:  # shown with a failure (pytest shows a failed test's output)
            err = "\n".join([*w.said, w.stderr()]).strip()
            if err:
                print(f"--- worker {w.name} stderr ---\n{err[-4000:]}")


@pytest.fixture
def proxy(workers: list[Worker]) -> Iterator[str]:
    """The shipped nginx configuration in front of the workers (round robin,
    and table sockets routed to the worker named in ``?worker=``)."""
    with nginx_proxy([w.port for w in workers], names=[w.name or "" for w in workers]) as port:
        yield f"ws://127.0.0.1:{port}"


def owner_of(db: str, tid: str) -> int:
    """The backend pid holding the table's lock (0: nobody)."""
    return int(lock_holder(db, tid, "pid") or 0)


def stored_actions(db: str, tid: str) -> list[tuple[int, int, str, bool]]:
    engine = create_engine(db)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seq, seat, action, auto FROM actions WHERE table_id=:t ORDER BY seq"), {"t": tid}
        ).all()
    engine.dispose()
    return [(r[0], r[1], r[2], bool(r[3])) for r in rows]


def check_clients(db: str, tid: str, clients: list[Client]) -> None:
    """Every client: states in order with no gap and no step back, each
    the view of its own seat (the stored game replayed), and none of its
    own actions stored twice or out of place."""
    oracle = Oracle(db, tid)
    stored = stored_actions(db, tid)
    assert [s for s, *_ in stored] == list(range(1, len(stored) + 1))
    for c in clients:
        seqs = c.seqs()
        assert seqs, f"{c.name} saw nothing"
        for a, b in itertools.pairwise(seqs):
            assert b in (a, a + 1), f"{c.name}: state {b} after {a} (reconnects {c.reconnects})"
        for ev in c.events:
            if ev.get("type") == "state":  # the seat it had then (none before sitting)
                you = ev["table"]["you"]
                assert you in (None, c.seat), f"{c.name} was given seat {you}"
                oracle.check(ev, c.name, None if you is None else SEATS.index(you))
        seat = None if c.seat is None else SEATS.index(c.seat)
        sent = set(c.sent)  # (the seq the action was to get, action): a send is stored there or nowhere
        for seq, st_seat, action, auto in stored:
            if seat is not None and st_seat == seat and not auto:
                assert (seq, action) in sent, f"{c.name}: stored {action} at {seq} was not sent for it"


def setup_table(workers: list[Worker], *, via: list[str] | None = None, spectator: bool = True,
                ) -> tuple[str, list[Client]]:  # fmt: skip
    bases = [w.url.replace("http", "ws") for w in workers]
    cookies = [new_guest(workers[i % len(workers)].url, f"P{i}") for i in range(5)]
    with httpx.Client(base_url=workers[0].url, cookies={"trumps_session": cookies[0]}, timeout=10) as http:
        r = http.post("/api/tables", json={"game": "500", "preset": "australian"})
        r.raise_for_status()
        tid = r.json()["id"]
    # each client a person of its own (its own address): guests of one address
    # share a replay every 3 s, and the others' reconnects would skip states
    clients = []
    for i, seat in enumerate(SEATS):
        order = via or bases[i % len(bases) :] + bases[: i % len(bases)]
        clients.append(Client(f"P{i}", cookies[i], order, tid, seat, address=f"127.0.0.{11 + i}"))
    if spectator:
        order = via or bases[1:] + bases[:1]
        clients.append(Client("spectator", cookies[4], order, tid, None, address="127.0.0.15"))
    return tid, clients


async def play(clients: list[Client], until: Any, timeout: float = 60) -> None:
    stop = asyncio.Event()
    rng = random.Random(5)
    tasks = [asyncio.create_task(c.run(stop, rng)) for c in clients]
    try:
        deadline = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < deadline, "the game did not go on: " + "; ".join(
                f"{c.name} seq {c.last_seq} reconnects {c.reconnects} drops {c.drops} "
                f"other events {[e for e in c.events if e.get('type') != 'state'][-4:]} "
                f"last status {[e['table']['status'] for e in c.events if e.get('type') == 'state'][-3:]}"
                for c in clients
            )
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def latest(clients: list[Client]) -> int:
    return min((c.last_seq or 0) for c in clients)


def gaps(clients: list[Client]) -> float:
    """The longest time in which no client got a new state (the stall)."""
    times = sorted({t for c in clients for t, _ in c.state_times})
    return max((b - a for a, b in itertools.pairwise(times)), default=0.0)


def stall_story(clients: list[Client], marks: list[tuple[float, str]]) -> str:
    """What happened around the longest stall: states, drops, routes, restarts."""
    times = sorted({t for c in clients for t, _ in c.state_times})
    a, b = max(itertools.pairwise(times), key=lambda p: p[1] - p[0])
    lines = [(t, f"{text}") for t, text in marks if a - 3 <= t <= b + 1]
    for c in clients:
        lines += [(t, f"{c.name} state {seq}") for t, seq in c.state_times if a - 0.5 <= t <= b + 0.2]
        lines += [(t, f"{c.name} dropped ({why})") for t, why in c.drops if a - 3 <= t <= b + 1]
        lines += [(t, f"{c.name} told {w}") for t, w in c.routes if a - 3 <= t <= b + 1]
    return "\n".join(f"{t - a:+.3f} {text}" for t, text in sorted(lines))


@pytest.mark.parametrize("routed", [True, False], ids=["routed", "relayed"])
def test_kill_the_owner_mid_deal(workers: list[Worker], proxy: str, pg_db: str, routed: bool) -> None:
    """Clients through nginx, on the owner (routed) or spread over the three
    workers (relayed, as behind a proxy that does not route); the owner is
    killed -9 mid-deal; the others take the table over within 5 s, the
    clients reconnect through the proxy and the game goes on."""
    tid, clients = setup_table(workers, via=[proxy])
    for c in clients:
        c.follow_routes = routed
    state: dict[str, Any] = {}

    def until() -> bool:
        seq = latest(clients)
        if "killed" not in state and seq >= 12:
            pid = owner_of(pg_db, tid)
            assert pid, "nobody owns the table"
            # the owner is the worker that made the table
            workers[0].kill()
            state["killed"] = time.monotonic()
            state["at"] = seq
        return "killed" in state and seq >= state["at"] + 25

    asyncio.run(play(clients, until, timeout=90))
    assert owner_of(pg_db, tid), "nobody owns the table after the takeover"
    # the next state reached every client within 5 s of the kill
    for c in clients:
        after = [t for t, seq in c.state_times if t > state["killed"] and seq > state["at"]]
        assert after and after[0] - state["killed"] < 5.0, f"{c.name}: {after[:1]}"
        print(f"failover: {c.name} had the next state {after[0] - state['killed']:.2f} s after the kill")
    check_clients(pg_db, tid, clients)


def test_table_sockets_end_on_the_owner_behind_the_routing_proxy(
    workers: list[Worker], proxy: str, pg_db: str
) -> None:
    """Through nginx (round robin), a socket that lands on a worker that
    does not run the table is told the owner and connects again there: after
    that no table event crosses between workers (counted on the workers'
    PostgreSQL channels), and every client still saw every state once."""
    tid, clients = setup_table(workers, via=[proxy])
    counted: dict[str, int] = {}  # message kind -> notifications, from `settled` on
    settled = threading.Event()
    stop = threading.Event()
    listening = threading.Event()

    def listen() -> None:  # a LISTEN on every worker's own channel, counting table events
        import psycopg
        from psycopg import sql

        from trumps.room.cluster.bus import ROOM_CHANNEL, conninfo, worker_channel

        with psycopg.connect(conninfo(pg_db), autocommit=True) as conn:
            conn.execute(f"LISTEN {ROOM_CHANNEL}")
            known: set[str] = set()  # worker ids, learnt from their beats on the room's channel
            while not stop.is_set():
                new: set[str] = set()
                for n in conn.notifies(timeout=0.2):
                    if n.channel == ROOM_CHANNEL:
                        sender = re.search(r'"from":"([^"]+)"', n.payload)
                        if sender and sender.group(1) not in known:
                            new.add(sender.group(1))
                        continue
                    found = re.search(r'"k":"(\w+)"', n.payload)  # (a payload is "<number> <json>")
                    kind = found.group(1) if found else "?"
                    if settled.is_set():
                        counted[kind] = counted.get(kind, 0) + 1
                for worker in new:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(worker_channel(worker))))
                known |= new
                if len(known) == len(workers):
                    listening.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert listening.wait(10)

    def until() -> bool:
        seq = latest(clients)
        if seq >= 6:
            settled.set()  # every socket has been routed: count from here
        return seq >= 40

    try:
        asyncio.run(play(clients, until, timeout=60))
    finally:
        stop.set()
        listener.join(5)
    check_clients(pg_db, tid, clients)
    routed = [c for c in clients if c.routes]
    print(f"routing: {len(routed)} of {len(clients)} clients were told the owner; after: {counted}")
    assert routed, "no client landed on another worker first (round robin over three workers)"
    for c in routed:
        assert len(c.routes) == 1, f"{c.name} was told {c.routes}"
    # no relayed states, actions or openings once every socket was on the owner
    assert not {"ev", "msg", "open", "opened"} & set(counted), counted


def test_no_route_event_without_a_routing_proxy(workers: list[Worker], pg_db: str) -> None:
    """Straight to the workers (no proxy says it routes): sockets on other
    workers are relayed as before and never told to move."""
    tid, clients = setup_table(workers)
    asyncio.run(play(clients, lambda: latest(clients) >= 10, timeout=60))
    check_clients(pg_db, tid, clients)
    assert not any(c.routes for c in clients)
    assert not any(e.get("type") == "route" for c in clients for e in c.events)


class PostLoop:
    """A guest POSTing through the proxy every 20 ms while the block runs
    (``/api/prefs``: a guest's answer is always 403, after the session
    lookup), counting the answers by status (or by error)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = new_guest(base, "poster")
        self.answers: Counter[int | str] = Counter()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        cookies = {"trumps_session": self.cookie}
        with httpx.Client(
            base_url=self.base, timeout=10, cookies=cookies, headers={"Origin": self.base}
        ) as http:
            while not self.done.is_set():
                try:
                    self.answers[http.post("/api/prefs", json={"x": 1}).status_code] += 1
                except httpx.HTTPError as exc:
                    self.answers[type(exc).__name__] += 1
                time.sleep(0.02)

    def __enter__(self) -> PostLoop:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.done.set()
        self.thread.join(timeout=30)


@pytest.mark.parametrize("routed", [False, True], ids=["relayed", "routed"])
def test_rolling_restart(workers: list[Worker], proxy: str, pg_db: str, routed: bool) -> None:
    """Every worker is stopped normally and started again, in turn, while
    the game is played through nginx: nothing is lost and no stall lasts a
    second.  Relayed: clients where round robin put them.  Routed: every
    socket on the owner, so every socket reconnects at each handover, told
    the heir by the stopping worker before it closes (docs/scaling.md)."""
    tid, clients = setup_table(workers, via=[proxy])
    for c in clients:
        c.follow_routes = routed
    for c in clients:
        c.think = 0.1  # a game lasts a few hundred actions: it must outlast three restarts
    stage: dict[str, Any] = {"next": 0, "mark": 8}
    stalls: list[float] = []
    marks: list[tuple[float, str]] = []  # (monotonic, what happened), shown with a long stall

    def until() -> bool:
        seq = latest(clients)
        i = stage["next"]
        busy = stage.get("thread")
        if busy is not None and busy.is_alive():
            return False
        # one at a time, each restarted worker up before the next one stops
        if i < len(workers) and seq >= stage["mark"]:

            def restart() -> None:  # off the clients' event loop: the game goes on meanwhile
                t0 = time.monotonic()
                marks.append((t0, f"stop {workers[i].name}"))
                workers[i].stop()
                marks.append((time.monotonic(), f"stopped {workers[i].name}"))
                workers[i].start()
                marks.append((time.monotonic(), f"started {workers[i].name}"))
                stalls.append(time.monotonic() - t0)

            stage["thread"] = threading.Thread(target=restart)
            stage["thread"].start()
            stage["next"] = i + 1
            stage["mark"] = seq + 10
            return False
        return stage["next"] == len(workers) and seq >= stage["mark"] + 5

    posts = PostLoop(proxy.replace("ws://", "http://"))
    with posts:
        asyncio.run(play(clients, until, timeout=120))
    check_clients(pg_db, tid, clients)
    # plain requests through nginx all the while: a stopping worker closes no
    # pooled connection under one (trumps.room.web.stopping), so none met a 502
    print(f"posts through the proxy: {dict(posts.answers)}")
    assert set(posts.answers) == {403} and posts.answers[403] > 50, posts.answers
    # a handover is a reconnect and a rebuild: no stall beyond a second
    print(f"rolling restart: longest stall {gaps(clients):.2f} s; restarts took {stalls}")
    assert gaps(clients) < 1.0, f"the game stalled {gaps(clients):.2f} s:\n" + stall_story(clients, marks)


def test_lost_notifications_are_repaired_from_the_log(workers: list[Worker], proxy: str, pg_db: str) -> None:
    """Every worker's listening connection is cut mid-game (what was sent
    meanwhile is lost): the listeners reconnect, relayed sockets open again
    from their last seq, and every client still sees every state once, in
    order, and the game goes on.  (The clients stay where round robin put
    them, as behind a proxy that does not route: relayed sockets are what
    the cut breaks.)"""
    tid, clients = setup_table(workers, via=[proxy])
    for c in clients:
        c.follow_routes = False
    state: dict[str, Any] = {}

    def until() -> bool:
        seq = latest(clients)
        if "cut" not in state and seq >= 15:
            engine = create_engine(pg_db, isolation_level="AUTOCOMMIT")
            with engine.connect() as conn:
                cut = conn.execute(
                    text(
                        """SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN "trumps%'"""
                    )
                ).all()
            engine.dispose()
            assert len(cut) == len(workers), cut
            state["cut"], state["at"] = time.monotonic(), seq
        return "cut" in state and seq >= state["at"] + 30

    asyncio.run(play(clients, until, timeout=90))
    check_clients(pg_db, tid, clients)


def test_scheduled_start_and_timeout_fire_once_after_a_takeover(
    workers: list[Worker], proxy: str, pg_db: str
) -> None:
    """A scheduled table with move timers: its owner is killed before the
    start time; the worker that takes it starts it at its time and runs
    the timer: each fires once (one start, one timeout notice per timed-out
    move), not once per worker."""
    ann = new_guest(workers[1].url, "Ann")
    start_at = time.time() + 3
    settings = {"start_at": start_at, "bid_time": 7, "play_time": 7}
    with httpx.Client(base_url=workers[0].url, cookies={"trumps_session": ann}, timeout=10) as http:
        r = http.post("/api/tables", json={"game": "500", "preset": "australian", "settings": settings})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
    workers[0].kill()  # the owner, before the start
    client = Client("Ann", ann, [proxy], tid, "N", passive=True)

    def timed_out() -> bool:
        return any(a[3] for a in stored_actions(pg_db, tid)) and time.time() > start_at + 12

    asyncio.run(play([client], timed_out, timeout=60))
    engine = create_engine(pg_db)
    with engine.connect() as conn:
        status, started = conn.execute(
            text("SELECT status, started FROM tables WHERE id=:t"), {"t": tid}
        ).one()
        timeouts = (
            conn.execute(text("SELECT seq FROM actions WHERE table_id=:t AND timeout"), {"t": tid})
            .scalars()
            .all()
        )
    engine.dispose()
    assert status == "playing"
    assert start_at <= started < start_at + 2.5, started - start_at
    assert timeouts, "no move timed out"
    notices = [e for e in client.events if e.get("type") == "notice" and e.get("timeout")]
    # one notice per timed-out move (a reconnect replays states, not notices)
    assert len(notices) == len(timeouts), (notices, timeouts)
    check_clients(pg_db, tid, [client])


def test_a_play_request_outlives_the_matchmakers_worker(pg_db: str) -> None:
    """A guest on worker B presses Play; the matchmaker runs on worker A,
    which is killed (-9) while the guest waits.  B takes the matchmaker,
    sends it the Play request again, and the guest gets a table (bots in
    the empty seats after the matchmaker's wait) instead of an error 35 s
    later."""
    from trumps.room.cluster.asking import MATCHMAKER

    a = Worker(pg_db).start()
    b = Worker(pg_db)
    try:
        assert lock_holder(pg_db, MATCHMAKER, "pid"), "the first worker runs the matchmaker"
        b.start()
        cookie = new_guest(b.url, "Pat")
        out: dict[str, Any] = {}

        def press() -> None:
            with httpx.Client(base_url=b.url, cookies={"trumps_session": cookie}, timeout=60) as http:
                r = http.post("/api/play", json={"game": "coinche", "rules": "common"})
                out["answer"] = (r.status_code, r.json(), time.monotonic())

        thread = threading.Thread(target=press)
        thread.start()
        deadline = time.monotonic() + 10
        while httpx.get(f"{b.url}/api/play").json()["waiting"]["coinche/common"] != 1:
            assert time.monotonic() < deadline, "the Play request did not reach the matchmaker"
            time.sleep(0.1)
        a.kill()
        killed = time.monotonic()
        thread.join(45)
        status, body, when = out["answer"]
        assert status == 200, body
        assert when - killed < 20  # the matchmaker's 10 s wait, then bots fill the table
        with httpx.Client(base_url=b.url, cookies={"trumps_session": cookie}, timeout=10) as http:
            table = http.get(f"/api/tables/{body['table']}").json()
        assert [s["name"] for s in table["seats"]].count("Pat (guest)") == 1
        assert table["status"] == "playing"
    finally:
        for w in (a, b):
            w.stop(timeout=10)


def http_request(sock: socket.socket, path: str) -> tuple[int, dict[str, str]]:
    """One GET on a raw keep-alive connection, as nginx's pool sends it:
    the status and headers of the answer (its body read and dropped)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: room\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed by the worker after {len(data)} bytes")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.lower(), v.strip()) for k, v in (line.split(":", 1) for line in lines[1:]))
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the worker in the middle of an answer")
        body += chunk
    return int(lines[0].split()[1]), headers


def test_a_stopping_worker_leaves_pooled_connections_for_the_proxy_to_close(pg_db: str) -> None:
    """A worker of several, stopped normally, does not close an idle
    keep-alive connection under a request a proxy may be sending down it
    (nginx gives a POST that met that close a 502): the connection still
    answers, with ``Connection: close``; the worker goes once the proxy has
    closed its connections, and after uvicorn's keep-alive timeout at most
    when one stays idle (nginx's is shorter: deploy/nginx)."""
    worker = Worker(pg_db).start()
    used = socket.create_connection(("127.0.0.1", worker.port), timeout=10)
    idle = socket.create_connection(("127.0.0.1", worker.port), timeout=10)
    try:
        for sock in (used, idle):
            status, headers = http_request(sock, "/api/me")
            assert status == 200 and headers.get("connection") != "close"
        assert worker.proc is not None
        stopped = time.monotonic()
        worker.proc.terminate()
        time.sleep(1.0)  # the handover is done (no tables): uvicorn alone would have closed both by now
        assert worker.proc.poll() is None
        status, headers = http_request(used, "/api/me")
        assert status == 200 and headers.get("connection") == "close"
        assert used.recv(1) == b""  # and the worker closed it after the answer
        with pytest.raises(ConnectionRefusedError):  # no new connection lands on it meanwhile
            socket.create_connection(("127.0.0.1", worker.port), timeout=2)
        worker.proc.wait(timeout=15)
        # the idle one was waited for: uvicorn's keep-alive timeout (5 s) closed it
        assert 4.0 < time.monotonic() - stopped < 9.0
    finally:
        used.close()
        idle.close()
        worker.stop()


def until_refused(port: int, timeout: float = 10.0) -> None:
    """Wait until a new connection to ``port`` is refused."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except ConnectionRefusedError:
            return
        assert time.monotonic() < deadline, f"port {port} still accepts connections"
        time.sleep(0.02)


def test_a_stopping_worker_goes_as_soon_as_its_connections_are_closed(pg_db: str) -> None:
    worker = Worker(pg_db).start()
    sock = socket.create_connection(("127.0.0.1", worker.port), timeout=10)
    assert http_request(sock, "/api/me")[0] == 200
    assert worker.proc is not None
    worker.proc.terminate()
    until_refused(worker.port)  # it has begun to stop: it listens no more
    t0 = time.monotonic()
    sock.close()  # what nginx does after keepalive_timeout (4 s)
    worker.proc.wait(timeout=15)
    assert time.monotonic() - t0 < 2.0
    assert "Traceback" not in worker.stderr()


def test_sqlite_serves_one_process(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'room.db'}"
    first = Worker(db).start()
    try:
        second = subprocess.run(
            [sys.executable, "-m", "trumps", "serve", "--db", db, "--port", str(free_port())],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "SQLite serves one process" in lines[0], second.stderr
        many = subprocess.run(
            [sys.executable, "-m", "trumps", "serve", "--db", db, "--workers", "2"],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert many.returncode != 0 and "need PostgreSQL" in many.stderr
    finally:
        first.stop()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--worker-name", "w 1", "--db", "postgresql+psycopg://u@h/d"], "letters, digits"),
        (["--worker-name", "x" * 41, "--db", "postgresql+psycopg://u@h/d"], "letters, digits"),
        (["--worker-name", "w1"], "PostgreSQL"),
        (["--worker-name", "w1", "--workers", "2", "--db", "postgresql+psycopg://u@h/d"], "one worker"),
    ],
)
def test_bad_worker_names_are_refused(args: list[str], says: str) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "trumps", "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and says in lines[0], r.stderr


def test_serve_workers_on_one_port(pg_db: str) -> None:
    """``trumps serve --workers 2``: two processes behind one port play one
    table together (the kernel spreads the connections over them)."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "trumps", "serve", "--db", pg_db, "--port", str(port), "--workers", "2",
         "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/me", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, "the workers did not start"
            time.sleep(0.2)
        workers = [Worker(pg_db, port=port)]
        workers[0].url = base
        tid, clients = setup_table(workers, spectator=True)
        asyncio.run(play(clients, lambda: latest(clients) >= 30, timeout=60))
        check_clients(pg_db, tid, clients)
        engine = create_engine(pg_db)
        with engine.connect() as conn:  # two workers: two lock connections and two listeners
            listeners = conn.execute(
                text("""SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN "trumps_w_%'""")
            ).scalar()
        engine.dispose()
        assert listeners == 2, listeners
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
