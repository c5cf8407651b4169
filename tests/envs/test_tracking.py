"""The tracked observation tensors equal the ones encoded from each seat's
view after every action, in random deals of every configuration the
encoding tests cover (``TRUMPS_ENV_DEALS`` deals each, 40 by default)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import trumps  # noqa: E402
from trumps.envs.encoding import Spec  # noqa: E402
from trumps.envs.tracking import ObservationMismatch, ObservationTracker  # noqa: E402

from .test_encoding import CONFIGS  # noqa: E402


def _play(game: str, preset: str | None, options: dict[str, Any], deals: int, *, every_seat: bool) -> int:
    spec: Spec | None = None
    steps = 0
    for s in range(deals):
        m = trumps.new_game(game, preset=preset, options=options, seed=1000 + s)
        spec = spec or Spec(m)
        tracker = ObservationTracker(spec, check=True)
        tracker.reset(m)
        rng = random.Random(s)
        start = len(m.results)
        while True:
            # every seat after every action, or (as an AEC loop does) the seat
            # to act and now and then another, so some tensors go stale
            seats = (
                range(m.players)
                if every_seat
                else [x for x in range(m.players) if x == m.to_act_index or rng.random() < 0.2]
            )
            for seat in seats:
                tracker.observe(seat)  # raises ObservationMismatch
            if m.is_over or len(m.results) > start:
                break
            tracker.apply(rng.choice(m.legal_actions()))
            steps += 1
    return steps


@pytest.mark.parametrize(("game", "preset", "options"), CONFIGS)
def test_tracked_tensors_equal_the_views(game: str, preset: str | None, options: dict[str, Any]) -> None:
    deals = int(os.environ.get("TRUMPS_ENV_DEALS", "40"))
    assert _play(game, preset, options, deals, every_seat=True) > 0
    _play(game, preset, options, deals // 2, every_seat=False)


def test_a_wrong_tensor_is_caught() -> None:
    m = trumps.new_game("bridge", seed=3)
    tracker = ObservationTracker(Spec(m), check=True)
    tracker.reset(m)
    tracker.observe(0)
    assert tracker._table is not None
    tracker._table[5] += 1.0  # what a missed update would leave (seat 0's hand)
    with pytest.raises(ObservationMismatch, match="hand"):
        tracker.observe(0)


def test_observe_returns_a_copy() -> None:
    m = trumps.new_game("coinche", preset="ffb_2016", seed=3)
    tracker = ObservationTracker(Spec(m))
    tracker.reset(m)
    first = tracker.observe(0)
    first[:] = 7.0
    assert not np.array_equal(tracker.observe(0), first)


WHOLE_MATCHES: list[tuple[str, str | None, dict[str, Any]]] = [
    ("bridge", None, {"scoring": "rubber", "claims": "consent"}),
    ("bridge", None, {"scoring": "chicago", "claims": "verify"}),
    ("500", "american", {"nullo_plays": "both_hands", "open_misere_expose": "after_first_trick"}),
    ("500", "australian", {"players": "3v3"}),
    ("coinche", "seed", {}),
]


@pytest.mark.parametrize(("game", "preset", "options"), WHOLE_MATCHES)
def test_tracked_tensors_across_deals(game: str, preset: str | None, options: dict[str, Any]) -> None:
    """Whole matches, deal after deal (claims, rubbers, open hands), every
    seat checked after every action."""
    steps = deals = 0
    for s in range(3):
        m = trumps.new_game(game, preset=preset, options=options, seed=50 + s)
        tracker = ObservationTracker(Spec(m), check=True)
        tracker.reset(m)
        rng = random.Random(s)
        while not m.is_over and steps < 4000 * (s + 1):
            for seat in range(m.players):
                tracker.observe(seat)
            legal = m.legal_actions()
            # low calls mostly: a random 10NT going set ends a 500 game in one deal
            tracker.apply(rng.choice(legal[:3] if m.phase == "AUCTION" and rng.random() < 0.9 else legal))
            steps += 1
        deals += len(m.results)
    assert deals > 3, "the matches ended after their first deals"


@pytest.mark.parametrize(("game", "preset", "options"), CONFIGS)
def test_copies_and_unread_trackers_follow_the_views(
    game: str, preset: str | None, options: dict[str, Any]
) -> None:
    """A tracker read now and then (its table left unbuilt, or stale, for
    several actions) and copies of it on clones of the match, made at random
    points and stepped with the same actions, give the views' tensors; so does
    ``observe_into`` into a slice of a larger array."""
    deals = max(4, int(os.environ.get("TRUMPS_ENV_DEALS", "40")) // 4)
    for s in range(deals):
        m = trumps.new_game(game, preset=preset, options=options, seed=500 + s)
        tracker = ObservationTracker(Spec(m), check=True)
        tracker.reset(m)
        size = tracker.spec.observation.size
        rng = random.Random(s)
        copies: list[ObservationTracker] = []
        start = len(m.results)
        while not m.is_over and len(m.results) == start:
            if rng.random() < 0.3:
                tracker.observe(rng.randrange(m.players))
            if rng.random() < 0.05:
                copies.append(tracker.copy(m.clone()))
            for c in copies:
                seat = rng.randrange(m.players)
                out = np.full(size + 3, 9.0, dtype=np.float32)
                c.observe_into(seat, out[2 : 2 + size])  # checked against the view
                assert out[0] == out[1] == out[-1] == 9.0
                assert np.array_equal(out[2 : 2 + size], tracker.observe(seat))
            action = rng.choice(m.legal_actions())
            for c in copies:
                c.apply(action)
            tracker.apply(action)


def test_a_copy_is_independent() -> None:
    m = trumps.new_game("bridge", seed=4)
    tracker = ObservationTracker(Spec(m), check=True)
    tracker.reset(m)
    before = tracker.observe(0)
    clone = tracker.copy(m.clone())
    assert clone.match is not tracker.match and clone._table is not tracker._table
    assert clone._index is tracker._index  # the seat index arrays are shared, never written
    tracker.apply(m.legal_actions()[0])
    tracker.observe(0)
    assert np.array_equal(clone.observe(0), before)


def test_the_last_card_of_a_match_then_copies_and_reads() -> None:
    """A match that ends with a card (one bridge board) leaves its numbers
    to be read again from the view when first read: a copy made before
    that read, and the tracker itself, give the views' tensors."""
    for s in range(6):
        m = trumps.new_game("bridge", seed=70 + s)
        tracker = ObservationTracker(Spec(m), check=True)
        tracker.reset(m)
        tracker.observe(0)
        rng = random.Random(s)
        while not m.is_over:
            tracker.apply(rng.choice(m.legal_actions()))
        if not m.results[-1].get("contract"):
            continue  # passed out: no card was played
        assert tracker._table is not None and tracker._stale
        copy = tracker.copy(m.clone())
        for seat in range(4):
            copy.observe(seat)  # checked against the view
            tracker.observe(seat)
        assert not tracker._stale
