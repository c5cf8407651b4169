"""Item 6 and 7 of issue 29, and the leak scanner over every message type.

- A timeout notice is made from each receiver's view: a 500 kitty discard
  played by the timer is "a card was discarded" for everyone but the seat
  itself, a coinche meld declaration its announced value (never ``MELD:...``).
- A ``since`` replay after a person took over a bot's seat holds nothing of
  that seat from before (the bot's hands of earlier deals): only the current
  deal, after the seat was taken; the chat only in the last state; a second
  replay at once gets the current state only.
- Whole games of each kind (500 with its kitty, bridge, coinche with melds)
  with move timers running out at one seat, suggestions on, chat, refused
  messages, spectators and a person taking over a bot's seat: every message
  each connection got (states, replays, notices, suggestions, errors, chat)
  is scanned against the stored record replayed (:class:`Oracle` of
  ``test_ws_games``, independent of the views): no card the receiver could
  not see at that moment, no meld declaration of another seat.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from test_catch_up import Sink
from test_ws_games import Oracle, _allowed

import trumps
from trumps.room.storage.store import Store
from trumps.room.tables import dispatch
from trumps.room.tables.table import CHAT_BURST, CHAT_WINDOW, MAX_REPLAY, REPLAY_PACE, Table, spoken_action
from trumps.room.tables.timers import FakeClock, Timers

T0 = 1_800_000_000.0
LIMIT = 7  # the move timer of every test table (bids and cards)
# a card named in free text (a notice, an error, a suggestion's reasons, chat)
CARD_WORD = re.compile(r"(?<![A-Za-z0-9])((?:10|[AKQJT2-9])[SHDC]|RJ|BJ)(?![A-Za-z0-9])")
MELD = re.compile(r"MELD:([A-Z0-9,\-]*)", re.IGNORECASE)
EXAMPLES = re.compile(r"e\.g\. [^)]*")


def _meld_cards(body: str) -> set[str]:
    """The cards a declaration names: ``987S`` a run, ``QQQQ`` four of a kind."""
    out: set[str] = set()
    for part in re.split(r"[^A-Za-z0-9]+", body):
        if len(part) >= 3 and part[-1] in "SHDC":
            out |= {r + part[-1] for r in part[:-1]}
        elif len(part) == 4:
            out |= {part[0] + s for s in "SHDC"}
    return out


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _store_table(url: str, game: str, options: dict[str, Any], seed: int, seats: list[tuple[str | None, str | None]],
                 settings: dict[str, Any]) -> tuple[Store, str]:  # fmt: skip
    """A table stored as playing with ``seats`` (player, bot)."""
    store = Store(url)
    host = store.create_player("host")
    tid = store.create_table(game, None, options, seed, host, len(seats), settings=settings)
    for i, (player, bot) in enumerate(seats):
        store.set_seat(tid, i, player, bot)
    store.set_status(tid, "playing", T0)
    return store, tid


def _table(store: Store, tid: str, clock: FakeClock, names: dict[str, str]) -> Table:
    stored = store.load_table(tid)
    assert stored is not None
    return Table(stored, store, names, bot_delay=0, timers=Timers(clock))


async def _until(
    cond: Callable[[], bool], what: str, tick: Callable[[], Awaitable[None]] | None = None
) -> None:
    for _ in range(4000):
        if cond():
            return
        if tick is not None:
            await tick()
        await asyncio.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


def _person(store: Store, name: str) -> Sink:
    sink = Sink(store.create_player(name))
    sink.name = name
    return sink


async def _win_auction(table: Table, sinks: dict[int, Sink]) -> int:
    """The first seat to call bids the lowest bid, every other seat passes:
    that seat gets the contract.  Returns it."""
    first = table.match.to_act_index
    assert first is not None
    # the lowest bid that wins a contract (a 500 inkle, ``i6S``, does not)
    bid = next(a for a in map(str, table.match.legal_actions()) if a not in ("P", "PASS") and a[0] != "i")
    await table.act(sinks[first], bid)
    for _ in range(8):
        seat = table.match.to_act_index
        if table.match.phase != "AUCTION" or seat is None:
            break
        await table.act(sinks[seat], "P" if "P" in map(str, table.match.legal_actions()) else "PASS")
    return first


# ----- item 6: the timeout notice --------------------------------------------------------------
def _notices(sink: Sink) -> list[dict[str, Any]]:
    return [e for e in sink.events if e["type"] == "notice"]


@pytest.mark.parametrize(("game", "options"), [("500", {}), ("coinche", {"melds": "seed"})])
def test_a_timed_out_hidden_move_is_told_only_to_its_seat(
    game: str, options: dict[str, Any], tmp_path: Any
) -> None:
    """500: the contractor times out in the kitty exchange (a card discarded
    face down); coinche: the first player times out declaring melds."""
    for seed in range(1, 80):
        probe = Store(f"sqlite:///{tmp_path / f'{game}{seed}.db'}")
        sinks = {i: _person(probe, n) for i, n in enumerate(["Ann", "Bob", "Cy", "Di"])}
        probe.close()
        store, tid = _store_table(
            f"sqlite:///{tmp_path / f'{game}{seed}.db'}", game, options, seed,
            [(s.player, None) for s in sinks.values()], {"bid_time": LIMIT, "play_time": LIMIT},
        )  # fmt: skip
        clock = FakeClock(T0)
        spectator = Sink(None)
        result = asyncio.run(_time_out_once(store, tid, clock, sinks, spectator))
        store.close()
        if result is None:
            continue  # coinche: this seed's first player has no meld to declare
        seat, action, hidden_cards = result
        told = _notices(sinks[seat])
        assert (
            len(told) == 1
            and told[0]["action"] == action
            and spoken_action(trumps.new_game(game, options=options), action) in told[0]["text"]
        )
        for who in [*(s for i, s in sinks.items() if i != seat), spectator]:
            (notice,) = _notices(who)
            assert "action" not in notice and notice["timeout"] is True
            assert action not in notice["text"] and "MELD:" not in notice["text"].upper()
            assert not set(CARD_WORD.findall(notice["text"])) & hidden_cards, notice["text"]
            if game == "500":
                assert notice["text"] == "Ann ran out of time: a card was discarded automatically".replace(
                    "Ann", sinks[seat].name
                )
            else:
                assert re.fullmatch(rf"{sinks[seat].name} ran out of time: melds worth \d+ were announced "
                                    "automatically", notice["text"]), notice["text"]  # fmt: skip
        return
    pytest.fail("no seed gave the hidden move")


async def _time_out_once(
    store: Store, tid: str, clock: FakeClock, sinks: dict[int, Sink], spectator: Sink
) -> tuple[int, str, set[str]] | None:
    table = _table(store, tid, clock, {s.player or "": s.name for s in sinks.values()})
    for conn in [*sinks.values(), spectator]:
        await table.join(conn)
    try:
        seat = await _win_auction(table, sinks)
        if table.match.phase == "PLAY":  # coinche: the leader declares first
            seat = table.match.to_act_index
            assert seat is not None
            if not any(str(a) != "MELD:-" for a in table.match.legal_actions()):
                return None
        else:
            assert table.match.phase == "KITTY" and table.match.to_act_index == seat
        hand = {str(c) for c in table.match.deal.hands[seat]}
        seq = table.seq
        for conn in [*sinks.values(), spectator]:
            conn.events.clear()
        await clock.advance(LIMIT)
        await _until(lambda: table.seq > seq, "the timer's move")
        action = table.match.log[seq][1]
        if action == "MELD:-":
            return None
        return seat, str(action), hand
    finally:
        await table.close()


# ----- item 7: replays after a seat change ------------------------------------------------------
def test_a_replay_after_taking_a_bots_seat_shows_nothing_from_before(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"
    store, tid = _store_table(url, "bridge", {"scoring": "rubber"}, 11, [(None, "random")] * 4, {})
    clock = FakeClock(T0)
    ann = _person(store, "Ann")

    async def run() -> None:
        table = _table(store, tid, clock, {ann.player or "": "Ann"})
        table._after_change()
        await _until(lambda: table.match.deal_number >= 1, "a second deal")
        await table.join(ann)
        await table.sit(ann, table.match.seat_name(0))  # a bot's seat mid-game: taken at the next deal
        taken_deal = table.match.deal_number + 1
        await _until(lambda: table.seats[0].player == ann.player, "the takeover")
        await _until(lambda: table.match.to_act_index == 0 or table.status == "finished", "Ann's turn")
        assert table.match.deal_number + 1 >= taken_deal
        taken = table.replays.deal_start[
            0
        ]  # (a takeover is made as a deal starts; Ann's turn holds the deal)
        ann.events.clear()
        await table.catch_up(ann, 1)  # (what `hello since=1` does)
        states = [e for e in ann.events if e["type"] == "state"]
        assert states and states[-1]["seq"] == table.seq
        for ev in states:
            assert ev["seq"] > taken or ev["seq"] == table.seq, ev["seq"]
            assert ev["view"]["deal_number"] == table.match.deal_number + 1
        # a replay within the deal after the takeover; asked again at once: the
        # current state only; later, the replay again
        since = max(table.replays.deal_start[0], taken)
        assert table.seq - since > 1, "the test wants a replay of several states"
        for wait, count in ((0.0, table.seq - since), (0.0, 1), (REPLAY_PACE, table.seq - since)):
            await clock.advance(wait)
            ann.events.clear()
            await table.catch_up(ann, since)
            assert len(ann.events) == count
            assert ["chat" in e for e in ann.events] == [False] * (count - 1) + [True]
        await table.close()

    try:
        asyncio.run(run())
    finally:
        store.close()


def test_a_replay_is_bounded_and_carries_the_chat_once(tmp_path: Any) -> None:
    """The issue's 39-byte ``hello`` with ``since`` returned 15.7 MB: every
    replayed state carried the whole (padded) chat, and an old ``since``
    replayed the game from its start.  Now a replay is of the current deal
    only, at most MAX_REPLAY states, the chat in the last one alone; an
    older ``since`` gets the current state."""
    url = f"sqlite:///{tmp_path / 'r.db'}"
    store, tid = _store_table(url, "bridge", {"scoring": "rubber"}, 11, [(None, "random")] * 4, {})
    clock = FakeClock(T0)
    spec = _person(store, "Spec")
    padding = "x" * 150

    async def run() -> None:
        table = _table(store, tid, clock, {spec.player or "": "Spec"})
        await table.join(spec)
        for i in range(3 * CHAT_BURST):  # a long chat (within the chat budget, with time passing)
            await table.say(spec, f"{padding} {i}")
            if i % CHAT_BURST == CHAT_BURST - 1:
                await clock.advance(CHAT_WINDOW)
        table._after_change()
        await _until(
            lambda: table.match.deal_number >= 1 and table.seq - table.replays.deal_start[0] > 20, "a deal"
        )
        await clock.advance(REPLAY_PACE)
        spec.events.clear()
        await table.catch_up(spec, 1)  # a game-long replay asked for: the current state only
        assert [e["seq"] for e in spec.events] == [table.seq]
        await clock.advance(REPLAY_PACE)
        spec.events.clear()
        since = table.replays.deal_start[0]
        await table.catch_up(spec, since)
        assert 1 < len(spec.events) <= MAX_REPLAY
        assert [e["seq"] for e in spec.events] == list(range(since + 1, table.seq + 1))
        sent = json.dumps(spec.events)
        assert sent.count(padding) == 3 * CHAT_BURST  # the chat once, in the last state
        assert ["chat" in e for e in spec.events][-1] is True
        assert not any("chat" in e for e in spec.events[:-1])
        await table.close()

    try:
        asyncio.run(run())
    finally:
        store.close()


# ----- the scanner: every message of whole games ------------------------------------------------
def _check_free(ev: dict[str, Any], who: str, allowed: set[str], calls: bool, declarer: bool) -> None:
    """No hidden card named in a message's text (calls such as ``7H`` look
    like cards: skipped in the auction) and no other seat's meld cards."""
    for text in _strings(ev):
        for m in MELD.finditer(text):
            if not declarer:
                raise AssertionError(f"{who}: a meld declaration in {ev}")
            assert _meld_cards(m.group(1)) <= allowed, f"{who}: {text}"
        if not calls:  # (an error's fixed examples of the card syntax, "e.g. AS, TD", aside)
            seen = set(CARD_WORD.findall(EXAMPLES.sub("", MELD.sub("", text))))
            assert seen <= allowed, f"{who}: hidden {sorted(seen - allowed)} in {ev['type']}: {text}"


def _scan(db_url: str, tid: str, received: dict[str, list[dict[str, Any]]], seat_at: dict[str, Callable[[int], int | None]]) -> int:  # fmt: skip
    """Check every event of every receiver against the stored record."""
    oracle = Oracle(db_url, tid)
    checked = 0
    for who, events in received.items():
        for ev in events:
            seq = ev.get("seq")
            assert isinstance(seq, int) and seq in oracle.snaps, f"{who}: {ev}"
            seat = seat_at[who](seq)
            if ev["type"] == "state":
                oracle.check(ev, who, seat)
                for line in ev.get("chat") or []:
                    assert not CARD_WORD.findall(line["text"]), line
            else:
                m = oracle.snaps[seq]
                allowed, _ = _allowed(oracle.game, m, seat)
                if ev["type"] == "notice" and ev.get("timeout"):
                    acted, action = oracle.actions[seq - 1]
                    before = oracle.snaps[seq - 1]
                    allowed |= {str(c) for c in before.deal.hands[acted]} if acted == seat else set()
                    if before.phase == "PLAY" and not action.upper().startswith("MELD"):
                        allowed.add(re.split(r"[:+]", action)[0])  # played: (the deal's last) card
                    calls = before.phase == "AUCTION"
                    _check_free(ev, who, allowed, calls, declarer=acted == seat)
                else:  # suggestions and errors: only to their seat, from its own view
                    _check_free(ev, who, allowed, m.phase == "AUCTION", declarer=seat is not None)
            checked += 1
    return checked


GAMES = [  # (seeds whose game lasts until Bob has played)
    pytest.param("500", {}, 2, 23, id="500"),
    pytest.param("bridge", {"scoring": "rubber"}, 2, 21, id="bridge"),
    pytest.param("coinche", {"melds": "seed"}, 2, 21, id="coinche"),
]


@pytest.mark.parametrize(("game", "options", "deals", "seed"), GAMES)
def test_no_message_of_any_type_leaks_a_card(
    game: str, options: dict[str, Any], deals: int, seed: int, db_url: str
) -> None:
    """Ann (seat 0) never acts: the timer plays all her moves (500 discards,
    coinche melds; marked away after two, she says she is back each time).  Bob watches, then takes the bot's seat 1 at the next
    deal and plays; he asks for a replay (``hello since=1``), makes a refused
    move and chats.  Ann has suggestions on (but bridge: its suggestions
    call the double-dummy solver, slow for a test) and chats.  A spectator
    watches throughout."""
    store, tid = _store_table(
        db_url, game, options, seed, [(None, None), (None, "rules"), (None, "rules"), (None, "rules")],
        {"bid_time": LIMIT, "play_time": LIMIT, "suggestions": game != "bridge", "chat": "text"},
    )  # fmt: skip
    ann, bob, spectator = _person(store, "Ann"), _person(store, "Bob"), Sink(None)
    clock = FakeClock(T0)
    taken: list[int] = []
    waited = [0]

    async def send(conn: Sink, **msg: Any) -> None:
        await dispatch.handle(table, conn, json.dumps({"v": 1, **msg}))

    async def run() -> None:
        nonlocal table
        with store.engine.begin() as conn:
            store.seat_write(conn, tid, 0, ann.player, None)
        table = _table(store, tid, clock, {ann.player or "": "Ann", bob.player or "": "Bob"})
        for conn in (ann, bob, spectator):
            await table.join(conn, 0)
        if game != "bridge":
            await send(ann, type="suggest", on=True)
        await send(ann, type="chat", text="good luck")
        table._after_change()
        await send(bob, type="sit", seat=table.match.seat_name(1))

        async def tick() -> None:
            if 0 in table.idle:  # marked away after two timeouts: back, so the timer plays her
                await send(ann, type="back")
            if table.match.to_act_index == 0:
                suggested = any(e["type"] == "suggestion" for e in ann.events)
                if game != "bridge" and not suggested and waited[0] < 600:
                    waited[0] += 1  # her first suggestion has time to come (a search thread)
                    return
                await clock.advance(LIMIT)
            elif table.match.to_act_index == 1 and table.seats[1].player == bob.player:
                if not taken:
                    taken.append(table.replays.deal_start[0])  # (taken as that deal started)
                    await send(bob, type="hello", since=1)
                    await send(bob, type="act", action="ZZ", seq=table.seq)  # refused
                    await send(bob, type="chat", text="my turn")
                legal = table.match.legal_actions()
                await send(bob, type="act", action=str(legal[-1]), seq=table.seq)

        await _until(
            lambda: table.status == "finished" or table.match.deal_number >= deals, "the deals", tick
        )
        await table.close()

    table: Any = None
    try:
        asyncio.run(run())
    finally:
        store.close()
    assert taken, "Bob never took the seat"
    kinds = {e["type"] for s in (ann, bob, spectator) for e in s.events}
    assert {"state", "notice", "error"} <= kinds, kinds
    if game != "bridge":
        assert "suggestion" in kinds
    seat_at = {
        "Ann": lambda seq: 0,
        "Bob": lambda seq: 1 if seq >= taken[0] else None,
        "spectator": lambda seq: None,
    }
    received = {"Ann": ann.events, "Bob": bob.events, "spectator": spectator.events}
    assert _scan(db_url, tid, received, seat_at) > 100
