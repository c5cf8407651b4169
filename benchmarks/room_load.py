"""Load test of the card room: ``trumps serve`` in its own process, N tables
of four WebSocket clients each in this (one) process, on loopback.

    python benchmarks/room_load.py --tables 300 --seconds 30 [--idle-tables 300]
    python benchmarks/room_load.py --tables 300 --think 0 --idle-tables 0 --client-procs 4

One process of clients saturates one core (~1,800 actions/s on a fast
one): to load a server (or several workers) that does more,
``--client-procs N`` runs the playing tables' clients in N processes of
their own (spawned; table ``i`` in process ``i % N``), each its own event
loop making its own guests and tables against the same server(s).  They
all open and close the measured window at the same wall-clock times (sent
once every process plays), and their counts, latencies and loop lags are
merged into the one report; "load generator" CPU is their sum.  The idle
tables (memory) stay in this process.  Not with ``--failover`` (it marks
every client at the kill).

1. Memory: the server's RSS (``/proc/PID/status``) with no table, then with
   ``--idle-tables`` tables created and seated but not playing (three
   clients sit, the fourth seat stays empty, their sockets stay open);
   the difference divided by the number of tables is the memory per table.
2. Load: ``--tables`` tables, each with four guest clients (one cookie
   each) sitting N/E/S/W.  A client whose turn it is plays a random legal
   action from its own view.  A game that ends is replaced by a new table
   with the same four players.  Reported: actions per second, the server's
   CPU per action (ms; with several workers their sum: what runs with 1, 2
   or 4 workers compare), and the latency from sending an action to the
   state carrying it (its ``seq``) having reached all four seats of the
   table (p50/p90/p99/max).
3. Where the time goes: the server runs with ``TRUMPS_ROOM_TIMINGS`` (see
   ``trumps.room.timing``) and writes, for the measured window, the phases
   of every action (table lock, commit wait, broadcast), its group commits,
   table creations, the CPU of making each broadcast's state events (the
   same work in every run: what it costs shows how fast the machine runs
   the room's code, apart from how the work is divided between workers),
   GC pauses and, with ``--lag-probe``, event-loop lag (the probe wakes each
   worker 200 times a second, so it is off by default: its cost is per
   worker and would grow the CPU per action with the number of workers);
   the client measures its own event-loop lag and GC pauses.  Printed
   after the figures, with the seconds whose p99 is over 100 ms and how
   many tables were created in each (``--dump FILE`` keeps every sample as
   JSON).

The client's garbage collector is off during the load (after a collection
and ``gc.freeze()``): with 1,200 sockets in one process its collections
stopped every client for up to 250 ms, 3-5 s per 30 s run, and that time was
counted as server latency.  Its RSS growth is printed.

Everything runs on 127.0.0.1 with timeouts; the server is stopped at the end.

**Several workers** (``trumps.room.cluster``; figures in ``docs/benchmarks-cluster.md``)::

    python benchmarks/room_load.py --compare-workers 2 --tables 300 --think 0 --idle-tables 0
    python benchmarks/room_load.py --workers 2 --tables 1000 --think 0.6 --idle-tables 0
    python benchmarks/room_load.py --failover --workers 2 --tables 50 --think 0.6 --idle-tables 0
    python benchmarks/room_load.py --rolling --workers 3 --tables 300 --seconds 40 --think 0.6 --idle-tables 0
    python benchmarks/room_load.py --workers 2 --tables 0 --idle-tables 300

With ``--postgres``, ``--workers N > 1`` or ``--failover`` the room runs on a
throw-away PostgreSQL server (``tests/room/pg.py``; or ``--db
postgresql+psycopg://...``) as N ``trumps serve`` processes, behind nginx
running the shipped ``deploy/nginx/trumps.conf`` (``tests/room/nginx.py``
renders it; only ``worker_connections`` is raised for thousands of sockets)
when N > 1 or with ``--proxy``.  The same load goes through the proxy, so
tables are made on any worker and a table's four sockets are spread round
robin over the workers; the ones not on the table's owner are relayed
through LISTEN/NOTIFY.  The clients then behave like the table page: a
dropped socket is opened again (after 1 s, or 0.1-0.3 s after a 1012
handover) with ``?since=<last seq>``, a move lost with its socket is sent
again when the next socket shows the state it answered, a state shown
again is acted on again (an action sent through a worker just as the owner
died is lost), what came while a client "thought" is looked at before it
acts, and a ``route`` event is followed (with ``again``, to the same worker).
A table creation answered with 5xx is tried again and counted.  The window
opens after ``--warmup`` once every table has played its first action (the
set-up of 1,000 tables takes longer than a few seconds).  Reported besides
the figures above: the CPU of every process involved (the workers' sum is
"server CPU") and of the whole machine, PostgreSQL commits per action
(``pg_stat_database.xact_commit``), with ``--count-notify`` the
notifications per action by message kind (a listener process on every
channel counts them), the workers' stderr and nginx's error log.

- ``--compare-workers N``: this command twice, as ``--workers 1 --proxy
  --postgres`` then ``--workers N``, and the ratio of actions per second.
- ``--route owner``: each table is made on worker ``i % N`` and its sockets
  go straight to it, the owner (no relaying): for comparison, what routing
  by table would give.
- ``--rolling``: ``--kill-after`` seconds into the measured window, every
  worker in turn is stopped normally (SIGTERM: it hands its tables over and
  waits for nginx to close its pooled connections) and started again, 2 s
  between one answering again and the next one's stop, while a guest POSTs
  through nginx every 20 ms.  Reported: each stop's and start's time, the
  latency of the actions sent while a worker was stopping or starting next
  to the rest of the window's, and the POSTs' answers (anything but the
  room's 403 is a request lost).
- ``--failover``: ``--kill-after`` seconds into the measured window, the
  worker that owns the most tables (its backend's advisory locks in
  ``pg_locks``, mapped to a worker process by the connection's client port)
  is killed with SIGKILL.  Reported: how long until none of its tables is
  unowned, and for every client the time from the kill to its next state
  with a new ``seq`` (on its table, or on the next one if the game ended),
  and whether every table that was being played went on.

Every process started (PostgreSQL, workers, nginx, the counter) is stopped
at the end, also on an error, Ctrl-C or SIGTERM; workers and the counter die
with this process even if it is killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import itertools
import json
import multiprocessing
import os
import platform
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from http.cookiejar import DefaultCookiePolicy
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import websockets

try:  # faster JSON parsing in the load generator if available (not needed)
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover
    loads = json.loads

SEATS = ("N", "E", "S", "W")
HOST = "127.0.0.1"
SLOW = 0.5  # seconds: an action slower than this is kept with its table in the --dump file
RECV_TIMEOUT = 30.0  # a table silent for this long is reported as stalled
ROOT = Path(__file__).resolve().parents[1]
# The room counts the sockets of all the guests of one address together and
# refuses those beyond 256 (trumps.room.limits.SOCKETS_PER_ADDRESS; --unmetered
# exempts an address from the guest and password budgets, not from this): the
# sockets of every block of tables come from an address of their own on the
# loopback network (all of 127.0.0.0/8 reaches the server on Linux), at most
# 200 per address, so a socket reopened before the room has counted its old
# one closed is not refused either.  HTTP requests stay on 127.0.0.1 (guests
# are made there, unmetered).
TABLES_PER_ADDRESS = 50  # x 4 sockets
IDLE_TABLES_PER_ADDRESS = 64  # x 3 sockets
TEST_HELPERS = ROOT / "tests" / "room"  # pg.py (throw-away PostgreSQL), nginx.py (the shipped site file)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid``; 0 for a process that is exiting (its
    memory gone, no VmRSS line) or gone (a worker stopped by --rolling)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    """CPU of a process and all its descendants, the ones that already
    exited and were waited for included (cutime/cstime): PostgreSQL's
    backends, nginx's workers."""
    tck = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, float]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            f = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        procs[int(d)] = (int(f[1]), (int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])) / tck)
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            total += procs[pid][1]
        todo.extend(children.get(pid, []))
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (/proc/stat)."""
    f = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    tck = os.sysconf("SC_CLK_TCK")
    total = sum(f[:8])
    return (total - f[3] - f[4]) / tck, total / tck


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


def code_version() -> str:
    """The commit the room's code is at, and whether src/ has changes not committed."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return "?"
    changed = [line[3:] for line in dirty if line.strip()]
    return head + (f" + uncommitted changes in {', '.join(changed)}" if changed else "")


def client_address(n: int, per: int, net: int = 1) -> str:
    """The loopback address the sockets of the ``n``-th table come from:
    one per ``per`` tables (``net`` 1 for the playing tables, 2 for the idle ones).

    >>> client_address(0, 50), client_address(49, 50), client_address(50, 50), client_address(12_500, 50, 2)
    ('127.1.0.1', '127.1.0.1', '127.1.0.2', '127.2.1.1')
    """
    block = n // per
    return f"127.{net}.{block // 250}.{block % 250 + 1}"


def local_addr(address: str | None) -> dict[str, Any]:
    """``websockets.connect``'s keyword for a socket from ``address`` (none: the system's choice)."""
    return {} if address is None else {"local_addr": (address, 0)}


def die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """In a child process: be killed when this benchmark dies, however it dies."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# ----- the server -----------------------------------------------------------------
class Server:
    """One ``trumps serve`` process (the room, or one of its workers)."""

    def __init__(
        self, db: str, port: int, timings: str | None = None, log: str | None = None, name: str | None = None,
        bot_delay: float = 0.0, stdout_to_log: bool = False,
    ) -> None:  # fmt: skip
        self.db = db
        self.bot_delay = bot_delay  # 0 here (the clients play); benchmarks/soak.py plays with bots
        self.stdout_to_log = stdout_to_log  # soak.py: what a crashing C library printed last
        self.port = port
        self.name = name  # --worker-name: the nginx map routes table sockets by it
        self.timings = timings  # file the server writes its own timings to (room/timing.py)
        self.log = log  # its stderr goes here (a pipe nobody reads could fill up and block it)
        self.url = f"http://{HOST}:{port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self._cpu = 0.0  # the last CPU reading (a killed worker keeps its last one)
        self._cpu_before = 0.0  # CPU of its earlier processes (--rolling restarts it)
        self.starts = 0

    def timings_file(self, n: int) -> str | None:
        """Where its ``n``-th process writes its timings (each its own file)."""
        return None if self.timings is None else (self.timings if n == 0 else f"{self.timings}.{n}")

    def start(self, timeout: float = 60.0, wait: bool = True) -> None:
        if self.proc is not None:  # a restart: the earlier process's CPU still counts
            self._cpu_before += self._cpu
            self._cpu = 0.0
        cmd = [sys.executable, "-m", "trumps", "serve", "--port", str(self.port), "--db", self.db]
        cmd += ["--bot-delay", str(self.bot_delay)]
        # behind nginx as deployed (its X-Forwarded-For believed); every
        # simulated player is on this machine: no per-address budgets
        cmd += ["--trusted-proxies", "127.0.0.1", "--unmetered", "127.0.0.1"]
        if self.name:
            cmd += ["--worker-name", self.name]
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        timings = self.timings_file(self.starts)
        if timings:
            env["TRUMPS_ROOM_TIMINGS"] = timings
        self.starts += 1
        err: Any = subprocess.PIPE
        if self.log:
            err = open(self.log, "ab")  # noqa: SIM115 - the child holds it; closed below
        try:
            self.proc = subprocess.Popen(
                cmd, stdout=err if self.log and self.stdout_to_log else subprocess.DEVNULL, stderr=err, env=env,
                start_new_session=True,  # a Ctrl-C in the terminal reaches only this script, which stops it
                preexec_fn=die_with_parent,
            )  # fmt: skip
        finally:
            if self.log:
                err.close()
        if wait:
            self.wait_ready(timeout)

    def wait_ready(self, timeout: float = 60.0) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.stderr()[-2000:]}")
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

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu(self) -> float:
        """CPU seconds of its processes so far, any process it started
        included (of a stopped one: the last reading before its stop)."""
        if self.alive():
            # a process gone between the check and the reading counts 0: keep the last
            self._cpu = max(self._cpu, tree_cpu_seconds(self.pid))
        return self._cpu_before + self._cpu

    def rss(self) -> int:
        return rss_kb(self.pid) if self.alive() else 0

    def kill(self) -> None:
        """SIGKILL: no handover, nothing written."""
        self.cpu()
        os.kill(self.pid, signal.SIGKILL)

    def terminate(self) -> None:
        if self.alive():
            self.cpu()
            assert self.proc is not None
            self.proc.terminate()

    def stop(self, timeout: float = 20.0) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.cpu()
            self.proc.terminate()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stderr(self) -> str:
        if self.log:
            with contextlib.suppress(OSError):
                return Path(self.log).read_text(errors="replace")
            return ""
        if self.proc is None or self.proc.stderr is None or self.proc.poll() is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")


def stop_all(servers: list[Server], timeout: float = 20.0) -> None:
    """SIGTERM to every worker at once (each hands its tables over; none is
    left to take them), then wait for each (SIGKILL after ``timeout``)."""
    for s in servers:
        s.terminate()
    deadline = time.monotonic() + timeout
    for s in servers:
        s.stop(max(0.1, deadline - time.monotonic()))


class Nginx:
    """nginx with the shipped site file (``deploy/nginx/trumps.conf``, put
    in front of ``ports`` by ``tests/room/nginx.py``) in a temporary folder.
    The top-level ``nginx.conf`` is the test harness's with one change:
    room for ``connections`` connections (its 256 are for a few sockets;
    every proxied WebSocket holds two)."""

    def __init__(self, ports: list[int], connections: int, names: list[str] | None = None) -> None:
        self.ports = ports
        self.names = names if names and all(names) else None
        self.connections = connections
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.prefix: Path | None = None
        self.error_log = ""

    def start(self) -> None:
        import nginx as harness  # tests/room/nginx.py

        self.prefix = Path(tempfile.mkdtemp(prefix="room-load-nginx-"))
        self.port = free_port()
        site = self.prefix / "trumps.conf"
        site.write_text(harness.render_site(self.ports, self.port, names=self.names))
        top = harness.top_level_conf(self.prefix, site)
        if "worker_connections 256;" not in top:
            raise RuntimeError("tests/room/nginx.py: top_level_conf changed; update room_load.Nginx")
        top = top.replace("worker_connections 256;", f"worker_connections {self.connections};")
        top = f"worker_rlimit_nofile {2 * self.connections};\n" + top
        conf = self.prefix / "nginx.conf"
        conf.write_text(top)
        log = self.prefix / "error.log"
        cmd = [harness.nginx_binary(), "-p", f"{self.prefix}/", "-c", str(conf), "-e", str(log)]
        r = subprocess.run([*cmd, "-t"], capture_output=True, text=True, timeout=30, check=False)
        if r.returncode != 0:
            raise RuntimeError(f"nginx -t failed:\n{r.stdout}{r.stderr}")
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stop() kills master and workers together
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"nginx did not start:\n{log.read_text() if log.exists() else ''}")
            time.sleep(0.05)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)  # fast shutdown (SIGQUIT would wait for the sockets)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        if self.prefix is not None:
            with contextlib.suppress(OSError):
                self.error_log = (self.prefix / "error.log").read_text(errors="replace")
            import shutil

            shutil.rmtree(self.prefix, ignore_errors=True)
            self.prefix = None


# counts every notification on the room's channel and on each worker's channel
# (learnt from the senders of the room channel's messages), by tenth of a
# second and message kind; writes them to a file on SIGTERM
NOTIFY_COUNTER = r"""
import json, re, signal, sys, time
import psycopg
dsn, out = sys.argv[1], sys.argv[2]
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
signal.signal(signal.SIGINT, signal.SIG_IGN)
kind_re = re.compile(r'"k":"(\w+)"')
from_re = re.compile(r'"from":"(\w+)"\}$')
conn = psycopg.connect(dsn, autocommit=True)
conn.execute("LISTEN trumps_room")
workers = set()
counts = {}
print("listening", flush=True)
try:
    while not stop:
        new = set()
        for n in conn.notifies(timeout=0.25):
            p = n.payload
            m = kind_re.search(p, 0, 80)
            room = n.channel == "trumps_room"
            key = (int(time.time() * 10), m.group(1) if m else "?", room)
            c = counts.get(key)
            if c is None:
                counts[key] = [1, len(p)]
            else:
                c[0] += 1
                c[1] += len(p)
            if room:
                f = from_re.search(p)
                if f and f.group(1) not in workers:
                    new.add(f.group(1))
        for w in new - workers:
            conn.execute(f"LISTEN trumps_w_{w}")
            workers.add(w)
finally:
    with open(out, "w") as fh:
        json.dump({"workers": sorted(workers), "counts": [[*k, *v] for k, v in counts.items()]}, fh)
"""


class NotifyCounter:
    """A process that LISTENs on every channel of the room and counts."""

    def __init__(self, dsn: str, out: str) -> None:
        self.out = out
        self.proc = subprocess.Popen(
            [sys.executable, "-c", NOTIFY_COUNTER, dsn, out], stdout=subprocess.PIPE,
            start_new_session=True, preexec_fn=die_with_parent,
        )  # fmt: skip
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != b"listening":
            raise RuntimeError("the notification counter did not start")
        self._cpu = 0.0

    def cpu(self) -> float:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self._cpu = cpu_seconds(self.proc.pid)
        return self._cpu

    def stop(self) -> dict[str, Any]:
        if self.proc.poll() is None:
            self.cpu()
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        try:
            return dict(json.loads(Path(self.out).read_text()))
        except (OSError, ValueError):
            return {}


def libpq_dsn(url: str) -> str:
    """A libpq connection string from an SQLAlchemy URL."""
    return re.sub(r"^postgresql\+\w+://", "postgresql://", url)


def find_postmaster(url: str) -> int | None:
    """The pid of the PostgreSQL server listening on the URL's port on this
    machine (for its CPU), if there is one."""
    m = re.search(r":(\d+)/", url)
    if m is None:
        return None
    port = m.group(1)
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            args = Path(f"/proc/{d}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if args and args[0].endswith(b"/postgres") and b"-p" in args:
            i = args.index(b"-p")
            if i + 1 < len(args) and args[i + 1] == port.encode():
                return int(d)
    return None


def tcp_ports_of(pid: int) -> set[int]:
    """The local TCP ports of a process's sockets (/proc/PID/fd -> socket
    inodes, looked up in /proc/net/tcp{,6})."""
    inodes = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in os.listdir(fd_dir):
        with contextlib.suppress(OSError):
            link = os.readlink(fd_dir / fd)
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    ports = set()
    for name in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]:
                f = line.split()
                if len(f) > 9 and f[9] in inodes:
                    ports.add(int(f[1].rsplit(":", 1)[1], 16))
    return ports


# the tables whose advisory lock (trumps.room.cluster.ownership) a backend holds
_LOCKED_BY = """
SELECT t.id FROM tables t JOIN pg_locks l
  ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
 AND l.classid::bigint = ((hashtextextended(t.id, 0) >> 32) & 4294967295)
 AND l.objid::bigint = (hashtextextended(t.id, 0) & 4294967295)
WHERE l.pid = %s
"""
_UNOWNED = """
SELECT count(*) FROM tables t
WHERE t.id = ANY(%s) AND t.status IN ('waiting', 'playing')
  AND NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.classid::bigint = ((hashtextextended(t.id, 0) >> 32) & 4294967295)
      AND l.objid::bigint = (hashtextextended(t.id, 0) & 4294967295))
"""
_ALL_UNOWNED = _UNOWNED.replace("t.id = ANY(%s) AND ", "")


class Database:
    """Statistics and ownership, read from PostgreSQL by this script (one
    autocommit connection: every read is a fresh snapshot)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(libpq_dsn(url), autocommit=True)

    def one(self, sql: str, *args: Any) -> Any:
        row = self.conn.execute(sql, args).fetchone()
        return None if row is None else row[0]

    def commits(self) -> tuple[int, int]:
        """(xact_commit, xact_rollback) of this database so far (each
        backend reports its counts at most once a second when busy)."""
        row = self.conn.execute(
            "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    def owners(self) -> dict[int, tuple[int, int]]:
        """backend pid -> (its client port, tables it holds)."""
        rows = self.conn.execute(
            "SELECT l.pid, a.client_port, count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted GROUP BY l.pid, a.client_port"
        ).fetchall()
        return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}

    def locked_by(self, backend: int) -> list[str]:
        return [r[0] for r in self.conn.execute(_LOCKED_BY, (backend,)).fetchall()]

    def unowned(self, tids: list[str] | None = None) -> int:
        if tids is None:
            return int(self.one(_ALL_UNOWNED))
        return int(self.one(_UNOWNED, tids))

    def close(self) -> None:
        self.conn.close()


@dataclass
class Deployment:
    """What the load runs against: one server (as before), or workers on
    PostgreSQL, behind nginx or not."""

    workers: list[Server]
    db: str
    base_url: str
    nginx: Nginx | None = None
    postmaster: int | None = None
    database: Database | None = None
    counter: NotifyCounter | None = None
    clients: ClientProcs | None = None  # --client-procs N > 1

    @property
    def cluster(self) -> bool:
        return self.database is not None

    @property
    def ws_base(self) -> str:
        return "ws" + self.base_url[4:]

    def rss_kb(self) -> int:
        return sum(w.rss() for w in self.workers)

    def cpu(self) -> float:
        return sum(w.cpu() for w in self.workers)

    def cpu_parts(self) -> dict[str, float]:
        """CPU seconds so far of each process involved."""
        parts = {f"worker {i}": w.cpu() for i, w in enumerate(self.workers)}
        if self.postmaster is not None:
            parts["PostgreSQL"] = tree_cpu_seconds(self.postmaster)
        if self.nginx is not None and self.nginx.proc is not None:
            parts["nginx"] = tree_cpu_seconds(self.nginx.pid)
        parts["load generator"] = cpu_seconds(os.getpid()) + (self.clients.cpu() if self.clients else 0.0)
        if self.counter is not None:
            parts["notify counter"] = self.counter.cpu()
        return parts


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
    stalled: list[dict[str, Any]] = field(default_factory=list)  # who stalled, where, after what
    error_reasons: Counter[str] = field(default_factory=Counter)  # the room's error events, by reason
    slow: list[tuple[float, float, str, int]] = field(
        default_factory=list
    )  # (sent, latency, table, seq) > SLOW
    trace: dict[str, list[tuple[float, str]]] = field(default_factory=dict)  # "table seat" -> its timeline
    complete: dict[str, list[float]] = field(default_factory=dict)  # table -> when each state reached all 4
    measuring: bool = False
    reconnect: bool = False  # clients reconnect with ?since= when their socket drops (several workers)
    follow_routes: bool = True  # as the page: told the table's worker ("route"), connect again there
    reroutes: int = 0
    drops: list[tuple[float, str]] = field(default_factory=list)  # (perf_counter, why) of every drop
    kill_at: float | None = None  # perf_counter of the failover's kill
    refused: list[int] = field(default_factory=list)  # HTTP status of table creations refused (and retried)


@dataclass
class Player:
    """One client: its cookie and seat, where it is and what it saw last."""

    cookie: str
    seat: str
    tid: str | None = None
    last_seq: int = -1
    over: bool = False  # the last state it saw ended the game
    played: bool = False  # it has seen a table past its first action
    # --failover: (table, seq, over) when the worker was killed, then the
    # seconds from the kill to the next state with a new seq
    mark: tuple[str | None, int, bool] | None = None
    since_kill: float | None = None
    went_on: bool = False  # a new state of the table it was at when the worker was killed
    dropped_after_kill: bool = False

    def state(self, tid: str, seq: int, over: bool, now: float, kill_at: float | None) -> None:
        self.tid, self.last_seq, self.over = tid, seq, over
        self.played = self.played or seq >= 1
        if kill_at is None or self.mark is None:
            return
        mark_tid, mark_seq, _ = self.mark
        new = tid != mark_tid or seq > mark_seq
        if new and self.since_kill is None:
            self.since_kill = now - kill_at
        if tid == mark_tid and seq > mark_seq:
            self.went_on = True


async def new_guest(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()
    # the session cookie (trumps_session); rooms before sessions set trumps_player
    for cookie in ("trumps_session", "trumps_player"):
        if cookie in r.cookies:
            return f"{cookie}={r.cookies[cookie]}"
    raise RuntimeError(f"/api/guest set no session cookie: {list(r.cookies)}")


async def new_table(
    http: httpx.AsyncClient, cookie: str, game: str, preset: str | None, refused: list[int] | None = None
) -> str:
    """A new table's id.  With ``refused`` (several workers) a creation the
    room answers with 5xx is recorded there and tried again (up to 5 times)."""
    body: dict[str, Any] = {"game": game, "options": {}}
    if preset:
        body["preset"] = preset
    for attempt in range(6):
        r = await http.post("/api/tables", json=body, headers={"Cookie": cookie})
        if refused is None or r.status_code < 500 or attempt == 5:
            break
        refused.append(r.status_code)
        await asyncio.sleep(0.2)
    r.raise_for_status()
    made = r.json()
    if made.get("worker"):  # behind the routing proxy: the worker that runs it
        WORKER_OF[str(made["id"])] = str(made["worker"])
    return str(made["id"])


WORKER_OF: dict[str, str] = {}  # table -> its worker, as the creation answered (as the page asks)


class LiveTable:
    """One table of four clients; measures action -> broadcast-to-all."""

    def __init__(self, stats: Stats, tid: str = "") -> None:
        self.stats = stats
        self.tid = tid
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
            if self.stats.measuring:
                self.stats.complete.setdefault(self.tid, []).append(time.time())
            t0 = self.sent.pop(s, None)
            if t0 is not None and self.stats.measuring:
                self.stats.latencies.append(now - t0)
                self.stats.samples.append((time.time() - (time.perf_counter() - t0), now - t0))
                if now - t0 > SLOW:
                    self.stats.slow.append((time.time() - (time.perf_counter() - t0), now - t0, self.tid, s))


DROPS = (websockets.WebSocketException, OSError, TimeoutError)


async def play_client(
    ws_url: str, player: Player, table: LiveTable, stats: Stats, stop: asyncio.Event,
    rng: random.Random, think: float, address: str | None = None,
) -> str:  # fmt: skip
    """Sit at the player's seat and play random legal actions until
    ``stop`` or the game ends.  Returns "over", "stopped" or "stalled".
    With ``stats.reconnect`` a dropped socket is opened again as the table
    page does it, with ``?since=`` the last state seen.  ``address``: the
    local address its sockets come from (see :func:`client_address`)."""
    tid = ws_url.rsplit("/", 1)[1]
    me = asyncio.current_task()
    assert me is not None
    player.tid, player.last_seq, player.over = tid, -1, False
    last_seq = -1
    seated = False
    last_event = ""  # the last message received (shown when the table stalls)
    last_state: Any = None  # the last state received, looked at again after a refusal
    # as the table page: the worker the table's summary named, then any named by a "route" event
    route_to: str | None = WORKER_OF.get(tid) if stats.follow_routes else None
    route_tried: str | None = route_to
    trace = stats.trace.setdefault(f"{tid} {player.seat}", [])  # what this client did and saw, when

    def note(what: str) -> None:
        trace.append((round(time.time(), 3), what))

    # as the page: the last move sent (seq, action, socket number) until a later
    # state; a new socket shown that very state sends it again at once
    pending_act: tuple[int, str, int] | None = None
    socket_no = 0
    while True:
        socket_no += 1
        query = {} if last_seq < 0 else {"since": str(last_seq)}
        if route_to is not None:
            query["worker"] = route_to
        url = ws_url + (f"?{urlencode(query)}" if query else "")
        note(f"connect {query}")
        opened = False
        try:
            async with websockets.connect(
                url,
                additional_headers={"Cookie": player.cookie},
                open_timeout=30,
                max_size=2**22,
                **local_addr(address),
            ) as ws:
                opened = True
                note("open")
                rerouted = False
                if route_to is None:  # as the page: opened with no name, any owner may be named again
                    route_tried = None
                if not seated:
                    await ws.send(json.dumps({"v": 1, "type": "sit", "seat": player.seat}))
                acted_for = -1
                # after a reconnect the missed states arrive back to back: act
                # only on the last of them (one not followed within 50 ms)
                catching_up = last_seq >= 0
                pending: deque[Any] = deque()  # messages received, not handled yet
                while not stop.is_set():
                    if pending:
                        raw = pending.popleft()
                    else:
                        try:
                            raw = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
                        except TimeoutError:
                            stats.stalls += 1
                            stats.stalled.append(
                                {"table": tid, "seat": player.seat, "seq": last_seq, "worker": route_to,
                                 "last": last_event, "at": time.time() - RECV_TIMEOUT}
                            )  # fmt: skip
                            return "stalled"
                        if me.cancelling():  # wait_for (3.11) lost a cancel that came with a message
                            raise asyncio.CancelledError
                    now = time.perf_counter()
                    ev = loads(raw)
                    last_event = raw[:300] if isinstance(raw, str) else raw[:300].decode(errors="replace")
                    note(
                        f"{ev['type']} {ev.get('seq', '')} {ev.get('worker', '')}{' again' if ev.get('again') else ''}"
                        f"{ev.get('reason', '')}"
                    )
                    if ev["type"] == "error":
                        stats.errors += 1
                        stats.error_reasons[str(ev.get("reason"))[:120]] += 1
                        acted_for = -1  # look at the last state again (the page still shows it)
                        if last_state is not None and not pending:
                            pending.append(last_state)
                        continue
                    if ev["type"] == "route":
                        # "again": this worker runs the table now (it came after the socket):
                        # connect to it anew, as the page does
                        if stats.follow_routes and (ev["worker"] != route_tried or ev.get("again")):
                            route_tried = route_to = ev["worker"]
                            stats.reroutes += 1
                            rerouted = True
                            break  # closes the socket: connect again, to that worker
                        continue
                    if ev["type"] != "state":
                        continue
                    last_state = raw
                    seq = ev["seq"]
                    view = ev["view"]
                    over = bool(view["over"] or ev["table"]["status"] == "finished")
                    if seq > last_seq:
                        if last_seq >= 0 or seq > 0:
                            table.seen(max(last_seq + 1, 1), seq, now)
                        last_seq = seq
                    if stats.reconnect:
                        player.state(tid, seq, over, now, stats.kill_at)
                    seated = seated or ev["table"]["you"] == player.seat
                    if over:
                        return "over"
                    if pending_act is not None and seq > pending_act[0]:
                        pending_act = None
                    if ev["table"]["status"] != "playing" or view["to_act"] != player.seat:
                        continue
                    if (
                        pending_act is not None
                        and pending_act[0] == seq
                        and pending_act[2] != socket_no
                        and pending_act[1] in view["legal"]
                    ):
                        pending_act = (seq, pending_act[1], socket_no)
                        acted_for = seq
                        note(f"resend on {seq}")
                        await ws.send(
                            json.dumps({"v": 1, "type": "act", "action": pending_act[1], "seq": seq})
                        )
                        continue
                    # the same state again: ignored by one server; with several workers
                    # the client acts again, as a page shows the turn again: an action sent
                    # through a worker just as the table's owner died is lost (no error
                    # comes back), and the new owner sends the same state again
                    if acted_for == seq and not stats.reconnect:
                        continue
                    legal = view["legal"]
                    if not legal:
                        continue
                    if catching_up:
                        try:
                            pending.append(await asyncio.wait_for(ws.recv(), 0.05))
                            continue
                        except TimeoutError:
                            catching_up = False
                    acted_for = seq
                    note(f"act on {seq}")
                    action = rng.choice(legal)
                    if think:  # a player's pause before acting (the room's bots wait 0.6 s)
                        await asyncio.sleep(think * (0.5 + rng.random()))
                        # the click, whether or not the socket is still there (the page
                        # keeps it and sends it on its next socket, as below)
                        pending_act = (seq, action, socket_no)
                        table.sent[seq + 1] = time.perf_counter()
                        # as the page: what came meanwhile is shown before the player
                        # clicks, so a newer state (or a move) is acted on instead, and
                        # the same state sent again (a reconnect, a seat coming back)
                        # is the same turn, not another one
                        newer = False
                        while True:
                            try:
                                nxt = await asyncio.wait_for(ws.recv(), 0.001)
                            except TimeoutError:
                                break
                            if me.cancelling():
                                raise asyncio.CancelledError
                            peek = loads(nxt)
                            if peek.get("type") == "state" and peek.get("seq") == seq:
                                continue
                            pending.append(nxt)
                            newer = newer or peek.get("type") in ("state", "route")
                        if newer:
                            note("not sent: newer")
                            pending_act = None
                            table.sent.pop(seq + 1, None)
                            acted_for = -1
                            continue
                    else:
                        table.sent[seq + 1] = time.perf_counter()
                    pending_act = (seq, action, socket_no)
                    note(f"sent {seq}")
                    await ws.send(json.dumps({"v": 1, "type": "act", "action": action, "seq": seq}))
                    if stats.measuring:
                        stats.actions += 1
                if rerouted:
                    continue
                return "stopped"
        except DROPS as exc:
            if not stats.reconnect or stop.is_set() or me.cancelling():
                raise  # (a socket closed while the run is being cancelled is not reopened)
            code = exc.rcvd.code if isinstance(exc, websockets.ConnectionClosed) and exc.rcvd else None
            why = f"close {code}" if code is not None else type(exc).__name__
            if isinstance(exc, websockets.InvalidStatus):
                why = f"HTTP {exc.response.status_code}"
            stats.drops.append((time.perf_counter(), why))
            note(f"drop {why}")
            if stats.kill_at is not None:
                player.dropped_after_kill = True
            if not opened and route_to is not None:
                route_to = None  # the named worker is gone: any worker, at once (as the page)
                continue
            if code == 1012:
                route_to = None  # as the page: that worker is going away, not by name again
            # as the table page: at once after a handover (1012), else after 1 s
            await asyncio.sleep(0.1 + 0.2 * rng.random() if code == 1012 else 1.0)


async def run_table(
    ws_base: str, http: httpx.AsyncClient, players: list[Player], game: str, preset: str | None,
    stats: Stats, stop: asyncio.Event, rng: random.Random, think: float, address: str | None = None,
) -> None:  # fmt: skip
    while not stop.is_set():
        tid = await new_table(
            http, players[0].cookie, game, preset, stats.refused if stats.reconnect else None
        )
        stats.created.append(time.time())
        ws_url = f"{ws_base}/ws/table/{tid}"
        table = LiveTable(stats, tid)
        results = await asyncio.gather(
            *(play_client(ws_url, p, table, stats, stop, rng, think, address) for p in players)
        )
        if "over" in results:
            stats.games_finished += 1
        if "stalled" in results:
            return


async def idle_table(
    ws_base: str, http: httpx.AsyncClient, n: int, game: str, preset: str | None, release: asyncio.Event,
    ready: Callable[[], None], refused: list[int] | None = None, address: str | None = None,
) -> None:  # fmt: skip
    """A table where three clients sit and the fourth seat stays empty
    (its sockets from ``address``, see :func:`client_address`)."""
    cookies = [await new_guest(http, f"i{n}{s}") for s in SEATS[:3]]
    tid = await new_table(http, cookies[0], game, preset, refused)
    ws_url = f"{ws_base}/ws/table/{tid}"
    async with contextlib.AsyncExitStack() as stack:
        for cookie, seat in zip(cookies, SEATS[:3], strict=True):
            ws = await stack.enter_async_context(
                websockets.connect(
                    ws_url, additional_headers={"Cookie": cookie}, open_timeout=30, **local_addr(address)
                )
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


async def failover(
    dep: Deployment, players: list[Player], stats: Stats, after: float, out: dict[str, Any]
) -> None:
    """``after`` seconds into the window: kill -9 the worker that owns the
    most tables, then watch its tables being taken over."""
    await asyncio.sleep(after)
    db = dep.database
    assert db is not None
    owners = await asyncio.to_thread(db.owners)
    ports = {i: tcp_ports_of(w.pid) for i, w in enumerate(dep.workers) if w.alive()}
    held: dict[int, tuple[int, int]] = {}  # worker -> (tables, backend)
    for backend, (port, n) in owners.items():
        for i, mine in ports.items():
            if port in mine:
                held[i] = (n, backend)
    if not held:
        out["failover_error"] = f"no worker could be matched to a lock holder: {owners}"
        return
    victim = max(held, key=lambda i: held[i][0])
    tids = await asyncio.to_thread(db.locked_by, held[victim][1])
    for p in players:
        p.mark = (p.tid, p.last_seq, p.over)
    stats.kill_at = time.perf_counter()
    dep.workers[victim].kill()
    out["failover"] = {
        "victim": victim,
        "victim_tables": len(tids),
        "tables_by_worker": {i: n for i, (n, _) in sorted(held.items())},
        "live_tables": len({p.tid for p in players if p.tid is not None and not p.over}),
    }
    await asyncio.to_thread(dep.workers[victim].stop)  # wait for it (it is our child)
    first_zero = None
    while time.perf_counter() - stats.kill_at < 30:
        left = await asyncio.to_thread(db.unowned, tids)
        if left == 0:
            first_zero = time.perf_counter() - stats.kill_at
            break
        await asyncio.sleep(0.05)
    out["failover"]["reowned_s"] = first_zero


async def rolling(dep: Deployment, after: float, pause: float, out: dict[str, Any]) -> None:
    """``after`` seconds into the window: stop each worker normally
    (SIGTERM: it hands its tables over) and start it again, one at a time,
    ``pause`` seconds between one being up and the next one's stop, as a
    deployer upgrades a room.  Records each restart's wall-clock span."""
    await asyncio.sleep(after)
    restarts: list[dict[str, Any]] = []
    out["rolling"] = restarts
    for i, w in enumerate(dep.workers):
        t0 = time.time()
        await asyncio.to_thread(w.stop, 60.0)
        t1 = time.time()
        await asyncio.to_thread(w.start)  # back when it answers
        t2 = time.time()
        restarts.append({"worker": i, "sigterm": t0, "exited": t1, "ready": t2})
        await asyncio.sleep(pause)


async def post_prober(base: str, stop: asyncio.Event, every: float, answers: Counter[str]) -> None:
    """A guest POSTing through the proxy every ``every`` seconds until
    ``stop``, counting the answers: ``/api/prefs`` answers a guest 403 after
    its session lookup, so anything else (a 502 above all) is a request the
    deployment lost.  Its own connection pool, kept alive as a browser's."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        cookie = await new_guest(http, "prober")
        headers = {"Cookie": cookie, "Origin": base}
        while not stop.is_set():
            try:
                r = await http.post("/api/prefs", json={"x": 1}, headers=headers)
                answers[str(r.status_code)] += 1
            except httpx.HTTPError as exc:
                answers[type(exc).__name__] += 1
            await asyncio.sleep(every)


def rolling_summary(out: dict[str, Any], settle: float = 1.0) -> dict[str, Any]:
    """Each restart's times, and the latency of the actions sent while a
    worker was stopping or starting (SIGTERM to ``settle`` s after it
    answered again) next to the rest of the window's."""
    restarts = out.get("rolling", [])
    spans = [(r["sigterm"], r["ready"] + settle) for r in restarts]
    # the waits for a table's next state (think time included), by whether
    # they overlap a restart: what a player sees as a stall
    waits: list[float] = []
    calm: list[float] = []
    for times in out.get("complete", {}).values():
        for a, b in itertools.pairwise(times):
            (waits if any(a < hi and b > lo for lo, hi in spans) else calm).append(b - a)
    during = [lat for t, lat in out.get("samples", []) if any(a <= t <= b for a, b in spans)]
    rest = [lat for t, lat in out.get("samples", []) if not any(a <= t <= b for a, b in spans)]
    return {
        "restarts": [
            {"worker": r["worker"], "stop_s": r["exited"] - r["sigterm"], "start_s": r["ready"] - r["exited"]}
            for r in restarts
        ],
        "during": {"n": len(during), "p50_ms": pct(during, 50) * 1000, "p99_ms": pct(during, 99) * 1000,
                   "max_ms": max(during, default=float("nan")) * 1000},
        "rest": {"n": len(rest), "p50_ms": pct(rest, 50) * 1000, "p99_ms": pct(rest, 99) * 1000,
                 "max_ms": max(rest, default=float("nan")) * 1000},
        "posts": dict(out.get("posts", {})),
        "waits": {"n": len(waits), "p99_s": pct(waits, 99), "max_s": max(waits, default=float("nan"))},
        "calm": {"n": len(calm), "p99_s": pct(calm, 99), "max_s": max(calm, default=float("nan"))},
    }  # fmt: skip


class Clients:
    """The playing tables' clients of one process (this one, or one of
    ``--client-procs``): their guests and tasks, their loop's lag probe,
    and the garbage collector off while they play."""

    def __init__(self, stats: Stats, tables: list[int]) -> None:
        self.stats = stats
        self.tables = tables  # the tables' numbers (of all --tables)
        self.stop = asyncio.Event()
        self.players: list[Player] = []  # 4 a table, in the order of ``tables``
        self.tasks: list[asyncio.Task[None]] = []
        self.probe: asyncio.Task[None] | None = None
        self.gc_hook = gc_recorder(stats)
        self.rss0 = 0
        self.t_guests = 0.0
        self.guests_s = 0.0

    async def start(
        self, http: httpx.AsyncClient, routes: list[tuple[str, httpx.AsyncClient]], args: argparse.Namespace,
        rng: random.Random,
    ) -> None:  # fmt: skip
        """Make the guests (through ``http``), then start every table:
        table ``i`` is made through ``routes[i % len(routes)]``."""
        self.probe = asyncio.create_task(lag_probe(self.stats, self.stop))
        gc.callbacks.append(self.gc_hook)
        # the load generator's own garbage collections stop all 1,200 clients
        # at once (5 s of pauses per 30 s run, up to 250 ms each, measured as
        # server latency): off during the load; the client's RSS growth is reported
        gc.collect()
        gc.freeze()
        gc.disable()
        self.rss0 = rss_kb(os.getpid())
        sem = asyncio.Semaphore(20)
        self.t_guests = time.perf_counter()
        cookies = await asyncio.gather(
            *(bounded(sem, new_guest(http, f"p{i}{s}")) for i in self.tables for s in SEATS)
        )
        self.guests_s = time.perf_counter() - self.t_guests
        self.players = [Player(c, SEATS[j % 4]) for j, c in enumerate(cookies)]
        self.tasks = [
            asyncio.create_task(
                run_table(
                    routes[i % len(routes)][0],
                    routes[i % len(routes)][1],
                    self.players[4 * j : 4 * j + 4],
                    args.game,
                    args.preset,
                    self.stats,
                    self.stop,
                    rng,
                    args.think,
                    None if args.one_address else client_address(i, TABLES_PER_ADDRESS),
                )
            )
            for j, i in enumerate(self.tables)
        ]

    def started(self) -> int:
        """Tables past their first action (the rest are still being set up)."""
        return sum(1 for p in self.players[::4] if p.played or p.last_seq >= 1)

    def done(self) -> int:
        """Tables whose task has ended (stalled or failed)."""
        return sum(1 for t in self.tasks if t.done())

    def close_window(self) -> None:
        self.stats.measuring = False
        gc.callbacks.remove(self.gc_hook)

    def rss_growth_kb(self) -> int:
        return rss_kb(os.getpid()) - self.rss0

    async def finish(self) -> list[str]:
        """Stop every table (``stop`` set) and wait for them; the garbage
        collector on again.  Returns the tables' failures."""
        self.stop.set()
        waited: list[asyncio.Task[Any]] = [*self.tasks, *([self.probe] if self.probe else [])]
        _, pending = await asyncio.wait(waited, timeout=RECV_TIMEOUT + 10)
        for t in pending:
            t.cancel()
        gc.enable()
        gc.unfreeze()
        return [
            repr(t.exception())
            for t in self.tasks
            if t.done() and not t.cancelled() and t.exception() is not None
        ]


def stats_dict(stats: Stats, keep_trace: bool) -> dict[str, Any]:
    """What a client process measured, in plain types for its pipe (a
    spawned process's classes are not the parent's)."""
    d = {f.name: getattr(stats, f.name) for f in fields(Stats)}
    d["error_reasons"] = dict(stats.error_reasons)
    if not keep_trace:  # only --dump writes it (every client's every event)
        d["trace"] = {}
    return d


def merge_stats(parts: list[dict[str, Any]]) -> Stats:
    """One :class:`Stats` of what several client processes measured: counts
    summed, samples and records put together."""
    stats = Stats()
    for d in parts:
        for f in fields(Stats):
            mine, theirs = getattr(stats, f.name), d.get(f.name)
            if theirs is None or isinstance(mine, bool) or f.name == "kill_at":
                continue  # flags and the failover's kill are the run's, not counts
            if isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            elif isinstance(mine, dict):
                mine.update(theirs)
            else:
                setattr(stats, f.name, mine + theirs)
    return stats


def load_figures(
    stats: Stats, elapsed: float, window: tuple[float, float], server_cpu_s: float, worker_of: dict[str, str]
) -> dict[str, Any]:
    """The load's figures from what the clients measured in ``window``."""
    return dict(
        elapsed=elapsed,
        actions=stats.actions,
        actions_per_s=stats.actions / elapsed,
        # the servers' CPU (every worker's summed) per action sent in the window
        server_cpu_ms_per_action=server_cpu_s / max(stats.actions, 1) * 1000,
        measured=len(stats.latencies),
        p50_ms=pct(stats.latencies, 50) * 1000,
        p90_ms=pct(stats.latencies, 90) * 1000,
        p99_ms=pct(stats.latencies, 99) * 1000,
        max_ms=max(stats.latencies, default=float("nan")) * 1000,
        mean_ms=(statistics.fmean(stats.latencies) * 1000) if stats.latencies else float("nan"),
        errors=stats.errors,
        reroutes=stats.reroutes,
        stalls=stats.stalls,
        stalled=stats.stalled,
        error_reasons=stats.error_reasons,
        slow=stats.slow,
        trace=stats.trace,
        complete=stats.complete,
        worker_of=worker_of,
        games_finished=stats.games_finished,
        window=window,
        samples=stats.samples,
        client_lag=[x for x in stats.lags if window[0] <= x[0] <= window[1]],
        client_gc=[x for x in stats.gc_pauses if window[0] <= x[0] <= window[1]],
        created=[t for t in stats.created if window[0] <= t <= window[1]],
        drops=Counter(why for _, why in stats.drops),
        refused=stats.refused,
    )


class ClientProcs:
    """``--client-procs N``: the playing tables' clients in N processes of
    their own, table ``i`` in process ``i % N``, each with its own event
    loop, HTTP client and sockets (:func:`client_proc`).

    Spawned, not forked: this process runs an event loop (uvloop), an HTTP
    client's pool, threads (``asyncio.to_thread``) and a PostgreSQL
    connection when it forks them, and a fork copies all of that half-way
    (uvloop does not support a fork inside a running loop); a spawned one
    starts clean and imports this file (~0.5 s).  They are started from
    the main thread, which lives until the end (``die_with_parent`` is tied
    to the thread that started a process).

    Two pipes each: commands to it (``window``: the wall-clock times the
    measured window opens and closes, the same for every process, sent
    once all are playing: the barrier; ``stop``), reports from it
    (``ready``, ``progress``: tables started and ended, ``done`` with what
    it measured, or ``error``), read by a thread per process."""

    def __init__(self, n: int, spec: dict[str, Any]) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.procs: list[Any] = []
        self.cmds: list[Connection] = []
        self.progress: dict[int, tuple[int, int]] = {}
        self.inbox: dict[int, list[tuple[Any, ...]]] = {k: [] for k in range(n)}
        self._cpu: dict[int, float] = {}
        for k in range(n):
            cmd_r, cmd_w = ctx.Pipe(duplex=False)
            rep_r, rep_w = ctx.Pipe(duplex=False)
            part = {**spec, "tables": list(range(k, spec["tables"], n)), "seed": f"{spec['seed']}:{k}"}
            proc = ctx.Process(
                target=client_proc, args=(cmd_r, rep_w, part), name=f"room-load clients {k}", daemon=True
            )
            proc.start()
            cmd_r.close()
            rep_w.close()
            self.procs.append(proc)
            self.cmds.append(cmd_w)
            threading.Thread(target=self._read, args=(k, rep_r), daemon=True).start()

    def _read(self, k: int, conn: Connection) -> None:
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                self.inbox[k].append(("gone",))
                return
            if msg[0] == "progress":
                self.progress[k] = msg[1]
            else:
                self.inbox[k].append(msg)

    def send(self, *msg: Any) -> None:
        for c in self.cmds:
            c.send(msg)

    async def wait(self, kind: str, timeout: float) -> list[Any]:
        """Each process's next ``kind`` report (its payload), in order."""
        got: dict[int, Any] = {}
        deadline = time.monotonic() + timeout
        while len(got) < len(self.procs):
            for k, box in self.inbox.items():
                while k not in got and box:
                    msg = box.pop(0)
                    if msg[0] == "error":
                        raise RuntimeError(f"client process {k} failed:\n{msg[1]}")
                    if msg[0] == "gone":
                        raise RuntimeError(f"client process {k} exited (code {self.procs[k].exitcode})")
                    if msg[0] == kind:
                        got[k] = msg[1]
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"client processes {sorted(set(self.inbox) - set(got))}: no {kind} in {timeout:g} s"
                )
            await asyncio.sleep(0.05)
        return [got[k] for k in range(len(self.procs))]

    def started(self) -> tuple[int, int]:
        """Tables past their first action, and tables ended, over every process."""
        return (sum(s for s, _ in self.progress.values()), sum(d for _, d in self.progress.values()))

    def cpu(self) -> float:
        for k, p in enumerate(self.procs):
            if p.is_alive():
                with contextlib.suppress(OSError):
                    self._cpu[k] = cpu_seconds(p.pid)
        return sum(self._cpu.values())

    def close(self) -> None:
        for p in self.procs:
            if p.is_alive():
                p.terminate()
        for p in self.procs:
            p.join(5)
            if p.is_alive():
                p.kill()
                p.join(5)
        for c in self.cmds:
            c.close()


def client_proc(cmds: Connection, reports: Connection, spec: dict[str, Any]) -> None:  # pragma: no cover
    """A client process of ``--client-procs`` (spawned: runs in a fresh interpreter)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the parent stops the run, and this process
    runner: Callable[[Any], Any] = asyncio.run
    if spec["uvloop"]:
        with contextlib.suppress(ImportError):
            import uvloop

            runner = uvloop.run
    try:
        result = runner(client_proc_async(cmds, reports, spec))
    except BaseException:
        with contextlib.suppress(OSError):
            reports.send(("error", traceback.format_exc()))
        raise SystemExit(1) from None
    reports.send(("done", result))


async def client_proc_async(cmds: Connection, reports: Connection, spec: dict[str, Any]) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()

    def read() -> None:
        while True:
            try:
                msg = cmds.recv()
            except (EOFError, OSError):  # the parent is gone
                msg = ("stop",)
            loop.call_soon_threadsafe(inbox.put_nowait, msg)
            if msg[0] == "stop":
                return

    threading.Thread(target=read, daemon=True).start()
    args = argparse.Namespace(**spec["args"])
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2.0)
    async with contextlib.AsyncExitStack() as stack:
        https: dict[str, httpx.AsyncClient] = {}
        for base in [spec["base_url"], *(b for _, b in spec["routes"])]:
            if base not in https:
                c = await stack.enter_async_context(
                    httpx.AsyncClient(base_url=base, timeout=60, limits=limits)
                )
                c.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
                https[base] = c
        stats = Stats(reconnect=spec["reconnect"], follow_routes=args.route != "relay")
        clients = Clients(stats, spec["tables"])
        routes = [(ws, https[base]) for ws, base in spec["routes"]]
        await clients.start(https[spec["base_url"]], routes, args, random.Random(spec["seed"]))
        reports.send(("ready", clients.guests_s))
        while True:  # until the window: how many tables play (the parent opens it when all do)
            try:
                msg = await asyncio.wait_for(inbox.get(), 0.2)
                break
            except TimeoutError:
                reports.send(("progress", (clients.started(), clients.done())))
        started, growth = clients.started(), 0
        if msg[0] == "window":
            _, opens, closes = msg
            await asyncio.sleep(max(0.0, opens - time.time()))
            stats.measuring = True
            started = clients.started()
            await asyncio.sleep(max(0.0, closes - time.time()))
            clients.close_window()
            growth = clients.rss_growth_kb()
            msg = await inbox.get()  # stop
        failures = await clients.finish()
    return {
        "stats": stats_dict(stats, spec["keep_trace"]),
        "failures": failures,
        "tables_started": started,
        "rss_growth_kb": growth,
        "worker_of": dict(WORKER_OF),
    }


async def main_async(args: argparse.Namespace, dep: Deployment) -> dict[str, Any]:
    # SIGTERM cancels the run (the clients are cancelled with it), then main() stops the servers
    task = asyncio.current_task()
    assert task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    out: dict[str, Any] = {}
    # idle pooled connections are dropped by the client (2 s) before uvicorn's
    # keep-alive timeout (5 s) closes them: otherwise a request sent on a
    # connection the server is closing fails with a ReadError (seen once at
    # saturation: a client-side keep-alive race, nothing lost on the server)
    limits = httpx.Limits(max_connections=50, keepalive_expiry=2.0)
    async with contextlib.AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            httpx.AsyncClient(base_url=dep.base_url, timeout=60, limits=limits)
        )
        # every client has its own cookie: the shared HTTP client must keep none
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        # warm up: import the game and its views once, so the baseline is fair
        await asyncio.sleep(0.5)
        rss0 = dep.rss_kb()
        out["rss_empty_kb"] = rss0

        # ----- memory per idle table --------------------------------------------
        if args.idle_tables:
            release = asyncio.Event()
            done = 0

            def ready() -> None:
                nonlocal done
                done += 1

            t0 = time.perf_counter()
            refused: list[int] | None = [] if dep.cluster else None
            idle = [
                asyncio.create_task(
                    idle_table(
                        dep.ws_base,
                        http,
                        i,
                        args.game,
                        args.preset,
                        release,
                        ready,
                        refused,
                        None if args.one_address else client_address(i, IDLE_TABLES_PER_ADDRESS, 2),
                    )
                )
                for i in range(args.idle_tables)
            ]
            deadline = time.monotonic() + 300
            while done < args.idle_tables and time.monotonic() < deadline:
                failed = [t for t in idle if t.done() and t.exception() is not None]
                if failed:
                    for t in idle:
                        t.cancel()
                    await asyncio.gather(*idle, return_exceptions=True)
                    raise RuntimeError(f"idle table failed: {failed[0].exception()!r}")
                await asyncio.sleep(0.2)
            if done < args.idle_tables:
                raise RuntimeError(f"only {done}/{args.idle_tables} idle tables were seated")
            await asyncio.sleep(2.0)  # let the server settle
            rss1 = dep.rss_kb()
            out["idle_setup_s"] = time.perf_counter() - t0
            out["rss_idle_kb"] = rss1
            out["kb_per_idle_table"] = (rss1 - rss0) / args.idle_tables
            if dep.cluster:
                out["rss_idle_by_worker_kb"] = [w.rss() for w in dep.workers]
                out["idle_refused"] = refused
            release.set()
            await asyncio.gather(*idle, return_exceptions=True)
        if not args.tables:
            return out

        # ----- load --------------------------------------------------------------
        # --route owner: table i is made on worker i % N and its sockets go to
        # that worker, its owner (no relaying: what routing by table would give)
        owner = args.route == "owner"
        route_urls = (
            [("ws" + w.url[4:], w.url) for w in dep.workers] if owner else [(dep.ws_base, dep.base_url)]
        )
        clients: Clients | None = None
        procs: ClientProcs | None = None
        n_procs = min(args.client_procs, args.tables)
        t_guests = time.perf_counter()
        if n_procs == 1:
            clients = Clients(
                Stats(reconnect=dep.cluster, follow_routes=args.route != "relay"), list(range(args.tables))
            )
            routes: list[tuple[str, httpx.AsyncClient]] = [(dep.ws_base, http)]
            if owner:
                routes = []
                for ws_url, url in route_urls:
                    direct = await stack.enter_async_context(
                        httpx.AsyncClient(base_url=url, timeout=60, limits=limits)
                    )
                    direct.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
                    routes.append((ws_url, direct))
            await clients.start(http, routes, args, random.Random(args.seed))
            t_guests, out["guests_s"] = clients.t_guests, clients.guests_s
        else:
            spec = {
                "args": {k: v for k, v in vars(args).items() if isinstance(v, (str, int, float, bool, type(None)))},
                "tables": args.tables, "base_url": dep.base_url, "routes": route_urls, "reconnect": dep.cluster,
                "seed": args.seed, "uvloop": not args.no_uvloop, "keep_trace": bool(args.dump),
            }  # fmt: skip
            procs = dep.clients = ClientProcs(n_procs, spec)
            stack.callback(procs.close)
            await procs.wait("ready", 600)  # every process has made its guests and started its tables
            out["guests_s"] = time.perf_counter() - t_guests  # their start (~0.5 s) included
        await asyncio.sleep(args.warmup)

        def started() -> tuple[int, int]:  # tables past their first action, tables ended (stalled, failed)
            if clients is not None:
                return clients.started(), clients.done()
            assert procs is not None
            return procs.started()

        if dep.cluster:  # the window opens once every table plays (or has failed), --setup-limit s at most
            limit = time.perf_counter() + args.setup_limit
            while sum(started()) < args.tables and time.perf_counter() < limit:
                await asyncio.sleep(0.1)
            out["setup_s"] = time.perf_counter() - t_guests - out["guests_s"]
        if clients is not None:
            out["tables_started"] = clients.started()
            clients.stats.measuring = True
        else:
            assert procs is not None
            # the barrier: every process opens (and closes) the window at the same time
            opens = time.time() + 0.25
            procs.send("window", opens, opens + args.seconds)
            await asyncio.sleep(max(0.0, opens - time.time()))
        cpu0, t0 = dep.cpu(), time.perf_counter()
        parts0, busy0 = dep.cpu_parts(), machine_busy()
        commits0 = await asyncio.to_thread(dep.database.commits) if dep.database else None
        killer = None
        if args.failover:
            assert clients is not None  # (--failover runs the clients in this process)
            killer = asyncio.create_task(failover(dep, clients.players, clients.stats, args.kill_after, out))
        prober = None
        prober_stop = asyncio.Event()
        posts: Counter[str] = Counter()
        if args.rolling:
            killer = asyncio.create_task(rolling(dep, args.kill_after, 2.0, out))
            prober = asyncio.create_task(post_prober(dep.base_url, prober_stop, 0.02, posts))
        rss_peak = 0
        end = t0 + args.seconds
        while time.perf_counter() < end:
            await asyncio.sleep(min(1.0, max(0.0, end - time.perf_counter())))
            rss_peak = max(rss_peak, dep.rss_kb())
        if clients is not None:
            clients.close_window()
        elapsed = time.perf_counter() - t0
        window = (time.time() - elapsed, time.time())
        out["server_cpu_s"] = dep.cpu() - cpu0
        out["server_cpu"] = out["server_cpu_s"] / elapsed
        # every process's CPU: printed with the cluster's figures or with --client-procs N > 1, always in --json
        parts1, busy1 = dep.cpu_parts(), machine_busy()
        out["cpu_parts"] = {k: (parts1[k] - parts0[k]) / elapsed for k in parts1 if k in parts0}
        out["machine_busy"] = (busy1[0] - busy0[0]) / (busy1[1] - busy0[1]) * (os.cpu_count() or 1)
        if dep.database is not None and commits0 is not None:
            commits1 = await asyncio.to_thread(dep.database.commits)
            out["xact_commit"] = commits1[0] - commits0[0]
            out["xact_rollback"] = commits1[1] - commits0[1]
        out["rss_load_kb"] = rss_peak
        if clients is not None:
            out["client_rss_growth_kb"] = clients.rss_growth_kb()
        if killer is not None and args.rolling:
            if not killer.done():
                out["rolling_error"] = "the restarts had not finished when the window closed"
                killer.cancel()
            elif killer.exception() is not None:
                out["rolling_error"] = repr(killer.exception())
        elif killer is not None:
            assert clients is not None
            if not killer.done():
                out["failover_error"] = "the kill had not finished when the window closed"
                killer.cancel()
            elif killer.exception() is not None:
                out["failover_error"] = repr(killer.exception())
            out["failover_players"] = [
                (p.since_kill, p.dropped_after_kill, p.mark, p.went_on)
                for p in clients.players
                if p.mark is not None
            ]
        if clients is not None:
            clients.stop.set()
        else:
            assert procs is not None
            procs.send("stop")
        prober_stop.set()
        if prober is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(prober, 40)
            out["posts"] = posts
        if clients is not None:
            failures = await clients.finish()
            stats, worker_of = clients.stats, dict(WORKER_OF)
        else:
            assert procs is not None
            results = await procs.wait("done", RECV_TIMEOUT + 60)
            procs.close()
            stats = merge_stats([r["stats"] for r in results])
            failures = [f for r in results for f in r["failures"]]
            worker_of = {t: w for r in results for t, w in r["worker_of"].items()}
            out["tables_started"] = sum(r["tables_started"] for r in results)
            out["client_rss_growth_kb"] = sum(r["rss_growth_kb"] for r in results)
        if dep.database is not None:  # every unfinished table has an owner (a scan runs every second)
            await asyncio.sleep(1.5)
            out["unowned_at_end"] = await asyncio.to_thread(dep.database.unowned)
        if failures:
            out["failures"] = failures
        out.update(load_figures(stats, elapsed, window, out["server_cpu_s"], worker_of))
    return out


def ms(x: float) -> str:
    return f"{x * 1000:.1f}"


def report_timings(
    out: dict[str, Any], server: dict[str, list[list[float]]], workers: int = 1, client_procs: int = 1
) -> None:
    """Where the time goes: the server's phases of an action, its database
    thread and event loop, and the client's own event loop and GC, all in
    the measured window.  With several workers their records are pooled
    (each is one process with its own event loop and database thread)."""
    lo, hi = out["window"]
    pooled = f" (pooled over {workers} workers)" if workers > 1 else ""

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
            f"server, act received -> last send of its broadcast ({len(acts)}){pooled}: p50 {ms(pct(total, 50))} ms, "
            f"p99 {ms(pct(total, 99))} ms, max {ms(max(total))} ms; {parts} ms"
        )
    made = rows("events")
    if made:
        # the same work in every run of one command (a broadcast's state events,
        # made from the tables' states): its CPU time per event moves only with
        # how fast the machine runs that code (caches, other processes), not
        # with how the room's work is divided between workers
        cpu = sum(r[1] for r in made)
        n_events = sum(r[2] for r in made)
        out["event_cpu_us"] = cpu / n_events * 1e6 if n_events else None
        print(
            f"server CPU making the state events of a broadcast{pooled}: "
            f"{cpu / n_events * 1e6:.1f} µs per event ({n_events} events in {len(made)} broadcasts)"
            if n_events
            else "server made no state events in the window"
        )
    batches = rows("batch")
    if batches:
        sizes = [r[1] for r in batches]
        took = [r[2] for r in batches]
        busy = sum(took) / (hi - lo) * 100
        print(
            f"server DB thread{'s' if workers > 1 else ''}: {len(batches)} group commits, "
            f"{statistics.fmean(sizes):.1f} writes each, "
            f"commit p50 {ms(pct(took, 50))} ms, p99 {ms(pct(took, 99))} ms, max {ms(max(took))} ms, "
            + (
                f"busy {busy / workers:.0f}% of the time in group commits (mean over {workers} workers)"
                if workers > 1
                else f"busy {busy:.0f}% of the time in group commits"
            )
        )
    for kind in sorted(k for k in server if k.startswith("run:") or k == "create_table"):
        rs = rows(kind)
        if rs:
            d = [r[1] for r in rs]
            print(
                f"server {kind}: {len(rs)} calls, p50 {ms(pct(d, 50))} ms, p99 {ms(pct(d, 99))} ms, max {ms(max(d))} ms"
            )
    loops = [
        (
            "client" if client_procs == 1 else f"client (pooled over {client_procs} processes)",
            [x[1] for x in out["client_lag"]],
            [x[1] for x in out["client_gc"]],
        )
    ]
    if os.environ.get("TRUMPS_ROOM_LAG_PROBE"):
        loops.insert(0, ("server" + pooled, [r[1] for r in rows("lag")], [r[1] for r in rows("gc")]))
    else:
        print(f"server{pooled} event loop: lag not probed (--lag-probe); GC: {len(rows('gc'))} collections")
    for who, lag, pauses in loops:
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


def stderr_summary(texts: list[str], top: int = 10) -> tuple[int, list[tuple[int, str]]]:
    """How many lines the workers wrote to stderr, and what they said, most
    frequent first, with ids and numbers blanked out: a traceback counts as
    its exception line and the room's innermost frame (``src/trumps``), any
    other line as itself."""

    def norm(line: str) -> str:
        line = re.sub(r"(?<=table )\S+|(?<=worker )\S+", "#", line.strip())
        return re.sub(r"\b[0-9a-f]{8,}\b|\b(?=[\w-]*\d)[\w-]{12}\b|\d+(\.\d+)?", "#", line)[:220]

    count = 0
    said: Counter[str] = Counter()
    for text in texts:
        lines = [line for line in text.splitlines() if line.strip()]
        count += len(lines)
        i = 0
        while i < len(lines):
            if not lines[i].startswith("Traceback"):
                said[norm(lines[i])] += 1
                i += 1
                continue
            where = ""
            i += 1
            while i < len(lines) and (lines[i].startswith(" ") or lines[i].startswith("Traceback")):
                m = re.match(r'\s+File ".*?/(trumps/[^"]+)", line (\d+), in (\w+)', lines[i])
                if m:
                    where = f"{m.group(1)}:{m.group(2)} {m.group(3)}"
                i += 1
            exc = lines[i] if i < len(lines) else "?"
            i += 1
            if i < len(lines) and lines[i].startswith(("The above", "During handling")):
                i += 1  # a chained exception: the traceback that follows is counted (the last of the chain)
                continue
            said[f"traceback: {norm(exc)}" + (f" (at {where})" if where else "")] += 1
    return count, [(n, line) for line, n in said.most_common(top)]


def notify_summary(counts: dict[str, Any], window: tuple[float, float]) -> dict[str, Any]:
    """Notifications sent in the window (each counted once, whatever the
    number of listeners) by kind, with their payload bytes."""
    lo, hi = window[0] * 10, window[1] * 10
    kinds: dict[str, list[int]] = {}
    room = [0, 0]
    for ds, kind, on_room, n, nbytes in counts.get("counts", []):
        if lo <= ds < hi:
            k = kinds.setdefault(kind, [0, 0])
            k[0] += n
            k[1] += nbytes
            if on_room:
                room[0] += n
                room[1] += nbytes
    return {"kinds": kinds, "room_channel": room, "workers_seen": counts.get("workers", [])}


def failover_summary(out: dict[str, Any]) -> dict[str, Any]:
    f = dict(out.get("failover", {}))
    rows = out.get("failover_players", [])
    # clients with no table at the kill (theirs could not be made) are left out
    f["without_table"] = sum(1 for r in rows if not r[2] or r[2][0] is None)
    rows = [r for r in rows if r[2] and r[2][0] is not None]
    if not rows:
        return f
    delays = [r[0] for r in rows if r[0] is not None]
    f["clients"] = len(rows)
    f["never"] = sum(1 for r in rows if r[0] is None)
    f["p50_s"], f["p99_s"] = pct(delays, 50), pct(delays, 99)
    f["max_s"] = max(delays, default=float("nan"))
    for name, dropped in (("dropped", True), ("relayed", False)):
        xs = [r[0] for r in rows if r[1] == dropped and r[0] is not None]
        f[name] = {
            "clients": sum(1 for r in rows if r[1] == dropped),
            "p99_s": pct(xs, 99),
            "max_s": max(xs, default=float("nan")),
        }
    live = {r[2][0] for r in rows if r[2] and r[2][0] is not None and not r[2][2]}
    f["tables_at_kill"] = len(live)
    f["tables_went_on"] = len(live & {r[2][0] for r in rows if r[3]})
    return f


def summary(args: argparse.Namespace, out: dict[str, Any], notify: dict[str, Any] | None) -> dict[str, Any]:
    """The figures of a run, as written by ``--json``."""
    keys = (
        "actions", "actions_per_s", "p50_ms", "p90_ms", "p99_ms", "max_ms", "server_cpu",
        "server_cpu_ms_per_action", "cpu_parts",
        "machine_busy", "errors", "reroutes", "stalls", "games_finished", "kb_per_idle_table", "rss_empty_kb",
        "rss_idle_kb", "xact_commit", "xact_rollback", "unowned_at_end", "tables_started",
    )  # fmt: skip
    s: dict[str, Any] = {k: out[k] for k in keys if k in out}
    s.update(
        workers=args.workers, tables=args.tables, think=args.think, seconds=args.seconds,
        client_procs=args.client_procs,
        failures=len(out.get("failures", [])), drops=dict(out.get("drops", {})),
    )  # fmt: skip
    if notify is not None:
        s["notify"] = notify
    if args.failover:
        s["failover"] = failover_summary(out)
    if args.rolling:
        s["rolling"] = rolling_summary(out)
    return s


def compare(argv: list[str], n: int) -> int:
    """``--compare-workers N``: this command as one worker behind nginx on
    PostgreSQL, then as N workers; the ratio of their actions per second."""
    taken = ("--workers", "--postgres", "--proxy", "--failover", "--json", "--compare-workers", "--db")
    rest: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a.split("=", 1)[0] == "--compare-workers":
            skip = "=" not in a
            continue
        if a.split("=", 1)[0] in taken:
            raise SystemExit(f"--compare-workers chooses {a.split('=', 1)[0]} itself")
        rest.append(a)
    results = []
    with tempfile.TemporaryDirectory(prefix="room-load-compare-") as tmp:
        for i, extra in enumerate((["--workers", "1", "--proxy", "--postgres"], ["--workers", str(n)])):
            path = f"{tmp}/{i}.json"
            cmd = [sys.executable, __file__, *rest, *extra, "--json", path]
            print(f"\n$ python benchmarks/room_load.py {' '.join([*rest, *extra])}", flush=True)
            proc = subprocess.Popen(cmd)
            try:
                rc = proc.wait()
            except BaseException:  # Ctrl-C / SIGTERM: the run stops its own servers
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGINT)
                proc.wait(timeout=120)
                raise
            if rc != 0:
                return rc
            results.append(json.loads(Path(path).read_text()))
    one, many = results
    ratio = many["actions_per_s"] / one["actions_per_s"]
    print(
        f"\nsaturation: 1 worker (nginx, PostgreSQL) {one['actions_per_s']:.0f} actions/s, p99 {one['p99_ms']:.0f} ms, "
        f"{one['server_cpu_ms_per_action']:.2f} ms of server CPU per action; "
        f"{n} workers {many['actions_per_s']:.0f} actions/s, p99 {many['p99_ms']:.0f} ms, "
        f"{many['server_cpu_ms_per_action']:.2f} ms of server CPU per action (all workers'): ratio {ratio:.2f}"
    )
    target = 1.6 if n == 2 else 0.8 * n
    print(f"target {n} workers >= {target:.1f}x one: {'met' if ratio >= target else 'NOT met'}")
    return 0


def on_sigterm(_sig: int, _frame: Any) -> None:
    raise KeyboardInterrupt  # unwinds like Ctrl-C: every process started is stopped


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
    ap.add_argument(
        "--lag-probe",
        action="store_true",
        help="probe each worker's event-loop lag every 5 ms (stalls; costs each worker ~2%% of a core, "
        "which the server's CPU per action then includes, once per worker)",
    )
    ap.add_argument("--no-uvloop", action="store_true", help="run the clients on the default event loop")
    ap.add_argument(
        "--one-address", action="store_true",
        help="every client socket from 127.0.0.1, as before this option (a room older than its --unmetered "
        "socket exemption refuses the sockets over its 256 per address); default: 50 tables per loopback address",
    )  # fmt: skip
    ap.add_argument(
        "--client-procs", type=int, default=1, metavar="N",
        help="run the playing tables' clients in N processes of their own (table i in process i %% N), "
        "each its own event loop, all measuring the same window, their counts merged (default 1: in this "
        "process); for a server that one client process cannot saturate",
    )  # fmt: skip
    cl = ap.add_argument_group("several workers (trumps.room.cluster)")
    cl.add_argument(
        "--workers", type=int, default=None,
        help="trumps serve processes on one PostgreSQL database (default 1; more than 1 implies "
        "--postgres and --proxy; 2 with --failover)",
    )  # fmt: skip
    cl.add_argument(
        "--postgres", action="store_true",
        help="run on a throw-away PostgreSQL server (tests/room/pg.py) even with one worker",
    )  # fmt: skip
    cl.add_argument(
        "--proxy", action="store_true", help="nginx (deploy/nginx/trumps.conf) in front even of one worker"
    )
    cl.add_argument(
        "--rolling", action="store_true",
        help="stop (SIGTERM) and start again every worker in turn mid-run, a guest POSTing through "
        "nginx meanwhile",
    )  # fmt: skip
    cl.add_argument(
        "--failover", action="store_true", help="kill -9 the worker owning the most tables mid-run"
    )
    cl.add_argument(
        "--kill-after", type=float, default=None,
        help="--failover, --rolling: seconds into the measured window (default a third of --seconds)",
    )  # fmt: skip
    cl.add_argument(
        "--count-notify", action="store_true",
        help="count the notifications between workers (a listener process on every channel; costs some CPU)",
    )  # fmt: skip
    cl.add_argument(
        "--compare-workers", type=int, default=None, metavar="N",
        help="run twice, as --workers 1 --proxy --postgres and as --workers N, and print the ratio",
    )  # fmt: skip
    cl.add_argument(
        "--route", choices=("proxy", "relay", "owner"), default="proxy",
        help="proxy (default): everything through nginx, and a table socket told its table's worker "
        "connects again there, as the page does (nginx routes it by ?worker=); relay: through nginx, "
        "but clients ignore that (every socket stays where round robin put it, relayed); owner: each "
        "table made on one worker and its sockets straight to it, bypassing nginx",
    )  # fmt: skip
    cl.add_argument(
        "--setup-limit", type=float, default=120.0,
        help="with PostgreSQL the window opens once every table has played an action, or after this many s",
    )  # fmt: skip
    cl.add_argument("--json", default=None, help="write the run's figures here (JSON)")
    args = ap.parse_args()
    if args.lag_probe:  # the servers started below inherit it (Server.start)
        os.environ["TRUMPS_ROOM_LAG_PROBE"] = "1"
    if args.compare_workers is not None:
        if args.compare_workers < 2:
            ap.error("--compare-workers needs N >= 2")
        return compare(sys.argv[1:], args.compare_workers)
    if args.idle_tables is None:
        args.idle_tables = args.tables
    if args.tables < 0 or args.idle_tables < 0 or args.seconds <= 0:
        ap.error("--tables/--idle-tables must be >= 0 and --seconds > 0")
    if args.workers is None:
        args.workers = 2 if args.failover else 1
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    if args.failover and args.workers < 2:
        ap.error("--failover needs --workers 2 or more")
    if args.failover and not args.tables:
        ap.error("--failover needs active tables")
    if args.client_procs < 1:
        ap.error("--client-procs must be at least 1")
    if args.failover and args.client_procs > 1:
        ap.error("--failover marks every client at the kill: it runs with --client-procs 1")
    if args.rolling and (args.workers < 2 or not args.tables or args.failover):
        ap.error("--rolling needs --workers 2 or more, active tables, and no --failover")
    if args.kill_after is None:
        args.kill_after = args.seconds / 3
    on_pg = args.db is not None and args.db.startswith("postgresql")
    throwaway_pg = args.db is None and (args.postgres or args.workers > 1 or args.failover)
    if (args.postgres or args.workers > 1 or args.failover) and args.db is not None and not on_pg:
        ap.error("several workers, --postgres and --failover need PostgreSQL (--db postgresql+psycopg://...)")
    cluster = on_pg or throwaway_pg
    proxy = args.proxy or args.workers > 1
    if args.count_notify and not cluster:
        ap.error("--count-notify needs PostgreSQL")
    if args.route == "owner" and (args.failover or not cluster):
        ap.error("--route owner is for several workers without --failover")

    loop_name = "asyncio"
    runner: Callable[[Any], Any] = asyncio.run
    if not args.no_uvloop:
        try:
            import uvloop

            runner, loop_name = uvloop.run, "uvloop"
        except ImportError:  # pragma: no cover
            pass

    signal.signal(signal.SIGTERM, on_sigterm)
    load_before = os.getloadavg()
    notify_counts: dict[str, Any] | None = None
    stderr_texts: list[str] = []
    nginx_log = ""
    pg_version = ""
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="room-load-"))
        if throwaway_pg:
            sys.path.insert(0, str(TEST_HELPERS))
            from pg import postgres_server  # tests/room/pg.py

            db = stack.enter_context(postgres_server())
        else:
            db = args.db or f"sqlite:///{tmp}/room.db"
        workers = [
            Server(
                db,
                free_port(),
                timings=f"{tmp}/timings-{i}.json",
                log=f"{tmp}/worker-{i}.log",
                name=f"w{i + 1}" if cluster else None,
            )
            for i in range(args.workers)
        ]
        # on an error or an interrupt the clients may still hold their sockets: a
        # worker's graceful stop would wait for them, so a short grace, then SIGKILL
        stack.callback(stop_all, workers, 5.0)
        workers[0].start()  # the first one creates (migrates) the database
        for w in workers[1:]:
            w.start(wait=False)
        for w in workers[1:]:
            w.wait_ready()
        dep = Deployment(workers, db, workers[0].url)
        if proxy:
            sys.path.insert(0, str(TEST_HELPERS))
            sockets = 4 * args.tables + 3 * args.idle_tables
            dep.nginx = Nginx(
                [w.port for w in workers], max(1024, 2 * sockets + 1024), [w.name or "" for w in workers]
            )
            stack.callback(dep.nginx.stop)
            dep.nginx.start()
            dep.base_url = f"http://{HOST}:{dep.nginx.port}"
        if cluster:
            dep.database = Database(db)
            stack.callback(dep.database.close)
            pg_version = str(dep.database.one("SHOW server_version"))
            dep.postmaster = find_postmaster(db)
        if args.count_notify:
            dep.counter = NotifyCounter(libpq_dsn(db), f"{tmp}/notify.json")
            stack.callback(dep.counter.stop)
            time.sleep(1.5)  # the workers' beats name their channels
        try:
            out = runner(main_async(args, dep))
        except asyncio.CancelledError:  # SIGTERM during the run
            raise KeyboardInterrupt from None
        except Exception:
            if cluster:  # what the servers said, before they are stopped and their files removed
                stop_all(workers, 5.0)
                if dep.nginx is not None:
                    dep.nginx.stop()
                print("the run failed; the servers' side:", file=sys.stderr)
                report_cluster(
                    args,
                    {},
                    None,
                    {},
                    [w.stderr() for w in workers],
                    dep.nginx.error_log if dep.nginx else "",
                )
            raise
        if dep.counter is not None:
            notify_counts = dep.counter.stop()
        stop_all(workers)
        stderr_texts = [w.stderr() for w in workers]
        if dep.nginx is not None:
            dep.nginx.stop()
            nginx_log = dep.nginx.error_log
        timings: dict[str, list[list[float]]] = {}
        for w in workers:
            for n in range(w.starts):
                f = Path(w.timings_file(n) or "")
                if f.is_file():
                    for kind, rows in json.loads(f.read_text()).items():
                        timings.setdefault(kind, []).extend(rows)
    load_after = os.getloadavg()
    server = workers[0]
    n_procs = min(args.client_procs, args.tables) if args.tables else 1
    client_side = "one process" if n_procs == 1 else f"{n_procs} processes (--client-procs)"

    print(f"machine: {machine()}")
    if not cluster:
        print(f"server: trumps serve --db {db.split('///')[0]}///... --bot-delay 0 (pid {server.pid}), "
              f"clients: {client_side} on {loop_name}")  # fmt: skip
    else:
        where = "a throw-away PostgreSQL server (tests/room/pg.py, default settings)" if throwaway_pg else db
        front = (
            f"behind nginx (deploy/nginx/trumps.conf, 1 nginx worker process, port {dep.nginx.port})"
            if dep.nginx is not None
            else "directly (no proxy)"
        )
        print(
            f"servers: {args.workers} x trumps serve --db postgresql+psycopg://... --bot-delay 0 "
            f"(pids {', '.join(str(w.pid) for w in workers)}) on {where}, PostgreSQL {pg_version}, {front}; "
            f"clients: {client_side} on {loop_name}, reconnecting with ?since= as the table page does"
            + (
                "; --route owner: each table made on one worker and its 4 sockets straight to it (no relaying)"
                if args.route == "owner"
                else ""
            )
        )
        print(f"code: {code_version()}")
        print(
            f"load average (1/5/15 min) before the run {load_before[0]:.2f}/{load_before[1]:.2f}/{load_before[2]:.2f}, "
            f"after {load_after[0]:.2f}/{load_after[1]:.2f}/{load_after[2]:.2f}"
        )
    print(f"game: {args.game} preset={args.preset}, think time {args.think} s")
    if args.idle_tables:
        print(
            f"memory: RSS {out['rss_empty_kb'] / 1024:.1f} MiB empty, {out['rss_idle_kb'] / 1024:.1f} MiB "
            f"with {args.idle_tables} idle tables (3 seated clients each) "
            f"-> {out['kb_per_idle_table']:.0f} KB per idle table"
            + (
                f" (RSS summed over {args.workers} workers; with the tables: "
                f"{', '.join(f'{kb / 1024:.1f}' for kb in out['rss_idle_by_worker_kb'])} MiB)"
                if cluster and args.workers > 1
                else ""
            )
        )
    if args.tables:
        report_load(args, out, cluster)
        report_timings(out, timings, args.workers, n_procs)
    if cluster:
        report_cluster(args, out, notify_counts, timings, stderr_texts, nginx_log)
    if args.dump:
        Path(args.dump).write_text(json.dumps({"client": out, "server": timings}, default=list))
    if args.json:
        notify = notify_summary(notify_counts, out["window"]) if notify_counts and "window" in out else None
        Path(args.json).write_text(json.dumps(summary(args, out, notify), default=str))
    if args.tables:
        ok_load = out["p99_ms"] < 100 and not out.get("failures") and not out["stalls"]
        print(
            f"target >= 300 active tables with p99 < 100 ms: {'met' if ok_load and args.tables >= 300 else 'NOT met'}"
        )
    if args.idle_tables:
        print(f"target <= 250 KB per idle table: {'met' if out['kb_per_idle_table'] <= 250 else 'NOT met'}")
    return 0


def report_load(args: argparse.Namespace, out: dict[str, Any], cluster: bool) -> None:
    print(
        f"load: {args.tables} active tables for {out['elapsed']:.1f} s: {out['actions']} actions, "
        f"{out['actions_per_s']:.0f} actions/s, server CPU {out['server_cpu'] * 100:.0f}% of a core"
        + (f" (sum over {args.workers} workers)" if cluster and args.workers > 1 else "")
        + f", {out['server_cpu_ms_per_action']:.2f} ms of server CPU per action"
        + f", peak RSS {out['rss_load_kb'] / 1024:.1f} MiB "
        + (
            f"(client RSS +{out['client_rss_growth_kb'] / 1024:.0f} MiB with its GC off)"
            if args.client_procs == 1
            else f"(clients' RSS +{out['client_rss_growth_kb'] / 1024:.0f} MiB in all with their GC off)"
        )
    )
    if not cluster and args.client_procs > 1:  # (with the cluster's figures else)
        print_cpu_parts(out)
    print(
        f"latency action -> state at all 4 seats ({out['measured']} samples): "
        f"p50 {out['p50_ms']:.1f} ms, p90 {out['p90_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms, "
        f"max {out['max_ms']:.1f} ms"
    )
    print(
        f"games finished: {out['games_finished']}, errors: {out['errors']}, reroutes: {out.get('reroutes', 0)}, stalls: {out['stalls']}, "
        f"failures: {len(out.get('failures', []))}"
    )
    for reason, n in Counter(out.get("error_reasons") or {}).most_common(3):
        print(f"  {n} x error event: {reason}")
    for x in out.get("stalled", [])[:5]:
        print(
            f"  stalled: table {x['table']} seat {x['seat']} at seq {x['seq']} (worker {x['worker']}): {x['last'][:100]}"
        )
    if not cluster:
        for f in out.get("failures", [])[:3]:
            print("  failure:", f)
        return
    for f, n in Counter(out.get("failures", [])).most_common(5):
        print(f"  {n} x failure: {f.splitlines()[0]}")


def print_cpu_parts(out: dict[str, Any]) -> None:
    parts = out.get("cpu_parts", {})
    if parts:
        line = ", ".join(f"{k} {v * 100:.0f}%" for k, v in parts.items())
        print(
            f"CPU in the window (% of one core): {line}; sum {sum(parts.values()) * 100:.0f}%; "
            f"the whole machine was busy {out['machine_busy'] * 100:.0f}% of {(os.cpu_count() or 1) * 100}%"
        )


def report_cluster(
    args: argparse.Namespace, out: dict[str, Any], notify_counts: dict[str, Any] | None,
    timings: dict[str, list[list[float]]], stderr_texts: list[str], nginx_log: str,
) -> None:  # fmt: skip
    """What only a room on PostgreSQL (and several workers) has to say
    (with ``out`` empty: only what the servers wrote)."""
    if args.tables and out:
        print(
            f"set-up: {4 * args.tables} guests made in {out['guests_s']:.1f} s; "
            f"{out['tables_started']}/{args.tables} tables had played their first action when the window opened, "
            f"{out['setup_s']:.1f} s after the first was made (the window opens when all have, after --warmup "
            f"{args.warmup:g} s at least; tables that failed do not count)"
        )
        print_cpu_parts(out)
        actions = max(out["actions"], 1)
        if "xact_commit" in out:
            lo, hi = out["window"]
            group = [r for r in timings.get("batch", []) if lo <= r[0] <= hi]
            print(
                f"PostgreSQL per action: {out['xact_commit'] / actions:.2f} commits "
                f"({out['xact_commit']} in the window, {out['xact_commit'] / out['elapsed']:.0f}/s; "
                f"rollbacks {out['xact_rollback']}); of which the workers' group commits "
                f"{len(group) / actions:.2f} ({len(group)}, {sum(r[1] for r in group) / max(len(group), 1):.1f} "
                "writes each); the rest: notification batches, ownership checks, reads"
            )
        if notify_counts is not None:
            n = notify_summary(notify_counts, out["window"])
            kinds = n["kinds"]
            total = sum(v[0] for v in kinds.values())
            nbytes = sum(v[1] for v in kinds.values())
            by_kind = ", ".join(
                f"{k} {v[0] / actions:.2f} ({v[1] / max(v[0], 1):.0f} B each)"
                for k, v in sorted(kinds.items(), key=lambda kv: -kv[1][0])
            )
            print(
                f"notifications per action: {total / actions:.2f} ({total} in the window, {total / out['elapsed']:.0f}/s, "
                f"{nbytes / actions / 1024:.1f} KiB of payload per action): {by_kind}; "
                f"on the room channel (read by every worker): {n['room_channel'][0]}"
            )
        drops: Counter[str] = Counter(out.get("drops") or {})
        print(
            f"client sockets dropped and reopened: {sum(drops.values())}"
            + (f" ({', '.join(f'{k}: {v}' for k, v in drops.most_common())})" if drops else "")
            + f"; unfinished tables with no owner after the run: {out.get('unowned_at_end', '?')}"
        )
    if args.failover and out:
        f = failover_summary(out)
        if "failover_error" in out:
            print(f"failover: ERROR {out['failover_error']}")
        if "victim" in f:
            reowned = f.get("reowned_s")
            print(
                f"failover: killed worker {f['victim']} (kill -9, {args.kill_after:.0f} s into the window), "
                f"which owned {f['victim_tables']} tables (tables by worker: {f['tables_by_worker']}); "
                + (
                    f"all of them owned again {reowned:.2f} s after the kill"
                    if reowned is not None
                    else "NOT all owned again within 30 s"
                )
            )
        if "clients" in f:
            print(
                f"failover: time from the kill to each client's next state with a new seq ({f['clients']} clients): "
                f"p50 {f['p50_s']:.2f} s, p99 {f['p99_s']:.2f} s, max {f['max_s']:.2f} s; none: {f['never']}"
                + (
                    f" ({f['without_table']} clients without a table at the kill left out)"
                    if f["without_table"]
                    else ""
                )
            )
            for name, what in (("dropped", "whose socket dropped (it was on the killed worker)"),
                               ("relayed", "whose socket stayed open (on a surviving worker)")):  # fmt: skip
                g = f[name]
                print(f"  {g['clients']} clients {what}: p99 {g['p99_s']:.2f} s, max {g['max_s']:.2f} s")
            print(
                f"failover: tables being played at the kill: {f['tables_at_kill']}, "
                f"went on (a later state of the same table): {f['tables_went_on']}"
            )
            ok = f["never"] == 0 and f["max_s"] <= 5 and f["tables_went_on"] == f["tables_at_kill"]
            print(
                f"target every client's next state within 5 s of the kill, every table goes on: {'met' if ok else 'NOT met'}"
            )
    if args.rolling and out:
        if "rolling_error" in out:
            print(f"rolling restart: ERROR {out['rolling_error']}")
        r = rolling_summary(out)
        each = "; ".join(
            f"worker {x['worker']} stopped {x['stop_s']:.2f} s after SIGTERM, answering again {x['start_s']:.2f} s later"
            for x in r["restarts"]
        )
        print(f"rolling restart ({args.kill_after:.0f} s into the window, 2 s between workers): {each}")
        d, o = r["during"], r["rest"]
        print(
            f"rolling restart: action -> state at all 4 seats, actions sent while a worker was stopping or "
            f"starting (to 1 s after it answered): {d['n']} samples, p50 {d['p50_ms']:.1f} ms, "
            f"p99 {d['p99_ms']:.1f} ms, max {d['max_ms']:.1f} ms; the rest of the window: {o['n']} samples, "
            f"p50 {o['p50_ms']:.1f} ms, p99 {o['p99_ms']:.1f} ms, max {o['max_ms']:.1f} ms"
        )
        w, c = r["waits"], r["calm"]
        print(
            f"rolling restart: a table's wait for its next state (think time 0.3-0.9 s included), over a "
            f"restart: {w['n']} waits, p99 {w['p99_s']:.2f} s, max {w['max_s']:.2f} s; elsewhere: p99 "
            f"{c['p99_s']:.2f} s, max {c['max_s']:.2f} s"
        )
        posts = Counter(r["posts"])
        lost = sum(v for k, v in posts.items() if k != "403")
        print(
            f"rolling restart: a guest's POST through nginx every 20 ms: {sum(posts.values())} sent, answers "
            f"{', '.join(f'{k}: {v}' for k, v in posts.most_common())} (403 is the room's answer; anything else "
            f"is a request lost): {lost} lost"
        )
        ok = (
            len(r["restarts"]) == args.workers
            and d["max_ms"] < 1000
            and w["max_s"] < c["max_s"] + 1.0
            and lost == 0
            and not out.get("stalls")
            and "rolling_error" not in out
        )
        print(
            "target no action waits a second or more during the restarts, no table waits a second longer for its "
            "next state than without them, no request lost, no table stalled: " + ("met" if ok else "NOT met")
        )
    refused = [*out.get("idle_refused", []), *out.get("refused", [])]
    if refused:
        print(
            f"table creations the room refused (and this script tried again): {len(refused)} "
            f"({', '.join(f'HTTP {k}: {v}' for k, v in Counter(refused).most_common())}; "
            f"{len(out.get('idle_refused', []))} of them while making the idle tables)"
        )
    count, top = stderr_summary(stderr_texts)
    per = ", ".join(str(sum(1 for line in t.splitlines() if line.strip())) for t in stderr_texts)
    print(f"workers' stderr: {count} lines ({per} per worker)" + (":" if top else ""))
    for times, line in top:
        print(f"  {times} x {line}")
    errors = [
        line for line in nginx_log.splitlines() if "[error]" in line or "[crit]" in line or "[alert]" in line
    ]
    if errors:
        kinds = Counter(
            re.sub(
                r"^\S+ \S+ \[\w+\] [\d#]+: \*\d+ |, client: .*?(?=, request)|(?<=/ws/table/)[^ ?\",]+|\d+",
                "#",
                line,
            )[:250]
            for line in errors
        )
        print(f"nginx error log: {len(errors)} errors; most frequent:")
        for line, times in kinds.most_common(5):
            print(f"  {times} x {line}")


if __name__ == "__main__":
    sys.exit(main())
