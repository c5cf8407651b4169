"""The part of an environment's step below its API, compiled by mypyc with
the engines (``setup.py``).

PettingZoo's ``AECEnv`` and gymnasium's spaces are Python classes, which a
compiled class cannot subclass, so the environments themselves stay Python;
what they do at every step that is not PettingZoo's API -- the legal action
of an index, the tracker's update, the next legal actions as indices and
as a mask -- lives here, in a class the compiler turns into a C struct with
direct calls into the compiled engine and tracker.  Measured on the
PettingZoo bridge loop (``docs/benchmarks.md``), these were about half of a
step as Python.

Without the compiled build (or with ``TRUMPS_PURE=1``) this is the same
code run as Python: the environments give the same observations, masks and
views either way (``tests/envs``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from trumps.core.cards import Card
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Action, Deal, Match
from trumps.envs.encoding import ActionSpace
from trumps.envs.tracking import ObservationTracker

__all__ = ["Stepper", "ViewOf", "apply_index", "as_list", "deal_card", "legal_by_index", "pick"]


def legal_by_index(space: ActionSpace, legal: Sequence[Action]) -> dict[int, Action]:
    """Index -> engine action, for the legal actions, in the order of the
    indices (:meth:`ActionSpace.legal`, compiled: the OpenSpiel state's
    legal actions at every step, whose list is then the dict's keys as
    they come, not sorted again)."""
    lut: list[int | None] = space._card_lut
    by_action: dict[object, int] = space._by_action
    out: dict[int, Action] = {}
    last = -1
    ordered = True
    for a in legal:
        i = lut[a.index] if type(a) is Card else by_action.get(a)
        if i is None:  # (an action kind made anew each time: by its key)
            out = space.legal(legal)
            ordered = False
            break
        out[i] = a
        ordered = ordered and i > last
        last = i
    if not ordered:
        out = {i: out[i] for i in sorted(out)}
    return out


def deal_card(dealt: list[int], left: list[int], card: int) -> int:
    """The OpenSpiel state's chance action: deck index ``card`` is dealt
    (added to ``dealt``, taken from ``left``); the number of cards dealt."""
    dealt.append(card)
    if card in left:
        left.remove(card)
    return len(dealt)


def apply_index(
    match: Match[Deal],
    tracker: ObservationTracker | None,
    legal: dict[int, Action],
    action: int,
    seat: int,
    history: list[tuple[int, str, bool]],
) -> int:
    """The OpenSpiel state's player action: apply the legal action of index
    ``action`` for ``seat`` (through ``tracker`` when the state has one),
    add (seat, notation, public) to ``history`` (a 500 discard and a coinche
    meld declaration are private), and give the seat to act next, or -1
    when the deal is over (its result is in ``match.results``).  Raises
    ``KeyError``, with nothing changed, for an index not in ``legal``."""
    engine_action = legal[action]
    notation = str(engine_action)
    private = match.phase == "KITTY" or notation.startswith("MELD:")
    history.append((seat, notation, not private))
    if tracker is None:
        match.apply(engine_action)
    else:
        tracker.apply(engine_action)  # the match's action, and the tensors brought up to date
    after = match.to_act_index
    return -1 if match.results or after is None else after


def pick(row: list[object], at: list[int]) -> list[object]:
    """``[row[i] for i in at]``: the OpenSpiel state's chance outcomes, the
    tuples of the cards left picked from the game's table of them."""
    return [row[i] for i in at]


def as_list(tensor: Any) -> list[float]:
    """``tensor.tolist()`` (a float32 vector), made faster for a mostly zero
    tensor: a list of one shared ``0.0`` with the nonzero values written in
    (``tolist`` makes a float object per value, most of the cost of
    OpenSpiel's ``observation_tensor`` called from Python; compiled, the
    loop over the nonzero values costs little beside numpy's two calls)."""
    nz = (tensor != 0).nonzero()[0]  # (a bool array: nonzero() twice as fast as on floats)
    at: list[int] = nz.tolist()
    # (objects, not floats: compiled, a float is unboxed when read and a new
    # one made when stored; these are stored as they come)
    values: list[object] = tensor[nz].tolist()
    out: list[object] = [0.0] * len(tensor)
    for k in range(len(at)):
        out[at[k]] = values[k]
    return cast("list[float]", out)


class Stepper:
    """One episode's match, its tracker, the actions applied so far, and
    the legal actions of the seat to act with their indices and mask.

    ``mask`` (int8, one cell per action index) is kept up to date in place
    by :meth:`sync`: the cells of the last legal actions are cleared and
    the new ones set, through a memoryview, instead of a new array a step
    (``np.frombuffer`` alone costs more than the cells).  Readers copy it.
    """

    def __init__(
        self, space: ActionSpace, tracker: ObservationTracker, new_match: Callable[[int], Any]
    ) -> None:
        self.space = space
        self.tracker = tracker
        # the engine match of an episode's seed (the environment's own
        # new_game call), for late views (:class:`ViewOf`)
        self.new_match = new_match
        n = len(space.names)
        self.mask: Any = np.zeros(n, dtype=np.int8)
        self.no_mask: Any = np.zeros(n, dtype=np.int8)
        self._mask_mv: Any = self.mask.data
        self._card_lut: list[int | None] = space._card_lut
        self._by_action: dict[object, int] = space._by_action
        self.match: Any = None  # a Match[Deal] from reset() on
        self.seed = 0
        self.actions: list[Action] = []
        self.legal: Sequence[Action] = ()
        self.legal_idx: list[int] = []
        # the replay that late views read (actions list, its match, steps applied)
        self._replay: tuple[list[Action], Any, int] | None = None

    def reset(self, match: Match[Deal], seed: int) -> None:
        """A new episode: ``match``, made by ``new_match(seed)``."""
        self.match = match
        self.seed = seed
        self.actions = []
        self.tracker.reset(match)

    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The indices of ``legal`` (engine actions), in their order
        (:meth:`ActionSpace.indices`)."""
        lut, by_action = self._card_lut, self._by_action
        out: list[int] = []
        for a in legal:
            i = lut[a.index] if type(a) is Card else by_action.get(a)
            if i is None:
                return self.space.indices(legal)
            out.append(i)
        return out

    def sync(self, active: bool) -> int:
        """The seat to act, with its legal actions, their indices and the
        mask, or -1 (no legal actions, a zero mask) when nobody acts or
        ``active`` is false (the episode is over)."""
        mv = self._mask_mv
        for i in self.legal_idx:
            mv[i] = 0
        m: Match[Deal] = self.match
        seat = m.to_act_index
        if seat is None or not active:
            self.legal, self.legal_idx = (), []
            return -1
        legal = m.legal_actions()
        idx = self.indices(legal)
        self.legal, self.legal_idx = legal, idx
        for i in idx:
            mv[i] = 1
        return seat

    def step(self, action: Any) -> bool:
        """Apply the legal action of index ``action`` (and bring the
        tracker up to date); false, with nothing changed, when ``action``
        is not the index of a legal action."""
        try:
            k = self.legal_idx.index(int(action))
        except (ValueError, TypeError):
            return False
        chosen = self.legal[k]
        self.tracker.apply(chosen)
        self.actions.append(chosen)
        return True

    def observation(self, seat: int, acting: bool) -> dict[str, Any]:
        """PettingZoo's observation of ``seat``: its tensor, and the mask if
        it is the seat to act (else zeros); both new arrays."""
        mask = self.mask if acting else self.no_mask
        return {"observation": self.tracker.observe(seat), "action_mask": mask.copy()}

    def replayed_view(self, seed: int, actions: list[Action], step: int, seat: int) -> JSONDict:
        """``seat``'s view after the first ``step`` of ``actions`` (the
        episode of ``seed``), from a replay of the episode: one replay per episode
        moves forward as late reads come (in step order, as stored infos
        are usually read, that is one replay of the episode in all, not one
        per read)."""
        r = self._replay
        if r is None or r[0] is not actions or r[2] > step:
            r = (actions, self.new_match(seed), 0)
        replay = r[1]
        for action in actions[r[2] : step]:
            replay.apply(action)
        self._replay = (actions, replay, step)
        then: JSONDict = replay.view(seat)
        return then


class ViewOf:
    """A function giving ``seat``'s view of the stepper's state now, even
    when called after later steps (it then replays the episode so far):
    what a :class:`~trumps.envs.lazy.ViewInfo` calls when first read."""

    def __init__(self, stepper: Stepper, seat: int) -> None:
        self.stepper = stepper
        self.match: Any = stepper.match
        self.seed = stepper.seed
        self.actions = stepper.actions
        self.step = len(stepper.actions)
        self.seat = seat

    def __call__(self) -> JSONDict:
        if self.stepper.match is self.match and len(self.actions) == self.step:
            now: JSONDict = self.match.view(self.seat)
            return now
        return self.stepper.replayed_view(self.seed, self.actions, self.step, self.seat)
