"""Observation tensors kept up to date action by action, instead of being
rebuilt from a view at every step.

A view costs 4-7 engine steps and encoding it as much again, so an
environment that encoded the acting seat's view at every step ran 10-25
times slower than the engine (``docs/benchmarks.md``).  But one action
changes an observation in a handful of places, and those places are the same
for every seat up to the seat's point of view: a call adds one to the call
table and shifts the last calls; a card leaves a hand and joins the trick; a
finished trick joins the played cards.

So :class:`ObservationTracker` keeps one *absolute* tensor: every block of
the observation with seats and teams in table order instead of relative to
the observer, each seat's own hand in a block of its own, and one cell that
is always zero.  An action updates it once, whatever the number of seats,
and a seat's observation is one gather, ``table[index[seat]]``, where
``index[seat]`` maps each position of the seat's tensor to the absolute cell
it shows: its own hand (never another's), the other seats' blocks rotated to
its point of view, the zero cell where the seat sees nothing.

Anything less regular than a call, a card or the end of the auction (the 500
kitty, coinche meld declarations, a new deal, a claim) rebuilds the table
from the spectator's view of the match and the seats' own hands, one view
for all seats.

The view stays the definition: ``check=True`` encodes every observation
from the seat's own view as well and raises :class:`ObservationMismatch` if
the tracked one differs, and the tests run that check after every action of
random deals of every configuration (``tests/envs/test_tracking.py``; 6,750
deals with ``TRUMPS_ENV_DEALS=300``),
so the tracked tensors hold exactly what the views hold -- no hidden card
can get in.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, Final

import numpy as np
from mypy_extensions import mypyc_attr

import trumps
from trumps.core.cards import Card
from trumps.core.copying import shallow_copy
from trumps.core.protocol import Action, Deal, Match
from trumps.core.trick import TrickDeal
from trumps.core.values import TextValue
from trumps.envs.encoding import LAST_CALLS, PHASES, Spec

__all__ = ["ObservationMismatch", "ObservationTracker"]

# (Final: compiled, a constant is a C value, not a lookup in the module's dict)
AUCTION: Final = "AUCTION"
PLAY: Final = "PLAY"
KITTY: Final = "KITTY"
_LAST_CALLS: Final = LAST_CALLS
PUBLIC_BLOCKS = (
    "led_suit",
    "contract",
    "contract_seat",
    "contract_doubled",
    "phase",
    "hand_to_play",
    "hand_sizes",
    "tricks_won",
    "scores",
    "vulnerable",
)


@mypyc_attr(native_class=False)  # (mypyc compiles no subclass of AssertionError)
class ObservationMismatch(AssertionError):
    """A tracked tensor differs from the one encoded from the seat's view."""


@mypyc_attr(allow_interpreted_subclasses=True)  # (so shallow_copy can make one, and a test can stub one)
class ObservationTracker:
    """Every seat's observation tensor for one match; :meth:`apply` applies
    an action to the match and updates them, :meth:`observe` gives one.

    Compiled by mypyc with the engines (``setup.py``): :meth:`apply` runs
    at every step of every environment, and compiled, its bookkeeping (the
    cells a card or a call changes, written through a memoryview of the
    table) costs a third of what it costs as Python.  The locals are typed
    for that (a deal is a :class:`~trumps.core.trick.TrickDeal`: its fields
    are then read from its struct); a deal of another shape is rebuilt from
    the views at each action, as the rarer actions are."""

    def __init__(self, spec: Spec, *, check: bool = False) -> None:
        self.spec = spec
        self.check = check
        enc = spec.observation
        p, dk, nc, nt = spec.players, len(spec.deck), len(spec.calls), len(spec.teams)
        self._p, self._d, self._nc = p, dk, nc
        self._card_index = spec.card_index
        self._call_index = spec.call_index
        self._team_order = [enc._team_order(s) for s in range(p)]
        self._has_led = trumps.game_spec(spec.game).view_names_led_suit
        # the table is rebuilt from seat 0's point of view, whose team order
        # must then be the table's own (team 0 first)
        if self._team_order[0][0] != 0:
            raise ValueError("the observation tracker needs seat 0 in team 0")
        # the absolute table: each observation block with table-order seats,
        # plus every seat's own hand (in "hand") and one zero cell at the end
        sizes = dict(enc.layout)
        sizes["hand"] = p * dk
        self._at: dict[str, int] = {}
        off = 0
        for name, _size in enc.layout:
            self._at[name] = off
            off += sizes[name]
        self._zero = off
        self._size = off + 1
        self._index = [self._gather(s, enc.offsets, nt) for s in range(p)]
        # the blocks of numbers (not cards, not calls): the cells of seat
        # 0's tensor they fill, and the table's cells those show
        cells = np.concatenate([np.arange(enc.offsets[b], enc.offsets[b] + sizes[b]) for b in PUBLIC_BLOCKS])
        self._public_cells = (self._index[0][cells], cells)
        self._width = nc + p  # one slot of the last calls
        # a Match[Deal] from reset() on, left unnarrowed (apply() narrows its
        # deal to a TrickDeal, whose fields it reads)
        self.match: Any = None
        self._table: np.ndarray | None = None
        self._mv: Any | None = None  # of the table, for single cells
        self._stale = False  # (see _set_table)
        # a card's deck position by its Card.index (a list: a Card's hash is a Python call)
        self._card_of: list[int] = [-1] * (max(Card(c).index for c in spec.deck) + 1)
        for c, i in spec.card_index.items():
            self._card_of[Card(c).index] = i
        at = self._at
        self._at_hand, self._at_exposed, self._at_trick = at["hand"], at["exposed_hands"], at["current_trick"]
        self._at_played, self._at_led, self._at_sizes = at["played"], at["led_suit"], at["hand_sizes"]
        self._at_won, self._at_htp = at["tricks_won"], at["hand_to_play"]
        # zeros to clear blocks through the memoryview (same format, no numpy call)
        zeros: Any = np.zeros(max(p * dk, 4), dtype=np.float32).data
        self._zeros_phases = zeros[: len(PHASES)]
        self._zeros_w = np.zeros(nc + p, dtype=np.float32).data  # one slot of the last calls
        self._call_of: dict[object, int | None] = {}
        self._has_exposed: dict[type, bool] = {}  # (see _exposed)
        self._at_last, self._at_calls = at["last_calls"], at["call_table"]
        self._zeros_p, self._zeros_4, self._zeros_d, self._zeros_pd = (
            zeros[:p],
            zeros[:4],
            zeros[:dk],
            zeros[: p * dk],
        )

    def _gather(self, me: int, obs_at: dict[str, int], nt: int) -> np.ndarray:
        """For each position of ``me``'s observation, the absolute cell it shows."""
        p, dk, nc, at = self._p, self._d, self._nc, self._at
        idx = np.full(self.spec.observation.size, -1, dtype=np.intp)

        def per_seat(block: str, width: int, zero_self: bool = False) -> None:
            for r in range(p):
                seat = (me + r) % p
                dst = obs_at[block] + r * width
                if zero_self and r == 0:
                    idx[dst : dst + width] = self._zero
                else:
                    idx[dst : dst + width] = np.arange(
                        at[block] + seat * width, at[block] + (seat + 1) * width
                    )

        def same(block: str, width: int) -> None:
            idx[obs_at[block] : obs_at[block] + width] = np.arange(at[block], at[block] + width)

        idx[obs_at["hand"] : obs_at["hand"] + dk] = np.arange(
            at["hand"] + me * dk, at["hand"] + (me + 1) * dk
        )
        per_seat("exposed_hands", dk, zero_self=True)
        per_seat("current_trick", dk)
        per_seat("played", dk)
        same("led_suit", 4)
        per_seat("call_table", nc)
        for slot in range(LAST_CALLS):
            base_o = obs_at["last_calls"] + slot * (nc + p)
            base_a = at["last_calls"] + slot * (nc + p)
            idx[base_o : base_o + nc] = np.arange(base_a, base_a + nc)
            for r in range(p):
                idx[base_o + nc + r] = base_a + nc + (me + r) % p
        same("contract", nc)
        per_seat("contract_seat", 1)
        same("contract_doubled", 3)
        same("phase", len(PHASES))
        per_seat("hand_to_play", 1)
        per_seat("hand_sizes", 1)
        for block in ("tricks_won", "scores"):
            for rt, team in enumerate(self._team_order[me]):
                idx[obs_at[block] + rt] = at[block] + team
        mine = 0 if self.spec.seat_names[me] in ("N", "S") else 1
        idx[obs_at["vulnerable"]] = at["vulnerable"] + mine
        idx[obs_at["vulnerable"] + 1] = at["vulnerable"] + 1 - mine
        assert (idx >= 0).all()
        return idx

    # ----- reading -----------------------------------------------------------
    def reset(self, match: Match[Deal]) -> None:
        """Track ``match`` (the table is built when first needed)."""
        self.match = match
        self._set_table(None)

    def _set_table(self, table: np.ndarray | None) -> None:
        """The table, and a memoryview of it: single cells are written
        through the view (a third cheaper than numpy's item assignment)."""
        self._table = table
        self._mv = None if table is None else table.data
        self._stale = False  # the blocks of numbers wait for _refresh_public (when next read)

    def copy(self, match: Match[Deal]) -> ObservationTracker:
        """A tracker of ``match``, a clone of this tracker's match in the
        same position: the table is copied, the seat index arrays (never
        written) are shared."""
        new = shallow_copy(self)  # (a compiled object has no __dict__ for copy.copy)
        new.match = match
        new._set_table(None if self._table is None else self._table.copy())
        new._stale = self._stale
        return new

    def _built(self) -> np.ndarray:
        """The table, built or brought up to date first if need be."""
        t = self._table
        if t is None:
            t = self._rebuild()
            self._set_table(t)
        elif self._stale:
            self._refresh_public()
            self._stale = False
        return t

    def observe(self, seat: int) -> np.ndarray:
        """``seat``'s observation tensor (a new array)."""
        t = self._table
        if t is None or self._stale:
            t = self._built()
        out: np.ndarray = t.take(self._index[seat])
        if self.check:
            self._check(seat, out)
        return out

    def observe_into(self, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation tensor into ``out`` (a float32
        array of the observation's size, such as a slice of a larger one)."""
        t = self._table
        if t is None or self._stale:
            t = self._built()
        t.take(self._index[seat], out=out, mode="clip")  # (valid indices: "clip" spares a buffer)
        if self.check:
            self._check(seat, out)

    def _check(self, seat: int, out: np.ndarray) -> None:
        expected = self.spec.observation.encode(self.match.view(seat))
        if not np.array_equal(out, expected):
            blocks = self.spec.observation.describe()
            bad = [n for n, a, k in blocks if not np.array_equal(out[a : a + k], expected[a : a + k])]
            raise ObservationMismatch(f"seat {seat}: the tracked observation differs from the view in {bad}")

    def _rebuild(self) -> np.ndarray:
        """The table from the spectator's view (what every seat sees, in
        table order: the view as seat 0 would have it without its hand)
        and each seat's own hand."""
        m = self.match
        p, dk, ci = self._p, self._d, self._card_index
        public = m.view(None)
        names = self.spec.seat_names
        as_first = dict(public, seat=names[0], hands={**(public.get("hands") or {}), names[0]: None})
        table = np.zeros(self._size, dtype=np.float32)
        table[self._index[0]] = self.spec.observation.encode(as_first)
        hands = m.deal.hands
        at_hand, at_exposed = self._at["hand"], self._at["exposed_hands"]
        table[at_hand : at_hand + p * dk] = 0.0
        cards = self._card_of
        table[[at_hand + s * dk + cards[c.index] for s in range(p) for c in hands[s]]] = 1.0
        shown = (public.get("hands") or {}).get(names[0])
        if shown:  # seat 0's hand lies open: the others see it
            table[[at_exposed + ci[c] for c in shown]] = 1.0
        table[self._zero] = 0.0
        return table

    # ----- one action --------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply ``action`` to the match and bring the table up to date."""
        m: Match[Deal] = self.match
        mv = self._mv
        dd = m.deal
        if mv is None or self._stale or not isinstance(dd, TrickDeal):
            # nothing to update: built from the match when first read
            m.apply(action)
            self._set_table(None)
            return
        d: TrickDeal = dd
        phase = d.phase
        # a card, or a card with more said (a 500 joker lead naming its suit,
        # a coinche card with its belote): the same change to the table
        # (asked only in the play: a getattr that fails raises inside, and
        # costs as much as the rest of a call's update)
        card: object = None
        if phase == PLAY:
            card = action if type(action) is Card else getattr(action, "card", None)
        if type(card) is Card:
            owner = d.hand_to_play
            tricks = len(d.tricks)
            exposed = len(self._exposed(d))
            m.apply(action)
            over: bool = m.is_over
            if m.deal is not d or owner is None or (d.phase != PLAY and not over):
                self._set_table(None)  # a new deal, or the deal left the play (a rebuild)
                return
            # the card leaves its hand (and the exposed hand), joins the trick
            # (inlined: this is most of the actions of a deal)
            cell = owner * self._d + self._card_of[card.index]
            mv[self._at_hand + cell] = 0.0
            mv[self._at_exposed + cell] = 0.0
            mv[self._at_trick + cell] = 1.0
            mv[self._at_sizes + owner] = len(d.hands[owner]) / 10.0
            led = self._at_led
            mv[led : led + 4] = self._zeros_4
            if len(d.tricks) > tricks:
                self._trick_done(mv, d)
            elif self._has_led and d.led < 4:
                mv[led + d.led] = 1.0
            htp, at = d.hand_to_play, self._at_htp
            mv[at : at + self._p] = self._zeros_p
            if htp is not None:
                mv[at + htp] = 1.0
            shown = self._exposed(d)  # (bridge's dummy, a 500 open misère)
            if len(shown) != exposed:
                self._laid_down(mv, shown, d.hands)
            if over:  # the match ended with this card (one bridge board): its last view's
                self._stale = True  # numbers, when read (an environment that resets reads none)
        elif phase == AUCTION and type(action) is not Card:
            calls = len(d.auction.calls)
            m.apply(action)
            if m.deal is not d or m.is_over or len(d.auction.calls) != calls + 1:
                self._set_table(None)
                return
            after = d.phase
            self._call(mv, d)
            if after == PLAY:
                self._auction_over()
            elif after == KITTY and d.hand_to_play is not None:
                self._auction_over()  # (500: the contract and the phase)
                self._kitty_taken(mv, d, d.hand_to_play)
            elif after != AUCTION:
                self._set_table(None)
        elif phase == KITTY and type(action) is Card:
            # a 500 discard (but the last: the play then starts, and the
            # table is rebuilt): the card leaves the contractor's own hand
            owner = d.hand_to_play
            exposed = len(self._exposed(d))
            m.apply(action)
            after = d.phase
            if m.deal is not d or m.is_over or owner is None or after not in (KITTY, PLAY):
                self._set_table(None)
                return
            mv[self._at_hand + owner * self._d + self._card_of[action.index]] = 0.0
            mv[self._at_sizes + owner] = len(d.hands[owner]) / 10.0
            if after == PLAY:  # the last discard: the play starts
                self._set_phase(mv, PLAY)
                self._hand_to_play(mv, d.hand_to_play)
                shown = self._exposed(d)
                if len(shown) != exposed:
                    self._laid_down(mv, shown, d.hands)
        else:  # the kitty, melds, claims, a joker lead...: a rebuild when next read
            m.apply(action)
            self._set_table(None)

    def _exposed(self, d: TrickDeal) -> Collection[int]:
        """The seats whose hands lie open (bridge's dummy, a 500 open
        misère; none in coinche, whose deal has no ``exposed``).  Whether a
        deal's class has them is looked up once: ``getattr`` with a default
        raises and catches inside when there is none."""
        kind = type(d)
        has = self._has_exposed.get(kind)
        if has is None:
            has = self._has_exposed[kind] = hasattr(d, "exposed")
        if not has:
            return ()
        shown: Collection[int] = getattr(d, "exposed", ())
        return shown

    def _hand_to_play(self, mv: Any, htp: int | None) -> None:
        at = self._at_htp
        mv[at : at + self._p] = self._zeros_p
        if htp is not None:
            mv[at + htp] = 1.0

    def _call(self, mv: Any, d: TrickDeal) -> None:
        caller, call = d.auction.calls[-1]
        k = self._call_of.get(call, -1)
        if k == -1:  # (calls are interned: each one's index is looked up by its notation once)
            k = self._call_index.get(str(call))
            if isinstance(call, TextValue):
                self._call_of[call] = k
        last, w = self._at_last, self._width
        if k is not None:
            mv[self._at_calls + caller * self._nc + k] += 1.0
        # the last calls move one slot down (a memoryview copies overlapping
        # slices with memmove) and the newest goes first
        mv[last + w : last + _LAST_CALLS * w] = mv[last : last + (_LAST_CALLS - 1) * w]
        mv[last : last + w] = self._zeros_w
        if k is not None:
            mv[last + k] = 1.0
        mv[last + self._nc + caller] = 1.0
        self._hand_to_play(mv, d.hand_to_play)

    def _auction_over(self) -> None:
        """Bridge and coinche go from the auction straight to the play: the
        contract and the phase change (read from the public view), no hand."""
        t = self._table
        assert t is not None
        enc = self.spec.observation
        public = self.match.view(None)
        start, end = self._at["contract"], self._at["contract_doubled"] + 3
        t[start:end] = 0.0
        for i in enc.contract_ones(public.get("contract"), 0):
            t[i - enc.offsets["contract"] + start] = 1.0  # seat 0's point of view = table order
        ph = self._at["phase"]
        t[ph : ph + len(PHASES)] = 0.0
        t[enc.phase_index(public.get("phase")) - enc.offsets["phase"] + ph] = 1.0

    def _refresh_public(self) -> None:
        """The blocks that are numbers about the deal, not cards or calls
        (the contract, the phase, whose hand, hand sizes, tricks won,
        scores, vulnerability, the led suit), encoded again from the
        spectator's view with its cards and calls left out; the card and
        call blocks, up to date, are kept."""
        t = self._table
        assert t is not None
        public = self.match.view(None)
        bare = dict(public, seat=self.spec.seat_names[0], hands=None, trick=None, tricks=None, auction=None)
        enc = self.spec.observation.encode(bare)  # seat 0's point of view = table order
        table_cells, seat0_cells = self._public_cells
        t[table_cells] = enc[seat0_cells]

    def _set_phase(self, mv: Any, phase: str) -> None:
        ph = self._at["phase"]
        mv[ph : ph + len(PHASES)] = self._zeros_phases
        mv[ph + PHASES.index(phase)] = 1.0

    def _kitty_taken(self, mv: Any, d: TrickDeal, owner: int) -> None:
        """The 500 contractor took up the kitty: its own hand grows (only
        it sees the kitty), and its hand size."""
        base, cards = self._at_hand + owner * self._d, self._card_of
        for c in d.hands[owner]:
            mv[base + cards[c.index]] = 1.0
        mv[self._at_sizes + owner] = len(d.hands[owner]) / 10.0

    def _laid_down(self, mv: Any, exposed: Iterable[int], hands: Sequence[Sequence[Card]]) -> None:
        """A hand was laid down (bridge's dummy after the opening lead, a 500
        open misère): the others see it from now on."""
        dk, cards, at = self._d, self._card_of, self._at["exposed_hands"]
        for seat in exposed:
            mv[at + seat * dk : at + (seat + 1) * dk] = self._zeros_d
            for c in hands[seat]:
                mv[at + seat * dk + cards[c.index]] = 1.0

    def _trick_done(self, mv: Any, d: TrickDeal) -> None:
        """The trick is complete: its cards join the played ones, the
        tricks won change."""
        dk, cards = self._d, self._card_of
        played = self._at_played
        done = d.tricks[-1]
        for seat, card in zip(done.seats, done.cards, strict=True):
            mv[played + seat * dk + cards[card.index]] = 1.0
        trick = self._at_trick
        mv[trick : trick + self._p * dk] = self._zeros_pd
        won = self._at_won
        for team, n_won in enumerate(d.side_won):
            mv[won + team] = n_won / 10.0
