"""Issue 29, item 8: chips and ratings cannot be farmed against bots.

A Compete game with a ``strong`` bot partner against ``random`` bots took
1,000 chips to 3,250 in 23 s, and 25 such Join games took a rating from
1,000 to 1,549.  Now chips and ratings move only in games between people
(accounts on at least two sides), and at a Compete table every bot plays
at one level; any other game refunds every buy-in and rates nobody.  On
both databases."""

from __future__ import annotations

import asyncio
import functools
from types import SimpleNamespace
from typing import Any

import pytest
from peers import create_table, new_account, peer
from starlette.testclient import TestClient

import trumps
from trumps.room.compete import competition
from trumps.room.compete.competition import Entry, leaderboard, pay_out, start_competition
from trumps.room.people import ratings
from trumps.room.people.presence import People
from trumps.room.people.ratings import SeatEntry, rate_game
from trumps.room.storage.store import Store

LEVELS = ("random", "easy", "normal", "strong")


def account(store: Store, name: str) -> str:
    """An account (a person) with the starting 1,000 chips."""
    from trumps.room.storage.db import Player

    pid = store.create_player(name)
    with store.sessions.begin() as s:
        row = s.get(Player, pid)
        assert row is not None
        row.username_key, row.chips = name.lower(), 1000
    return pid


def compete(store: Store, seats: list[tuple[str | None, str | None]], buy_in: int = 110) -> str | None:
    """A 500 Compete game at four seats (``(player, bot)`` each; seats 0 and
    2 are one side), won by seats 0 and 2, stored and paid out as the table
    does it; returns the reason nothing was paid (None: paid)."""
    host = next(p for p, _ in seats if p is not None)
    tid = store.create_table("500", None, {}, 3, host, 4)
    for i, (player, bot) in enumerate(seats):
        store.set_seat(tid, i, player, bot)
    people = [p for p, _ in seats if p is not None]
    start_competition(store, tid, people, buy_in, 1.0)
    entries: list[Entry] = [
        {"player": p, "seat": i, "won": i % 2 == 0, "score": 510 if i % 2 == 0 else 120, "deals": 9}
        for i, (p, _) in enumerate(seats)
        if p is not None
    ]
    return pay_out(store, tid, "500", buy_in, entries, 2, False, 2.0)


def chips(store: Store, *pids: str) -> list[int]:
    return [competition.chips(store, p) for p in pids]


@pytest.mark.parametrize(
    ("partner", "opponent"), [("strong", "random"), ("easy", "easy"), ("random", "strong")]
)
def test_one_person_and_bots_wins_no_chips_and_gets_the_buy_in_back(
    store: Store, partner: str, opponent: str
) -> None:
    ann = account(store, "Ann")
    for _ in range(3):  # won every time: still 1,000 chips
        reason = compete(store, [(ann, None), (None, opponent), (None, partner), (None, opponent)])
        assert reason == competition.BETWEEN_PEOPLE
    assert chips(store, ann) == [1000]
    assert leaderboard(store) == []  # played for nothing: neither a game nor a win on the board


def test_two_people_on_one_side_against_bots_win_no_chips(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    reason = compete(store, [(ann, None), (None, "random"), (bob, None), (None, "random")])
    assert reason == competition.BETWEEN_PEOPLE
    assert chips(store, ann, bob) == [1000, 1000]


def test_two_people_on_two_sides_play_for_chips_with_bots_of_one_level(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    assert compete(store, [(ann, None), (bob, None), (None, "strong"), (None, "strong")]) is None
    assert chips(store, ann, bob) == [1000 - 110 + 200, 1000 - 110]
    assert [(r["name"], r["won"]) for r in leaderboard(store)] == [("Ann", 90), ("Bob", -110)]


def test_bots_of_mixed_levels_pay_nothing_even_between_people(store: Store) -> None:
    """The host cannot give one person a strong partner and the other a random one."""
    ann, bob = account(store, "Ann"), account(store, "Bob")
    reason = compete(store, [(ann, None), (bob, None), (None, "strong"), (None, "random")])
    assert reason == competition.MIXED_BOTS
    assert chips(store, ann, bob) == [1000, 1000]


def test_a_guest_is_not_a_second_person(store: Store) -> None:
    ann = account(store, "Ann")
    guest = store.create_player("Guest")
    tid = store.create_table("500", None, {}, 3, ann, 4)
    start_competition(store, tid, [ann], 30, 1.0)
    entries: list[Entry] = [
        {"player": ann, "seat": 0, "won": True, "score": 510, "deals": 9},
        {"player": guest, "seat": 1, "won": False, "score": 100, "deals": 9},
    ]
    assert pay_out(store, tid, "500", 30, entries, 2, False, 2.0) == competition.BETWEEN_PEOPLE
    assert chips(store, ann) == [1000]


def seat(player: str | None, bot: str | None, team: int) -> SeatEntry:
    return {"player": player, "bot": bot, "team": team}


def test_one_person_and_bots_moves_no_rating(store: Store) -> None:
    ann = account(store, "Ann")
    for n in range(5):
        tid = store.create_table("500", None, {}, n, ann, 4)
        seats = [
            seat(ann, None, 0),
            seat(None, "random", 1),
            seat(None, "strong", 0),
            seat(None, "random", 1),
        ]
        assert rate_game(store, tid, "500", seats, [510, 100], 0, float(n)) == {}
    assert ratings.rating(store, ann, "500") == ratings.rating(store, "nobody", "500")  # 1000, 0 games
    assert ratings.leaderboard(store, "500") == []


def test_partners_against_bots_move_no_rating_people_on_two_sides_do(store: Store) -> None:
    ann, bob = account(store, "Ann"), account(store, "Bob")
    tid = store.create_table("500", None, {}, 1, ann, 4)
    partners = [seat(ann, None, 0), seat(None, "random", 1), seat(bob, None, 0), seat(None, "random", 1)]
    assert rate_game(store, tid, "500", partners, [510, 100], 0, 1.0) == {}
    opposed = [seat(ann, None, 0), seat(bob, None, 1), seat(None, "easy", 0), seat(None, "easy", 1)]
    out = rate_game(store, tid, "500", opposed, [510, 100], 0, 2.0)
    assert set(out) == {ann, bob} and out[ann][0] > ratings.DEFAULT_MU > out[bob][0]


class _Table(SimpleNamespace):
    """What the end of a game reads of a finished table (:meth:`People.finished`:
    the competition's unpaid notice, the unrated one), and the notices it gets."""

    async def notify(self, text: str, **extra: Any) -> None:
        self.notices.append((text, extra))


def finished_table(seats: list[tuple[str | None, str | None]], compete: bool) -> _Table:
    return _Table(
        match=trumps.new_game("500", seed=1),
        seats=[SimpleNamespace(player=p, bot=b) for p, b in seats],
        settings=SimpleNamespace(competition=compete, kind="compete" if compete else "join"),
        notices=[],
    )


def test_the_end_of_the_game_says_why_nothing_moved(store: Store) -> None:
    asyncio.run(_the_end_says_why(People(store, {}, {})))


async def _the_end_says_why(people: People) -> None:
    people.accounts.update({"ann": True, "bob": True, "guest": False})
    people.on_finished.append(functools.partial(competition.tell_unpaid, people=people))  # as the room does
    alone = finished_table([("ann", None), (None, "random"), (None, "strong"), (None, "random")], True)
    await people.finished(alone)  # type: ignore[arg-type]
    assert alone.notices == [
        (competition.BETWEEN_PEOPLE, {"kind": "unpaid"}),
        (ratings.NOT_RATED, {"kind": "unrated"}),
    ]
    mixed = finished_table([("ann", None), ("bob", None), (None, "strong"), (None, "random")], True)
    await people.finished(mixed)  # type: ignore[arg-type]
    assert mixed.notices == [(competition.MIXED_BOTS, {"kind": "unpaid"})]
    fair = finished_table([("ann", None), ("bob", None), (None, "easy"), (None, "easy")], False)
    await people.finished(fair)  # type: ignore[arg-type]
    assert fair.notices == []
    guests = finished_table([("guest", None), (None, "easy"), (None, "easy"), (None, "easy")], False)
    await people.finished(guests)  # type: ignore[arg-type]
    assert guests.notices == []  # guests are never rated: nothing to explain


def test_a_compete_table_refuses_a_bot_of_another_level_when_it_is_seated(client: TestClient) -> None:
    """The host learns the rule when seating bots, not at the end of a game
    played for nothing: at a Compete table the second level is refused
    (``easy`` and ``rules`` are one level), and filling follows the same
    rule.  A Join table takes any mix."""
    ann = new_account(client, "annfarm")
    compete = create_table(client, ann, settings={"buy_in": 30})["id"]
    join = create_table(client, ann)["id"]
    with peer(client, compete, ann, "ann") as a:
        a.state()
        a.send(type="bot", seat="E", kind="strong")
        a.state(lambda e: e["table"]["seats"][1]["bot"] == "strong")
        a.send(type="bot", seat="W", kind="random")
        assert a.error() == "at a Compete table every bot plays at the same level: strong here"
        a.send(type="fill", kind="easy")
        assert a.error() == "at a Compete table every bot plays at the same level: strong here"
        a.send(type="bot", seat="E", kind="random")  # replacing the only bot: its seat does not count
        a.state(lambda e: e["table"]["seats"][1]["bot"] == "random")
    with peer(client, join, ann, "ann") as a:
        a.state()
        a.send(type="bot", seat="E", kind="strong")
        a.send(type="bot", seat="W", kind="random")
        a.state(lambda e: [s["bot"] for s in e["table"]["seats"]][1::2] == ["strong", "random"])
