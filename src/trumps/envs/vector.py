"""N games stepped in one call, observations as one numpy array.

:class:`VectorEnv` is the entry point for training loops, shaped like
gymnasium's vector environments, PufferLib and EnvPool: ``reset()`` gives
the observation of the seat to act in each of ``n`` games as one
``float32[n, D]`` array, with its legal-action mask ``bool[n, A]`` and the
seats to act; ``step(actions)`` takes one action index per game (for the
seat to act there) and gives the next observations, the rewards of every
seat of every game ``float32[n, players]``, which games ended, and
``info``.  A finished game starts its next episode at once (same-step
auto-reset): its row then holds the new episode's first observation.

The observations are exactly the PettingZoo environment's (the same
:class:`~trumps.envs.tracking.ObservationTracker`, written in place into
the batch), the action indices the same space
(:mod:`trumps.envs.encoding`), and the episodes the same: game ``i``'s
``k``-th episode is ``trumps.new_game(..., seed=episode_seed(seed, i, k))``,
so any episode can be replayed with ``trumps.envs.env(...).reset(seed=...)``
(``info["episode_seed"]`` holds each game's current one).  See
``docs/envs.md``.

>>> import numpy as np
>>> from trumps.envs.vector import VectorEnv, random_actions
>>> v = VectorEnv("coinche", 4, preset="ffb_2016", seed=1)
>>> obs, mask, to_act = v.reset()
>>> obs.shape, mask.shape, to_act.shape
((4, 1298), (4, 95), (4,))
>>> obs, mask, rewards, terminated, info = v.step(random_actions(mask, np.random.default_rng(0)))
>>> rewards.shape, terminated.shape
((4, 4), (4,))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

import trumps
from trumps.core.errors import IllegalAction, TrumpsError
from trumps.core.protocol import Action, Deal, Match
from trumps.envs.encoding import Spec
from trumps.envs.rewards import bridge_par, checked_probe, deal_rewards
from trumps.envs.tracking import ObservationTracker

__all__ = ["BadActions", "VectorEnv", "episode_seed", "random_actions"]


class BadActions(TrumpsError):
    """The actions given to :meth:`VectorEnv.step` are malformed: not one
    integer per game, or an index outside the action space.  (An index in
    the space that is not legal in its game raises
    :class:`~trumps.core.errors.IllegalAction`.)  Both are ``ValueError``
    subclasses, and neither changes any game."""


def episode_seed(seed: int, game: int, episode: int) -> int:
    """The engine seed of game ``game``'s ``episode``-th episode (from 0)
    in a :class:`VectorEnv` reset with ``seed``: a pure function of the
    three, so an episode can be replayed alone."""
    return random.Random(f"trumps.envs.vector/{seed}/{game}/{episode}").getrandbits(62)


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action index per row of ``mask``
    (``bool[n, A]``, each row with a legal action), in one numpy pass."""
    noise = rng.random(mask.shape)
    noise[~mask] = -1.0
    out: np.ndarray = noise.argmax(axis=1)
    return out


class VectorEnv:
    """``n`` games of one (game, preset, options), stepped together.

    ``reward`` and ``episode`` are the PettingZoo environment's (``"score"``,
    ``"tricks"``, ``"card_points"``, ``"imps"``; ``"deal"`` or ``"game"``).
    With ``copy=True`` (the default, as gymnasium's vector environments)
    every call returns new arrays; with ``copy=False`` it returns its own
    buffers, overwritten by the next call (faster, as EnvPool and PufferLib
    do: copy what you keep, write into none of them).
    ``check_observations=True`` checks every observation against the one
    encoded from the seat's view (slow; for tests)."""

    def __init__(
        self,
        game: str,
        n: int,
        preset: str | None = None,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
        reward: str = "score",
        episode: str = "deal",
        copy: bool = True,
        check_observations: bool = False,
    ) -> None:
        if type(n) is not int or n < 1:
            raise ValueError(f"n is the number of games, a positive int, not {n!r}")
        self.game_name = game
        self.preset = preset
        self.game_options = dict(options or {})
        probe = checked_probe(game, preset, self.game_options, reward, episode)
        self.reward_kind = reward
        self.episode = episode
        self.copy = copy
        self.num_envs = n
        self.spec = Spec(probe)
        self.players = self.spec.players
        self.seat_names = list(self.spec.seat_names)
        self.action_names = list(self.spec.actions.names)
        self.observation_size = self.spec.observation.size
        self.n_actions = len(self.spec.actions)
        self._indices = self.spec.actions.indices
        proto = ObservationTracker(self.spec, check=check_observations)
        self._trackers = [proto.copy(probe) for _ in range(n)]
        # the batch buffers, written in place at every call
        self._obs = np.zeros((n, self.observation_size), dtype=np.float32)
        self._mask = np.zeros((n, self.n_actions), dtype=bool)
        self._mask_flat = self._mask.reshape(-1)  # (a view: the same memory)
        self._row_starts = np.arange(n, dtype=np.int64) * self.n_actions
        self._rewards = np.zeros((n, self.players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=bool)
        self._to_act = np.zeros(n, dtype=np.int64)
        self._seeds = np.zeros(n, dtype=np.int64)
        # per game: its match, legal actions and their indices, deals scored,
        # episodes started, bridge par (imps)
        self._matches: list[Match[Deal]] = []
        self._legal: list[Sequence[Action]] = []
        self._legal_idx: list[list[int]] = []
        self._deals_done: list[int] = []
        self._episodes: list[int] = []
        self._par: list[int | None] = []
        self._seed: int | None = seed
        self._started = False
        # seat -> team's members: the rewards of a team go to its seats
        self._team_seats = [list(t) for t in self.spec.teams]

    def __repr__(self) -> str:
        preset = f", preset={self.preset!r}" if self.preset else ""
        return f"<VectorEnv {self.game_name!r}{preset} n={self.num_envs}>"

    # ----- episodes ----------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start a new episode in every game: ``(obs float32[n, D],
        legal_mask bool[n, A], to_act int64[n])``.  ``seed`` (else the
        constructor's, else a random one) fixes every episode that follows."""
        if seed is None:
            seed = self._seed if self._seed is not None else int(np.random.default_rng().integers(2**62))
        self._seed = int(seed)
        n = self.num_envs
        self._matches = [None] * n  # type: ignore[list-item]  # (each set just below)
        self._legal = [()] * n
        self._legal_idx = [[] for _ in range(n)]
        self._deals_done = [0] * n
        self._episodes = [0] * n
        self._par = [None] * n
        self._rewards.fill(0.0)
        self._terminated.fill(False)
        self._mask.fill(False)
        flat: list[int] = []
        for i in range(n):
            self._start_episode(i)
            self._sync(i, flat)
        self._mask_flat[flat] = True
        self._started = True
        return self._out(self._obs), self._out(self._mask), self._out(self._to_act)

    def _start_episode(self, i: int) -> None:
        assert self._seed is not None
        seed = episode_seed(self._seed, i, self._episodes[i])
        self._episodes[i] += 1
        self._seeds[i] = seed
        m = trumps.new_game(self.game_name, preset=self.preset, options=self.game_options, seed=seed)
        self._matches[i] = m
        self._trackers[i].reset(m)
        self._start_deal(i)

    def _start_deal(self, i: int) -> None:
        m = self._matches[i]
        self._deals_done[i] = len(m.results)
        self._par[i] = bridge_par(m) if self.reward_kind == "imps" else None

    def _sync(self, i: int, flat: list[int]) -> None:
        """Game ``i``'s seat to act, legal actions, mask cells (into
        ``flat``) and observation (into its row)."""
        m = self._matches[i]
        seat = m.to_act_index
        assert seat is not None  # (a finished episode was replaced)
        legal = m.legal_actions()
        idx = self._indices(legal)
        self._legal[i] = legal
        self._legal_idx[i] = idx
        base = i * self.n_actions
        flat += [base + k for k in idx]
        self._to_act[i] = seat
        self._trackers[i].observe_into(seat, self._obs[i])

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one action index per game, for the seat to act in each.

        Returns ``(obs float32[n, D], legal_mask bool[n, A], rewards
        float32[n, players], terminated bool[n], info)``: the rewards each
        seat got from this step (a deal's reward when it ends, else 0),
        whether the game's episode ended (its row then shows the next
        episode's start), and ``info`` with ``"to_act"`` (int64[n], the seats
        to act now) and ``"episode_seed"`` (int64[n], the engine seeds of the
        episodes now in play).

        Raises :class:`BadActions` (malformed actions) or
        :class:`~trumps.core.errors.IllegalAction` (an index not legal in
        its game), both ``ValueError`` subclasses, before changing anything.
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        acts = self._check(actions)
        rewards, terminated = self._rewards, self._terminated
        rewards.fill(0.0)
        terminated.fill(False)
        self._mask.fill(False)
        flat: list[int] = []
        to_act: list[int] = []
        matches, trackers, legals, idxs = self._matches, self._trackers, self._legal, self._legal_idx
        deals_done, indices, obs, nact = self._deals_done, self._indices, self._obs, self.n_actions
        for i in range(self.num_envs):
            m = matches[i]
            tracker = trackers[i]
            tracker.apply(legals[i][idxs[i].index(acts[i])])
            if len(m.results) > deals_done[i]:
                self._score(i, m)
                if m.is_over or self.episode == "deal":
                    terminated[i] = True
                    self._start_episode(i)
                    m = matches[i]
                else:
                    self._start_deal(i)
            # (_sync, inlined: the seat to act, its legal actions, mask cells and observation)
            seat = m.to_act_index
            legal = m.legal_actions()
            idx = indices(legal)
            legals[i] = legal
            idxs[i] = idx
            base = i * nact
            flat += [base + k for k in idx]
            to_act.append(seat)  # type: ignore[arg-type]  # (a finished episode was replaced: a seat)
            tracker.observe_into(seat, obs[i])  # type: ignore[arg-type]
        self._mask_flat[flat] = True
        self._to_act[:] = to_act
        info = {"to_act": self._out(self._to_act), "episode_seed": self._seeds.copy()}
        out = self._out
        return out(self._obs), out(self._mask), out(rewards), out(terminated), info

    def _score(self, i: int, m: Match[Deal]) -> None:
        s = self.spec
        row = self._rewards[i]
        for result in m.results[self._deals_done[i] :]:
            per_team = deal_rewards(s.game, self.reward_kind, result, s.teams, s.seat_names, self._par[i])
            for t, members in enumerate(self._team_seats):
                for seat in members:
                    row[seat] += per_team[t]

    def _check(self, actions: Any) -> list[int]:
        """The actions as a list of ints, or an error (nothing changed)."""
        n = self.num_envs
        try:
            a = np.asarray(actions)
        except Exception as exc:  # anything numpy cannot read is malformed
            raise BadActions(f"actions must be {n} action indices, not {actions!r}") from exc
        if a.shape != (n,):
            raise BadActions(f"actions must have shape ({n},) (one index per game), not {a.shape}")
        if a.dtype.kind not in "iu":
            if a.dtype.kind == "f" and np.all(np.isfinite(a)) and np.array_equal(a, np.floor(a)):
                a = a.astype(np.int64)  # whole floats (from a float policy head) are accepted
            else:
                raise BadActions(f"actions must be integers, not {a.dtype}")
        out: list[int] = a.tolist()
        if min(out) < 0 or max(out) >= self.n_actions:
            bad = next(i for i, x in enumerate(out) if not 0 <= x < self.n_actions)
            raise BadActions(
                f"game {bad}: action {out[bad]} is outside the action space (0..{self.n_actions - 1})"
            )
        legal = self._mask_flat[self._row_starts + a.astype(np.int64, copy=False)]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            seat = self.seat_names[int(self._to_act[bad])]
            raise IllegalAction(
                f"game {bad}: action {out[bad]} ({self.action_names[out[bad]]}) is not legal "
                f"for {seat} (see the legal mask)"
            )
        return out

    def _out(self, buf: np.ndarray) -> np.ndarray:
        return buf.copy() if self.copy else buf

    # ----- reading -----------------------------------------------------------
    @property
    def single_observation_space(self) -> Any:
        """One row's observation space, as gymnasium's vector environments
        name it: ``Box(-inf, inf, (D,), float32)`` (needs gymnasium)."""
        from gymnasium import spaces

        return spaces.Box(-np.inf, np.inf, (self.observation_size,), np.float32)

    @property
    def single_action_space(self) -> Any:
        """One game's action space: ``Discrete(A)`` (needs gymnasium); the
        legal ones are the row's mask."""
        from gymnasium import spaces

        return spaces.Discrete(self.n_actions)

    @property
    def matches(self) -> list[Match[Deal]]:
        """The games' matches, in play (read them; step them only through
        :meth:`step`)."""
        return list(self._matches)

    def close(self) -> None:
        """Let the games go (their matches and tables); :meth:`reset`
        starts new ones."""
        self._matches, self._legal, self._legal_idx = [], [], []
        for tracker in self._trackers:
            tracker.match = None
            tracker._set_table(None)
        self._started = False
