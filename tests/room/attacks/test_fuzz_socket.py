"""Fuzzing the table WebSocket: thousands of random and mutated messages
at a table with two seated humans (the host and a guest), bots and a
spectator, the game under way.

Checked: every bad message gets an ``error`` event with a non-empty reason;
the connection stays usable (a ``hello`` still gets a ``state``); no
exception escapes (the app would re-raise it when the test client closes,
and other connections keep being served); and the game state changes only
through legal actions of the seat to act: a burst of only-bad messages
leaves every connection's ``seq`` and view exactly as they were, and every
fuzzed action the table accepted is in the stored log as a legal action of
that seat.

Known bugs found by the fuzzer are pinned by the ``xfail(strict=True)``
tests at the end (the main fuzz leaves those inputs out so that it guards
everything else).
"""

from __future__ import annotations

import json
import queue
import random
import string
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from trumps.room.storage.store import Store
from trumps.room.tables.table import CHAT_BURST

COOKIE = "trumps_session"
TIMEOUT = 10.0
HOST, GUEST = "S", "N"
ROUNDS = 14  # each: a burst of bad messages, then fuzzed actions at the host's turn
BURST = 100
NOTATIONS = 12


def guest(client: TestClient, name: str) -> str:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["player"])


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


@pytest.fixture(autouse=True)
def _budgets_off(unlimited_messages: None) -> None:
    """Made before the room (the ``client`` fixture): see conftest.py."""


# ----- clients with a reader thread each ------------------------------------------------


class Client:
    """One WebSocket client: everything it receives goes to a queue."""

    def __init__(self, name: str, ws: Any) -> None:
        self.name = name
        self.ws = ws
        self.q: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.last: dict[str, Any] | None = None  # the last state received
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while True:
            try:
                text = self.ws.receive_text()
            except BaseException:  # the session closed
                self.q.put(None)
                return
            self.q.put(json.loads(text))

    def send(self, data: str | bytes | dict[str, Any]) -> None:
        if isinstance(data, bytes):
            self.ws.send_bytes(data)
        else:
            self.ws.send_text(data if isinstance(data, str) else json.dumps(data))

    def get(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        try:
            ev = self.q.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.name}: no reply within {timeout}s (connection dead?)") from None
        assert ev is not None, f"{self.name}: the server closed the connection"
        if ev["type"] == "state":
            self.last = ev
        return ev

    def state_at(self, seq: int) -> dict[str, Any]:
        """Read until a state at ``seq`` or later."""
        while True:
            ev = self.get()
            if ev["type"] == "state" and ev["seq"] >= seq:
                return ev


def _connect(client: TestClient, tid: str, cookie: str | None, query: str = "") -> Any:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return client.websocket_connect(f"/ws/table/{tid}{query}")


class Table:
    """A table with the host at S, a guest at N, bots elsewhere, a spectator
    with no name (no cookie), the game under way."""

    def __init__(self, client: TestClient, game: str, options: dict[str, Any]) -> None:
        self.client = client
        guest(client, "Host")
        self.host_cookie = client.cookies.get(COOKIE)
        self.tid = create(client, game, options=options)["id"]
        client.cookies.clear()
        guest(client, "Guest")
        self.guest_cookie = client.cookies.get(COOKIE)
        self.game = game
        self.host_acted = -1  # the last state at which the host acted

    def __enter__(self) -> Table:
        self._cms = [
            _connect(self.client, self.tid, self.host_cookie),
            _connect(self.client, self.tid, self.guest_cookie),
            _connect(self.client, self.tid, None),
        ]
        wss = [cm.__enter__() for cm in self._cms]
        self.host, self.guest, self.spectator = (
            Client(n, w) for n, w in zip(("host", "guest", "spectator"), wss, strict=True)
        )
        self.all = [self.host, self.guest, self.spectator]
        for c in self.all:
            c.state_at(0)
        self.host.send({"v": 1, "type": "sit", "seat": HOST})
        while (self.host.last or {}).get("table", {}).get("you") != HOST:
            self.host.get()
        self.guest.send({"v": 1, "type": "sit", "seat": GUEST})
        while (self.guest.last or {}).get("table", {}).get("you") != GUEST:
            self.guest.get()
        self.host.send({"v": 1, "type": "fill"})
        return self

    def __exit__(self, *exc: object) -> None:
        escaped: list[BaseException] = []
        for cm in reversed(self._cms):  # close every session, even if one fails
            try:
                cm.__exit__(None, None, None)  # re-raises an exception that escaped the app
            except BaseException as exc:
                escaped.append(exc)
        for c in self.all:
            c.thread.join(timeout=5)
        if escaped:
            raise escaped[0]

    def freeze(self) -> dict[str, Any] | None:
        """Play on (the guest answers its turns) until the host is to act,
        every connection has that state and nothing else is on the way.
        ``None`` when the game is over."""
        acted: set[int] = set()
        ev = self.host.last  # the host may already hold the state where it is to act
        while True:
            if ev is None or ev["type"] != "state" or ev["seq"] <= self.host_acted:
                ev = self.host.get()
                continue
            v = ev["view"]
            if v["over"]:
                return None
            seq = ev["seq"]
            if ev["table"]["status"] != "playing":
                pass
            elif v["to_act"] == GUEST and seq not in acted:
                g = self.guest.state_at(seq)
                if g["seq"] == seq:
                    acted.add(seq)
                    self.guest.send({"v": 1, "type": "act", "action": g["view"]["legal"][0], "seq": seq})
            elif v["to_act"] == HOST:
                for c in (self.guest, self.spectator):
                    got = c.state_at(seq)
                    # the same seq is sent again when seats change: wait for the seating the host saw
                    while (
                        got["table"]["seats"] != ev["table"]["seats"]
                        or got["table"]["status"] != ev["table"]["status"]
                    ):
                        got = c.state_at(seq)
                for c in self.all:  # drain repeats of the same state
                    while not c.q.empty():
                        extra = c.get()
                        assert extra["type"] == "state" and extra["seq"] == seq, extra
                self.host.last = ev
                return ev
            ev = self.host.get()


# ----- message generators ---------------------------------------------------------------

ALPHABET = string.ascii_letters + string.digits + string.punctuation + " \t\n" + "éß♠♥♦♣😀\u200b\u00a0"
TYPES = ["hello", "act", "sit", "stand", "bot", "fill", "chat"]
JUNK: list[Any] = [None, True, False, 0, -1, 1.5, 10**30, "", "x", [], {}, [1, 2], {"a": 1}, "1"]


def _junk(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.6:
        return rng.choice(JUNK)
    if r < 0.8:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 20)))
    return "x" * rng.choice([6, 17, 301, 5000])


def _text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def _mutate(rng: random.Random, s: str) -> str:
    ops = rng.randint(1, 3)
    for _ in range(ops):
        i = rng.randrange(len(s) + 1)
        op = rng.randrange(4)
        if op == 0:
            s = s[:i] + rng.choice(ALPHABET) + s[i:]
        elif op == 1 and s:
            s = s[:i] + s[i + 1 :]
        elif op == 2:
            s = s.swapcase()
        else:
            s = s + rng.choice(["X", "XX", ":S", "NT", "0", "!", " "])
    return s[:16] or "?"


def bad_common(rng: random.Random, seq: int) -> str | bytes | dict[str, Any]:
    """A message that is bad whoever sends it."""
    valid = {"v": 1, "type": "hello"}
    k = rng.randrange(14)
    if k == 0:  # malformed JSON: garbage or a valid message cut short
        raw = json.dumps({"v": 1, "type": rng.choice(TYPES), "seat": "E"})
        return rng.choice([_text(rng, rng.randint(1, 40)), raw[: rng.randrange(1, len(raw))], "", " "])
    if k == 1:  # JSON that is not an object
        return json.dumps(rng.choice([[], [1], 1, -3.5, "hello", None, True, [valid]]))
    if k == 2:  # wrong or missing protocol version (True and 1.0 equal 1 in Python)
        msg: dict[str, Any] = {"type": rng.choice(TYPES), "seat": "E", "action": "P", "text": "hi"}
        v = rng.choice([0, 2, -1, 99, "1", "v1", None, [], {}, 1.5, 10**30, "MISSING"])
        if v != "MISSING":
            msg["v"] = v
        return msg
    if k == 3:  # unknown or missing type
        t = rng.choice(
            [_text(rng, rng.randint(0, 12)), 7, None, ["act"], {"t": 1}, "ACT", "Hello", "MISSING"]
        )
        msg = {"v": 1}
        if t != "MISSING":
            msg["type"] = t
        return msg
    if k == 4:  # extra fields on otherwise valid messages
        base = rng.choice(
            [
                {"v": 1, "type": "hello", "since": seq},
                {"v": 1, "type": "act", "action": "P", "seq": seq},
                {"v": 1, "type": "sit", "seat": "E"},
                {"v": 1, "type": "fill"},
                {"v": 1, "type": "chat", "text": "hi"},
                {"v": 1, "type": "stand"},
            ]
        )
        base[rng.choice(["seat", "player", "as", "x", "table", "admin", "kind", "zz"])] = _junk(rng)
        base["zz_extra"] = _junk(rng)
        return base
    if k == 5:  # oversized: text and binary frames, and a huge string field
        big = rng.choice([4097, 5000, 70_000])
        if rng.random() < 0.3:
            return b"{" + b"x" * big
        return json.dumps({"v": 1, "type": "chat", "text": "y" * big})
    if k == 6:  # binary frames: invalid UTF-8, NULs, or a bad message as bytes
        return rng.choice(
            [
                bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))),
                b"\xff\xfe\x00",
                b"\x00" * 10,
                b"",
                json.dumps({"v": 2, "type": "hello"}).encode(),
            ]
        )
    if k == 7:  # hello with a bad since
        return {"v": 1, "type": "hello", "since": rng.choice([-1, "-2", 1.5, None, [], "x", -(10**20)])}
    if k == 8:  # act with wrong field types / lengths
        return {
            "v": 1,
            "type": "act",
            "action": rng.choice([None, 7, [], {}, "", "x" * 17, True]),
            **({"seq": seq} if rng.random() < 0.5 else {}),
        }
    if k == 9:  # act with a bad seq field
        return {"v": 1, "type": "act", "action": "P", "seq": rng.choice([-1, "x", 1.5, [], "-3", {}])}
    if k == 10:  # sit / bot with bad seats
        t = rng.choice(["sit", "bot"])
        return {"v": 1, "type": t, "seat": rng.choice([None, 1, [], "", "ABCDEF", "Q", "7", "-1", " "])}
    if k == 11:  # bot with a bad kind
        return {"v": 1, "type": "bot", "seat": "E", "kind": rng.choice(["human", 1, "", "RULES", []])}
    if k == 12:  # chat with a bad text
        return {"v": 1, "type": "chat", "text": rng.choice(["", None, 5, [], "z" * 301])}
    # fields of the wrong message
    return {"v": 1, "type": rng.choice(["stand", "fill"]), "seat": "E"}


def bad_for(rng: random.Random, who: str, frozen: dict[str, Any]) -> str | bytes | dict[str, Any]:
    """A bad message for ``who`` at the frozen state (the host to act)."""
    seq = frozen["seq"]
    v = frozen["view"]
    seats = v["seats"]
    legal = v["legal"]  # the host's legal actions
    k = rng.randrange(10)
    if k < 4:
        return bad_common(rng, seq)
    stale = rng.choice([s for s in (0, seq - 1, seq + 1, seq + 7, 10**12) if s != seq and s >= 0])
    if who == "host":
        if k == 4:  # the right seat but a stale state: refused whatever the action
            return {"v": 1, "type": "act", "action": _mutate(rng, rng.choice(legal)), "seq": stale}
        if k == 5:  # a legal action, stale
            return {"v": 1, "type": "act", "action": rng.choice(legal), "seq": stale}
        if k == 6:  # the host already sits; cannot stand mid-game
            return rng.choice([{"v": 1, "type": "sit", "seat": rng.choice(seats)}, {"v": 1, "type": "stand"}])
        if k == 7:  # no bot on a human's seat; no such spectator; a public table has no invitation
            return rng.choice(
                [
                    {"v": 1, "type": "bot", "seat": rng.choice([HOST, GUEST])},
                    {"v": 1, "type": "kick", "player": _text(rng, rng.randint(1, 40))},
                    {"v": 1, "type": "invite", "action": "revoke"},
                ]
            )
        if k == 8:  # whitespace-only chat
            return {"v": 1, "type": "chat", "text": rng.choice([" ", "\t\n", "   \u00a0 "])}
        return {"v": 1, "type": "hello", "since": rng.choice([-5, "a"])}
    if who == "guest":  # seated, not the host, not to act
        if k == 4:  # the host's legal action, for the host's seat: not the guest's turn
            return {
                "v": 1,
                "type": "act",
                "action": rng.choice(legal),
                **({"seq": seq} if rng.random() < 0.5 else {}),
            }
        if k == 5:
            return {"v": 1, "type": "act", "action": _mutate(rng, rng.choice(legal)), "seq": stale}
        if k == 6:
            return rng.choice(
                [
                    {"v": 1, "type": "sit", "seat": rng.choice(seats)},
                    {"v": 1, "type": "stand"},
                    {"v": 1, "type": "act", "action": rng.choice(legal), "seat": HOST},  # acting as S
                ]
            )
        if k == 7:  # host-only commands
            return rng.choice(
                [
                    {"v": 1, "type": "fill"},
                    {
                        "v": 1,
                        "type": "bot",
                        "seat": rng.choice(seats),
                        "kind": rng.choice(["rules", "random"]),
                    },
                    {"v": 1, "type": "bot", "seat": rng.choice(seats), "kind": None},
                ]
            )
        if k == 8:
            return {"v": 1, "type": "chat", "text": " " * rng.randint(1, 5)}
        return {"v": 1, "type": "act", "action": _text(rng, rng.randint(1, 16))}
    # the spectator has no name and no seat: it may only say hello
    return rng.choice(
        [
            {"v": 1, "type": "act", "action": rng.choice(legal), "seq": seq},
            {"v": 1, "type": "act", "action": rng.choice(legal)},
            {"v": 1, "type": "sit", "seat": rng.choice(seats)},
            {"v": 1, "type": "stand"},
            {"v": 1, "type": "fill"},
            {"v": 1, "type": "bot", "seat": rng.choice(seats)},
            {"v": 1, "type": "chat", "text": _text(rng, rng.randint(1, 50)) + "x"},
        ]
    )


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same state (the server's clock and who is watching aside: the
    fuzzer's fresh connections come and go)."""

    def table(ev: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in ev["table"].items() if k not in ("now", "spectators", "watchers")}

    return a["seq"] == b["seq"] and a["view"] == b["view"] and table(a) == table(b)


def _expect_error(c: Client, before: dict[str, Any], sent: Any) -> dict[str, Any]:
    """The reply to a bad message: an error with a reason (a repeat of the
    same state may come first; any other state is a change)."""
    while True:
        ev = c.get()
        if ev["type"] == "state":
            assert _same(ev, before), f"{c.name}: state changed after bad message {sent!r:.200}"
            continue
        assert ev["type"] == "error", ev
        assert isinstance(ev["reason"], str) and ev["reason"].strip(), f"empty reason for {sent!r:.200}"
        assert ev["v"] == 1 and ev["seq"] == before["seq"], ev
        return ev


def _probe(c: Client, before: dict[str, Any]) -> None:
    """The connection is still usable and sees exactly the state it saw."""
    c.send({"v": 1, "type": "hello", "since": before["seq"]})
    ev = c.get()
    assert ev["type"] == "state", f"{c.name}: hello answered by {ev}"
    assert _same(ev, before), f"{c.name}: the state changed during a burst of bad messages"
    assert c.q.empty(), f"{c.name}: unexpected extra events"


FUZZ_GAMES = [
    pytest.param("500", {}, id="500"),
    pytest.param("bridge", {"scoring": "rubber"}, id="bridge"),
    pytest.param("coinche", {}, id="coinche"),
]


@pytest.mark.parametrize(("game", "options"), FUZZ_GAMES)
def test_fuzz_table_websocket(client: TestClient, db_url: str, game: str, options: dict[str, Any]) -> None:
    rng = random.Random(f"fuzz/{game}")
    sent_bad = 0
    accepted: list[tuple[int, list[str]]] = []  # (seq before, host's legal actions) of fuzzed acts taken
    reasons: set[str] = set()
    with Table(client, game, options) as t:
        rounds = 0
        while rounds < ROUNDS:
            frozen = t.freeze()
            if frozen is None:
                break
            rounds += 1
            before = {c.name: c.last for c in t.all}
            assert all(b is not None and b["seq"] == frozen["seq"] for b in before.values())
            # a burst of only-bad messages from all three connections
            for _ in range(BURST):
                c = rng.choice(t.all)
                msg = bad_for(rng, c.name, frozen)
                c.send(msg)
                reasons.add(_expect_error(c, before[c.name], msg)["reason"].split(":")[0][:40])
                sent_bad += 1
            for c in t.all:
                _probe(c, before[c.name])  # type: ignore[arg-type]
            # a fresh connection is served meanwhile
            with _connect(client, t.tid, None) as ws:
                fresh = json.loads(ws.receive_text())
                assert fresh["type"] == "state" and fresh["seq"] == frozen["seq"]
            # random and mutated notations at the host's turn: refused and
            # nothing changes, or taken as one of the host's legal actions
            legal = frozen["view"]["legal"]
            took = False
            for _ in range(NOTATIONS):
                r = rng.random()
                if r < 0.5:
                    action = _mutate(rng, rng.choice(legal))
                elif r < 0.8:
                    action = _text(rng, rng.randint(1, 16))
                else:
                    action = rng.choice(
                        ["P", "X", "XX", "CLAIM13", "10NT", "MIS", "OMIS", "RJ", "JK:H", "80S"]
                    )
                msg = {"v": 1, "type": "act", "action": action}
                if rng.random() < 0.5:
                    msg["seq"] = frozen["seq"]
                t.host.send(msg)
                ev = t.host.get()
                while ev["type"] == "state" and _same(ev, frozen):
                    ev = t.host.get()
                if ev["type"] == "error":
                    assert ev["reason"].strip() and ev["seq"] == frozen["seq"]
                    sent_bad += 1
                    continue
                assert ev["seq"] == frozen["seq"] + 1, f"{action!r} moved the table to {ev['seq']}"
                accepted.append((frozen["seq"], legal))
                t.host_acted = frozen["seq"]
                took = True
                break
            if not took:
                t.host.send({"v": 1, "type": "act", "action": rng.choice(legal), "seq": frozen["seq"]})
                t.host_acted = frozen["seq"]
        assert rounds >= 6, f"the game ended after {rounds} rounds"
        # a chat flood: the first CHAT_BURST lines are stored and broadcast, the
        # rest refused as too fast; the game does not move
        frozen = t.freeze()
        if frozen is not None:
            before = {c.name: c.last for c in t.all}
            for i in range(100):
                t.guest.send({"v": 1, "type": "chat", "text": f"flood {i} " + _text(rng, 20)})
            last = f"flood {CHAT_BURST - 1} "
            for c in t.all:
                b = before[c.name]
                assert b is not None
                refused = 0
                seen_last = False
                while not seen_last or (c is t.guest and refused < 100 - CHAT_BURST):
                    ev = c.get()
                    if ev["type"] == "error":
                        assert (
                            c is t.guest
                            and ev["reason"] == "you are sending messages too fast; wait a few seconds"
                        )
                        refused += 1
                        continue
                    assert ev["type"] == "state" and ev["seq"] == b["seq"] and ev["view"] == b["view"]
                    state = ev
                    if ev["chat"] and ev["chat"][-1]["text"].startswith(last):
                        seen_last = True
                assert [x["text"].split()[1] for x in state["chat"][-CHAT_BURST:]] == [
                    str(i) for i in range(CHAT_BURST)
                ]
            for _ in range(100):  # the spectator has no name: every line refused
                t.spectator.send({"v": 1, "type": "chat", "text": "spam"})
                _expect_error(t.spectator, t.spectator.last, "chat")  # type: ignore[arg-type]
                sent_bad += 1
            _probe(t.spectator, t.spectator.last)  # type: ignore[arg-type]
    assert sent_bad >= ROUNDS * BURST // 2
    assert len(reasons) >= 15, reasons
    # every fuzzed action the table took is stored as a legal action of the host's seat
    store = Store(db_url)
    try:
        stored = store.load_table(t.tid)
    finally:
        store.close()
    assert stored is not None
    for seq, legal in accepted:
        seat, action, _at, _auto = stored.actions[seq]
        assert seat == 2 and action in legal, (seq, seat, action, legal)


# ----- bugs found by the fuzzer -------------------------------------------------------------


@pytest.fixture
def frozen_table(client: TestClient, request: pytest.FixtureRequest) -> Iterator[Table]:
    game = getattr(request, "param", "500")
    with Table(client, game, {}) as t:
        assert t.freeze() is not None
        yield t


def _bad_then_usable(t: Table, c: Client, msg: str | dict[str, Any]) -> None:
    before = c.last
    assert before is not None
    c.send(msg)
    _expect_error(c, before, msg)
    _probe(c, before)


def test_deeply_nested_json_gets_an_error(frozen_table: Table) -> None:
    _bad_then_usable(frozen_table, frozen_table.guest, "[" * 1500)


def test_a_superscript_digit_seat_gets_an_error(frozen_table: Table) -> None:
    _bad_then_usable(frozen_table, frozen_table.guest, {"v": 1, "type": "sit", "seat": "²"})


@pytest.mark.parametrize("frozen_table", ["500", "coinche"], indirect=True)
def test_a_superscript_digit_action_gets_an_error(frozen_table: Table) -> None:
    t = frozen_table
    action = "²C" if t.game == "500" else "1²0S"
    assert t.host.last is not None and t.host.last["view"]["phase"] == "AUCTION"
    _bad_then_usable(t, t.host, {"v": 1, "type": "act", "action": action})


def test_a_superscript_digit_since_gets_a_state(client: TestClient) -> None:
    guest(client, "Host")
    tid = create(client, "500")["id"]
    with client.websocket_connect(f"/ws/table/{tid}?since=%C2%B2") as ws:
        ev = json.loads(ws.receive_text())
        assert ev["type"] == "state"


def test_a_chat_line_with_a_nul_character(frozen_table: Table) -> None:
    """A NUL in a chat line must be refused or stored: never crash the socket."""
    t = frozen_table
    before = t.guest.last
    assert before is not None
    t.guest.send({"v": 1, "type": "chat", "text": "hello\x00world"})
    ev = t.guest.get()
    assert (
        ev["type"] == "error"
        and ev["reason"] == "invalid chat message: text: control characters are not allowed"
    )
    t.guest.send({"v": 1, "type": "hello", "since": before["seq"]})
    assert t.guest.state_at(before["seq"])["view"] == before["view"]
