"""The trumps games as OpenSpiel Python games.

:func:`register` registers ``python_trumps_bridge``, ``python_trumps_500``
and ``python_trumps_coinche`` with ``pyspiel.register_game``; load them with
``pyspiel.load_game("python_trumps_coinche", {"preset": "ffb_2016"})``
(parameters: ``preset``, ``options`` as ``"key:value;key:value"`` (or a
JSON object), ``reward`` and ``dealer``).  A game is one deal: chance deals the deck one card at a
time (the first cards round the table from the dealer's left, the rest to
the kitty), then the engine takes over.  Player actions are the fixed
indices of :mod:`trumps.envs.encoding`.  See ``docs/envs.md``.
"""

from __future__ import annotations

import itertools
import json
import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

try:
    import numpy as np
    import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError(
        f"trumps.envs.openspiel_game needs the 'openspiel' extra: pip install trumps[openspiel] ({exc})"
    ) from exc

import trumps
from trumps.core.json_types import JSON, JSONDict, JSONObject
from trumps.core.protocol import Action, Deal, Match
from trumps.envs._step import (
    ObservationLists,
    apply_index,
    as_list,
    deal_card,
    inverse_index,
    legal_by_index,
    pick,
)
from trumps.envs.encoding import Spec
from trumps.envs.rewards import bridge_par, deal_rewards
from trumps.envs.tracking import ObservationTracker

__all__ = ["TrumpsGame", "TrumpsState", "games", "register", "short_name"]


def games() -> tuple[str, ...]:
    """The games registered with OpenSpiel: every game of the registry."""
    return tuple(trumps.games())


Params: TypeAlias = "Mapping[str, str | int | float | bool]"
"""A game's OpenSpiel parameters (``preset``, ``options``, ``reward``, ``dealer``)."""

_PARAMS: dict[str, str | int | float | bool] = {"preset": "", "options": "", "reward": "score", "dealer": 0}


def parse_options(text: str) -> JSONDict:
    """Game options from ``"key:value;key:value"`` (values read as JSON
    scalars when they can be: ``true``, ``5``) or a JSON object."""
    text = text.strip()
    if text.startswith("{"):
        return dict(json.loads(text))
    out: JSONDict = {}
    for part in filter(None, (x.strip() for x in text.split(";"))):
        key, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"options: {part!r} is not key:value")
        try:
            out[key.strip()] = json.loads(value)
        except ValueError:
            out[key.strip()] = value.strip()
    return out


def format_options(options: Mapping[str, object]) -> str:
    """The ``key:value;...`` form of options (no commas, brackets or '=')."""
    return ";".join(
        f"{k}:{json.dumps(v) if not isinstance(v, str) else v}" for k, v in sorted(options.items())
    )


def short_name(game: str) -> str:
    return f"python_trumps_{game}"


def _game_type(game: str) -> Any:  # a pyspiel.GameType (pyspiel is untyped)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"trumps {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=trumps.game_spec(game).max_players,
        min_num_players=4,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_PARAMS),
    )


# OpenSpiel clones a Python state by deep-copying its attributes one by one
# (serialize() pickles them): a copy of the holder is the engine's clone of
# the match with a copy of its observation tracker; pickled, the match, its
# tracker and the shared settings travel by token (within the process).
_IN_FLIGHT: dict[int, tuple[Match[Deal], ObservationTracker | None]] = {}
_CONFIGS: dict[int, _Config] = {}
_TOKENS = itertools.count()


def _unpickle_holder(token: int, record: Mapping[str, object] | None) -> _Holder:
    entry = _IN_FLIGHT.pop(token, None)
    if entry is not None:
        return _Holder(*entry)
    return _Holder(trumps.load_game(record) if record is not None else None)


def _unpickle_config(token: int) -> _Config:
    return _CONFIGS[token]


class _Holder:
    """Holds the engine match and, once an observation tensor was asked for,
    the :class:`~trumps.envs.tracking.ObservationTracker` that keeps every
    seat's tensor up to date action by action; a copy is the engine's own
    clone with a copy of the tracker.  ``legal`` caches the legal actions
    (index -> engine action) of the match's current position: OpenSpiel asks
    for them, then applies one; copies start without.  ``lists`` keeps the
    tensors as the Python lists ``observation_tensor()`` gives
    (:class:`~trumps.envs._step.ObservationLists`); copies start without."""

    __slots__ = ("legal", "lists", "match", "tracker")

    def __init__(self, match: Match[Deal] | None, tracker: ObservationTracker | None = None) -> None:
        self.match = match
        self.tracker = tracker
        self.legal: dict[int, Action] | None = None
        self.lists: ObservationLists | None = None

    def _copy(self) -> tuple[Match[Deal], ObservationTracker | None]:
        assert self.match is not None
        clone = self.match.clone()
        return clone, None if self.tracker is None else self.tracker.copy(clone)

    def __deepcopy__(self, memo: dict[int, object]) -> _Holder:
        return _Holder(None) if self.match is None else _Holder(*self._copy())

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        if self.match is None:
            return (_Holder, (None,))
        token = next(_TOKENS)
        if len(_IN_FLIGHT) > 100_000:  # copies never read back
            _IN_FLIGHT.clear()
        _IN_FLIGHT[token] = self._copy()
        return (_unpickle_holder, (token, None))


class _Config:
    """A game's settings, shared (never copied) by its states."""

    def __init__(
        self,
        game: str,
        preset: str | None,
        options: JSONDict,
        reward: str,
        dealer: int,
        spec: Spec,
        players: int,
        owner: TrumpsGame,
    ) -> None:
        self.trumps_game = game
        self.preset = preset
        self.trumps_options = options
        self.reward = reward
        self.dealer = dealer
        self.spec = spec
        self.players = players
        self.kitty = int(spec.kitty)  # cards dealt to no seat (0 without a kitty)
        self.hand_size = (len(spec.deck) - self.kitty) // players
        # the chance outcomes: outcomes[n][i] is (i, 1/n), the tuple of
        # deck index i when n cards are left to deal (made once per game, so
        # that chance_outcomes() picks tuples instead of making them: a
        # deal asks for them at each of its cards)
        n_deck = len(spec.deck)
        self.outcomes: list[list[object]] = [
            [(i, 1.0 / n) if n else (i, 0.0) for i in range(n_deck)] for n in range(n_deck + 1)
        ]
        self.game = owner
        # trackers made from now on check every tensor against the one
        # encoded from the seat's view (ObservationTracker's check mode)
        self.check_observations = False
        self._tracker: ObservationTracker | None = None
        self._untracked = False  # a layout the tracker does not support: views only
        # the trackers' inverse_index, made once ([] if a cell shows twice in a
        # seat's tensor: then no lists, each call converts the tracker's tensor)
        self._inverse: list[list[int]] | None = None
        # a tensor's worth of 0.0 as distinct float objects (ObservationLists' starting lists)
        self._zeros: list[object] = list(np.zeros(spec.observation.size).tolist())
        self._observer: TrumpsObserver | None = None

    def new_initial_state(self) -> TrumpsState:
        return TrumpsState(self.game)

    def tracker(self, match: Match[Deal]) -> ObservationTracker | None:
        """A tracker of ``match`` (``None`` if the game's seats and teams do
        not fit the tracker: its tensors are then encoded from the views).
        Trackers share one set of seat index arrays, made once per game."""
        proto = self._tracker
        if proto is None:
            if self._untracked:
                return None
            try:
                proto = self._tracker = ObservationTracker(self.spec)
            except ValueError:
                self._untracked = True
                return None
        tracker = proto.copy(match)
        tracker.check = self.check_observations
        return tracker

    def lists(self, tracker: ObservationTracker, actions: list[Any]) -> ObservationLists | None:
        """The Python lists of ``tracker``'s tensors, for a state whose
        history is ``actions``; ``None`` in check mode (each call then
        converts the tracker's tensor, checked against the view) or for a
        layout :func:`~trumps.envs._step.inverse_index` refuses."""
        if tracker.check:
            return None
        inverse = self._inverse
        if inverse is None:
            try:
                inverse = inverse_index(tracker._index, tracker._size, tracker._zero)
            except ValueError:
                inverse = []
            self._inverse = inverse
        return ObservationLists(tracker, inverse, self._zeros, actions) if inverse else None

    def observer(self) -> TrumpsObserver:
        """The observation observer that :meth:`TrumpsState.observation_tensor` uses."""
        if self._observer is None:
            self._observer = TrumpsObserver(self, False)
        return self._observer

    def __deepcopy__(self, memo: dict[int, object]) -> _Config:
        return self

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        _CONFIGS[id(self)] = self
        return (_unpickle_config, (id(self),))


class TrumpsGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a trumps game under a preset and options."""

    def __init__(self, params: Params | None = None, *, game: str) -> None:
        p = {**_PARAMS, **(params or {})}
        preset: str | None = str(p["preset"]) or None
        options = parse_options(str(p["options"]))
        p["options"] = format_options(options)  # commas would break OpenSpiel's game strings
        reward = str(p["reward"])
        probe = trumps.new_game(game, preset=preset, options=options, seed=0)
        spec = Spec(probe)
        game_spec = trumps.game_spec(game)
        bound = game_spec.reward_scales.get(reward)
        if bound is None:
            raise ValueError(f"reward {reward!r} is not available for {game}")
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.actions),
            max_chance_outcomes=len(spec.deck),
            num_players=probe.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=game_spec.max_game_length,
        )
        super().__init__(_game_type(game), info, p)
        self.config = _Config(game, preset, options, reward, int(p["dealer"]), spec, probe.players, self)

    def new_initial_state(self) -> TrumpsState:
        return TrumpsState(self)

    def make_py_observer(  # (OpenSpiel's own IIGObservationType and parameters: untyped)
        self, iig_obs_type: Any = None, params: Any = None
    ) -> TrumpsObserver:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TrumpsObserver(self.config, perfect)


_CHANCE = int(pyspiel.PlayerId.CHANCE)


class TrumpsState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: TrumpsGame) -> None:
        super().__init__(game)
        self.tg: _Config = game.config
        self.dealt: list[int] = []  # deck indices in dealing order
        self._left = list(range(len(self.tg.spec.deck)))  # the deck indices not dealt yet, in order
        self.holder = _Holder(None)
        self.actions: list[tuple[int, str, bool]] = []  # (seat, notation, public)
        self._done = False
        self._returns = [0.0] * self.tg.players
        # OpenSpiel asks for the current player several times per call it
        # gets (is_chance_node, legal_actions, apply_action...): kept, not worked out
        self._player = int(pyspiel.PlayerId.CHANCE)

    # ----- dealing -------------------------------------------------------------
    def _owner(self, k: int) -> int:
        """The seat (or -1: the kitty) of the k-th card dealt."""
        g = self.tg
        if k >= g.hand_size * g.players:
            return -1
        return (g.dealer + 1 + k) % g.players

    def _deal_mapping(self, dealt: list[int]) -> dict[str, list[str]]:
        """The deal's hands (and kitty) by seat name: the k-th card dealt
        goes to the seat ``(dealer + 1 + k) % players`` (:meth:`_owner`),
        so each seat's cards are one slice of ``dealt``."""
        g = self.tg
        deck, p, dealt_to_seats = g.spec.deck, g.players, g.hand_size * g.players
        out: dict[str, list[str]] = {}
        for seat, name in enumerate(g.spec.seat_names):
            first = (seat - g.dealer - 1) % p
            out[name] = [deck[i] for i in dealt[first:dealt_to_seats:p]]
        if g.kitty:
            out["kitty"] = [deck[i] for i in dealt[dealt_to_seats:]]
        return out

    def _start(self) -> None:
        g = self.tg
        m = trumps.new_game(
            g.trumps_game,
            preset=g.preset,
            options=g.trumps_options,
            seed=0,
            deal=self._deal_mapping(self.dealt),
            dealer=g.dealer,
        )
        self.holder = _Holder(m)
        self._par = bridge_par(m) if g.reward == "imps" else None

    @property
    def match(self) -> Match[Deal] | None:
        return self.holder.match

    # ----- the OpenSpiel API ---------------------------------------------------
    def current_player(self) -> int:
        return self._player

    def _update_player(self) -> None:
        if self._done:
            self._player = int(pyspiel.PlayerId.TERMINAL)
        elif (m := self.match) is None:
            self._player = int(pyspiel.PlayerId.CHANCE)
        else:
            seat = m.to_act_index  # (None only once the deal is over, and then _done is set)
            self._player = int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal(self) -> dict[int, Action]:
        h = self.holder
        if h.legal is None:
            m = h.match
            h.legal = {} if m is None else legal_by_index(self.tg.spec.actions, m.legal_actions())
        return h.legal

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal())

    # pyspiel.State's is_chance_node, legal_actions and observation_tensor,
    # called from Python, each go through C++ and back into this class a few
    # times (current_player, is_terminal, _legal_actions; for the tensor, its
    # size worked out from a new initial state and the observer's 16 blocks
    # copied one by one, at every call): these give the same answers without
    # the round trips.  C++ callers (and pyspiel.State.observation_tensor
    # called unbound) still take pyspiel's own path, through the observer.
    def is_chance_node(self) -> bool:
        """As ``pyspiel.State.is_chance_node``."""
        return self._player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As ``pyspiel.State.legal_actions``: none once over, the chance
        outcomes at a chance node, else the acting seat's (none for another)."""
        p = self._player if player is None else operator.index(player)
        if self._done:
            return []
        if self._player == _CHANCE:
            return [a for a, _p in self.chance_outcomes()]
        if p == self._player:
            return list(self._legal())  # (in index order: legal_by_index)
        if p < 0:
            raise pyspiel.SpielError(f"legal_actions: called for pseudo-player {p}")
        return []

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (the current player's by
        default): ``pyspiel.State.observation_tensor``'s values, read
        straight from the tracker, as a new list copied from the one the
        state keeps for the seat (:class:`~trumps.envs._step.ObservationLists`)."""
        p = self._player if player is None else operator.index(player)
        if not 0 <= p < self.tg.players:
            raise pyspiel.SpielError(
                f"observation_tensor: player {p} is not a seat (0-{self.tg.players - 1})"
            )
        if not self._done:
            h = self.holder
            lists = h.lists
            if lists is not None:
                return lists.observe(p)
            tracker = self.tracked()
            if tracker is not None:
                lists = h.lists = self.tg.lists(tracker, self.actions)
                return as_list(tracker.observe(p)) if lists is None else lists.observe(p)
        observer = self.tg.observer()
        observer.set_from(self, p)
        values = observer.tensor.tolist()
        return values

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left  # (kept as the cards are dealt: no set of the dealt ones per call)
        return pick(self.tg.outcomes[len(left)], left)  # type: ignore[return-value]  # (the tuples)

    def _apply_action(self, action: int) -> None:
        h = self.holder
        m = h.match
        if m is None:
            if deal_card(self.dealt, self._left, int(action)) == len(self.tg.spec.deck):
                self._start()
                self._update_player()
            return
        legal = h.legal if h.legal is not None else self._legal()
        h.legal = None
        # (compiled: the action, the history, the tracker; self._player is
        # the match's to_act_index, kept by _update_player)
        after = apply_index(m, h.tracker, legal, int(action), self._player, self.actions)
        if after >= 0:
            self._player = after
            return
        if m.results:
            g = self.tg
            per_team = deal_rewards(
                g.trumps_game, g.reward, m.results[0], g.spec.teams, g.spec.seat_names, self._par
            )
            for t, members in enumerate(g.spec.teams):
                for s in members:
                    self._returns[s] = per_team[t]
            self._done = True
        self._update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.tg.spec.deck[action]}"
        return self.tg.spec.actions.names[action]

    def is_terminal(self) -> bool:
        return self._done

    def tracked(self) -> ObservationTracker | None:
        """The tracker of the match, made when first asked for (its table is
        built from the match then, and kept up to date by each action
        after); ``None`` while dealing, once the deal is over, or when the
        game does not fit the tracker."""
        h = self.holder
        if h.match is None or self._done:
            return None
        if h.tracker is None:
            h.tracker = self.tg.tracker(h.match)
        return h.tracker

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if self.match is None:
            return f"dealing {len(self.dealt)}/{len(self.tg.spec.deck)}"
        names = self.tg.spec.seat_names
        return " ".join(f"{names[s]}:{a}" for s, a, _p in self.actions) or "dealt"

    # ----- what a seat knows ---------------------------------------------------
    def dealt_to(self, player: int) -> list[str]:
        g = self.tg
        deck = g.spec.deck
        if 0 <= player < g.players:  # every players-th card of the hands, from the seat's first
            first = (player - g.dealer - 1) % g.players
            return [deck[i] for i in self.dealt[first : g.hand_size * g.players : g.players]]
        return [deck[i] for k, i in enumerate(self.dealt) if self._owner(k) == player]

    def view(self, player: int) -> JSONDict | None:
        m = self.match
        if m is None or self._done:
            return None
        v: JSONDict = m.view(player)
        return v

    def resample_from_infostate(self, player_id: int, probability_sampler: object) -> TrumpsState:
        """A state drawn from ``player_id``'s information set: the unseen
        cards re-dealt at random (in the play, respecting the shown voids),
        checked by replaying every action."""
        rng = random.Random(int(probability_sampler() * 2**31) if callable(probability_sampler) else None)
        want = self.information_state_string(player_id)
        near: TrumpsState | None = None
        for _ in range(200):
            sampled = self._sample_deal(player_id, rng)
            if sampled is None:
                continue
            dealt, pile = sampled
            state = self._replay(dealt, player_id, pile, rng)
            if state is not None and state.information_state_string(player_id) == want:
                return state
            near = state if state is not None else near
        # Never the true state (that would show the bot every hidden card): a world
        # that replays every action but disagrees with something the seat was told
        # (a meld announcement the sampler does not model), else a clear error.
        if near is not None:
            return near
        raise RuntimeError(f"no world consistent with seat {player_id}'s information found in 200 tries")

    def _sample_deal(self, player: int, rng: random.Random) -> tuple[list[int], list[str]] | None:
        """A deal (deck indices in dealing order) and the cards other seats
        put aside unseen (500's discards), or ``None``."""
        g = self.tg
        deck = g.spec.deck
        ci = g.spec.card_index
        n = len(deck)
        owners = [self._owner(k) for k in range(n)]
        fixed: dict[int, int] = {k: i for k, i in enumerate(self.dealt) if owners[k] == player}
        if g.kitty and self._saw_kitty(player):
            fixed.update({k: i for k, i in enumerate(self.dealt) if owners[k] < 0})
        hands: dict[int, list[str]] | None = None
        view = self.view(player)
        if view is not None and view.get("phase") == "PLAY" and view.get("contract"):
            from trumps.bots.sampling import PILE, SamplingError, knowledge, play_sequence

            try:
                current = knowledge(view).sample(rng, tries=20)
            except SamplingError:
                return None
            hands = {s: list(c) for s, c in current.items()}
            played = play_sequence(view)
            _pin_belote(view, hands, played, rng)
            for seat, card, _led in played:
                hands[seat].append(card)
            pile = hands.pop(PILE, [])
            if g.kitty:
                hands[-1] = list(pile)
        if hands is None:
            free = [i for i in range(n) if i not in set(fixed.values())]
            rng.shuffle(free)
            it = iter(free)
            return [fixed[k] if k in fixed else next(it) for k in range(n)], []
        # the contractor's dealt hand and the kitty, when not known, split at random
        discards: list[str] = []
        if g.kitty and not self._saw_kitty(player):
            contract = _obj((view or {}).get("contract"))
            who = contract.get("seat")
            contractor = (
                g.spec.seat_names.index(who) if isinstance(who, str) and who in g.spec.seat_names else None
            )
            if contractor is not None:
                discards = list(hands.get(-1, []))
                rng.shuffle(discards)
                union = hands[contractor] + hands.get(-1, [])
                rng.shuffle(union)
                hands[contractor], hands[-1] = union[: g.hand_size], union[g.hand_size :]
        slots: dict[int, list[int]] = {}
        for owner, cards in hands.items():
            slots[owner] = [ci[c] for c in cards]
        for idx in slots.values():
            rng.shuffle(idx)
        out: list[int] = []
        for k in range(n):
            if k in fixed:
                out.append(fixed[k])
                continue
            pool = slots.get(owners[k], [])
            mine = set(fixed.values())
            while pool and pool[-1] in mine:
                pool.pop()
            if not pool:
                return None
            out.append(pool.pop())
        return (out, discards) if sorted(out) == list(range(n)) else None

    def _saw_kitty(self, player: int) -> bool:
        m = self.match
        if m is None or not self.tg.kitty:
            return False
        contract = _obj(m.view(player).get("contract")) if not self._done else {}
        seat = contract.get("seat")
        return bool(
            isinstance(seat, str)
            and self.tg.spec.seat_names.index(seat) == player
            and m.phase in ("KITTY", "PLAY")
        )

    def _replay(
        self, dealt: list[int], player: int, pile: list[str], rng: random.Random
    ) -> TrumpsState | None:
        """The state of this history on another deal; other seats' private
        actions become the sampled ones (``pile``: 500's discards) or, for a
        coinche meld declaration, any legal one."""
        state = self.tg.new_initial_state()
        pile = list(pile)
        view: JSONObject = self.view(player) or {}
        try:
            for i in dealt:
                state.apply_action(i)
            for s, notation, public in self.actions:
                m = state.match
                if m is None:
                    return None
                legal = state.tg.spec.actions.legal(m.legal_actions())
                if not public and s != player:
                    if m.phase == "KITTY" and pile:
                        notation = pile.pop()
                    elif notation.startswith("MELD:"):
                        notation = _declaration_like(view, s, [str(a) for a in legal.values()], rng)
                idx = next((i for i, a in legal.items() if str(a) == notation), None)
                if idx is None:
                    return None
                state.apply_action(idx)
        except Exception:
            return None
        return state


def _obj(value: JSON) -> JSONObject:
    """A JSON object of a view (``{}`` for null)."""
    return value if isinstance(value, Mapping) else {}


def _seq(value: JSON) -> Sequence[JSON]:
    """A JSON array of a view (``[]`` for null)."""
    return value if isinstance(value, Sequence) and not isinstance(value, str) else []


def _declaration_like(view: JSONObject, seat: int, legal: list[str], rng: random.Random) -> str:
    """Coinche: a meld declaration for another seat that tells what the
    real one told: the melds shown at trick 2, else a best meld of the
    announced value (and rank), else nothing."""
    from trumps.coinche.melds import Declaration

    info = _obj(view.get("melds"))
    name = str(_seq(view["seats"])[seat])
    shown = _obj(info.get("shown")).get(name)
    if shown is not None:
        want = sorted(str(m) for m in _seq(shown))
        same = [d for d in legal if sorted(str(m) for m in Declaration.parse(d).melds) == want]
        return rng.choice(same) if same else rng.choice(legal)
    said = [a for a in map(_obj, _seq(info.get("announcements"))) if a["seat"] == name]
    if not said:
        return "MELD:-" if "MELD:-" in legal else rng.choice(legal)
    value = said[-1]["value"]
    rank = _obj(said[-1].get("how_high")).get(name)
    fits = []
    for d in legal:
        melds = Declaration.parse(d).melds
        if (
            melds
            and max(m.value for m in melds) == value
            and (rank is None or any(m.value == value and m.rank == rank for m in melds))
        ):
            fits.append(d)
    return rng.choice(fits) if fits else rng.choice(legal)


def _pin_belote(
    view: JSONObject,
    hands: dict[int, list[str]],
    played: Sequence[tuple[int, str, int | None]],
    rng: random.Random,
) -> None:
    """Coinche: a seat that announced belote but not yet rebelote holds the
    other card of the pair; move it there (swapping a random card back)."""
    seats = [str(s) for s in _seq(view["seats"])]
    for entry in map(_obj, _seq(view.get("belote"))):
        if entry.get("call") != "belote":
            continue
        seat = seats.index(str(entry["seat"]))
        pair = {"K" + str(entry["suit"]), "Q" + str(entry["suit"])}
        mine = {c for s, c, _l in played if s == seat}
        missing = pair - mine
        if len(missing) != 1:
            continue
        card = missing.pop()
        if card in hands.get(seat, []):
            continue
        holder = next((s for s, cs in hands.items() if card in cs), None)
        swappable = [c for c in hands.get(seat, []) if c not in pair]
        if holder is None or not swappable:
            continue
        back = rng.choice(swappable)
        hands[holder].remove(card)
        hands[holder].append(back)
        hands[seat].remove(back)
        hands[seat].append(card)


class TrumpsObserver:
    """PyObserver: the observation (the seat's view) or the information
    state (its dealt hand, the history with other seats' private actions
    hidden, and the current view)."""

    def __init__(self, game: _Config, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        enc = game.spec.observation
        d = len(game.spec.deck)
        self.extra = d if perfect_recall else 0
        self.tensor = np.zeros(self.extra + enc.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        if perfect_recall:
            self.dict["dealt_hand"] = self.tensor[:d]
        for name, off, size in enc.describe():
            self.dict[name] = self.tensor[self.extra + off : self.extra + off + size]

    def set_from(self, state: TrumpsState, player: int) -> None:
        tracker = state.tracked()
        if tracker is None:
            self.set_from_view(state, player)
            return
        t, extra = self.tensor, self.extra
        if extra:
            t[:extra] = 0.0
            ci = self.game.spec.card_index
            for c in state.dealt_to(player):
                t[ci[c]] = 1.0
        tracker.observe_into(player, t[extra:])

    def set_from_view(self, state: TrumpsState, player: int) -> None:
        """The tensor encoded from scratch from the seat's view (what
        :meth:`set_from` gives, without the tracker)."""
        g = self.game
        self.tensor.fill(0.0)
        ci = g.spec.card_index
        if self.perfect_recall:
            for c in state.dealt_to(player):
                self.tensor[ci[c]] = 1.0
        view = state.view(player)
        if view is None:
            if state.match is None:
                for c in state.dealt_to(player):
                    self.tensor[self.extra + ci[c]] = 1.0
            return
        self.tensor[self.extra :] = g.spec.observation.encode(view)

    def string_from(self, state: TrumpsState, player: int) -> str:
        view = state.view(player)
        if view is None:
            now = f"dealing {len(state.dealt)} hand {' '.join(state.dealt_to(player))}"
            if state.match is not None:
                now = "over " + json.dumps(state.returns())
        else:
            shown = {k: v for k, v in view.items() if k not in ("options", "legal")}
            now = json.dumps(shown, sort_keys=True, separators=(",", ":"), default=str)
        if not self.perfect_recall:
            return f"p{player} {now}"
        names = self.game.spec.seat_names
        hist = " ".join(f"{names[s]}:{a if public or s == player else '?'}" for s, a, public in state.actions)
        return f"p{player} dealt {' '.join(state.dealt_to(player))} | {hist} | {now}"


def _game_class(game: str) -> type[TrumpsGame]:
    """The OpenSpiel game class of ``game`` (OpenSpiel builds it from params alone)."""

    def __init__(self: TrumpsGame, params: Params | None = None) -> None:
        TrumpsGame.__init__(self, params, game=game)

    return type(f"TrumpsGame_{game}", (TrumpsGame,), {"__init__": __init__})


def register() -> list[str]:
    """Register every game of the registry with OpenSpiel (idempotent); their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in games():
        name = short_name(game)
        names.append(name)
        if name in registered:
            continue

        pyspiel.register_game(_game_type(game), _game_class(game))
    return names
