"""Item 11 of issue 29: the start of a table is atomic.

- The seat that fills a table and its start commit in one transaction: a
  crash between them (simulated: the start's write fails) leaves the table
  as it was before the seat, never "waiting" with every seat taken.
- A table stored "waiting" with every seat taken (by an older version)
  starts when the room resumes it.
- A double booking (one player, chips for one buy-in, seated at two Compete
  tables that start at the same moment): exactly one table starts and
  charges; the other stays waiting with that player's seat freed.
- kill -9 of a real server right after the last seat is filled: after the
  restart the table is never "waiting" with every seat taken.
(SQLite and PostgreSQL.)
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import event, select, update
from test_catch_up import Sink
from test_kill import Server, _state
from websockets.sync.client import connect

from trumps.room.compete import competition
from trumps.room.storage.db import Player, SeatRow, TableRow
from trumps.room.storage.store import Store
from trumps.room.tables.table import Table


def _stored(store: Store, tid: str) -> tuple[str, int]:
    """The stored status and the number of seats taken."""
    with store.engine.connect() as conn:
        status = conn.scalar(select(TableRow.status).where(TableRow.id == tid))
        rows = conn.execute(select(SeatRow.player_id, SeatRow.bot).where(SeatRow.table_id == tid)).all()
    return str(status), sum(1 for p, b in rows if p is not None or b is not None)


def _load(store: Store, tid: str) -> Table:
    stored = store.load_table(tid)
    assert stored is not None
    table = Table(stored, store, {}, bot_delay=0)
    table.ledger = competition  # as the room gives it (a Compete table's chips)
    return table


def _new_table(store: Store, settings: dict[str, Any] | None = None) -> str:
    """A waiting 500 table: a bot in seats 1-3, seat 0 free."""
    tid = store.create_table("500", None, {}, 5, store.create_player("Host"), 4, settings=settings or {})
    for seat in (1, 2, 3):
        store.set_seat(tid, seat, None, "rules")
    return tid


def test_a_crash_at_the_start_leaves_no_full_waiting_table(db_url: str) -> None:
    store = Store(db_url)
    try:
        ann = Sink(store.create_player("Ann"))
        tid = _new_table(store)

        def crash_at_start(conn: Any, clause: Any, *args: Any) -> None:
            # the process dies as the status is written (after whatever was committed before)
            if "UPDATE tables" in str(clause) and "status" in str(clause):
                raise RuntimeError("killed")

        async def sit() -> None:
            table = _load(store, tid)
            event.listen(store.engine, "before_execute", crash_at_start)
            try:
                with pytest.raises(RuntimeError, match="killed"):
                    await table.sit(ann, "N")
            finally:
                event.remove(store.engine, "before_execute", crash_at_start)
            await table.close()

        asyncio.run(sit())
        assert _stored(store, tid) == ("waiting", 3)  # the seat went with the failed start

        async def restart() -> Table:
            table = _load(store, tid)
            await table.resume()
            await table.close()
            return table

        again = asyncio.run(restart())
        assert again.status == "waiting" and sum(not s.empty for s in again.seats) == 3
    finally:
        store.close()


def test_a_full_waiting_table_starts_on_resume(db_url: str) -> None:
    """What an older version could leave behind: all four seats, "waiting"."""
    store = Store(db_url)
    try:
        tid = _new_table(store)
        store.set_seat(tid, 0, store.create_player("Ann"), None)
        assert _stored(store, tid) == ("waiting", 4)

        async def restart() -> Table:
            table = _load(store, tid)
            await table.resume()
            await table.close()
            return table

        table = asyncio.run(restart())
        assert table.status == "playing" and table.started is not None
        assert _stored(store, tid) == ("playing", 4)
    finally:
        store.close()


def _chips(store: Store, pid: str) -> int:
    with store.engine.connect() as conn:
        return int(conn.scalar(select(Player.chips).where(Player.id == pid)) or 0)


@pytest.mark.parametrize("rounds", [5])
def test_a_double_booking_starts_exactly_one_table(db_url: str, rounds: int) -> None:
    """Xi can pay one buy-in of 30 and sits at two Compete tables; the last
    seat of both is taken at the same moment (one store each: two workers)."""
    stores = [Store(db_url), Store(db_url)]
    try:
        for _ in range(rounds):
            xi = stores[0].create_player("Xi")
            with stores[0].engine.begin() as conn:
                conn.execute(update(Player).where(Player.id == xi).values(chips=30))
            comers = [Sink(stores[0].create_player(f"Yu{i}")) for i in range(2)]
            with stores[0].engine.begin() as conn:
                conn.execute(
                    update(Player).where(Player.id.in_([c.player for c in comers])).values(chips=1000)
                )
            tids = []
            for _i in range(2):
                tid = stores[0].create_table(
                    "500", None, {}, 5, xi, 4, settings={"kind": "compete", "buy_in": 30}
                )
                stores[0].set_seat(tid, 0, xi, None)
                stores[0].set_seat(tid, 1, None, "rules")
                stores[0].set_seat(tid, 2, None, "rules")
                tids.append(tid)

            async def race(tids: list[str], comers: list[Sink]) -> list[Table]:
                tables = [_load(store, tid) for store, tid in zip(stores, tids, strict=True)]
                got = await asyncio.gather(
                    *(t.sit(c, "W") for t, c in zip(tables, comers, strict=True)), return_exceptions=True
                )
                assert [g for g in got if isinstance(g, BaseException)] == []
                for t in tables:
                    await t.close()
                return tables

            tables = asyncio.run(race(tids, comers))
            assert sorted(t.status for t in tables) == ["playing", "waiting"]
            started, waiting = sorted(tables, key=lambda t: t.status)
            assert _stored(stores[0], started.id) == ("playing", 4)
            # the other waits, Xi's seat free (in memory and stored), Yu still seated
            assert waiting.seats[0].empty and waiting.seats[3].player is not None
            assert _stored(stores[0], waiting.id) == ("waiting", 3)
            assert _chips(stores[0], xi) == 0
            assert [_chips(stores[0], c.player or "") for c in comers].count(1000 - 30) == 1
    finally:
        for store in stores:
            store.close()


def test_unknown_player_at_a_compete_start_changes_nothing(db_url: str) -> None:
    """A refused start (a player the store does not know) leaves the seat
    and the table as they were."""
    store = Store(db_url)
    try:
        tid = store.create_table(
            "500", None, {}, 5, store.create_player("Host"), 4, settings={"kind": "compete", "buy_in": 30}
        )
        for seat in (1, 2, 3):
            store.set_seat(tid, seat, None, "rules")
        ghost = Sink("no-such-player")

        async def sit() -> Table:
            table = _load(store, tid)
            table.settings = table.settings.model_copy(update={"buy_in": 30})
            with pytest.raises(Exception):  # noqa: B017 (unknown to the store: refused by its keys)
                await table.seat_and_start([(0, type(table.seats[0])(ghost.player, "Ghost", None))])
            await table.close()
            return table

        table = asyncio.run(sit())
        assert table.seats[0].empty and table.status == "waiting"
        assert _stored(store, tid) == ("waiting", 3)
    finally:
        store.close()


# ----- a real server killed at the start ----------------------------------------------------------
TRIES = 8


@pytest.fixture
def start_server(db_url: str) -> Any:
    s = Server(db_url)
    s.start()
    yield s
    if s.proc is not None and s.proc.poll() is None:
        s.proc.terminate()
        s.proc.wait(timeout=10)


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
def test_kill_9_at_the_start_never_leaves_a_full_waiting_table(start_server: Server) -> None:
    server = start_server
    for attempt in range(TRIES):
        http = httpx.Client(base_url=server.url)
        http.post("/api/guest", json={"name": "Ann"}).raise_for_status()
        cookie = f"trumps_session={http.cookies['trumps_session']}"
        table = http.post("/api/tables", json={"game": "500"}).json()
        url = f"ws://127.0.0.1:{server.port}/ws/table/{table['id']}"
        with connect(url, additional_headers={"Cookie": cookie}) as ws:
            _state(ws)
            ws.send(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            _state(ws)
            ws.send(json.dumps({"v": 1, "type": "fill"}))  # the last three seats, and the start
            time.sleep(0.0003 * attempt)  # the kill lands at a different moment each time
            server.kill()
        server.start()
        after = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=10).json()
        assert not (after["status"] == "waiting" and after["free"] == 0), f"try {attempt}: {after}"
