"""Personal settings over HTTP: the schema the settings page builds its form
from, an account's values saved and read back, bad values refused, guests
told to keep theirs in the browser."""

from __future__ import annotations

from peers import new_account, new_guest
from starlette.testclient import TestClient


def test_the_schema_offers_the_card_looks(client: TestClient) -> None:
    schema = {s["name"]: s for s in client.get("/api/prefs").json()["schema"]}
    for name in ("four_colours", "high_contrast"):
        assert schema[name]["type"] == "bool" and schema[name]["default"] is False
        assert schema[name]["label"] and schema[name]["help"]
    assert schema["high_contrast"]["label"] == "High-contrast cards"


def test_an_account_saves_high_contrast(client: TestClient) -> None:
    new_account(client, "Hana")
    assert client.get("/api/prefs").json()["values"]["high_contrast"] is False
    r = client.post("/api/prefs", json={"high_contrast": True})
    assert r.status_code == 200, r.text
    assert r.json()["values"]["high_contrast"] is True
    assert r.json()["values"]["four_colours"] is False  # the others unchanged
    values = client.get("/api/prefs").json()["values"]
    assert values["high_contrast"] is True
    # strict: only a boolean, and no unknown setting
    for bad in ({"high_contrast": "yes"}, {"high_contrast": 1}, {"high_contrast_please": True}):
        r = client.post("/api/prefs", json=bad)
        assert r.status_code == 400, bad
    assert client.get("/api/prefs").json()["values"] == values


def test_guests_keep_their_settings_in_the_browser(client: TestClient) -> None:
    new_guest(client, "Gus")
    assert client.get("/api/prefs").json()["values"] is None
    assert client.post("/api/prefs", json={"high_contrast": True}).status_code == 403
