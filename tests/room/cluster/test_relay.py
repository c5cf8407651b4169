"""A relayed socket's stream of states, without PostgreSQL: states lost on
the way are asked for again, and the socket is never left behind the table
when they do not come (the owner sends the present alone); the owner's
repairs of a relayed stream are not counted against the person's replay
pace."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from trumps.room.cluster import relay as relay_module
from trumps.room.cluster.node import Cluster
from trumps.room.cluster.relay import Relay
from trumps.room.tables.table import Table

sys.path.insert(0, str(Path(__file__).parent))
from test_handover import Bus, Sink, three_seated

WAIT = 0.2  # REPLAY_WAIT in these tests


def state(seq: int) -> dict[str, Any]:
    return {"type": "state", "seq": seq}


def relayed(since: int | None) -> tuple[Relay, Sink, list[int]]:
    """A relay whose socket has state ``since``; the replays it asks for."""
    sink = Sink("p1")
    relay = Relay("c1", "t1", sink, since, "w2_b2")
    asked: list[int] = []
    relay.ask_replay = lambda _relay, last: asked.append(last)
    return relay, sink, asked


def seqs(sink: Sink) -> list[int]:
    return [e["seq"] for e in sink.events if e["type"] == "state"]


@pytest.fixture(autouse=True)
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(relay_module, "REPLAY_WAIT", WAIT)


def test_a_socket_is_not_left_behind_when_the_replay_it_asked_for_does_not_come() -> None:
    """State 6 is lost; 7 (the player to act in it) is held back and the
    replay from 5 asked for; the owner answers with the present alone (a
    replay it will not make: another deal, or too far back) and nothing
    comes after, since the table waits for this very player.  The socket
    gets 7 when the wait is over: before, it stayed at 5 and the table with
    it, for ever."""

    async def main() -> None:
        relay, sink, asked = relayed(5)
        await relay.deliver(state(7))
        assert asked == [5] and seqs(sink) == []
        await relay.deliver(state(7))  # the owner's answer: the present alone
        assert seqs(sink) == []  # (it may still be the replay's last state)
        await asyncio.sleep(WAIT * 1.5)
        assert seqs(sink) == [7]
        await relay.deliver(state(8))
        assert seqs(sink) == [7, 8] and asked == [5]

    asyncio.run(main())


def test_a_replay_fills_the_gap_and_the_held_state_is_not_sent_again() -> None:
    async def main() -> None:
        relay, sink, asked = relayed(5)
        await relay.deliver(state(8))  # 6 and 7 lost
        await relay.deliver(state(9))
        for seq in (6, 7, 8, 9):  # the replay, in order, up to the present
            await relay.deliver(state(seq))
        await asyncio.sleep(WAIT * 1.5)
        assert seqs(sink) == [6, 7, 8, 9] and asked == [5]

    asyncio.run(main())


def test_the_answer_to_an_open_is_taken_as_it_is() -> None:
    """Opened again from 5, the owner answers with the present (9) alone: it
    replays none (another deal, too far back, or paced).  The socket takes
    it at once: no replay is asked for and nothing waits."""

    async def main() -> None:
        relay, sink, asked = relayed(5)
        relay.answer_next()  # "opened"
        await relay.deliver(state(9))
        await relay.deliver(state(10))
        assert seqs(sink) == [9, 10] and asked == []

    asyncio.run(main())


def test_a_closed_socket_is_sent_nothing_held() -> None:
    async def main() -> None:
        relay, sink, _asked = relayed(5)
        await relay.deliver(state(7))
        relay.close()
        await asyncio.sleep(WAIT * 1.5)
        assert seqs(sink) == []

    asyncio.run(main())


class Person(Sink):
    """Another socket of the same person (a guest's address)."""

    person = "ip:10.0.0.1"


def test_a_workers_repair_of_a_relayed_stream_is_not_paced(tmp_path: Path) -> None:
    """A person had a replay a moment ago (another socket of theirs
    reconnected): their own ``hello`` now gets the present alone (one
    replay per 3 s).  A worker that lost the states it relays for them
    (a lost notification, a new owner) is not the person asking: its open
    and its replay ask get every state since, in order."""
    store, tid, last = three_seated(tmp_path)

    async def run() -> None:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=10)
        players = [Sink(table.seats[i].player) for i in range(3)] + [Sink(last)]
        await table.sit(players[3], "W")
        while table.seq < 4:  # (bids, not passes: four passes deal again, and a replay is of one deal)
            to_act = table.match.to_act_index
            assert to_act is not None
            legal = table.match.legal_actions()
            await table.act(players[to_act], str(legal[min(1, len(legal) - 1)]))
        assert table.replays.deal_start[0] == 0
        await table.catch_up(Person(None), 1)  # the person's replay
        cluster = Cluster(SimpleNamespace(tables={tid: table}), "postgresql://nobody@localhost/none")  # type: ignore[arg-type]
        bus = Bus()
        cluster.state.bus = bus  # type: ignore[assignment]

        def relayed_states() -> list[int]:
            got = [m["e"]["seq"] for _to, m in bus.sent if m.get("k") == "ev" and m["e"]["type"] == "state"]
            bus.sent.clear()
            return got

        await cluster.stand_ins.on_open(
            {"t": tid, "c": "c1", "from": "w2_b2", "p": None, "n": "Spec", "pk": Person.person,
             "since": 2, "repair": True}
        )  # fmt: skip
        await asyncio.sleep(0.1)
        assert relayed_states() == [3, 4]
        hello = json.dumps({"v": 1, "type": "hello", "since": 2})
        await cluster.stand_ins.on_msg({"c": "c1", "raw": hello, "from": "w2_b2", "repair": 2})
        await asyncio.sleep(0.1)
        assert relayed_states() == [3, 4]
        await cluster.stand_ins.on_msg({"c": "c1", "raw": hello, "from": "w2_b2"})  # the client's own
        await asyncio.sleep(0.1)
        assert relayed_states() == [4]
        await cluster.stand_ins.leave(cluster.stand_ins.guests["c1"][1], table)
        await table.close()

    try:
        asyncio.run(run())
    finally:
        store.close()
