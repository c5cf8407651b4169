"""A coinche table stored before the ffb_2016 / pagat fix (issue 19) comes
back with the rules it was created with: the room stores a table's full
options, so its score sheet keeps the old values, while a new table of the
same preset scores by the corrected rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import trumps
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app

RECORDS = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "coinche" / "records_before_preset_fix.json").read_text()
)


@pytest.mark.parametrize("preset", sorted(RECORDS))
def test_a_table_stored_before_the_fix_keeps_its_scores(db_url: str, preset: str) -> None:
    record = RECORDS[preset]
    store = Store(db_url)
    host = store.create_player("Ann")
    tid = store.create_table("coinche", preset, record["options"], record["seed"], host, 4)
    game = trumps.new_game("coinche", options=record["options"], seed=record["seed"])
    for seq, a in enumerate(record["actions"], start=1):
        store.append_action(tid, seq, game.seat(a["seat"]), a["action"], 0.0, False)
    store.set_status(tid, "playing", started=1.0)
    store.close()
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table = client.get(f"/api/tables/{tid}").json()
        assert table["scores"] == record["scores"]
        # today's preset gives other totals for the same play
        now = trumps.new_game("coinche", preset=preset, seed=record["seed"])
        for a in record["actions"]:
            now.apply(a["action"], a["seat"])
        assert now.scores != record["scores"]
        r = client.post("/api/guest", json={"name": "Bo"})
        assert r.status_code == 200
        r = client.post("/api/tables", json={"game": "coinche", "preset": preset})
        assert r.status_code == 201
        fresh = r.json()["options"]
        assert fresh != record["options"]
        assert (fresh["coinche_formula"], fresh["belote_on_failure"]) == (
            ("base_plus_bid_times_m", "kept") if preset == "pagat" else ("all_times_m", "to_defence")
        )
