"""Matchpoints and cross-IMPs per deal, the score sheet and the ranking,
checked against counting by hand (ties, one entrant, many)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trumps.bridge.scoring import imps
from trumps.tournaments import TournamentError, deal_values, frequency_table, standings


def by_hand(scores: dict[str, int]) -> dict[str, float]:
    """Matchpoints counted one comparison at a time: 1 per result beaten,
    ½ per tie, over the other results."""
    out = {}
    for e, s in scores.items():
        others = [t for f, t in scores.items() if f != e]
        if not others:
            out[e] = 50.0
            continue
        won = sum(1.0 if s > t else 0.5 if s == t else 0.0 for t in others)
        out[e] = 100.0 * won / len(others)
    return out


def test_a_500_deal_with_ties() -> None:
    # 500: South's side made 8♥ (+300) at two tables, went down at one, made 7♠ at one
    scores = {"ann": 300, "bob": 300, "cat": -280, "dan": 140}
    assert deal_values(scores) == {
        "ann": pytest.approx(83.333333),
        "bob": pytest.approx(83.333333),
        "cat": 0.0,
        "dan": pytest.approx(33.333333),
    }
    assert deal_values(scores) == pytest.approx(by_hand(scores))


def test_one_entrant_scores_the_average() -> None:
    assert deal_values({"ann": 520}) == {"ann": 50.0}
    assert deal_values({"ann": 520}, "imps") == {"ann": 0.0}
    [only] = standings({"ann": {0: 520, 1: -100}}, 2)
    assert (only.position, only.score, only.deals) == (1, 50.0, 2)


def test_everyone_equal_is_fifty_percent() -> None:
    assert set(deal_values({e: 162 for e in "abcdef"}).values()) == {50.0}


def test_coinche_frequency_table_is_the_travelling_sheet() -> None:
    scores = {"a": 162, "b": 82, "c": 162, "d": -160, "e": 162}
    sheet = frequency_table(scores)
    assert [(f.score, f.count) for f in sheet] == [(162, 3), (82, 1), (-160, 1)]
    assert [f.value for f in sheet] == [pytest.approx(75.0), 25.0, 0.0]


def test_cross_imps_are_averaged_over_the_others() -> None:
    scores = {"a": 620, "b": 170, "c": -100}
    values = deal_values(scores, "imps")
    assert values["a"] == pytest.approx((imps(450) + imps(720)) / 2)
    assert values["c"] == pytest.approx((imps(-720) + imps(-270)) / 2)
    assert sum(values.values()) == pytest.approx(0.0)


def test_standings_share_positions_and_skip_after_a_tie() -> None:
    scores = {"a": {0: 10, 1: 10}, "b": {0: 10, 1: 10}, "c": {0: 0, 1: 0}, "d": {0: -5, 1: -5}}
    rows = standings(scores, 2)
    assert [(r.entrant, r.position) for r in rows][:2] in ([("a", 1), ("b", 1)], [("b", 1), ("a", 1)])
    assert [(r.entrant, r.position) for r in rows][2:] == [("c", 3), ("d", 4)]


def test_unfinished_entrants_count_in_the_field_but_are_ranked_only_when_asked() -> None:
    scores = {"a": {0: 100, 1: 50}, "b": {0: 50, 1: 100}, "late": {0: 200}}
    final = standings(scores, 2)
    assert {r.entrant for r in final} == {"a", "b"}
    # deal 0: late beat both, so a (who beat b) has 50 % and b 0 %; deal 1: b beat a
    assert {r.entrant: r.score for r in final} == {"a": pytest.approx(25.0), "b": pytest.approx(50.0)}
    so_far = standings(scores, 2, complete_only=False)
    assert so_far[0].entrant == "late" and so_far[0].deals == 1 and so_far[0].score == 100.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(TournamentError):
        deal_values({"a": 1}, "total points")
    with pytest.raises(TournamentError):
        standings({"a": {5: 10}}, 2)


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-2000, 2000), min_size=1, max_size=40))
def test_matchpoints_agree_with_counting_by_hand(scores: dict[str, int]) -> None:
    assert deal_values(scores) == pytest.approx(by_hand(scores))
    # the percentages of a field always average 50
    assert sum(deal_values(scores).values()) / len(scores) == pytest.approx(50.0)


def test_many_entrants_rank_as_counted_by_hand() -> None:
    rng = random.Random(4)
    deals = 6
    scores = {
        f"p{i}": {k: rng.choice([-400, -120, 0, 80, 120, 250, 520]) for k in range(deals)} for i in range(300)
    }
    rows = standings(scores, deals)
    per_deal = [by_hand({e: s[k] for e, s in scores.items()}) for k in range(deals)]
    expected = {e: sum(d[e] for d in per_deal) / deals for e in scores}
    assert {r.entrant: r.score for r in rows} == pytest.approx(expected)
    ordered = sorted(expected.values(), reverse=True)
    for r in rows:
        assert r.position == 1 + sum(1 for v in ordered if v > r.score + 1e-9)
