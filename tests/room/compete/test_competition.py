"""Competitions on both databases: the prize table, all-or-nothing and
idempotent charges and payouts, refunds of drawn games, the leaderboard,
and its routes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from trumps.room.compete import competition
from trumps.room.compete.competition import (
    CompetitionError,
    Entry,
    leaderboard,
    pay_out,
    prize,
    start_competition,
)
from trumps.room.storage.db import Player, ResultRow, TableRow
from trumps.room.storage.store import Store
from trumps.room.tables.table import RoomError


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url)
    yield s
    s.close()


def player(store: Store, name: str, chips: int = 1000) -> str:
    """An account (Compete games are for accounts, and pay only between people)."""
    pid = store.create_player(name)
    with store.sessions.begin() as s:
        row = s.get(Player, pid)
        assert row is not None
        row.chips, row.username_key = chips, name.lower()
    return pid


def table(store: Store, host: str, game: str = "500", options: dict[str, str] | None = None) -> str:
    return store.create_table(game, None, options or {}, 7, host, 6 if options else 4)


def balances(store: Store, *pids: str) -> list[int]:
    return [competition.chips(store, p) for p in pids]


def status(store: Store, tid: str) -> tuple[str, float | None]:
    with store.sessions() as s:
        row = s.get(TableRow, tid)
        assert row is not None
        return row.status, row.started


def results(store: Store, tid: str) -> list[tuple[str, int, str, int, int, bool, int, int, float]]:
    with store.sessions() as s:
        rows = s.scalars(select(ResultRow).where(ResultRow.table_id == tid).order_by(ResultRow.seat))
        return [(r.player_id, r.seat, r.game, r.buy_in, r.prize, r.won, r.score, r.deals, r.at) for r in rows]


def entry(pid: str, seat: int, won: bool, score: int = 500, deals: int = 10) -> Entry:
    return {"player": pid, "seat": seat, "won": won, "score": score, "deals": deals}


def test_prize_table_is_stake_times_sides() -> None:
    assert issubclass(CompetitionError, RoomError) and issubclass(CompetitionError, ValueError)
    assert competition.PRIZE_TABLE == {
        30: {2: 54, 3: 81},
        110: {2: 200, 3: 300},
        275: {2: 500, 3: 750},
        550: {2: 1000, 3: 1500},
    }
    assert competition.STAKES == {30: 27, 110: 100, 275: 250, 550: 500}
    assert [prize(b, 2) for b in (30, 110, 275, 550)] == [54, 200, 500, 1000]
    assert competition.prize_rows()[1] == {
        "buy_in": 110,
        "stake": 100,
        "fee": 10,
        "two_sides": 200,
        "three_sides": 300,
    }
    with pytest.raises(CompetitionError) as err:
        prize(0, 2)
    assert str(err.value) == "no competition has a buy-in of 0 (30, 110, 275 or 550)"
    with pytest.raises(CompetitionError) as err:
        prize(30, 4)
    assert str(err.value) == "a competition game has 2 or 3 sides, not 4"


def test_charge_is_all_or_nothing(store: Store) -> None:
    ann, bob, cy = player(store, "Ann"), player(store, "Bob", 20), player(store, "Cy", 5)
    tid = table(store, ann)
    with pytest.raises(CompetitionError) as err:
        start_competition(store, tid, [ann, bob], 30, 100.0)
    assert str(err.value) == "Bob has 20 chips; the buy-in is 30"
    with pytest.raises(CompetitionError) as err:
        start_competition(store, tid, [cy, ann, bob], 30, 100.0)
    assert str(err.value) == "Cy, Bob have fewer chips than the buy-in of 30"
    with pytest.raises(CompetitionError) as err:
        start_competition(store, tid, [ann, "nobody"], 30, 100.0)
    assert str(err.value) == "no player 'nobody'"
    with pytest.raises(CompetitionError) as err:
        start_competition(store, tid, [ann, ann], 30, 100.0)
    assert str(err.value) == "a player can be charged only once per table"
    with pytest.raises(CompetitionError) as err:
        start_competition(store, "nope", [ann], 30, 100.0)
    assert str(err.value) == "no table 'nope'"
    assert balances(store, ann, bob, cy) == [1000, 20, 5]
    assert status(store, tid) == ("waiting", None)
    assert competition.can_afford(store, bob, 30) is False
    assert competition.can_afford(store, bob, 20) is True
    assert competition.can_afford(store, "nobody", 30) is False

    # exactly the buy-in is enough; a second start (a restart) charges nobody again
    di = player(store, "Di", 30)
    start_competition(store, tid, [ann, di], 30, 100.5)
    assert balances(store, ann, bob, cy, di) == [970, 20, 5, 0]
    assert status(store, tid) == ("playing", 100.5)
    start_competition(store, tid, [ann, di], 30, 200.0)
    assert balances(store, ann, bob, cy, di) == [970, 20, 5, 0]
    assert status(store, tid) == ("playing", 100.5)


def test_start_and_pay_out_are_idempotent(store: Store) -> None:
    ann, bob, cy = player(store, "Ann"), player(store, "Bob"), player(store, "Cy", 110)
    tid = table(store, ann)
    start_competition(store, tid, [ann, bob, cy], 110, 50.0)
    start_competition(store, tid, [ann, bob, cy], 110, 60.0)
    assert balances(store, ann, bob, cy) == [890, 890, 0]
    assert status(store, tid) == ("playing", 50.0)
    # Ann and Cy (seats 0 and 2) beat Bob and a bot
    entries = [entry(ann, 0, True, 520, 12), entry(bob, 1, False, -140, 12), entry(cy, 2, True, 520, 12)]
    pay_out(store, tid, "500", 110, entries, 2, False, 99.0)
    pay_out(store, tid, "500", 110, entries, 2, False, 99.0)
    assert balances(store, ann, bob, cy) == [1090, 890, 200]
    assert status(store, tid) == ("finished", 50.0)
    assert results(store, tid) == [
        (ann, 0, "500", 110, 200, True, 520, 12, 99.0),
        (bob, 1, "500", 110, 0, False, -140, 12, 99.0),
        (cy, 2, "500", 110, 200, True, 520, 12, 99.0),
    ]
    # a finished table is never charged again
    start_competition(store, tid, [ann, bob, cy], 110, 70.0)
    assert balances(store, ann, bob, cy) == [1090, 890, 200]


def test_pay_out_is_all_or_nothing_and_skips_paid_players(store: Store) -> None:
    ann, bob = player(store, "Ann"), player(store, "Bob")
    tid = table(store, ann)
    with pytest.raises(CompetitionError) as err:
        pay_out(store, tid, "500", 30, [entry(ann, 0, True)], 2)
    assert str(err.value) == f"table {tid!r} has not started: nobody has paid the buy-in"
    start_competition(store, tid, [ann, bob], 30, 1.0)
    with pytest.raises(CompetitionError) as err:
        pay_out(store, tid, "500", 30, [entry(ann, 0, True), entry("ghost", 1, False)], 2)
    assert str(err.value) == "no player 'ghost'"
    with pytest.raises(CompetitionError) as err:
        pay_out(store, tid, "500", 30, [{"player": ann, "seat": 0, "won": 1, "score": 0, "deals": 1}], 2)  # type: ignore[typeddict-item]
    assert str(err.value).startswith("bad result entry")
    assert results(store, tid) == []
    assert balances(store, ann, bob) == [970, 970]
    assert status(store, tid) == ("playing", 1.0)
    store.set_seat(tid, 0, ann, None)  # (the table stores its seats: two people, two sides)
    store.set_seat(tid, 1, bob, None)
    # Ann's result is stored first (say the call was cut short); the second call pays only Bob
    pay_out(store, tid, "500", 30, [entry(ann, 0, True)], 2, False, 5.0)
    pay_out(store, tid, "500", 30, [entry(ann, 0, True), entry(bob, 1, True)], 2, False, 6.0)
    assert balances(store, ann, bob) == [1024, 1024]
    assert [(r[0], r[4], r[8]) for r in results(store, tid)] == [(ann, 54, 5.0), (bob, 54, 6.0)]


def test_sides_come_from_the_engine(store: Store) -> None:
    ann, bob = player(store, "Ann"), player(store, "Bob")
    three = table(store, ann, options={"players": "2v2v2"})
    two = table(store, ann, options={"players": "3v3"})
    for tid in (three, two):
        start_competition(store, tid, [ann, bob], 275, 1.0)
    pay_out(store, three, "500", 275, [entry(ann, 0, True), entry(bob, 1, False)])
    pay_out(store, two, "500", 275, [entry(ann, 0, False), entry(bob, 1, True)])
    assert balances(store, ann, bob) == [1000 - 550 + 750, 1000 - 550 + 500]


def test_drawn_game_refunds_the_buy_in(store: Store) -> None:
    ann, bob = player(store, "Ann"), player(store, "Bob", 550)
    tid = table(store, ann, "bridge")
    start_competition(store, tid, [ann, bob], 550, 1.0)
    assert balances(store, ann, bob) == [450, 0]
    with pytest.raises(CompetitionError) as err:
        pay_out(store, tid, "bridge", 550, [entry(ann, 0, True), entry(bob, 1, False)], None, True)
    assert str(err.value) == "a drawn game has no winner"
    pay_out(
        store, tid, "bridge", 550, [entry(ann, 0, False, 0, 0), entry(bob, 1, False, 0, 0)], None, True, 3.0
    )
    pay_out(
        store, tid, "bridge", 550, [entry(ann, 0, False, 0, 0), entry(bob, 1, False, 0, 0)], None, True, 3.0
    )
    assert balances(store, ann, bob) == [1000, 550]
    assert results(store, tid) == [
        (ann, 0, "bridge", 550, 550, False, 0, 0, 3.0),
        (bob, 1, "bridge", 550, 550, False, 0, 0, 3.0),
    ]
    assert leaderboard(store)[0]["average"] is None


def play(store: Store, game: str, buy_in: int, entries: list[Entry], draw: bool = False) -> None:
    tid = table(store, entries[0]["player"], game)
    start_competition(store, tid, [e["player"] for e in entries], buy_in, 1.0)
    pay_out(store, tid, game, buy_in, entries, 2, draw, 2.0)


def test_leaderboard_rows_order_and_averages(store: Store) -> None:
    ann, bob, cy, di = (player(store, n) for n in ("Ann", "Bob", "Cy", "Di"))
    player(store, "Ed")  # never played: not listed
    play(
        store, "500", 110, [entry(ann, 0, True, 510, 10), entry(bob, 1, False, 120, 10)]
    )  # Ann +90, Bob -110
    play(store, "500", 30, [entry(bob, 0, True, 500, 7), entry(ann, 1, False, -200, 7)])  # Bob +24, Ann -30
    play(store, "bridge", 30, [entry(cy, 0, True, 1300, 6), entry(di, 1, False, 450, 6)])  # Cy +24, Di -30
    # Di +0, Flo +0 (a game needs two people to count)
    play(
        store,
        "coinche",
        275,
        [entry(di, 0, False, 0, 0), entry(player(store, "Flo"), 1, False, 0, 0)],
        draw=True,
    )
    board = leaderboard(store)
    assert board == [
        {
            "rank": 1,
            "player": ann,
            "name": "Ann",
            "won": 60,
            "games": 2,
            "wins": 1,
            "average": 18.24,
            "chips": 1060,
        },
        {
            "rank": 2,
            "player": cy,
            "name": "Cy",
            "won": 24,
            "games": 1,
            "wins": 1,
            "average": 216.67,
            "chips": 1024,
        },
        {
            "rank": 3,
            "player": board[2]["player"],
            "name": "Flo",
            "won": 0,
            "games": 1,
            "wins": 0,
            "average": None,
            "chips": 1000,
        },
        {
            "rank": 4,
            "player": di,
            "name": "Di",
            "won": -30,
            "games": 2,
            "wins": 0,
            "average": 75.0,
            "chips": 970,
        },
        {
            "rank": 5,
            "player": bob,
            "name": "Bob",
            "won": -86,
            "games": 2,
            "wins": 1,
            "average": 36.47,
            "chips": 914,
        },
    ]
    assert [r["name"] for r in leaderboard(store, 2)] == ["Ann", "Cy"]
    assert [(r["name"], r["won"]) for r in leaderboard(store, game="500")] == [("Ann", 60), ("Bob", -86)]
    # equal chips won and wins: by name
    play(
        store,
        "bridge",
        30,
        [entry(player(store, "Al"), 0, True, 900, 3), entry(player(store, "Hal"), 1, False)],
    )
    assert [r["name"] for r in leaderboard(store)][1:3] == ["Al", "Cy"]


def test_routes(db_url: str) -> None:
    from trumps.room.web.app import create_app

    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert client.get("/api/me/chips").status_code == 401
        assert client.get("/api/me/chips").json() == {"error": "choose a name first"}
        r = client.post("/api/guest", json={"name": "Ann"})
        assert client.get("/api/me/chips").json() == {"chips": 0}  # guests have no chips
        r = client.post("/api/register", json={"username": "Ann", "password": "correct horse 1"})
        ann = r.json()["player"]
        assert client.get("/api/me/chips").json() == {"chips": 1000}  # granted once, to the account
        page = client.get("/leaderboard")
        assert page.status_code == 200 and 'src="/static/leaderboard.js"' in page.text
        assert client.get("/static/leaderboard.js").status_code == 200
        assert client.get("/api/leaderboard").json() == {"players": [], "prizes": competition.prize_rows()}
        assert client.get("/api/leaderboard?limit=0").status_code == 400
        assert client.get("/api/leaderboard?limit=x").json() == {
            "error": "limit: a whole number from 1 to 200"
        }

        other = Store(db_url)  # a second connection to the same database, as a restart would have
        try:
            bob = player(other, "Bob")
            play(other, "500", 30, [entry(ann, 0, True, 600, 8), entry(bob, 1, False, 200, 8)])
        finally:
            other.close()
        assert client.get("/api/me/chips").json() == {"chips": 1024}
        rows = client.get("/api/leaderboard?limit=5&game=500").json()["players"]
        assert rows == [
            {
                "rank": 1,
                "player": ann,
                "name": "Ann",
                "won": 24,
                "games": 1,
                "wins": 1,
                "average": 75.0,
                "chips": 1024,
            },
            {
                "rank": 2,
                "player": bob,
                "name": "Bob",
                "won": -30,
                "games": 1,
                "wins": 0,
                "average": 25.0,
                "chips": 970,
            },
        ]
        assert client.get("/api/leaderboard?game=bridge").json()["players"] == []
