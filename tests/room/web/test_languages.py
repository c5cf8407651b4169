"""Which language a page gets: the account's setting, else the header's
choice (cookie), else Accept-Language, else English; the catalogues the
pages load."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from peers import new_account, new_guest
from starlette.testclient import TestClient

from trumps.room.web.app import create_app
from trumps.room.web.languages import COOKIE


@pytest.fixture
def room(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c


def lang_of(client: TestClient, **headers: str) -> str:
    r = client.get("/i18n/catalog.js", headers=headers)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    first = r.text.split("\n", 1)[0]
    data = json.loads(first.removeprefix("window.I18N = ").removesuffix(";"))
    return str(data["lang"])


def test_a_newcomer_gets_the_browsers_language_else_english(room: TestClient) -> None:
    room.cookies.clear()
    assert lang_of(room) == "en"
    assert lang_of(room, **{"Accept-Language": "de-AT,de;q=0.9"}) == "de"
    assert lang_of(room, **{"Accept-Language": "es, fr;q=0.5"}) == "fr"
    assert lang_of(room, **{"Accept-Language": "ja"}) == "en"


def test_the_headers_choice_beats_the_browser(room: TestClient) -> None:
    new_guest(room, "ann")
    room.cookies.set(COOKIE, "fr")
    assert lang_of(room, **{"Accept-Language": "de"}) == "fr"
    room.cookies.set(COOKIE, "xx")  # a cookie nobody offers is ignored
    assert lang_of(room, **{"Accept-Language": "de"}) == "de"


def test_an_accounts_setting_beats_everything_and_auto_defers(room: TestClient) -> None:
    new_account(room, "carla")
    room.cookies.set(COOKIE, "fr")
    assert lang_of(room, **{"Accept-Language": "en"}) == "fr"  # setting "auto": the cookie decides
    r = room.post("/api/prefs", json={"language": "de"})
    assert r.status_code == 200, r.text
    assert lang_of(room, **{"Accept-Language": "fr"}) == "de"
    r = room.post("/api/prefs", json={"language": "klingon"})
    assert r.status_code == 400
    assert lang_of(room) == "de"  # a refused setting changes nothing


def test_the_catalogue_is_revalidated_not_refetched(room: TestClient) -> None:
    room.cookies.clear()
    r = room.get("/i18n/catalog.js", headers={"Accept-Language": "de"})
    etag = r.headers["etag"]
    assert "Accept-Language" in r.headers["vary"]
    again = room.get("/i18n/catalog.js", headers={"Accept-Language": "de", "If-None-Match": etag})
    assert again.status_code == 304
    other = room.get("/i18n/catalog.js", headers={"Accept-Language": "fr", "If-None-Match": etag})
    assert other.status_code == 200


def test_each_languages_json_catalogue(room: TestClient) -> None:
    de = room.get("/i18n/de.json").json()
    assert de["lang"] == "de" and de["plural"] == "(n != 1)"
    assert de["messages"]["Lobby"]
    assert room.get("/i18n/en.json").json()["messages"] == {}
    r = room.get("/i18n/xx.json")
    assert r.status_code == 404 and "unknown language" in r.json()["error"]
