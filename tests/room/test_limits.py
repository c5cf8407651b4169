"""The budget machinery (trumps.room.limits) and the bounded send queue
(trumps.room.web.socket_queue), on a fake clock and a fake socket."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from trumps.room.limits import (
    ADDRESS_MESSAGE_BURST,
    ADDRESS_MESSAGE_RATE,
    MESSAGE_BURST,
    MESSAGE_RATE,
    PERSON_MESSAGE_BURST,
    PERSON_MESSAGE_RATE,
    STRIKE_BURST,
    Bucket,
    Budget,
    MessageBudget,
    SocketCount,
    person_key,
)
from trumps.room.people.accounts import Busy, Hashing
from trumps.room.web.socket_queue import CLOSE_WAIT, SLOW_READER, QueuedSocket, SocketGone

sys.path.insert(0, str(Path(__file__).parent))
from waiting import until


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_its_rate() -> None:
    b = Bucket(rate=2.0, burst=3, tokens=3, at=0.0)
    assert [b.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert b.take(0.0) == pytest.approx(0.5)  # the next token in half a second
    assert b.take(0.5) == 0.0
    assert b.take(100.0) == 0.0 and b.tokens == pytest.approx(2.0)  # never more than the burst


def test_a_budget_keeps_one_bucket_per_person_and_forgets_full_ones() -> None:
    clock = Clock()
    budget = Budget(rate=1.0, burst=2, clock=clock)
    assert [budget.take("ip:a") for _ in range(3)] == [0.0, 0.0, 1.0]
    assert budget.take("ip:b") == 0.0  # another person's own
    clock.now += 10
    for i in range(200):  # many addresses once each: the full buckets are forgotten
        budget.take(f"ip:{i}")
        clock.now += 1
    assert len(budget.buckets) < 70


def test_socket_counts_per_table_and_in_all() -> None:
    count = SocketCount(per_table=2, per_person=3)
    assert count.open("p", "t1") is None and count.open("p", "t1") is None
    assert "this table" in (count.open("p", "t1") or "")
    assert count.open("p", "t2") is None
    assert "too many open connections" in (count.open("p") or "")
    assert count.open("q", "t1") is None  # another person
    count.close("p", "t1")
    assert count.open("p", "t1") is None
    for _ in range(3):
        count.close("p", "t1")
        count.close("p", "t2")
    assert "p" not in count.people and ("p", "t1") not in count.tables


def test_the_guests_of_one_address_share_a_socket_count() -> None:
    count = SocketCount(per_person=3, per_address=4)
    assert all(count.open(g, None, "ip:1") is None for g in ("g1", "g1", "g2", "g2"))
    assert "too many open connections" in (count.open("g3", None, "ip:1") or "")  # a fresh guest too
    assert count.open("g3", None, "ip:2") is None  # another address
    assert count.open("a:acct") is None  # an account is counted as itself only
    count.close("g1", None, "ip:1")
    assert count.open("g3", None, "ip:1") is None
    assert count.addresses == {"ip:1": 4, "ip:2": 1}


def test_a_message_budget_refuses_then_closes() -> None:
    clock = Clock()
    budget = MessageBudget(clock)
    verdicts = [budget.check() for _ in range(MESSAGE_BURST + STRIKE_BURST + 1)]
    assert verdicts[:MESSAGE_BURST] == ["ok"] * MESSAGE_BURST
    assert verdicts[MESSAGE_BURST:-1] == ["refuse"] * STRIKE_BURST
    assert verdicts[-1] == "close"
    clock.now += 10
    assert budget.check() == "ok"  # a client that slowed down is served again
    assert MESSAGE_RATE * 10 >= 1


def test_a_persons_sockets_and_a_guests_address_share_a_message_budget() -> None:
    """More sockets, or more guests behind one address, buy no more messages."""
    clock = Clock()
    count = SocketCount(
        person_messages=Budget(PERSON_MESSAGE_RATE, PERSON_MESSAGE_BURST, clock),
        address_messages=Budget(ADDRESS_MESSAGE_RATE, ADDRESS_MESSAGE_BURST, clock),
    )
    sockets = [MessageBudget(clock, lambda: count.spend("g1", "ip:1")) for _ in range(8)]
    verdicts = [sockets[i % 8].check() for i in range(PERSON_MESSAGE_BURST + 8)]
    assert verdicts.count("ok") == PERSON_MESSAGE_BURST  # far under 8 sockets' own budgets
    assert MESSAGE_BURST * 8 > PERSON_MESSAGE_BURST
    guests = [f"g{n}" for n in range(2, 200)]
    taken = sum(count.spend(g, "ip:1") for g in guests for _ in range(PERSON_MESSAGE_BURST // 4))
    assert taken == ADDRESS_MESSAGE_BURST - PERSON_MESSAGE_BURST  # the address's budget, g1's share spent
    assert count.spend("a:acct") and count.spend("g9", "ip:2")  # an account, another address: their own
    clock.now += 10
    assert count.spend("g1", "ip:1")  # a client that slowed down is served again


def test_person_keys() -> None:
    assert person_key("p1", True, "1.2.3.4") == "a:p1"
    assert person_key("g1", False, "1.2.3.4") == "ip:1.2.3.4"
    assert person_key(None, False, None) == "ip:?"


class StuckSocket:
    """A WebSocket whose client never reads: every write waits for ever."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None
        self.aborted = False
        self.gate = asyncio.Event()
        self.client = None
        self.scope: dict[str, Any] = {"trumps.abort": self.abort}

        class Url:
            path = "/ws/table/x"

        self.url = Url()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        await self.gate.wait()
        self.closed = code

    def abort(self) -> None:
        self.aborted = True


def test_a_queue_over_its_bound_drops_the_socket_and_never_waits() -> None:
    async def run() -> None:
        ws = StuckSocket()
        conn = QueuedSocket(ws, max_messages=5)  # type: ignore[arg-type]
        dropped: list[bool] = []
        conn.on_drop = lambda: dropped.append(True)
        for i in range(5):
            await asyncio.wait_for(conn.send({"n": i}), 0.1)  # never waits for the client
        await until(lambda: conn.backlog[0] == 4, what="the writer to take the first message")
        await conn.send({"n": 5})  # one is being written (stuck), five wait: still in bounds
        with pytest.raises(SocketGone):
            await conn.send({"n": 6})
        assert dropped == [True] and conn.gone
        with pytest.raises(SocketGone):
            await conn.send({"n": 7})
        # the close cannot be written: the connection is cut off after CLOSE_WAIT
        await until(lambda: ws.aborted, timeout=CLOSE_WAIT + 5, what="the connection to be cut off")
        assert ws.closed is None

    asyncio.run(run())


def test_a_queue_keeps_the_order_and_closes_after_what_was_sent() -> None:
    async def run() -> None:
        ws = StuckSocket()
        ws.gate.set()
        conn = QueuedSocket(ws)  # type: ignore[arg-type]
        for i in range(20):
            await conn.send({"n": i})
        await conn.close(4401)
        await conn.finish()
        assert [int(t.split(":")[1].rstrip("}")) for t in ws.sent] == list(range(20))
        assert ws.closed == 4401 and not ws.aborted
        assert SLOW_READER == 4008

    asyncio.run(run())


def test_hashing_is_bounded() -> None:
    async def run() -> None:
        hashing = Hashing(threads=1, queue=1)
        gate = threading.Event()
        first = asyncio.ensure_future(hashing.run(gate.wait, 5))
        second = asyncio.ensure_future(hashing.run(gate.wait, 5))
        await until(lambda: hashing.pending == 2, what="one hash running and one queued")
        with pytest.raises(Busy):
            await hashing.run(gate.wait, 5)
        gate.set()
        assert await first and await second
        name = await hashing.run(lambda: threading.current_thread().name)
        assert name.startswith("trumps-hash")
        hashing.close()

    asyncio.run(run())
