"""The card room over HTTP and WebSocket: tables, seats, bots, complete
games, bad input, restarts, and no hidden card in any message."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import trumps
import trumps.core.registry
import trumps.room
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app
from trumps.room.web.sockets import since_param

CARD = re.compile(r'"((?:[AKQJT2-9]|1[0-3])[SHDC]|RJ|BJ)(?::[SHDC])?"')


def guest(client: TestClient, name: str) -> str:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["player"])


def create(client: TestClient, game: str = "500", **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def recv_state(ws: Any) -> dict[str, Any]:
    while True:
        ev = json.loads(ws.receive_text())
        if ev["type"] == "state":
            return dict(ev)
        if ev["type"] == "error":
            raise AssertionError(ev["reason"])


def test_pages_and_catalogue(client: TestClient) -> None:
    assert client.get("/").status_code == 200
    assert "trumps" in client.get("/").text
    games = client.get("/api/games").json()
    five = next(g for g in games if g["game"] == "500")
    names = {o["name"] for o in five["options"]}
    assert {"variation", "players", "kitty_size", "nullo_mode", "breach_enabled"} <= names
    assert set(five["presets"]) == {"american", "australian"}
    assert client.get("/static/table.js").status_code == 200
    missing = client.get("/table/nope")
    assert missing.status_code == 404 and "<p>No such table</p>" in missing.text  # a page, with the way back
    assert 'href="/"' in missing.text and 'name="viewport"' in missing.text
    # every page names the icon, and the browser's own /favicon.ico finds it too
    for page in sorted((Path(trumps.room.__file__).parent / "static").glob("*.html")):
        assert 'href="/static/favicon.svg"' in page.read_text(), page.name
    for path in ("/favicon.ico", "/static/favicon.svg"):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")


def test_create_needs_a_name_and_valid_options(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "500"})
    assert r.status_code == 401
    guest(client, "Ann")
    r = client.post("/api/tables", json={"game": "500", "options": {"raise_own_bid": True}})
    assert r.status_code == 400
    assert "raise_own_bid is an Australian option" in r.json()["error"]
    r = client.post("/api/tables", json={"game": "500", "options": {"colour": "blue"}})
    assert r.status_code == 400 and "unknown option 'colour'" in r.json()["error"]
    r = client.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 400 and "unknown game" in r.json()["error"]
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert client.get("/api/tables").json() == []


def test_full_game_with_bots_and_no_leak(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, keep_finished=1.0)) as client:
        _full_game_with_bots_and_no_leak(client)


def _full_game_with_bots_and_no_leak(client: TestClient) -> None:
    guest(client, "Ann")
    t = create(client, preset="australian", options={"nullo_plays": "both_hands"})
    assert t["free"] == 4
    sent: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        first = recv_state(ws)
        assert first["table"]["status"] == "waiting" and first["table"]["you"] is None
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
        assert recv_state(ws)["table"]["you"] == "S"
        ws.send_text(json.dumps({"v": 1, "type": "fill"}))
        ev = recv_state(ws)
        for _ in range(5000):
            sent.append(ev)
            if ev["view"]["over"]:
                break
            if ev["table"]["status"] == "playing" and ev["view"]["to_act"] == "S":
                legal = ev["view"]["legal"]
                ws.send_text(json.dumps({"v": 1, "type": "act", "action": legal[0], "seq": ev["seq"]}))
            ev = recv_state(ws)
        assert ev["view"]["over"], "the game did not finish"
    assert ev["table"]["status"] == "finished"
    assert ev["view"]["winner"] in (0, 1)
    for ev in sent:
        _assert_no_hidden_cards(ev, "S")
    # a finished table nobody is connected to leaves the live tables after
    # keep_finished (a long-running room keeps the tables in use): its page
    # is the replay from then on
    assert client.get(f"/table/{t['id']}", follow_redirects=False).status_code == 200
    for _ in range(200):
        r = client.get(f"/table/{t['id']}", follow_redirects=False)
        if r.status_code == 303:
            break
        time.sleep(0.05)
    assert r.status_code == 303 and r.headers["location"] == f"/replay/{t['id']}"
    assert client.get(f"/api/tables/{t['id']}/replay").status_code == 200
    gone = client.get(f"/api/tables/{t['id']}")
    assert gone.status_code == 404
    assert gone.json()["error"] == f"table {t['id']} is finished: its record is /api/tables/{t['id']}/record"
    assert client.get("/api/tables/nosuchtable").json()["error"] != gone.json()["error"]


def _assert_no_hidden_cards(ev: dict[str, Any], me: str) -> None:
    v = ev["view"]
    allowed: set[str] = set(v["hands"][me] or [])
    for s in v["exposed"]:
        allowed |= set(v["hands"][s] or [])
    allowed |= {p["card"] for p in v["trick"]}
    for tr in v["tricks"]:
        allowed |= set(tr["cards"])
    allowed |= set(v.get("discards", [])) | set(v.get("kitty", []))
    for seat, cards in v["hands"].items():
        if seat != me and seat not in v["exposed"]:
            assert cards is None, f"{seat}'s hand sent to {me}"
    # calls such as 7H look like cards: leave out the fields that hold calls
    scrubbed = json.loads(json.dumps(ev))
    scrubbed.pop("presentation", None)  # the game's bidding box and words: calls such as 7H, no card
    sv = scrubbed["view"]
    sv["auction"], sv["contract"], sv["legal"] = [], None, []
    for r in sv["results"]:
        r["contract"] = None
        # a finished deal's kitty and discards are public (500 shows them at its end)
        r.pop("kitty", None), r.pop("discards", None)
    for t in scrubbed["table"]["seats"]:
        t["name"] = None
    seen = set(CARD.findall(json.dumps(scrubbed)))
    assert seen <= allowed, f"hidden cards sent to {me}: {seen - allowed}"


def test_bad_messages_change_nothing(client: TestClient) -> None:
    guest(client, "Ann")
    t = create(client)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        recv_state(ws)
        bad = [
            "{not json",
            "[]",
            json.dumps({"v": 2, "type": "sit", "seat": "N"}),
            json.dumps({"v": 1, "type": "dance"}),
            json.dumps({"v": 1, "type": "sit"}),
            json.dumps({"v": 1, "type": "sit", "seat": "Q"}),
            json.dumps({"v": 1, "type": "act", "action": "7H"}),
            json.dumps({"v": 1, "type": "chat", "text": "x" * 301}),
            json.dumps({"v": 1, "type": "sit", "seat": "N", "extra": 1}),
            "x" * 5000,
        ]
        reasons = []
        for raw in bad:
            ws.send_text(raw)
            ev = json.loads(ws.receive_text())
            assert ev["type"] == "error", raw
            reasons.append(ev["reason"])
        assert reasons[0] == "malformed JSON"
        assert "protocol version" in reasons[2]
        assert "unknown message type 'dance'" in reasons[3]
        assert "no seat 'Q'" in reasons[5] or "not a seat" in reasons[5]
        assert reasons[6] == "you have no seat at this table"
        assert "too large" in reasons[9]
        ws.send_text(json.dumps({"v": 1, "type": "hello"}))
        ev = recv_state(ws)
        assert ev["seq"] == 0 and all(s["empty"] for s in ev["table"]["seats"])


def test_only_the_host_seats_bots_and_turns_are_enforced(client: TestClient) -> None:
    guest(client, "Host")
    host_cookie = client.cookies.get("trumps_session")
    t = create(client)
    client.cookies.clear()
    guest(client, "Bob")
    with client.websocket_connect(f"/ws/table/{t['id']}") as bob:
        assert recv_state(bob)["table"]["is_host"] is False
        bob.send_text(json.dumps({"v": 1, "type": "bot", "seat": "E", "kind": "rules"}))
        assert json.loads(bob.receive_text())["reason"] == "only the host can seat bots"
        bob.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))
        assert recv_state(bob)["table"]["you"] == "N"
        bob.send_text(json.dumps({"v": 1, "type": "sit", "seat": "E"}))
        assert json.loads(bob.receive_text())["reason"] == "you already have a seat at this table"
        client.cookies.clear()
        assert host_cookie is not None
        client.cookies.set("trumps_session", host_cookie)
        with client.websocket_connect(f"/ws/table/{t['id']}") as host:
            assert recv_state(host)["table"]["is_host"] is True
            host.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))
            assert json.loads(host.receive_text())["reason"] == "seat N is taken"
            host.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            recv_state(host)
            host.send_text(json.dumps({"v": 1, "type": "fill"}))
            ev = recv_state(host)
            while ev["table"]["status"] != "playing":
                ev = recv_state(host)
            # wait until a human must act (bots never act for them), then the
            # other human's call is refused and changes nothing
            while ev["view"]["to_act"] not in ("N", "S"):
                ev = recv_state(host)
            waiting = ev["view"]["to_act"]
            other = host if waiting == "N" else bob
            other.send_text(json.dumps({"v": 1, "type": "act", "action": "P"}))
            reply = json.loads(other.receive_text())
            while reply["type"] == "state":
                reply = json.loads(other.receive_text())
            assert reply["reason"] == f"it is not your turn ({waiting} to act)"
            host.send_text(json.dumps({"v": 1, "type": "hello"}))
            assert recv_state(host)["seq"] == ev["seq"]


def test_restart_resumes_the_same_position(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c1:
        guest(c1, "Ann")
        cookie = c1.cookies.get("trumps_session")
        t = create(c1)
        with c1.websocket_connect(f"/ws/table/{t['id']}") as ws:
            recv_state(ws)
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            recv_state(ws)
            ws.send_text(json.dumps({"v": 1, "type": "fill"}))
            ev = recv_state(ws)
            while ev["view"]["to_act"] != "S" or ev["table"]["status"] != "playing":
                ev = recv_state(ws)
            before = ev
    with TestClient(create_app(db_url, bot_delay=0)) as c2:
        assert cookie is not None
        c2.cookies.set("trumps_session", cookie)
        listing = c2.get("/api/tables").json()
        assert [x["id"] for x in listing] == [t["id"]]
        with c2.websocket_connect(f"/ws/table/{t['id']}") as ws:
            after = recv_state(ws)
    assert after["seq"] == before["seq"]
    assert after["table"]["you"] == "S"
    assert after["view"] == before["view"]


def test_room_uses_only_the_engine_protocol() -> None:
    import pathlib

    src = pathlib.Path(trumps.__file__).parent / "room"
    text = "\n".join(p.read_text() for p in src.rglob("*.py"))
    assert "five_hundred" not in text and "bridge" not in text and "coinche" not in text


def _sit_and_fill(ws: Any) -> dict[str, Any]:
    recv_state(ws)
    ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
    recv_state(ws)
    ws.send_text(json.dumps({"v": 1, "type": "fill"}))
    ev = recv_state(ws)
    while ev["view"]["to_act"] != "S" or ev["table"]["status"] != "playing":
        ev = recv_state(ws)
    return ev


def test_missed_events_are_delivered_in_order(client: TestClient) -> None:
    guest(client, "Ann")
    t = create(client)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        ev = _sit_and_fill(ws)
        ws.send_text(json.dumps({"v": 1, "type": "act", "action": ev["view"]["legal"][0], "seq": ev["seq"]}))
        seen = [recv_state(ws)]
        while seen[-1]["view"]["to_act"] != "S":
            seen.append(recv_state(ws))
    last = seen[-1]
    # a replay holds only the current deal: from its first state (all passed: a new deal)
    since = max(2, min(e["seq"] for e in seen if e["view"]["deal_number"] == last["view"]["deal_number"]))
    with client.websocket_connect(f"/ws/table/{t['id']}?since={since}") as ws:
        seqs = []
        while not seqs or seqs[-1] < last["seq"]:
            seqs.append(recv_state(ws)["seq"])
    assert seqs == list(range(since + 1, last["seq"] + 1)) or seqs == [last["seq"]] == [since]


def test_a_since_that_is_no_sequence_number_gets_the_present(client: TestClient) -> None:
    guest(client, "Ann")
    t = create(client)
    for since in ("9" * 40, "-1", "x", "1e9"):
        with client.websocket_connect(f"/ws/table/{t['id']}?since={since}") as ws:
            assert recv_state(ws)["seq"] == 0
    assert [since_param(x) for x in ("12", "0", "9" * 13, "١٢", "", None)] == [12, 0, None, None, None, None]


def test_a_request_that_fails_closes_its_connection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 500 says ``Connection: close``: a proxy pooling connections to the
    worker must not send the next request down the one uvicorn closes."""

    def broken() -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(trumps.core.registry, "catalogue", broken)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}"), raise_server_exceptions=False) as c:
        r = c.get("/api/games")
        assert r.status_code == 500
        assert r.headers["connection"] == "close"
        assert "boom" not in r.text
        ok = c.get("/api/settings")
        assert ok.status_code == 200 and "connection" not in ok.headers


def test_a_player_who_leaves_on_their_turn_is_played_by_a_bot(db_url: str) -> None:
    from waiting import wait_until

    with TestClient(create_app(db_url, bot_delay=0, grace=0.2)) as c:
        guest(c, "Ann")
        t = create(c)
        with c.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ev = _sit_and_fill(ws)
        before = c.get(f"/api/tables/{t['id']}").json()["scores"]

        def deal_scored() -> bool:  # a deal cannot be scored without S's cards: the bot played them
            info = c.get(f"/api/tables/{t['id']}").json()
            return bool(info["scores"] != before or info["status"] == "finished")

        wait_until(deal_scored, timeout=30, what="a deal played to its end with S away")
        info = c.get(f"/api/tables/{t['id']}").json()
        assert next(s for s in info["seats"] if s["seat"] == "S")["away"] is True
        with c.websocket_connect(f"/ws/table/{t['id']}") as ws:
            back = recv_state(ws)
            while back["table"]["seats"][2]["away"]:
                back = recv_state(ws)
        assert back["seq"] > ev["seq"]  # the bot acted for S while Ann was away
        assert back["table"]["you"] == "S"


def test_a_grace_timer_that_wakes_early_still_hands_the_seat_to_a_bot(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The freeze: the event loop's timer fired a moment before the grace
    was over by ``time.monotonic()`` (uvloop times from a millisecond clock
    cached at each turn of its loop, late after a busy turn), the bots saw
    a player still in their grace, and nothing looked again: a bridge table
    waited for ever for a player who had closed the page.  Here the loop's
    clock is made to lag 150 ms behind the one the grace is measured by."""
    from waiting import wait_until

    from trumps.room.tables import away

    real_left = away.Away.left

    def lagging_left(self: away.Away, seat: int) -> float:
        real_left(self, seat)
        since = self.gone[seat] = self.gone[seat] + 0.15  # (as if the loop's clock were 150 ms behind)
        return since

    monkeypatch.setattr(away.Away, "left", lagging_left)
    with TestClient(create_app(db_url, bot_delay=0, grace=0.2)) as c:
        guest(c, "Ann")
        t = create(c)
        with c.websocket_connect(f"/ws/table/{t['id']}") as ws:
            ev = _sit_and_fill(ws)
            assert ev["view"]["to_act"] == "S"  # she leaves on her turn
        before = c.get(f"/api/tables/{t['id']}").json()["scores"]

        def deal_scored() -> bool:  # a deal cannot be scored without S's cards: the bot played them
            info = c.get(f"/api/tables/{t['id']}").json()
            return bool(info["scores"] != before or info["status"] == "finished")

        wait_until(deal_scored, timeout=30, what="a bot playing for the player who left")


def test_a_human_takes_over_a_bot_between_deals(client: TestClient) -> None:
    guest(client, "Host")
    host_cookie = client.cookies.get("trumps_session")
    t = create(client)
    with client.websocket_connect(f"/ws/table/{t['id']}") as host:
        ev = _sit_and_fill(host)
        client.cookies.clear()
        guest(client, "Bob")
        with client.websocket_connect(f"/ws/table/{t['id']}") as bob:
            recv_state(bob)
            bob.send_text(json.dumps({"v": 1, "type": "sit", "seat": "W"}))
            assert host_cookie is not None
            deal = ev["view"]["deal_number"]
            # the host plays on; when the next deal starts Bob holds W
            acted_at = -1
            while True:
                # a seat change re-sends the same state: act once per state
                if (
                    ev["view"]["to_act"] == "S"
                    and ev["table"]["status"] == "playing"
                    and ev["seq"] != acted_at
                ):
                    acted_at = ev["seq"]
                    host.send_text(
                        json.dumps(
                            {"v": 1, "type": "act", "action": ev["view"]["legal"][0], "seq": ev["seq"]}
                        )
                    )
                ev = recv_state(host)
                if ev["view"]["deal_number"] > deal or ev["view"]["over"]:
                    break
            if not ev["view"]["over"]:
                w = next(s for s in ev["table"]["seats"] if s["seat"] == "W")
                assert w["name"] == "Bob (guest)" and w["bot"] is None


def test_a_new_table_in_the_group_commit_is_stored_as_it_is_held(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        host = store.create_player("Ann")
        options = {"variation": "american", "kitty_size": 5, "order": ("a", "b")}
        settings = {"chat": "preset", "bid_time": 15}
        st = asyncio.run(
            store.add_table("500", "american", options, 2**61 + 3, host, 4, settings, "code-1234")
        )
        assert st.options["order"] == ["a", "b"]  # as the JSON column gives it back
        assert store.load_table(st.id) == st
    finally:
        store.close()


def test_the_lobby_tells_a_seated_player_their_seat_and_nobody_else(client: TestClient) -> None:
    """``you`` in a lobby entry: the lobby then offers the way back to the
    table (not "Watch", which a table closed to spectators would hide)."""
    guest(client, "Ann")
    t = create(client, settings={"watching": False})
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        recv_state(ws)
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "E"}))
        while recv_state(ws)["table"]["you"] != "E":
            pass
        mine = next(e for e in client.get("/api/tables").json() if e["id"] == t["id"])
        assert mine["you"] == "E"
    client.cookies.clear()
    guest(client, "Bob")
    assert all("you" not in e for e in client.get("/api/tables").json())


@pytest.mark.parametrize("game", ["500", "bridge", "coinche"])
def test_no_card_is_shown_before_the_start_even_to_the_seated(client: TestClient, game: str) -> None:
    """The first deal exists from the table's creation: a player who sat in
    each free seat in turn before the start would know every hand (seen by a
    newcomer's QA pass, at a Compete table scheduled 30 minutes ahead)."""
    guest(client, "Ann")
    t = create(client, game)
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        recv_state(ws)
        for seat in ("S", "W"):
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": seat}))
            ev = recv_state(ws)
            while ev["table"]["you"] != seat:
                ev = recv_state(ws)
            assert ev["table"]["status"] == "waiting"
            assert all(cards is None for cards in ev["view"]["hands"].values()), ev["view"]["hands"]
            assert not CARD.findall(json.dumps(ev["view"]["hands"]))
            ws.send_text(json.dumps({"v": 1, "type": "stand"}))
            while recv_state(ws)["table"]["you"] is not None:
                pass
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
        ws.send_text(json.dumps({"v": 1, "type": "fill"}))
        ev = recv_state(ws)
        while ev["table"]["status"] != "playing":
            ev = recv_state(ws)
        assert ev["view"]["hands"]["S"], "the hand is shown once the game starts"
