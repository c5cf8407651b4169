"""The tables' leak scan on tournament tables: every message an entrant's
socket got during a whole deal of each game (states, notices, errors, the
answers to a replay request, a refused move, chat and suggestions asked for
where a tournament allows neither) is checked against the stored record
replayed, by the same scanner as the room's other tables
(``tests/room/attacks/test_hidden.py``); and another account that opens the
table's socket, asks for a replay or acts gets no state and no card."""

from __future__ import annotations

import json
from typing import Any

import pytest
from attacks.test_hidden import CARD_WORD, _scan
from starlette.testclient import TestClient

from tournaments.test_tournaments import PASSWORD, instant, register
from trumps.room.web.app import create_app
from trumps.tournaments import PLAYER_SEAT


def _play_recording(client: TestClient, table: str) -> list[dict[str, Any]]:
    """Play South to the end of the deal (the last legal action each turn),
    trying what a hostile page would on the way; every event received."""
    events: list[dict[str, Any]] = []
    tried = False
    with client.websocket_connect(f"/ws/table/{table}") as ws:

        def send(**msg: Any) -> None:
            ws.send_text(json.dumps({"v": 1, **msg}))

        while True:
            ev = json.loads(ws.receive_text())
            events.append(ev)
            if ev["type"] != "state":
                continue
            if ev["view"]["over"]:
                return events
            if ev["table"]["status"] != "playing" or ev["view"]["to_act"] != "S":
                continue
            if not tried:
                tried = True
                send(type="hello", since=1)  # a replay of the deal so far
                send(type="act", action="ZZ", seq=ev["seq"])  # refused
                send(type="act", action=str(ev["view"]["legal"][0]), seq=ev["seq"] - 1)  # stale
                send(type="chat", text="hello")  # no chat at a tournament table
                send(type="suggest", on=True)  # no suggestions either
                send(type="sit", seat="N")  # a bot's seat
            send(type="act", action=str(ev["view"]["legal"][-1]), seq=ev["seq"])


GAMES = [
    pytest.param("500", id="500"),
    pytest.param("bridge", id="bridge"),
    pytest.param("coinche", id="coinche"),
]


@pytest.mark.parametrize("game", GAMES)
def test_a_tournament_deal_leaks_nothing_to_its_player_or_anyone_else(game: str, db_url: str) -> None:
    tid = instant(db_url, game=game, deals=1)
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        register(c, "Ann_t")
        table = c.post(f"/api/tournaments/{tid}/play").json()["table"]
        events = _play_recording(c, table)
    intruded: list[dict[str, Any]] = []
    with TestClient(create_app(db_url, bot_delay=0)) as other:
        register(other, "Eve_t")
        other.post("/api/login", json={"username": "Eve_t", "password": PASSWORD})
        try:
            with other.websocket_connect(f"/ws/table/{table}") as ws:
                for msg in (
                    {"type": "hello", "since": 1},
                    {"type": "act", "action": "P", "seq": 1},
                    {"type": "sit", "seat": "S"},
                ):
                    ws.send_text(json.dumps({"v": 1, **msg}))
                    intruded.append(json.loads(ws.receive_text()))
        except Exception as ex:  # the socket refused outright: nothing received
            intruded.append({"type": "closed", "reason": repr(ex)})
    kinds = {e["type"] for e in events}
    assert "state" in kinds and "error" in kinds, kinds
    assert all(e["type"] != "suggestion" for e in events)
    checked = _scan(db_url, table, {"Ann": events}, {"Ann": lambda seq: PLAYER_SEAT})
    assert checked >= len(events) > 20
    assert intruded and all(e["type"] != "state" and "view" not in e for e in intruded), intruded
    for e in intruded:
        assert not CARD_WORD.findall(json.dumps(e)), e
