"""The PettingZoo AEC environments pass PettingZoo's own API and seed tests."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import trumps
from trumps.envs import env, raw_env


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [("bridge", None, {}), ("500", "american", {}), ("coinche", "ffb_2016", {}), ("coinche", "seed", {})],
)
def test_api(game: str, preset: str | None, options: dict[str, object]) -> None:
    api_test(env(game, preset=preset, options=options), num_cycles=300)


@pytest.mark.parametrize(
    ("game", "preset"), [("bridge", None), ("500", "australian"), ("coinche", "ffb_2016")]
)
def test_seed(game: str, preset: str | None) -> None:
    seed_test(lambda: env(game, preset=preset), num_cycles=300)


def _episode(e: object, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)  # type: ignore[attr-defined]
    total: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, info = e.last()  # type: ignore[attr-defined]
        total[agent] = total.get(agent, 0.0) + float(reward)
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        assert "view" in info
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
    return total


def test_deal_reward_is_the_side_score() -> None:
    e = raw_env("coinche", preset="ffb_2016")
    total = _episode(e, 11)
    res = e.match.results[-1]["points"]
    assert total["N"] == total["S"] == res[0]
    assert total["E"] == total["W"] == res[1]


def test_other_rewards_and_whole_game() -> None:
    e = raw_env("coinche", preset="common", reward="card_points")
    total = _episode(e, 2)
    assert total["N"] + total["E"] in (162, 0, 250, 252) or total["N"] + total["E"] > 0
    e = raw_env("500", preset="american", reward="tricks")
    total = _episode(e, 3)
    assert total["N"] + total["E"] == 10 or total["N"] + total["E"] == 0
    e = raw_env("500", preset="australian", episode="game")
    _episode(e, 4)
    assert e.match.is_over


def test_imps_against_par() -> None:
    from trumps.bridge import dd

    if not dd.available():
        pytest.skip("no double-dummy solver")
    e = raw_env("bridge", reward="imps")
    total = _episode(e, 5)
    assert total["N"] == -total["E"]
    assert abs(total["N"]) <= 24


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        raw_env("bridge", reward="card_points")
    with pytest.raises(trumps.TrumpsError):
        raw_env("nope")


@pytest.mark.parametrize(("game", "preset"), [("bridge", None), ("500", "american"), ("coinche", "seed")])
def test_api_with_observations_checked_against_the_views(game: str, preset: str | None) -> None:
    """The tracked observations equal the encoded views through the whole
    PettingZoo API test (``check_observations`` raises on a difference)."""
    api_test(env(game, preset=preset, check_observations=True), num_cycles=300)


def test_a_late_read_view_is_the_view_of_its_step() -> None:
    e = raw_env("coinche", preset="ffb_2016")
    e.reset(seed=8)
    kept: list[tuple[str, dict[str, object], dict[str, object]]] = []
    rng = np.random.default_rng(8)
    for n, agent in enumerate(e.agent_iter()):
        obs, _r, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        if n % 3 == 0:
            kept.append((agent, info, e.match.view(e.match.seat(agent))))  # read now
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(kept) > 5
    for _agent, info, now in kept:  # read after the episode: replayed
        assert info["view"] == now


def test_wrapper_last_is_the_environment_last_and_checks_reset() -> None:
    e = env("coinche")
    assert str(e) == str(e.unwrapped) == "trumps_v0"
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=3)
    for _ in e.agent_iter(40):
        obs, reward, term, trunc, info = e.last()
        inner = e.unwrapped.last()
        assert (obs["observation"] == inner[0]["observation"]).all()
        assert (obs["action_mask"] == inner[0]["action_mask"]).all()
        assert (reward, term, trunc) == inner[1:4] and info is inner[4]
        assert e.last(observe=False)[0] is None
        e.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][-1]))


#: what PettingZoo's order-enforcing wrapper refuses to read before reset()
GUARDED = ("rewards", "terminations", "truncations", "infos", "agent_selection", "agents", "num_agents")


def test_wrapper_checks_as_pettingzoos_own_wrapper() -> None:
    """The wrapper's properties, ``step`` and iterator (cheaper than
    PettingZoo's ``__getattr__`` forwarding) refuse and allow what
    PettingZoo's own ``OrderEnforcingWrapper`` does, with its messages."""
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    ours, theirs = env("bridge"), OrderEnforcingWrapper(raw_env("bridge"))
    for e in (ours, theirs):
        for name in GUARDED:
            with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
                getattr(e, name)
        with pytest.raises(AssertionError, match="reset"):
            e.step(0)
        with pytest.raises(AssertionError, match="reset"):
            e.agent_iter()
        assert e.possible_agents == ["N", "E", "S", "W"]
    ours.reset(seed=4)
    theirs.reset(seed=4)
    for name in GUARDED:
        assert getattr(ours, name) == getattr(ours.unwrapped, name) == getattr(theirs, name)
    # a step must come between two agents of the loop
    for e in (ours, theirs):
        it = iter(e.agent_iter())
        next(it)
        with pytest.raises(AssertionError, match="need to call step"):
            next(it)
    # the same episode through both, to its end; then a step only warns
    rng = random.Random(4)
    walk = {}
    for e in (ours, theirs):
        e.reset(seed=4)
        rng.seed(4)
        agents = []
        for agent in e.agent_iter():
            obs, _r, term, trunc, _i = e.last()
            agents.append(agent)
            e.step(None if term or trunc else rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        assert not e.agents
        walk[e is ours] = agents
        EnvLogger.mqueue.clear()
        e.step(0)
        assert any("step() called after all agents" in m for m in EnvLogger.mqueue)
    assert walk[True] == walk[False] and len(walk[True]) > 50
    # max_iter counts the agents given
    ours.reset(seed=5)
    n = 0
    for _agent in ours.agent_iter(7):
        obs, _r, term, trunc, _i = ours.last()
        ours.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][-1]))
        n += 1
    assert n == 7
    # writing through the wrapper writes the environment's attribute
    ours.infos = {"N": {"x": 1}}
    assert ours.unwrapped.infos == {"N": {"x": 1}}
