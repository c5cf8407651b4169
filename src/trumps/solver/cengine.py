"""Reduce a :class:`Position` to the C module's compact problem and read
back its answer.

Every per-card fact the C search needs comes from the engine's rule
objects here: the effective suit and power of a 500 card under its contract
(``TrickRules.eff``/``power``: bowers and suit-contract jokers are trumps,
no-trump jokers are a fifth suit), the coinche trump and plain orders and
card points, bridge suits and ranks.  Cards are renumbered so that each
effective suit is a run of indices in increasing power; the problem is a
flat array of 32-bit integers (layout in ``_dd.c``).
"""

from __future__ import annotations

from array import array
from types import ModuleType

from trumps.coinche.calls import AT, NT
from trumps.coinche.play import DIX_DE_DER
from trumps.core.cards import Card, Suit
from trumps.five_hundred.play import JokerLead
from trumps.solver.position import DUTIES, JOKERS, PLAIN, Position, SearchLimit, SolverError, check_limit

__all__ = ["available", "solve_c", "value_c", "variant"]

_dd: ModuleType | None
try:
    import trumps.solver._dd as _dd
except ImportError:  # pragma: no cover - only without a compiler
    _dd = None

# field offsets (the enum at the top of _dd.c)
_MAXI, _DECL, _SHOWN, _TCARD = 18, 24, 30, 36
_CARDS = 42


def available() -> bool:
    """Whether the compiled module was built and imports (the build skips it
    where there is no C compiler; the Python search answers then)."""
    return _dd is not None


def variant() -> str | None:
    """Which copy of the C search runs here: ``"bmi2"`` (chosen at import
    where the CPU has BMI2), ``"generic"``, or ``None`` when the module is
    not built.  Both give identical results; ``TRUMPS_DD_GENERIC=1`` forces
    the generic copy."""
    return None if _dd is None else str(_dd.variant())


def _card_facts(pos: Position, card: Card) -> tuple[int, int, int]:
    """(effective suit 0-4, power within that suit, points) of a card."""
    i = card.index
    if pos.family == JOKERS:
        return pos.rules.eff[i], pos.rules.power[i], 0
    if pos.family == PLAIN:
        return i // 16, i % 16, 0
    if pos.unit == "tricks":  # every trick is worth its four cards: see _per_trick
        return i // 16, pos.rules.power[i], 1
    return i // 16, pos.rules.power[i], pos.rules.points[i]


def _per_trick(pos: Position) -> int:
    """What the C search counts per trick won: 1 in trick mode, except in
    coinche counted in tricks (its capot question), which runs the
    card-points search with every card worth one point and no dix de der:
    four points a trick, so the search and its exact table keys hold
    unchanged and the tricks are the points over four."""
    return 4 if pos.family == DUTIES and pos.unit == "tricks" else 1


def _problem(pos: Position) -> tuple[bytes, list[Card]]:
    """The C module's problem for a position, and its cards by number."""
    seats = [pos.active[0]]
    while len(seats) < len(pos.active):
        seats.append(pos.nxt[seats[-1]])
    place = {s: i for i, s in enumerate(seats)}
    n = len(seats)
    cards: list[Card] = [c for s in seats for c in pos.hands[s]] + list(pos.trick)
    if len(cards) > 64:
        raise SolverError("the C solver handles at most 64 cards in play")
    facts = {c: _card_facts(pos, c) for c in cards}
    cards.sort(key=lambda c: (facts[c][0], facts[c][1], c.index))
    number = {c: k for k, c in enumerate(cards)}
    owner = {c: place[s] for s in seats for c in pos.hands[s]}
    f = [0] * (_CARDS + 3 * len(cards))
    f[0] = n
    if pos.family == DUTIES:
        rules = pos.rules
        f[1] = 1
        f[2] = rules.trump
        f[7] = 0 if rules.denom == NT else 1 if rules.denom == AT else 2
        f[8], f[9] = int(rules.exempt_trump_lead), int(rules.undertrump)
        f[10], f[11] = int(rules.master_exempt), int(rules.master_overtrump)
        f[6], f[17] = 1, DIX_DE_DER if pos.unit == "points" else 0
    elif pos.family == JOKERS:
        trump = pos.rules.trump
        f[2] = -1 if trump is None else int(trump)
        f[3] = int(trump is None and not pos.rules.joker_low)
        f[4] = int(trump is None)
        f[5] = int(pos.restrict_joker_lead)
    else:
        f[2] = pos.rules
    f[12] = len(cards)
    f[13] = pos.tricks_left
    leader = pos.trick_seats[0] if pos.trick else pos.to_play
    f[14] = place[leader]
    f[15] = len(pos.trick)
    f[16] = pos.led if pos.trick else -1
    for s in seats:
        i = place[s]
        f[_MAXI + i] = int(pos.declaring[s] != pos.minimise)
        f[_DECL + i] = int(pos.declaring[s])
        f[_SHOWN + i] = sum(1 << v for v in pos.shown_void[s]) if pos.shown_void else 0
    for i, c in enumerate(pos.trick):
        f[_TCARD + i] = number[c]
    k = len(cards)
    for c, j in number.items():
        f[_CARDS + j] = facts[c][0]
        f[_CARDS + k + j] = facts[c][2]
        f[_CARDS + 2 * k + j] = owner.get(c, -1)
    return array("i", f).tobytes(), cards


def _total(pos: Position, future: int) -> int:
    total = pos.won + future // _per_trick(pos)
    return total if pos.stop_at is None else min(total, pos.stop_at)


def _module() -> ModuleType:
    if _dd is None:
        raise SolverError("the C solver is not built (install the package with a C compiler)")
    return _dd


def _limit(limit: int | None) -> int:
    return check_limit(limit) or 0  # 0: no limit, in _dd.c


def solve_c(pos: Position, limit: int | None = None) -> tuple[dict[str, int], int]:
    """The final total after each legal move (by the C search), and nodes.
    Past ``limit`` nodes (if given) it raises :class:`SearchLimit`."""
    dd = _module()
    problem, cards = _problem(pos)
    moves, nodes = dd.solve(problem, _limit(limit))
    if moves is None:
        raise SearchLimit(_limit(limit))
    values: dict[str, int] = {}
    for j, suit, value in moves:
        card = cards[j]
        total = _total(pos, value)
        if card.suit is None and pos.family == JOKERS and not pos.trick and pos.rules.trump is None:
            values[str(JokerLead(card, Suit(suit)))] = total
        else:
            values[str(card)] = total
    return values, nodes


def value_c(pos: Position, limit: int | None = None) -> tuple[int, int]:
    """The final total with best play from here (one search, no per-card
    values), and nodes.  Past ``limit`` nodes it raises :class:`SearchLimit`."""
    dd = _module()
    problem, _ = _problem(pos)
    future, nodes = dd.value(problem, _limit(limit))
    if future is None:
        raise SearchLimit(_limit(limit))
    return _total(pos, future), nodes
