"""The engines' shuffle is :meth:`random.Random.shuffle`, draw for draw: a
seed deals the cards it always dealt."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import trumps.core.shuffle as shuffle_module
from trumps.core.shuffle import (
    randbelow,
    seed_key,
    seeded,
    seeded_randbelow,
    seeded_randbelow_and_shuffle,
    seeded_shuffle,
    shuffle,
)


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


# ----- the C twin (_seeded.c) of a deal's shuffle and the first dealer -----
needs_c = pytest.mark.skipif(shuffle_module._C is None, reason="_seeded.c not built (or TRUMPS_PURE=1)")


@needs_c
@given(st.text(max_size=300), st.integers(min_value=0, max_value=1_000))
def test_the_c_shuffle_is_random_random_of_the_text(text: str, length: int) -> None:
    """Any text (empty, leading NULs, four-byte characters) and any length,
    up to several of the generator's blocks of 624 outputs."""
    a, b = list(range(length)), list(range(length))
    seeded_shuffle(text, a)
    random.Random(text).shuffle(b)
    assert a == b


@needs_c
@given(st.text(max_size=100), st.integers(min_value=1, max_value=2**32 - 1))
def test_the_c_randbelow_is_randrange_of_the_text(text: str, n: int) -> None:
    assert seeded_randbelow(text, n) == random.Random(text).randrange(n)


@needs_c
def test_the_c_twin_deals_as_the_engines_always_dealt() -> None:
    """The engines' texts for many seeds, each deck's length (bridge 52,
    500 43 and 63, coinche 32) and the dealer of 4 and 6 players: the C
    twin, the Python beside it and ``random.Random`` agree."""
    seeds = [*range(-20, 300), *(random.Random(34).randrange(2**63) for _ in range(700))]
    for seed in seeds:
        for number in (0, 1, 17):
            text = f"{seed}/{number}"
            for length in (32, 43, 52, 63):
                c, py, ref = list(range(length)), list(range(length)), list(range(length))
                seeded_shuffle(text, c)
                shuffle(seeded(text), py)
                random.Random(text).shuffle(ref)
                assert c == py == ref, (text, length)
        for players in (4, 6):
            text = f"{seed}/dealer"
            assert (
                seeded_randbelow(text, players)
                == randbelow(seeded(text), players)
                == random.Random(text).randrange(players)
            )


@needs_c
@given(st.text(max_size=3000), st.integers(min_value=1, max_value=2**32 - 1), st.text(max_size=3000))
def test_the_c_dealer_and_shuffle_side_by_side_are_the_two_apart(
    dealer_text: str, n: int, deal_text: str
) -> None:
    """Any two texts (of different lengths, longer than the generator's 624
    words: the C code's other branch), any bound."""
    ours, ref = list(range(63)), list(range(63))
    got = seeded_randbelow_and_shuffle(dealer_text, n, deal_text, ours)
    random.Random(deal_text).shuffle(ref)
    assert (got, ours) == (random.Random(dealer_text).randrange(n), ref)


@needs_c
def test_the_c_dealer_and_first_deal_as_the_engines_draw_them() -> None:
    seeds = [*range(-20, 300), *(random.Random(35).randrange(2**63) for _ in range(700)), 2**80]
    for seed in seeds:
        for players, length in ((4, 32), (4, 43), (4, 52), (6, 63)):
            ours, ref = list(range(length)), list(range(length))
            got = seeded_randbelow_and_shuffle(f"{seed}/dealer", players, f"{seed}/0", ours)
            random.Random(f"{seed}/0").shuffle(ref)
            assert got == random.Random(f"{seed}/dealer").randrange(players), seed
            assert ours == ref, seed


@needs_c
def test_the_c_twin_refuses_bad_arguments() -> None:
    from trumps.core import _seeded

    with pytest.raises(ValueError):
        _seeded.randbelow(seed_key("x"), 0)
    with pytest.raises(TypeError):
        _seeded.shuffle("not bytes", [1, 2])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _seeded.shuffle(seed_key("x"), (1, 2))  # type: ignore[arg-type]
    items = [1, 2, 3]
    with pytest.raises(ValueError):
        _seeded.randbelow_and_shuffle(seed_key("x"), 0, seed_key("y"), items)
    with pytest.raises(TypeError):
        _seeded.randbelow_and_shuffle(seed_key("x"), 4, "not bytes", items)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _seeded.randbelow_and_shuffle(seed_key("x"), 4, seed_key("y"), (1, 2))  # type: ignore[arg-type]
    assert items == [1, 2, 3]  # nothing shuffled by a refused call


def test_without_the_c_twin_the_python_deals_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """``TRUMPS_PURE`` or no compiler: the functions fall back to the Python."""
    monkeypatch.setattr(shuffle_module, "_C", None)
    for n in range(50):
        a, b = list(range(52)), list(range(52))
        seeded_shuffle(f"{n}/3", a)
        random.Random(f"{n}/3").shuffle(b)
        assert a == b
        assert seeded_randbelow(f"{n}/dealer", 4) == random.Random(f"{n}/dealer").randrange(4)
        c = list(range(43))
        assert seeded_randbelow_and_shuffle(f"{n}/dealer", 6, f"{n}/0", c) == random.Random(
            f"{n}/dealer"
        ).randrange(6)
        random.Random(f"{n}/0").shuffle(d := list(range(43)))
        assert c == d


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [
        ("bridge", None, None),
        ("500", "american", None),
        ("500", None, {"players": "2v2v2"}),
        ("coinche", None, None),
    ],
)
def test_a_game_deals_its_first_deal_as_before_whichever_way_it_starts(
    game: str, preset: str | None, options: dict[str, object] | None
) -> None:
    """The first dealer and deal drawn side by side at the start are those
    of the generators apart (:meth:`Match.deal_rng`), and a game given its
    dealer (nothing drawn at the start) deals the same cards for that
    dealer."""
    import trumps

    for seed in (*range(40), 2**63 - 1):
        m = trumps.new_game(game, preset=preset, options=options, seed=seed)
        rng = random.Random(f"{seed}/dealer")
        assert m.first_dealer == rng.randrange(m.players)
        given = trumps.new_game(game, preset=preset, options=options, seed=seed, dealer=m.first_dealer)
        assert given.deal_records == m.deal_records
        assert m._first_cards is None  # taken by the first deal: nothing kept after it
