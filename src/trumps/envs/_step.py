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

__all__ = [
    "ObservationLists",
    "Stepper",
    "ViewOf",
    "apply_index",
    "as_list",
    "deal_card",
    "inverse_index",
    "legal_by_index",
    "pick",
]


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


def inverse_index(index: Sequence[Any], size: int, zero: int) -> list[list[int]]:
    """For each seat, absolute cell -> the position of the seat's tensor
    that shows it, or -1 (the inverse of the tracker's gather indices
    ``index``, over a table of ``size`` cells).  ``zero`` is the cell that
    is always zero: it shows at many positions and never changes, so it
    maps to none.  ``ValueError`` if another cell shows at two positions
    of one seat's tensor (then a changed cell could not be written once)."""
    out: list[list[int]] = []
    for seat_index in index:
        inv = [-1] * size
        cells: list[int] = seat_index.tolist()
        for pos in range(len(cells)):
            cell = cells[pos]
            if cell == zero:
                continue
            if inv[cell] != -1:
                raise ValueError(f"cell {cell} shows twice in one seat's observation")
            inv[cell] = pos
        out.append(inv)
    return out


class ObservationLists:
    """The OpenSpiel state's observation tensors as Python lists, kept
    from step to step instead of converted from the tracker's array at
    every call.

    ``observation_tensor()`` must give a Python list of floats (pyspiel's
    API), and converting a float32 tensor of a thousand cells into one costs
    several times what the tracker's gather does (:func:`as_list`), at every
    call.  But one action changes few cells of the tracker's table: so each
    seat's list is made once per table, and after each action the cells of
    the table that differ from the copy last seen (one numpy comparison,
    shared by all seats) are written into the seats' lists through
    :func:`inverse_index`.  A call is then a copy of the seat's list (the
    caller owns the list it gets), and a state asked twice between two
    actions compares nothing.

    ``actions`` is the state's history list, whose length tells that an
    action was applied since the last call; a new table (the tracker
    rebuilt it: a new deal phase, a claim...) starts the lists again."""

    def __init__(
        self, tracker: ObservationTracker, inverse: list[list[int]], zeros: list[object], actions: list[Any]
    ) -> None:
        self.tracker = tracker
        self.inverse = inverse
        self.zeros = zeros  # a tensor's worth of 0.0, distinct objects (shared by the game's states)
        self.actions = actions
        self.steps = -1  # len(actions) when the lists were last brought up to date
        self.table: Any = None  # the tracker's table the lists show (its identity)
        self.seen: Any = None  # a copy of that table as the lists show it
        self.lists: list[list[object] | None] = [None] * len(inverse)
        self._t_mv: Any = None  # memoryviews of the table and of seen
        self._seen_mv: Any = None
        self._diff: Any = None  # the cells that differ (a buffer)

    def observe(self, seat: int) -> list[float]:
        """``seat``'s observation tensor as a new list (``seat`` checked by the caller)."""
        if len(self.actions) != self.steps:
            self._sync()
        lst = self.lists[seat]
        if lst is None:
            lst = self._fresh(seat)
        return cast("list[float]", lst.copy())

    def _fresh(self, seat: int) -> list[object]:
        """``seat``'s list made from the tracker's tensor: a copy of
        ``zeros`` with the nonzero values written in (as :func:`as_list`,
        but its zeros are distinct objects: CPython copies a list whose
        items are one object repeated between others at half the speed of
        one of distinct objects, or of one object alone -- measured, 3.4
        against 1.6 µs for these tensors -- and every call copies it)."""
        tensor = self.tracker.observe(seat)
        nz = (tensor != 0).nonzero()[0]
        at: list[int] = nz.tolist()
        values: list[object] = tensor[nz].tolist()
        lst = self.zeros.copy()
        for k in range(len(at)):
            lst[at[k]] = values[k]
        self.lists[seat] = lst
        return lst

    def _sync(self) -> None:
        t = self.tracker._built()
        self.steps = len(self.actions)
        if t is not self.table:
            self.table = t
            self.seen = t.copy()
            self._t_mv = t.data
            self._seen_mv = self.seen.data
            self._diff = np.empty(len(t), dtype=np.bool_)
            self.lists = [None] * len(self.inverse)
            return
        diff = self._diff
        np.not_equal(t, self.seen, out=diff)
        cells: list[int] = diff.nonzero()[0].tolist()
        if not cells:
            return
        # (a few cells: read one by one through memoryviews, cheaper than
        # numpy's fancy indexing and a copy of the whole table)
        t_mv, seen_mv = self._t_mv, self._seen_mv
        values: list[object] = []
        for c in cells:
            v = t_mv[c]
            seen_mv[c] = v
            values.append(v)
        for seat in range(len(self.lists)):
            lst = self.lists[seat]
            if lst is None:
                continue
            inv = self.inverse[seat]
            for k in range(len(cells)):
                pos = inv[cells[k]]
                if pos >= 0:
                    lst[pos] = values[k]


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
