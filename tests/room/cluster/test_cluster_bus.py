"""The workers' message bus over a real PostgreSQL: order, chunking of
long messages, identical messages kept apart, and a cut listening
connection that reconnects and reports the gap."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from trumps.room import wire
from trumps.room.cluster.bus import CHUNK, Bus, _chunks, worker_channel


def test_order_chunks_duplicates_and_gap(pg_url: str) -> None:
    async def main() -> None:
        got: list[dict[str, Any]] = []
        gaps: list[bool] = []

        async def handler(m: dict[str, Any]) -> None:
            got.append(m)

        async def gap() -> None:
            gaps.append(True)

        # a worker id with capitals and '-' (names are the deployer's): its
        # channel must be LISTENed to as written (quoted), or nothing arrives
        w1 = "Worker-1_ab12cd"
        bus = Bus(pg_url, w1, handler, gap)
        other = Bus(pg_url, "w2", handler, gap)
        await bus.start()
        await other.start()
        try:
            big = "x" * (3 * CHUNK + 17)
            # a long state: JSON full of quotes (escaped again inside a chunk) and
            # text that is more bytes than characters (chat in any language)
            state = {"k": "ev", "chat": [{"text": 'Sé "fair" — 你好 🂡'} for _ in range(900)]}
            for i in range(50):
                other.send(w1, {"k": "n", "i": i})
            other.send(w1, {"k": "big", "d": big})
            other.send(w1, state)
            other.send(w1, {"k": "same"})
            other.send(w1, {"k": "same"})  # identical: must not be merged into one
            other.send(None, {"k": "all"})  # a broadcast reaches both, the sender too
            assert other._done < other._queued
            assert await other.flushed(5)  # everything queued is committed
            assert other._done == other._queued
            for _ in range(200):
                if sum(m["k"] == "all" for m in got) == 2:
                    break
                await asyncio.sleep(0.05)
            to_w1 = [m for m in got if m["k"] != "all"]
            assert [m["i"] for m in to_w1 if m["k"] == "n"] == list(range(50))
            assert [m["k"] for m in to_w1[50:]] == ["big", "ev", "same", "same"]
            assert to_w1[50]["d"] == big and to_w1[50]["from"] == "w2"
            assert to_w1[51] == {**state, "from": "w2"}
            # cut w1's listening connection: it reconnects and reports the gap
            engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
            with engine.connect() as conn:
                conn.execute(
                    text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = :q"),
                    {"q": f'LISTEN "trumps_w_{w1}"'},
                )
            engine.dispose()
            for _ in range(200):
                if gaps:
                    break
                await asyncio.sleep(0.05)
            assert gaps
            got.clear()
            other.send(w1, {"k": "after"})
            for _ in range(200):
                if got:
                    break
                await asyncio.sleep(0.05)
            assert [m["k"] for m in got] == ["after"]
            # a message PostgreSQL refuses (too long: send() never makes one) is
            # dropped alone and at once; the rest of its batch arrives, in order
            got.clear()
            other._queued += 1
            other._out.put_nowait((worker_channel(w1), "x" * 9_000))
            for i in range(3):
                other.send(w1, {"k": "n", "i": i})
            start = asyncio.get_running_loop().time()
            for _ in range(200):
                if len(got) == 3:
                    break
                await asyncio.sleep(0.05)
            assert [m["i"] for m in got] == [0, 1, 2]
            assert asyncio.get_running_loop().time() - start < 2
        finally:
            await bus.stop()
            await other.stop()

    asyncio.run(main())


@pytest.mark.parametrize("text", ["x" * 20_000, '"' * 20_000, "你好🂡" * 5_000, 'a"\\\n\u0001é' * 3_000])
def test_chunks_fit_a_notification_as_sent_and_join_to_the_text(text: str) -> None:
    chunks = _chunks(text, "w1_abc.7")
    assert all(len(c.encode()) <= CHUNK for c in chunks)
    parsed = [wire.loads(c) for c in chunks]
    assert [p["i"] for p in parsed] == list(range(len(chunks))) and {p["n"] for p in parsed} == {len(chunks)}
    assert "".join(p["d"] for p in parsed) == text
    # the format of every version of the bus, so that workers of the previous
    # release read it during a rolling upgrade: text pieces in "chunk" messages
    assert all(set(p) == {"k", "id", "i", "n", "d"} and p["k"] == "chunk" for p in parsed)
