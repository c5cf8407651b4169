"""The post-game analysis over HTTP (``GET /api/tables/{tid}/review?deal=N``):
the refusals (404, 409, 403, 400), exact costs for a constructed bridge
board with one known blunder, agreement with :func:`trumps.bots.suggest.review`
and with :func:`trumps.solver.solve` on games played in the room, the time
limit, solver failures as JSON errors, one analysis per deal (cached), and
an event loop that keeps serving while a deal is analysed."""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import trumps
from trumps.bots.solving import solve_values
from trumps.bots.suggest import review
from trumps.room.history import review as review_module
from trumps.room.history.replays import CLOSED, NOT_STARTED, STILL_PLAYING
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app
from trumps.solver import solve

sys.path.insert(0, str(Path(__file__).parent))
from test_history import be, create, finished_game, guest, play_out, refused
from waiting import wait_until

#: the keys :func:`review` gives; the route adds ``by`` and ``analysed``
REVIEW_KEYS = ("index", "deal", "seat", "card", "cost", "value", "best", "unit")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'room.db'}"


@pytest.fixture
def lite(sqlite_url: str) -> Iterator[TestClient]:
    """A client on SQLite only: the analysis reads the database as the replay does."""
    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        yield c


def get_review(client: TestClient, tid: str, deal: int) -> dict[str, Any]:
    r = client.get(f"/api/tables/{tid}/review?deal={deal}")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def common(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: row[k] for k in REVIEW_KEYS} for row in rows]


# ----- refusals ----------------------------------------------------------------------------


def test_refusals_follow_the_replay(client: TestClient) -> None:
    host = guest(client, "Ann")
    refused(client.get("/api/tables/nope/review?deal=1"), 404, "no table 'nope'")
    tid = create(client, "bridge")
    refused(client.get(f"/api/tables/{tid}/review?deal=1"), 409, NOT_STARTED)
    ev = play_out(client, tid, seat="S", stop_when_mine=True)
    assert ev["table"]["status"] == "playing"
    refused(client.get(f"/api/tables/{tid}/review?deal=1"), 409, STILL_PLAYING)

    # a private table's analysis is for its players only, like its replay
    r = client.post(
        "/api/tables", json={"game": "coinche", "options": {"target_score": 1}, "settings": {"private": True}}
    )
    assert r.status_code == 201, r.text
    private = r.json()["id"]
    assert play_out(client, private)["table"]["status"] == "finished"
    guest(client, "Bob")
    refused(client.get(f"/api/tables/{private}/review?deal=1"), 403, CLOSED)
    be(client, host)
    deals = len(client.get(f"/api/tables/{private}/record").json()["deals"])
    for bad in ("", "?deal=", "?deal=0", "?deal=x", "?deal=-1", f"?deal={deals + 1}"):
        refused(
            client.get(f"/api/tables/{private}/review{bad}"),
            400,
            f"give the deal to analyse: ?deal=N with N from 1 to {deals}",
        )
    body = get_review(client, private, 1)
    assert body["table"] == private and body["deal"] == 1 and body["deals"] == deals


# ----- exact costs -------------------------------------------------------------------------


def blunder_board(seed: int) -> tuple[list[tuple[int, str]], dict[str, Any]]:
    """A bridge board 1NT by the dealer, passed out after it, played with
    best double-dummy play by everyone except one card: from the third
    trick on, the first time the declaring side holds a card that loses a
    trick, it plays the worst one.  Returns the actions and what the solvers
    say of the blunder: its action index, the card, the cost, the values.

    The play follows DDS (as the analysis does: the project's solver takes
    a minute on a bridge opening lead); at the blunder the project's solver
    must give the same values."""
    match = trumps.new_game("bridge", seed=seed)
    actions: list[tuple[int, str]] = []

    def act(action: str) -> None:
        seat = match.to_act_index
        assert seat is not None
        actions.append((seat, action))
        match.apply(action, seat)

    act("1NT")
    for _ in range(3):
        act("P")
    blunder: dict[str, Any] = {}
    while not match.is_over:
        vals = solve_values(match)
        top = max(vals.values.values()) if vals.maximising else min(vals.values.values())
        best = [c for c, v in vals.values.items() if v == top]
        choice = best[0]
        if not blunder and vals.maximising and len(actions) >= 12:  # the declaring side to play
            worst = min(vals.values, key=lambda c: vals.values[c])
            if vals.values[worst] < top:
                sol = solve(match)  # the project's solver agrees with DDS
                assert {c: float(v) for c, v in sol.values.items()} == vals.values
                assert sorted(sol.best) == sorted(best)
                blunder = {
                    "index": len(actions), "card": worst, "cost": top - vals.values[worst],
                    "before": top, "after": vals.values[worst], "best": best,
                }  # fmt: skip
                choice = worst
        act(choice)
    assert blunder, "no card of the declaring side could lose a trick"
    assert match.results[0]["tricks"] == blunder["after"]  # best play after it: the solver's value
    return actions, blunder


def test_a_known_blunder_costs_exactly_what_the_solver_says(sqlite_url: str) -> None:
    seed = 11
    actions, blunder = blunder_board(seed)
    options = trumps.game_class("bridge").schema.resolve(None, {}).to_dict()
    store = Store(sqlite_url)
    try:
        host = store.create_player("Ann")
        tid = store.create_table("bridge", None, options, seed, host=host, seats=4)
        for seat in range(4):
            store.set_seat(tid, seat, None, "rules")
        for i, (seat, action) in enumerate(actions):
            store.append_action(tid, i + 1, seat, action, 1000.0 + i, False)
        store.set_status(tid, "finished")
    finally:
        store.close()

    with TestClient(create_app(sqlite_url, bot_delay=0)) as c:
        body = get_review(c, tid, 1)
        record = c.get(f"/api/tables/{tid}/record").json()
    assert body["complete"] is True and body["unit"] == "tricks" and body["deals"] == 1
    cards = body["cards"]
    assert [row["index"] for row in cards] == list(range(4, 56))  # every card, in play order
    assert [row["card"] for row in cards] == [a for _s, a in actions[4:]]
    assert all(row["analysed"] for row in cards)
    costly = [row for row in cards if row["cost"]]
    assert costly == [
        {
            "index": blunder["index"], "deal": 1, "seat": costly[0]["seat"], "by": costly[0]["by"],
            "card": blunder["card"], "cost": blunder["cost"], "value": blunder["after"],
            "best": blunder["best"], "unit": "tricks", "analysed": True,
        }
    ]  # fmt: skip
    declarer = record["results"][0]["declarer"]
    dummy = "NESW"[("NESW".index(declarer) + 2) % 4]
    assert costly[0]["by"] == declarer and costly[0]["seat"] in (declarer, dummy)
    # best play keeps the double-dummy value: before the blunder the board's value, after it the result
    for row in cards:
        if row["value"] is not None:
            assert row["value"] == (
                blunder["before"] if row["index"] < blunder["index"] else blunder["after"]
            )
    # the declarer's total is the blunder; the defenders made none
    assert body["totals"][declarer] == {"cards": 26, "mistakes": 1, "cost": blunder["cost"]}
    assert all(t["cost"] == 0 and t["mistakes"] == 0 for s, t in body["totals"].items() if s != declarer)
    assert sum(t["cards"] for t in body["totals"].values()) == 52
    # the route and the bots' review agree, card for card
    assert common(cards) == review(record)


# ----- agreement with review() and the solver on games played in the room -------------------


@pytest.mark.parametrize(
    ("game", "options", "deals"),
    [
        pytest.param("bridge", {}, 1, id="bridge"),
        pytest.param("coinche", {}, 3, id="coinche"),
        pytest.param("500", {}, 3, id="500"),
    ],
)
def test_route_agrees_with_review_and_the_solver(
    lite: TestClient, game: str, options: dict[str, Any], deals: int
) -> None:
    guest(lite, "Ann")
    tid = finished_game(lite, game, options)
    record = lite.get(f"/api/tables/{tid}/record").json()
    expected = review(record)
    match = type(trumps.load_game(record))._from_record(record)
    actions = record["actions"]
    applied = 0
    for deal in range(1, min(deals, len(record["deals"])) + 1):
        body = get_review(lite, tid, deal)
        cards = body["cards"]
        assert body["complete"] is True and all(row["analysed"] for row in cards)
        assert common(cards) == [row for row in expected if row["deal"] == deal]
        assert body["unit"] == (None if not cards else "points" if game == "coinche" else "tricks")
        # each card's value is the solver's for it; a best card costs 0, the others what they lose
        for row in cards:
            while applied < row["index"]:
                match.apply(actions[applied]["action"], actions[applied]["seat"])
                applied += 1
            sol = solve(match)
            top = max(sol.values.values()) if sol.maximising else min(sol.values.values())
            assert row["cost"] >= 0
            assert (row["cost"] == 0) == (row["card"] in sol.best or len(sol.values) == 1)
            if row["value"] is None:  # forced: the only legal card
                assert list(sol.values) == [row["card"]] and row["best"] == [row["card"]]
                continue
            assert row["value"] == sol.values[row["card"]]
            assert row["cost"] == abs(top - row["value"])
            assert sorted(row["best"]) == sorted(sol.best)
        per_seat = {s: sum(r["cost"] for r in cards if r["by"] == s) for s in body["totals"]}
        assert {s: t["cost"] for s, t in body["totals"].items()} == per_seat
        assert sum(t["cards"] for t in body["totals"].values()) == len(cards)
        # asked again: the same answer, from the cache
        assert get_review(lite, tid, deal) == body


# ----- limits and failures ----------------------------------------------------------------


def test_the_time_limit_leaves_cards_unanalysed(lite: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    guest(lite, "Ann")
    tid = finished_game(lite, "coinche", {"target_score": 1})
    record = lite.get(f"/api/tables/{tid}/record").json()
    deal = next(n for n, r in enumerate(record["results"], 1) if not r.get("passed_out"))
    monkeypatch.setattr(review_module, "REVIEW_SECONDS", 0.05)  # not even time to start the worker
    body = get_review(lite, tid, deal)
    assert body["complete"] is False and body["limit"] == 0.05
    cards = body["cards"]
    assert [c["card"] for c in cards] == [r["card"] for r in review(record) if r["deal"] == deal]
    assert all(not c["analysed"] and c["cost"] is None and c["best"] == [] for c in cards)
    assert all(t == {"cards": 0, "mistakes": 0, "cost": 0} for t in body["totals"].values())
    monkeypatch.setattr(review_module, "REVIEW_SECONDS", 20.0)
    assert get_review(lite, tid, deal) == body  # kept: a finished game's analysis is made once


def fake_worker(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_solver_failures_are_json_errors(lite: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    guest(lite, "Ann")
    tid = finished_game(lite, "coinche", {"target_score": 1})
    said = (
        "import json, sys; sys.stdin.read(); print(json.dumps({'error': 'SolverError: boom'})); sys.exit(1)"
    )
    monkeypatch.setattr(review_module, "REVIEW_COMMAND", fake_worker(said))
    refused(
        lite.get(f"/api/tables/{tid}/review?deal=1"),
        503,
        "the double-dummy analysis of deal 1 failed: SolverError: boom",
    )
    died = "import sys; sys.stdin.read(); sys.stderr.write('Fatal: out of memory'); sys.exit(3)"
    monkeypatch.setattr(review_module, "REVIEW_COMMAND", fake_worker(died))
    r = lite.get(f"/api/tables/{tid}/review?deal=1")
    assert r.status_code == 503 and r.headers["content-type"] == "application/json"
    # the exit status is 3; on a loaded machine asyncio's child watcher may lose it (255,
    # "Unknown child process"): the reason the worker gave is what must reach the client
    error = r.json()["error"]
    assert re.fullmatch(
        r"the double-dummy analysis of deal 1 failed: the analysis worker stopped "
        r"\(exit status (3|255)\): Fatal: out of memory",
        error,
    ), error
    monkeypatch.undo()  # a failure is not kept: the next request tries again
    assert get_review(lite, tid, 1)["complete"] is True


def test_one_analysis_per_deal_and_the_loop_keeps_serving(
    lite: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    guest(lite, "Ann")
    tid = finished_game(lite, "coinche", {"target_score": 1})
    runs = tmp_path / "runs"
    slow = (
        f"import time; open({str(runs)!r}, 'a').write('run\\n'); time.sleep(2); "
        "from trumps.room.history.review import review_worker; review_worker()"
    )
    monkeypatch.setattr(review_module, "REVIEW_COMMAND", fake_worker(slow))
    answers: list[dict[str, Any]] = []

    def ask() -> None:
        answers.append(get_review(lite, tid, 1))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    wait_until(runs.exists, timeout=30, what="the analysis worker to start")
    # while the deal is being analysed the server answers other requests at once
    start = time.monotonic()
    assert lite.get(f"/api/tables/{tid}/replay").status_code == 200
    assert lite.get("/api/games").status_code == 200
    assert time.monotonic() - start < 1.0
    assert all(t.is_alive() for t in threads)
    for t in threads:
        t.join(timeout=60)
    assert len(answers) == 2 and answers[0] == answers[1] and answers[0]["complete"] is True
    assert runs.read_text() == "run\n"  # both waited for the same worker
    get_review(lite, tid, 1)
    assert runs.read_text() == "run\n"  # then it came from the cache
    json.dumps(answers[0])  # plain JSON data
