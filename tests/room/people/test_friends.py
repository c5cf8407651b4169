"""Friends, blocks, invitations and who sees which table, over HTTP and
the WebSockets, with the attacks: a stranger does not see a friends' table
(lobby, page, socket), a blocked player cannot request, invite, chat to the
blocker or sit at their table, an invitation cannot be answered by someone
else."""

from __future__ import annotations

import json
from typing import Any

from peers import COOKIE, new_account, new_guest
from starlette.testclient import TestClient


def as_(client: TestClient, cookie: str) -> TestClient:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)
    return client


def friends(client: TestClient, cookie: str, player: str, action: str, status: int = 200) -> dict[str, Any]:
    r = as_(client, cookie).post("/api/friends", json={"player": player, "action": action})
    assert r.status_code == status, r.text
    return dict(r.json())


def befriend(client: TestClient, a: str, a_name: str, b: str, b_name: str) -> None:
    assert friends(client, a, b_name, "request")["result"] == "requested"
    assert friends(client, b, a_name, "accept")["result"] == "friends"


def lobby_ids(client: TestClient, cookie: str | None) -> set[str]:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return {t["id"] for t in client.get("/api/tables").json()}


def test_request_accept_decline_remove(client: TestClient) -> None:
    ann, bob, cy = (new_account(client, n) for n in ("Ann", "Bob", "Cyd"))
    assert friends(client, ann, "bob", "request")["outgoing"][0]["name"] == "Bob"
    view = as_(client, bob).get("/api/friends").json()
    assert [e["name"] for e in view["incoming"]] == ["Ann"]
    assert friends(client, bob, "Ann", "accept")["friends"][0]["name"] == "Ann"
    assert [f["name"] for f in as_(client, ann).get("/api/friends").json()["friends"]] == ["Bob"]
    assert friends(client, ann, "Bob", "request", 400)["error"] == "Bob is already your friend"
    friends(client, ann, "Cyd", "request")
    assert friends(client, cy, "Ann", "decline")["result"] == "declined"
    assert as_(client, ann).get("/api/friends").json()["outgoing"] == []
    assert friends(client, bob, "Ann", "remove")["friends"] == []
    assert as_(client, ann).get("/api/friends").json()["friends"] == []
    # a request back to someone who asked first is a yes
    friends(client, ann, "Cyd", "request")
    assert friends(client, cy, "Ann", "request")["result"] == "friends"


def test_bad_friend_requests_change_nothing(client: TestClient) -> None:
    ann = new_account(client, "Ann")
    assert (
        friends(client, ann, "nobody_at_all", "request", 400)["error"]
        == "no player is called 'nobody_at_all'"
    )
    assert friends(client, ann, "Ann", "request", 400)["error"] == "that is you"
    assert friends(client, ann, "Ann", "shout", 400)
    guest = new_guest(client, "Gil")
    r = as_(client, guest).post("/api/friends", json={"player": "Ann", "action": "request"})
    assert r.status_code == 403 and r.json() == {"error": "register an account to have friends"}
    assert as_(client, ann).get("/api/friends").json()["incoming"] == []


def test_a_join_table_is_seen_by_friends_of_its_players_only(client: TestClient) -> None:
    ann, bob, cy = (new_account(client, n) for n in ("Ann", "Bob", "Cyd"))
    befriend(client, ann, "Ann", bob, "Bob")
    t = as_(client, ann).post("/api/tables", json={"game": "500"}).json()
    tid = t["id"]
    assert tid in lobby_ids(client, ann) and tid in lobby_ids(client, bob)
    assert tid not in lobby_ids(client, cy) and tid not in lobby_ids(client, None)
    # not listed, but its address works as a link: sharing it is inviting
    assert as_(client, cy).get(f"/table/{tid}").status_code == 200
    # an invitation-only table cannot be opened by a stranger at all
    p = as_(client, ann).post("/api/tables", json={"game": "500", "settings": {"private": True}}).json()
    assert p["id"] not in lobby_ids(client, bob)  # not even friends, until invited
    assert as_(client, cy).get(f"/table/{p['id']}").status_code == 403
    assert as_(client, cy).get(f"/api/tables/{p['id']}").status_code == 403
    with as_(client, cy).websocket_connect(f"/ws/table/{p['id']}") as ws:
        ev = json.loads(ws.receive_text())
        assert ev["type"] == "error" and "invitation" in ev["reason"]
    # a friend of a seated player sees it too: Bob sits, Cy befriends Bob
    with as_(client, bob).websocket_connect(f"/ws/table/{tid}") as ws:
        json.loads(ws.receive_text())
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))
        while not json.loads(ws.receive_text()).get("table", {}).get("you"):
            pass
        befriend(client, cy, "Cyd", bob, "Bob")
        assert tid in lobby_ids(client, cy)


def test_invite_only_tables_and_invitations(client: TestClient) -> None:
    ann, bob, cy = (new_account(client, n) for n in ("Ann", "Bob", "Cyd"))
    befriend(client, ann, "Ann", bob, "Bob")
    with as_(client, bob).websocket_connect("/ws/me") as me:
        assert json.loads(me.receive_text())["type"] == "me"
        r = as_(client, ann).post(
            "/api/tables", json={"game": "500", "settings": {"private": True}, "invite": ["Bob"]}
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        ev = json.loads(me.receive_text())
        while ev["type"] != "invitation":
            ev = json.loads(me.receive_text())
        inv = ev["invitation"]
        assert inv["table"] == tid and inv["from"] == "Ann"
    assert tid in lobby_ids(client, bob) and tid not in lobby_ids(client, cy)
    # nobody else can answer Bob's invitation
    assert as_(client, cy).post(f"/api/invitations/{inv['id']}", json={"answer": "accept"}).status_code == 400
    # Ann sits E: accepting seats Bob at her partner's seat (issue 30: not as a spectator)
    with as_(client, ann).websocket_connect(f"/ws/table/{tid}") as ws:
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "E"}))
        while (ev := json.loads(ws.receive_text()))["type"] != "state" or ev["table"]["you"] != "E":
            pass
    r = as_(client, bob).post(f"/api/invitations/{inv['id']}", json={"answer": "accept"})
    assert r.json() == {"table": tid, "seat": "W"}
    seats = as_(client, bob).get(f"/api/tables/{tid}").json()["seats"]
    assert [s["name"] for s in seats] == [None, "Ann", None, "Bob"]
    assert as_(client, bob).get(f"/table/{tid}").status_code == 200
    # only friends can be invited by name; strangers get the link
    r = as_(client, ann).post(f"/api/tables/{tid}/invite", json={"players": ["Cyd"]})
    assert r.status_code == 400 and "is not your friend" in r.json()["error"]
    assert tid not in lobby_ids(client, cy)


def test_a_declined_invitation_takes_the_table_away(client: TestClient) -> None:
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    befriend(client, ann, "Ann", bob, "Bob")
    t = as_(client, ann).post("/api/tables", json={"game": "500", "settings": {"private": True}}).json()
    invited = as_(client, ann).post(f"/api/tables/{t['id']}/invite", json={"players": ["bob"]}).json()
    assert invited["invited"][0]["name"] == "Bob"
    inv = as_(client, bob).get("/api/friends").json()["invitations"][0]
    assert as_(client, bob).post(f"/api/invitations/{inv['id']}", json={"answer": "decline"}).json() == {
        "table": None
    }
    assert t["id"] not in lobby_ids(client, bob)
    assert as_(client, bob).get("/api/friends").json()["invitations"] == []


def test_blocks(client: TestClient) -> None:
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    befriend(client, ann, "Ann", bob, "Bob")
    t = as_(client, bob).post("/api/tables", json={"game": "500"}).json()  # Bob's table
    assert friends(client, ann, "Bob", "block")["blocked"][0]["name"] == "Bob"
    # the friendship is over, Bob cannot ask again nor invite Ann
    assert as_(client, bob).get("/api/friends").json()["friends"] == []
    assert (
        friends(client, bob, "Ann", "request", 400)["error"] == "you cannot send this player a friend request"
    )
    r = as_(client, bob).post(f"/api/tables/{t['id']}/invite", json={"players": ["Ann"]})
    assert r.status_code == 400
    # Ann does not see Bob's tables, and Bob cannot sit at Ann's
    assert t["id"] not in lobby_ids(client, ann)
    assert as_(client, ann).get(f"/table/{t['id']}").status_code == 403
    mine = as_(client, ann).post("/api/tables", json={"game": "500"}).json()
    r = as_(client, bob).get(f"/table/{mine['id']}")
    # said as it is: the table is not private (and who blocked whom is not told)
    assert (
        r.status_code == 403 and "<p>This table is not open to you</p>" in r.text and "private" not in r.text
    )
    api = as_(client, bob).get(f"/api/tables/{mine['id']}")
    assert api.status_code == 403 and api.json() == {"error": "this table is not open to you"}
    with as_(client, bob).websocket_connect(f"/ws/table/{mine['id']}") as wb:
        ev = json.loads(wb.receive_text())
        assert ev["type"] == "error" and ev["reason"] == "this table is not open to you"
    ann_table = as_(client, ann).get(f"/api/tables/{mine['id']}").json()
    assert ann_table["host"]
    # a third player's table where Ann sits: Bob may look but not sit beside her
    cyd = new_account(client, "Cyd")
    third = as_(client, cyd).post("/api/tables", json={"game": "500"}).json()
    with as_(client, ann).websocket_connect(f"/ws/table/{third['id']}") as wa:
        json.loads(wa.receive_text())
        wa.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))
        while not json.loads(wa.receive_text()).get("table", {}).get("you"):
            pass
        with as_(client, bob).websocket_connect(f"/ws/table/{third['id']}") as wb:
            json.loads(wb.receive_text())
            wb.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            ev = json.loads(wb.receive_text())
            while ev["type"] != "error":
                ev = json.loads(wb.receive_text())
            assert ev["reason"] == "you cannot sit at this table"


def test_a_blocked_players_chat_is_not_shown_to_the_blocker(client: TestClient) -> None:
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    befriend(client, ann, "Ann", bob, "Bob")
    t = as_(client, ann).post("/api/tables", json={"game": "500"}).json()
    tid = t["id"]
    # one client (one event loop), the cookie jar switched between connections
    with (
        as_(client, ann).websocket_connect(f"/ws/table/{tid}") as wa,
        as_(client, bob).websocket_connect(f"/ws/table/{tid}") as wb,
    ):
        json.loads(wa.receive_text())
        json.loads(wb.receive_text())
        wb.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))  # players' channel
        wb.send_text(json.dumps({"v": 1, "type": "chat", "text": "hello Ann"}))

        def until_chat(ws: Any, text: str) -> dict[str, Any]:
            while True:
                ev = json.loads(ws.receive_text())
                if ev["type"] == "state" and any(line["text"] == text for line in ev["chat"]):
                    return dict(ev)

        until_chat(wa, "hello Ann")
        friends(client, ann, "Bob", "block")
        wb.send_text(json.dumps({"v": 1, "type": "chat", "text": "still there?"}))
        until_chat(wb, "still there?")
        wa.send_text(json.dumps({"v": 1, "type": "chat", "text": "from Ann"}))
        ev = until_chat(wa, "from Ann")
        assert [line["text"] for line in ev["chat"]] == ["from Ann"]


def test_guests_still_play_straight_away_and_see_their_own_tables(client: TestClient) -> None:
    g = new_guest(client, "Gia")
    t = as_(client, g).post("/api/tables", json={"game": "500"}).json()
    assert t["id"] in lobby_ids(client, g)
    assert t["settings"]["kind"] == "join"


def test_compete_tables_are_listed_for_everyone(client: TestClient) -> None:
    ann = new_account(client, "Ann")
    t = as_(client, ann).post(
        "/api/tables", json={"game": "500", "settings": {"kind": "compete", "buy_in": 30}}
    )
    assert t.status_code == 201, t.text
    stranger = new_account(client, "Zed")
    assert t.json()["id"] in lobby_ids(client, stranger)
    r = as_(client, ann).post("/api/tables", json={"game": "500", "settings": {"kind": "compete"}})
    assert r.status_code == 400 and "needs a buy-in" in r.json()["error"]
    r = as_(client, ann).post("/api/tables", json={"game": "500", "settings": {"kind": "play"}})
    assert r.status_code == 400 and r.json()["error"] == "Play tables are made by the Play button"


def test_the_friends_list_shows_presence_and_table(client: TestClient) -> None:
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    befriend(client, ann, "Ann", bob, "Bob")
    assert as_(client, ann).get("/api/friends").json()["friends"][0]["online"] is False
    with as_(client, bob).websocket_connect("/ws/me") as me:
        json.loads(me.receive_text())
        entry = as_(client, ann).get("/api/friends").json()["friends"][0]
        assert entry["online"] is True and entry["table"] is None
        t = as_(client, bob).post("/api/tables", json={"game": "500"}).json()
        with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
            json.loads(ws.receive_text())
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            while not json.loads(ws.receive_text()).get("table", {}).get("you"):
                pass
            entry = as_(client, ann).get("/api/friends").json()["friends"][0]
            assert entry["table"]["id"] == t["id"]
        # an invitation-only table is not told
        p = as_(client, bob).post("/api/tables", json={"game": "500", "settings": {"private": True}}).json()
        with client.websocket_connect(f"/ws/table/{p['id']}") as ws:
            json.loads(ws.receive_text())
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
            while not json.loads(ws.receive_text()).get("table", {}).get("you"):
                pass
            entry = as_(client, ann).get("/api/friends").json()["friends"][0]
            assert entry["online"] is True and entry["table"]["id"] == t["id"]  # not the private one
    entry = as_(client, ann).get("/api/friends").json()["friends"][0]
    assert entry["online"] is False
