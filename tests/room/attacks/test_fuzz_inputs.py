"""Fuzzing every input of the room with hypothesis (issue 29, item 2).

Every REST route of the app (enumerated from the app itself, so a new
route is fuzzed without a change here) gets arbitrary query parameters,
path parameters and bodies: arbitrary JSON (wrong types, NaN and infinite
floats, integers far beyond 64 bits, NUL and other control characters,
lone surrogates, deep nesting), raw bytes, and each endpoint's own body
with fields replaced, dropped or added.  Every WebSocket message type of
:mod:`trumps.room.tables.messages` (enumerated from its union) gets the same at a
table.  Checked: never a 500 (the test client re-raises what escaped the
app), never a closed socket; a message the schema refuses gets an ``error``
event with the schema's reason; and after each input the lobby still
lists (``GET /api/tables``), and at the end the lobby socket, ``/api/games``
and a profile still answer: no stored value breaks a later read.

``test_inputs.py`` pins the breakages this fuzzer is meant to keep out.
"""

from __future__ import annotations

import json
import math
import re
import typing
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from peers import Peer, as_guest, create_table, new_account, new_guest
from starlette.routing import Route
from starlette.testclient import TestClient

import trumps
from trumps.room.tables.messages import AnyMessage, MessageError, parse_client_message
from trumps.room.tables.settings import TableSettings
from trumps.room.web.app import create_app


@pytest.fixture
def client(db_url: str, unlimited_messages: None) -> Iterator[TestClient]:
    """The room with its rate budgets out of the way (conftest.py)."""
    with TestClient(create_app(db_url, bot_delay=0, unmetered=("testclient",))) as c:
        yield c


FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,  # the same inputs on every run: a failure is reproducible
)

# ----- values ---------------------------------------------------------------------------------

NASTY_TEXT = [
    "", " ", "\x00", "a\x00b", "\x01", "\x7f", "\x85", "\ud800", "\u202ennA", "\u200b", "²", "٣", "1_0",
    "%00", "../..", "'; DROP TABLE players; --", "NaN", "1e400", "-1", "0", "x" * 5000, "é♠😀",
]  # fmt: skip
NASTY_NUMBERS = [0, -1, 1, 2**31, 2**53 + 1, 2**63, 2**64, 10**30, -(10**30), 1.5, 1e308, -1e308]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from(NASTY_NUMBERS)
    | st.floats()  # NaN and the infinities too
    | st.text(max_size=20)
    | st.sampled_from(NASTY_TEXT)
)
JSON = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4),
    max_leaves=10,
)
RAW = st.sampled_from(
    [b"", b"{", b"[" * 3000, b'{"a":' * 2000, b"\xff\xfe\x00", b"null", b"NaN", b'"\\ud800"', b"{}" * 9000]
) | st.binary(max_size=40)

MISSING = object()
#: Numbers for the values that are numbers: not finite, huge, a bool for a number.
SPECIAL: list[Any] = [
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    10**30,
    2**64,
    -(2**63) - 1,
    True,
    "1e400",
]


def _dumps(value: Any) -> bytes:
    return json.dumps(value).encode("utf-8", "surrogatepass")  # NaN and Infinity as JSON5-ish literals


def _mutated(template: dict[str, Any], extra: st.SearchStrategy[Any] = JSON) -> st.SearchStrategy[Any]:
    """``template`` with each field kept, replaced by junk or dropped, and
    maybe an extra field."""
    fields = {
        k: st.one_of(v if isinstance(v, st.SearchStrategy) else st.just(v), JSON, st.just(MISSING))
        for k, v in template.items()
    }

    def build(chosen: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in chosen.items() if v is not MISSING}, **more}

    return st.builds(
        build, st.fixed_dictionaries(fields), st.dictionaries(st.text(max_size=8), extra, max_size=2)
    )


# ----- REST ----------------------------------------------------------------------------------


def _option_values() -> st.SearchStrategy[dict[str, Any]]:
    """Options of any game: every option name, with allowed values, their
    neighbours, bounds edges and junk."""
    names: list[str] = []
    values: list[Any] = []
    for game in trumps.games():
        for spec in trumps.game_class(game).schema.specs:
            names.append(spec.name)
            values.extend(spec.values() or ())
            if spec.bounds is not None:
                least, most, _ = spec.bounds
                values.extend([least - 1, least, 10**30, str(10**30)])
                if most is not None:  # (the old code had no upper bounds)
                    values.extend([most, most + 1, str(most + 1)])
    return st.dictionaries(
        st.sampled_from(names) | st.text(max_size=8),
        st.one_of(st.sampled_from(values), st.sampled_from(SPECIAL), JSON),
        max_size=4,
    )


def _setting_values() -> st.SearchStrategy[dict[str, Any]]:
    names = list(TableSettings.model_fields)
    good = [0, 7, 30, 110, True, False, "join", "compete", "text", "preset", None, 1.9e9]
    return st.dictionaries(
        st.sampled_from(names) | st.text(max_size=8),
        st.one_of(st.sampled_from(good), st.sampled_from(SPECIAL), JSON),
        min_size=1,
        max_size=3,
    )


BODIES: dict[str, st.SearchStrategy[Any]] = {
    "/api/guest": _mutated({"name": "Zoe"}),
    "/api/register": _mutated({"username": "fuzzer", "password": "a long password"}),
    "/api/login": _mutated({"username": "fuzzer", "password": "a long password"}),
    "/api/password": _mutated({"old": "x" * 10, "new": "y" * 10}),
    "/api/friends": _mutated({"player": "fuzzer", "action": "request"}),
    "/api/join": _mutated({"code": "abcdefghij"}),
    # never a valid rule set: a valid Play press waits for a match (30 s)
    "/api/play": _mutated({"game": "500", "rules": JSON}),
    "/api/prefs": _mutated({"suggestions": True, "card_order": "suits", "animation": "fast"}),
    "/api/tables": st.builds(
        lambda body, options, settings_: {**body, "options": options, "settings": settings_},
        _mutated({"game": "500", "preset": None, "invite": []}),
        _option_values(),
        _setting_values(),
    )
    | _mutated({"game": "coinche", "options": {}, "settings": {}, "invite": ["x"]}),
    "/api/tables/{tid:tid}/invite": _mutated({"players": ["fuzzer"]}),
    "/api/invitations/{iid}": _mutated({"answer": "accept"}),
}
#: The query parameters the routes read (any other route gets these all the same).
QUERY_KEYS = ["limit", "game", "deal", "format", "since", "worker", "join", "lang", "x"]
#: Text where a whole number is read: digits that are not ASCII, too many, signs, floats...
NUMBERS_AS_TEXT = ["²", "٣", "1" * 40, "-1", "0", "1e3", "NaN", "1_0", " 1", "\x00", "50\x00", "9" * 13]
WIDE = 80  # examples per route with a body (the others: a third)
PARAM = re.compile(r"\{([a-z]+)(?::[a-z]+)?\}")  # a path parameter of a route


def rest_routes(client: TestClient) -> list[tuple[str, str]]:
    """(path template, method) of every HTTP route of the app."""
    out = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):
            for method in sorted(route.methods or ()):
                if method != "HEAD":
                    out.append((route.path, method))
    return out


def _utf8(text: str) -> str:
    """``text`` as an address can carry it (a lone surrogate has no UTF-8)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


NUMBERISH = st.sampled_from(NUMBERS_AS_TEXT)
TEXT = st.one_of(NUMBERISH, NUMBERISH, st.sampled_from(NASTY_TEXT), st.text(max_size=12))


@st.composite
def requests(draw: st.DrawFn, template: str, method: str, tid: str) -> tuple[str, dict[str, str], bytes]:
    """A path of the route ``template``, a query and a body."""
    path = template
    for _name in PARAM.findall(template):
        value = draw(st.sampled_from([tid, "1", "0", "fuzzer"]) | TEXT)
        path = PARAM.sub(quote(_utf8(value)[:60], safe=""), path, count=1)
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS), TEXT, min_size=1, max_size=4))
    bodies = [RAW, JSON.map(_dumps)]
    if template in BODIES:
        bodies += [BODIES[template].map(_dumps)] * 3
    body = draw(st.one_of(*bodies)) if method != "GET" else b""
    return path, {k: _utf8(v) for k, v in query.items()}, body


def reads_still_work(client: TestClient, cookie: str, username: str) -> None:
    """What everyone reads still answers: the lobby (REST and socket), the
    games' metadata and a profile."""
    as_guest(client, cookie)
    r = client.get("/api/tables")
    assert r.status_code == 200, r.text
    with client.websocket_connect("/ws/lobby") as ws:
        assert json.loads(ws.receive_text())["type"] == "lobby"
    assert client.get("/api/games").status_code == 200
    assert client.get(f"/api/players/{username}").status_code == 200


@pytest.mark.slow  # tens of seconds: not in the fast tier (docs/testing.md)
@pytest.mark.timeout(600)
def test_fuzz_every_rest_route(client: TestClient) -> None:
    password = "a long password"
    cookies = {
        "account": new_account(client, "fuzzer", password),
        "guest": new_guest(client, "Guest"),
        "nobody": None,
    }
    tid = create_table(client, cookies["account"])["id"]
    routes = rest_routes(client)
    assert len(routes) >= 25
    answered: dict[str, set[int]] = {}

    def fuzz(template: str, method: str) -> None:
        @settings(FUZZ, max_examples=WIDE if method != "GET" else WIDE // 3)
        @given(request=requests(template, method, tid), who=st.sampled_from(["account", "guest", "nobody"]))
        def one(request: tuple[str, dict[str, str], bytes], who: str) -> None:
            path, query, body = request
            as_guest(client, cookies[who])
            headers = {"content-type": "application/json"}
            r = client.request(method, path, params=query, content=body, headers=headers)
            assert r.status_code < 500, (method, path, query, body[:200], r.text)
            answered.setdefault(f"{method} {template}", set()).add(r.status_code)
            assert as_guest(client, cookies["account"]).get("/api/tables").status_code == 200
            if client.get("/api/me").json()["player"] is None:  # logged out (everywhere): back in
                as_guest(client, None)
                assert (
                    client.post("/api/login", json={"username": "fuzzer", "password": password}).status_code
                    == 200
                )
                cookies["account"] = client.cookies.get("trumps_session")

        one()

    for template, method in routes:
        fuzz(template, method)
    reads_still_work(client, cookies["account"], "fuzzer")  # type: ignore[arg-type]
    assert len(answered) == len(routes)
    assert sum(any(code < 400 for code in codes) for codes in answered.values()) >= 20, answered


# ----- WebSocket ------------------------------------------------------------------------------

MESSAGE_TYPES: dict[str, list[str]] = {
    cls.model_fields["type"].annotation.__args__[0]: [n for n in cls.model_fields if n not in ("v", "type")]
    for cls in typing.get_args(AnyMessage)
}
GOOD_FIELDS: dict[str, list[Any]] = {
    "since": [0, 1, 5],
    "seq": [0, 1],
    "action": ["P", "6S", "MIS", "revoke"],
    "seat": ["N", "E", "S", "W"],
    "kind": ["rules", "random", None],
    "text": ["hi", "hello\tthere"],
    "phrase": ["hello", "thanks"],
    "on": [True, False],
    "player": ["x", "anon-1"],
}


@st.composite
def messages(draw: st.DrawFn) -> bytes | str:
    kind = draw(st.sampled_from([*MESSAGE_TYPES, "raw", "json"]))
    if kind == "raw":
        return draw(RAW)
    if kind == "json":
        return _dumps(draw(JSON)).decode("utf-8", "surrogatepass")
    template: dict[str, Any] = {"v": 1, "type": kind}
    for name in MESSAGE_TYPES[kind]:
        template[name] = draw(st.sampled_from(GOOD_FIELDS.get(name, [None])))
    return _dumps(draw(_mutated(template))).decode("utf-8", "surrogatepass")


def _reason(raw: bytes | str) -> str | None:
    """The error the schema gives ``raw``, or None if it is a valid message."""
    try:
        parse_client_message(raw)
    except MessageError as exc:
        return str(exc)
    return None


@pytest.mark.timeout(300)
def test_fuzz_every_websocket_message(client: TestClient) -> None:
    assert set(MESSAGE_TYPES) >= {
        "hello",
        "act",
        "sit",
        "stand",
        "bot",
        "fill",
        "chat",
        "suggest",
        "kick",
        "invite",
    }
    account = new_account(client, "wsfuzzer", "a long password")
    tid = create_table(client, account)["id"]
    as_guest(client, account)
    with client.websocket_connect(f"/ws/table/{tid}") as ws:
        peer = Peer("host", ws)
        peer.state()

        @FUZZ
        @given(raw=messages())
        def one(raw: bytes | str) -> None:
            if isinstance(raw, bytes):
                ws.send_bytes(raw)
            else:
                ws.send_text(raw)
            reason = _reason(raw)
            if reason is not None:  # refused by the schema: that error, and nothing changed
                # (a refusal of an earlier valid message may still come first)
                while (ev := peer.get(30)) is not None and not (
                    ev["type"] == "error" and ev["reason"] == reason
                ):
                    assert ev["type"] != "error" or ev["reason"].strip(), ev
                assert ev is not None, "the server closed the socket"
            # the socket is alive and answers (a valid message may have been refused by the table)
            peer.send(type="hello")
            while (ev := peer.get(30)) is not None and ev["type"] != "state":
                assert ev["type"] != "error" or ev["reason"].strip(), ev
            assert ev is not None, "the server closed the socket"
            assert client.get("/api/tables").status_code == 200

        one()
        peer.send(type="hello")
        peer.state()
    reads_still_work(client, account, "wsfuzzer")
