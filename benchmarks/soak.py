"""Soak test of the card room: one ``trumps serve`` process for minutes of
ordinary play of every kind, and whether it holds up.

    python benchmarks/soak.py --minutes 10 [--db URL | --postgres] [--json soak.json]

The load generator (``benchmarks/room_load.py``) measures how fast the room
is with random players; this one asks whether the room *survives* what a
room sees every day, all at once, for a long time.  In one server process
(SQLite in a temporary folder unless ``--db`` or ``--postgres``), at a short
bot delay (``--bot-delay``, passed to ``trumps serve --bot-delay``):

- **Bot tables** of every game and variant that matters (``--set full``: 500
  American and Australian with four players, 2v2v2 and 3v3 with six; bridge
  duplicate and rubber; coinche's five presets), every seat a bot, and every
  bot level (``random``, ``easy``, ``normal``, ``strong``) at each table,
  rotated from table to table so that each level sits in every seat.  A
  guest hosts them (it does not sit) and watches each on a socket.
- **Person tables**: a client acting as a person sits, turns suggestions on
  and, at its turn, plays the suggested action (or a random legal one if no
  suggestion came within ``SUGGESTION_WAIT``), with bots of the levels in
  the other seats; it says a chat line now and then.
- **Spectators**: guests that open a socket on a table, read for a while and
  leave, over and over; a share of them (``--slow-share``) are slow readers
  (a 4 KB receive buffer, one message every 1-3 s), and some say a line in
  the spectators' chat.
- **Tournament deals** (``TOURNAMENTS``): a guest plays the room's instant
  duplicate tournaments, one deal of each game in turn (bridge's by
  matchpoints and by cross-IMPs alternately), at the tables the room makes
  for them (the tournament's bots, nobody watching: the spectators who try
  are refused), and reads the results after each deal as the page does; a
  new guest once one has played every deal.
- A finished game is replaced by a new table of the same kind.

Every ``--sample`` seconds: whether the server is alive, its RSS
(``/proc/PID/status``) and CPU, each table's ``seq`` (the number of actions
applied), actions per second, and what the clients saw (error events by
reason, sockets the server closed by code, HTTP 5xx).  At the end a report
(human lines, and JSON with ``--json``) and the exit status: 1 if the server
died, a table did not advance for ``--stall`` seconds, the server's RSS grew
more than ``--rss-growth-mb`` after the warm-up, or the room answered a
request with 5xx or closed a socket with 1011 (an internal error); else 0.

Few identities, as a room has: one host for the bot tables (one for every
``TABLES_PER_HOST``, the room's limit), one guest per
person table, ``--spectators`` guests (each on one socket at a time), so the
per-person budgets of the room are not what is measured.  Only 127.0.0.1;
every loop is bounded by the run's end; the server dies with this script.
``tests/room/test_soak.py`` runs the same with ``--set short`` for 2.5 min.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import websockets
from room_load import (  # benchmarks/room_load.py (this folder)
    DROPS,
    HOST,
    TEST_HELPERS,
    Server,
    code_version,
    free_port,
    machine,
    new_guest,
    on_sigterm,
    stderr_summary,
)

from trumps.room.limits import TABLES_PER_HOST

LEVELS = ("random", "easy", "normal", "strong")  # the room's bot levels (messages.SetBot)
SUGGESTION_WAIT = 5.0  # s a person waits for the suggestion before playing a random legal action
THINK = (0.1, 0.6)  # s a person pauses before acting (uniform)
CHAT_EVERY = (15.0, 45.0)  # s between a person's chat lines (uniform)
STAY = (2.0, 12.0)  # s a spectator reads a table before leaving
SLOW_STAY = (10.0, 30.0)  # s a slow reader stays
SLOW_READ = (1.0, 3.0)  # s a slow reader waits before reading each message
SLOW_RCVBUF = 4096  # bytes: a slow reader's socket receive buffer
SPECTATOR_CHAT = 0.15  # chance that a spectator's visit says one line
RECONNECT = 1.0  # s before a dropped socket is opened again


@dataclass(frozen=True)
class Kind:
    """One kind of table: a game, its preset and options."""

    game: str
    preset: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return " ".join(x for x in (self.game, self.preset or "", opts) if x)


FIVE_HUNDRED_4 = Kind("500", "american")
FIVE_HUNDRED_6 = Kind("500", "american", (("players", "2v2v2"),))
BRIDGE = Kind("bridge")
COINCHE_SEED = Kind("coinche", "seed")  # melds (announcements): the hidden-meld case
#: (bot tables, person tables) of each set
SETS: dict[str, tuple[tuple[Kind, ...], tuple[Kind, ...]]] = {
    "full": (
        (
            FIVE_HUNDRED_4,
            Kind("500", "australian"),
            FIVE_HUNDRED_6,
            Kind("500", "australian", (("players", "3v3"),)),
            BRIDGE,
            Kind("bridge", None, (("scoring", "rubber"),)),
            Kind("coinche", "common"),
            COINCHE_SEED,
            Kind("coinche", "ffb_2016"),
            Kind("coinche", "contree_exact"),
            Kind("coinche", "pagat"),
        ),
        (FIVE_HUNDRED_4, FIVE_HUNDRED_6, BRIDGE, COINCHE_SEED),
    ),
    "short": (
        (
            FIVE_HUNDRED_4,
            FIVE_HUNDRED_6,
            Kind("500", "australian", (("players", "3v3"),)),
            BRIDGE,
            COINCHE_SEED,
        ),
        (FIVE_HUNDRED_4, BRIDGE, Kind("coinche", "common")),
    ),
}


#: the games whose instant tournaments a guest plays, one deal of each in turn (one place per set)
TOURNAMENTS: dict[str, tuple[str, ...]] = {
    "full": ("500", "bridge", "coinche"),
    "short": ("500", "bridge", "coinche"),
}


@dataclass
class Options:
    minutes: float = 10.0
    set: str = "full"
    games: tuple[str, ...] = ()  # only these games (empty: all of the set)
    bot_delay: float = 0.05
    spectators: int = 6
    slow_share: float = 0.3
    sample: float = 5.0
    stall: float = 60.0
    warmup: float | None = None  # default: a quarter of the run, at least 30 s
    rss_growth_mb: float = 150.0
    fail_fast: bool = False  # end the run at the first stall (the server's death always ends it)
    db: str | None = None
    postgres: bool = False
    seed: int = 1
    quiet: bool = False

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    @property
    def warmup_s(self) -> float:
        return self.warmup if self.warmup is not None else max(30.0, self.seconds / 4)


@dataclass
class Slot:
    """One table place: a table of one kind, replaced when its game ends."""

    name: str
    kind: Kind
    person: bool
    offset: int  # where the rotation of levels starts
    tid: str | None = None
    seq: int = -1
    tables: int = 0
    games: int = 0
    actions: int = 0
    advanced_at: float = field(default_factory=time.monotonic)
    max_gap: float = 0.0
    stalled: bool = False
    rotation: tuple[str, ...] = ()  # a tournament place: the games it plays a deal of in turn

    def level(self, seat: int) -> str:
        return LEVELS[(self.offset + seat) % len(LEVELS)]

    def new_table(self, tid: str) -> None:
        """A new table in this place (not an advance: only an action is)."""
        self.tid, self.seq = tid, -1
        self.tables += 1

    def saw(self, ev: dict[str, Any]) -> bool:
        """A state of its table was seen; whether its game is over."""
        seq = int(ev["seq"])
        if seq > self.seq:
            if seq >= 1:  # an action was applied (a new table's seq 0 is none)
                self.actions += seq - max(self.seq, 0)
                self.advanced_at = time.monotonic()
            self.seq = seq
        over = bool(ev["view"].get("over") or ev["table"]["status"] == "finished")
        if over:
            self.games += 1
        return over


@dataclass
class Run:
    opts: Options
    server: Server
    http: httpx.AsyncClient
    slots: list[Slot]
    t0: float = field(default_factory=time.monotonic)
    counts: Counter[str] = field(default_factory=Counter)  # what the clients did
    errors: Counter[str] = field(default_factory=Counter)  # error events, by reason
    closed: Counter[str] = field(default_factory=Counter)  # sockets ended by the server, by code
    server_errors: list[str] = field(default_factory=list)  # 5xx answers, 1011 closes
    client_faults: Counter[str] = field(default_factory=Counter)  # a client task's exception (it restarts)
    samples: list[dict[str, Any]] = field(default_factory=list)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    death: dict[str, Any] | None = None
    ended_s: float | None = None  # when the clients were stopped (s into the run)
    rss_start_mb: float = 0.0  # the server's RSS before any table
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def ws_base(self) -> str:
        return f"ws://{HOST}:{self.server.port}"

    def t(self) -> float:
        return round(time.monotonic() - self.t0, 1)

    def answered(self, r: httpx.Response, what: str) -> None:
        if r.status_code >= 500:
            self.server_errors.append(f"{self.t()} s: {what} answered {r.status_code}")

    def error_event(self, ev: dict[str, Any]) -> None:
        self.errors[str(ev.get("reason"))[:100]] += 1

    def dropped(self, exc: BaseException, who: str) -> None:
        """A socket of ``who`` ended other than by this client."""
        if isinstance(exc, websockets.ConnectionClosed) and exc.rcvd is not None:
            code = exc.rcvd.code
            self.closed[f"{who}: close {code}"] += 1
            if code == 1011:
                self.server_errors.append(
                    f"{self.t()} s: a {who} socket closed with 1011 ({exc.rcvd.reason})"
                )
        elif isinstance(exc, websockets.InvalidStatus):
            status = exc.response.status_code
            self.closed[f"{who}: HTTP {status}"] += 1
            if status >= 500:
                self.server_errors.append(f"{self.t()} s: a {who} socket was refused with {status}")
        else:
            self.closed[f"{who}: {type(exc).__name__}"] += 1


def gone(exc: BaseException) -> bool:
    """Whether a socket was closed because its table is not here (4404):
    then a new table, rather than knocking at this one for ever."""
    return isinstance(exc, websockets.ConnectionClosed) and exc.rcvd is not None and exc.rcvd.code == 4404


def message(type_: str, **fields: Any) -> str:
    return json.dumps({"v": 1, "type": type_, **fields})


async def create_table(run: Run, cookie: str, kind: Kind) -> str:
    body: dict[str, Any] = {"game": kind.game, "options": dict(kind.options)}
    if kind.preset:
        body["preset"] = kind.preset
    r = await run.http.post("/api/tables", json=body, headers={"Cookie": cookie})
    run.answered(r, f"POST /api/tables ({kind.label})")
    r.raise_for_status()
    return str(r.json()["id"])


@contextlib.asynccontextmanager
async def table_socket(
    run: Run, tid: str, cookie: str, slow: bool = False
) -> AsyncIterator[websockets.ClientConnection]:
    """A socket on table ``tid``; ``slow``: a small receive buffer and at
    most one message queued in the client, so what it does not read stays
    in the server's buffers, as with a slow phone."""
    kw: dict[str, Any] = {"additional_headers": {"Cookie": cookie}, "open_timeout": 15, "close_timeout": 2}
    if slow:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SLOW_RCVBUF)
        sock.setblocking(False)
        try:
            await asyncio.wait_for(asyncio.get_running_loop().sock_connect(sock, (HOST, run.server.port)), 15)
        except BaseException:
            sock.close()
            raise
        kw.update(sock=sock, max_queue=1)
    async with websockets.connect(f"{run.ws_base}/ws/table/{tid}", max_size=2**22, **kw) as ws:
        yield ws


#: plays one socket of a table (and the set of what it asked for at this table); whether the game is over
Play = Callable[[websockets.ClientConnection, set[str]], Awaitable[bool]]


async def tables_of(run: Run, slot: Slot, cookie: str, who: str, play: Play) -> None:
    """Tables of ``slot``'s kind one after the other, each played by
    ``play`` until its game is over; a dropped socket is opened again after
    ``RECONNECT`` s (as the page does), a table that is gone (4404) replaced."""
    while True:
        tid = await create_table(run, cookie, slot.kind)
        slot.new_table(tid)
        over = False
        asked: set[str] = set()
        while not over:
            try:
                async with table_socket(run, tid, cookie) as ws:
                    over = await play(ws, asked)
            except DROPS as exc:
                run.dropped(exc, who)
                if gone(exc):
                    break
            if not over:
                await asyncio.sleep(RECONNECT)


async def watch_bots(run: Run, slot: Slot, ws: websockets.ClientConnection, asked: set[str]) -> bool:
    """The host of a bot table: a bot of its level in every seat, then it
    watches until the game is over."""
    async for raw in ws:
        ev = json.loads(raw)
        if ev["type"] == "error":
            run.error_event(ev)
        if ev["type"] != "state":
            continue
        if "bots" not in asked:
            asked.add("bots")
            for i, seat in enumerate(ev["table"]["seats"]):
                await ws.send(message("bot", seat=seat["seat"], kind=slot.level(i)))
        if slot.saw(ev):
            return True
    return False


@dataclass
class Turn:
    """The person's turn: the state's seq and legal actions, and when it acts."""

    seq: int
    legal: list[str]
    act_at: float
    give_up_at: float  # no suggestion by then: a random legal action
    suggestion: str | None = None
    sent: bool = False


async def play_person(
    run: Run, slot: Slot, rng: random.Random, ws: websockets.ClientConnection, asked: set[str]
) -> bool:
    """A person in the first seat of a table with suggestions on, bots in
    the others (one socket of it; whether the game is over)."""
    turn: Turn | None = None
    next_chat = time.monotonic() + rng.uniform(*CHAT_EVERY)
    while True:
        now = time.monotonic()
        wake = next_chat
        if turn is not None and not turn.sent:  # acts at act_at with a suggestion, else at give_up_at
            wake = min(
                wake, turn.act_at if turn.suggestion is not None else max(turn.act_at, turn.give_up_at)
            )
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.01, wake - now))
        except TimeoutError:
            raw = None
        now = time.monotonic()
        if raw is not None:
            ev = json.loads(raw)
            if ev["type"] == "error":
                run.error_event(ev)
                if turn is not None and turn.sent and ev.get("seq") == turn.seq:
                    # its action refused, the table where it was: a random legal one instead
                    run.counts["actions refused"] += 1
                    turn.sent, turn.suggestion, turn.give_up_at = False, None, now
            elif ev["type"] == "suggestion":
                run.counts["suggestions received"] += 1
                if turn is not None and ev.get("seq") == turn.seq and not turn.sent:
                    turn.suggestion = str(ev.get("action"))
            elif ev["type"] == "state":
                if slot.saw(ev):
                    return True
                table, view = ev["table"], ev["view"]
                seats = table["seats"]
                mine = seats[0]["seat"]
                if table["you"] is None:
                    if "sit" not in asked:
                        asked.add("sit")
                        await ws.send(message("sit", seat=mine))
                    continue
                if table["status"] == "waiting":
                    for i, s in enumerate(seats[1:], start=1):
                        if s["empty"] and s["seat"] not in asked:
                            asked.add(s["seat"])
                            await ws.send(message("bot", seat=s["seat"], kind=slot.level(i)))
                if not table["suggesting"] and "suggest" not in asked:
                    asked.add("suggest")
                    await ws.send(message("suggest", on=True))
                if table["status"] == "playing" and view.get("to_act") == mine and view.get("legal"):
                    if turn is None or turn.seq != ev["seq"]:
                        turn = Turn(
                            int(ev["seq"]),
                            list(view["legal"]),
                            now + rng.uniform(*THINK),
                            now + SUGGESTION_WAIT,
                        )
                else:
                    turn = None
        if turn is not None and not turn.sent and now >= turn.act_at:
            if turn.suggestion is not None and turn.suggestion in turn.legal:
                action = turn.suggestion
                run.counts["suggestions played"] += 1
            elif now >= turn.give_up_at:
                action = rng.choice(turn.legal)
                run.counts["random actions (no suggestion in time)"] += 1
            else:
                action = ""
            if action:
                turn.sent = True
                await ws.send(message("act", action=action, seq=turn.seq))
        if now >= next_chat:
            next_chat = now + rng.uniform(*CHAT_EVERY)
            run.counts["chat lines (players)"] += 1
            await ws.send(message("chat", text=rng.choice(("good luck", "well played", "hm", "nice one"))))


async def tournament_deal(run: Run, slot: Slot, guests: dict[str, str], rng: random.Random) -> None:
    """One deal of the next game's instant tournament, played by that game's
    guest (a new guest once it has played every deal), then its results
    read as the table's page reads them."""
    k = slot.tables
    game = slot.rotation[k % len(slot.rotation)]
    listed = await run.http.get("/api/tournaments")
    run.answered(listed, "GET /api/tournaments")
    listed.raise_for_status()
    instants = [t for t in listed.json()["tournaments"] if t["kind"] == "instant" and t["game"] == game]
    if not instants:
        raise RuntimeError(f"no instant tournament of {game} is open")
    tour = instants[(k // len(slot.rotation)) % len(instants)]  # bridge: matchpoints and IMPs in turn
    for _ in range(2):
        if game not in guests:
            guests[game] = await new_guest(run.http, f"entrant{k}")
        r = await run.http.post(
            f"/api/tournaments/{tour['id']}/play", json={}, headers={"Cookie": guests[game]}
        )
        run.answered(r, f"POST /api/tournaments/{{id}}/play ({game})")
        if r.status_code == 409 and "every deal" in r.text:  # this guest is done: another one
            run.counts["tournaments finished"] += 1
            del guests[game]
            continue
        r.raise_for_status()
        break
    else:
        raise RuntimeError(f"no deal of {game}'s instant tournament to play")
    tid = str(r.json()["table"])
    slot.new_table(tid)
    over = False
    while not over:
        try:
            async with table_socket(run, tid, guests[game]) as ws:
                async for raw in ws:
                    ev = json.loads(raw)
                    if ev["type"] == "error":
                        run.error_event(ev)
                    if ev["type"] != "state":
                        continue
                    if slot.saw(ev):
                        over = True
                        break
                    table, view = ev["table"], ev["view"]
                    if (
                        table["status"] == "playing"
                        and view.get("to_act") == table.get("you")
                        and view["legal"]
                    ):
                        await asyncio.sleep(rng.uniform(*THINK))
                        await ws.send(message("act", action=rng.choice(view["legal"]), seq=ev["seq"]))
        except DROPS as exc:
            run.dropped(exc, "tournament entrant")
            if gone(exc):
                return
        if not over:
            await asyncio.sleep(RECONNECT)
    run.counts["tournament deals played"] += 1
    got = await run.http.get(f"/api/tournaments/{tour['id']}", headers={"Cookie": guests[game]})
    run.answered(got, "GET /api/tournaments/{id}")
    got.raise_for_status()


async def spectator(run: Run, cookie: str, rng: random.Random) -> None:
    """Visits: a random live table, read a while (slowly, for some), leave."""
    while True:
        live = [s.tid for s in run.slots if s.tid is not None]
        if not live:
            await asyncio.sleep(1)
            continue
        slow = rng.random() < run.opts.slow_share
        stay = rng.uniform(*(SLOW_STAY if slow else STAY))
        try:
            async with table_socket(run, rng.choice(live), cookie, slow=slow) as ws:
                run.counts["slow spectator visits" if slow else "spectator visits"] += 1
                end = time.monotonic() + stay
                said = rng.random() >= SPECTATOR_CHAT
                while time.monotonic() < end:
                    if slow:
                        await asyncio.sleep(rng.uniform(*SLOW_READ))
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
                    except TimeoutError:
                        break
                    run.counts["spectator messages read"] += 1
                    ev = json.loads(raw)
                    if ev["type"] == "error":
                        run.error_event(ev)
                    if not said:
                        said = True
                        run.counts["chat lines (spectators)"] += 1
                        await ws.send(message("chat", text="hello from the rail"))
        except DROPS as exc:
            run.dropped(exc, "slow spectator" if slow else "spectator")
        await asyncio.sleep(rng.uniform(0.5, 2.0))


async def forever(run: Run, name: str, work: Callable[[], Awaitable[None]]) -> None:
    """Run a client until cancelled; one that fails (its table refused, the
    server gone) is counted and started again after 2 s."""
    while True:
        try:
            await work()
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except Exception as exc:  # counted; the run goes on (a table that stays stuck is a stall)
            run.client_faults[f"{name}: {type(exc).__name__}: {str(exc)[:120]}"] += 1
        await asyncio.sleep(2.0)


async def watch_server(run: Run) -> None:
    """The server's death is seen within a quarter of a second."""
    while run.server.alive():
        await asyncio.sleep(0.25)
    assert run.server.proc is not None
    rc = run.server.proc.returncode
    name = ""
    if rc is not None and rc < 0:
        with contextlib.suppress(ValueError):
            name = signal.Signals(-rc).name
    run.death = {"at_s": run.t(), "exit": rc, "signal": name}
    run.done.set()


async def sampler(run: Run) -> None:
    """A sample every ``--sample`` seconds until the end (or a failure)."""
    opts = run.opts
    last_t, last_cpu = time.monotonic(), run.server.cpu()
    last_actions = 0
    while not run.done.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(run.done.wait(), opts.sample)
        if run.done.is_set():
            return
        now = time.monotonic()
        cpu = run.server.cpu()
        actions = sum(s.actions for s in run.slots)
        sample: dict[str, Any] = {
            "t": run.t(),
            "alive": run.server.alive(),
            "rss_mb": round(run.server.rss() / 1024, 1),
            "cpu": round((cpu - last_cpu) / (now - last_t), 2),
            "actions_per_s": round((actions - last_actions) / (now - last_t), 1),
            "errors": sum(run.errors.values()),
            "closed": sum(run.closed.values()),
            "seq": {s.name: s.seq for s in run.slots},
            "still": [s.name for s in run.slots if now - s.advanced_at >= opts.sample],
        }
        run.samples.append(sample)
        last_t, last_cpu, last_actions = now, cpu, actions
        for s in run.slots:
            gap = now - s.advanced_at
            s.max_gap = max(s.max_gap, gap)
            if gap > opts.stall and not s.stalled:
                s.stalled = True
                run.stalls.append(
                    {"table": s.name, "id": s.tid, "seq": s.seq, "at_s": run.t(), "for_s": round(gap)}
                )
        if not opts.quiet:
            print(
                f"{sample['t']:7.1f} s  rss {sample['rss_mb']:6.1f} MB  cpu {sample['cpu']:4.2f}  "
                f"{sample['actions_per_s']:6.1f} actions/s  errors {sample['errors']}  "
                f"still: {', '.join(sample['still']) or '-'}",
                flush=True,
            )
        if (run.stalls and opts.fail_fast) or now - run.t0 >= opts.seconds:
            run.done.set()


def make_slots(opts: Options) -> list[Slot]:
    bots, people = SETS[opts.set]
    keep = set(opts.games)
    slots: list[Slot] = []
    for i, kind in enumerate(bots):
        if not keep or kind.game in keep:
            slots.append(Slot(f"bots {kind.label}", kind, False, i))
    for i, kind in enumerate(people):
        if not keep or kind.game in keep:
            slots.append(Slot(f"person {kind.label}", kind, True, i))
    games = tuple(g for g in TOURNAMENTS.get(opts.set, ()) if not keep or g in keep)
    if games:
        slots.append(Slot(f"tournament deals {','.join(games)}", Kind("tournament"), True, 0, rotation=games))
    return slots


async def drive(run: Run) -> None:
    """Guests, then every client, until the end of the run or a failure."""
    rng = random.Random(run.opts.seed)
    tasks: list[asyncio.Task[None]] = []
    run.rss_start_mb = round(run.server.rss() / 1024, 1)
    try:
        hosts: list[str] = []  # a host for every TABLES_PER_HOST bot tables (the room's limit)
        for n, slot in enumerate(run.slots):
            work: Callable[[], Awaitable[None]]
            if slot.rotation:
                guests: dict[str, str] = {}
                trng = random.Random(rng.getrandbits(64))
                work = functools.partial(tournament_deal, run, slot, guests, trng)
            elif slot.person:
                cookie = await new_guest(run.http, f"player{n}")
                prng = random.Random(rng.getrandbits(64))
                play: Play = functools.partial(play_person, run, slot, prng)
                work = functools.partial(tables_of, run, slot, cookie, "person", play)
            else:
                if len(hosts) * TABLES_PER_HOST <= sum(not s.person for s in run.slots[:n]):
                    hosts.append(await new_guest(run.http, f"soakhost{len(hosts) or ''}"))
                work = functools.partial(
                    tables_of, run, slot, hosts[-1], "host", functools.partial(watch_bots, run, slot)
                )
            tasks.append(asyncio.create_task(forever(run, slot.name, work)))
        for k in range(run.opts.spectators):
            cookie = await new_guest(run.http, f"watcher{k}")
            srng = random.Random(rng.getrandbits(64))
            watch = functools.partial(spectator, run, cookie, srng)
            tasks.append(asyncio.create_task(forever(run, "spectator", watch)))
        for s in run.slots:  # the clock of each table starts once every client runs
            s.advanced_at = time.monotonic()
        tasks.append(asyncio.create_task(sampler(run)))
        tasks.append(asyncio.create_task(watch_server(run)))
        await run.done.wait()
    finally:
        run.ended_s = run.t()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def rss_figures(run: Run) -> dict[str, Any]:
    """RSS at the start, at the end of the warm-up, its peak after it, the
    growth after it (peak minus warm-up) and its slope (MB a minute, least
    squares over the samples after the warm-up)."""
    alive = [s for s in run.samples if s["alive"] and s["rss_mb"] > 0]
    after = [s for s in alive if s["t"] >= run.opts.warmup_s]
    out: dict[str, Any] = {
        "start_mb": run.rss_start_mb,
        "first_mb": alive[0]["rss_mb"] if alive else None,
        "samples_after_warmup": len(after),
    }
    if not after:
        return out
    base = after[0]["rss_mb"]
    peak = max(s["rss_mb"] for s in after)
    out.update(warm_mb=base, peak_mb=peak, end_mb=after[-1]["rss_mb"], growth_mb=round(peak - base, 1))
    if len(after) >= 3:
        ts = [s["t"] for s in after]
        ys = [s["rss_mb"] for s in after]
        mt, my = sum(ts) / len(ts), sum(ys) / len(ys)
        var = sum((t - mt) ** 2 for t in ts)
        if var > 0:
            slope = sum((t - mt) * (y - my) for t, y in zip(ts, ys, strict=True)) / var
            out["slope_mb_per_min"] = round(slope * 60, 2)
    return out


def report(run: Run, stderr: str, stop_rc: int | None) -> dict[str, Any]:
    opts = run.opts
    lines, said = stderr_summary([stderr])
    rss = rss_figures(run)
    failures: list[str] = []
    if run.death is not None:
        d = run.death
        last = [ln for ln in stderr.splitlines() if ln.strip()][-1:] or ["(nothing)"]
        failures.append(
            f"the server died {d['at_s']} s into the run (exit {d['exit']}{' ' + d['signal'] if d['signal'] else ''}); "
            f"its last line: {last[0][:200]}"
        )
    for st in run.stalls:
        failures.append(
            f"table {st['table']} ({st['id']}) did not advance for {st['for_s']} s "
            f"(seq {st['seq']}, {st['at_s']} s in)"
        )
    if rss.get("growth_mb") is not None and rss["growth_mb"] > opts.rss_growth_mb:
        failures.append(
            f"the server's RSS grew {rss['growth_mb']} MB after the warm-up ({rss['warm_mb']} -> {rss['peak_mb']} MB; "
            f"bound {opts.rss_growth_mb} MB)"
        )
    if run.server_errors:
        failures.append(f"{len(run.server_errors)} server errors, first: {run.server_errors[0]}")
    if run.death is None:  # (once it is dead every client fails: that is said above)
        for s in run.slots:
            if not s.actions and not s.stalled:
                failures.append(f"table {s.name} ({s.tid}) never advanced")
        if run.client_faults:
            what, n = run.client_faults.most_common(1)[0]
            failures.append(
                f"{run.client_faults.total()} client failures (ordinary play failed), most: {n} x {what}"
            )
    elapsed = run.ended_s if run.ended_s is not None else run.t()
    cpu_total = run.server.cpu()
    return {
        "ok": not failures,
        "failures": failures,
        "code": code_version(),
        "machine": machine(),
        "options": asdict(opts),
        "elapsed_s": elapsed,
        "server": {
            "died": run.death,
            "stop_exit": stop_rc,
            "cpu_s": round(cpu_total, 1),
            "rss": rss,
            "stderr_lines": lines,
            "stderr_top": said,
            "stderr_tail": stderr.splitlines()[-15:],
        },
        "tables": [
            {
                "name": s.name,
                "person": s.person,
                "levels": [s.level(i) for i in range(6)],
                "tables": s.tables,
                "games": s.games,
                "actions": s.actions,
                "last_id": s.tid,
                "last_seq": s.seq,
                "max_gap_s": round(s.max_gap, 1),
            }
            for s in run.slots
        ],
        "actions": sum(s.actions for s in run.slots),
        "actions_per_s": round(sum(s.actions for s in run.slots) / elapsed, 1) if elapsed else None,
        "clients": dict(run.counts),
        "errors": dict(run.errors.most_common()),
        "closed_by_server": dict(run.closed.most_common()),
        "server_errors": run.server_errors[:20],
        "client_faults": dict(run.client_faults.most_common(20)),
        "stalls": run.stalls,
        "samples": run.samples,
    }


def describe(out: dict[str, Any]) -> str:
    """The report in lines a person reads (also the soak test's failure message)."""
    lines: list[str] = []
    say = lines.append
    o, srv = out["options"], out["server"]
    say(
        f"soak: {out['elapsed_s']} s of {o['minutes']} min, set {o['set']}, bot delay {o['bot_delay']} s, "
        f"{o['spectators']} spectators; code {out['code']}"
    )
    say(f"machine: {out['machine']}")
    died = srv["died"]
    say(
        "server: "
        + (f"DIED at {died['at_s']} s (exit {died['exit']} {died['signal']})" if died else "alive")
        + f", CPU {srv['cpu_s']} s"
        + ("" if died else f", stopped (SIGTERM) with exit {srv['stop_exit']}")
    )
    rss = srv["rss"]
    if rss.get("warm_mb") is not None:
        say(
            f"RSS: {rss['start_mb']} MB before any table, {rss['first_mb']} at the first sample, {rss['warm_mb']} after the warm-up, peak {rss['peak_mb']}, "
            f"end {rss['end_mb']}; growth {rss['growth_mb']} MB, slope {rss.get('slope_mb_per_min')} MB/min"
        )
    else:
        say(f"RSS: {rss['start_mb']} MB before any table; no sample after the warm-up")
    say(f"actions: {out['actions']} ({out['actions_per_s']}/s)")
    for t in out["tables"]:
        say(
            f"  {t['name']:<44} tables {t['tables']:3d}  games {t['games']:3d}  actions {t['actions']:5d}  "
            f"longest still {t['max_gap_s']:5.1f} s"
        )
    say(f"clients: {out['clients']}")
    say(f"error events: {out['errors'] or 'none'}")
    say(f"sockets dropped or refused (by kind of client, code or error): {out['closed_by_server'] or 'none'}")
    if out["client_faults"]:
        say(f"client faults (restarted): {out['client_faults']}")
    say(f"server stderr: {srv['stderr_lines']} lines")
    for n, line in srv["stderr_top"]:
        say(f"  {n:5d}  {line}")
    if died:
        say("server's last lines:" + ("" if srv["stderr_tail"] else " (none)"))
        for line in srv["stderr_tail"]:
            say(f"  | {line}")
    say("RESULT: " + ("ok" if out["ok"] else "FAILED"))
    for f in out["failures"]:
        say(f"  - {f}")
    return "\n".join(lines)


async def soak_async(opts: Options, server: Server) -> Run:
    # idle connections are let go well before uvicorn closes them (5 s): a
    # request sent down a connection the server is closing meets a ReadError
    # that says nothing of the room (seen once in a 2.5 min run)
    limits = httpx.Limits(keepalive_expiry=1.0)
    async with httpx.AsyncClient(base_url=server.url, timeout=30, limits=limits) as http:
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))  # each client its own cookie
        run = Run(opts, server, http, make_slots(opts))
        await drive(run)
        return run


def run_soak(opts: Options) -> dict[str, Any]:
    """The whole run: a server, the clients, the report (the server is
    stopped at the end, however the run ends)."""
    if opts.set not in SETS:
        raise ValueError(f"unknown set {opts.set!r} (known: {', '.join(SETS)})")
    if not make_slots(opts):
        raise ValueError(f"no table of {opts.games} in set {opts.set}")
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="soak-"))
        db = opts.db or f"sqlite:///{tmp}/room.db"
        if opts.postgres and opts.db is None:
            if str(TEST_HELPERS) not in sys.path:
                sys.path.insert(0, str(TEST_HELPERS))
            from pg import postgres_server  # tests/room/pg.py

            db = stack.enter_context(postgres_server())
        server = Server(db, free_port(), log=f"{tmp}/serve.log", bot_delay=opts.bot_delay, stdout_to_log=True)
        stack.callback(server.stop, 5.0)
        server.start()
        run = asyncio.run(soak_async(opts, server))
        stop_rc: int | None = None
        if server.alive():
            server.stop(20.0)
            assert server.proc is not None
            stop_rc = server.proc.returncode
        return report(run, server.stderr(), stop_rc)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    d = Options()
    ap.add_argument(
        "--minutes", type=float, default=d.minutes, help=f"length of the run (default {d.minutes})"
    )
    ap.add_argument("--set", choices=sorted(SETS), default=d.set, help="which tables (default full)")
    ap.add_argument("--games", default="", help="only these games, comma separated (e.g. 500,coinche)")
    ap.add_argument(
        "--bot-delay",
        type=float,
        default=d.bot_delay,
        help=f"trumps serve --bot-delay (default {d.bot_delay})",
    )
    ap.add_argument(
        "--spectators", type=int, default=d.spectators, help=f"spectator guests (default {d.spectators})"
    )
    ap.add_argument("--slow-share", type=float, default=d.slow_share, help="share of slow-reader visits")
    ap.add_argument(
        "--sample", type=float, default=d.sample, help=f"seconds between samples (default {d.sample})"
    )
    ap.add_argument(
        "--stall", type=float, default=d.stall, help=f"a table still this long fails (default {d.stall} s)"
    )
    ap.add_argument(
        "--warmup",
        type=float,
        default=None,
        help="seconds before RSS is the baseline (default a quarter, >= 30)",
    )
    ap.add_argument(
        "--rss-growth-mb", type=float, default=d.rss_growth_mb, help="RSS growth bound after the warm-up"
    )
    ap.add_argument("--fail-fast", action="store_true", help="end the run at the first stall")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    ap.add_argument(
        "--postgres", action="store_true", help="a throw-away PostgreSQL server (tests/room/pg.py)"
    )
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--json", default=None, help="write the report here (JSON)")
    ap.add_argument("--quiet", action="store_true", help="no line per sample")
    a = ap.parse_args(argv)
    if a.minutes <= 0 or a.sample <= 0 or a.stall <= 0 or a.spectators < 0 or not 0 <= a.slow_share <= 1:
        ap.error("--minutes, --sample, --stall must be > 0, --spectators >= 0, --slow-share in [0, 1]")
    if a.db is not None and a.postgres:
        ap.error("--db or --postgres, not both")
    opts = Options(
        minutes=a.minutes,
        set=a.set,
        games=tuple(g for g in a.games.split(",") if g),
        bot_delay=a.bot_delay,
        spectators=a.spectators,
        slow_share=a.slow_share,
        sample=a.sample,
        stall=a.stall,
        warmup=a.warmup,
        rss_growth_mb=a.rss_growth_mb,
        fail_fast=a.fail_fast,
        db=a.db,
        postgres=a.postgres,
        seed=a.seed,
        quiet=a.quiet,
    )
    signal.signal(signal.SIGTERM, on_sigterm)  # unwinds like Ctrl-C: the server is stopped
    out = run_soak(opts)
    print()
    print(describe(out))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
