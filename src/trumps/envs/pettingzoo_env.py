"""A PettingZoo AEC environment for any trumps game and option set.

Agents are the seat names (``"N"``, ``"E"``, ...).  An episode is one deal
(``episode="deal"``, the default) or a whole game (``episode="game"``).
Observations are ``{"observation": float32 tensor, "action_mask": int8}``;
``infos[agent]["view"]`` is the seat's view dict.  See ``docs/envs.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils.wrappers import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    OrderEnforcingWrapper,
)

import trumps
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Action, Deal, Match
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


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with ``last()`` handed to the
    environment in one call.  The inherited ``last()`` reads six attributes
    and ``observe`` through the wrapper's ``__getattr__`` forwarding, about a
    tenth of a random episode's time (``benchmarks/envs_speed.py``).  The
    check is the same: nothing is read before ``reset()``."""

    def last(self, observe: bool = True) -> Last:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: Last = self.env.last(observe)
        return result

    def __str__(self) -> str:  # as PettingZoo's own wrapper prints: the environment's name
        return str(self.env)


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
        self._replay: tuple[list[Action], Match[Deal], int] | None = None  # (episode's actions, match, step)
        self._par: int | None = None
        # the legal actions of the seat to act and their indices, in the same order
        self._legal: Sequence[Action] = ()
        self._legal_idx: list[int] = []
        self._n_actions = n_act
        self._no_mask = np.zeros(n_act, dtype=np.int8)
        self._mask = self._no_mask  # the mask of the seat to act (built once per step, copied out)
        self._indices = self.spec.actions.indices
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
        self._seed = seed
        self._actions: list[Action] = []
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self._over = False
        self._zero_rewards = True
        self._info_agent = None
        self._tracker.reset(self._match)
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
        m = self._match
        seat = m.to_act_index
        if seat is not None and not self._over:
            agent = self.possible_agents[seat]
            self.agent_selection = agent
            legal = m.legal_actions()
            idx = self._indices(legal)
            self._legal, self._legal_idx = legal, idx
            mask = bytearray(self._n_actions)
            for i in idx:
                mask[i] = 1
            self._mask = np.frombuffer(mask, dtype=np.int8)
            infos = self.infos
            prev = self._info_agent
            if prev is not None and prev in infos:
                infos[prev] = {}
            infos[agent] = ViewInfo(self._view_of(seat))
            self._info_agent = agent
        else:
            self._legal, self._legal_idx = (), []
            self._mask = self._no_mask
            self._info_agent = None
            self.infos = {a: ViewInfo(self._view_of(self._seat[a])) for a in self.agents}

    def _new_match(self, seed: int) -> Match[Deal]:
        return trumps.new_game(self.game_name, preset=self.preset, options=self.game_options, seed=seed)

    def _view_of(self, seat: int) -> Callable[[], JSONDict]:
        """A function giving ``seat``'s view of the state now, even when
        called after later steps (it then replays the episode so far)."""
        match, actions, seed, step = self._match, self._actions, self._seed, len(self._actions)

        def make() -> JSONDict:
            if self._match is match and len(actions) == step:
                now: JSONDict = match.view(seat)
                return now
            # one replay per episode moves forward as late reads come (in
            # step order, as stored infos are usually read, that is one
            # replay of the episode in all, not one per read)
            r = self._replay
            if r is None or r[0] is not actions or r[2] > step:
                r = self._replay = (actions, self._new_match(seed), 0)
            replay = r[1]
            for action in actions[r[2] : step]:
                replay.apply(action)
            self._replay = (actions, replay, step)
            then: JSONDict = replay.view(seat)
            return then

        return make

    def observe(self, agent: str) -> Observation:
        mask = self._mask.copy() if agent == self.agent_selection else self._no_mask.copy()
        return {"observation": self._tracker.observe(self._seat[agent]), "action_mask": mask}

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
        try:
            chosen = self._legal[self._legal_idx.index(int(action))]  # type: ignore[arg-type]
        except (ValueError, TypeError):
            raise ValueError(f"{agent}: action {action!r} is not legal (see the action mask)") from None
        m = self._match
        self._cumulative_rewards[agent] = 0.0
        if not self._zero_rewards:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = True
        self._tracker.apply(chosen)
        self._actions.append(chosen)
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
