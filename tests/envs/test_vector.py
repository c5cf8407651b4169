"""The vectorised environment against the PettingZoo environment and the
from-scratch encoding: the same observations, masks, seats and rewards
step by step, in random episodes of every configuration the encoding tests
cover (the 500 kitty, six-handed 500, coinche's belote and melds
included); determinism by seed; bad input refused with nothing changed."""

from __future__ import annotations

import os
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import trumps  # noqa: E402
from trumps.envs import raw_env  # noqa: E402
from trumps.envs.vector import BadActions, VectorEnv, episode_seed, random_actions  # noqa: E402

from .test_encoding import CONFIGS  # noqa: E402


def _pz_state(e: Any) -> tuple[Any, Any, int]:
    obs, _r, term, trunc, _info = e.last()
    assert not (term or trunc)
    return obs["observation"], obs["action_mask"].astype(bool), e.possible_agents.index(e.agent_selection)


def _differential(
    game: str, preset: str | None, options: dict[str, Any], episodes: int, *, n: int = 3, **kw: Any
) -> int:
    """Step a VectorEnv with random legal actions and, beside each of its
    games, a PettingZoo environment reset with the same episode seeds and
    given the same actions; compare everything after every step.  Returns
    the number of episodes finished."""
    v = VectorEnv(game, n, preset=preset, options=options, seed=7, check_observations=True, **kw)
    obs, mask, to_act = v.reset()
    pzs = [raw_env(game, preset=preset, options=options, **kw) for _ in range(n)]
    for i, e in enumerate(pzs):
        e.reset(seed=episode_seed(7, i, 0))
    rng = np.random.default_rng(3)
    finished = steps = 0
    while finished < episodes:
        for i, e in enumerate(pzs):
            o, m, seat = _pz_state(e)
            assert to_act[i] == seat
            assert np.array_equal(obs[i], o)
            assert np.array_equal(mask[i], m)
            # and the from-scratch encoding of the seat's own view, and the
            # mask made from the legal actions' notations
            match = v.matches[i]
            assert np.array_equal(obs[i], v.spec.observation.encode(match.view(seat)))
            assert np.array_equal(mask[i], v.spec.actions.mask(match.legal_actions()).astype(bool))
        actions = random_actions(mask, rng)
        assert mask[np.arange(n), actions].all()
        obs, mask, rewards, terminated, info = v.step(actions)
        to_act = info["to_act"]
        steps += 1
        for i, e in enumerate(pzs):
            e.step(int(actions[i]))
            want = np.array([e.rewards[a] for a in e.possible_agents], dtype=np.float32)
            assert np.array_equal(rewards[i], want), (i, rewards[i], want)
            assert bool(terminated[i]) == all(e.terminations.values())
            if terminated[i]:
                finished += 1
                assert info["episode_seed"][i] == episode_seed(7, i, int(v._episodes[i]) - 1)
                e.reset(seed=int(info["episode_seed"][i]))
        assert steps < 20_000
    return finished


@pytest.mark.parametrize(("game", "preset", "options"), CONFIGS)
def test_vector_equals_pettingzoo_and_the_views(
    game: str, preset: str | None, options: dict[str, Any]
) -> None:
    episodes = max(6, int(os.environ.get("TRUMPS_ENV_DEALS", "40")) // 4)
    assert _differential(game, preset, options, episodes) >= episodes


@pytest.mark.parametrize(
    ("game", "preset", "kw"),
    [
        ("500", "australian", {"episode": "game"}),
        ("coinche", "common", {"reward": "card_points"}),
        ("500", "american", {"reward": "tricks"}),
    ],
)
def test_vector_rewards_and_whole_games(game: str, preset: str, kw: dict[str, Any]) -> None:
    assert _differential(game, preset, {}, 2, n=2, **kw) >= 2


def test_deterministic_by_seed() -> None:
    def run(seed: int) -> list[Any]:
        v = VectorEnv("500", 5, preset="american", seed=seed)
        obs, mask, _ = v.reset()
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(120):
            obs, mask, rewards, terminated, info = v.step(random_actions(mask, rng))
            out += [obs, mask, rewards, terminated, info["to_act"], info["episode_seed"]]
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_reset_with_a_seed_restarts_the_same_episodes() -> None:
    v = VectorEnv("bridge", 3, seed=1)
    first = v.reset()
    v.step(random_actions(first[1], np.random.default_rng(0)))
    again = v.reset(seed=1)
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    m = v.matches[2]
    same = trumps.new_game("bridge", seed=episode_seed(1, 2, 0))
    assert m.view(None) == same.view(None)


def _snapshot(v: VectorEnv) -> list[Any]:
    return [v._obs.copy(), v._mask.copy(), v._to_act.copy(), [m.history() for m in v.matches]]


@pytest.mark.parametrize(
    "bad",
    [
        "shape",
        "2d",
        "string",
        "fraction",
        "bool",
        "negative",
        "too_big",
        "illegal",
        "none",
    ],
)
def test_bad_actions_raise_and_change_nothing(bad: str) -> None:
    v = VectorEnv("coinche", 3, preset="ffb_2016", seed=2)
    _obs, mask, _ = v.reset()
    good = random_actions(mask, np.random.default_rng(1))
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(~mask[1])[0])
    actions: Any = {
        "shape": good[:2],
        "2d": good.reshape(3, 1),
        "string": ["P", "P", "P"],
        "fraction": good + 0.5,
        "bool": np.ones(3, dtype=bool),
        "negative": np.array([good[0], -1, good[2]]),
        "too_big": np.array([good[0], good[1], v.n_actions]),
        "illegal": illegal,
        "none": None,
    }[bad]
    before = _snapshot(v)
    err = trumps.IllegalAction if bad == "illegal" else BadActions
    with pytest.raises(err) as info:
        v.step(actions)
    assert isinstance(info.value, ValueError)
    if bad == "illegal":
        assert "game 1" in str(info.value)
    after = _snapshot(v)
    assert all(np.array_equal(x, y) for x, y in zip(before[:3], after[:3], strict=True))
    assert before[3] == after[3]
    v.step(good)  # and the environment goes on


def test_whole_floats_are_accepted() -> None:
    v = VectorEnv("bridge", 2, seed=2)
    _obs, mask, _ = v.reset()
    good = random_actions(mask, np.random.default_rng(1))
    w = VectorEnv("bridge", 2, seed=2)
    w.reset()
    a, b = v.step(good), w.step(good.astype(np.float32))
    assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4], strict=True))


def test_copies_and_buffers() -> None:
    v = VectorEnv("bridge", 2, seed=3)
    obs, mask, _ = v.reset()
    obs2, mask2, *_ = v.step(random_actions(mask, np.random.default_rng(0)))
    assert obs2 is not obs and not np.shares_memory(obs, obs2)
    assert obs.dtype == np.float32 and mask.dtype == bool and obs.shape == (2, v.observation_size)
    w = VectorEnv("bridge", 2, seed=3, copy=False)
    obs, mask, _ = w.reset()
    obs2, mask2, *_ = w.step(random_actions(mask.copy(), np.random.default_rng(0)))
    assert obs2 is obs and mask2 is mask  # the buffers, overwritten in place


def test_arguments_and_order() -> None:
    with pytest.raises(ValueError):
        VectorEnv("bridge", 0)
    with pytest.raises(ValueError):
        VectorEnv("bridge", 2, reward="card_points")
    with pytest.raises(ValueError):
        VectorEnv("bridge", 2, episode="rubber")
    v = VectorEnv("bridge", 2)
    with pytest.raises(RuntimeError):
        v.step(np.zeros(2, dtype=np.int64))
    _obs, mask, to_act = v.reset()  # no seed: a random one, still legal masks
    assert mask.any(axis=1).all() and to_act.shape == (2,)


def test_random_actions_are_legal_and_uniform() -> None:
    mask = np.zeros((2, 6), dtype=bool)
    mask[0, [1, 4]] = True
    mask[1, 5] = True
    rng = np.random.default_rng(0)
    picks = np.array([random_actions(mask, rng) for _ in range(2000)])
    assert set(picks[:, 0]) == {1, 4} and set(picks[:, 1]) == {5}
    assert 800 < (picks[:, 0] == 1).sum() < 1200


def test_unsigned_and_narrow_integer_actions() -> None:
    v = VectorEnv("coinche", 3, preset="ffb_2016", seed=4)
    _obs, mask, _ = v.reset()
    good = random_actions(mask, np.random.default_rng(2))
    w = VectorEnv("coinche", 3, preset="ffb_2016", seed=4)
    w.reset()
    a, b = v.step(good.astype(np.uint64)), w.step(good.astype(np.int16))
    assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4], strict=True))
    with pytest.raises(BadActions):
        v.step(np.array([2**63, 0, 0], dtype=np.uint64))


def test_close_then_reset() -> None:
    v = VectorEnv("500", 2, preset="american", seed=6)
    first = v.reset()
    v.close()
    assert v.matches == []
    with pytest.raises(RuntimeError):
        v.step(np.zeros(2, dtype=np.int64))
    again = v.reset()
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))


def test_spaces() -> None:
    v = VectorEnv("coinche", 2, preset="ffb_2016", seed=1)
    obs, mask, _ = v.reset()
    assert v.single_observation_space.shape == (obs.shape[1],) == (1298,)
    assert v.single_action_space.n == mask.shape[1] == 95
    assert all(v.single_observation_space.contains(row) for row in obs)
