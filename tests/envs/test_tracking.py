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
                else [x for x in range(m.players) if x == m.to_act or rng.random() < 0.2]
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
