"""Accounts and sessions over HTTP, with the attacks: registration rules,
argon2id hashes only in the database, login throttling (measured), session
revocation ending open WebSockets, cross-site requests refused, guests
turned into accounts, and chips that cannot be farmed."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from peers import COOKIE, new_account, new_guest
from sqlalchemy import select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from trumps.i18n import translator
from trumps.room.people import accounts
from trumps.room.storage.db import STARTING_CHIPS, LoginFailure, Player, SessionRow
from trumps.room.storage.store import Store
from trumps.room.web.app import create_app

PASSWORD = "correct horse 1"


def register(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, object]:
    r = client.post("/api/register", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return dict(r.json())


def login(client: TestClient, username: str, password: str = PASSWORD) -> int:
    client.cookies.clear()
    return client.post("/api/login", json={"username": username, "password": password}).status_code


def test_register_log_in_log_out(client: TestClient) -> None:
    me = register(client, "Ann_1")
    assert me["account"] is True and me["name"] == "Ann_1" and me["chips"] == STARTING_CHIPS
    assert client.get("/api/me").json()["username"] == "Ann_1"
    assert client.post("/api/logout").status_code == 200
    assert client.get("/api/me").json()["player"] is None
    assert login(client, "ann_1") == 200  # usernames are case-insensitive
    assert client.get("/api/me").json()["name"] == "Ann_1"  # shown as registered
    assert login(client, "ANN_1", "wrong password") == 400


@pytest.mark.parametrize(
    ("username", "password", "error"),
    [
        ("ab", PASSWORD, "a username has 3 to 24 characters"),
        ("x" * 25, PASSWORD, "a username has 3 to 24 characters"),
        ("ann smith", PASSWORD, "no spaces"),
        ("Ann (guest)", PASSWORD, "no spaces"),
        ("_ann", PASSWORD, "starting with a letter or digit"),
        ("Admin", PASSWORD, "reserved"),
        ("ann", "short", "a password has 8 to 128 characters"),
        ("annabel", "AnnaBel", "a password has 8 to 128 characters"),
        ("annabelle", "AnnaBelle", "the password must not be the username"),
    ],
)
def test_registration_rules(client: TestClient, username: str, password: str, error: str) -> None:
    r = client.post("/api/register", json={"username": username, "password": password})
    assert r.status_code == 400 and error in r.json()["error"]
    assert client.get("/api/me").json()["player"] is None  # nothing was made


def test_usernames_are_unique_without_regard_to_case(client: TestClient) -> None:
    register(client, "Bob")
    client.cookies.clear()
    r = client.post("/api/register", json={"username": "bOB", "password": PASSWORD})
    assert r.status_code == 400 and r.json() == {"error": "that username is taken; choose another"}


def test_only_an_argon2id_hash_is_stored(client: TestClient, db_url: str) -> None:
    register(client, "Cyd", "a very secret phrase")
    store = Store(db_url)
    try:
        with store.sessions() as s:
            row = s.scalar(select(Player).where(Player.username_key == "cyd"))
            assert row is not None and row.password_hash is not None
            assert row.password_hash.startswith("$argon2id$")
            assert "a very secret phrase" not in row.password_hash
            tokens = list(s.scalars(select(SessionRow.id)))
    finally:
        store.close()
    # the cookie's token is never stored, only its SHA-256
    cookie = client.cookies.get(COOKIE)
    assert cookie is not None and cookie not in tokens and accounts.token_id(cookie) in tokens


def test_the_password_is_never_logged(db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        register(client, "Dee", "hunter2hunter2")
        login(client, "Dee", "hunter2hunter2")
        login(client, "Dee", "wrong-guess-1")
    assert "hunter2hunter2" not in caplog.text and "wrong-guess-1" not in caplog.text


def test_the_same_answer_whether_or_not_the_username_exists(client: TestClient) -> None:
    register(client, "Eve")
    client.cookies.clear()
    a = client.post("/api/login", json={"username": "Eve", "password": "not it at all"})
    b = client.post("/api/login", json={"username": "Nobody_here", "password": "not it at all"})
    assert a.status_code == b.status_code == 400
    assert a.json() == b.json() == {"error": "wrong username or password"}


def test_failed_logins_are_throttled_per_account_and_address(db_url: str) -> None:
    """Measured: the first five failures answer at once; then each try is
    refused for a delay that doubles; a right password is refused too
    while the delay runs; the delay is forgotten after a success."""
    store = Store(db_url)
    try:
        pid = accounts.register(store, "Fay", PASSWORD)
        t = 1_000_000.0
        for i in range(accounts.FREE_TRIES):
            with pytest.raises(accounts.AccountError, match="wrong username or password"):
                accounts.login(store, "Fay", f"guess {i}", "10.0.0.1", now=t + i)
        # the sixth try within a second: refused before the password is even checked
        with pytest.raises(accounts.Throttled) as exc:
            accounts.login(store, "Fay", PASSWORD, "10.0.0.2", now=t + 4.5)
        assert exc.value.retry_after >= 1
        assert accounts.login(store, "Fay", PASSWORD, "10.0.0.2", now=t + 10) == pid  # after the delay
        delays = []
        for n in range(4):  # per address: another account, the same attacker address
            now = t + 100 + 1000 * n
            for i in range(accounts.FREE_TRIES + n):
                try:
                    accounts.login(store, f"victim{n}", f"x{i}", "10.9.9.9", now=now + i * 2000)
                except accounts.Throttled:
                    pass
                except accounts.AccountError:
                    pass
            with store.sessions() as s:
                row = s.get(LoginFailure, "addr:10.9.9.9")
                assert row is not None
            try:
                accounts.login(store, "someone", "x", "10.9.9.9", now=row.last + 0.5)
                delays.append(0.0)
            except accounts.Throttled as e:
                delays.append(e.retry_after)
            except accounts.AccountError:
                delays.append(0.0)
        assert delays[-1] > 0 and delays == sorted(delays)
    finally:
        store.close()


def test_throttled_over_http_with_retry_after(client: TestClient) -> None:
    register(client, "Gus")
    client.cookies.clear()
    codes = [
        client.post("/api/login", json={"username": "Gus", "password": f"nope {i}"}).status_code
        for i in range(accounts.FREE_TRIES + 1)
    ]
    assert codes[: accounts.FREE_TRIES] == [400] * accounts.FREE_TRIES
    r = client.post("/api/login", json={"username": "Gus", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert "too many failed logins" in r.json()["error"]


def test_log_out_everywhere_ends_open_websockets(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        cookie1 = new_account(client, "Hal")
        client.cookies.clear()
        assert login(client, "Hal") == 200
        cookie2 = client.cookies.get(COOKIE)
        assert cookie2 is not None and cookie2 != cookie1
        client.cookies.clear()
        client.cookies.set(COOKIE, cookie1)
        with client.websocket_connect("/ws/lobby") as ws:
            assert json.loads(ws.receive_text())["type"] == "lobby"
            client.cookies.clear()
            client.cookies.set(COOKIE, cookie2)
            assert client.post("/api/logout-all").status_code == 200
            ev = json.loads(ws.receive_text())
            assert ev == {"v": 1, "type": "error", "reason": "you were logged out"}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_text()
        for cookie in (cookie1, cookie2):
            client.cookies.clear()
            client.cookies.set(COOKIE, cookie)
            assert client.get("/api/me").json()["player"] is None  # both sessions are gone


def test_a_changed_password_ends_the_other_sessions(client: TestClient) -> None:
    other = new_account(client, "Ida")
    client.cookies.clear()
    assert login(client, "Ida") == 200
    r = client.post("/api/password", json={"old": "wrong", "new": "a new password"})
    assert r.status_code == 400 and r.json() == {"error": "the current password is wrong"}
    r = client.post("/api/password", json={"old": PASSWORD, "new": "a new password"})
    assert r.status_code == 200 and r.json()["ended"] == 1
    assert client.get("/api/me").json()["name"] == "Ida"  # this session stays
    client.cookies.clear()
    client.cookies.set(COOKIE, other)
    assert client.get("/api/me").json()["player"] is None  # the other one is revoked
    assert login(client, "Ida") == 400 and login(client, "Ida", "a new password") == 200


def test_a_forged_or_stale_session_is_nobody(client: TestClient) -> None:
    client.cookies.set(COOKIE, "made-up-token")
    assert client.get("/api/me").json()["player"] is None
    assert client.post("/api/tables", json={"game": "500"}).status_code == 401
    cookie = new_account(client, "Joe")
    client.post("/api/logout")
    client.cookies.set(COOKIE, cookie)  # the old cookie, replayed
    assert client.get("/api/me").json()["player"] is None


def test_a_guest_becomes_an_account_and_keeps_games_and_chips(client: TestClient, db_url: str) -> None:
    new_guest(client, "Kim")
    guest = client.get("/api/me").json()
    assert guest["name"] == "Kim (guest)" and guest["account"] is False and guest["chips"] == 0
    t = client.post("/api/tables", json={"game": "500"}).json()
    me = register(client, "Kim")
    assert me["player"] == guest["player"] and me["name"] == "Kim" and me["chips"] == STARTING_CHIPS
    assert client.get(f"/api/tables/{t['id']}").json()["host"] == guest["player"]
    # registering again (or a second account from the same guest) grants nothing twice
    client.post("/api/logout")
    register(client, "Kim2")
    assert client.get("/api/me").json()["chips"] == STARTING_CHIPS


def test_clearing_cookies_mints_no_chips(client: TestClient) -> None:
    for i in range(3):
        client.cookies.clear()
        client.post("/api/guest", json={"name": f"Farmer {i}"})
        assert client.get("/api/me").json()["chips"] == 0
        assert client.get("/api/me/chips").json() == {"chips": 0}


def test_a_guest_cannot_buy_in(client: TestClient) -> None:
    new_guest(client, "Lou")
    r = client.post("/api/tables", json={"game": "500", "settings": {"kind": "compete", "buy_in": 30}})
    assert r.status_code == 400 and "Compete games are for accounts" in r.json()["error"]
    new_account(client, "Max")
    t = client.post("/api/tables", json={"game": "500", "settings": {"kind": "compete", "buy_in": 30}}).json()
    new_guest(client, "Lou")
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        json.loads(ws.receive_text())
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "N"}))
        ev = json.loads(ws.receive_text())
        assert ev["type"] == "error" and "Compete games are for accounts" in ev["reason"]


def test_guest_names_are_marked(client: TestClient) -> None:
    new_guest(client, "Ann")
    assert client.get("/api/me").json()["name"] == "Ann (guest)"
    t = client.post("/api/tables", json={"game": "500"}).json()
    with client.websocket_connect(f"/ws/table/{t['id']}") as ws:
        json.loads(ws.receive_text())
        ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": "S"}))
        while True:
            ev = json.loads(ws.receive_text())
            if ev["type"] == "state" and ev["table"]["you"] == "S":
                break
        assert ev["table"]["seats"][2]["name"] == "Ann (guest)"


# ----- cross-site requests ----------------------------------------------------------------------
def test_cross_site_posts_are_refused_and_change_nothing(client: TestClient) -> None:
    new_account(client, "Ned")
    before = client.get("/api/tables").json()
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/tables", json={"game": "500"}, headers=evil)
    assert r.status_code == 403 and r.json() == {"error": "cross-site request refused"}
    r = client.post("/api/logout-all", headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403
    r = client.post(
        "/api/password", content=b'{"old":"x","new":"y"}', headers={"Referer": "https://evil.example/x"}
    )
    assert r.status_code == 403
    # a form post (no JSON) cannot carry a request either
    r = client.post(
        "/api/tables", content=b"game=500", headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 415
    assert client.get("/api/tables").json() == before
    assert client.get("/api/me").json()["name"] == "Ned"  # still logged in
    # the room's own pages may
    own = {"Origin": "http://testserver"}
    assert client.post("/api/tables", json={"game": "500"}, headers=own).status_code == 201


def test_cross_site_websockets_are_refused(client: TestClient) -> None:
    new_account(client, "Oli")
    with (
        pytest.raises(WebSocketDisconnect) as exc,
        client.websocket_connect("/ws/me", headers={"Origin": "https://evil.example"}) as ws,
    ):
        ws.receive_text()
    assert exc.value.code == 4403
    with client.websocket_connect("/ws/me", headers={"Origin": "http://testserver"}) as ws:
        assert json.loads(ws.receive_text())["type"] == "me"


def test_sessions_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    with TestClient(create_app(url, bot_delay=0)) as client:
        cookie = new_account(client, "Pia")
    with TestClient(create_app(url, bot_delay=0)) as client:
        client.cookies.set(COOKIE, cookie)
        assert client.get("/api/me").json()["name"] == "Pia"


def test_old_guest_cookies_still_work_and_are_swapped(tmp_path: Path) -> None:
    """A guest of the previous version (a signed ``trumps_player`` cookie)."""
    from itsdangerous import URLSafeSerializer

    url = f"sqlite:///{tmp_path / 'room.db'}"
    store = Store(url)
    pid = store.create_player("Quinn")
    cookie = URLSafeSerializer(store.secret(), salt="trumps-player").dumps(pid)
    store.close()
    with TestClient(create_app(url, bot_delay=0)) as client:
        client.cookies.set("trumps_player", cookie)
        me = client.get("/api/me").json()
        assert me["player"] == pid and me["name"] == "Quinn (guest)"
        assert client.cookies.get(COOKIE)  # now a session
        client.cookies.delete("trumps_player")
        assert client.get("/api/me").json()["player"] == pid
        register(client, "Quinn")
        # once an account, the old signed cookie no longer identifies anyone
        client.cookies.clear()
        client.cookies.set("trumps_player", cookie)
        assert client.get("/api/me").json()["player"] is None


def test_session_lookups_are_cached_but_revocation_is_immediate(client: TestClient) -> None:
    new_account(client, "Rae")
    t0 = time.perf_counter()
    for _ in range(20):
        assert client.get("/api/me").json()["name"] == "Rae"
    assert time.perf_counter() - t0 < 5
    client.post("/api/logout")
    assert client.get("/api/me").json()["player"] is None


def test_sign_ups_from_one_address_are_limited(client: TestClient) -> None:
    for i in range(accounts.REGISTRATIONS_PER_HOUR):
        client.cookies.clear()
        register(client, f"farm{i}")
    client.cookies.clear()
    r = client.post("/api/register", json={"username": "farm_more", "password": PASSWORD})
    assert r.status_code == 429 and "too many new accounts from this address" in r.json()["error"]
    assert login(client, "farm_more") == 400  # nothing was made


def test_players_and_a_session_s_player_in_one_call(tmp_path: Path) -> None:
    """The batched lookups a worker taking over tables uses: several players
    in one query, and a session with its player in one call."""
    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        guest = store.create_player("Sam")
        member = accounts.register(store, "Tess", PASSWORD)
        infos = accounts.player_infos(store, [guest, member, "nobody", guest])
        assert set(infos) == {guest, member}
        assert infos[guest].name == "Sam (guest)" and not infos[guest].is_account
        assert infos[member].name == "Tess" and infos[member].is_account
        assert accounts.player_infos(store, []) == {}

        token = accounts.new_session(store, member)
        sid = accounts.token_id(token)
        info = accounts.session_player_info(store, sid)
        assert info is not None and info.id == member and info.name == "Tess"
        accounts.revoke_session(store, sid)
        assert accounts.session_player_info(store, sid) is None
        assert accounts.session_player_info(store, "no-such-session") is None
    finally:
        store.close()


def test_people_learn_several_names_at_once(tmp_path: Path) -> None:
    from trumps.room.people.presence import People

    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        a, b = store.create_player("Uma"), store.create_player("Vic")
        people = People(store, {}, {})
        calls: list[object] = []
        read = store.read

        async def counting(fn: object, *args: object) -> object:
            calls.append(fn)
            return await read(fn, *args)  # type: ignore[arg-type]

        store.read = counting  # type: ignore[method-assign]

        async def go() -> tuple[dict[str, str], dict[str, str]]:
            first = await people.learn_many([a, b, "nobody"])
            again = await people.learn_many([a, b])
            return first, again

        first, again = asyncio.run(go())
        assert first == {a: "Uma (guest)", b: "Vic (guest)"} and again == first
        assert len(calls) == 1  # one call for both; none once they are known
        assert not people.is_account(a)
    finally:
        store.close()


def test_a_lookup_that_meets_a_logout_is_made_again(tmp_path: Path) -> None:
    """Session lookups run beside the database thread on PostgreSQL: one
    that read the session just before it was revoked must not answer (or
    cache) the player once the logout is done."""
    from types import SimpleNamespace

    from trumps.room.people.presence import People
    from trumps.room.web.accounts import COOKIE as SESSION_COOKIE
    from trumps.room.web.accounts import Sessions

    store = Store(f"sqlite:///{tmp_path / 'room.db'}")
    try:
        pid = accounts.register(store, "Yara", PASSWORD)
        token = accounts.new_session(store, pid)
        sid = accounts.token_id(token)
        people = People(store, {}, {})
        room = SimpleNamespace(store=store, people=people, cluster=None, player_name=people.learn)
        sessions = Sessions(lambda: room, lambda: None)  # type: ignore[arg-type, return-value]
        read = store.read
        raced: list[bool] = []

        async def racing(fn: object, *args: object) -> object:
            out = await read(fn, *args)  # type: ignore[arg-type]
            if not raced:  # the logout lands while this lookup is on its way back
                raced.append(True)
                accounts.revoke_session(store, sid)
                await sessions.ended([sid])
            return out

        store.read = racing  # type: ignore[method-assign]
        conn = SimpleNamespace(cookies={SESSION_COOKIE: token})
        who = asyncio.run(sessions.who(conn))  # type: ignore[arg-type]
        assert raced and who.player is None
        assert sid not in sessions.cache
    finally:
        store.close()


@pytest.mark.parametrize(
    "name",
    ["\u202ennA", "Ann\u200b", "A\u2066nn", "Ann\x00", "\u200fBob", "   ", "\t\n"],
)
def test_a_guest_name_with_hidden_characters_is_refused_and_changes_nothing(
    client: TestClient, name: str
) -> None:
    """A right-to-left override shows "\u202ennA" as "Ann", a zero-width
    space makes two names look alike: refused with a clear reason, and the
    guest keeps the name they had."""
    new_guest(client, "Ann")
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 400
    assert r.json()["error"] in (
        "name: no control or invisible formatting characters",
        "name: must not be blank",
    )
    assert client.get("/api/me").json()["name"] == "Ann (guest)"


def test_a_guest_name_may_hold_an_emoji_and_accents(client: TestClient) -> None:
    r = client.post("/api/guest", json={"name": "Zoë 👩\u200d💻"})
    assert r.status_code == 200
    assert client.get("/api/me").json()["name"] == "Zoë 👩\u200d💻 (guest)"


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize("what", sorted(accounts.THROTTLED))
def test_a_throttles_message_is_in_the_readers_language(what: str, lang: str) -> None:
    """Each throttle's message, as the room sends it (the seconds in it),
    is recognised by its template and comes out whole in each language."""
    english = str(accounts.Throttled(12.2, what))
    assert english.endswith("try again in 13 s")
    words = translator(lang).message(english)
    assert words != english and "13" in words and "too many" not in words
