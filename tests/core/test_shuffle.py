"""The engines' shuffle is :meth:`random.Random.shuffle`, draw for draw: a
seed deals the cards it always dealt."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from trumps.core.shuffle import randbelow, seeded, shuffle


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


@given(st.text(max_size=300))
def test_seeded_is_random_random_of_the_text(text: str) -> None:
    ours, theirs = seeded(text), random.Random(text)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()  # the Mersenne Twister's state and gauss_next
    assert vars(ours) == vars(theirs)
    assert [ours.getrandbits(32) for _ in range(700)] == [theirs.getrandbits(32) for _ in range(700)]


def test_seeded_as_the_engines_seed_their_generators() -> None:
    """Every seed's first dealer and deals, as ``Match`` makes them: the
    seeds a room draws (``SystemRandom().randrange(2**63)``), small ones and
    negative ones."""
    seeds = [*range(-50, 1000), *(random.Random(33).randrange(2**63) for _ in range(2000)), 2**63 - 1, 2**80]
    for seed in seeds:
        for text in (f"{seed}/dealer", f"{seed}/0", f"{seed}/17"):
            assert seeded(text).getstate() == random.Random(text).getstate(), text
        for players in (4, 6):
            ours, theirs = seeded(f"{seed}/dealer"), random.Random(f"{seed}/dealer")
            assert randbelow(ours, players) == theirs.randrange(players)
            assert ours.getstate() == theirs.getstate()


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=2**70))
def test_randbelow_is_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [randbelow(ours, n) for _ in range(5)] == [theirs.randrange(n) for _ in range(5)]
    assert ours.getstate() == theirs.getstate()
