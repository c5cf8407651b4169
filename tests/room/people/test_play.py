"""The Play button over HTTP: people pressing Play together land at one
table; a lone player gets bots after 10 seconds (a fake clock); the table
is a Play table with timers and suggestions; bad input changes nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from peers import COOKIE, create_table, new_account, new_guest, peer
from starlette.testclient import TestClient

from trumps.room.tables.timers import FakeClock
from trumps.room.web.app import create_app

T0 = 1_800_000_000.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def room(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as c:
        yield c


def press(client: TestClient, cookie: str, body: dict[str, Any], out: dict[str, Any], key: str) -> None:
    r = client.post("/api/play", json=body, headers={"Cookie": f"{COOKIE}={cookie}"})
    out[key] = (r.status_code, r.json())


def pressing(
    client: TestClient, cookie: str, body: dict[str, Any], out: dict[str, Any], key: str
) -> threading.Thread:
    """:func:`press` in a thread of its own, started (the request waits for its table)."""
    t = threading.Thread(target=press, args=(client, cookie, body, out, key))
    t.start()
    return t


def wait_queued(room: TestClient, key: str, n: int) -> None:
    for _ in range(100):
        if room.get("/api/play").json()["waiting"][key] == n:
            return
        threading.Event().wait(0.05)
    raise AssertionError(f"{key}: not {n} waiting")


def test_the_rule_sets_offered(room: TestClient) -> None:
    offered = room.get("/api/play").json()["rule_sets"]
    assert {r["key"] for r in offered["500"]} == {"american", "australian"}
    assert "common" in {r["key"] for r in offered["coinche"]}
    assert offered["bridge"]


def test_four_people_pressing_play_together_land_at_one_table(room: TestClient) -> None:
    cookies = [new_account(room, n) for n in ("Ann", "Bob")] + [new_guest(room, n) for n in ("Cyd", "Dee")]
    room.cookies.clear()
    out: dict[str, Any] = {}
    threads = [
        threading.Thread(target=press, args=(room, c, {"game": "coinche", "rules": "common"}, out, str(i)))
        for i, c in enumerate(cookies)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(out) == 4 and all(status == 200 for status, _ in out.values()), out
    tables = {body["table"] for _, body in out.values()}
    assert len(tables) == 1
    tid = tables.pop()
    table = room.get(f"/api/tables/{tid}", headers={"Cookie": f"{COOKIE}={cookies[0]}"}).json()
    assert table["settings"]["kind"] == "play" and table["settings"]["suggestions"] is True
    assert table["settings"]["bid_time"] and table["settings"]["play_time"]
    assert table["status"] == "playing"
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob", "Cyd (guest)", "Dee (guest)"]
    assert all(s["bot"] is None for s in table["seats"])
    # pressing Play again while the game is on asks first: back there, or leave it
    press(room, cookies[2], {"game": "coinche", "rules": "common"}, out, "again")
    assert out["again"] == (
        409,
        {
            "error": "you are seated at another table",
            "seated": {"table": tid, "game": "coinche", "status": "playing"},
        },
    )


def test_a_lone_player_gets_bots_after_ten_seconds(room: TestClient, clock: FakeClock) -> None:
    ann = new_account(room, "Ann")
    room.cookies.clear()
    out: dict[str, Any] = {}
    t = pressing(room, ann, {"game": "500", "rules": "australian"}, out, "ann")
    wait_queued(room, "500/australian", 1)
    assert room.get("/api/play").json()["waiting"]["500/australian"] == 1
    assert room.portal is not None
    room.portal.call(clock.advance, 9.5)
    t.join(0.5)
    assert "ann" not in out  # not before 10 s
    room.portal.call(clock.advance, 0.5)
    t.join(30)
    status, body = out["ann"]
    assert status == 200
    table = room.get(f"/api/tables/{body['table']}", headers={"Cookie": f"{COOKIE}={ann}"}).json()
    assert [s["bot"] for s in table["seats"]].count(None) == 1
    assert table["options"]["variation"] == "australian"


def test_cancel_leaves_the_queue(room: TestClient, clock: FakeClock) -> None:
    ann = new_account(room, "Ann")
    room.cookies.clear()
    out: dict[str, Any] = {}
    t = pressing(room, ann, {"game": "bridge", "rules": "rubber"}, out, "ann")
    wait_queued(room, "bridge/rubber", 1)
    r = room.delete("/api/play", headers={"Cookie": f"{COOKIE}={ann}"})
    assert r.json() == {"cancelled": True}
    t.join(30)
    assert out["ann"][0] == 409
    assert room.get("/api/play").json()["waiting"]["bridge/rubber"] == 0
    assert room.portal is not None
    room.portal.call(clock.advance, 20)
    assert room.get("/api/tables", headers={"Cookie": f"{COOKIE}={ann}"}).json() == []


def test_play_pressed_in_two_tabs_is_one_search_and_both_get_the_table(
    room: TestClient, clock: FakeClock
) -> None:
    """The same game and rules pressed again (a second tab, a double click)
    keeps one place in the queue, and both requests get the table; before,
    the first tab was told "cancelled" though the player cancelled nothing."""
    ann = new_account(room, "Ann")
    room.cookies.clear()
    out: dict[str, Any] = {}
    body = {"game": "500", "rules": "american"}
    tabs = [pressing(room, ann, body, out, "tab1")]
    wait_queued(room, "500/american", 1)
    tabs.append(pressing(room, ann, body, out, "tab2"))
    threading.Event().wait(0.3)
    assert room.get("/api/play").json()["waiting"]["500/american"] == 1
    assert room.portal is not None
    room.portal.call(clock.advance, 11)  # alone: bots after 10 s
    for t in tabs:
        t.join(30)
    assert out["tab1"][0] == 200 and out["tab1"] == out["tab2"], out


def test_play_pressed_for_another_game_ends_the_first_search(room: TestClient, clock: FakeClock) -> None:
    ann = new_account(room, "Ann")
    room.cookies.clear()
    out: dict[str, Any] = {}
    first = pressing(room, ann, {"game": "500", "rules": "american"}, out, "500")
    wait_queued(room, "500/american", 1)
    second = pressing(room, ann, {"game": "bridge", "rules": "rubber"}, out, "bridge")
    first.join(30)
    assert out["500"] == (409, {"error": "cancelled"})
    wait_queued(room, "bridge/rubber", 1)
    assert room.get("/api/play").json()["waiting"]["500/american"] == 0
    assert room.portal is not None
    room.portal.call(clock.advance, 11)
    second.join(30)
    assert out["bridge"][0] == 200


def test_bad_play_requests(room: TestClient) -> None:
    assert room.post("/api/play", json={"game": "500", "rules": "australian"}).status_code == 401
    new_guest(room, "Eve")
    r = room.post("/api/play", json={"game": "500", "rules": "klondike"})
    assert r.status_code == 400 and "klondike" in r.json()["error"]
    r = room.post("/api/play", json={"game": "chess", "rules": "x"})
    assert r.status_code == 400
    r = room.post("/api/play", json={"game": "500"})
    assert r.status_code == 400
    assert all(v == 0 for v in room.get("/api/play").json()["waiting"].values())


def test_play_while_seated_elsewhere_asks_and_leaving_frees_the_seat_or_marks_it_away(
    room: TestClient, clock: FakeClock
) -> None:
    ann = new_guest(room, "Ann")
    waiting = create_table(room, ann, "coinche")["id"]
    with peer(room, waiting, ann, "Ann") as a:
        a.state()
        a.send(type="sit", seat="S")
        a.state(lambda ev: ev["table"]["you"] == "S")
    room.cookies.clear()
    out: dict[str, Any] = {}
    body = {"game": "500", "rules": "australian"}
    press(room, ann, body, out, "asked")
    assert out["asked"] == (
        409,
        {
            "error": "you are seated at another table",
            "seated": {"table": waiting, "game": "coinche", "status": "waiting"},
        },
    )
    assert room.get("/api/play").json()["waiting"]["500/australian"] == 0  # not queued
    # leave it: the waiting table's seat is free, and Play looks for 500
    t = pressing(room, ann, {**body, "leave": True}, out, "left")
    wait_queued(room, "500/australian", 1)
    seats = room.get(f"/api/tables/{waiting}", headers={"Cookie": f"{COOKIE}={ann}"}).json()["seats"]
    assert all(s["empty"] for s in seats)
    assert room.portal is not None
    room.portal.call(clock.advance, 10)
    t.join(30)
    status, found = out["left"]
    assert status == 200
    playing = found["table"]
    # at a game under way, leaving marks the seat away: a bot plays it; she may come back
    press(room, ann, {"game": "bridge", "rules": "rubber"}, out, "bridge")
    assert out["bridge"][0] == 409 and out["bridge"][1]["seated"]["table"] == playing
    t = pressing(room, ann, {"game": "coinche", "rules": "common", "leave": True}, out, "coinche")
    wait_queued(room, "coinche/common", 1)
    seat = next(
        s
        for s in room.get(f"/api/tables/{playing}", headers={"Cookie": f"{COOKIE}={ann}"}).json()["seats"]
        if s["name"] == "Ann (guest)"
    )
    assert seat["away"] and seat["idle"]
    room.portal.call(clock.advance, 10)
    t.join(30)
    assert out["coinche"][0] == 200 and out["coinche"][1]["table"] not in (playing, waiting)
