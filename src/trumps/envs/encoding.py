"""Fixed action indices and observation tensors for a (game, options) pair.

Everything here reads the engine only through its public protocol: the
action space from :meth:`~trumps.core.protocol.Match.presentation`, the
deck and the rules' option values; the observation only from
:meth:`~trumps.core.protocol.Match.view` of one seat, so it holds exactly
what that seat may know.  See ``docs/envs.md`` for the layouts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np

import trumps
from trumps.core.cards import Card
from trumps.core.options import Options
from trumps.core.protocol import Action, Deal, Match
from trumps.core.values import TextValue

__all__ = ["ActionSpace", "ObservationEncoder", "Spec", "spec_for"]

SUITS = ("S", "H", "D", "C")
PHASES = ("AUCTION", "BREACH", "KITTY", "PLAY", "CLAIM", "OTHER")
LAST_CALLS = 8  # the most recent calls, in order, besides the call table


def _deck(m: Match[Deal]) -> list[Card]:
    """Every card of the match's game under its options (the spec's ``deck``)."""
    deck = getattr(m, "deck", None)
    if deck is not None:
        return list(deck)
    return list(trumps.game_spec(m.game).load("deck")(m.options))


def _presentation_calls(m: Match[Deal]) -> list[str]:
    box = m.presentation().get("box") or {}  # a game without an auction has no bidding box
    out: list[str] = []
    for side in box.get("side", []):
        out.append(str(side["call"]))
    for part in (box.get("popup"), box.get("inkles")):
        if part:
            out += [str(c) for c in part.get("calls", [])]
    for row in box.get("rows", []):
        out += [str(c) for c in row.get("calls", [])]
    return out


# Coinche melds: every meld a hand of eight could hold (six carrés, runs of
# three to eight in each suit), and every set of them that fits in eight
# cards with no card in two runs -- a superset of what the engine offers.
_NATURAL = "AKQJT987"
_CARRE = "J9ATKQ"


@cache
def _meld_declarations() -> tuple[str, ...]:
    from trumps.coinche.melds import Declaration, Meld

    melds: list[tuple[Meld, frozenset[str], bool]] = []
    for r in _CARRE:
        cards = [Card(r + s) for s in SUITS]
        melds.append((Meld(cards, None), frozenset(map(str, cards)), True))
    for s in SUITS:
        for n in range(3, 9):
            for top in range(0, 9 - n):
                cards = [Card(_NATURAL[top + i] + s) for i in range(n)]
                melds.append((Meld(cards, cards[0].suit), frozenset(map(str, cards)), False))
    out: set[str] = {str(Declaration([]))}
    for k in (1, 2, 3):
        for combo in combinations(melds, k):
            union: set[str] = set()
            for _m, cs, _c in combo:
                union |= cs
            if len(union) > 8:
                continue
            runs = [cs for _m, cs, c in combo if not c]
            if any(a & b for a, b in combinations(runs, 2)):
                continue
            out.add(str(Declaration([m for m, _cs, _c in combo])))
    return tuple(sorted(out, key=lambda t: (len(t), t)))


def action_key(action: Action) -> tuple[bool, str]:
    """Cards and calls may share a notation (bridge's ``2C``): the key of an
    engine action is (is a plain card, notation)."""
    return (type(action) is Card, str(action))


class ActionSpace:
    """A fixed list of actions; an action's index is its position.  ``names``
    are the notations, ``n_calls`` the number of calls at the front, then
    the cards of the deck, then the game's extra action kinds."""

    def __init__(self, calls: Sequence[str], cards: Sequence[str], extras: Sequence[str]) -> None:
        calls = list(dict.fromkeys(calls))
        self.names: list[str] = [*calls, *cards, *extras]
        self.n_calls = len(calls)
        self.n_cards = len(cards)
        keys = [(False, c) for c in calls] + [(True, c) for c in cards] + [(False, e) for e in extras]
        self.index: dict[tuple[bool, str], int] = {k: i for i, k in enumerate(keys)}
        # cards are interned: the card object itself is a key (no str() per action)
        self._by_card: dict[Card, int] = {Card(c): self.index[(True, c)] for c in cards}
        # index by the action object itself, for the interned kinds (cards and
        # the games' calls, equal and hashed by identity or card index): one
        # dict lookup per action instead of a key tuple and its notation.  A
        # kind made anew each time (a claim, a meld declaration) is looked up
        # by its key and not kept, so the cache cannot grow without bound.
        self._by_action: dict[object, int] = {c: i for c, i in self._by_card.items()}
        # and a card's index by its small integer Card.index, in a list: a
        # Card hashes through a Python __hash__, a list index costs nothing
        lut: list[int | None] = [None] * (max((c.index for c in self._by_card), default=-1) + 1)
        for c, i in self._by_card.items():
            lut[c.index] = i
        self._card_lut = lut

    def index_of(self, action: Action) -> int:
        """The index of ``action`` (:meth:`encode`), cached for the interned
        action kinds."""
        i = self._by_action.get(action)
        if i is None:
            i = self.index[action_key(action)]
            if isinstance(action, (Card, TextValue)):
                self._by_action[action] = i
        return i

    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The indices of ``legal`` (engine actions), in their order."""
        get, lut = self._by_action.get, self._card_lut
        out = [lut[a.index] if type(a) is Card else get(a) for a in legal]
        if None in out:
            out = [self.index_of(a) for a in legal]
        return out  # type: ignore[return-value]  # (no None left)

    def __len__(self) -> int:
        return len(self.names)

    def encode(self, action: Action) -> int:
        """The index of an engine action object."""
        return self.index[action_key(action)]

    def legal(self, legal: Sequence[Action]) -> dict[int, Action]:
        """Index -> engine action, for the legal actions."""
        return dict(zip(self.indices(legal), legal, strict=True))

    def mask(self, legal: Sequence[Action]) -> np.ndarray:
        out = np.zeros(len(self.names), dtype=np.int8)
        idx = self.index
        for a in legal:
            out[idx[(type(a) is Card, str(a))]] = 1
        return out


def build_actions(m: Match[Deal]) -> ActionSpace:
    """Calls, then every card, then the game's extra action kinds."""
    names = _presentation_calls(m)
    deck = [str(c) for c in _deck(m)]
    more = trumps.game_spec(m.game).hook("rl_actions")
    calls, extras = more(m.options, deck) if more is not None else ([], [])
    names += [c for c in calls if c not in names]
    return ActionSpace(names, deck, list(extras))


def five_hundred_actions(opts: Options, deck: Sequence[str]) -> tuple[list[str], list[str]]:
    """500's actions beyond the bidding box and the cards: the breach call
    (when the rules have one) and a joker led in no trumps with its suit."""
    calls = ["BREACH"] if bool(getattr(opts, "breach_enabled", False)) else []
    return calls, [f"{j}:{s}" for j in deck if j in ("RJ", "BJ") for s in SUITS]


def coinche_actions(opts: Options, deck: Sequence[str]) -> tuple[list[str], list[str]]:
    """Coinche's actions beyond the bidding box and the cards: the king or
    queen of trumps played with its belote announcement, and the meld
    declarations (under rules that have them)."""
    extras: list[str] = []
    if bool(getattr(opts, "belote_requires_announcement", False)):
        extras += [f"{r}{s}+BELOTE" for s in SUITS for r in "KQ"]
    if str(getattr(opts, "melds", "none")) != "none":
        extras += _meld_declarations()
    return [], extras


class Spec:
    """What the encoders of one (game, options) need: seats, deck, calls."""

    def __init__(self, m: Match[Deal]) -> None:
        self.game = m.game
        self.players = m.players
        self.seat_names = [m.seat_name(i) for i in range(m.players)]
        self.teams = [list(t) for t in m.teams]
        self.actions = build_actions(m)
        self.deck = [str(c) for c in _deck(m)]
        self.card_index = {c: i for i, c in enumerate(self.deck)}
        self.calls = self.actions.names[: self.actions.n_calls]
        self.call_index = {c: i for i, c in enumerate(self.calls)}
        self.kitty = len(self.deck) - m.players * len(getattr(m.deal, "hands", [[]])[0])
        self.observation = ObservationEncoder(self)


def spec_for(game: str, preset: str | None = None, options: Mapping[str, object] | None = None) -> Spec:
    return Spec(trumps.new_game(game, preset=preset, options=dict(options or {}), seed=0))


class ObservationEncoder:
    """The fixed-size float32 tensor of one seat's view (``docs/envs.md``).

    Seats are relative (0 = the observer, then in seat order); teams are
    relative (0 = the observer's team, then in the order of ``teams``)."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        p, d, c = spec.players, len(spec.deck), len(spec.calls)
        t = len(spec.teams)
        self.layout: list[tuple[str, int]] = [
            ("hand", d),
            ("exposed_hands", p * d),
            ("current_trick", p * d),
            ("played", p * d),
            ("led_suit", 4),
            ("call_table", p * c),
            ("last_calls", LAST_CALLS * (c + p)),
            ("contract", c),
            ("contract_seat", p),
            ("contract_doubled", 3),
            ("phase", len(PHASES)),
            ("hand_to_play", p),
            ("hand_sizes", p),
            ("tricks_won", t),
            ("scores", t),
            ("vulnerable", 2),
        ]
        self.offsets: dict[str, int] = {}
        off = 0
        for name, size in self.layout:
            self.offsets[name] = off
            off += size
        self.size = off
        self._pos = {n: i for i, n in enumerate(spec.seat_names)}
        self._teams_from = [self._team_order(s) for s in range(p)]

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """The tensor of a view (all zeros for a view of nobody).

        (The view, JSON, is left unnarrowed: it is read key by key on the
        environments' measured path, and narrowing each value would put an
        ``isinstance`` per card and call there.)"""
        sp = self.spec
        out = np.zeros(self.size, dtype=np.float32)
        me_name = view["seat"]
        if me_name is None:
            return out
        o = self.offsets
        d, p, nc = len(sp.deck), sp.players, len(sp.calls)
        ci, cl = sp.card_index, sp.call_index
        pos = self._pos
        me = pos[me_name]

        def rel(name: str) -> int:
            return (pos[name] - me) % p

        ones: list[int] = []
        hands = view.get("hands") or {}
        base = o["hand"]
        ones += [base + ci[c] for c in hands.get(me_name) or []]
        for name, cards in hands.items():
            if name != me_name and cards:
                base = o["exposed_hands"] + rel(name) * d
                ones += [base + ci[c] for c in cards]
        base = o["current_trick"]
        ones += [base + rel(t["seat"]) * d + ci[t["card"]] for t in view.get("trick") or []]
        led = view.get("led_suit")
        if led in SUITS:
            ones.append(o["led_suit"] + SUITS.index(led))
        tricks = view.get("tricks") or []
        if tricks:
            step = -1 if view.get("direction") == "anticlockwise" else 1
            sitting = {pos[s] for s in view.get("sitting_out") or []}
            base = o["played"]
            for trick in tricks:
                seat = pos[trick["leader"]]
                for card in trick["cards"]:
                    while seat in sitting:
                        seat = (seat + step) % p
                    ones.append(base + ((seat - me) % p) * d + ci[card])
                    seat = (seat + step) % p
        auction = view.get("auction") or []
        if auction:
            counts: dict[int, float] = {}
            base = o["call_table"]
            for entry in auction:
                k = cl.get(entry["call"])
                if k is not None:
                    at = base + rel(entry["seat"]) * nc + k
                    counts[at] = counts.get(at, 0.0) + 1.0
            if counts:
                out[list(counts)] = list(counts.values())
            for slot, entry in enumerate(reversed(auction[-LAST_CALLS:])):
                base = o["last_calls"] + slot * (nc + p)
                k = cl.get(entry["call"])
                if k is not None:
                    ones.append(base + k)
                ones.append(base + nc + rel(entry["seat"]))
        ones += self.contract_ones(view.get("contract"), me)
        ones.append(self.phase_index(view.get("phase")))
        htp = view.get("hand_to_play")
        if htp in pos:
            ones.append(o["hand_to_play"] + rel(htp))
        if ones:
            out[ones] = 1.0
        for name, n in (view.get("hand_sizes") or {}).items():
            out[o["hand_sizes"] + rel(name)] = float(n) / 10.0
        team_order = self._teams_from[me]
        won = view.get("tricks_won")
        if won:
            for r, t in enumerate(team_order):
                out[o["tricks_won"] + r] = float(won[t]) / 10.0
        scores = view.get("scores")
        if scores:
            for r, t in enumerate(team_order):
                out[o["scores"] + r] = float(scores[t]) / 1000.0
        vul = str(view.get("vulnerable") or "")
        if vul:
            mine = "NS" if me_name in ("N", "S") else "EW"
            other = "EW" if mine == "NS" else "NS"
            out[o["vulnerable"]] = float(vul in ("All", "Both", mine))
            out[o["vulnerable"] + 1] = float(vul in ("All", "Both", other))
        return out

    def contract_ones(self, contract: Mapping[str, Any] | None, me: int) -> list[int]:
        """The indices set to one by the contract blocks, for seat ``me``."""
        if not contract:
            return []
        o, cl, pos = self.offsets, self.spec.call_index, self._pos
        ones: list[int] = []
        bid = str(contract.get("bid") or contract.get("call") or "")
        doubled = 0
        while bid.endswith("X") and bid not in cl:
            bid = bid[:-1]
            doubled += 1
        k = cl.get(bid)
        if k is not None:
            ones.append(o["contract"] + k)
        ones.append(o["contract_doubled"] + min(doubled, 2))
        seat_name = contract.get("seat") or contract.get("declarer")
        if seat_name in pos:
            ones.append(o["contract_seat"] + (pos[seat_name] - me) % self.spec.players)
        return ones

    def phase_index(self, phase: object) -> int:
        """The index set to one in the phase block."""
        phase = str(phase)
        return self.offsets["phase"] + (PHASES.index(phase) if phase in PHASES else len(PHASES) - 1)

    def _team_order(self, me: int) -> list[int]:
        teams = self.spec.teams
        mine = next(i for i, t in enumerate(teams) if me in t)
        return [(mine + k) % len(teams) for k in range(len(teams))]

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, offset, size) of each block."""
        return [(n, self.offsets[n], s) for n, s in self.layout]
