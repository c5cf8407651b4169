"""Complete games of every game through the table WebSocket, with two human
connections (the host and a guest, at two seats) and a spectator, and no
card in any message that its recipient may not see.

What a recipient may see is worked out *independently of the view*: after
the game the table's stored record (seed, options and action log, read
straight from the database) is replayed, and at every state the allowed
cards are taken from the engine's internal deal (not from ``view``): the
recipient's own current hand, every card played to a trick this deal, the
hands exposed by the rules (bridge dummy once the opening lead is faced;
500 open misère and the nullo partner under ``both_hands`` once play
starts) and, for 500, the kitty and discards of the contractor who took it.
"""

from __future__ import annotations

import json
import queue
import random
import re
import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

import trumps
from trumps.room.storage.store import Store

CARD = re.compile(r'"((?:[AKQJT2-9]|1[0-3])[SHDC]|RJ|BJ)(?::[SHDC])?"')
COOKIE = "trumps_session"

# game, preset, options, host seat, guest seat, most deals to play
CASES = [
    pytest.param("500", None, {}, "S", "E", 12, id="500"),
    pytest.param("500", None, {"players": "2v2v2"}, "0", "1", 12, id="500-2v2v2"),
    pytest.param("500", "australian", {"nullo_plays": "both_hands"}, "S", "N", 12, id="500-both-hands"),
    pytest.param("bridge", None, {}, "S", "N", 12, id="bridge"),
    pytest.param("bridge", None, {"scoring": "rubber"}, "S", "E", 3, id="bridge-rubber"),
    pytest.param("coinche", None, {}, "S", "E", 12, id="coinche"),
]


def test_every_game_is_covered() -> None:
    assert {p.values[0] for p in CASES} == set(trumps.games())


def guest(client: TestClient, name: str) -> str:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["player"])


def create(client: TestClient, game: str, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


# ----- the independent oracle -----------------------------------------------------


def _played(deal: Any) -> set[str]:
    out = {str(c) for c in deal.trick}
    for tr in deal.tricks:
        out |= {str(c) for c in tr[1]}
    return out


def _exposed(game: str, match: Any) -> set[int]:
    """The seats whose hands everyone may see now, by the rules of the game."""
    d = match.deal
    if game == "bridge":
        if d.declarer is not None and (d.tricks or d.trick):
            return {(d.declarer + 2) & 3}
        return set()
    if game == "500":
        c = d.contract
        if d.phase not in ("PLAY", "DONE") or c is None or not c.is_misere or d.contractor is None:
            return set()
        out: set[int] = set()
        if match.options.nullo_plays == "both_hands":
            out |= {s for s in range(match.players) if match.team_of(s) == d.bidding_team} - {d.contractor}
        if c.kind == "OMIS" and (
            match.options.open_misere_expose == "before_lead"
            or (match.options.open_misere_expose == "after_first_trick" and d.tricks)
        ):
            out.add(d.contractor)
        return out
    assert game == "coinche"
    return set()  # melds are "none" by default: nothing is ever shown


def _allowed(game: str, match: Any, seat: int | None) -> tuple[set[str], set[int]]:
    d = match.deal
    exposed = _exposed(game, match)
    allowed = _played(d)
    for s in exposed | ({seat} if seat is not None else set()):
        allowed |= {str(c) for c in d.hands[s]}
    if game == "500" and seat is not None and seat == d.contractor and not d.no_contract:
        took = d.phase in ("KITTY", "PLAY", "DONE") or (d.phase == "BREACH" and d.breach_window == 2)
        if took:
            allowed |= {str(c) for c in d.kitty} | {str(c) for c in d.discards}
    return allowed, exposed


def _scrub(ev: dict[str, Any]) -> dict[str, Any]:
    """The event without the fields that hold calls (``7H`` looks like a card),
    player names and chat."""
    s = json.loads(json.dumps(ev))
    s.pop("presentation", None)  # the game's bidding box and words: calls such as 7H, no card
    v = s["view"]
    v["auction"], v["contract"], v["legal"] = [], None, []
    for r in v["results"]:
        r["contract"] = None
        # a finished deal's kitty and discards are public (500 shows them at its end)
        r.pop("kitty", None), r.pop("discards", None)
    for t in s["table"]["seats"]:
        t["name"] = None
    s["chat"] = []
    return s


class Oracle:
    """The stored game replayed: per state (seq), per recipient seat, the
    cards it may see, the exposed seats and the true hands."""

    def __init__(self, db_url: str, tid: str) -> None:
        store = Store(db_url)
        try:
            stored = store.load_table(tid)
        finally:
            store.close()
        assert stored is not None
        self.game = stored.game
        self.match = trumps.new_game(stored.game, options=stored.options, seed=stored.seed)
        self.actions = [(seat, action) for seat, action, _at, _auto in stored.actions]
        self.snaps: dict[int, Any] = {0: self.match.clone()}
        self.exposed_seen: set[int] = set()
        m = self.match
        for k, (seat, action) in enumerate(self.actions, 1):
            m.apply(action, seat)
            self.snaps[k] = m.clone()

    def check(self, ev: dict[str, Any], who: str, seat: int | None) -> None:
        seq = ev["seq"]
        assert seq in self.snaps, f"{who}: state {seq} is not in the stored record"
        if ev["table"]["status"] == "waiting":
            seat = None  # before the start a seated player sees no card either
        m = self.snaps[seq]
        name = m.seat_name
        allowed, exposed = _allowed(self.game, m, seat)
        self.exposed_seen |= exposed
        v = ev["view"]
        assert v["seat"] == (None if seat is None else name(seat)), who
        assert v["deal_number"] == m.deal_number + 1 and v["phase"] == m.phase, who
        # hands: own and legitimately exposed ones, the true cards; every other null
        for s in range(m.players):
            shown = v["hands"][name(s)]
            if s == seat or s in exposed:
                assert shown is not None and sorted(shown) == sorted(str(c) for c in m.deal.hands[s]), (
                    f"{who} at {seq}: wrong hand for {name(s)}"
                )
            else:
                assert shown is None, f"{who} at {seq}: {name(s)}'s hidden hand sent ({m.phase})"
        assert set(v["exposed"]) == {name(s) for s in exposed}, f"{who} at {seq}: exposed"
        # no card anywhere in the message that the recipient may not see
        seen = set(CARD.findall(json.dumps(_scrub(ev))))
        assert seen <= allowed, f"{who} at {seq} ({m.phase}): hidden cards {sorted(seen - allowed)}"
        if v["phase"] != "AUCTION":  # in play, legal actions are cards
            legal = {g.group(1) for c in v["legal"] if (g := CARD.fullmatch(json.dumps(c)))}
            assert legal <= allowed, f"{who} at {seq}: hidden cards in legal {sorted(legal - allowed)}"
        if seat is None:  # (implied above; said plainly for the spectator)
            shown_to_spectator = {k for k, h in v["hands"].items() if h is not None}
            assert shown_to_spectator <= {name(s) for s in exposed}, f"{who}: a hidden hand at {seq}"
        # the whole view is the engine's view for that seat at that state
        assert v == m.view(seat), f"{who} at {seq}: not the view of {seat}"


# ----- the three clients --------------------------------------------------------------


def _reader(name: str, ws: Any, out: queue.Queue[tuple[str, str | None]]) -> None:
    while True:
        try:
            text = ws.receive_text()
        except BaseException:  # the session closed
            out.put((name, None))
            return
        out.put((name, text))


def _connect(client: TestClient, tid: str, cookie: str | None) -> Any:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    return client.websocket_connect(f"/ws/table/{tid}")


@pytest.mark.parametrize(("game", "preset", "options", "host_seat", "guest_seat", "max_deals"), CASES)
def test_complete_game_leaks_no_card(
    client: TestClient,
    db_url: str,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    host_seat: str,
    guest_seat: str,
    max_deals: int,
) -> None:
    rng = random.Random(f"{game}/{options}")
    guest(client, "Host")
    host_cookie = client.cookies.get(COOKIE)
    t = create(client, game, preset=preset, options=options)
    tid = t["id"]
    client.cookies.clear()
    guest(client, "Guest")
    guest_cookie = client.cookies.get(COOKIE)
    assert host_cookie and guest_cookie and host_cookie != guest_cookie

    received: dict[str, list[dict[str, Any]]] = {"host": [], "guest": [], "spectator": []}
    q: queue.Queue[tuple[str, str | None]] = queue.Queue()
    seats = {"host": host_seat, "guest": guest_seat}
    with (
        _connect(client, tid, None) as spectator,
        _connect(client, tid, host_cookie) as host,
        _connect(client, tid, guest_cookie) as guest_ws,
    ):
        socks = {"host": host, "guest": guest_ws, "spectator": spectator}
        threads = [threading.Thread(target=_reader, args=(n, w, q), daemon=True) for n, w in socks.items()]
        for th in threads:
            th.start()

        def pump(until: Any) -> dict[str, Any]:
            while True:
                name, text = q.get(timeout=30)
                assert text is not None, f"{name}'s connection closed"
                ev = json.loads(text)
                received[name].append(ev)
                if until(name, ev):
                    return ev

        host.send_text(json.dumps({"v": 1, "type": "sit", "seat": host_seat}))
        pump(lambda n, e: n == "host" and e["type"] == "state" and e["table"]["you"] == host_seat)
        guest_ws.send_text(json.dumps({"v": 1, "type": "sit", "seat": guest_seat}))
        pump(lambda n, e: n == "guest" and e["type"] == "state" and e["table"]["you"] == guest_seat)
        host.send_text(json.dumps({"v": 1, "type": "fill"}))

        acted: dict[str, set[int]] = {"host": set(), "guest": set()}
        done: set[str] = set()
        errors: list[str] = []
        while len(done) < 3:
            name, text = q.get(timeout=30)
            assert text is not None, f"{name}'s connection closed"
            ev = json.loads(text)
            received[name].append(ev)
            if ev["type"] == "error":
                errors.append(f"{name}: {ev['reason']}")
                continue
            assert ev["type"] == "state"
            v = ev["view"]
            if v["over"] or v["deal_number"] > max_deals:
                done.add(name)
                continue
            me = seats.get(name)
            if (
                me is not None
                and ev["table"]["status"] == "playing"
                and v["to_act"] == me
                and ev["seq"] not in acted[name]
            ):
                acted[name].add(ev["seq"])
                legal = v["legal"]
                assert legal, f"{name} is to act with no legal action"
                misere = [c for c in legal if c in ("MIS", "OMIS")]  # 500: exposed hands
                if v["phase"] == "AUCTION" and misere and rng.random() < 0.3:
                    choice = rng.choice(misere)
                elif v["phase"] == "AUCTION" and rng.random() < 0.75:
                    choice = legal[0]
                else:
                    choice = rng.choice(legal)
                socks[name].send_text(json.dumps({"v": 1, "type": "act", "action": choice, "seq": ev["seq"]}))
        # a human never acts on a stale state here (the bots wait for them)
        assert errors == []
    for th in threads:
        th.join(timeout=10)

    last = received["host"][-1]
    assert last["view"]["over"] or len(last["view"]["results"]) >= 2, "fewer than two complete deals"
    assert acted["host"] and acted["guest"], "a human never acted"

    oracle = Oracle(db_url, tid)
    if last["view"]["over"]:
        assert oracle.match.is_over and last["seq"] == len(oracle.actions)
        assert last["table"]["status"] == "finished"
    for who, events in received.items():
        states = [e for e in events if e["type"] == "state"]
        assert states, who
        for ev in states:
            you = ev["table"]["you"]
            if who == "spectator":
                assert you is None
            elif you is not None:
                assert you == seats[who], f"{who} was told it sits at {you}"
            seat = None if you is None else oracle.match.seat(you)
            oracle.check(ev, who, seat)
    if game == "bridge" and any(not r["passed_out"] for r in oracle.match.results):
        assert oracle.exposed_seen, "dummy was never exposed: the test did not see a play phase"
