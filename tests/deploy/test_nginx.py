"""The shipped nginx site file (deploy/nginx/trumps.conf), run by a real
nginx in front of two tiny upstreams (uvicorn + Starlette, like the room's
workers, in subprocesses so that one can be killed): round robin, pooled
connections, WebSockets both ways, the Host header, failover.

Run as a script (``python test_nginx.py NAME PORT``) this file is one of
those upstreams.
"""

from __future__ import annotations

import http.client
import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "room"))
from nginx import SITE, check_config, free_port, nginx_proxy, render_site

TIMEOUT = 5.0  # seconds, for every single request, handshake and message


# ----- the upstream (run in a subprocess) ---------------------------------------------


def _upstream_main(name: str, port: int) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def who(request: Request) -> JSONResponse:
        client = request.client
        return JSONResponse(
            {
                "name": name,
                "method": request.method,
                "host": request.headers.get("host"),
                "x_forwarded_for": request.headers.get("x-forwarded-for"),
                "x_forwarded_proto": request.headers.get("x-forwarded-proto"),
                "connection": request.headers.get("connection"),
                "peer_port": client.port if client else None,  # nginx's end of the connection
            }
        )

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text(json.dumps({"name": name, "host": ws.headers.get("host")}))
        try:
            while True:
                await ws.send_text(f"{name}:{await ws.receive_text()}")
        except WebSocketDisconnect:
            pass

    async def table(ws: WebSocket) -> None:  # says who it is and what routing nginx announced
        await ws.accept()
        await ws.send_text(json.dumps({"name": name, "routing": ws.headers.get("x-trumps-routing")}))
        await ws.close()

    async def review(request: Request) -> JSONResponse:  # as the room's failed analysis answers
        return JSONResponse({"name": name, "error": "the analysis failed"}, status_code=503)

    app = Starlette(
        routes=[
            Route("/who", who, methods=["GET", "POST"]),
            Route("/api/tables/{tid}/review", review),
            WebSocketRoute("/ws/lobby", echo),
            WebSocketRoute("/ws/table/{tid}", table),
        ]
    )
    # proxy_headers off: the app sees nginx's own address and port (the room's
    # workers keep uvicorn's default, which reads X-Forwarded-For from 127.0.0.1)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", proxy_headers=False)


class Upstream:
    def __init__(self, name: str, port: int | None = None) -> None:
        self.name = name
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, self.name, str(self.port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def wait_ready(self) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + 15
        while True:
            try:
                if get(self.port)["name"] == self.name:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"upstream {self.name} did not start on port {self.port}")
            time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture
def upstreams() -> Iterator[list[Upstream]]:
    ups = [Upstream("A"), Upstream("B")]
    try:
        for up in ups:
            up.start()
        for up in ups:
            up.wait_ready()
        yield ups
    finally:
        for up in ups:
            up.kill()


@pytest.fixture
def proxy(upstreams: list[Upstream]) -> Iterator[int]:
    with nginx_proxy([up.port for up in upstreams]) as port:
        yield port


# ----- clients -------------------------------------------------------------------------


def request(
    port: int,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    conn: http.client.HTTPConnection | None = None,
    path: str = "/who",
) -> tuple[int, dict[str, Any]]:
    own = conn is None
    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        c.request(method, path, body=b"{}" if method == "POST" else None, headers=headers or {})
        resp = c.getresponse()
        data = resp.read()
        try:
            body = json.loads(data)
        except ValueError:
            body = {"body": data.decode(errors="replace")}
        return resp.status, body
    finally:
        if own:
            c.close()


def get(port: int) -> dict[str, Any]:
    status, body = request(port)
    assert status == 200, body
    return body


def ws_connect(port: int, origin: str | None = None) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{port}/ws/lobby",
        additional_headers={"Origin": origin} if origin else None,
        open_timeout=TIMEOUT,
        close_timeout=1,
    )


# ----- the tests ----------------------------------------------------------------------


def test_shipped_site_file_passes_nginx_t() -> None:
    check_config(SITE.read_text())  # as shipped: the ports a deployer starts from
    check_config(render_site([free_port(), free_port(), free_port()], free_port()))


def test_render_keeps_failover_parameters() -> None:
    text = render_site([7001, 7002, 7003], 7000)
    assert "\n    server 127.0.0.1:7001 max_fails=0;\n" in text
    assert text.count("server 127.0.0.1:") == 3
    assert "127.0.0.1:8001" not in text
    assert re.findall(r"^\s*listen\s.*$", text, re.MULTILINE) == ["    listen 127.0.0.1:7000;"]


def test_round_robin_over_pooled_connections(upstreams: list[Upstream], proxy: int) -> None:
    answers = [get(proxy) for _ in range(8)]
    names = [a["name"] for a in answers]
    assert names in (["A", "B"] * 4, ["B", "A"] * 4), names
    # one client connection to nginx or a new one each time: round robin is per request
    with closing(http.client.HTTPConnection("127.0.0.1", proxy, timeout=TIMEOUT)) as conn:
        names = [request(proxy, conn=conn)[1]["name"] for _ in range(4)]
    assert sorted(names) == ["A", "A", "B", "B"], names
    # nginx keeps its connections to the workers open (HTTP/1.1, Connection: "")
    for name in "AB":
        ports = {a["peer_port"] for a in answers if a["name"] == name}
        assert len(ports) == 1, (name, ports)
    assert {a["connection"] for a in answers} == {None}


def test_host_header_and_forwarding_headers(upstreams: list[Upstream], proxy: int) -> None:
    for host in ("cards.example.org:8443", f"127.0.0.1:{proxy}", "cards.example.org"):
        status, body = request(proxy, headers={"Host": host, "X-Forwarded-For": "6.6.6.6"})
        assert status == 200, body
        assert body["host"] == host  # port included, as the room's Origin check needs
        assert body["x_forwarded_for"] == "127.0.0.1"  # the client's own address, not what it claimed
        assert body["x_forwarded_proto"] == "http"


def test_websocket_both_ways(upstreams: list[Upstream], proxy: int) -> None:
    host = f"127.0.0.1:{proxy}"
    seen: set[str] = set()
    for _ in range(2):  # round robin: one on each upstream
        with ws_connect(proxy) as ws:
            hello = json.loads(ws.recv(timeout=TIMEOUT))  # the upstream speaks first
            assert hello["host"] == host
            for i in range(3):
                ws.send(f"m{i}")
                assert ws.recv(timeout=TIMEOUT) == f"{hello['name']}:m{i}"
            seen.add(hello["name"])
    assert seen == {"A", "B"}
    # a WebSocket outlives plain requests interleaved with it, each way
    with ws_connect(proxy, origin=f"http://{host}") as ws:
        name = json.loads(ws.recv(timeout=TIMEOUT))["name"]
        for _ in range(2):
            get(proxy)
        time.sleep(0.3)  # not a wait for anything: the socket idles a while between requests
        ws.send("late")
        assert ws.recv(timeout=TIMEOUT) == f"{name}:late"


def test_a_failed_analysis_is_neither_retried_nor_held_against_the_worker(
    upstreams: list[Upstream], proxy: int
) -> None:
    # http_503 is in proxy_next_upstream, but not for the review location:
    # the room's 503 there is an answer, not a worker that cannot serve
    status, body = request(proxy, path="/api/tables/t1/review?deal=1")
    assert status == 503, body
    first = body["name"]
    names = [get(proxy)["name"] for _ in range(4)]  # both workers still in the rotation
    other = "B" if first == "A" else "A"
    assert names == [other, first] * 2, names


def table_socket(port: int, query: str = "", headers: dict[str, str] | None = None) -> dict[str, Any]:
    with connect(
        f"ws://127.0.0.1:{port}/ws/table/t1{query}", additional_headers=headers, open_timeout=TIMEOUT
    ) as ws:
        hello: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        return hello


def test_table_sockets_go_to_the_worker_named(upstreams: list[Upstream], proxy: int) -> None:
    """The map: ?worker=w1 is A, w2 is B (render_site names them in order),
    whatever the round robin; no name or a name not in the map: round robin.
    Every request tells the worker that this proxy routes, and a client
    cannot say otherwise."""
    for _ in range(3):
        assert table_socket(proxy, "?worker=w2&since=4")["name"] == "B"
        assert table_socket(proxy, "?since=4&worker=w1")["name"] == "A"
    assert {table_socket(proxy)["name"] for _ in range(4)} == {"A", "B"}
    assert {table_socket(proxy, "?worker=w9")["name"] for _ in range(4)} == {"A", "B"}
    assert {table_socket(proxy, "?worker=127.0.0.1:1")["name"] for _ in range(4)} == {"A", "B"}
    spoofed = table_socket(proxy, "?worker=w1", headers={"X-Trumps-Routing": "nonsense"})
    assert spoofed == {"name": "A", "routing": "worker"}
    assert table_socket(proxy)["routing"] == "worker"


def test_a_named_worker_that_is_down_fails_the_socket(upstreams: list[Upstream], proxy: int) -> None:
    """No failover for a named table socket (the page then tries without the
    name): nginx answers 502 at once rather than another worker."""
    upstreams[1].kill()
    started = time.monotonic()
    with pytest.raises(InvalidStatus) as err:
        table_socket(proxy, "?worker=w2")
    assert err.value.response.status_code == 502
    assert time.monotonic() - started < 2
    assert {table_socket(proxy)["name"] for _ in range(3)} == {"A"}  # unnamed: the live one


def test_failover_when_a_worker_dies(upstreams: list[Upstream], proxy: int) -> None:
    b = upstreams[1]
    assert {get(proxy)["name"] for _ in range(4)} == {"A", "B"}
    with ws_connect(proxy) as ws_a, ws_connect(proxy) as ws_b:
        sockets = {json.loads(ws.recv(timeout=TIMEOUT))["name"]: ws for ws in (ws_a, ws_b)}
        assert set(sockets) == {"A", "B"}
        b.kill()
        # every request goes on to A at once, POST included (B never got it)
        started = time.monotonic()
        # (round robin sends one of the first two to B: both are POSTs)
        for method in ["POST", "POST"] + ["GET", "POST"] * 5:
            t0 = time.monotonic()
            status, body = request(proxy, method=method)
            assert status == 200, body
            assert body["name"] == "A"
            assert time.monotonic() - t0 < 1.0
        assert time.monotonic() - started < 3.0
        # new WebSockets too; the one on A goes on, the one on B was closed
        for _ in range(2):
            with ws_connect(proxy) as ws:
                assert json.loads(ws.recv(timeout=TIMEOUT))["name"] == "A"
        sockets["A"].send("still here")
        assert sockets["A"].recv(timeout=TIMEOUT) == "A:still here"
        with pytest.raises(ConnectionClosed):
            sockets["B"].recv(timeout=TIMEOUT)
    # B restarted on its port is back in the rotation at once (max_fails=0: never left out)
    restarted = Upstream("B", b.port)
    upstreams.append(restarted)  # the fixture kills it
    restarted.start()
    restarted.wait_ready()
    deadline = time.monotonic() + 8
    names: list[str] = []
    while "B" not in names:
        assert time.monotonic() < deadline, "B did not come back"
        names.append(get(proxy)["name"])
        time.sleep(0.1)


if __name__ == "__main__":
    _upstream_main(sys.argv[1], int(sys.argv[2]))
