"""Load test of the card room: ``trumps serve`` in its own process, N tables
of four WebSocket clients each in this (one) process, on loopback.

    python benchmarks/room_load.py --tables 300 --seconds 30 [--idle-tables 300]

1. Memory: the server's RSS (``/proc/PID/status``) with no table, then with
   ``--idle-tables`` tables created and seated but not playing (three
   clients sit, the fourth seat stays empty, their sockets stay open);
   the difference divided by the number of tables is the memory per table.
2. Load: ``--tables`` tables, each with four guest clients (one cookie
   each) sitting N/E/S/W.  A client whose turn it is plays a random legal
   action from its own view.  A game that ends is replaced by a new table
   with the same four players.  Reported: actions per second, and the
   latency from sending an action to the state carrying it (its ``seq``)
   having reached all four seats of the table (p50/p90/p99/max).
3. Where the time goes: the server runs with ``TRUMPS_ROOM_TIMINGS`` (see
   ``trumps.room.timing``) and writes, for the measured window, the phases
   of every action (table lock, commit wait, broadcast), its group commits,
   table creations, event-loop lag and GC pauses; the client measures its
   own event-loop lag and GC pauses.  Printed after the figures, with the
   seconds whose p99 is over 100 ms and how many tables were created in
   each (``--dump FILE`` keeps every sample as JSON).

The client's garbage collector is off during the load (after a collection
and ``gc.freeze()``): with 1,200 sockets in one process its collections
stopped every client for up to 250 ms, 3-5 s per 30 s run, and that time was
counted as server latency.  Its RSS growth is printed.

Everything runs on 127.0.0.1 with timeouts; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import websockets

try:  # faster JSON parsing in the load generator if available (not needed)
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover
    loads = json.loads

SEATS = ("N", "E", "S", "W")
HOST = "127.0.0.1"
RECV_TIMEOUT = 30.0  # a table silent for this long is reported as stalled


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.0f} GiB"
    return (
        f"{os.cpu_count()} cores ({cpu}), {mem}, {platform.system()} {platform.machine()}, "
        f"CPython {platform.python_version()}"
    )


# ----- the server -----------------------------------------------------------------
class Server:
    def __init__(self, db: str, port: int, timings: str | None = None) -> None:
        self.db = db
        self.port = port
        self.timings = timings  # file the server writes its own timings to (room/timing.py)
        self.url = f"http://{HOST}:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        cmd = [sys.executable, "-m", "trumps", "serve", "--port", str(self.port), "--db", self.db]
        cmd += ["--bot-delay", "0"]
        env = dict(os.environ)
        if self.timings:
            env["TRUMPS_ROOM_TIMINGS"] = self.timings
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server exited: {err[-2000:]}")
            try:
                if httpx.get(self.url + "/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


# ----- clients ---------------------------------------------------------------------
@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    samples: list[tuple[float, float]] = field(default_factory=list)  # (wall time sent, latency)
    lags: list[tuple[float, float]] = field(default_factory=list)  # client loop: (wall time, lateness)
    gc_pauses: list[tuple[float, float]] = field(default_factory=list)  # client: (wall time, pause)
    created: list[float] = field(default_factory=list)  # wall times of the tables created
    actions: int = 0
    errors: int = 0
    games_finished: int = 0
    stalls: int = 0
    measuring: bool = False


async def new_guest(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()
    return f"trumps_player={r.cookies['trumps_player']}"


async def new_table(http: httpx.AsyncClient, cookie: str, game: str, preset: str | None) -> str:
    body: dict[str, Any] = {"game": game, "options": {}}
    if preset:
        body["preset"] = preset
    r = await http.post("/api/tables", json=body, headers={"Cookie": cookie})
    r.raise_for_status()
    return str(r.json()["id"])


class LiveTable:
    """One table of four clients; measures action -> broadcast-to-all."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.sent: dict[int, float] = {}  # seq the action will produce -> send time
        self.arrived: dict[int, int] = {}  # seq -> how many seats have seen it

    def seen(self, first: int, last: int, now: float) -> None:
        """One seat saw states ``first``..``last`` (it may skip a state when
        a later one was already current when its send was made)."""
        for s in range(first, last + 1):
            n = self.arrived.get(s, 0) + 1
            if n < 4:
                self.arrived[s] = n
                continue
            self.arrived.pop(s, None)
            t0 = self.sent.pop(s, None)
            if t0 is not None and self.stats.measuring:
                self.stats.latencies.append(now - t0)
                self.stats.samples.append((time.time() - (time.perf_counter() - t0), now - t0))


async def play_client(
    ws_url: str, cookie: str, seat: str, table: LiveTable, stats: Stats, stop: asyncio.Event,
    rng: random.Random, think: float,
) -> str:  # fmt: skip
    """Sit at ``seat`` and play random legal actions until ``stop`` or the
    game ends.  Returns "over", "stopped" or "stalled"."""
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": cookie}, open_timeout=30, max_size=2**22
    ) as ws:
        await ws.send(json.dumps({"v": 1, "type": "sit", "seat": seat}))
        last_seq = -1
        acted_for = -1
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
            except TimeoutError:
                stats.stalls += 1
                return "stalled"
            now = time.perf_counter()
            ev = loads(raw)
            if ev["type"] == "error":
                stats.errors += 1
                acted_for = -1  # look at the last state again
                continue
            if ev["type"] != "state":
                continue
            seq = ev["seq"]
            if seq > last_seq:
                if last_seq >= 0 or seq > 0:
                    table.seen(max(last_seq + 1, 1), seq, now)
                last_seq = seq
            view = ev["view"]
            if view["over"] or ev["table"]["status"] == "finished":
                return "over"
            if ev["table"]["status"] != "playing" or view["to_act"] != seat or acted_for == seq:
                continue
            legal = view["legal"]
            if not legal:
                continue
            acted_for = seq
            if think:  # a player's pause before acting (the room's bots wait 0.6 s)
                await asyncio.sleep(think * (0.5 + rng.random()))
            table.sent[seq + 1] = time.perf_counter()
            await ws.send(json.dumps({"v": 1, "type": "act", "action": rng.choice(legal), "seq": seq}))
            if stats.measuring:
                stats.actions += 1
        return "stopped"


async def run_table(
    server: Server, http: httpx.AsyncClient, cookies: list[str], game: str, preset: str | None,
    stats: Stats, stop: asyncio.Event, rng: random.Random, think: float,
) -> None:  # fmt: skip
    while not stop.is_set():
        tid = await new_table(http, cookies[0], game, preset)
        stats.created.append(time.time())
        ws_url = f"ws://{HOST}:{server.port}/ws/table/{tid}"
        table = LiveTable(stats)
        results = await asyncio.gather(
            *(
                play_client(ws_url, c, s, table, stats, stop, rng, think)
                for c, s in zip(cookies, SEATS, strict=True)
            )
        )
        if "over" in results:
            stats.games_finished += 1
        if "stalled" in results:
            return


async def idle_table(
    server: Server, http: httpx.AsyncClient, n: int, game: str, preset: str | None, release: asyncio.Event,
    ready: Callable[[], None],
) -> None:  # fmt: skip
    """A table where three clients sit and the fourth seat stays empty."""
    cookies = [await new_guest(http, f"i{n}{s}") for s in SEATS[:3]]
    tid = await new_table(http, cookies[0], game, preset)
    ws_url = f"ws://{HOST}:{server.port}/ws/table/{tid}"
    async with contextlib.AsyncExitStack() as stack:
        for cookie, seat in zip(cookies, SEATS[:3], strict=True):
            ws = await stack.enter_async_context(
                websockets.connect(ws_url, additional_headers={"Cookie": cookie}, open_timeout=30)
            )
            await ws.send(json.dumps({"v": 1, "type": "sit", "seat": seat}))
            while True:  # until our seat shows up in a state
                ev = loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                if ev["type"] == "state" and ev["table"]["you"] == seat:
                    break
        ready()
        await release.wait()


async def lag_probe(stats: Stats, stop: asyncio.Event, tick: float = 0.005) -> None:
    """The client loop's lag: how late a 5 ms sleep wakes up (every message
    received meanwhile waited as long before it was timed)."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(tick)
        late = time.perf_counter() - t0 - tick
        if late > 0.002:
            stats.lags.append((time.time(), late))


def gc_recorder(stats: Stats) -> Callable[[str, dict[str, Any]], None]:
    started: list[float] = []

    def hook(phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        elif started:
            stats.gc_pauses.append((time.time(), time.perf_counter() - started.pop()))

    return hook


async def bounded(sem: asyncio.Semaphore, coro: Any) -> Any:
    async with sem:
        return await coro


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def main_async(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    out: dict[str, Any] = {}
    # idle pooled connections are dropped by the client (2 s) before uvicorn's
    # keep-alive timeout (5 s) closes them: otherwise a request sent on a
    # connection the server is closing fails with a ReadError (seen once at
    # saturation: a client-side keep-alive race, nothing lost on the server)
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2.0)
    async with httpx.AsyncClient(base_url=server.url, timeout=60, limits=limits) as http:
        # every client has its own cookie: the shared HTTP client must keep none
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        # warm up: import the game and its views once, so the baseline is fair
        await asyncio.sleep(0.5)
        rss0 = rss_kb(server.pid)
        out["rss_empty_kb"] = rss0

        # ----- memory per idle table --------------------------------------------
        if args.idle_tables:
            release = asyncio.Event()
            done = 0

            def ready() -> None:
                nonlocal done
                done += 1

            t0 = time.perf_counter()
            idle = [
                asyncio.create_task(idle_table(server, http, i, args.game, args.preset, release, ready))
                for i in range(args.idle_tables)
            ]
            deadline = time.monotonic() + 300
            while done < args.idle_tables and time.monotonic() < deadline:
                failed = [t for t in idle if t.done() and t.exception() is not None]
                if failed:
                    raise RuntimeError(f"idle table failed: {failed[0].exception()!r}")
                await asyncio.sleep(0.2)
            if done < args.idle_tables:
                raise RuntimeError(f"only {done}/{args.idle_tables} idle tables were seated")
            await asyncio.sleep(2.0)  # let the server settle
            rss1 = rss_kb(server.pid)
            out["idle_setup_s"] = time.perf_counter() - t0
            out["rss_idle_kb"] = rss1
            out["kb_per_idle_table"] = (rss1 - rss0) / args.idle_tables
            release.set()
            await asyncio.gather(*idle, return_exceptions=True)

        # ----- load --------------------------------------------------------------
        stats = Stats()
        stop = asyncio.Event()
        probe = asyncio.create_task(lag_probe(stats, stop))
        gc_hook = gc_recorder(stats)
        gc.callbacks.append(gc_hook)
        # the load generator's own garbage collections stop all 1,200 clients
        # at once (5 s of pauses per 30 s run, up to 250 ms each, measured as
        # server latency): off during the load; the client's RSS growth is reported
        gc.collect()
        gc.freeze()
        gc.disable()
        rss_client0 = rss_kb(os.getpid())
        rng = random.Random(args.seed)
        sem = asyncio.Semaphore(20)
        players = await asyncio.gather(
            *(bounded(sem, new_guest(http, f"p{i}{s}")) for i in range(args.tables) for s in SEATS)
        )
        tasks = [
            asyncio.create_task(
                run_table(
                    server,
                    http,
                    list(players[4 * i : 4 * i + 4]),
                    args.game,
                    args.preset,
                    stats,
                    stop,
                    rng,
                    args.think,
                )
            )
            for i in range(args.tables)
        ]
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
        rss_peak = 0
        end = t0 + args.seconds
        while time.perf_counter() < end:
            await asyncio.sleep(min(1.0, max(0.0, end - time.perf_counter())))
            rss_peak = max(rss_peak, rss_kb(server.pid))
        stats.measuring = False
        elapsed = time.perf_counter() - t0
        window = (time.time() - elapsed, time.time())
        gc.callbacks.remove(gc_hook)
        out["server_cpu"] = (cpu_seconds(server.pid) - cpu0) / elapsed
        out["rss_load_kb"] = rss_peak
        out["client_rss_growth_kb"] = rss_kb(os.getpid()) - rss_client0
        stop.set()
        _, pending = await asyncio.wait([*tasks, probe], timeout=RECV_TIMEOUT + 10)
        for t in pending:
            t.cancel()
        gc.enable()
        gc.unfreeze()
        for t in tasks:
            if t.done() and not t.cancelled() and t.exception() is not None:
                out.setdefault("failures", []).append(repr(t.exception()))
        out.update(
            elapsed=elapsed,
            actions=stats.actions,
            actions_per_s=stats.actions / elapsed,
            measured=len(stats.latencies),
            p50_ms=pct(stats.latencies, 50) * 1000,
            p90_ms=pct(stats.latencies, 90) * 1000,
            p99_ms=pct(stats.latencies, 99) * 1000,
            max_ms=max(stats.latencies, default=float("nan")) * 1000,
            mean_ms=(statistics.fmean(stats.latencies) * 1000) if stats.latencies else float("nan"),
            errors=stats.errors,
            stalls=stats.stalls,
            games_finished=stats.games_finished,
            window=window,
            samples=stats.samples,
            client_lag=[x for x in stats.lags if window[0] <= x[0] <= window[1]],
            client_gc=[x for x in stats.gc_pauses if window[0] <= x[0] <= window[1]],
            created=[t for t in stats.created if window[0] <= t <= window[1]],
        )
    return out


def ms(x: float) -> str:
    return f"{x * 1000:.1f}"


def report_timings(out: dict[str, Any], server: dict[str, list[list[float]]]) -> None:
    """Where the time goes: the server's phases of an action, its database
    thread and event loop, and the client's own event loop and GC, all in
    the measured window."""
    lo, hi = out["window"]

    def rows(kind: str) -> list[list[float]]:
        return [r for r in server.get(kind, []) if lo <= r[0] <= hi]

    acts = rows("act")
    if acts:
        total = [sum(r[1:]) for r in acts]
        parts = ", ".join(
            f"{name} p50 {ms(pct([r[i] for r in acts], 50))} / p99 {ms(pct([r[i] for r in acts], 99))}"
            for i, name in ((1, "table lock"), (2, "commit"), (4, "broadcast"))
        )
        print(
            f"server, act received -> last send of its broadcast ({len(acts)}): p50 {ms(pct(total, 50))} ms, "
            f"p99 {ms(pct(total, 99))} ms, max {ms(max(total))} ms; {parts} ms"
        )
    batches = rows("batch")
    if batches:
        sizes = [r[1] for r in batches]
        took = [r[2] for r in batches]
        print(
            f"server DB thread: {len(batches)} group commits, {statistics.fmean(sizes):.1f} writes each, "
            f"commit p50 {ms(pct(took, 50))} ms, p99 {ms(pct(took, 99))} ms, max {ms(max(took))} ms, "
            f"busy {sum(took) / (hi - lo) * 100:.0f}% of the time in group commits"
        )
    for kind in sorted(k for k in server if k.startswith("run:") or k == "create_table"):
        rs = rows(kind)
        if rs:
            d = [r[1] for r in rs]
            print(
                f"server {kind}: {len(rs)} calls, p50 {ms(pct(d, 50))} ms, p99 {ms(pct(d, 99))} ms, max {ms(max(d))} ms"
            )
    for who, lag, pauses in (
        ("server", [r[1] for r in rows("lag")], [r[1] for r in rows("gc")]),
        ("client", [x[1] for x in out["client_lag"]], [x[1] for x in out["client_gc"]]),
    ):
        print(
            f"{who} event loop: {sum(1 for x in lag if x > 0.01)} stalls > 10 ms, {sum(1 for x in lag if x > 0.05)} > 50 ms, "
            f"max {ms(max(lag, default=0.0))} ms; GC: {len(pauses)} collections, max {ms(max(pauses, default=0.0))} ms, "
            f"total {ms(sum(pauses))} ms"
        )
    # which seconds hold the tail
    samples = out["samples"]
    if samples:
        by_second: dict[int, list[float]] = {}
        for t, lat in samples:
            by_second.setdefault(int(t - lo), []).append(lat)
        created: dict[int, int] = {}
        for t in out["created"]:
            created[int(t - lo)] = created.get(int(t - lo), 0) + 1
        slow = [sec for sec, xs in sorted(by_second.items()) if pct(xs, 99) > 0.1]
        line = ", ".join(
            f"s{sec}: p99 {ms(pct(by_second[sec], 99))} ms, {created.get(sec, 0)} tables created"
            for sec in slow
        )
        print(f"seconds with p99 > 100 ms: {line or 'none'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=300, help="active tables (4 clients each)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured duration of the load phase")
    ap.add_argument("--idle-tables", type=int, default=None, help="idle tables for memory (default --tables)")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds of load before measuring")
    ap.add_argument(
        "--think", type=float, default=0.0,
        help="mean pause (s) before a client acts; 0: act at once (saturation)",
    )  # fmt: skip
    ap.add_argument("--game", default="500")
    ap.add_argument("--preset", default=None)
    ap.add_argument("--db", default=None, help="database URL (default: SQLite file in a temporary folder)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", default=None, help="write every sample and the server's timings here (JSON)")
    ap.add_argument("--no-uvloop", action="store_true", help="run the clients on the default event loop")
    args = ap.parse_args()
    if args.idle_tables is None:
        args.idle_tables = args.tables
    if args.tables < 0 or args.idle_tables < 0 or args.seconds <= 0:
        ap.error("--tables/--idle-tables must be >= 0 and --seconds > 0")

    loop_name = "asyncio"
    runner: Callable[[Any], Any] = asyncio.run
    if not args.no_uvloop:
        try:
            import uvloop

            runner, loop_name = uvloop.run, "uvloop"
        except ImportError:  # pragma: no cover
            pass

    with tempfile.TemporaryDirectory(prefix="room-load-") as tmp:
        db = args.db or f"sqlite:///{tmp}/room.db"
        server = Server(db, free_port(), timings=f"{tmp}/timings.json")
        server.start()
        try:
            out = runner(main_async(args, server))
        finally:
            server.stop()
        timings_file = Path(f"{tmp}/timings.json")
        timings = json.loads(timings_file.read_text()) if timings_file.exists() else {}

    print(f"machine: {machine()}")
    print(f"server: trumps serve --db {db.split('///')[0]}///... --bot-delay 0 (pid {server.pid}), "
          f"clients: one process on {loop_name}")  # fmt: skip
    print(f"game: {args.game} preset={args.preset}, think time {args.think} s")
    if args.idle_tables:
        print(
            f"memory: RSS {out['rss_empty_kb'] / 1024:.1f} MiB empty, {out['rss_idle_kb'] / 1024:.1f} MiB "
            f"with {args.idle_tables} idle tables (3 seated clients each) "
            f"-> {out['kb_per_idle_table']:.0f} KB per idle table"
        )
    print(
        f"load: {args.tables} active tables for {out['elapsed']:.1f} s: {out['actions']} actions, "
        f"{out['actions_per_s']:.0f} actions/s, server CPU {out['server_cpu'] * 100:.0f}% of a core, "
        f"peak RSS {out['rss_load_kb'] / 1024:.1f} MiB (client RSS +{out['client_rss_growth_kb'] / 1024:.0f} MiB "
        "with its GC off)"
    )
    print(
        f"latency action -> state at all 4 seats ({out['measured']} samples): "
        f"p50 {out['p50_ms']:.1f} ms, p90 {out['p90_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms, "
        f"max {out['max_ms']:.1f} ms"
    )
    print(
        f"games finished: {out['games_finished']}, errors: {out['errors']}, stalls: {out['stalls']}, "
        f"failures: {len(out.get('failures', []))}"
    )
    for f in out.get("failures", [])[:3]:
        print("  failure:", f)
    report_timings(out, timings)
    if args.dump:
        Path(args.dump).write_text(json.dumps({"client": out, "server": timings}))
    ok_load = out["p99_ms"] < 100 and not out.get("failures") and not out["stalls"]
    print(
        f"target >= 300 active tables with p99 < 100 ms: {'met' if ok_load and args.tables >= 300 else 'NOT met'}"
    )
    if args.idle_tables:
        print(f"target <= 250 KB per idle table: {'met' if out['kb_per_idle_table'] <= 250 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
