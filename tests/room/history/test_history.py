"""History over HTTP: the replay data, the JSON and PBN exports of finished
games, a player's own game list, and the refusals: unknown tables (404),
games not finished (409, with no card in the answer), private tables (403).
Every test runs on SQLite and on PostgreSQL (the ``client`` fixture)."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient

import trumps
from trumps.bridge.pbn import read_pbn, records_from_game
from trumps.room.history.replays import (
    CLOSED,
    NOT_STARTED,
    STILL_PLAYING,
    build_replay,
    may_replay,
    pbn_export,
    rebuild,
)
from trumps.room.storage.store import StoredTable
from trumps.room.web.app import create_app

COOKIE = "trumps_session"
CARD = re.compile(r'"((?:[AKQJT2-9]|1[0-3])[SHDC]|RJ|BJ)(?::[SHDC])?"')


# ----- helpers ---------------------------------------------------------------------------


def guest(client: TestClient, name: str) -> str:
    """A new guest named ``name``; the client's cookie is now theirs."""
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    cookie = client.cookies.get(COOKIE)
    assert cookie
    return cookie


def be(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)


def create(client: TestClient, game: str, options: dict[str, Any] | None = None) -> str:
    r = client.post("/api/tables", json={"game": game, "options": options or {}})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def recv_state(ws: Any) -> dict[str, Any]:
    while True:
        ev = json.loads(ws.receive_text())
        if ev["type"] == "state":
            return dict(ev)
        if ev["type"] == "error":
            raise AssertionError(ev["reason"])


def play_out(
    client: TestClient, tid: str, seat: str | None = None, stop_when_mine: bool = False
) -> dict[str, Any]:
    """Fill the table with bots (sitting at ``seat`` first, playing its first
    legal action each turn) until the game is over, or with
    ``stop_when_mine`` until it is ``seat``'s turn.  Returns the last state."""
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        ev = recv_state(ws)
        if seat is not None:
            ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": seat}))
            ev = recv_state(ws)
        ws.send_text(json.dumps({"v": 1, "type": "fill"}))
        for _ in range(20_000):
            ev = recv_state(ws)
            v = ev["view"]
            if v["over"]:
                return ev
            if seat is not None and ev["table"]["status"] == "playing" and v["to_act"] == seat:
                if stop_when_mine:
                    return ev
                ws.send_text(json.dumps({"v": 1, "type": "act", "action": v["legal"][0], "seq": ev["seq"]}))
    raise AssertionError("the game did not finish")


def finished_game(client: TestClient, game: str, options: dict[str, Any] | None = None) -> str:
    tid = create(client, game, options)
    last = play_out(client, tid)
    assert last["table"]["status"] == "finished"
    return tid


def refused(r: Any, status: int, error: str) -> None:
    """An exact refusal: the status, a JSON error and nothing else."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    assert r.json() == {"error": error}


# ----- refusals ---------------------------------------------------------------------------


def test_unknown_table_is_404(client: TestClient) -> None:
    guest(client, "Ann")
    for path in ("/api/tables/nope/replay", "/api/tables/nope/record", "/api/tables/nope/record?format=pbn"):
        refused(client.get(path), 404, "no table 'nope'")
    page = client.get("/replay/nope")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "<p>No such table</p>" in page.text and 'href="/"' in page.text and 'name="viewport"' in page.text
    fr = client.get("/replay/nope", headers={"Accept-Language": "fr"})
    assert fr.status_code == 404 and '<html lang="fr">' in fr.text and "No such table" not in fr.text


def test_a_game_not_finished_shows_nothing(client: TestClient) -> None:
    host = guest(client, "Ann")
    tid = create(client, "bridge")
    # waiting for players
    for path in ("replay", "record", "record?format=pbn"):
        refused(client.get(f"/api/tables/{tid}/{path}"), 409, NOT_STARTED)
    # under way: the host sits at S and it is S's turn; nobody (the host
    # included, a spectator neither) gets the hands
    ev = play_out(client, tid, seat="S", stop_when_mine=True)
    assert ev["table"]["status"] == "playing"
    spectator = guest(client, "Bob")
    for who in (host, spectator):
        be(client, who)
        for path in ("replay", "record", "record?format=json", "record?format=pbn"):
            refused(client.get(f"/api/tables/{tid}/{path}"), 409, STILL_PLAYING)
        # the page itself is static: it holds no game data and says why (from the API)
        page = client.get(f"/replay/{tid}")
        assert page.status_code == 200 and "replay.js" in page.text
        assert not CARD.findall(page.text)
    # the host's game list shows the table as being played: public facts only, no card
    be(client, host)
    listed = client.get("/api/me/games").json()["games"]
    assert [g["id"] for g in listed] == [tid]
    entry = listed[0]
    assert entry["status"] == "playing" and entry["seat"] == "S" and entry["host"] is True
    assert entry["links"] == {"table": f"/table/{tid}", "replay": None, "json": None, "pbn": None}
    assert entry["winner"] is None and entry["result"] is None and entry["scores"] == [0, 0]
    scrubbed = json.dumps({**entry, "options": None})
    assert not CARD.findall(scrubbed), scrubbed


def test_bad_format_and_pbn_for_other_games(client: TestClient) -> None:
    guest(client, "Ann")
    tid = finished_game(client, "coinche", {"target_score": 1})
    refused(client.get(f"/api/tables/{tid}/record?format=xml"), 400, "unknown format 'xml' (json or pbn)")
    refused(
        client.get(f"/api/tables/{tid}/record?format=pbn"),
        400,
        "coinche games have no PBN export (only JSON)",
    )


def test_private_tables_replay_only_for_their_players() -> None:
    seats = {0: ("p1", None), 1: (None, "rules"), 2: ("p2", None), 3: (None, "rules")}
    public = SimpleNamespace(settings={}, access={}, seats=seats, host="h")
    assert may_replay(public, None) and may_replay(public, "stranger")  # type: ignore[arg-type]
    for settings in ({"private": True}, {"watching": False}):
        closed = SimpleNamespace(settings=settings, access={"invited": ["inv"]}, seats=seats, host="h")
        allowed = {who: may_replay(closed, who) for who in (None, "stranger", "h", "p1", "p2", "inv")}  # type: ignore[arg-type]
        assert allowed == {None: False, "stranger": False, "h": True, "p1": True, "p2": True, "inv": True}
    assert CLOSED.startswith("this table was private")


# ----- finished games ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        pytest.param("bridge", {}, id="bridge"),
        pytest.param("coinche", {"target_score": 1}, id="coinche"),
        pytest.param("500", {}, id="500"),
        pytest.param("500", {"players": "3v3"}, id="500-3v3"),
    ],
)
def test_finished_game_replay_and_record(client: TestClient, game: str, options: dict[str, Any]) -> None:
    guest(client, "Ann")
    tid = finished_game(client, game, options)

    # the JSON record: a download that loads back and reproduces the scores
    r = client.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="trumps-{game}-{tid}.json"'
    record = r.json()
    assert record["game"] == game and record["over"] is True
    match = trumps.load_game(record)
    assert match.is_over and match.scores == record["scores"] and match.winner == record["winner"]
    assert match.to_json() == record

    # the replay
    r = client.get(f"/api/tables/{tid}/replay", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    data = r.json()
    assert data == client.get(f"/api/tables/{tid}/replay", headers={"Accept-Encoding": "identity"}).json()
    # the calls' labels, for the page to show "Pass" (in the reader's language), not "P"
    assert data["presentation"] == trumps.new_game(game, options=options).presentation()
    assert data["presentation"]["labels"]["P"] == "Pass"
    assert data["id"] == tid and data["game"] == game
    assert data["sheet"] == {
        "teams": data["teams"],
        "results": record["results"],
        "scores": record["scores"],
        "winner": record["winner"],
    }
    assert data["exports"] == {
        "json": f"/api/tables/{tid}/record",
        "pbn": f"/api/tables/{tid}/record?format=pbn" if game == "bridge" else None,
    }
    assert [p["bot"] for p in data["players"]] == ["rules"] * match.players
    steps = data["steps"]
    assert [s["index"] for s in steps] == list(range(len(steps)))
    actions = [s for s in steps if s["kind"] != "deal"]
    assert [(s["seat"], s["action"]) for s in actions] == [
        (a["seat"], a["action"]) for a in record["actions"]
    ]
    assert [s["action_index"] for s in actions] == list(range(1, len(record["actions"]) + 1))
    # one "deal" step per deal, showing it as dealt: every hand face up
    deal_steps = [s for s in steps if s["kind"] == "deal"]
    assert len(deal_steps) == len(data["deals"]) == len(record["deals"]) == len(record["results"])
    for n, (s, dealt, rec) in enumerate(zip(deal_steps, data["deals"], record["deals"], strict=True), 1):
        assert s["deal"] == n == dealt["number"] and dealt["first_step"] == s["index"]
        assert dealt["hands"] == rec["hands"] and dealt["result"] == record["results"][n - 1]
        assert {seat: sorted(h) for seat, h in s["state"]["hands"].items()} == {
            seat: sorted(h) for seat, h in rec["hands"].items()
        }
    assert data["deals"][-1]["last_step"] == len(steps) - 1
    # every step shows every hand; a card leaves the hand it was played from
    for prev, s in itertools.pairwise(steps):
        assert all(isinstance(h, list) for h in s["state"]["hands"].values())
        if s["kind"] == "card":
            assert s["card"] in prev["state"]["hands"][s["hand"]]
            if (
                s["phase"] == "PLAY"
                and s["state"]["phase"] not in ("DONE", "GAME_OVER")
                and s["deal"] == prev["deal"]
            ):
                assert s["card"] not in s["state"]["hands"][s["hand"]]
                on_table = s["state"]["trick"] or [
                    {"card": c} for c in (s["state"]["last_trick"] or {}).get("cards", [])
                ]
                assert s["card"] in [p["card"].split(":")[0] for p in on_table]
        else:
            assert s["card"] is None and s["hand"] is None
    # the last finished trick says who played each card
    for s in steps:
        last = s["state"]["last_trick"]
        if last is not None:
            assert len(last["seats"]) == len(last["cards"]) and last["seats"][0] == last["leader"]
    final = steps[-1]["state"]
    assert final["over"] is True and final["scores"] == record["scores"]
    assert final["results_count"] == len(record["results"])
    # a deal's last step shows it as it ended: its result counted, the last trick shown
    for dealt in data["deals"]:
        end = steps[dealt["last_step"]]["state"]
        assert end["results_count"] == dealt["number"]
        if dealt["result"].get("contract") and not dealt["result"].get("thrown_in"):
            assert end["trick"] == [] and end["last_trick"] is not None
            assert all(h == [] for seat, h in end["hands"].items() if seat not in end.get("sitting_out", []))


def test_bridge_pbn_export_loads_back(client: TestClient) -> None:
    guest(client, "Ann")
    tid = create(client, "bridge")
    play_out(client, tid, seat="N")  # Ann plays North herself
    r = client.get(f"/api/tables/{tid}/record?format=pbn")
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="trumps-bridge-{tid}.pbn"'
    assert r.headers["content-type"].startswith("application/vnd.pbn")
    text = r.text
    assert text.startswith("% PBN 2.1\n% EXPORT\n")
    records = read_pbn(text)  # strict: no defect
    match = trumps.load_game(client.get(f"/api/tables/{tid}/record").json())
    expected = records_from_game(match)
    assert len(records) == len(expected) == len(match.results) == 1
    for got, want in zip(records, expected, strict=True):
        assert got.hands == want.hands
        assert (got.dealer, got.vulnerable, got.board) == (want.dealer, want.vulnerable, want.board)
        assert got.auction == want.auction and got.auction_first == want.auction_first
        assert got.play == want.play and got.play_complete == want.play_complete
        assert (got.contract, got.declarer, got.result, got.passed_out) == (
            want.contract,
            want.declarer,
            want.result,
            want.passed_out,
        )
        assert got.score == want.score
        if not got.passed_out:  # a passed-out board has no Score tag (computed: 0)
            assert got.score == got.computed_score()
        assert got.tags["Event"] == f"trumps table {tid}"
        assert [got.tags[s] for s in ("North", "East", "South", "West")] == [
            "Ann (guest)",
            *["bot (rules)"] * 3,
        ]
        # the engine agrees with the file: the play replays to the recorded result
        if got.play_complete:
            assert got.replay() == got.result
    result = match.results[0]
    if not result["passed_out"]:
        assert str(records[0].contract) == result["contract"] and records[0].result == result["tricks"]


def test_a_passed_out_board_replays_and_exports() -> None:
    """Built straight from a stored table (no database): a board the four
    players pass out has a replay with no card and a PBN ``Pass`` record."""
    options = trumps.game_class("bridge").schema.resolve(None, {}).to_dict()
    dealer = trumps.new_game("bridge", options=options, seed=7).first_dealer
    stored = StoredTable(
        id="t1", game="bridge", preset=None, options=options, seed=7, host="h", status="finished", created=0.0,
        seats={0: ("h", None), 1: (None, "rules"), 2: (None, "rules"), 3: (None, "rules")},
        actions=[((dealer + i) % 4, "P", 100.0 + i, i > 0) for i in range(4)],
    )  # fmt: skip
    data = build_replay(stored, {"h": "Ann"})
    assert [s["kind"] for s in data["steps"]] == ["deal", "call", "call", "call", "call"]
    assert [s["auto"] for s in data["steps"][1:]] == [False, True, True, True]
    assert data["finished"] == 103.0
    assert data["deals"][0]["result"]["passed_out"] is True
    assert data["players"][0] == {"seat": "N", "name": "Ann", "bot": None}
    end = data["steps"][-1]["state"]
    assert end["over"] and end["last_trick"] is None and sum(map(len, end["hands"].values())) == 52
    (rec,) = read_pbn(pbn_export(rebuild(stored), stored, {"h": "Ann"}))
    assert rec.passed_out and rec.contract is None and rec.play == []
    assert [str(c) for c in rec.auction or []] == ["P"] * 4 and rec.auction_first == dealer
    assert rec.tags["Date"] == "1970.01.01" and rec.tags["North"] == "Ann"


# ----- the game list and restarts ---------------------------------------------------------


def test_own_game_list_shows_exactly_the_callers_games(client: TestClient) -> None:
    ann = guest(client, "Ann")
    ann_done = finished_game(client, "coinche", {"target_score": 1})  # hosted, only watched
    ann_waiting = create(client, "500")
    bob = guest(client, "Bob")
    bob_table = create(client, "bridge")
    play_out(client, bob_table, seat="E")  # Bob plays East to the end
    cy = guest(client, "Cy")
    with client.websocket_connect(f"/ws/table/{ann_waiting}") as ws:  # Cy sits at Ann's table
        recv_state(ws)
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "W"}))
        assert recv_state(ws)["table"]["you"] == "W"
    guest(client, "Dee")
    assert client.get("/api/me/games").json()["games"] == []

    def ids(cookie: str) -> list[str]:
        be(client, cookie)
        r = client.get("/api/me/games")
        assert r.status_code == 200
        return [g["id"] for g in r.json()["games"]]

    assert sorted(ids(ann)) == sorted([ann_done, ann_waiting])
    assert ids(bob) == [bob_table]
    assert ids(cy) == [ann_waiting]

    be(client, bob)
    body = client.get("/api/me/games").json()
    assert body["name"] == "Bob (guest)"
    (g,) = body["games"]
    match = trumps.load_game(client.get(f"/api/tables/{bob_table}/record").json())
    assert g["status"] == "finished" and g["seat"] == "E" and g["host"] is True
    assert g["scores"] == match.scores and g["winner"] == match.winner
    assert g["result"] == ("drawn" if match.winner is None else "won" if match.winner == 1 else "lost")
    assert g["links"] == {
        "table": None,
        "replay": f"/replay/{bob_table}",
        "json": f"/api/tables/{bob_table}/record",
        "pbn": f"/api/tables/{bob_table}/record?format=pbn",
    }
    assert [(s["seat"], s["name"], s["bot"]) for s in g["seats"]] == [
        ("N", None, "rules"),
        ("E", "Bob (guest)", None),
        ("S", None, "rules"),
        ("W", None, "rules"),
    ]
    assert g["finished"] is not None and g["finished"] >= g["created"] and g["actions"] > 0

    be(client, ann)
    games = {g["id"]: g for g in client.get("/api/me/games").json()["games"]}
    watched = games[ann_done]
    assert watched["seat"] is None and watched["host"] is True and watched["result"] is None
    assert watched["links"]["replay"] == f"/replay/{ann_done}" and watched["links"]["pbn"] is None
    waiting = games[ann_waiting]
    assert waiting["status"] == "waiting" and waiting["links"]["table"] == f"/table/{ann_waiting}"

    client.cookies.clear()
    refused(client.get("/api/me/games"), 401, "choose a name first")
    page = client.get("/games")
    assert page.status_code == 200 and "games.js" in page.text


def test_finished_games_are_read_from_storage_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        ann = guest(c, "Ann")
        tid = create(c, "coinche", {"target_score": 1})
        play_out(c, tid, seat="S")
        before = c.get(f"/api/tables/{tid}/replay").json()
        record = c.get(f"/api/tables/{tid}/record").json()
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        be(c, ann)
        assert c.get(f"/api/tables/{tid}").status_code == 404  # not live any more
        assert c.get(f"/replay/{tid}").status_code == 200
        assert c.get(f"/api/tables/{tid}/replay").json() == before
        assert c.get(f"/api/tables/{tid}/record").json() == record
        assert before["players"][2] == {"seat": "S", "name": "Ann (guest)", "bot": None}
        (g,) = c.get("/api/me/games").json()["games"]
        assert g["id"] == tid and g["status"] == "finished" and g["scores"] == record["scores"]
        # a spectator (no name) may replay a public table too
        c.cookies.clear()
        assert c.get(f"/api/tables/{tid}/replay").status_code == 200
        # the cached data is what a fresh build gives
        assert Counter(s["kind"] for s in before["steps"])["deal"] == len(record["deals"])
