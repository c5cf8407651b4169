"""People across workers (trumps.room.cluster): two room workers in this
process (each app on its own event loop) on one PostgreSQL database.  The
lobby lists a table whichever worker runs it, to exactly the people the
access rules allow; an invitation code, an invitation, presence and a
logout reach across workers; a socket relayed to another worker's table is
refused exactly as a local one."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent))
from peers import Peer, as_guest, new_account, new_guest

from trumps.room.web.app import create_app


@pytest.fixture
def pair(pg_db: str) -> Iterator[tuple[TestClient, TestClient]]:
    db = pg_db
    with (
        TestClient(create_app(db, bot_delay=0, worker="a")) as a,
        TestClient(create_app(db, bot_delay=0, worker="b")) as b,
    ):
        yield a, b


def eventually(check: Callable[[], Any], timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def lobby(client: TestClient, cookie: str) -> set[str]:
    return {t["id"] for t in as_guest(client, cookie).get("/api/tables").json()}


def befriend(client: TestClient, a: str, b: str, b_name: str, a_name: str) -> None:
    assert (
        as_guest(client, a).post("/api/friends", json={"player": b_name, "action": "request"}).status_code
        == 200
    )
    assert (
        as_guest(client, b).post("/api/friends", json={"player": a_name, "action": "accept"}).status_code
        == 200
    )


def pressers(clients: list[TestClient], cookies: list[str], out: dict[str, Any]) -> list[threading.Thread]:
    """A thread per player pressing Play for coinche (common rules) on
    their worker; each answer lands in ``out`` under the player's index."""

    def press(client: TestClient, cookie: str, key: str) -> None:
        r = client.post("/api/play", json={"game": "coinche", "rules": "common"},
                        headers={"Cookie": f"trumps_session={cookie}"})  # fmt: skip
        out[key] = (r.status_code, r.json())

    for client in clients:
        client.cookies.clear()
    return [threading.Thread(target=press, args=(clients[i], c, str(i))) for i, c in enumerate(cookies)]


def room_of(client: TestClient) -> Any:
    return client.app.state.current_room()  # type: ignore[attr-defined]


def leader_first(a: TestClient, b: TestClient) -> tuple[TestClient, TestClient]:
    """(the worker that runs the matchmaker, the other), once one does."""
    eventually(lambda: room_of(a).cluster.leader or room_of(b).cluster.leader)
    return (a, b) if room_of(a).cluster.leader else (b, a)


def hand_over(client: TestClient) -> None:
    """What `trumps serve` does at SIGTERM, before the sockets close."""
    run: Callable[[], Awaitable[bool]] = client.app.state.hand_over  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(run)


def test_lobby_and_access_across_workers(pair: tuple[TestClient, TestClient]) -> None:
    a, b = pair
    ann, bob, cyd, dan = (new_account(a, n) for n in ("Ann", "Bob", "Cyd", "Dan"))
    befriend(b, ann, bob, "Bob", "Ann")  # the friendship is made on worker b
    r = as_guest(a, ann).post("/api/tables", json={"game": "500"})  # run by worker a
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    # a friend of its player finds it in worker b's lobby; a stranger does not
    eventually(lambda: tid in lobby(b, bob))
    assert tid not in lobby(b, cyd)
    assert as_guest(b, bob).get(f"/api/tables/{tid}").json()["id"] == tid
    # an invitation-only table: its code works through the other worker
    r = as_guest(a, ann).post("/api/tables", json={"game": "500", "settings": {"private": True}})
    private = r.json()["id"]
    with a.websocket_connect(f"/ws/table/{private}") as ws:  # the host's state carries the code
        invite = Peer("ann", ws).until(lambda e: e["type"] == "state")["table"]["invite"]
    assert invite
    eventually(lambda: private in room_of(b).cluster.remote)  # worker b knows the table
    assert private not in lobby(b, cyd)
    assert as_guest(b, dan).get(f"/table/{private}").status_code == 403
    assert as_guest(b, dan).get(f"/api/tables/{private}").status_code == 403
    r = as_guest(b, cyd).post("/api/join", json={"code": invite})
    assert r.status_code == 200, r.text
    assert r.json()["table"] == private
    eventually(lambda: private in lobby(b, cyd))
    eventually(lambda: private in lobby(a, cyd))
    assert as_guest(b, cyd).get(f"/table/{private}").status_code == 200
    # a stranger's socket through worker b is refused as worker a would refuse it
    as_guest(b, dan)
    with b.websocket_connect(f"/ws/table/{private}") as ws:
        peer = Peer("dan", ws)
        ev = peer.get()
        assert ev is not None and ev["type"] == "error" and "private" in ev["reason"]
        assert peer.get() is None  # closed
    # Cyd's socket through worker b gets Cyd's own view (a spectator's: no hand)
    as_guest(b, cyd)
    with b.websocket_connect(f"/ws/table/{private}") as ws:
        st = Peer("cyd", ws).until(lambda e: e["type"] == "state")
        assert st["table"]["id"] == private and st["table"]["you"] is None
        assert "invite" not in st["table"]  # only the host sees the code
        assert "presentation" in st  # a fresh page learns how to draw the game


def test_presence_invitations_and_logout_across_workers(pair: tuple[TestClient, TestClient]) -> None:
    a, b = pair
    ann, bob = new_account(a, "Ann"), new_account(b, "Bob")
    befriend(a, ann, bob, "Bob", "Ann")
    as_guest(a, ann)
    with a.websocket_connect("/ws/me") as me_a:
        ann_me = Peer("ann-me", me_a)
        first = ann_me.until(lambda e: e["type"] == "me")
        assert [f["online"] for f in first["friends"]] == [False]
        as_guest(b, bob)
        with b.websocket_connect("/ws/me") as me_b:
            bob_me = Peer("bob-me", me_b)
            bob_me.until(lambda e: e["type"] == "me")
            # Bob came online on worker b: Ann on worker a is told
            ann_me.until(lambda e: e["type"] == "me" and e["friends"][0]["online"])
            # Ann invites Bob to a table worker a runs: Bob's channel on worker b hears it
            r = as_guest(a, ann).post("/api/tables", json={"game": "500", "invite": ["Bob"]})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            inv = bob_me.until(lambda e: e["type"] == "invitation")
            assert inv["invitation"]["table"] == tid
            # Bob's table socket on worker b, relayed to a
            as_guest(b, bob)
            with b.websocket_connect(f"/ws/table/{tid}") as tws:
                table_peer = Peer("bob-table", tws)
                table_peer.until(lambda e: e["type"] == "state")
                # Bob logs out everywhere through worker a: his sockets on worker b close
                r = as_guest(a, bob).post("/api/logout-all")
                assert r.status_code == 200, r.text
                table_peer.until(lambda e: e["type"] == "error" and "logged out" in e["reason"])
                assert table_peer.get() is None
                bob_me.until(lambda e: e["type"] == "error" and "logged out" in e["reason"])
        # Bob's channel is gone: Ann sees him offline
        ann_me.until(lambda e: e["type"] == "me" and not e["friends"][0]["online"])


def test_play_matches_people_on_different_workers(pair: tuple[TestClient, TestClient]) -> None:
    """One matchmaker for the room: four people pressing Play on two
    workers land at one table; the waiting counts are the room's."""
    a, b = pair
    cookies = [new_account(a, "Ann"), new_account(b, "Bob"), new_account(a, "Cyd"), new_account(b, "Dee")]
    out: dict[str, Any] = {}
    threads = pressers([a, b, a, b], cookies, out)
    for t in threads[:2]:
        t.start()
    # two wait for coinche: both workers say so
    eventually(lambda: a.get("/api/play").json()["waiting"]["coinche/common"] == 2)
    assert b.get("/api/play").json()["waiting"]["coinche/common"] == 2
    for t in threads[2:]:
        t.start()
    for t in threads:
        t.join(40)
    assert len(out) == 4 and all(status == 200 for status, _ in out.values()), out
    tables = {body["table"] for _, body in out.values()}
    assert len(tables) == 1
    tid = tables.pop()
    table = eventually(lambda: as_guest(b, cookies[1]).get(f"/api/tables/{tid}").json())
    assert sorted(s["name"] for s in table["seats"]) == ["Ann", "Bob", "Cyd", "Dee"]
    assert table["status"] == "playing"


def test_a_stale_owner_is_fenced_by_the_action_log(pair: tuple[TestClient, TestClient], pg_db: str) -> None:
    """If another worker wrote a table's next action (this worker lost the
    table without knowing), this worker's own write is refused by the log's
    key: nothing is shown or applied twice, the table leaves this worker and
    its sockets are sent to find the new owner."""
    a, _b = pair
    ann = new_account(a, "Ann")
    r = as_guest(a, ann).post("/api/tables", json={"game": "500"})
    tid = r.json()["id"]
    with a.websocket_connect(f"/ws/table/{tid}") as ws:
        peer = Peer("ann", ws)
        peer.until(lambda e: e["type"] == "state")
        peer.send(type="sit", seat="N")
        peer.send(type="fill")
        # legal, not to_act: a waiting table's state already names N to act
        # (the first deal is dealt) but shows no seat its hand or moves
        st = peer.until(lambda e: e["type"] == "state" and e["view"]["to_act"] == "N" and e["view"]["legal"])
        seq = st["seq"]
        engine = create_engine(pg_db)
        with engine.begin() as conn:  # "another worker" stores action seq+1
            conn.execute(
                text("INSERT INTO actions (table_id, seq, seat, action, at, auto, timeout) "
                     "VALUES (:t, :s, 0, 'P', 0, false, false)"),
                {"t": tid, "s": seq + 1},
            )  # fmt: skip
        engine.dispose()
        peer.send(type="act", action=st["view"]["legal"][0], seq=seq)
        err = peer.until(lambda e: e["type"] == "error")
        assert "moved" in err["reason"]
        assert peer.get() is None  # closed (1012: reconnect)


def test_a_guest_who_registers_on_another_worker_is_renamed_at_the_table(
    pair: tuple[TestClient, TestClient],
) -> None:
    a, b = pair
    gus = new_guest(a, "Gus")
    tid = as_guest(a, gus).post("/api/tables", json={"game": "500"}).json()["id"]
    with a.websocket_connect(f"/ws/table/{tid}") as ws:
        peer = Peer("gus", ws)
        peer.until(lambda e: e["type"] == "state")
        peer.send(type="sit", seat="N")
        st = peer.until(lambda e: e["type"] == "state" and e["table"]["seats"][0]["name"])
        assert st["table"]["seats"][0]["name"] == "Gus (guest)"
        r = as_guest(b, gus).post("/api/register", json={"username": "Gus", "password": "correct horse 1"})
        assert r.status_code in (200, 201), r.text
        # the guest session ended with the registration (its socket is told) ...
        peer.until(lambda e: e["type"] == "error" and "logged out" in e["reason"])
    # ... and the table worker a runs shows the account's name
    account = r.cookies.get("trumps_session")
    assert account is not None
    with as_guest(a, account).websocket_connect(f"/ws/table/{tid}") as ws:
        st = Peer("gus", ws).until(lambda e: e["type"] == "state")
        assert st["table"]["seats"][0]["name"] == "Gus" and st["table"]["you"] == "N"


ROUTING = {"X-Trumps-Routing": "worker"}  # what the shipped nginx adds to every request


def test_the_owner_is_named_only_to_those_the_table_lets_in(pair: tuple[TestClient, TestClient]) -> None:
    """Behind a routing proxy a table's summary and its relayed sockets name
    the worker that runs it -- to people who may see the table only; without
    the proxy's header, never."""
    a, b = pair
    ann, cyd, dan = (new_guest(a, n) for n in ("Ann", "Cyd", "Dan"))
    r = as_guest(a, ann).post(
        "/api/tables", json={"game": "500", "settings": {"private": True}}, headers=ROUTING
    )
    assert r.status_code == 201 and r.json()["worker"] == "a", r.text  # its maker runs it
    private = r.json()["id"]
    assert "worker" not in as_guest(a, ann).get(f"/api/tables/{private}").json()  # no proxy, no name
    with a.websocket_connect(f"/ws/table/{private}") as ws:
        invite = Peer("ann", ws).until(lambda e: e["type"] == "state")["table"]["invite"]
    eventually(lambda: private in room_of(b).cluster.remote)  # worker b knows the table
    # a stranger: refused, and never told where the table runs
    r = as_guest(b, dan).get(f"/api/tables/{private}", headers=ROUTING)
    assert r.status_code == 403 and "worker" not in r.text
    as_guest(b, dan)
    with b.websocket_connect(f"/ws/table/{private}", headers=ROUTING) as ws:
        peer = Peer("dan", ws)
        events = []
        while (ev := peer.get()) is not None:
            events.append(ev)
        assert [e["type"] for e in events] == ["error"], events
    # invited: its socket on worker b gets the state, then the owner's name
    assert as_guest(b, cyd).post("/api/join", json={"code": invite}).status_code == 200
    eventually(lambda: as_guest(b, cyd).get(f"/api/tables/{private}", headers=ROUTING).status_code == 200)
    assert as_guest(b, cyd).get(f"/api/tables/{private}", headers=ROUTING).json()["worker"] == "a"
    as_guest(b, cyd)
    with b.websocket_connect(f"/ws/table/{private}", headers=ROUTING) as ws:
        peer = Peer("cyd", ws)
        first = peer.get()
        assert first is not None and first["type"] == "state"
        assert peer.until(lambda e: e["type"] == "route") == {"type": "route", "worker": "a"}
    # the same socket without the header (a proxy that does not route): no route event
    with b.websocket_connect(f"/ws/table/{private}") as ws:
        peer = Peer("cyd", ws)
        peer.until(lambda e: e["type"] == "state")
        with pytest.raises(AssertionError, match="nothing within"):
            peer.until(lambda e: e["type"] == "route", timeout=1.0)


def test_players_waiting_for_play_move_with_the_matchmaker_when_its_worker_leaves(
    pair: tuple[TestClient, TestClient],
) -> None:
    """A rolling restart of the worker that runs the matchmaker: it gives
    the matchmaker up as its handover starts, another worker takes it at
    once, and the players waiting (pressed on either worker) are queued
    there with their waiting time kept; with two more they get one table,
    run by the new matchmaker's worker."""
    leader, other = leader_first(*pair)
    cookies = [new_account(leader, "Ann"), new_account(other, "Bob"), new_account(other, "Cyd"),
               new_account(other, "Dee")]  # fmt: skip
    out: dict[str, Any] = {}
    threads = pressers([leader, other, other, other], cookies, out)
    pressed = time.time()
    for t in threads[:2]:
        t.start()
    eventually(lambda: other.get("/api/play").json()["waiting"]["coinche/common"] == 2)
    time.sleep(2.0)  # (so that a place in time not kept shows)
    hand_over(leader)
    new_room = room_of(other)
    assert not room_of(leader).cluster.leader
    eventually(lambda: new_room.cluster.leader)
    eventually(lambda: len(new_room.play.waiters) == 2)  # Ann (on the leaving worker) and Bob, queued again
    for pid in new_room.play.waiters:
        assert new_room.play.mm.queued(pid).since < pressed + 0.5  # their place in time kept
    for t in threads[2:]:
        t.start()
    for t in threads:
        t.join(40)
    assert len(out) == 4 and all(status == 200 for status, _ in out.values()), out
    tables = {body["table"] for _, body in out.values()}
    assert len(tables) == 1
    assert tables.pop() in new_room.tables  # made and run by the new matchmaker's worker


def test_a_room_of_one_worker_keeps_its_matchmaker_when_it_stops(pg_db: str) -> None:
    """One worker on PostgreSQL (a cluster of one) stopping: nobody else
    would run the matchmaker, so it keeps it and the players waiting for
    Play get their table (they were sent to a matchmaker nobody ran)."""
    with TestClient(create_app(pg_db, bot_delay=0, worker="solo")) as solo:
        cookies = [new_account(solo, n) for n in ("Ann", "Bob", "Cyd", "Dee")]
        out: dict[str, Any] = {}
        threads = pressers([solo] * 4, cookies, out)
        threads[0].start()
        eventually(lambda: solo.get("/api/play").json()["waiting"]["coinche/common"] == 1)
        hand_over(solo)
        assert room_of(solo).cluster.leader
        for t in threads[1:]:
            t.start()
        for t in threads:
            t.join(40)
        assert len(out) == 4 and all(status == 200 for status, _ in out.values()), out
        assert len({body["table"] for _, body in out.values()}) == 1


def test_a_cancel_on_another_worker_answers_the_play_request_at_once(
    pair: tuple[TestClient, TestClient],
) -> None:
    """Play pressed on a worker that does not run the matchmaker, then
    cancelled: the pressing request ends at once with 409, as on one
    worker (it waited 35 s for a 503, and its own cancel then could
    cancel the player's next Play)."""
    _leader, other = leader_first(*pair)
    cookie = new_account(other, "Eve")
    other.cookies.clear()
    headers = {"Cookie": f"trumps_session={cookie}"}
    out: dict[str, Any] = {}

    def press() -> None:
        r = other.post("/api/play", json={"game": "500", "rules": "american"}, headers=headers)
        out["press"] = (r.status_code, r.json(), time.monotonic())

    thread = threading.Thread(target=press)
    thread.start()
    eventually(lambda: other.get("/api/play").json()["waiting"]["500/american"] == 1)
    cancelled = time.monotonic()
    assert other.request("DELETE", "/api/play", headers=headers).json() == {"cancelled": True}
    thread.join(40)
    status, body, when = out["press"]
    assert (status, body) == (409, {"error": "cancelled"})
    assert when - cancelled < 3.0
    eventually(lambda: other.get("/api/play").json()["waiting"]["500/american"] == 0)


def test_when_every_worker_stops_the_one_that_let_the_matchmaker_go_takes_it_back(
    pair: tuple[TestClient, TestClient],
) -> None:
    """Both workers stopping at once: the matchmaker's worker lets it go
    (the other one still looks live), but the other has begun to stop too
    and will not claim it.  When the other's ``leaving`` arrives, the first
    runs the matchmaker again, so Play pressed on either worker meanwhile is
    answered with a table, not left waiting 35 s for a 503."""
    leader, other = leader_first(*pair)
    cookies = [new_account(leader, "Ann"), new_account(other, "Bob"), new_account(leader, "Cyd"),
               new_account(other, "Dee")]  # fmt: skip
    out: dict[str, Any] = {}
    threads = pressers([leader, other, leader, other], cookies, out)
    threads[0].start()
    eventually(lambda: leader.get("/api/play").json()["waiting"]["coinche/common"] == 1)
    late = room_of(other).cluster
    late.state.stopping = True  # it has begun to stop; its 'leaving' is not out yet
    hand_over(leader)
    first = room_of(leader).cluster
    assert not first.leader  # let go: the other looked live
    for t in threads[1:]:  # pressed while nobody runs the matchmaker
        t.start()
    time.sleep(1.5)
    assert not first.leader and not late.leader  # (a stopping worker claims nothing)
    started = time.monotonic()
    assert other.portal is not None
    other.portal.call(late.bus.send, None, {"k": "leaving"})
    eventually(lambda: first.leader)
    for t in threads:
        t.join(40)
    assert len(out) == 4 and all(status == 200 for status, _ in out.values()), out
    assert len({body["table"] for _, body in out.values()}) == 1
    assert time.monotonic() - started < 15
