"""The engines' shuffle is :meth:`random.Random.shuffle`, draw for draw: a
seed deals the cards it always dealt."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from trumps.core.shuffle import shuffle


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=70))
def test_the_same_order_and_the_same_state_after_as_random_shuffle(seed: int, length: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(length)), list(range(length))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()  # the same draws, so what follows is the same too


def test_the_deals_of_string_seeds_as_the_engines_seed_them() -> None:
    for n in range(300):
        ours, theirs = random.Random(f"{n}/0"), random.Random(f"{n}/0")
        a, b = list(range(52)), list(range(52))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
