"""Issue 29, item 9: blocks and invitations hold.

(a) A declined invitation gave access to the private table again after a
restart (the decline was made in memory only).  (b) A blocked person saw
the blocker's online status and friends list on the profile.  (c) If a
blocked pair pressed Play together, the blocker was left seated at a dead
Play table that every later Play press returned to.  On both databases."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from peers import COOKIE, new_account
from starlette.testclient import TestClient
from test_friends import as_, befriend, friends, lobby_ids
from test_play import press, pressing, wait_queued

from trumps.room.tables.timers import FakeClock
from trumps.room.web.app import create_app

T0 = 1_800_000_000.0


def test_a_declined_invitation_stays_declined_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        ann, bob, cyd = (new_account(client, n) for n in ("Ann", "Bob", "Cyd"))
        befriend(client, ann, "Ann", bob, "Bob")
        befriend(client, ann, "Ann", cyd, "Cyd")
        tid = (
            as_(client, ann)
            .post("/api/tables", json={"game": "500", "settings": {"private": True}})
            .json()["id"]
        )
        r = as_(client, ann).post(f"/api/tables/{tid}/invite", json={"players": ["Bob", "Cyd"]})
        assert r.status_code == 200, r.text
        inv = as_(client, bob).get("/api/friends").json()["invitations"][0]
        r = as_(client, bob).post(f"/api/invitations/{inv['id']}", json={"answer": "decline"})
        assert r.json() == {"table": None}
        assert as_(client, bob).get(f"/table/{tid}").status_code == 403
        assert as_(client, cyd).get(f"/table/{tid}").status_code == 200  # Cyd did not decline
    with TestClient(create_app(db_url, bot_delay=0)) as client:  # a restart
        assert as_(client, bob).get(f"/table/{tid}").status_code == 403
        assert tid not in lobby_ids(client, bob)
        assert as_(client, cyd).get(f"/table/{tid}").status_code == 200
        # declined is declined: answering it again lets nobody in either
        as_(client, bob).post(f"/api/invitations/{inv['id']}", json={"answer": "accept"})
        assert as_(client, bob).get(f"/table/{tid}").status_code == 403
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        assert as_(client, bob).get(f"/table/{tid}").status_code == 403


def test_a_blocked_person_finds_no_profile_of_the_blocker(client: TestClient) -> None:
    ann, bob, cyd = (new_account(client, n) for n in ("Ann", "Bob", "Cyd"))
    dee = new_account(client, "Dee")
    befriend(client, ann, "Ann", dee, "Dee")
    friends(client, ann, "Bob", "block")
    with as_(client, ann).websocket_connect("/ws/me") as me:  # Ann is online
        me.receive_text()
        r = as_(client, bob).get("/api/players/Ann")
        assert r.status_code == 404 and r.json() == {"error": "no such player"}
        assert "online" not in r.json() and "friends" not in r.json()
        seen = as_(client, cyd).get("/api/players/Ann").json()  # a stranger sees the profile
        assert seen["online"] is True and seen["friends"] == ["Dee"]
        assert as_(client, ann).get("/api/players/Bob").status_code == 200  # the blocker may look
    friends(client, ann, "Bob", "unblock")
    assert as_(client, bob).get("/api/players/Ann").status_code == 200


@pytest.fixture
def people_play(db_url: str) -> Iterator[tuple[TestClient, FakeClock]]:
    clock = FakeClock(T0)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as c:
        yield c, clock


def seats_of(client: TestClient, cookie: str, tid: str) -> list[dict[str, Any]]:
    r = client.get(f"/api/tables/{tid}", headers={"Cookie": f"{COOKIE}={cookie}"})
    assert r.status_code == 200, r.text
    return list(r.json()["seats"])


def press_together(client: TestClient, clock: FakeClock, cookies: dict[str, str]) -> dict[str, Any]:
    """Everyone in ``cookies`` presses Play for 500 at once; 10 s pass."""
    out: dict[str, Any] = {}
    body = {"game": "500", "rules": "american"}
    threads = [pressing(client, c, body, out, who) for who, c in cookies.items()]
    wait_queued(client, "500/american", len(cookies))
    assert client.portal is not None
    client.portal.call(clock.advance, 10.0)
    for t in threads:
        t.join(30)
    return out


def test_a_blocked_pair_pressing_play_together_never_share_a_table(
    people_play: tuple[TestClient, FakeClock],
) -> None:
    client, clock = people_play
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    client.cookies.clear()
    friends(client, ann, "Bob", "block")
    client.cookies.clear()
    out = press_together(client, clock, {"ann": ann, "bob": bob})
    assert out["ann"][0] == 200 and out["bob"][0] == 200, out
    ta, tb = out["ann"][1]["table"], out["bob"][1]["table"]
    assert ta != tb
    for cookie, tid, name in ((ann, ta, "Ann"), (bob, tb, "Bob")):
        seats = seats_of(client, cookie, tid)
        assert [s["name"] for s in seats if s["bot"] is None] == [name]
    # pressing again asks about one's own live game (issue 30), never the other's table
    again: dict[str, Any] = {}
    press(client, ann, {"game": "500", "rules": "american"}, again, "ann")
    assert again["ann"][0] == 409 and again["ann"][1]["seated"]["table"] == ta


def test_a_play_table_that_could_not_be_made_captures_nobody(
    people_play: tuple[TestClient, FakeClock],
) -> None:
    """Whatever stops a Play table from being made (here: the matchmaker
    told nothing of blocks, as before), its players are not left at it."""
    client, clock = people_play
    ann, bob = new_account(client, "Ann"), new_account(client, "Bob")
    client.cookies.clear()
    friends(client, ann, "Bob", "block")
    client.cookies.clear()
    room = client.app.state.current_room()  # type: ignore[attr-defined]
    room.play.mm.apart = None
    out = press_together(client, clock, {"ann": ann, "bob": bob})
    assert out["ann"][0] == 400 and "could not be made" in out["ann"][1]["error"], out
    assert not [t for t in room.tables.values() if t.settings.kind == "play" and t.status != "finished"]
    assert lobby_ids(client, ann) == set()
    # Play again: a new search, not the dead table
    room.play.mm.apart = lambda a, b: room.people.social.blocked(a, b)
    out = press_together(client, clock, {"ann": ann})
    assert out["ann"][0] == 200, out
    seats = seats_of(client, ann, out["ann"][1]["table"])
    assert [s["name"] for s in seats if s["bot"] is None] == ["Ann"]
    assert [t.status for t in room.tables.values() if t.id == out["ann"][1]["table"]] == ["playing"]
