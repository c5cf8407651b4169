"""Issue 29: a table whose stored actions cannot be replayed at a start-up
(a corrupt action, options the engine refuses) is set aside as broken, so
the room starts and its other tables run; the broken ones are not listed,
stay set aside at later starts, and ``trumps admin broken`` lists them and
clears the mark (SQLite and PostgreSQL).  The 0004 migration keeps what was
stored before it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient
from test_migrations import upgrade
from test_room import _sit_and_fill, create, guest, recv_state

from trumps.cli.main import main
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app


def _admin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["admin", "broken", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _corrupt(db_url: str, bad_action: str, bad_options: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.execute(text("UPDATE actions SET action = 'ZZ' WHERE table_id = :t AND seq = 1"), {"t": bad_action})
        c.execute(
            text("UPDATE tables SET options = :o WHERE id = :t"),
            {"o": '{"variation": "x"}', "t": bad_options},
        )
    engine.dispose()


def test_a_table_that_cannot_be_resumed_is_set_aside(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    ids: list[str] = []
    with TestClient(create_app(db_url, bot_delay=0)) as c1:
        guest(c1, "Ann")
        cookie = c1.cookies.get("trumps_session")
        for _ in range(3):
            t = create(c1)
            ids.append(t["id"])
            with c1.websocket_connect(f"/ws/table/{t['id']}") as ws:
                ev = _sit_and_fill(ws)
                ws.send_text(
                    json.dumps({"v": 1, "type": "act", "action": ev["view"]["legal"][0], "seq": ev["seq"]})
                )
                recv_state(ws)
    good, bad_action, bad_options = ids
    _corrupt(db_url, bad_action, bad_options)
    for _start in range(2):  # set aside at the first start, and not tried again at the next
        with TestClient(create_app(db_url, bot_delay=0)) as c2:
            assert cookie is not None
            c2.cookies.set("trumps_session", cookie)
            assert [x["id"] for x in c2.get("/api/tables").json()] == [good]
            assert c2.get(f"/api/tables/{bad_action}").status_code == 404
            with c2.websocket_connect(f"/ws/table/{good}") as ws:
                ev = recv_state(ws)
                while ev["view"]["to_act"] != "S":
                    ev = recv_state(ws)
                ws.send_text(
                    json.dumps({"v": 1, "type": "act", "action": ev["view"]["legal"][0], "seq": ev["seq"]})
                )
                assert recv_state(ws)["seq"] == ev["seq"] + 1  # the good table runs
    code, out, _err = _admin(capsys, "--db", db_url)
    lines = sorted(line.split("\t") for line in out.splitlines())
    assert code == 0 and sorted(row[0] for row in lines) == sorted([bad_action, bad_options])
    reasons = {row[0]: row for row in lines}
    assert reasons[bad_action][1] == "500" and "ZZ" in reasons[bad_action][3]
    assert reasons[bad_options][3]  # the engine's complaint about the options
    code, out, _err = _admin(capsys, "--db", db_url, "--clear", bad_action)
    assert code == 0 and "playing" in out
    code, out, _err = _admin(capsys, "--db", db_url)
    assert [line.split("\t")[0] for line in out.splitlines()] == [bad_options]
    code, out, err = _admin(capsys, "--db", db_url, "--clear", good)
    assert code == 2 and err.startswith("trumps: error: no broken table") and not out
    store = Store(db_url)
    try:
        st = store.load_table(bad_action)
        assert st is not None and st.status == "playing" and st.actions[0][1] == "ZZ"  # nothing lost
    finally:
        store.close()


def test_admin_refuses_a_database_that_is_not_there(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.db"
    code, _out, err = _admin(capsys, "--db", f"sqlite:///{missing}")
    assert code == 2 and err == f"trumps: error: no room database at 'sqlite:///{missing}'\n"
    assert not missing.exists()


def test_0004_keeps_tables_and_marks_none_broken(db_url: str) -> None:
    upgrade(db_url, "0003")
    engine = create_engine(db_url)
    with engine.begin() as c:
        c.execute(text("INSERT INTO players (id, name, created, chips) VALUES ('g1', 'Ann', 1.0, 5)"))
        c.execute(
            text(
                "INSERT INTO tables (id, game, options, seed, host, status, created) "
                "VALUES ('t1', '500', '{}', 7, 'g1', 'playing', 2.0)"
            )
        )
    engine.dispose()
    store = Store(db_url)  # migrates to the head
    try:
        st = store.load_table("t1")
        assert st is not None and st.status == "playing" and st.seed == 7 and st.host == "g1"
        assert store.broken_tables() == []
        store.mark_broken("t1", "ValueError: test")
        assert [(r["id"], r["reason"]) for r in store.broken_tables()] == [("t1", "ValueError: test")]
    finally:
        store.close()
