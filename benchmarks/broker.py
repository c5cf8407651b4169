"""Which broker for messages between the room's worker processes: PostgreSQL
LISTEN/NOTIFY or Redis pub/sub?

    python benchmarks/broker.py [--messages N] [--payload BYTES ...] [--rate R] [--batch B]

(about 90 s with the defaults on 2 CPUs; ``redis`` from PyPI is needed for
the Redis half, and is a benchmark-only dependency).

Starts a throw-away PostgreSQL server (``tests/room/pg.py``) and a throw-away
``redis-server`` (Debian's package; skipped with a message when it or
redis-py is missing), both on loopback, and measures with the clients the
room would use (psycopg 3 async, redis-py asyncio):

1. Latency: one publisher sends ``--messages`` messages paced at ``--rate``
   per second; each payload starts with the send time
   (``time.monotonic_ns``, one clock for all processes on Linux), and each
   subscriber records when it received it.  p50/p99/max one-way latency,
   with one subscriber and with two (fan-out).
2. Saturation: the same messages published back to back, each publish
   awaited (one round trip per message, as an application sending one
   message at a time would), with one and two subscribers.  Reported:
   publish rate and delivery rate (messages received per second per
   subscriber, from the first send to the last receipt).
3. Batched saturation: the same, ``--batch`` messages per round trip
   (PostgreSQL: one transaction of ``pg_notify`` calls, as a worker
   flushing its queue would send them; Redis: a pipeline of PUBLISH).
   With one client round trip per message, the Python client, not the
   broker, is what saturates first; batching shows how far the broker goes.
4. PostgreSQL only, "notify in the commit": commits/s of a transaction that
   inserts one small row, alone and with a ``pg_notify`` in the same
   transaction, with one listener draining the channel; each statement
   awaited (the extra round trip counted) or the whole transaction sent as
   one query (only the server's extra work counted); on one connection and
   on two (NOTIFY holds a global lock until its commit is done, so
   notifying commits are serialised).  A commit waits for the disk's flush,
   whose time varies, so each case runs several times, interleaved, and
   the median is reported.

Every message run also reports CPU time per message: of the broker server
(all its processes, from ``/proc``), of the publishing client and of one
subscribing client (``time.process_time``), since on a machine shared with
the room's workers the broker's CPU is taken from them.

Subscribers run in their own processes (as workers would), the publisher in
this one.  Every payload size is run for both brokers; PostgreSQL refuses a
NOTIFY payload of 8,000 bytes or more, so such sizes are skipped for it.
Every server started here is stopped at the end, also on error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import importlib.util
import multiprocessing as mp
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psycopg

CHANNEL = "bench"
STOP = "stop"  # the payload that ends a subscriber's run
PG_PAYLOAD_LIMIT = 8000  # NOTIFY's payload must be shorter than this (bytes)
STAMP = 20  # digits of the send time at the head of each payload
ROOT = Path(__file__).resolve().parent.parent


def _pg_helper() -> Any:
    """The tests' throw-away server module, ``tests/room/pg.py``."""
    if str(ROOT / "tests" / "room") not in sys.path:
        sys.path.insert(0, str(ROOT / "tests" / "room"))
    return importlib.import_module("pg")


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A private PostgreSQL server; yields a libpq URL."""
    with _pg_helper().postgres_server() as url:
        yield url.replace("postgresql+psycopg://", "postgresql://")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat(pid: int) -> list[str]:
    """Fields of /proc/PID/stat after the command name (field 3 is [0])."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by a server process, its threads and its
    children (reaped ones included: PostgreSQL's backends end up there)."""
    fields = _stat(pid)
    ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                child = _stat(int(entry))
                if int(child[1]) == pid:
                    ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def postmaster_pid(url: str) -> int:
    """The PostgreSQL server's main process: the parent of a backend."""
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    return int(_stat(int(row[0]))[1])


@contextlib.contextmanager
def redis_server() -> Iterator[tuple[int, int] | None]:
    """A private redis-server without persistence; yields its port and pid,
    or None (after saying why) when the server or redis-py is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        print("redis-server not found (apt-get install -y redis-server): Redis skipped")
        yield None
        return
    if importlib.util.find_spec("redis") is None:
        print("redis-py not installed (pip install redis): Redis skipped")
        yield None
        return
    base = tempfile.mkdtemp(prefix="trumps-redis-")
    port = _free_port()
    options = f"--port {port} --bind 127.0.0.1 --appendonly no --dir {base}".split()
    proc = subprocess.Popen(
        [binary, *options, "--save", ""], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------- subscribers


@dataclass
class Received:
    """What one subscriber got: (sent_ns, received_ns) per message, and the
    CPU time it spent from subscribing to the STOP message."""

    pairs: list[tuple[int, int]] = field(default_factory=list)
    error: str | None = None
    cpu: float = 0.0


def _stamp(payload: str | bytes) -> int:
    return int(payload[:STAMP])


async def _listen_pg(url: str, ready: Connection, limit: float) -> Received:
    got = Received()
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(f"LISTEN {CHANNEL}")
        ready.send("ready")
        cpu = time.process_time()
        try:
            async with asyncio.timeout(limit):
                async for note in conn.notifies():
                    now = time.monotonic_ns()
                    if note.payload == STOP:
                        break
                    got.pairs.append((_stamp(note.payload), now))
        except TimeoutError:
            got.error = f"timed out after {limit:.0f} s"
        got.cpu = time.process_time() - cpu
    return got


async def _listen_redis(port: int, ready: Connection, limit: float) -> Received:
    import redis.asyncio as aioredis

    got = Received()
    client = aioredis.Redis(host="127.0.0.1", port=port)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(CHANNEL)
        ready.send("ready")  # the publisher waits for PUBSUB NUMSUB as well
        cpu = time.process_time()
        try:
            async with asyncio.timeout(limit):
                async for message in pubsub.listen():
                    now = time.monotonic_ns()
                    if message["type"] != "message":
                        continue
                    data = message["data"]
                    if data == STOP.encode():
                        break
                    got.pairs.append((_stamp(data), now))
        except TimeoutError:
            got.error = f"timed out after {limit:.0f} s"
        except Exception as e:  # e.g. dropped for exceeding the output buffer
            got.error = f"{type(e).__name__}: {e}"
        got.cpu = time.process_time() - cpu
    finally:
        await pubsub.aclose()
        await client.aclose()
    return got


def _subscriber(broker: str, target: str, limit: float, pipe: Connection) -> None:
    """Process entry: subscribe, say ready, collect until STOP, send back."""
    if broker == "postgres":
        got = asyncio.run(_listen_pg(target, pipe, limit))
    else:
        got = asyncio.run(_listen_redis(int(target), pipe, limit))
    pipe.send((got.pairs, got.error, got.cpu))


@contextlib.contextmanager
def subscribers(broker: str, target: str, count: int, limit: float) -> Iterator[Callable[[], list[Received]]]:
    """Start ``count`` subscriber processes, wait until they listen, and yield
    a function that collects their results (after the publisher's STOP)."""
    ctx = mp.get_context("spawn")
    procs: list[tuple[Any, Connection]] = []
    try:
        for _ in range(count):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_subscriber, args=(broker, target, limit, theirs), daemon=True)
            proc.start()
            procs.append((proc, mine))
        for proc, pipe in procs:
            if not pipe.poll(30) or pipe.recv() != "ready":
                raise RuntimeError(f"{broker} subscriber did not start (exit code {proc.exitcode})")

        def collect() -> list[Received]:
            out = []
            for _, pipe in procs:
                if not pipe.poll(limit + 30):
                    raise RuntimeError(f"{broker} subscriber did not report")
                pairs, error, cpu = pipe.recv()
                out.append(Received(pairs, error, cpu))
            return out

        yield collect
    finally:
        for proc, pipe in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join()
            pipe.close()


# ----------------------------------------------------------------- publishers

Publish = Callable[[list[str]], Awaitable[Any]]


@contextlib.asynccontextmanager
async def pg_publisher(url: str) -> AsyncIterator[Publish]:
    """One message: ``SELECT pg_notify`` in autocommit (its own transaction).
    Several: one transaction, ``executemany`` (pipelined by psycopg)."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:

        async def publish(payloads: list[str]) -> None:
            if len(payloads) == 1:
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payloads[0]))
                return
            async with conn.transaction(), conn.cursor() as cur:
                await cur.executemany("SELECT pg_notify(%s, %s)", [(CHANNEL, p) for p in payloads])

        yield publish


@contextlib.asynccontextmanager
async def redis_publisher(port: int) -> AsyncIterator[Publish]:
    """One message: ``PUBLISH``.  Several: one pipeline (no MULTI)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis(host="127.0.0.1", port=port)
    try:

        async def publish(payloads: list[str]) -> None:
            if len(payloads) == 1:
                await client.publish(CHANNEL, payloads[0])
                return
            pipe = client.pipeline(transaction=False)
            for p in payloads:
                pipe.publish(CHANNEL, p)
            await pipe.execute()

        yield publish
    finally:
        await client.aclose()


async def _redis_wait_subscribed(port: int, count: int) -> None:
    import redis.asyncio as aioredis

    client = aioredis.Redis(host="127.0.0.1", port=port)
    try:
        for _attempt in range(300):
            [(_channel, n)] = await client.pubsub_numsub(CHANNEL)
            if n >= count:
                return
            await asyncio.sleep(0.01)
        raise RuntimeError("Redis subscribers did not subscribe")
    finally:
        await client.aclose()


async def _publish_run(
    broker: str, target: str, n: int, size: int, rate: float | None, batch: int, subs: int
) -> tuple[float, float]:
    """Publish n messages, ``batch`` per call (paced at rate/s, or back to
    back), then STOP; return the publishing rate achieved (messages/s) and
    the CPU seconds this process spent publishing."""
    if broker == "redis":
        await _redis_wait_subscribed(int(target), subs)
    pad = "x" * (size - STAMP)
    opener = pg_publisher(target) if broker == "postgres" else redis_publisher(int(target))
    async with opener as publish:
        cpu = time.process_time()
        start = time.monotonic()
        for i in range(0, n, batch):
            if rate is not None:
                delay = start + i / rate - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            await publish([f"{time.monotonic_ns():0{STAMP}d}{pad}" for _ in range(min(batch, n - i))])
        elapsed = time.monotonic() - start
        cpu = time.process_time() - cpu
        await publish([STOP])
    return n / elapsed, cpu


# -------------------------------------------------------------------- results


@dataclass
class Row:
    broker: str
    test: str
    payload: int
    subs: int
    sent_rate: float
    recv_rate: float  # per subscriber, the slowest one
    lost: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    srv_us: float  # CPU per message: the broker server (all deliveries)
    pub_us: float  # the publishing client
    sub_us: float  # one subscribing client (mean)
    note: str = ""


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@dataclass
class Broker:
    name: str  # "postgres" or "redis"
    target: str  # a libpq URL, or Redis's port
    pid: int  # the server's main process


def measure(broker: Broker, test: str, n: int, size: int, rate: float | None, batch: int, subs: int) -> Row:
    limit = 60.0 + (n / rate if rate else n / 500)
    with subscribers(broker.name, broker.target, subs, limit) as collect:
        srv_cpu = server_cpu(broker.pid)
        sent_rate, pub_cpu = asyncio.run(_publish_run(broker.name, broker.target, n, size, rate, batch, subs))
        results = collect()
    time.sleep(0.2)  # closed connections' backends exit and are reaped
    srv_cpu = server_cpu(broker.pid) - srv_cpu
    latencies = sorted((r - s) / 1e6 for got in results for s, r in got.pairs)
    recv_rates = [
        len(got.pairs) / ((got.pairs[-1][1] - got.pairs[0][0]) / 1e9) if len(got.pairs) > 1 else 0.0
        for got in results
    ]
    errors = sorted({got.error for got in results if got.error})
    return Row(
        broker=broker.name,
        test=test,
        payload=size,
        subs=subs,
        sent_rate=sent_rate,
        recv_rate=min(recv_rates),
        lost=sum(n - len(got.pairs) for got in results),
        p50_ms=statistics.median(latencies) if latencies else float("nan"),
        p99_ms=_quantile(latencies, 0.99),
        max_ms=latencies[-1] if latencies else float("nan"),
        srv_us=srv_cpu / n * 1e6,
        pub_us=pub_cpu / n * 1e6,
        sub_us=statistics.mean(got.cpu / max(1, len(got.pairs)) for got in results) * 1e6,
        note="; ".join(errors),
    )


# ------------------------------------------------------- notify in the commit


INSERT = "INSERT INTO bench_rows (table_id, seq, body) VALUES (%s, %s, %s)"
NOTIFY = "SELECT pg_notify(%s, %s)"


async def _commit_loop(url: str, notify: bool, one_query: bool, seconds: float, body: str) -> int:
    """Commit one-row transactions (with a NOTIFY in each if ``notify``) for
    ``seconds``: each statement awaited, or the whole transaction sent as one
    query (one round trip: the difference is then the server's work)."""
    commits = 0
    async with await psycopg.AsyncConnection.connect(url, autocommit=one_query) as conn:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if one_query:  # literals only (digits and "x"), so no quoting is needed
                note = (
                    f"SELECT pg_notify('{CHANNEL}', '{time.monotonic_ns():0{STAMP}d}{body}');"
                    if notify
                    else ""
                )
                await conn.execute(
                    f"BEGIN; INSERT INTO bench_rows (table_id, seq, body) VALUES (1, {commits}, '{body}');"
                    f" {note} COMMIT"
                )
            else:
                async with conn.transaction():
                    await conn.execute(INSERT, (1, commits, body))
                    if notify:
                        await conn.execute(NOTIFY, (CHANNEL, f"{time.monotonic_ns():0{STAMP}d}{body}"))
            commits += 1
    return commits


async def _commit_rate(url: str, notify: bool, one_query: bool, connections: int, seconds: float) -> float:
    body = "x" * 100
    counts = await asyncio.gather(
        *(_commit_loop(url, notify, one_query, seconds, body) for _ in range(connections))
    )
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("TRUNCATE bench_rows")
    return sum(counts) / seconds


async def _notify_stop(url: str) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(NOTIFY, (CHANNEL, STOP))


@dataclass
class CommitRow:
    what: str  # "INSERT" or "INSERT + NOTIFY"
    mode: str  # "awaited" (one round trip per statement) or "one query"
    connections: int
    rates: list[float]  # commits/s of each round, all connections together

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)


def measure_commits(url: str, seconds: float, rounds: int) -> list[CommitRow]:
    """Commits/s of INSERT vs INSERT + pg_notify in one transaction, each
    statement awaited or all in one query, on 1 and 2 connections.  The
    disk's flush time varies, so every case runs ``rounds`` times, the cases
    interleaved, and the median is reported with the range."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_rows"
            " (id bigserial PRIMARY KEY, table_id int NOT NULL, seq int NOT NULL, body text NOT NULL)"
        )
    rows = [
        CommitRow("INSERT + NOTIFY" if notify else "INSERT", mode, connections, [])
        for connections in (1, 2)
        for mode in ("awaited", "one query")
        for notify in (False, True)
    ]
    # a listener drains the channel, as the other workers would
    with subscribers("postgres", url, 1, rounds * len(rows) * (seconds + 1) + 60) as collect:
        for _ in range(rounds):
            for row in rows:
                notify = row.what != "INSERT"
                rate = _commit_rate(url, notify, row.mode == "one query", row.connections, seconds)
                row.rates.append(asyncio.run(rate))
        asyncio.run(_notify_stop(url))
        collect()
    return rows


# ---------------------------------------------------------------------- main


def _version(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "not installed"


def machine(pg_bin: str) -> list[str]:
    model = "?"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    try:
        import redis

        redis_py = redis.__version__
        hiredis = "with hiredis" if importlib.util.find_spec("hiredis") else "pure-Python parser"
    except ImportError:
        redis_py, hiredis = "not installed", ""
    return [
        f"machine: {len(os.sched_getaffinity(0))} CPUs (nproc), {model}, {platform.system()} {platform.release()}",
        f"python {platform.python_version()}, psycopg {psycopg.__version__}, redis-py {redis_py} {hiredis}".rstrip(),
        f"{_version([pg_bin, '--version'])}; {_version(['redis-server', '--version']) or 'redis-server not installed'}",
    ]


def _table(head: list[str], rows: list[list[str]]) -> str:
    """A Markdown table (numbers right-aligned), readable as plain text too."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    right = [any(r[i][:1] in tuple("0123456789+-") for r in rows if r[i]) for i in range(len(head))]

    def line(cells: list[str]) -> str:
        return (
            "| "
            + " | ".join(
                c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True)
            )
            + " |"
        )

    rule = (
        "|"
        + "|".join(("-" * (w + 1)) + (":" if r else "-") for w, r in zip(widths, right, strict=True))
        + "|"
    )
    return "\n".join([line(head), rule, *(line(r) for r in rows)])


def _cells(r: Row) -> list[str]:
    rates = [f"{r.sent_rate:,.0f}", f"{r.recv_rate:,.0f}", str(r.lost)]
    times = [f"{r.p50_ms:.2f}", f"{r.p99_ms:.2f}", f"{r.max_ms:.2f}"]
    cpu = [f"{r.srv_us:.0f}", f"{r.pub_us:.0f}", f"{r.sub_us:.0f}"]
    return [r.broker, r.test, str(r.payload), str(r.subs), *rates, *times, *cpu]


def _commit_cells(c: CommitRow, insert_rate: float) -> list[str]:
    change = "" if c.what == "INSERT" else f"{c.rate / insert_rate - 1:+.0%}"
    spread = f"{min(c.rates):,.0f}–{max(c.rates):,.0f}"
    return [c.what, c.mode, str(c.connections), f"{c.rate:,.0f}", spread, change]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=10_000, help="messages per run (default 10000)")
    parser.add_argument("--payload", type=int, nargs="+", default=[300, 3000], help="payload sizes, bytes")
    parser.add_argument("--rate", type=float, default=2000.0, help="paced rate for latency, msgs/s")
    parser.add_argument("--batch", type=int, default=100, help="messages per call in the batched runs")
    parser.add_argument("--commit-seconds", type=float, default=1.0, help="seconds per commit-rate run")
    parser.add_argument("--commit-rounds", type=int, default=3, help="runs of each commit-rate case")
    args = parser.parse_args()
    if min(args.payload) < STAMP + 1:
        parser.error(f"payloads must be at least {STAMP + 1} bytes (they carry a timestamp)")

    print("\n".join(machine(_pg_helper()._bin("postgres"))))
    print(f"{args.messages} messages per run; latency paced at {args.rate:.0f}/s; loopback TCP")
    print(
        "load average before: {:.2f} {:.2f} {:.2f} (other work on the machine skews every figure)".format(
            *os.getloadavg()
        )
    )
    started = time.monotonic()
    tests: list[tuple[str, float | None, int]] = [
        ("latency", args.rate, 1),
        ("saturation", None, 1),
        (f"batch {args.batch}", None, args.batch),
    ]
    rows: list[Row] = []
    with postgres() as pg_url, redis_server() as redis:
        brokers = [Broker("postgres", pg_url, postmaster_pid(pg_url))]
        if redis is not None:
            brokers.append(Broker("redis", str(redis[0]), redis[1]))
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SHOW synchronous_commit").fetchone()
            print(f"postgres: default settings (synchronous_commit={row[0] if row else '?'}, fsync on)")
        for size in args.payload:
            for broker in brokers:
                if broker.name == "postgres" and size >= PG_PAYLOAD_LIMIT:
                    print(f"postgres: {size} B skipped (a NOTIFY payload must be < {PG_PAYLOAD_LIMIT} bytes)")
                    continue
                for subs in (1, 2):
                    for test, rate, batch in tests:
                        r = measure(broker, test, args.messages, size, rate, batch, subs)
                        rows.append(r)
                        print(f"  {r.broker} {test} {size} B x{subs}: {r.recv_rate:,.0f}/s", flush=True)
        commit_rows = measure_commits(pg_url, args.commit_seconds, args.commit_rounds)

    print()
    head = ["broker", "test", "payload B", "subs", "sent/s", "recv/s", "lost", "p50 ms", "p99 ms", "max ms"]
    head += ["srv µs", "pub µs", "sub µs"]
    print(_table(head, [_cells(r) for r in rows]))
    for r in rows:
        if r.note:
            print(f"note: {r.broker} {r.test} {r.payload} B x{r.subs}: {r.note}")
    print("recv/s: per subscriber (the slowest); latency: from just before the publish call to receipt;")
    print("µs: CPU time per message of the broker server (all its processes, every delivery),")
    print(
        f"the publishing client, and one subscribing client (server: /proc's 10 ms ticks / {args.messages} messages)"
    )
    print()
    base = {(c.mode, c.connections): c.rate for c in commit_rows if c.what == "INSERT"}
    print(
        f"postgres, one-row INSERT transactions, one listener; median of {args.commit_rounds} runs"
        f" of {args.commit_seconds:g} s (range):"
    )
    head = ["transaction", "statements", "conns", "commits/s", "range", "vs INSERT"]
    print(_table(head, [_commit_cells(c, base[c.mode, c.connections]) for c in commit_rows]))
    print(f"total {time.monotonic() - started:.0f} s; load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
