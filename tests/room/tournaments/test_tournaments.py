"""Duplicate tournaments in the room, through its API and sockets: the
daily ones made once, a deal played at a table with the plan's bots, its
score stored as it ends, nothing of a deal shown before it is played, no
deal played twice, guests unranked, and a score lost to a crash made again
from the table's record."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_room import guest, recv_state
from waiting import wait_until

from trumps.core import registry
from trumps.room.storage.db import DealScoreRow, EntryRow, TournamentRow
from trumps.room.storage.store import Store
from trumps.room.tournaments import records
from trumps.room.web.app import create_app
from trumps.tournaments import PLAYER_SEAT, TournamentPlan

PASSWORD = "correct horse 1"


def register(client: TestClient, username: str) -> str:
    r = client.post("/api/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return str(r.json()["player"])


def instant(db_url: str, game: str = "coinche", deals: int = 3, target: int = 5, seed: int = 4) -> str:
    store = Store(db_url)
    try:
        plan = TournamentPlan.make(game, deals, seed, bots="easy")
        return records.make_instant(store, plan, target, time.time())
    finally:
        store.close()


def play_deal(client: TestClient, table: str, pick: int = 0) -> dict[str, Any]:
    """Play South's turns (the ``pick``-th legal action, bounded) to the end of the deal."""
    with client.websocket_connect(f"/ws/table/{table}") as ws:
        ev = recv_state(ws)
        while not ev["view"]["over"]:
            if ev["table"]["status"] == "playing" and ev["view"]["to_act"] == "S":
                legal = ev["view"]["legal"]
                ws.send_text(
                    json.dumps(
                        {"v": 1, "type": "act", "action": legal[min(pick, len(legal) - 1)], "seq": ev["seq"]}
                    )
                )
            ev = recv_state(ws)
        return ev


def test_the_daily_tournaments_are_listed_once_for_any_visitor(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        first = c.get("/api/tournaments").json()["tournaments"]
        again = c.get("/api/tournaments").json()["tournaments"]
    assert [t["id"] for t in first] == [t["id"] for t in again]
    daily = {t["game"]: t for t in first if t["kind"] == "daily"}
    assert set(daily) == {"bridge", "500", "coinche"}
    assert (daily["bridge"]["deals"], daily["500"]["deals"], daily["coinche"]["deals"]) == (8, 6, 8)
    instant_ones = {(t["game"], t["scoring"]): t for t in first if t["kind"] == "instant"}
    assert set(instant_ones) == {  # an instant one of each game and scoring too (bridge: cross-IMPs as well)
        ("bridge", "matchpoints"), ("bridge", "imps"), ("500", "matchpoints"), ("coinche", "matchpoints")
    } and len(first) == 7  # fmt: skip
    assert all(t["target"] and t["deals"] <= 4 for t in instant_ones.values())
    for t in daily.values():
        assert (
            t["scoring"] == "matchpoints" and t["entrants"] == 0 and t["closes_at"] - t["opens_at"] == 86_400
        )
        assert "seed" not in json.dumps(t) and "plan" not in t  # the seed deals every hand


def test_a_daily_tournaments_cards_cannot_be_dealt_from_the_day(db_url: str) -> None:
    """The attack: the plan of a seed derived from the game and the day is
    public code, so an entrant could deal every hand of every deal offline
    (the bots' included).  The room's daily plan has a secret seed."""
    from datetime import UTC, datetime

    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Eve_t")
        daily = next(
            t
            for t in c.get("/api/tournaments").json()["tournaments"]
            if t["kind"] == "daily" and t["game"] == "bridge"
        )
        table = c.post(f"/api/tournaments/{daily['id']}/play").json()["table"]
        with c.websocket_connect(f"/ws/table/{table}") as ws:
            hand = recv_state(ws)["view"]["hands"]["S"]
    store = Store(db_url)
    try:
        stored = records.get(store, daily["id"])
    finally:
        store.close()
    assert stored is not None
    day = datetime.fromtimestamp(daily["opens_at"], UTC).date()
    public = TournamentPlan.daily("bridge", day, bots=stored.plan.bots)
    assert stored.plan.seed != public.seed and stored.plan.deals == public.deals
    assert stored.plan.preset == public.preset
    predicted = public.new_deal(0).view(PLAYER_SEAT)["hands"]["S"]
    assert sorted(map(str, predicted)) != sorted(map(str, hand))
    dealt = stored.plan.new_deal(0).view(PLAYER_SEAT)["hands"]["S"]
    assert sorted(map(str, dealt)) == sorted(map(str, hand))  # the stored plan dealt what the player holds


def test_an_entrant_plays_every_deal_once_and_sees_each_deal_only_after_playing_it(db_url: str) -> None:
    tid = instant(db_url)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        before = c.get(f"/api/tournaments/{tid}").json()
        assert [d["played"] for d in before["sheets"]] == [False, False, False]
        assert all(set(d) == {"deal", "played"} for d in before["sheets"])  # nothing of an unplayed deal
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        assert c.post(f"/api/tournaments/{tid}/play").json()["table"] == table  # the same deal, not a new one
        end = play_deal(c, table)
        assert end["table"]["status"] == "finished" and len(end["view"]["results"]) == 1
        after = c.get(f"/api/tournaments/{tid}").json()
        assert after["sheets"][0]["played"] and after["sheets"][0]["results"][0]["me"]
        assert after["sheets"][0]["value"] == 50.0  # alone on the deal: the average
        assert [d["played"] for d in after["sheets"][1:]] == [False, False]
        tables = {table}
        for _ in range(2):
            nxt = c.post(f"/api/tournaments/{tid}/play").json()["table"]
            assert nxt not in tables
            tables.add(nxt)
            play_deal(c, nxt)
        done = c.post(f"/api/tournaments/{tid}/play")
        assert done.status_code == 409 and "every deal" in done.json()["error"]
        listed = next(t for t in c.get("/api/tournaments").json()["tournaments"] if t["id"] == tid)
        assert listed["me"]["finished"] and listed["me"]["position"] == 1 and listed["finished"] == 1


def test_a_second_entrant_is_compared_and_a_guest_is_not_ranked(db_url: str) -> None:
    tid = instant(db_url, deals=1)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"], pick=0)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Bob_t")
        bob_table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        mid = c.get(f"/api/tournaments/{tid}").json()
        assert "results" not in mid["sheets"][0]  # Ann's result is hidden from Bob until he has played
        play_deal(c, bob_table, pick=1)
        seen = c.get(f"/api/tournaments/{tid}").json()
        names = sorted(r["name"] for r in seen["sheets"][0]["results"])
        assert names == ["Ann_t", "Bob_t"]
        values = sorted(r["value"] for r in seen["sheets"][0]["results"])
        assert sum(values) == 100.0  # two results: 100/0 or 50/50
        assert [r["replay"] is None for r in seen["sheets"][0]["results"] if not r["me"]] == [True]
        assert {r["name"] for r in seen["ranking"]} == {"Ann_t", "Bob_t"}
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        guest(c, "Cat")
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"])
        seen = c.get(f"/api/tournaments/{tid}").json()
        assert "Cat" not in {r["name"] for r in seen["ranking"]}
        assert any(r["me"] for r in seen["sheets"][0]["results"])  # she sees her own result


def test_guests_cannot_enter_a_daily_tournament(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        guest(c, "Dan")
        daily = c.get("/api/tournaments").json()["tournaments"][0]
        r = c.post(f"/api/tournaments/{daily['id']}/play")
        assert r.status_code == 409 and "accounts" in r.json()["error"]
        assert c.post("/api/tournaments/nope/play").status_code == 404
        assert 400 <= c.post("/api/tournaments/../play").status_code < 500
        assert c.get("/api/tournaments/%00").status_code in (400, 404)  # a control character: refused
        assert c.get("/api/tournaments/nope").status_code == 404


def test_nobody_else_reaches_a_tournament_table_and_no_request_makes_one(db_url: str) -> None:
    tid = instant(db_url, deals=1)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        made = c.post(
            "/api/tables",
            json={
                "game": "coinche",
                "settings": {"kind": "tournament", "tournament": tid, "tournament_deal": 0},
            },
        )
        assert made.status_code == 400
        c.cookies.clear()
        guest(c, "Eve")
        assert table not in [t["id"] for t in c.get("/api/tables").json()]
        assert c.get(f"/api/tables/{table}").status_code == 403  # invitation-only, and nobody is invited
        with c.websocket_connect(f"/ws/table/{table}") as ws:
            ev = json.loads(ws.receive_text())
            assert ev["type"] == "error" or all(h is None for h in ev["view"]["hands"].values())


def test_two_entrants_who_play_the_same_cards_meet_the_same_bots(db_url: str) -> None:
    tid = instant(db_url, game="500", deals=1)
    logs = []
    for name in ("Ann_t", "Bob_t"):
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            register(c, name)
            table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
            play_deal(c, table, pick=1)  # the lowest bid, then the second card
            record = c.get(f"/api/tables/{table}/record").json()
            logs.append([(a["seat"], a["action"]) for a in record["actions"]])
    assert logs[0] == logs[1] and len(logs[0]) > 20


def lose_the_score(db_url: str, tid: str, player: str, table: str) -> None:
    """Deal 1's score gone and the entry still at its table, as if the
    worker died between the deal's last card and its score."""
    store = Store(db_url)
    try:
        with store.sessions.begin() as s:
            s.delete(s.get(DealScoreRow, (tid, player, 0)))
            s.get(EntryRow, (tid, player)).table_id = table
    finally:
        store.close()


def test_a_score_lost_to_a_crash_is_made_again_from_the_table(db_url: str) -> None:
    tid = instant(db_url, deals=2)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        player = register(c, "Ann_t")
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        play_deal(c, table)
        score = c.get(f"/api/tournaments/{tid}").json()["sheets"][0]["score"]
    lose_the_score(db_url, tid, player, table)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        c.post("/api/login", json={"username": "Ann_t", "password": PASSWORD})
        again = c.get(f"/api/tournaments/{tid}").json()
        assert again["sheets"][0]["played"] and again["sheets"][0]["score"] == score
        nxt = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        assert nxt != table


def test_a_score_lost_to_a_crash_is_made_again_when_the_next_deal_is_asked_for(db_url: str) -> None:
    tid = instant(db_url, deals=3)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        player = register(c, "Ann_t")
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        play_deal(c, table)
    lose_the_score(db_url, tid, player, table)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        c.post("/api/login", json={"username": "Ann_t", "password": PASSWORD})
        nxt = c.post(f"/api/tournaments/{tid}/play").json()["table"]  # no page read first
        assert nxt != table
        sheets = c.get(f"/api/tournaments/{tid}").json()["sheets"]
        assert [d["played"] for d in sheets] == [True, False, False]
        view = recv_state_of(c, nxt)
        assert view["table"]["settings"]["tournament_deal"] == 1  # deal 2, not deal 1 again


def recv_state_of(c: TestClient, table: str) -> dict[str, Any]:
    with c.websocket_connect(f"/ws/table/{table}") as ws:
        return recv_state(ws)


def test_the_next_deal_and_the_results_are_one_storage_call_each(db_url: str) -> None:
    """Under a full room every storage call waits its turn on the database
    thread (``docs/benchmarks.md``: 500 entrants); the next deal's table is
    one call (:func:`records.start_play`) beside the new table's group
    commit, and the page's results after a deal one read."""
    tid = instant(db_url, deals=3)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"])
        room = c.app.state.current_room()  # type: ignore[attr-defined]
        # the deal's score is stored just after its last state went out: counted
        # before that, the page's read finds the table finished without a score and
        # repairs it (load_table, record_score), as it must
        wait_until(
            lambda: (b := records.board(room.store, tid)) is not None and bool(b.results), what="the score"
        )
        calls: list[str] = []
        run, read = room.store.run, room.store.read

        async def counted_run(fn: Any, *args: Any) -> Any:
            calls.append(fn.__name__)
            return await run(fn, *args)

        async def counted_read(fn: Any, *args: Any) -> Any:
            calls.append(fn.__name__)
            return await read(fn, *args)

        room.store.run, room.store.read = counted_run, counted_read
        try:
            c.get(f"/api/tournaments/{tid}")
            after_deal = [x for x in calls if x != "session_player_info"]
            calls.clear()
            c.post(f"/api/tournaments/{tid}/play")
            next_deal = [x for x in calls if x != "session_player_info"]
        finally:
            room.store.run, room.store.read = run, read
    assert after_deal == ["board"], after_deal
    assert next_deal == ["start_play"]


def test_a_deal_left_unfinished_is_closed_with_its_tournament(db_url: str) -> None:
    tid = instant(db_url, deals=2)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        assert recv_state_of(c, table)["table"]["status"] == "playing"  # left half way (before her turn)
        room = c.app.state.current_room()  # type: ignore[attr-defined]
        assert table in room.tables
    store = Store(db_url)
    try:
        with store.sessions.begin() as s:  # the tournament's day has passed while the room was down
            s.get(TournamentRow, tid).closes_at = time.time() + 4
    finally:
        store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        room = c.app.state.current_room()  # type: ignore[attr-defined]
        assert room.tables[table].status == "playing"  # resumed, and closed when the tournament closes
        deadline = time.time() + 15
        while table in room.tables and time.time() < deadline:
            time.sleep(0.1)
        assert table not in room.tables
        c.post("/api/login", json={"username": "Ann_t", "password": PASSWORD})
        again = c.post(f"/api/tournaments/{tid}/play")
        assert again.status_code == 409 and "closed" in again.json()["error"]
    store = Store(db_url)
    try:
        st = store.load_table(table)
        assert st is not None and st.status == "closed"
    finally:
        store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as c:  # not resumed at the next start
        assert table not in c.app.state.current_room().tables  # type: ignore[attr-defined]


def test_others_replays_open_only_when_the_tournament_has_closed(db_url: str) -> None:
    tid = instant(db_url, deals=1)
    tables = {}
    for name in ("Ann_t", "Bob_t"):
        with TestClient(create_app(db_url, bot_delay=0)) as c:
            register(c, name)
            tables[name] = c.post(f"/api/tournaments/{tid}/play").json()["table"]
            play_deal(c, tables[name])
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        c.post("/api/login", json={"username": "Bob_t", "password": PASSWORD})
        assert c.get(f"/api/tables/{tables['Bob_t']}/replay").status_code == 200  # his own
        assert c.get(f"/api/tables/{tables['Ann_t']}/replay").status_code == 403  # hers, while open
        assert c.get(f"/api/tables/{tables['Ann_t']}/record").status_code == 403
    store = Store(db_url)
    try:
        with store.sessions.begin() as s:
            s.get(TournamentRow, tid).closed_at = time.time()
    finally:
        store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        c.post("/api/login", json={"username": "Bob_t", "password": PASSWORD})
        assert c.get(f"/api/tables/{tables['Ann_t']}/replay").status_code == 200
        seen = c.get(f"/api/tournaments/{tid}").json()
        assert not seen["open"] and all(r["replay"] for r in seen["sheets"][0]["results"])
        assert c.post(f"/api/tournaments/{tid}/play").status_code == 409  # closed


def test_the_profile_lists_the_players_tournaments(db_url: str) -> None:
    tid = instant(db_url, deals=2)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        assert c.get("/api/players/Ann_t").json()["tournaments"] == []
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"])
        [mine] = c.get("/api/players/Ann_t").json()["tournaments"]
        assert (mine["id"], mine["played"], mine["finished"], mine["position"], mine["of"]) == (
            tid,
            1,
            False,
            1,
            1,
        )


@pytest.mark.parametrize("game", ["bridge", "500", "coinche"])
def test_a_deal_shows_its_double_dummy_par_once_played(game: str, db_url: str) -> None:
    tid = instant(db_url, game=game, deals=2)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"])
        deadline = time.time() + 60
        while True:  # (worked out in the background from the deal's first table; 500's takes seconds)
            sheets = c.get(f"/api/tournaments/{tid}").json()["sheets"]
            if "par" in sheets[0] or time.time() > deadline:
                break
            time.sleep(0.5)
        par = sheets[0]["par"]
        assert isinstance(par["score"], int) and isinstance(par["contracts"], list)
        assert "par" not in sheets[1]  # the deal not played: nothing of it
    store = Store(db_url)
    try:
        plan = records.get(store, tid)
        assert plan is not None
        match = plan.plan.new_deal(0)
    finally:
        store.close()
    expected = registry.spec(game).hook("deal_par")(match)  # what the game's own par says, South's side
    assert par["score"] == expected["scores"][match.team_of(PLAYER_SEAT)]
    assert par["contracts"] == expected["contracts"]


def test_a_slow_par_is_worked_out_once_and_never_holds_the_sheet(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The par starts as the deal's table is made; a reading of the sheet
    meanwhile waits a second at most (without the par), and however many
    readings there are, the par is worked out once."""
    import threading

    import trumps.coinche.par

    calls: list[int] = []
    release = threading.Event()
    real = trumps.coinche.par.deal_par

    def slow(match: Any) -> Any:
        calls.append(1)
        release.wait(30)
        return real(match)

    monkeypatch.setattr(trumps.coinche.par, "deal_par", slow)
    tid = instant(db_url, game="coinche", deals=1)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        play_deal(c, c.post(f"/api/tournaments/{tid}/play").json()["table"])
        t0 = time.monotonic()
        first = [c.get(f"/api/tournaments/{tid}").json()["sheets"][0] for _ in range(3)]
        assert time.monotonic() - t0 < 6 and all(s["played"] and "par" not in s for s in first)
        release.set()
        deadline = time.time() + 30
        while "par" not in c.get(f"/api/tournaments/{tid}").json()["sheets"][0] and time.time() < deadline:
            time.sleep(0.2)
        assert "par" in c.get(f"/api/tournaments/{tid}").json()["sheets"][0]
    assert len(calls) == 1


def test_two_requests_at_once_on_two_workers_make_one_table(db_url: str) -> None:
    """Play pressed in two tabs at the same moment, reaching two workers (two
    rooms on one database here): one table for the deal, never two of a deal
    whose cards the person would have seen."""
    import threading

    tid = instant(db_url, deals=2)
    with TestClient(create_app(db_url, bot_delay=0)) as c1, TestClient(create_app(db_url, bot_delay=0)) as c2:
        register(c1, "Ann_t")
        c2.cookies.update(c1.cookies)
        got: list[str] = []
        go = threading.Barrier(2)

        def press(c: TestClient) -> None:
            go.wait()
            r = c.post(f"/api/tournaments/{tid}/play")
            got.append(r.json().get("table", r.text))

        threads = [threading.Thread(target=press, args=(c,)) for c in (c1, c2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert len(got) == 2 and got[0] == got[1], got


def test_a_closed_instant_tournament_is_followed_by_a_new_one(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        first = {
            (t["game"], t["scoring"]): t["id"]
            for t in c.get("/api/tournaments").json()["tournaments"]
            if t["kind"] == "instant"
        }
        store = Store(db_url)
        try:
            with store.sessions.begin() as s:
                s.get(TournamentRow, first["500", "matchpoints"]).closed_at = time.time()
        finally:
            store.close()
        now = {
            (t["game"], t["scoring"]): t["id"]
            for t in c.get("/api/tournaments").json()["tournaments"]
            if t["kind"] == "instant"
        }
        assert now["500", "matchpoints"] != first["500", "matchpoints"]
        assert now["bridge", "imps"] == first["bridge", "imps"] and len(now) == 4
