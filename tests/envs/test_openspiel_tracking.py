"""The OpenSpiel states keep their observation tensors with an
:class:`~trumps.envs.tracking.ObservationTracker`: differential tests
against the tensors encoded from scratch from each seat's view, the way
every call computed them before (``TrumpsObserver.set_from_view``).

Random deals (``TRUMPS_OS_DEALS`` per game, 200 by default; fewer for the
extra configurations), dealt as chance outcomes: after every action, for
every seat, the tracked tensor -- through ``observation_tensor`` as Python
calls it and through pyspiel's own C++ path (the game's observer) -- equals
the one from scratch, and so does the information state tensor of a seat.
States copied mid-deal (``clone()``, ``child()``, ``serialize()`` /
``deserialize_state``, some before any tensor was asked for) then take the
same actions as the original and give the same tensors at every step."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from trumps.envs.openspiel_game import TrumpsObserver, TrumpsState, register  # noqa: E402
from trumps.envs.tracking import ObservationMismatch  # noqa: E402

register()

DEALS = int(os.environ.get("TRUMPS_OS_DEALS", "200"))

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("bridge", {}),
    ("500", {"preset": "american"}),
    ("coinche", {"preset": "ffb_2016"}),
]
MORE: list[tuple[str, dict[str, Any]]] = [
    ("500", {"preset": "australian", "options": "players:3v3"}),
    ("500", {"preset": "american", "options": "players:2v2v2;kitty_size:5"}),
    ("500", {"preset": "american", "options": "nullo_plays:both_hands;open_misere_expose:after_first_trick"}),
    ("coinche", {"preset": "seed"}),
    ("coinche", {"preset": "common", "options": "belote_requires_announcement:true;melds:seed"}),
    ("bridge", {"dealer": 3}),
    ("coinche", {"preset": "ffb_2016", "dealer": 1}),
]


class Scratch:
    """The tensors as every call encoded them before: from the seat's view."""

    def __init__(self, game: Any) -> None:
        self.obs = TrumpsObserver(game.config, False)
        self.info = TrumpsObserver(game.config, True)

    def observation(self, state: TrumpsState, player: int) -> list[float]:
        self.obs.set_from_view(state, player)
        out: list[float] = self.obs.tensor.tolist()
        return out

    def information_state(self, state: TrumpsState, player: int) -> list[float]:
        self.info.set_from_view(state, player)
        out: list[float] = self.info.tensor.tolist()
        return out


def _copy(game: Any, state: TrumpsState, action: int, rng: random.Random) -> tuple[str, TrumpsState]:
    """A copy of ``state`` as it will be after ``action``, made one of the ways
    OpenSpiel makes them."""
    how = rng.choice(["clone", "child", "deserialize"])
    if how == "child":
        return how, state.child(action)
    copy = state.clone() if how == "clone" else game.deserialize_state(state.serialize())
    copy.apply_action(action)
    return how, copy


def _play(name: str, params: dict[str, Any], deals: int) -> dict[str, int]:
    g = pyspiel.load_game(f"python_trumps_{name}", params)
    scratch = Scratch(g)
    n = g.num_players()
    counts = {"steps": 0, "compared": 0, "clone": 0, "child": 0, "deserialize": 0, "untracked": 0}
    for deal in range(deals):
        rng = random.Random(deal)
        s = g.new_initial_state()
        # a quarter of the deals ask for no tensor until some way into the
        # deal: copies made before the state has a tracker
        quiet = rng.randrange(40, 120) if deal % 4 == 3 else 0
        copies: list[TrumpsState] = []
        step = 0
        while True:
            if step >= quiet:
                for p in range(n):
                    want = scratch.observation(s, p)
                    assert s.observation_tensor(p) == want, (name, deal, step, p)
                    for c in copies:
                        assert c.observation_tensor(p) == want, (name, deal, step, p)
                    counts["compared"] += 1 + len(copies)
                # pyspiel's C++ path (the game's observers, reading the same
                # trackers), one seat a step
                p = step % n
                want = scratch.observation(s, p)
                want_info = scratch.information_state(s, p)
                for x in (s, *copies):
                    assert pyspiel.State.observation_tensor(x, p) == want, (name, deal, step, p)
                    assert pyspiel.State.information_state_tensor(x, p) == want_info, (name, deal, step, p)
                if s.current_player() >= 0:
                    assert s.observation_tensor() == s.observation_tensor(s.current_player())
            elif s.match is not None and s.holder.tracker is None:
                counts["untracked"] += 1
            # the Python fast paths agree with pyspiel's
            assert s.is_chance_node() == pyspiel.State.is_chance_node(s)
            assert s.legal_actions() == pyspiel.State.legal_actions(s)
            for p in range(n):
                assert s.legal_actions(p) == pyspiel.State.legal_actions(s, p)
            for c in copies:
                assert c.history() == s.history() and str(c) == str(s)
                assert c.legal_actions() == s.legal_actions()
            if s.is_terminal():
                assert all(c.is_terminal() and c.returns() == s.returns() for c in copies)
                break
            if s.is_chance_node():
                action = rng.choice(s.chance_outcomes())[0]
            else:
                action = rng.choice(s.legal_actions())
            made = None
            if len(copies) < 3 and rng.random() < 0.04:
                how, made = _copy(g, s, action, rng)
                counts[how] += 1
            s.apply_action(action)
            for c in copies:
                c.apply_action(action)
            if made is not None:
                copies.append(made)
            step += 1
            counts["steps"] += 1
    return counts


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_tracked_tensors_equal_the_ones_from_scratch(name: str, params: dict[str, Any]) -> None:
    counts = _play(name, params, DEALS)
    assert counts["compared"] > 50 * DEALS
    assert min(counts["clone"], counts["child"], counts["deserialize"]) > DEALS // 10, counts
    assert counts["untracked"] > 0, counts


@pytest.mark.parametrize(("name", "params"), MORE)
def test_tracked_tensors_in_more_configurations(name: str, params: dict[str, Any]) -> None:
    counts = _play(name, params, max(8, DEALS // 10))
    assert counts["compared"] > 0


def test_the_check_mode_compares_each_tensor_with_the_view() -> None:
    g = pyspiel.load_game("python_trumps_coinche", {"preset": "ffb_2016"})
    g.config.check_observations = True
    rng = random.Random(5)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    for _ in range(10):
        s.apply_action(rng.choice(s.legal_actions()))
        for p in range(4):
            s.observation_tensor(p)  # each compared with the seat's view
    tracker = s.tracked()
    assert tracker is not None and tracker.check
    c = s.clone()
    assert c.holder.tracker is not None and c.holder.tracker.check
    assert c.holder.tracker._table is not tracker._table
    assert tracker._table is not None
    tracker._table[: tracker._zero] = 0.0  # what missed updates would leave
    with pytest.raises(ObservationMismatch):
        s.observation_tensor(0)
    with pytest.raises(ObservationMismatch):
        pyspiel.State.observation_tensor(s, 0)
    c.observation_tensor(0)  # the clone has a table of its own


def test_bad_players_are_refused_as_pyspiel_refuses_them() -> None:
    g = pyspiel.load_game("python_trumps_bridge")
    s = g.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        s.observation_tensor()  # a chance node: no player
    with pytest.raises(pyspiel.SpielError):
        pyspiel.State.observation_tensor(s)
    for bad in (-1, 4):
        with pytest.raises(pyspiel.SpielError):
            s.observation_tensor(bad)
        with pytest.raises(pyspiel.SpielError):
            pyspiel.State.observation_tensor(s, bad)
    rng = random.Random(1)
    while s.is_chance_node():
        s.apply_action(rng.choice(s.chance_outcomes())[0])
    with pytest.raises(pyspiel.SpielError):
        s.legal_actions(-1)
    with pytest.raises(pyspiel.SpielError):
        pyspiel.State.legal_actions(s, -1)
    # numpy's integers are players too, as pybind11 takes them
    assert s.observation_tensor(np.int64(2)) == pyspiel.State.observation_tensor(s, 2)
    assert s.legal_actions(np.int64(s.current_player())) == pyspiel.State.legal_actions(s)
    with pytest.raises(TypeError):
        s.observation_tensor(1.0)
    with pytest.raises(TypeError):
        pyspiel.State.observation_tensor(s, 1.0)


@pytest.mark.parametrize(("name", "params"), GAMES + MORE)
def test_chance_outcomes_are_the_cards_not_dealt(name: str, params: dict[str, Any]) -> None:
    """The outcomes kept as the deal goes (not worked out from the dealt
    cards at each call) are the deck indices not dealt yet, in order, each
    as likely; copies mid-deal keep their own."""
    game = pyspiel.load_game(f"python_trumps_{name}", params)
    rng = random.Random(5)
    for _ in range(3):
        s = game.new_initial_state()
        copies = []
        while s.is_chance_node():
            n = len(s.tg.spec.deck)
            dealt = set(s.dealt)
            want = [(i, 1.0 / (n - len(dealt))) for i in range(n) if i not in dealt]
            assert s.chance_outcomes() == want
            for c in copies:
                left = [i for i in range(n) if i not in set(c.dealt)]
                assert c.chance_outcomes() == [(i, 1.0 / len(left)) for i in left]
            if rng.random() < 0.1:
                copies.append(s.clone())
            s.apply_action(rng.choice(want)[0])


def test_the_tensor_list_is_tolist() -> None:
    from trumps.envs._step import as_list

    rng = np.random.default_rng(0)
    for density in (0.0, 0.05, 0.5, 1.0):
        t = np.where(rng.random(700) < density, rng.normal(size=700), 0.0).astype(np.float32)
        out = as_list(t)
        assert out == t.tolist() and all(type(v) is float for v in out)


@pytest.mark.parametrize(("name", "params"), GAMES + MORE[:2])
def test_kept_lists_follow_sparse_reads(name: str, params: dict[str, Any]) -> None:
    """The lists the state keeps per seat (``ObservationLists``) brought up
    to date however seldom a seat is read: the acting seat at most steps,
    another now and then, some steps none, some seats asked twice; every
    list new, of floats, and the caller's changes to it go nowhere."""
    g = pyspiel.load_game(f"python_trumps_{name}", params)
    scratch = Scratch(g)
    n = g.num_players()
    kept = 0
    for deal in range(max(4, DEALS // 20)):
        rng = random.Random(100 + deal)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
                continue
            r = rng.random()
            seats = [] if r < 0.2 else [s.current_player()] if r < 0.8 else [rng.randrange(n)] * 2
            for p in seats:
                got = s.observation_tensor(p)
                assert got == scratch.observation(s, p), (name, deal, p)
                assert all(type(v) is float for v in got)
                got[:] = [7.0] * len(got)  # the caller's list: the state's is not touched
                assert s.observation_tensor(p) == scratch.observation(s, p)
            kept += s.holder.lists is not None
            s.apply_action(rng.choice(s.legal_actions()))
    assert kept > 0


def test_inverse_index_refuses_a_cell_shown_twice() -> None:
    from trumps.envs._step import inverse_index

    index = [np.array([0, 1, 2, 3, 3]), np.array([3, 2, 1, 0, 3])]
    assert inverse_index(index, 4, 3) == [[0, 1, 2, -1], [3, 2, 1, -1]]
    with pytest.raises(ValueError, match="twice"):
        inverse_index([np.array([0, 1, 0])], 4, 3)


def test_without_kept_lists_each_call_converts_the_tracked_tensor() -> None:
    """A layout whose inverse index is refused (``_inverse == []``) keeps
    no lists: the tensors are the same, converted at each call."""
    g = pyspiel.load_game("python_trumps_bridge")
    g.config._inverse = []
    scratch = Scratch(g)
    rng = random.Random(3)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
            continue
        assert s.observation_tensor() == scratch.observation(s, s.current_player())
        assert s.holder.lists is None
        s.apply_action(rng.choice(s.legal_actions()))
