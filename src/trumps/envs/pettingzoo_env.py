"""A PettingZoo AEC environment for any trumps game and option set.

Agents are the seat names (``"N"``, ``"E"``, ...).  An episode is one deal
(``episode="deal"``, the default) or a whole game (``episode="game"``).
Observations are ``{"observation": float32 tensor, "action_mask": int8}``;
``infos[agent]["view"]`` is the seat's view dict.  See ``docs/envs.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils.wrappers import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    OrderEnforcingWrapper,
)
from pettingzoo.utils.wrappers.order_enforcing import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

import trumps
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Deal, Match
from trumps.envs._step import Stepper, ViewOf
from trumps.envs.encoding import Spec
from trumps.envs.lazy import ViewInfo
from trumps.envs.rewards import bridge_par, checked_probe, deal_rewards
from trumps.envs.tracking import ObservationTracker

__all__ = ["Last", "Observation", "OrderEnforcing", "TrumpsAECEnv"]

Observation = dict[str, np.ndarray]
"""``{"observation": float32 tensor, "action_mask": int8 mask}``."""

Last = tuple[Observation | None, float, bool, bool, dict[str, object]]
"""``last()``: (observation, or None when not observed; reward;
termination; truncation; info)."""


def _after_reset(name: str) -> property:
    """The wrapped environment's attribute ``name``, read through the
    wrapper once it was reset, as ``OrderEnforcingWrapper.__getattr__``
    gives it (an ``AttributeError`` before ``reset()``), and written to the
    wrapped environment.

    PettingZoo's wrapper reaches these through ``__getattr__``, which
    Python calls only after the ordinary lookup has failed, raised and
    caught an ``AttributeError``: ``agent_iter()`` reads ``agents`` and
    ``agent_selection`` at every step and ``step()`` reads ``agents``,
    about 2.8 µs a step in all (``benchmarks/envs_speed.py``).  A property
    is found by the ordinary lookup."""

    def get(self: OrderEnforcing) -> object:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def put(self: OrderEnforcing, value: object) -> None:
        setattr(self.env, name, value)

    return property(get, put, doc=f"The wrapped environment's ``{name}`` (after ``reset()``).")


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with ``last()`` handed to the
    environment in one call, and the attributes its ``__getattr__`` guards
    (readable only after ``reset()``) as properties (:func:`_after_reset`).
    The inherited ``last()`` reads six attributes and ``observe`` through
    the wrapper's ``__getattr__`` forwarding, about a tenth of a random
    episode's time (``benchmarks/envs_speed.py``).  The checks are the same:
    nothing is read before ``reset()``."""

    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")
    agent_selection = _after_reset("agent_selection")
    agents = _after_reset("agents")

    def last(self, observe: bool = True) -> Last:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: Last = self.env.last(observe)
        return result

    def step(self, action: int | None) -> None:
        """As PettingZoo's: once reset, with agents left, the action goes
        straight to the environment (one call instead of three); otherwise
        PettingZoo's own ``step`` raises (before ``reset()``) or warns
        (no agents left)."""
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            super().agent_iter(max_iter)  # (raises: reset() first)
        return _Iterable(self, max_iter)

    def __str__(self) -> str:  # as PettingZoo's own wrapper prints: the environment's name
        return str(self.env)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator in one call a step: the same
    checks (the loop ends when no agent is left or after ``max_iter``; each
    agent must be stepped before the next is asked for), the wrapped
    environment's ``agents`` and ``agent_selection`` read directly (the
    wrapper was reset: ``agent_iter`` checked)."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = env.agent_selection
        return agent


class TrumpsAECEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, object]] = {
        "name": "trumps_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }
    _match: Match[Deal]  # the episode's match, from reset() on

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        *,
        reward: str = "score",
        episode: str = "deal",
        render_mode: str | None = None,
        check_observations: bool = False,
    ) -> None:
        super().__init__()
        self.game_name = game
        self.preset = preset
        self.game_options = dict(options or {})
        probe = checked_probe(game, preset, self.game_options, reward, episode)
        self.reward_kind = reward
        self.episode = episode
        self.render_mode = render_mode
        self.spec = Spec(probe)
        self._tracker = ObservationTracker(self.spec, check=check_observations)
        # the step below the API (compiled with the engines): the match, its
        # tracker, the episode's actions, the legal actions, indices and mask
        self._core = Stepper(self.spec.actions, self._tracker, self._new_match)
        self.possible_agents = list(self.spec.seat_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_obs, n_act = self.spec.observation.size, len(self.spec.actions)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (n_obs,), np.float32),
                "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self.match: Match[Deal] | None = None  # (None until reset; the steps read self._match)
        self._par: int | None = None
        self._over = False  # every agent terminated (the episode is over)
        self._zero_rewards = True  # self.rewards holds only zeros
        self._info_agent: str | None = None  # the agent whose info is a ViewInfo

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ----- the episode -------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**62))
        self.match = self._match = self._new_match(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._over = False
        self._zero_rewards = True
        self._info_agent = None
        self._core.reset(self._match, seed)
        self._start_deal()
        self._sync()

    def _start_deal(self) -> None:
        self._deals_done = len(self._match.results)
        self._par = bridge_par(self._match) if self.reward_kind == "imps" else None

    def _sync(self) -> None:
        """Point at the seat to act, with its legal actions and mask.
        ``infos`` holds its view (of every seat at the end), made only when
        read: a view costs several engine steps.  The infos dict is kept
        across the steps of an episode (as PettingZoo's own games keep
        theirs): the info of the agent that acted is replaced by a new
        empty dict, the agent to act gets a new lazy view."""
        core = self._core
        seat = core.sync(not self._over)
        if seat >= 0:
            agent = self.possible_agents[seat]
            self.agent_selection = agent
            infos = self.infos
            prev = self._info_agent
            if prev is not None and prev in infos:
                infos[prev] = {}
            infos[agent] = ViewInfo(ViewOf(core, seat))
            self._info_agent = agent
        else:
            self._info_agent = None
            self.infos = {a: ViewInfo(ViewOf(core, self._seat[a])) for a in self.agents}

    def _new_match(self, seed: int) -> Match[Deal]:
        return trumps.new_game(self.game_name, preset=self.preset, options=self.game_options, seed=seed)

    def observe(self, agent: str) -> Observation:
        return self._core.observation(self._seat[agent], agent == self.agent_selection)

    def last(self, observe: bool = True) -> Last:
        """As PettingZoo's ``last()``: (observation, cumulative reward,
        termination, truncation, info) of the agent to act."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._over or self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self._core.step(action):
            raise ValueError(f"{agent}: action {action!r} is not legal (see the action mask)")
        m = self._match
        self._cumulative_rewards[agent] = 0.0
        if not self._zero_rewards:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = True
        if len(m.results) > self._deals_done:
            s = self.spec
            self._zero_rewards = False
            for result in m.results[self._deals_done :]:
                per_team = deal_rewards(s.game, self.reward_kind, result, s.teams, s.seat_names, self._par)
                for t, members in enumerate(s.teams):
                    for seat in members:
                        self.rewards[self.possible_agents[seat]] += per_team[t]
            done = m.is_over or self.episode == "deal"
            if done:
                self.terminations = {a: True for a in self.agents}
                self._over = True
            else:
                self._start_deal()
            self._accumulate_rewards()  # (rewards come only when a deal ends)
        self._sync()

    def render(self) -> str | None:
        if self.match is None:
            return None
        v: JSONDict = self.match.view(self.match.to_act_index if self.match.to_act_index is not None else 0)
        auction = v.get("auction") or []
        calls = [e["call"] for e in auction if isinstance(e, Mapping)] if isinstance(auction, list) else []
        return f"{v.get('phase')} to act {v.get('to_act')} auction {calls}"

    def close(self) -> None:
        pass
