"""Missed events after a reconnect: replayed from the copy kept at the start
of the current deal, identical to a replay from the start of the game; a
client further behind (an earlier deal) gets the current state only."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

import trumps
from trumps.room.storage.store import Store
from trumps.room.tables.table import Table


class Sink:
    def __init__(self, player: str | None) -> None:
        self.player = player
        self.name = "x"
        self.events: list[dict[str, Any]] = []

    async def send(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    async def close(self, code: int = 1000) -> None:
        pass


async def _replayed(table: Table, since: int) -> list[dict[str, Any]]:
    sink = Sink(None)
    await table.catch_up(sink, since, paced=False)
    return sink.events


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_catch_up_matches_a_full_replay(game: str, tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    host = store.create_player("h")
    players = 4
    tid = store.create_table(game, None, {}, 11, host, players)
    for seat in range(players):
        store.set_seat(tid, seat, None, "random")
    store.set_status(tid, "playing", 0.0)
    rng = random.Random(5)

    async def run() -> None:
        stored = store.load_table(tid)
        assert stored is not None
        table = Table(stored, store, {}, bot_delay=0)
        table._after_change()  # the bots play the whole game (and each deal start is kept)
        for _ in range(2000):
            if table.status == "finished" or table.seq >= 150:
                break
            await asyncio.sleep(0.005)
        await table.close()
        assert table.match.deal_number >= 2 or table.status == "finished"
        full = trumps.new_game(game, options=table.options, seed=11)
        total = table.seq
        deal_start = table.replays.deal_start[0]
        assert deal_start < total
        for since in sorted({0, 1, deal_start, total - 3, *rng.sample(range(total), 12)}):
            sink = Sink(None)
            await table.catch_up(sink, since)
            want = []
            replay = full.clone()
            for seat, action, at in table.match.log:
                replay.apply(action, seat, time=at)
                if len(replay.log) > max(since, total - 1 if since < deal_start else 0):
                    want.append(replay.view(None))
            first = since + 1 if since >= deal_start else total
            assert [e["seq"] for e in sink.events] == list(range(first, total + 1)), since
            assert [e["view"] for e in sink.events] == want, since
            # the chat only in the last state
            assert ["chat" in e for e in sink.events] == [False] * (len(want) - 1) + [True]
        # the same table loaded again (a worker taking it over mid-deal): it
        # replays from the deal's start, not from the moment it was loaded (a
        # socket that lost states in the handover got the present alone)
        stored = store.load_table(tid)
        assert stored is not None
        heir = Table(stored, store, {}, bot_delay=0)
        assert heir.seq == total
        assert heir.replays.deal_start[0] == deal_start
        since = max(deal_start, total - 3)
        sink = Sink(None)
        await heir.catch_up(sink, since, paced=False)
        assert [e["seq"] for e in sink.events] == list(range(since + 1, total + 1))
        assert [e["view"] for e in sink.events] == [e["view"] for e in (await _replayed(table, since))]
        await heir.close()

    try:
        asyncio.run(run())
    finally:
        store.close()
