"""Table settings over the WebSocket, with a fake clock: move timers (and
their re-arming after a restart), chat modes, spectators, invitations,
suggestions, scheduled starts, competitions and a bot seat emptied mid-game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from peers import Peer, as_guest, create_table, my_turn, new_account, new_guest, peer
from starlette.testclient import TestClient

import trumps
from trumps.room.storage.store import Store
from trumps.room.tables.settings import MAX_SPECTATORS, PRESET_PHRASES
from trumps.room.tables.table import CHAT_BURST, CHAT_WINDOW
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


def advance(client: TestClient, clock: FakeClock, seconds: float) -> None:
    assert client.portal is not None
    client.portal.call(clock.advance, seconds)


def start_alone(p: Peer, seat: str = "S", fresh: bool = True) -> dict[str, Any]:
    """Sit at ``seat``, fill the other seats with bots, wait for our turn."""
    if fresh:
        p.state()
    p.send(type="sit", seat=seat)
    p.state(lambda ev: ev["table"]["you"] == seat)
    p.send(type="fill")
    return p.state(my_turn)


# ----- creation --------------------------------------------------------------------------
def test_settings_are_validated_at_creation(room: TestClient, clock: FakeClock) -> None:
    ann = new_account(room, "Ann")
    cases = [
        ({"bid_time": 9}, "settings.bid_time: Input should be 0, 7, 15, 30 or 60"),
        ({"chat": "loud"}, "settings.chat: Input should be 'none', 'preset' or 'text'"),
        ({"colour": "red"}, "settings.colour: Extra inputs are not permitted"),
        ({"buy_in": 100}, "settings.buy_in: Input should be 0, 30, 110, 275 or 550"),
        ({"start_at": T0 - 1}, "settings.start_at: the start time must be in the future"),
        (
            {"start_at": T0 + 24 * 3600 + 1},
            "settings.start_at: a table can be scheduled at most 24 hours ahead",
        ),
        ({"watching": "maybe"}, "settings.watching: Input should be a valid boolean"),
        ({"kind": "compete"}, "settings: a Compete table needs a buy-in (30, 110, 275 or 550 chips)"),
        ({"kind": "join", "buy_in": 30}, "settings: only Compete tables have a buy-in"),
        ({"kind": "play"}, "Play tables are made by the Play button"),
    ]
    for settings, reason in cases:
        r = as_guest(room, ann).post("/api/tables", json={"game": "500", "settings": settings})
        assert r.status_code == 400 and r.json() == {"error": reason}, (settings, r.text)
    assert as_guest(room, ann).get("/api/tables").json() == []  # nothing was created
    t = create_table(room, ann, settings={"bid_time": 15, "play_time": 7, "chat": "preset", "buy_in": 30})
    assert t["settings"] == {
        "kind": "compete", "bid_time": 15, "play_time": 7, "chat": "preset", "spectator_chat": True,
        "watching": True, "private": False, "suggestions": False, "start_at": None, "buy_in": 30,
    }  # fmt: skip
    listed = room.get("/api/tables").json()  # an open competition is listed for everyone
    assert [x["settings"]["bid_time"] for x in listed] == [15]
    meta = room.get("/api/settings").json()
    assert [s["name"] for s in meta["settings"]] == [
        "kind", "bid_time", "play_time", "chat", "spectator_chat", "watching", "private", "suggestions", "start_at",
        "buy_in",
    ]  # fmt: skip
    assert meta["phrases"] == [{"key": k, "text": v} for k, v in PRESET_PHRASES.items()]


# ----- timers ------------------------------------------------------------------------------
def test_a_player_who_does_nothing_passes_then_is_marked_away_and_comes_back(
    room: TestClient, clock: FakeClock, db_url: str
) -> None:
    """A timer never bids for a player (it passes), and after two timeouts
    in a row the seat is marked away: a bot plays it at once (no timer) and
    passes in every auction, until the player says "I'm back"."""
    ann = new_guest(room, "Ann")
    t = create_table(room, ann, settings={"bid_time": 7, "play_time": 15})
    with peer(room, t["id"], ann, "ann") as p:
        p.state()
        p.send(type="back")
        assert p.error() == "you have no seat at this table"
        ev = start_alone(p, fresh=False)
        assert ev["view"]["phase"] == "AUCTION"
        assert ev["table"]["deadline"] == ev["table"]["now"] + 7 == T0 + 7
        advance(room, clock, 6.9)
        assert [e for e in p.quiet() if e["type"] != "state" or e["seq"] != ev["seq"]] == []
        advance(room, clock, 0.1)
        notice = p.until(lambda e: e["type"] == "notice")
        assert notice["timeout"] is True and notice["seat"] == "S" and notice["who"] == "Ann (guest)"
        assert (notice["action"], notice["kind"]) == ("P", "call")
        assert notice["text"] == "Ann (guest) ran out of time: Pass was made for them"
        after = p.state(lambda e: e["seq"] > ev["seq"])
        if after["view"]["deal_number"] == ev["view"]["deal_number"]:  # (else everyone passed: a new deal)
            assert after["view"]["auction"][len(ev["view"]["auction"])] == {"seat": "S", "call": "P"}
        south = after["table"]["seats"][2]
        assert (south["timeouts"], south["idle"], south["away"]) == (1, False, False)
        p.send(type="back")
        assert p.error() == "you are not marked away"
        # the second timeout in a row: marked away
        ev = after if my_turn(after) else p.state(my_turn)
        advance(room, clock, ev["table"]["deadline"] - ev["table"]["now"])
        p.until(lambda e: e["type"] == "notice")
        away = p.state(lambda e: e["table"]["seats"][2]["idle"])
        assert away["table"]["seats"][2]["away"] is True and away["table"]["seats"][2]["timeouts"] == 2
        # from now on a bot plays South at once, the clock standing still, and
        # passes whenever South is to call: it never wins a contract for Ann
        ev = p.state(lambda e: e["view"]["phase"] == "PLAY" and e["view"]["trick"] and e["view"]["tricks"])
        contract = ev["view"]["contract"]
        assert contract is not None and contract["seat"] != "S"
        assert {c["call"] for c in ev["view"]["auction"] if c["seat"] == "S"} == {"P"}
        assert ev["table"]["deadline"] is None or not my_turn(ev)
        assert ev["table"]["seats"][2]["timeouts"] == 2  # the bot's moves are not timeouts
        p.send(type="back")
        back = p.state(lambda e: not e["table"]["seats"][2]["idle"])
        assert back["table"]["seats"][2]["away"] is False
        ev = back if my_turn(back) else p.state(my_turn)
        assert ev["table"]["deadline"] is not None  # the timer waits for Ann again
    store = Store(db_url)
    try:
        stored = store.load_table(t["id"])
    finally:
        store.close()
    assert stored is not None and len(stored.timeouts) == 2
    assert all(stored.actions[seq - 1][0] == 2 and stored.actions[seq - 1][3] for seq in stored.timeouts)


def test_a_timed_out_card_is_told_in_words_and_idleness_survives_a_restart(db_url: str) -> None:
    clock = FakeClock(T0)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room:
        ann = new_guest(room, "Ann")
        t = create_table(room, ann, settings={"bid_time": 7, "play_time": 15})
        with peer(room, t["id"], ann) as p:
            ev = start_alone(p)
            # bid by hand (so the auction ends), then let the timer play a card
            while ev["view"]["phase"] != "PLAY":
                legal = ev["view"]["legal"]
                p.send(type="act", action=legal[0], seq=ev["seq"])
                ev = p.state(lambda e, s=ev["seq"]: e["seq"] > s and my_turn(e))
            advance(room, clock, ev["table"]["deadline"] - ev["table"]["now"])
            notice = p.until(lambda e: e["type"] == "notice")
            assert notice["kind"] == "move" and notice["action"] in ev["view"]["legal"]
            assert "was played automatically" in notice["text"] and notice["action"] not in notice["text"]
            ev = p.state(my_turn)
            advance(room, clock, ev["table"]["deadline"] - ev["table"]["now"])
            p.state(lambda e: e["table"]["seats"][2]["idle"])
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room, peer(room, t["id"], ann) as p:
        assert p.state()["table"]["seats"][2]["idle"] is True  # from the stored log


def test_timers_survive_a_restart(db_url: str) -> None:
    clock = FakeClock(T0)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room:
        ann = new_guest(room, "Ann")
        t = create_table(room, ann, settings={"bid_time": 30, "play_time": 30})
        with peer(room, t["id"], ann) as p:
            ev = start_alone(p)
            deadline, seq = ev["table"]["deadline"], ev["seq"]
    # back 10 s before the deadline: the same deadline, re-armed from storage
    clock = FakeClock(deadline - 10)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room, peer(room, t["id"], ann) as p:
        ev = p.state()
        assert (ev["seq"], ev["table"]["deadline"]) == (seq, deadline)
        advance(room, clock, 10)
        assert p.until(lambda e: e["type"] == "notice")["timeout"] is True
        seq += 1
        ev = p.state(my_turn)
        deadline, seq = ev["table"]["deadline"], ev["seq"]
    # back after the deadline passed: the bot plays at once
    late = FakeClock(deadline + 100)
    with TestClient(create_app(db_url, bot_delay=0, clock=late)) as room, peer(room, t["id"], ann) as p:
        ev = p.state(lambda e: e["seq"] > seq)
        assert sum(s["timeouts"] for s in ev["table"]["seats"]) == 2


def test_no_timer_when_off(room: TestClient, clock: FakeClock) -> None:
    ann = new_guest(room, "Ann")
    t = create_table(room, ann)
    with peer(room, t["id"], ann) as p:
        ev = start_alone(p)
        assert ev["table"]["deadline"] is None
        advance(room, clock, 3600)
        assert all(e["type"] == "state" and e["seq"] == ev["seq"] for e in p.quiet())


# ----- chat -------------------------------------------------------------------------------
def _two_players(room: TestClient, settings: dict[str, Any]) -> tuple[str, str, str]:
    ann, bob = new_guest(room, "Ann"), new_guest(room, "Bob")
    t = create_table(room, ann, settings=settings)
    return t["id"], ann, bob


def test_chat_none_is_open_before_and_after_but_not_during_the_game(room: TestClient) -> None:
    tid, ann, _ = _two_players(room, {"chat": "none"})
    with peer(room, tid, ann) as p:
        p.state()
        p.send(type="chat", text="hi before")
        assert p.state(lambda e: bool(e["chat"]))["chat"][-1]["text"] == "hi before"
        start_alone(p, fresh=False)
        p.send(type="chat", text="hello")
        assert p.error() == "chat is off while the game is played"
        p.send(type="chat", text=PRESET_PHRASES["hello"])
        assert p.error() == "chat is off while the game is played"


def test_preset_chat_takes_only_the_phrases(room: TestClient) -> None:
    tid, ann, _ = _two_players(room, {"chat": "preset"})
    with peer(room, tid, ann) as p:
        start_alone(p)
        p.send(type="chat", text="you all play badly")
        assert p.error() == "only the preset phrases can be sent while the game is played"
        p.send(type="chat", text="Well played!")
        line = p.state(lambda e: bool(e["chat"]))["chat"][-1]
        assert (line["text"], line["phrase"]) == ("Well played!", "well_played")
        # a phrase travels as its key; each page shows it in its reader's language
        p.send(type="chat", phrase="good_luck")
        line = p.state(lambda e: len(e["chat"]) == 2)["chat"][-1]
        assert (line["text"], line["phrase"]) == ("Good luck!", "good_luck")
        p.send(type="chat", phrase="no_such_key")
        assert p.error() == "no such phrase: no_such_key"
        p.send(type="chat", phrase="hello", text="Hello!")
        assert "either text or a phrase" in p.error()


def test_chat_is_stored_as_text_rate_limited_and_spectators_have_their_own(
    room: TestClient, clock: FakeClock
) -> None:
    tid, ann, bob = _two_players(room, {})
    with peer(room, tid, ann, "ann") as a, peer(room, tid, bob, "bob") as b:
        start_alone(a)
        b.state()
        b.send(type="chat", text="<b>kibitz</b>")  # a spectator: the spectators' channel
        seen = b.state(lambda e: bool(e["chat"]))["chat"][-1]
        assert (seen["text"], seen["channel"]) == ("<b>kibitz</b>", "spectators")
        assert all(not e.get("chat") for e in a.quiet() if e["type"] == "state")  # players never see it
        for i in range(CHAT_BURST):
            a.send(type="chat", text=f"line {i}")
        last = f"line {CHAT_BURST - 1}"
        assert b.state(lambda e: e["chat"][-1]["text"] == last)["chat"][-1]["channel"] == "players"
        a.send(type="chat", text="one too many")
        assert a.error() == "you are sending messages too fast; wait a few seconds"
        advance(room, clock, CHAT_WINDOW)
        a.send(type="chat", text="again")
        assert a.state(lambda e: e["chat"][-1]["text"] == "again")


def test_spectator_chat_can_be_switched_off(room: TestClient) -> None:
    tid, ann, bob = _two_players(room, {"spectator_chat": False})
    with peer(room, tid, bob) as b:
        b.state()
        b.send(type="chat", text="hello")
        assert b.error() == "spectator chat is off at this table"
    with peer(room, tid, ann) as a:
        a.state()
        a.send(type="chat", text="hosting")  # the host, even without a seat, talks with the players
        line = a.state(lambda e: bool(e["chat"]))["chat"][-1]
        assert (line["text"], line["channel"]) == ("hosting", "players")
        a.send(type="sit", seat="N")
        a.state(lambda e: e["table"]["you"] == "N")
        a.send(type="chat", text="hello")
        assert [c["text"] for c in a.state(lambda e: len(e["chat"]) == 2)["chat"]] == ["hosting", "hello"]
    assert as_guest(room, ann).get(f"/table/{tid}").headers["cache-control"] == "no-store"


# ----- watching ----------------------------------------------------------------------------
def test_no_spectators_once_the_game_starts(room: TestClient) -> None:
    tid, ann, bob = _two_players(room, {"watching": False})
    with peer(room, tid, bob, "bob") as b:
        b.state()  # while the table waits anyone may come to take a seat
        with peer(room, tid, ann, "ann") as a:
            start_alone(a)
            assert b.until(lambda e: e["type"] == "error")["reason"] == "this table does not allow spectators"
            assert b.get() is None  # closed at once
    with peer(room, tid, bob) as b:  # and cannot come back while it is played
        assert b.error() == "this table does not allow spectators"
        assert b.get() is None


def test_at_most_ten_spectators(room: TestClient) -> None:
    ann = new_guest(room, "Ann")
    tid = create_table(room, ann)["id"]
    cookies = [new_guest(room, f"S{i}") for i in range(MAX_SPECTATORS + 1)]
    cms = []
    try:
        for c in cookies[:MAX_SPECTATORS]:
            cm = peer(room, tid, c)
            p = cm.__enter__()
            cms.append(cm)
            p.state()
        with peer(room, tid, cookies[-1]) as late:
            assert late.error() == "this table already has 10 spectators"
            assert late.get() is None
        listed = as_guest(room, ann).get(f"/api/tables/{tid}").json()
        assert listed["spectators"] == MAX_SPECTATORS
    finally:
        for cm in reversed(cms):
            cm.__exit__(None, None, None)


# ----- invitations ---------------------------------------------------------------------------
def test_an_invite_only_table_is_reachable_only_by_its_link(room: TestClient) -> None:
    ann, bob, cy = new_guest(room, "Ann"), new_guest(room, "Bob"), new_guest(room, "Cy")
    t = create_table(room, ann, settings={"private": True})
    tid = t["id"]
    assert as_guest(room, None).get("/api/tables").json() == []  # never listed for others
    closed = as_guest(room, bob).get(f"/table/{tid}")
    assert closed.status_code == 403 and "<p>This table is private: you need an invitation</p>" in closed.text
    assert as_guest(room, bob).get(f"/api/tables/{tid}").json() == {
        "error": "this table is private: you need an invitation"
    }
    with peer(room, tid, bob) as b:
        assert b.error() == "this table is private: you need an invitation"
        assert b.get() is None
    with peer(room, tid, ann) as a:
        code = a.state()["table"]["invite"]
    assert isinstance(code, str) and len(code) == 10
    r = as_guest(room, bob).get(f"/join/{code}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/?join={code}"
    assert (
        as_guest(room, bob)
        .post("/api/join", json={"code": ("y" if code[0] == "x" else "x") + code[1:]})
        .status_code
        == 404
    )
    r = as_guest(room, bob).post("/api/join", json={"code": code})
    assert r.status_code == 200 and r.json() == {"table": tid}
    assert as_guest(room, bob).get(f"/table/{tid}").status_code == 200
    with peer(room, tid, bob, "bob") as b, peer(room, tid, ann, "ann") as a:
        ev = b.state()
        assert "invite" not in ev["table"]  # only the host sees the code
        a.state()
        a.send(type="invite", action="revoke")  # the old link dies; Bob (no seat) loses access at once
        assert (
            b.until(lambda e: e["type"] == "error")["reason"]
            == "this table is private: you need an invitation"
        )
        assert b.get() is None
        new_code = a.state(lambda e: e["table"]["invite"] != code)["table"]["invite"]
    r = as_guest(room, cy).post("/api/join", json={"code": code})
    assert r.status_code == 404 and r.json() == {
        "error": "this invitation is not valid (it may have been revoked)"
    }
    assert as_guest(room, cy).post("/api/join", json={"code": new_code}).status_code == 200


def test_the_host_removes_a_spectator_for_good(room: TestClient) -> None:
    ann, bob = new_guest(room, "Ann"), new_guest(room, "Bob")
    tid = create_table(room, ann)["id"]
    with peer(room, tid, ann, "ann") as a, peer(room, tid, bob, "bob") as b:
        b.state()
        watchers = a.state(lambda e: len(e["table"]["watchers"]) == 1)["table"]["watchers"]
        assert [w["name"] for w in watchers] == ["Bob (guest)"]
        a.send(type="kick", player=watchers[0]["player"])
        assert b.until(lambda e: e["type"] == "error")["reason"] == "you were removed from this table"
        assert b.get() is None
        assert a.state(lambda e: e["table"]["watchers"] == [])["table"]["spectators"] == 0
    with peer(room, tid, bob) as b:
        assert b.error() == "you were removed from this table"
    assert as_guest(room, bob).get(f"/table/{tid}").status_code == 403


# ----- suggestions -----------------------------------------------------------------------------
def test_suggestions_come_from_the_players_view_only_to_that_player(room: TestClient) -> None:
    tid, ann, bob = _two_players(room, {})
    with peer(room, tid, ann, "ann") as a, peer(room, tid, bob, "bob") as b:
        b.state()
        b.send(type="suggest", on=True)
        assert b.error() == "only a player with a seat can ask for suggestions"
        ev = start_alone(a)
        a.send(type="suggest", on=True)
        sug = a.until(lambda e: e["type"] == "suggestion")
        assert sug["seq"] == ev["seq"] and sug["action"] in ev["view"]["legal"]
        assert all(e["type"] != "suggestion" for e in b.quiet())
        a.send(type="act", action=sug["action"], seq=sug["seq"])
        # the next turn brings the next suggestion, without asking again
        nxt = a.state(lambda e: my_turn(e) and e["seq"] > sug["seq"])
        sug2 = a.until(lambda e: e["type"] == "suggestion")
        assert sug2["seq"] == nxt["seq"] and sug2["action"] in nxt["view"]["legal"]
        a.send(type="suggest", on=False)
        assert a.state(lambda e: e["table"]["suggesting"] is False)


def test_suggestions_off_at_the_table_and_in_competitions(room: TestClient) -> None:
    for settings, reason in (
        ({"suggestions": False}, "suggestions are off at this table"),
        ({"buy_in": 30, "suggestions": True}, "suggestions are off at this table (a competition game)"),
    ):
        ann = new_account(room, f"Ann{len(reason)}")
        tid = create_table(room, ann, settings=settings)["id"]
        with peer(room, tid, ann) as a:
            start_alone(a)
            a.send(type="suggest", on=True)
            assert a.error() == reason


# ----- scheduled start ----------------------------------------------------------------------------
def test_a_scheduled_table_starts_on_time_with_bots_in_empty_seats(
    room: TestClient, clock: FakeClock
) -> None:
    ann, bob = new_guest(room, "Ann"), new_guest(room, "Bob")
    t = create_table(room, ann, settings={"start_at": T0 + 3600})
    assert room.get("/api/tables").json()[0]["settings"]["start_at"] == T0 + 3600
    with peer(room, t["id"], ann, "ann") as a, peer(room, t["id"], bob, "bob") as b:
        a.state()
        b.state()
        a.send(type="sit", seat="S")
        b.send(type="sit", seat="N")
        a.state(lambda e: e["table"]["free"] == 2)
        advance(room, clock, 3599)
        assert a.last is not None and a.last["table"]["status"] == "waiting"
        advance(room, clock, 1)
        ev = a.state(lambda e: e["table"]["status"] == "playing")
        assert [s["bot"] for s in ev["table"]["seats"]] == ["rules" if s in "EW" else None for s in "NESW"]
        assert ev["table"]["started"] == T0 + 3600


def test_a_scheduled_start_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0, clock=FakeClock(T0))) as room:
        ann = new_guest(room, "Ann")
        t = create_table(room, ann, settings={"start_at": T0 + 600})
        with peer(room, t["id"], ann) as a:
            a.state()
            a.send(type="fill")  # every seat filled: still waits for its time
            assert a.state(lambda e: e["table"]["free"] == 0)["table"]["status"] == "waiting"
    clock = FakeClock(T0 + 300)
    with TestClient(create_app(db_url, bot_delay=0, clock=clock)) as room:
        assert as_guest(room, ann).get("/api/tables").json()[0]["status"] == "waiting"
        advance(room, clock, 299)
        assert room.get(f"/api/tables/{t['id']}").json()["status"] == "waiting"
        with peer(room, t["id"], ann) as a:
            a.state()
            advance(room, clock, 1)
            assert a.state(lambda e: e["table"]["status"] == "playing")["table"]["started"] == T0 + 600


# ----- competitions --------------------------------------------------------------------------------
def test_a_competition_charges_the_buy_in_and_settles_at_the_end(room: TestClient, db_url: str) -> None:
    """The table charges the buy-in as the game starts and settles it as it
    ends; one person with bots plays for nothing (issue 29): the buy-in
    comes back in full, the end notice says why, and the leaderboard does
    not count the game.  (Prizes between two people: test_competition.)"""
    ann = new_account(room, "Ann")
    tid = create_table(room, ann, "bridge", settings={"buy_in": 110})["id"]  # one board
    assert as_guest(room, ann).get("/api/me/chips").json() == {"chips": 1000}
    with peer(room, tid, ann) as a:
        ev = start_alone(a)
        assert as_guest(room, ann).get("/api/me/chips").json() == {"chips": 890}
        while ev["table"]["status"] != "finished":
            a.send(type="act", action=ev["view"]["legal"][0], seq=ev["seq"])
            seq = ev["seq"]
            ev = a.state(
                lambda e, seq=seq: e["seq"] > seq and (my_turn(e) or e["table"]["status"] == "finished")
            )
        notice = a.until(lambda e: e["type"] == "notice" and e.get("kind") == "unpaid")
        assert notice["text"].startswith("No chips moved: a Compete game pays only when at least two people")
    assert as_guest(room, ann).get("/api/me/chips").json() == {"chips": 1000}
    assert room.get("/api/leaderboard").json()["players"] == []


def test_nobody_sits_at_a_competition_without_the_chips(room: TestClient) -> None:
    ann, bob = new_account(room, "Ann"), new_account(room, "Bob")
    tid = create_table(room, ann, settings={"buy_in": 550})["id"]
    with peer(room, tid, ann) as a:
        start_alone(a)  # Ann pays 550 of her 1000
    r = as_guest(room, ann).post("/api/tables", json={"game": "500", "settings": {"buy_in": 550}})
    assert r.status_code == 400 and r.json() == {"error": "the buy-in is 550 chips and you have 450"}
    tid2 = create_table(room, bob, settings={"buy_in": 550})["id"]
    with peer(room, tid2, ann) as a:
        a.state()
        a.send(type="sit", seat="N")
        assert a.error() == "the buy-in is 550 chips and you have 450"


# ----- bots and empty seats ---------------------------------------------------------------------------
def test_the_host_empties_a_bot_seat_mid_game_and_a_person_takes_it(room: TestClient) -> None:
    tid, ann, bob = _two_players(room, {})
    with peer(room, tid, ann, "ann") as a, peer(room, tid, bob, "bob") as b:
        ev = start_alone(a)
        a.send(type="act", action=ev["view"]["legal"][0], seq=ev["seq"])
        a.state(lambda e: e["seq"] > ev["seq"])
        a.send(type="bot", seat="W", kind=None)
        ev = a.state(lambda e: e["table"]["seats"][3]["empty"])
        assert ev["table"]["status"] == "playing"
        # the game waits at W's turn: nobody plays for an empty seat
        while ev["view"]["to_act"] != "W":
            if my_turn(ev):
                a.send(type="act", action=ev["view"]["legal"][0], seq=ev["seq"])
            seq = ev["seq"]
            ev = a.state(lambda e, seq=seq: e["seq"] > seq)
        assert all(e["seq"] == ev["seq"] for e in a.quiet() if e["type"] == "state")
        b.send(type="sit", seat="W")
        ev = b.state(lambda e: e["table"]["you"] == "W" and my_turn(e))
        b.send(type="act", action=ev["view"]["legal"][0], seq=ev["seq"])
        assert b.state(lambda e: e["seq"] > ev["seq"])


def test_game_names_stay_out_of_this_test() -> None:
    assert "500" in trumps.games()


def test_a_stored_table_with_a_tournaments_fields_it_may_not_have_still_loads() -> None:
    """A Join table whose form named a tournament (accepted before the
    check) loads without them: it plays on, no longer tied to the
    tournament; a tournament's own table keeps them."""
    from trumps.room.tables.settings import TableSettings

    stored = TableSettings.from_stored({"kind": "join", "tournament": "abc", "tournament_deal": 2}, "t1")
    assert stored.kind == "join" and stored.tournament is None and stored.tournament_deal is None
    own = TableSettings.from_stored({"kind": "tournament", "tournament": "abc", "tournament_deal": 2}, "t2")
    assert (own.tournament, own.tournament_deal, own.private) == ("abc", 2, True)
