"""What a table does at the edges of a handover, without PostgreSQL: a
closed table refuses what waited for its lock (the heir runs it now), and a
relayed socket's stand-in whose socket closes finishes the message it is
handling (a cancelled sit once left a full table that never started)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from trumps.room.cluster.node import Cluster
from trumps.room.cluster.relay import Relay, RemoteConnection
from trumps.room.storage.store import Store
from trumps.room.tables.dispatch import handle
from trumps.room.tables.table import Table, TableClosed

sys.path.insert(0, str(Path(__file__).parent))
from waiting import until


class Sink:
    def __init__(self, player: str | None, name: str = "x") -> None:
        self.player = player
        self.name = name
        self.events: list[dict[str, Any]] = []

    async def send(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    async def close(self, code: int = 1000) -> None:
        pass


class Bus:
    """Stands in for the bus between workers: what the stand-in sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict[str, Any]]] = []

    def send(self, to: str | None, message: dict[str, Any]) -> None:
        self.sent.append((to, message))

    async def flushed(self) -> None:
        pass


def three_seated(tmp_path: Path) -> tuple[Store, str, str]:
    """A 500 table with three of its four seats taken, and a fourth player."""
    store = Store(f"sqlite:///{tmp_path / 'h.db'}")
    host = store.create_player("h")
    tid = store.create_table("500", None, {}, 3, host, 4)
    for seat in range(3):
        store.set_seat(tid, seat, store.create_player(f"p{seat}"), None)
    return store, tid, store.create_player("last")


def sit(seat: str) -> str:
    return json.dumps({"v": 1, "type": "sit", "seat": seat})


def test_a_closed_table_refuses_what_waited_for_its_lock(tmp_path: Path) -> None:
    store, tid, last = three_seated(tmp_path)

    async def run() -> None:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=0)
        conn = Sink(last, "Last")
        await table.lock.acquire()  # the handover holds the lock ...
        waiting = asyncio.create_task(handle(table, conn, sit("W")))
        direct = asyncio.create_task(table.sit(Sink(last, "Last"), "W"))
        await asyncio.sleep(0.05)
        await table.close()  # ... closes the table and lets go
        table.lock.release()
        await waiting
        with pytest.raises(TableClosed):
            await direct
        assert conn.events == []  # nothing said: the page is about to be sent to the heir
        assert table.seats[3].empty and table.status == "waiting"
        await asyncio.sleep(0)

    asyncio.run(run())
    again = store.load_table(tid)
    assert again is not None
    # nothing stored here
    assert again.seats.get(3, (None, None)) == (None, None) and again.status == "waiting"


def test_a_stand_in_whose_socket_closes_finishes_the_message_it_is_handling(tmp_path: Path) -> None:
    """The fourth player's sit is being handled (the table is starting)
    when its relayed socket closes (it was told the owner and left): the
    sit and the start complete, and the stand-in leaves the table after."""
    store, tid, last = three_seated(tmp_path)
    cluster = Cluster(SimpleNamespace(), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]

    async def run() -> Table:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=10)
        gate, inside = asyncio.Event(), asyncio.Event()
        start = table.seat_and_start

        async def slow_start(changes: Any) -> None:  # the start is under way when the socket closes
            inside.set()
            await gate.wait()
            await start(changes)

        table.seat_and_start = slow_start  # type: ignore[method-assign]
        conn = RemoteConnection(Bus(), "w2", "c1", last, "Last")  # type: ignore[arg-type]
        conn.task = asyncio.create_task(cluster.stand_ins.serve(table, conn, None))
        conn.inbox.put_nowait(sit("W"))
        await asyncio.wait_for(inside.wait(), 5)
        await cluster.stand_ins.leave(conn, table)  # the relay said "gone"
        gate.set()
        await asyncio.wait_for(conn.task, 5)
        assert conn not in table.connections
        await table.close()
        return table

    table = asyncio.run(run())
    assert table.status == "playing" and table.seats[3].player == last
    again = store.load_table(tid)
    assert again is not None and again.status == "playing"


class Owner:
    """Stands in for the advisory locks: what was released."""

    def __init__(self) -> None:
        self.released: list[str] = []

    async def release(self, tid: str) -> None:
        self.released.append(tid)


class Socket(Sink):
    """A table socket that came through the routing proxy."""

    routing = True

    def __init__(self, player: str | None) -> None:
        super().__init__(player)
        self.closed: int | None = None

    async def close(self, code: int = 1000) -> None:
        self.closed = code


def test_a_handover_names_the_heir_to_routed_sockets_and_releases_once(tmp_path: Path) -> None:
    """Two releases at once (a fence and the handover) release the table
    once; the routed socket is told the heir's name, then closed with 1012;
    the others are told the table went to that heir."""
    store, tid, _last = three_seated(tmp_path)

    async def run() -> tuple[Cluster, Socket, Socket]:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=10)
        cluster = Cluster(SimpleNamespace(tables={tid: table}), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        cluster.state.bus, cluster.state.owner = Bus(), Owner()  # type: ignore[assignment]
        routed, plain = Socket("p0"), Socket("p1")
        plain.routing = False
        table.connections |= {routed, plain}
        await asyncio.gather(
            cluster.release(tid, moved=True, heir="w2_abc123"),
            cluster.release(tid, moved=True, locked=False),
        )
        return cluster, routed, plain

    cluster, routed, plain = asyncio.run(run())
    assert cluster.owner.released == [tid]  # type: ignore[attr-defined]
    sent = [m for _to, m in cluster.bus.sent]  # type: ignore[attr-defined]
    assert sent == [{"k": "released", "t": tid, "to": "w2_abc123"}]
    assert routed.events == [{"type": "route", "worker": "w2"}] and routed.closed == 1012
    assert plain.events == [] and plain.closed == 1012


def test_a_closed_table_starts_no_bot_and_arms_no_timer(tmp_path: Path) -> None:
    """An action that finished just before the handover closed the table
    calls ``_after_change`` after the close: no bot starts, no move timer
    is armed (the timers are shared by key with the table's next owner)."""
    store = Store(f"sqlite:///{tmp_path / 'b.db'}")
    host = store.create_player("h")
    tid = store.create_table("500", None, {}, 3, host, 4, {"bid_time": 30, "play_time": 30})
    for seat in range(4):
        store.set_seat(tid, seat, None, "random")
    store.set_status(tid, "playing", 0.0)

    async def run() -> tuple[int, int]:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=0.01)
        table._after_change()  # the bots play
        await until(lambda: table.seq > 0, what="the bots' first moves")
        await table.lock.acquire()
        await table.close()
        table.lock.release()
        seq = table.seq
        table._after_change()  # (what an action that just finished does)
        table.bots.schedule()  # (what a player's grace running out does)
        await asyncio.sleep(0.3)  # (time for a bot 30 times over: that none moves is the test)
        assert table.bots.task is None or table.bots.task.done()
        assert table.timers.deadline((tid, "move")) is None
        return seq, table.seq

    before, after = asyncio.run(run())
    assert before > 0 and after == before
    stored = store.load_table(tid)
    assert stored is not None and len(stored.actions) == before


@pytest.mark.parametrize(("owner", "again"), [("w2_b2", False), ("w1_a1", True)])
def test_a_routed_relay_names_the_owner_and_asks_again_when_it_is_its_own_worker(
    owner: str, again: bool
) -> None:
    """A socket relayed by w1 is told the owner once; when the table's owner
    is w1 itself (the socket beat the table there) the route says ``again``,
    which the page obeys although it is on that worker already."""

    async def main() -> None:
        sink = Sink("p1")
        relay = Relay("c1", "t1", sink, None, owner, routing=True, home="w1_a1")
        for seq in (1, 2):
            await relay.deliver({"type": "state", "seq": seq})
        routes = [e for e in sink.events if e["type"] == "route"]
        expected: dict[str, Any] = {"type": "route", "worker": owner.split("_")[0]}
        if again:
            expected["again"] = True
        assert routes == [expected]  # once, not once per state

    asyncio.run(main())


def test_tables_are_taken_together_and_a_failed_take_lets_its_table_go() -> None:
    """A takeover claims and takes several tables at the same time (at most
    TAKE_AT_ONCE); one whose take fails is released again for the next
    scan, and the others are still taken."""
    from trumps.room.cluster import takeover

    room = SimpleNamespace(tables={})
    cluster = Cluster(room, "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
    released: list[str] = []
    running = {"now": 0, "most": 0}

    class Owner:
        async def claim(self, tid: str) -> bool:
            return tid != "held"  # another worker holds that one

        async def release(self, tid: str) -> None:
            released.append(tid)

    async def take(tid: str) -> None:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        await asyncio.sleep(0.01)
        running["now"] -= 1
        if tid == "bad":
            raise RuntimeError("its stored actions do not replay")
        room.tables[tid] = object()

    cluster.state.owner = Owner()  # type: ignore[assignment]
    cluster.takeover.take = take  # type: ignore[method-assign]
    tids = [f"t{i}" for i in range(20)] + ["bad", "held"]
    asyncio.run(cluster.takeover.take_all(tids))
    assert set(room.tables) == {f"t{i}" for i in range(20)}
    assert released == ["bad"]
    assert 1 < running["most"] <= takeover.TAKE_AT_ONCE


class Heirs:
    """Stands in for the other workers at a handover: each table released
    to an heir is announced ``owned`` by it ``delay`` later (unless the heir
    is mute); ``leaves`` says "leaving" after that many takes."""

    def __init__(self, cluster: Cluster, delay: float, mute: set[str], leaves: dict[str, int]) -> None:
        self.cluster, self.delay, self.mute, self.leaves = cluster, delay, mute, leaves
        self.log: list[tuple[str, str, str | None]] = []  # ("released" | "owned", table, heir)
        self.tasks: list[asyncio.Task[None]] = []

    async def release(self, tid: str, *, moved: bool, locked: bool = True, heir: str | None = None) -> None:
        self.cluster.room.tables.pop(tid)
        self.log.append(("released", tid, heir))
        if heir is not None and heir not in self.mute:
            self.tasks.append(asyncio.create_task(self._take(tid, heir)))

    async def _take(self, tid: str, heir: str) -> None:
        await asyncio.sleep(self.delay)
        self.log.append(("owned", tid, heir))
        await self.cluster._on_owned({"k": "owned", "t": tid, "from": heir})
        taken = sum(1 for kind, _t, h in self.log if kind == "owned" and h == heir)
        if self.leaves.get(heir) == taken:
            await self.cluster._on_leaving({"k": "leaving", "from": heir})

    def most_in_flight(self) -> int:
        """The most tables released to one heir and not yet run by it."""
        flying: dict[str, set[str]] = {}
        most = 0
        for kind, tid, heir in self.log:
            if heir is None:
                continue
            if kind == "released":
                flying.setdefault(heir, set()).add(tid)
            else:
                flying[heir].discard(tid)
            most = max(most, len(flying[heir]))
        return most


def handing_over(
    heirs: list[str], *, tables: int = 13, delay: float = 0.02, mute: frozenset[str] = frozenset(),
    leaves: dict[str, int] | None = None, running: dict[str, int] | None = None,
) -> tuple[Heirs, float]:  # fmt: skip
    room = SimpleNamespace(tables={f"t{i}": SimpleNamespace(status="playing") for i in range(tables)})
    cluster = Cluster(room, "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
    for worker, n in (running or {}).items():  # tables the heirs run already
        for i in range(n):
            cluster.remote[f"{worker}-{i}"] = SimpleNamespace(worker=worker)  # type: ignore[assignment]
    cluster.state.bus = Bus()  # type: ignore[assignment]
    fake = Heirs(cluster, delay, set(mute), leaves or {})
    cluster.takeover.release = fake.release  # type: ignore[method-assign]

    async def run() -> float:
        for heir in heirs:
            cluster.state.beats[heir] = time.monotonic()
        t0 = time.monotonic()
        await cluster.hand_over()
        took = time.monotonic() - t0
        await asyncio.gather(*fake.tasks)
        return took

    return fake, asyncio.run(run())


def test_a_handover_paces_its_tables_by_what_the_heirs_have_taken() -> None:
    """A stopping worker hands its tables over HAND_PER_HEIR per heir at a
    time, the next ones once the heirs announce they run them: a table
    waits for its own take, not behind all the others' (an heir given 25
    tables at once took the last 1.9 s after the stop began)."""
    from trumps.room.cluster import handover

    for heirs in (["w2_a"], ["w2_a", "w3_b"]):
        fake, took = handing_over(heirs)
        released = [(t, h) for kind, t, h in fake.log if kind == "released"]
        assert len(released) == 13 and all(h in heirs for _t, h in released)
        assert fake.most_in_flight() == handover.HAND_PER_HEIR  # never more at once
        assert {h for _t, h in released} == set(heirs)  # spread over the heirs
        assert took < 1.0  # paced by the takes (20 ms each), not by the timeout

    # an heir restarted a moment ago (none) and one with 10: the first gets
    # tables until they are level, still 2 at a time; then both do
    fake, took = handing_over(["w2_a", "w3_b"], tables=14, running={"w3_b": 10})
    given = [h for kind, _t, h in fake.log if kind == "released"]
    assert given[:10] == ["w2_a"] * 10 and sorted(map(str, given[10:])) == ["w2_a", "w2_a", "w3_b", "w3_b"]
    assert fake.most_in_flight() == handover.HAND_PER_HEIR
    assert took < 1.0


def test_a_handover_gives_up_waiting_for_an_heir_that_does_not_answer_or_leaves() -> None:
    """An heir that never announces its tables costs HAND_WAIT per batch
    (then the stop goes on); one that starts leaving is given no more; with
    no heir left the rest go at once, to whoever takes them."""
    from trumps.room.cluster import handover

    fake, took = handing_over(["w2_a"], tables=4, mute=frozenset({"w2_a"}))
    assert [h for kind, _t, h in fake.log if kind == "released"] == ["w2_a"] * 4
    assert handover.HAND_WAIT * 1.9 < took < handover.HAND_WAIT * 3  # two batches of 2, each waited for

    fake, took = handing_over(["w2_a", "w3_b"], tables=12, leaves={"w3_b": 1})
    given = [h for kind, _t, h in fake.log if kind == "released"]
    assert given.count("w3_b") <= handover.HAND_PER_HEIR  # its first batch only
    assert given.count("w2_a") == 12 - given.count("w3_b")

    fake, took = handing_over(["w2_a"], tables=6, leaves={"w2_a": 1})
    given = [h for kind, _t, h in fake.log if kind == "released"]
    assert given[: handover.HAND_PER_HEIR] == ["w2_a"] * handover.HAND_PER_HEIR
    assert given[handover.HAND_PER_HEIR :] == [None] * (6 - handover.HAND_PER_HEIR)  # to anyone, at once
    assert took < 0.5


def test_a_leaving_worker_is_not_held_for_ever_by_a_table_whose_lock_never_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """stop() bounds the handover: a table whose lock stays held (a write
    that hangs) is left to the others' scans, and the worker still leaves
    (says bye, closes its bus and its lock connection)."""
    from trumps.room.cluster import node

    monkeypatch.setattr(node, "STOP_HANDOVER_LIMIT", 0.3)
    stopped: list[str] = []

    class Quiet(Bus):
        async def stop(self) -> None:
            stopped.append("bus")

    class Locks(Owner):
        async def stop(self) -> None:
            stopped.append("locks")

    async def run() -> float:
        stuck = SimpleNamespace(lock=asyncio.Lock(), status="playing", connections=set())
        await stuck.lock.acquire()  # held for ever
        cluster = Cluster(SimpleNamespace(tables={"t1": stuck}), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        bus = Quiet()
        cluster.state.bus, cluster.state.owner = bus, Locks()  # type: ignore[assignment]
        t0 = time.monotonic()
        await asyncio.wait_for(cluster.stop(), 5)
        assert bus.sent[-1] == (None, {"k": "bye"})
        return time.monotonic() - t0

    took = asyncio.run(run())
    assert 0.3 <= took < 1.5
    assert stopped == ["bus", "locks"]


def test_asks_for_the_matchmaker_go_to_the_next_one_and_a_cancel_stops_the_players_play() -> None:
    """Asks for the matchmaker not answered yet are sent again to the
    worker that says it runs it now (itself included); a player's cancel
    drops their Play ask, so the next matchmaker does not queue them again,
    and answers it (cancelled) at once rather than after its timeout; an ask
    sent twice to the matchmaker is answered once."""

    async def run() -> tuple[str, list[tuple[str | None, dict[str, Any]]]]:
        cluster = Cluster(SimpleNamespace(tables={}), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        bus = Bus()
        cluster.state.bus = bus  # type: ignore[assignment]
        play = {"what": "play", "player": "p1", "game": "coinche", "rules": "common"}
        asks = [
            asyncio.create_task(cluster.ask(None, play, timeout=1)),
            asyncio.create_task(cluster.ask(None, {**play, "player": "p2"}, timeout=1)),
        ]
        await asyncio.sleep(0)
        asks.append(asyncio.create_task(cluster.ask(None, {"what": "cancel", "player": "p1"}, timeout=1)))
        await asyncio.sleep(0)
        bus.sent.clear()
        await cluster._on_leader({"k": "leader", "from": "w2_b"})
        await cluster._on_leader({"k": "leader", "from": cluster.worker})
        assert await asks[0] == {"ok": False, "cancelled": True}
        for task in asks[1:]:
            with pytest.raises(TimeoutError):
                await task
        assert cluster.asks._to_leader == {}  # forgotten once given up
        return cluster.worker, bus.sent

    me, sent = asyncio.run(run())
    to = sorted((str(w), m["q"]["what"], m["q"]["player"]) for w, m in sent)
    assert to == sorted((w, *q) for w in ("w2_b", me) for q in (("play", "p2"), ("cancel", "p1")))


def test_a_worker_that_loses_its_lock_connection_gives_the_matchmaker_up() -> None:
    """The matchmaker's lock went with a broken connection: the worker no
    longer counts itself the matchmaker (another may hold the lock now) and
    its waiting Play requests go to whoever runs it next; when it claims
    the lock again it runs the matchmaker and says so."""
    calls: list[str] = []
    play = SimpleNamespace(give_up=lambda: calls.append("give_up"), take_up=lambda: calls.append("take_up"))
    cluster = Cluster(SimpleNamespace(tables={}, play=play), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
    bus = Bus()
    cluster.state.bus = bus  # type: ignore[assignment]

    class Locks:
        alive = False

        async def check(self) -> bool:
            return self.alive

        async def stop(self) -> None:
            calls.append("locks closed")

        async def start(self) -> None:
            self.alive = True

        async def claim(self, key: str) -> bool:
            return True

        async def orphans(self) -> list[str]:
            return []

    cluster.state.owner = Locks()  # type: ignore[assignment]
    cluster.matchmaker.leader = True

    def leading() -> bool:
        return cluster.leader

    asyncio.run(cluster.scan())
    assert not leading() and calls == ["give_up", "locks closed"]
    asyncio.run(cluster.scan())
    assert leading() and calls[-1] == "take_up"
    assert bus.sent[-1] == (None, {"k": "leader"})


def test_the_matchmaker_answers_an_ask_sent_to_it_twice_once() -> None:
    """An ask broadcast just as a worker took the matchmaker reaches it,
    then again when its asker hears ``leader``: one answer, one press."""
    pressed: list[str] = []

    async def press(pid: str, game: str, rules: str, *, here: bool, since: float | None) -> str:
        pressed.append(pid)
        await asyncio.sleep(0.05)
        return "t1"

    async def run() -> list[tuple[str | None, dict[str, Any]]]:
        room = SimpleNamespace(tables={}, play=SimpleNamespace(press=press))
        cluster = Cluster(room, "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        bus = Bus()
        cluster.state.bus = bus  # type: ignore[assignment]
        cluster.matchmaker.leader = True
        q = {"what": "play", "player": "p1", "game": "coinche", "rules": "common", "since": 1.0}
        for _ in range(2):
            await cluster.asks.on_ask({"k": "ask", "t": None, "id": "r1", "q": q, "from": "w2_b"})
        await asyncio.gather(*cluster.state.tasks)
        return bus.sent

    sent = asyncio.run(run())
    assert pressed == ["p1"]
    assert sent == [("w2_b", {"k": "answer", "id": "r1", "a": {"ok": True, "table": "t1"}})]


def test_players_whose_table_is_being_made_are_not_sent_to_the_next_matchmaker() -> None:
    """The matchmaker is given up while it makes a group's table: those
    players get that table (they are out of the queue); the others waiting
    are told to go to the next matchmaker."""
    from trumps.room.people.matchmaking import Ticket
    from trumps.room.people.play import MatchmakerMoved, PlayDesk
    from trumps.room.tables.timers import FakeClock

    clock = FakeClock(1000.0)
    timers = SimpleNamespace(cancel=lambda key: None, arm=lambda key, at, fn: None)
    social = SimpleNamespace(blocked=lambda a, b: False)  # nobody blocks anybody here
    room = SimpleNamespace(clock=clock, timers=timers, people=SimpleNamespace(social=social))
    desk = PlayDesk(room)  # type: ignore[arg-type]

    async def seat(group: Any) -> str:
        await asyncio.sleep(0.05)
        return "t1"

    desk._seat = seat  # type: ignore[method-assign]

    async def run() -> dict[str, Any]:
        futs: dict[str, asyncio.Future[str]] = {}
        for i, pid in enumerate(["a", "b", "c", "d", "e"]):
            game, rules = ("coinche", "common") if pid != "e" else ("500", "american")
            desk.mm.enqueue(Ticket(pid, game, rules, 1500.0, None, since=1000.0 - i))
            futs[pid] = desk.waiters[pid] = asyncio.get_running_loop().create_future()
        polling = asyncio.create_task(desk.poll())
        await asyncio.sleep(0.01)  # a-d's table is being made
        desk.give_up()
        await polling
        return {p: (f.exception() or f.result()) for p, f in futs.items()}

    got = asyncio.run(run())
    assert {p: got[p] for p in "abcd"} == dict.fromkeys("abcd", "t1")
    assert isinstance(got["e"], MatchmakerMoved)


def test_an_heir_that_finds_its_table_finished_says_so_and_the_handover_goes_on() -> None:
    """A table that finished as it was handed over needs no owner: the
    heir says ``declined`` instead of ``owned``, and the stopping worker
    hands the next tables over at once instead of after HAND_WAIT."""
    from trumps.room.cluster import handover

    released: list[str] = []

    async def read(fn: Any, tid: str) -> Any:
        return SimpleNamespace(status="finished")

    class Locks:
        async def release(self, tid: str) -> None:
            released.append(tid)

    async def heir_side() -> list[tuple[str | None, dict[str, Any]]]:
        room = SimpleNamespace(tables={}, store=SimpleNamespace(read=read, load_table=None))
        heir = Cluster(room, "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        bus = Bus()
        heir.state.bus, heir.state.owner = bus, Locks()  # type: ignore[assignment]
        await heir.takeover.take("t1")
        return bus.sent

    assert asyncio.run(heir_side()) == [(None, {"k": "declined", "t": "t1"})]
    assert released == ["t1"]

    async def leaving_side() -> float:
        room = SimpleNamespace(tables={})
        cluster = Cluster(room, "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        fut = cluster.handover.expect_owned("t1")
        t0 = time.monotonic()
        await cluster.handover.on_declined({"k": "declined", "t": "t1", "from": "w2_a"})
        await asyncio.wait([fut], timeout=handover.HAND_WAIT)
        return time.monotonic() - t0

    assert asyncio.run(leaving_side()) < 0.1


def test_the_scan_loop_ends_when_cancelled_as_it_is_woken() -> None:
    """Cancelled just as it is woken (another worker said ``bye`` or
    ``leaderless`` as this one stopped), the scan loop ends: with
    ``asyncio.wait_for`` on Python 3.11 the cancel was swallowed, the loop
    went on, and the worker's stop waited for it for ever (a teardown hang
    seen in the suite)."""
    cluster = Cluster(SimpleNamespace(tables={}), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
    cluster.state.stopping = True  # (its scans do nothing)

    async def run(turns: int) -> bool:
        task = asyncio.create_task(cluster._scan_loop())
        await asyncio.sleep(0.01)
        cluster.state.wake.set()
        for _ in range(turns):
            await asyncio.sleep(0)
        task.cancel()
        done, _ = await asyncio.wait([task], timeout=2.5)
        if not done:
            task.cancel()  # (a wait_for that swallowed the first cancel takes a second one)
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return bool(done)

    assert [asyncio.run(run(turns)) for turns in range(4)] == [True] * 4
