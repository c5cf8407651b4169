"""The Play matchmaker's decisions, on explicit times (no clock, no I/O)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trumps
from trumps.room.people.matchmaking import (
    POPULAR,
    RULE_SETS,
    Group,
    Matchmaker,
    MatchmakingError,
    Ticket,
    rule_set,
    seats_for,
    tempo_for,
)
from trumps.room.tables.timers import TIME_LIMITS


def ticket(
    player: str,
    since: float = 0.0,
    *,
    rating: float = 1500.0,
    speed: float | None = None,
    game: str = "coinche",
    rules: str = "common",
) -> Ticket:
    return Ticket(player, game, rules, rating, speed, since)


def queue(mm: Matchmaker, *tickets: Ticket) -> Matchmaker:
    for t in tickets:
        mm.enqueue(t)
    return mm


# --------------------------------------------------------------------------- rule sets


def test_popular_rule_sets_come_from_the_engine() -> None:
    assert POPULAR["500"] == [("american", "American rules"), ("australian", "Australian rules")]
    assert [k for k, _ in POPULAR["coinche"]] == ["common", "ffb_2016", "contree_exact", "pagat"]
    assert dict(POPULAR["coinche"])["contree_exact"] == "Contrée, exact points"
    assert [k for k, _ in POPULAR["bridge"]] == ["rubber", "chicago"]
    # nothing on the curated list was dropped (a renamed preset would drop out silently)
    assert sum(len(v) for v in RULE_SETS.values()) == sum(
        len(trumps.game_class(g).schema.popular) for g in trumps.games()
    )
    for game, sets in RULE_SETS.items():
        presets = trumps.game_class(game).schema.presets
        for rs in sets:
            assert rs.game == game
            assert rs.preset is None or rs.preset in presets
            assert seats_for(rs) == 4
    assert rule_set("bridge", "rubber").options == {"scoring": "rubber"}
    assert rule_set("bridge", "chicago").preset is None
    assert rule_set("500", "australian").preset == "australian"


def test_unknown_game_or_rules_is_a_readable_error() -> None:
    with pytest.raises(MatchmakingError, match=r"no game 'poker' \(choose one of: 500, bridge, coinche\)"):
        rule_set("poker", "common")
    with pytest.raises(
        MatchmakingError, match=r"coinche has no Play rule set 'seed' \(choose one of: common"
    ):
        rule_set("coinche", "seed")
    with pytest.raises(ValueError, match="bridge has no Play rule set 'duplicate'"):
        rule_set("bridge", "duplicate")
    mm = Matchmaker()
    with pytest.raises(MatchmakingError, match="no Play rule set 'nope'"):
        mm.enqueue(ticket("A", rules="nope"))
    with pytest.raises(MatchmakingError, match="no game"):
        mm.enqueue(ticket("A", game="whist"))
    with pytest.raises(MatchmakingError, match="rating"):
        mm.enqueue(ticket("A", rating=float("nan")))
    with pytest.raises(MatchmakingError, match="speed"):
        mm.enqueue(ticket("A", speed=-1.0))
    assert len(mm) == 0


def test_settings_are_checked() -> None:
    with pytest.raises(MatchmakingError, match="start_fill_after"):
        Matchmaker(wait=10, start_fill_after=11)
    with pytest.raises(MatchmakingError, match="wait"):
        Matchmaker(wait=-1)
    assert Matchmaker(start_fill_after=3).start_fill_after == 3


# --------------------------------------------------------------------------- full tables


def test_four_at_once_make_one_full_table() -> None:
    mm = queue(Matchmaker(), *(ticket(p, 50.0 + i * 0.2) for i, p in enumerate("ABCD")))
    assert mm.next_deadline() == 50.0  # due already: poll at once
    [g] = mm.poll(50.6)
    assert g.game == "coinche" and g.rules == "common"
    assert sorted(g.players) == ["A", "B", "C", "D"]
    assert (g.seats, g.bots, g.tempo) == (4, 0, (30, 15))
    assert len(mm) == 0 and mm.waiting("coinche", "common") == 0
    assert mm.next_deadline() is None and mm.poll(100.0) == []


def test_full_table_partners_strongest_with_weakest() -> None:
    ratings = {"A": 1600.0, "B": 1500.0, "C": 1550.0, "D": 1450.0}
    mm = queue(Matchmaker(), *(ticket(p, 0.0, rating=r) for p, r in ratings.items()))
    [g] = mm.poll(0.0)
    assert g.players == ("A", "C", "D", "B")  # A & D (seats 0, 2) against C & B


def test_seven_players_one_full_table_now_three_with_a_bot_later() -> None:
    mm = queue(Matchmaker(), *(ticket(p, i / 10) for i, p in enumerate("ABCDEFG")))
    [g] = mm.poll(0.6)
    assert sorted(g.players) == ["A", "B", "C", "D"] and g.bots == 0  # the longest waiters first
    assert mm.waiting("coinche", "common") == 3
    assert mm.next_deadline() == pytest.approx(10.4)  # E's ticket, since 0.4
    assert mm.poll(10.3) == []
    [g] = mm.poll(mm.next_deadline() or 0)
    assert g.players == ("E", "F", "G") and g.bots == 1 and g.seats == 4
    assert len(mm) == 0


# --------------------------------------------------------------------------- bots after the wait


def test_two_players_get_two_bots_at_exactly_ten_seconds() -> None:
    mm = queue(Matchmaker(), ticket("A", 100.0), ticket("B", 103.0))
    assert mm.poll(100.0) == [] and mm.poll(103.0) == []
    assert mm.next_deadline() == 110.0
    assert mm.poll(109.999) == []
    assert mm.poll(110.0) == [Group("coinche", "common", ("A", "B"), 4, 2, (30, 15))]
    assert len(mm) == 0 and mm.next_deadline() is None


def test_a_lone_player_gets_three_bots_at_ten_seconds() -> None:
    mm = queue(Matchmaker(), ticket("A", 7.5, game="500", rules="american"))
    assert mm.next_deadline() == 17.5
    assert mm.poll(17.4) == []
    [g] = mm.poll(17.5)
    assert (g.game, g.rules, g.players, g.bots) == ("500", "american", ("A",), 3)


def test_a_shorter_wait_setting() -> None:
    mm = queue(Matchmaker(wait=3.0), ticket("A", 0.0))
    assert mm.next_deadline() == 3.0 and len(mm.poll(3.0)) == 1


def test_start_fill_after_starts_two_humans_early_but_not_one() -> None:
    mm = queue(Matchmaker(start_fill_after=4.0), ticket("A", 0.0), ticket("B", 1.0))
    assert mm.next_deadline() == 4.0
    assert mm.poll(3.9) == []
    [g] = mm.poll(4.0)
    assert g.players == ("A", "B") and g.bots == 2
    mm.enqueue(ticket("C", 5.0))
    assert mm.poll(9.0) == [] and mm.next_deadline() == 15.0


def test_start_fill_after_waits_for_a_compatible_companion() -> None:
    mm = queue(Matchmaker(start_fill_after=2.0), ticket("A", 0.0, rating=1500), ticket("B", 0.0, rating=2000))
    assert mm.next_deadline() == 3.0  # window 200 + 100 × 3 s covers the 500-point gap
    assert mm.poll(2.5) == []
    assert mm.poll(3.0)[0].players == ("A", "B")


# --------------------------------------------------------------------------- what never mixes


def test_different_rule_sets_or_games_never_mix() -> None:
    mm = Matchmaker()
    kinds = [("coinche", "common"), ("coinche", "pagat"), ("500", "american"), ("bridge", "rubber")]
    for game, rules in kinds:
        queue(
            mm,
            ticket(f"{rules}1", 0.0, game=game, rules=rules),
            ticket(f"{rules}2", 0.0, game=game, rules=rules),
        )
    assert len(mm) == 8 and mm.poll(0.0) == []
    groups = mm.poll(10.0)
    assert sorted((g.game, g.rules) for g in groups) == sorted(kinds)
    for g in groups:
        assert sorted(g.players) == [f"{g.rules}1", f"{g.rules}2"] and g.bots == 2


def test_two_rule_sets_make_two_full_tables() -> None:
    mm = Matchmaker()
    for i in range(8):
        mm.enqueue(ticket(f"p{i}", 0.0, rules="common" if i % 2 else "ffb_2016"))
    groups = mm.poll(0.0)
    assert [(g.rules, g.bots) for g in groups] == [("ffb_2016", 0), ("common", 0)]
    for g in groups:
        assert all((int(p[1:]) % 2 == 1) == (g.rules == "common") for p in g.players)


def test_a_rating_gap_waits_for_the_window_to_widen() -> None:
    mm = queue(Matchmaker(), *(ticket(p, 0.0, rating=1500) for p in "ABC"), ticket("D", 0.5, rating=1850))
    assert mm.poll(0.5) == []  # spread 350 > 200 + 100 × 0.5
    assert mm.next_deadline() == 1.5  # 200 + 100 × 1.5 = 350
    assert mm.poll(1.49) == []
    [g] = mm.poll(1.5)
    assert sorted(g.players) == ["A", "B", "C", "D"] and g.bots == 0


def test_a_huge_rating_gap_waits_for_the_deadline() -> None:
    mm = queue(Matchmaker(), *(ticket(p, 0.0, rating=1500) for p in "ABC"), ticket("D", 0.0, rating=4000))
    assert mm.next_deadline() == 10.0
    assert mm.poll(9.99) == []
    [g] = mm.poll(10.0)
    assert sorted(g.players) == ["A", "B", "C", "D"] and g.bots == 0


def test_the_closest_ratings_are_grouped_when_they_can() -> None:
    mm = queue(
        Matchmaker(),
        ticket("old", 0.0, rating=2400),
        *(ticket(p, 1.0, rating=1500 + 10 * i) for i, p in enumerate("ABCD")),
    )
    [g] = mm.poll(1.0)
    assert sorted(g.players) == ["A", "B", "C", "D"]
    assert mm.queued("old") is not None and mm.next_deadline() == 10.0


def test_fast_and_slow_are_not_mixed_at_once() -> None:
    mm = queue(
        Matchmaker(),
        ticket("F1", 0.0, speed=2.0),
        ticket("F2", 0.0, speed=3.0),
        ticket("S1", 0.0, speed=20.0),
        ticket("S2", 0.0, speed=30.0),
    )
    assert mm.poll(0.0) == []
    assert mm.next_deadline() == 5.0  # half the wait: speeds may mix
    [g] = mm.poll(5.0)
    assert sorted(g.players) == ["F1", "F2", "S1", "S2"]
    assert g.tempo == (60, 30)  # one slow player slows the table


def test_fast_and_slow_make_their_own_tables_and_tempos() -> None:
    mm = Matchmaker()
    for i in range(4):
        queue(mm, ticket(f"F{i}", 0.0, speed=2.0), ticket(f"S{i}", 0.0, speed=20.0))
    groups = mm.poll(0.0)
    assert sorted((g.tempo, tuple(sorted(g.players))) for g in groups) == [
        ((15, 7), ("F0", "F1", "F2", "F3")),
        ((60, 30), ("S0", "S1", "S2", "S3")),
    ]


def test_unknown_speed_suits_everyone_and_tempo_follows_known_speeds() -> None:
    mm = queue(
        Matchmaker(),
        ticket("F", 0.0, speed=2.0),
        ticket("U1", 0.0),
        ticket("U2", 0.0),
        ticket("N", 0.0, speed=8.0),
    )
    [g] = mm.poll(0.0)
    assert g.tempo == (30, 15)
    mm = queue(Matchmaker(), ticket("F", 0.0, speed=2.0), *(ticket(f"U{i}", 0.0) for i in range(3)))
    assert mm.poll(0.0)[0].tempo == (15, 7)
    mm = queue(Matchmaker(), ticket("S", 0.0, speed=16.0), *(ticket(f"U{i}", 0.0) for i in range(3)))
    assert mm.poll(0.0)[0].tempo == (60, 30)


def test_tempo_for() -> None:
    assert tempo_for([]) == (30, 15)
    assert tempo_for([None, None]) == (30, 15)
    assert tempo_for([3.9, 1.0]) == (15, 7)
    assert tempo_for([3.9, 4.0]) == (30, 15)
    assert tempo_for([15.0]) == (30, 15)
    assert tempo_for([15.1, 1.0]) == (60, 30)


# --------------------------------------------------------------------------- the queue


def test_cancel_removes() -> None:
    mm = queue(Matchmaker(), *(ticket(p, 0.0) for p in "ABC"))
    assert mm.cancel("B") is True and mm.cancel("B") is False and mm.cancel("Z") is False
    assert mm.queued("B") is None and mm.waiting("coinche", "common") == 2
    mm.enqueue(ticket("D", 1.0))
    mm.enqueue(ticket("E", 1.0))
    [g] = mm.poll(1.0)
    assert sorted(g.players) == ["A", "C", "D", "E"]
    assert mm.cancel("A") is False  # placed: no longer queued


def test_re_enqueue_replaces_the_ticket() -> None:
    mm = queue(Matchmaker(), ticket("A", 0.0))
    mm.enqueue(ticket("A", 4.0, rules="pagat"))
    assert mm.waiting("coinche", "common") == 0 and mm.waiting("coinche", "pagat") == 1
    t = mm.queued("A")
    assert t is not None and (t.rules, t.since) == ("pagat", 4.0)
    assert len(mm) == 1 and mm.next_deadline() == 14.0
    [g] = mm.poll(14.0)
    assert g.rules == "pagat" and g.players == ("A",)


def test_a_re_enqueued_player_goes_to_the_back() -> None:
    mm = queue(Matchmaker(), *(ticket(p, 0.0) for p in "ABCDE"))
    mm.enqueue(ticket("A", 0.0))  # same time, but pressed again: after E
    [g] = mm.poll(0.0)
    assert sorted(g.players) == ["B", "C", "D", "E"]


def test_next_deadline_is_later_than_the_last_poll() -> None:
    mm = queue(Matchmaker(), ticket("A", 0.0, rating=1500), ticket("B", 0.0, rating=1500))
    mm.enqueue(ticket("C", 0.3, rating=1810, speed=2.0))
    mm.enqueue(ticket("D", 0.7, rating=1500, speed=25.0))
    assert mm.poll(0.7) == []
    d = mm.next_deadline()
    assert d is not None and d > 0.7
    assert len(mm.poll(d)) == 1


# --------------------------------------------------------------------------- properties

KINDS = [("coinche", "common"), ("coinche", "pagat"), ("bridge", "rubber")]
SPEEDS = st.sampled_from([None, 2.0, 8.0, 20.0])


@dataclass
class Arrive:
    player: int
    kind: int
    rating: float
    speed: float | None
    dt: float


@dataclass
class Cancel:
    player: int
    dt: float


ACTIONS = st.lists(
    st.one_of(
        st.builds(
            Arrive,
            st.integers(0, 11),
            st.integers(0, len(KINDS) - 1),
            st.floats(1000, 2200, allow_nan=False),
            SPEEDS,
            st.floats(0, 6, allow_nan=False),
        ),
        st.builds(Cancel, st.integers(0, 11), st.floats(0, 6, allow_nan=False)),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(ACTIONS, st.sampled_from([None, 0.0, 3.0, 10.0]))
def test_glue_loop_properties(actions: list[Arrive | Cancel], fill: float | None) -> None:
    """Driven as the glue drives it: poll after each change and at each deadline.

    Every ticket ends in exactly one group (or was cancelled or replaced),
    nobody waits longer than ``wait``, groups are one rule set and never
    over-full, and the next deadline is always after the last poll.
    """
    wait = 10.0
    mm = Matchmaker(wait, fill)
    model: dict[str, Ticket] = {}  # what should be queued
    placed: list[str] = []
    enqueued = 0
    now = 0.0

    def poll(at: float) -> None:
        for g in mm.poll(at):
            assert len(set(g.players)) == len(g.players) >= 1
            assert len(g.players) <= g.seats == seats_for(rule_set(g.game, g.rules))
            assert g.bots == g.seats - len(g.players)
            assert g.tempo[0] in TIME_LIMITS and g.tempo[1] in TIME_LIMITS
            for p in g.players:
                t = model.pop(p)  # queued, and now placed: never in two groups
                assert (t.game, t.rules) == (g.game, g.rules)
                assert at <= t.since + wait
            placed.extend(g.players)
        assert all(at < t.since + wait for t in model.values())
        d = mm.next_deadline()
        assert (d is None) == (not model)
        if d is not None:
            assert at < d <= min(t.since for t in model.values()) + wait

    def advance(to: float) -> None:
        nonlocal now
        while (d := mm.next_deadline()) is not None and d <= to:
            now = d
            poll(now)
        now = to

    for a in actions:
        advance(now + a.dt)
        if isinstance(a, Arrive):
            game, rules = KINDS[a.kind]
            t = Ticket(f"p{a.player}", game, rules, a.rating, a.speed, now)
            mm.enqueue(t)
            model[t.player] = t
            enqueued += 1
        else:
            assert mm.cancel(f"p{a.player}") == (model.pop(f"p{a.player}", None) is not None)
        assert {p: mm.queued(p) for p in model} == model and len(mm) == len(model)
        poll(now)
    advance(now + wait)
    assert len(mm) == 0 and not model


def _valid_full(group: list[Ticket], now: float, mm: Matchmaker, seats: int) -> bool:
    """The rules, restated plainly: a full table of compatible players at ``now``."""
    if len(group) != seats:
        return False
    waited = now - min(t.since for t in group)
    if waited >= mm.wait:
        return True
    ratings = [t.rating for t in group]
    if max(ratings) - min(ratings) > mm.base_window + mm.widen_per_second * waited:
        return False
    speeds = [t.speed for t in group if t.speed is not None]
    mixed = any(s < 4 for s in speeds) and any(s > 15 for s in speeds)
    return not (mixed and waited < mm.mix_speeds_after)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(24, 36).map(lambda r: r * 50.0), SPEEDS),
        max_size=8,
    ),
    st.integers(0, 8),
)
def test_poll_forms_every_full_table_it_can_and_only_valid_ones(
    specs: list[tuple[int, float, float | None]], extra: int
) -> None:
    """Compared with a brute-force search over all subsets (whole-number times and
    ratings, so the arithmetic is exact)."""
    now = max((s for s, _, _ in specs), default=0) + extra
    mm = Matchmaker()
    tickets = [ticket(f"p{i}", float(s), rating=r, speed=v) for i, (s, r, v) in enumerate(specs)]
    queue(mm, *tickets)
    by_name = {t.player: t for t in tickets}
    again = queue(Matchmaker(), *tickets)
    groups = mm.poll(float(now))
    assert groups == again.poll(float(now))  # deterministic
    for g in groups:
        members = [by_name[p] for p in g.players]
        if g.bots == 0:
            assert _valid_full(members, now, mm, 4)
        else:
            assert now >= min(t.since for t in members) + mm.wait
    left = [t for t in tickets if mm.queued(t.player) is not None]
    assert not any(_valid_full(list(c), now, mm, 4) for c in itertools.combinations(left, 4))
    assert all(now < t.since + mm.wait for t in left)
    d = mm.next_deadline()
    assert d is None or d > now
