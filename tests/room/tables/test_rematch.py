"""Play again (trumps.room.tables.rematch) and abandoned waiting tables (issue 30):
the players of a finished table reach one new table, each in their own
seat, with the same rules, settings and bots; a waiting table with no
person connected for five minutes closes, unlisted, unresumed, presence
cleared, no chip moved."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from peers import Peer, advance, as_guest, create_table, new_account, new_guest, peer
from starlette.testclient import TestClient

from trumps.room.storage.store import Store
from trumps.room.tables.table import ABANDON_AFTER
from trumps.room.tables.timers import FakeClock
from trumps.room.web.app import create_app

T0 = 1_800_000_000.0
ONE_DEAL = {"target_score": 1}  # coinche: the game is over after one deal


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def room(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as c:
        yield c


def closed(client: TestClient, tid: str) -> bool:
    """Whether ``tid`` is gone (waiting a moment: the close runs on the
    database thread after the timer fires)."""
    deadline = time.monotonic() + 10
    while client.get(f"/api/tables/{tid}").status_code != 404:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def again(client: TestClient, cookie: str | None, tid: str, status: int = 201) -> dict[str, Any]:
    r = as_guest(client, cookie).post(f"/api/tables/{tid}/again", json={})
    assert r.status_code == status, r.text
    return dict(r.json())


def summary(client: TestClient, tid: str, status: int = 200) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}")
    assert r.status_code == status, r.text
    return dict(r.json())


def play_to_the_end(peers: list[Peer]) -> dict[str, Any]:
    """Each peer plays its first legal action on its turn until the game is over."""
    last: dict[str, Any] = {}
    for _ in range(2000):
        for p in peers:
            for ev in p.quiet(0.02):
                if ev["type"] != "state":
                    continue
                last = ev
                t, v = ev["table"], ev["view"]
                if v["over"]:
                    return ev
                if t["status"] == "playing" and t["you"] and v["to_act"] == t["you"]:
                    p.send(type="act", action=v["legal"][0], seq=ev["seq"])
    raise AssertionError(f"the game did not end: {json.dumps(last)[:300]}")


def finished_with_two(room: TestClient, ann: str, bob: str, **settings: Any) -> str:
    """Ann (S, host) and Bob (N) finish a one-deal coinche game with two
    normal bots; returns the table id."""
    t = create_table(room, ann, "coinche", options=ONE_DEAL, settings=settings)
    with peer(room, t["id"], ann, "Ann") as a:
        a.state()
        a.send(type="sit", seat="S")
        a.state(lambda ev: ev["table"]["you"] == "S")
        with peer(room, t["id"], bob, "Bob") as b:
            b.state()
            b.send(type="sit", seat="N")
            b.state(lambda ev: ev["table"]["you"] == "N")
            a.send(type="bot", seat="E", kind="random")
            a.send(type="bot", seat="W", kind="random")
            end = play_to_the_end([a, b])
    assert end["table"]["status"] == "finished"
    return str(t["id"])


def test_play_again_seats_each_player_in_their_seat_at_one_new_table(room: TestClient) -> None:
    ann, bob = new_guest(room, "Ann"), new_guest(room, "Bob")
    old = finished_with_two(room, ann, bob, play_time=30)

    first = again(room, ann, old)
    new = first["table"]
    assert new != old and first["seat"] == "S"
    s = summary(room, new)
    assert s["game"] == "coinche" and s["options"]["target_score"] == 1
    assert s["settings"]["play_time"] == 30 and s["status"] == "waiting"
    seats = {x["seat"]: x for x in s["seats"]}
    assert seats["S"]["name"] == "Ann (guest)" and seats["N"]["empty"]  # Bob's seat waits for him
    assert seats["E"]["bot"] == "random" and seats["W"]["bot"] == "random"
    # the finished table names the new one: the others are offered it
    with peer(room, old, bob, "Bob") as b:
        assert b.state()["table"]["rematch"] == new
    # Bob presses it: his own seat, and the table starts
    second = again(room, bob, old)
    assert second == {"table": new, "seat": "N", "wanted": "N"}
    assert summary(room, new)["status"] == "playing"
    # pressed again (a second tab): the same table, the same seat, nothing new made
    assert again(room, ann, old) == {"table": new, "seat": "S", "wanted": "S"}
    mine = as_guest(room, ann).get("/api/tables").json()
    assert [t["id"] for t in mine].count(new) == 1 and old not in [t["id"] for t in mine]


def test_a_taken_seat_gives_the_first_free_one_or_none(room: TestClient) -> None:
    ann, bob, carl = new_guest(room, "Ann"), new_guest(room, "Bob"), new_guest(room, "Carl")
    old = finished_with_two(room, ann, bob)
    new = again(room, ann, old)["table"]
    # Carl takes Bob's seat at the new table first (a public table)
    with peer(room, new, carl, "Carl") as c:
        c.state()
        c.send(type="sit", seat="N")
        c.state(lambda ev: ev["table"]["you"] == "N")
    # every seat is taken now (Ann, Carl, two bots): Bob watches; the game runs
    assert again(room, bob, old) == {"table": new, "seat": None, "wanted": "N"}
    s = summary(room, new)
    assert s["status"] == "playing" and "Bob (guest)" not in [x["name"] for x in s["seats"]]


def test_play_again_is_refused_to_others_and_before_the_end(room: TestClient) -> None:
    ann, bob, carl = new_guest(room, "Ann"), new_guest(room, "Bob"), new_guest(room, "Carl")
    running = create_table(room, ann, "coinche", options=ONE_DEAL)["id"]
    assert again(room, ann, running, 400) == {"error": "the game is not over yet"}
    assert again(room, ann, "nosuchtb", 400) == {"error": "no table 'nosuchtb'"}
    old = finished_with_two(room, ann, bob)
    assert again(room, carl, old, 400) == {"error": "only the players of this game can play it again"}
    room.cookies.clear()
    assert again(room, None, old, 401) == {"error": "choose a name first"}
    # cross-site: refused before anything is made
    r = as_guest(room, ann).post(
        f"/api/tables/{old}/again", json={}, headers={"Origin": "https://evil.example"}
    )
    assert r.status_code == 403
    with peer(room, old, ann, "Ann") as a:
        assert a.state()["table"]["rematch"] is None  # nothing was made by the refusals


def test_an_invitation_only_table_goes_on_invitation_only_with_its_players_let_in(room: TestClient) -> None:
    ann, bob, carl = new_guest(room, "Ann"), new_guest(room, "Bob"), new_guest(room, "Carl")
    t = create_table(room, ann, "coinche", options=ONE_DEAL, settings={"private": True})
    code = _invite_code(room, ann, t["id"])
    assert as_guest(room, bob).post("/api/join", json={"code": code}).status_code == 200
    with peer(room, t["id"], ann, "Ann") as a, peer(room, t["id"], bob, "Bob") as b:
        a.state()
        b.state()
        a.send(type="sit", seat="S")
        b.send(type="sit", seat="N")
        b.state(lambda ev: ev["table"]["you"] == "N")
        a.send(type="fill", kind="random")
        play_to_the_end([a, b])
    new = again(room, ann, t["id"])["table"]
    assert summary(room, new)["settings"]["private"] is True
    as_guest(room, carl)
    assert room.get(f"/api/tables/{new}").status_code == 403  # Carl was never let in
    assert again(room, bob, t["id"])["seat"] == "N"  # Bob was


def _invite_code(room: TestClient, host: str, tid: str) -> str:
    with peer(room, tid, host, "host") as h:
        ev = h.state()
    return str(ev["table"]["invite"])


def test_a_compete_table_goes_on_with_its_buy_in(room: TestClient) -> None:
    ann, bob = new_account(room, "Ann"), new_account(room, "Bob")
    old = finished_with_two(room, ann, bob, buy_in=30)
    new = again(room, ann, old)["table"]
    assert summary(room, new)["settings"]["buy_in"] == 30
    assert again(room, bob, old)["seat"] == "N"
    assert summary(room, new)["status"] == "playing"  # both charged again at its start


# ----- abandoned tables ------------------------------------------------------------------


def test_a_waiting_table_nobody_is_at_closes_after_five_minutes(room: TestClient, clock: FakeClock) -> None:
    ann = new_guest(room, "Ann")
    tid = create_table(room, ann, "bridge")["id"]
    with peer(room, tid, ann, "Ann") as a:
        a.state()
        a.send(type="sit", seat="S")
        a.state(lambda ev: ev["table"]["you"] == "S")
        advance(room, clock, ABANDON_AFTER + 60)  # someone is there: it stays
        assert summary(room, tid)["status"] == "waiting"
    advance(room, clock, ABANDON_AFTER - 10)
    assert tid in {t["id"] for t in as_guest(room, ann).get("/api/tables").json()}
    advance(room, clock, 20)
    assert closed(room, tid)
    assert tid not in {t["id"] for t in as_guest(room, ann).get("/api/tables").json()}
    assert room.get(f"/api/tables/{tid}").status_code == 404
    page = room.get(f"/table/{tid}")
    assert page.status_code == 410 and "closed before its game began" in page.text
    replay = room.get(f"/api/tables/{tid}/replay")
    assert "closed before its game began" in replay.json()["error"]
    assert tid not in {g["table"] for g in room.get("/api/me/games").json()["games"]}


def test_an_abandoned_table_stays_closed_after_a_restart_and_a_compete_one_costs_nothing(db_url: str) -> None:
    clock = FakeClock(T0)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room:
        ann = new_account(room, "Ann")
        chips = as_guest(room, ann).get("/api/me/chips").json()["chips"]
        tid = create_table(room, ann, "coinche", settings={"buy_in": 110})["id"]
        with peer(room, tid, ann, "Ann") as a:
            a.state()
            a.send(type="sit", seat="S")
            a.state(lambda ev: ev["table"]["you"] == "S")
        advance(room, clock, ABANDON_AFTER + 1)
        assert closed(room, tid)
        assert as_guest(room, ann).get("/api/me/chips").json()["chips"] == chips
    assert Store(db_url).load_table(tid).status == "closed"  # type: ignore[union-attr]
    with TestClient(create_app(db_url, bot_delay=0, clock=FakeClock(T0 + 1000))) as room:
        assert room.get(f"/api/tables/{tid}").status_code == 404
        assert tid not in {t["id"] for t in room.get("/api/tables").json()}


def test_a_table_left_waiting_before_a_restart_is_closed_after_it(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, clock=FakeClock(T0))) as room:
        ann = new_guest(room, "Ann")
        tid = create_table(room, ann, "500")["id"]
    clock = FakeClock(T0 + 10)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room:
        assert summary(room, tid)["status"] == "waiting"
        advance(room, clock, ABANDON_AFTER + 1)
        assert closed(room, tid)


def test_a_friend_at_a_table_is_no_longer_shown_there_once_it_closes(
    room: TestClient, clock: FakeClock
) -> None:
    ann, bob = new_account(room, "Ann"), new_account(room, "Bob")
    assert (
        as_guest(room, ann).post("/api/friends", json={"player": "Bob", "action": "request"}).status_code
        == 200
    )
    assert (
        as_guest(room, bob).post("/api/friends", json={"player": "Ann", "action": "accept"}).status_code
        == 200
    )
    tid = create_table(room, ann, "coinche")["id"]
    as_guest(room, bob)
    with room.websocket_connect("/ws/me") as me:
        me_peer = Peer("Bob's channel", me)

        def ann_at(ev: dict[str, Any]) -> Any:
            return next(f["table"] for f in ev["friends"] if f["name"] == "Ann")

        me_peer.until(lambda ev: ev["type"] == "me")
        with peer(room, tid, ann, "Ann") as a:
            a.state()
            a.send(type="sit", seat="S")
            ev = me_peer.until(lambda ev: ev["type"] == "me" and ann_at(ev) is not None)
            assert ann_at(ev)["game"] == "coinche"
        advance(room, clock, ABANDON_AFTER + 1)
        me_peer.until(lambda ev: ev["type"] == "me" and ann_at(ev) is None)
