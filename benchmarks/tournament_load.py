"""Load test of the duplicate tournaments: N accounts playing the same daily
tournament at once on one worker, at bot pace, for a window of seconds.

    python benchmarks/tournament_load.py --entrants 500 --seconds 60
    python benchmarks/tournament_load.py --entrants 500 --game 500 --think 0.6 --bot-delay 0.6

``trumps serve`` runs in its own process (SQLite in a temporary folder, or
``--db``).  Each entrant is an account (registered through the API before
the window: argon2id, so the set-up takes a while) that does what the page
does: ``POST /api/tournaments/{id}/play`` for the table of its next deal,
the table's WebSocket, a random legal action from its own view after
``--think`` seconds (0.5x to 1.5x) whenever South is to act, and the next
deal once the deal is over, until every deal is played (then it enters no
more) or the window ends.  The bots at the other seats are the daily
tournament's (``normal``: PIMC) and wait the server's ``--bot-delay``
between moves, as in the room.

Reported for the window: the entrants' actions per second, the latency from
an action sent to the state carrying it (its ``seq``) received by the
entrant (p50 / p90 / p99 / max), the time to get the table of a next deal
(``POST .../play``), deals finished, the server's CPU per entrant action and
the machine's load.  The issue's target: p99 of an action under 100 ms with
500 entrants on the project's machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from room_load import Server, client_address, free_port, local_addr, machine, pct, tree_cpu_seconds

PASSWORD = "correct horse 1"
PER_ADDRESS = 200  # sockets per loopback address (the room refuses more than 256 from one)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)  # an entrant's first POST .../play answered, seconds
    plays: list[float] = field(default_factory=list)  # the next deal's POST .../play answered, seconds
    results: list[float] = field(default_factory=list)  # GET /api/tournaments/{id} after a deal, seconds
    actions: int = 0
    deals: int = 0
    errors: list[str] = field(default_factory=list)


async def register(url: str, name: str, n: int) -> str:
    """A new account (the room makes at most a few an hour from one address,
    unmetered or not: each from a loopback address of its own)."""
    transport = httpx.AsyncHTTPTransport(local_address=client_address(n, 1, net=3))
    async with httpx.AsyncClient(
        base_url=url, timeout=120, transport=transport
    ) as http:  # its own cookie jar
        r = await http.post("/api/register", json={"username": name, "password": PASSWORD})
        r.raise_for_status()
        return f"trumps_session={r.cookies['trumps_session']}"


async def entrant(
    n: int, cookie: str, url: str, tid: str, think: float, window: tuple[float, float], stats: Stats,
    stop: asyncio.Event, arrive: float,
) -> None:  # fmt: skip
    rng = random.Random(n)
    start, end = window
    await asyncio.sleep(rng.uniform(0.0, arrive))  # people come to a daily tournament over time
    first = True
    address = client_address(n, PER_ADDRESS)
    ws_base = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, headers={"Cookie": cookie}, timeout=60) as http:
        while not stop.is_set():
            t0 = time.perf_counter()
            r = await http.post(f"/api/tournaments/{tid}/play", json={})
            if r.status_code == 409:  # every deal played
                return
            if r.status_code != 200:
                stats.errors.append(f"play {r.status_code} {r.text[:80]}")
                return
            now = time.time()
            if start <= now <= end:
                (stats.firsts if first else stats.plays).append(time.perf_counter() - t0)
            first = False
            table = r.json()["table"]
            sent: dict[int, float] = {}
            async with websockets.connect(
                f"{ws_base}/ws/table/{table}", additional_headers={"Cookie": cookie}, open_timeout=60,
                max_size=2**22, **local_addr(address),
            ) as ws:  # fmt: skip
                acted_for = -1
                while not stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), timeout=120)
                    except TimeoutError:
                        stats.errors.append(f"table {table}: silent for 120 s")
                        return
                    ev = json.loads(raw)
                    if ev.get("type") != "state":
                        continue
                    seq = int(ev["seq"])
                    for s in [s for s in sent if s <= seq]:
                        at = sent.pop(s)
                        if start <= time.time() <= end:
                            stats.latencies.append(time.perf_counter() - at)
                            stats.actions += 1
                    view = ev["view"]
                    if view.get("over"):
                        if start <= time.time() <= end:
                            stats.deals += 1
                        t0 = time.perf_counter()  # the page shows the deal's result against the field
                        got = await http.get(f"/api/tournaments/{tid}")
                        if got.status_code != 200:
                            stats.errors.append(f"results {got.status_code} {got.text[:80]}")
                        elif start <= time.time() <= end:
                            stats.results.append(time.perf_counter() - t0)
                        break
                    if ev["table"]["status"] != "playing" or view.get("to_act") != "S" or acted_for == seq:
                        continue
                    acted_for = seq
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    legal = view["legal"]
                    sent[seq + 1] = time.perf_counter()
                    await ws.send(
                        json.dumps({"v": 1, "type": "act", "action": rng.choice(legal), "seq": seq})
                    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = tempfile.mkdtemp(prefix="trumps-tournament-load-")
    db = args.db or f"sqlite:///{folder}/room.db"
    timings = os.path.join(folder, "timings.json")
    server = Server(
        db, free_port(), timings=timings, bot_delay=args.bot_delay, log=os.path.join(folder, "server.log")
    )
    server.start()
    url = server.url
    try:
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            sem = asyncio.Semaphore(8)

            async def one(i: int) -> str:
                async with sem:
                    return await register(url, f"entrant_{i}", i)

            t0 = time.perf_counter()
            cookies = await asyncio.gather(*(one(i) for i in range(args.entrants)))
            set_up = time.perf_counter() - t0
            listed = (await http.get("/api/tournaments")).json()["tournaments"]
        daily = next(t for t in listed if t["kind"] == "daily" and t["game"] == args.game)
        stats = Stats()
        stop = asyncio.Event()
        start = time.time() + args.warmup
        end = start + args.seconds
        tasks = [
            asyncio.create_task(
                entrant(i, c, url, daily["id"], args.think, (start, end), stats, stop, args.arrive)
            )
            for i, c in enumerate(cookies)
        ]
        await asyncio.sleep(max(0.0, start - time.time()))
        cpu0, wall0 = tree_cpu_seconds(server.pid), time.time()
        load0 = os.getloadavg()[0]
        await asyncio.sleep(max(0.0, end - time.time()))
        cpu1, wall1 = tree_cpu_seconds(server.pid), time.time()
        load1 = os.getloadavg()[0]
        stop.set()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        lat = [x * 1000 for x in stats.latencies]
        plays = [x * 1000 for x in stats.plays]
        firsts = [x * 1000 for x in stats.firsts]
        results = [x * 1000 for x in stats.results]
        out = {
            "entrants": args.entrants,
            "game": args.game,
            "deals in the tournament": daily["deals"],
            "bots": daily["bots"],
            "think s": args.think,
            "bot delay s": args.bot_delay,
            "accounts made in s": round(set_up, 1),
            "window s": args.seconds,
            "entrant actions/s": round(stats.actions / (wall1 - wall0), 1),
            "action latency ms p50/p90/p99/max": [round(pct(lat, p), 1) for p in (50, 90, 99)]
            + [round(max(lat or [0]), 1)],
            "first deal (POST play) n, ms p50/p99": [
                len(firsts),
                round(pct(firsts, 50), 1),
                round(pct(firsts, 99), 1),
            ],
            "next deal (POST play) n, ms p50/p99": [
                len(plays),
                round(pct(plays, 50), 1),
                round(pct(plays, 99), 1),
            ],
            "results after a deal (GET) n, ms p50/p99": [
                len(results),
                round(pct(results, 50), 1),
                round(pct(results, 99), 1),
            ],
            "deals finished": stats.deals,
            "server CPU s": round(cpu1 - cpu0, 1),
            "server CPU % of one core": round(100 * (cpu1 - cpu0) / (wall1 - wall0)),
            "load average at start/end": [round(load0, 2), round(load1, 2)],
            "errors": stats.errors[:5],
            "machine": machine(),
        }
    finally:
        server.stop()
        with contextlib.suppress(NameError):
            out["server's storage calls in the window, ms (count, p50, p99)"] = storage_calls(
                timings, start, end
            )
    return out


def storage_calls(path: str, start: float, end: float) -> dict[str, list[float]]:
    """What the room's storage calls (``run:<function>``: queueing on the
    database thread included) and group commits (``dbwait``) took in the
    window, from the server's own timings (``trumps.room.timing``)."""
    try:
        got: dict[str, list[list[float]]] = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    out = {}
    for kind, rows in sorted(got.items()):
        if not (kind.startswith("run:") or kind == "dbwait"):
            continue
        ms = [r[1] * 1000 for r in rows if start <= r[0] <= end]
        if ms:
            out[kind] = [len(ms), round(pct(ms, 50), 1), round(pct(ms, 99), 1)]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--entrants", type=int, default=500)
    p.add_argument("--game", default="coinche", help="whose daily tournament (default coinche)")
    p.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds of play before the window")
    p.add_argument(
        "--arrive", type=float, default=10.0, help="entrants arrive over this many seconds (0: all at once)"
    )
    p.add_argument("--think", type=float, default=0.6, help="an entrant's mean seconds before its action")
    p.add_argument("--bot-delay", type=float, default=0.6, help="the server's pause before a bot's move")
    p.add_argument("--db", default=None, help="a SQLAlchemy URL (default: SQLite in a temporary folder)")
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
