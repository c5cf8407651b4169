"""The words the lobby shows come from the server: the games' option metadata
(labels, values in words, groups, presets and what they change) at
/api/games, the table settings' labels and words at /api/settings, and each
lobby entry's rules in words (``rules_text``, following the variant: Nullo in
American 500, Misère in Australian) and game name."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient
from test_room import create, guest


def _option(game: dict[str, Any], name: str) -> dict[str, Any]:
    return dict(next(o for o in game["options"] if o["name"] == name))


def test_catalogue_carries_labels_groups_words_and_presets(client: TestClient) -> None:
    games = {g["game"]: g for g in client.get("/api/games").json()}
    five = games["500"]
    assert five["title"] == "500" and games["bridge"]["title"] == "Contract Bridge"
    assert [g["key"] for g in five["groups"]][:2] == ["game", "misere"]
    points = _option(five, "nullo_points")
    assert points["group"] == "misere" and points["help"]
    assert points["label"] == "Nullo (misère) points"  # neutral words: the variation is not chosen yet
    assert points["templates"]["label"] == "{Misere} points"
    assert points["choice_labels"][-1] == {"value": 250, "label": "±250"}
    assert points["when"] == {"nullo_mode": ["after_7", "anytime"]}
    assert five["variants"]["terms"]["australian"]["misere"] == "misère"
    info = five["preset_info"]["australian"]
    assert info["label"] == "Australian rules"
    assert {c["name"]: c["words"] for c in info["changes"]} == {
        "variation": "Australian", "must_bid_to_win": "yes", "nullo_mode": "after a 7 bid",
    }  # fmt: skip
    assert set(five["presets"]) == {"american", "australian"}  # unchanged keys stay


def test_settings_carry_labels_words_and_groups(client: TestClient) -> None:
    meta = {s["name"]: s for s in client.get("/api/settings").json()["settings"]}
    assert meta["private"]["label"] == "Must be invited" and meta["private"]["help"]
    assert meta["bid_time"]["choice_labels"][:2] == [
        {"value": 0, "label": "off"},
        {"value": 7, "label": "7 s"},
    ]
    assert meta["buy_in"]["choice_labels"][0] == {"value": 0, "label": "friendly game"}
    assert {meta[n]["group_label"] for n in ("bid_time", "chat", "watching", "private", "suggestions")} == {
        "Limits"
    }
    assert meta["start_at"]["group_label"] == "When" and meta["buy_in"]["group_label"] == "Winnings"
    assert {"value": False, "text": "no spectators"} in meta["watching"]["summary"]


def test_lobby_entries_carry_the_rules_in_words(client: TestClient) -> None:
    guest(client, "Ann")
    aus = create(client, "500", preset="australian", options={"nullo_points": 230}, settings={"bid_time": 15})
    ame = create(client, "500", preset="american", options={"kitty_size": 5})
    bridge = create(client, "bridge", options={"scoring": "rubber"})
    coinche = create(client, "coinche", preset="ffb_2016")
    assert aus["rules_text"] == "Australian · 2v2 · misère 230"
    assert aus["game_title"] == "500"
    listing = {t["id"]: t for t in client.get("/api/tables").json()}
    assert listing[aus["id"]]["rules_text"] == "Australian · 2v2 · misère 230"
    assert listing[ame["id"]]["rules_text"] == "American · 2v2 · 5-card widow · nullo 250"
    assert listing[bridge["id"]]["rules_text"] == "Rubber"
    assert listing[bridge["id"]]["game_title"] == "Contract Bridge"
    assert listing[coinche["id"]]["rules_text"] == "FFB 2016 · to 2000"
    assert client.get(f"/api/tables/{aus['id']}").json()["rules_text"] == "Australian · 2v2 · misère 230"
    # the records and the API stay language-neutral: keys and engine values
    assert (
        listing[aus["id"]]["options"]["nullo_points"] == 230 and listing[aus["id"]]["preset"] == "australian"
    )
    with client.websocket_connect("/ws/lobby") as ws:
        event = json.loads(ws.receive_text())
    assert {t["rules_text"] for t in event["tables"]} >= {"Rubber", "FFB 2016 · to 2000"}
