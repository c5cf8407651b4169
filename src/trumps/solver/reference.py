"""The pure-Python double-dummy search: the oracle the C module is tested
against.

It is deliberately plain: every legal card and trick winner comes from the
engine's own rule objects (500 ``TrickRules.legal_follow``/``winner``,
bridge ``trick_winner``, coinche ``TrickRules.legal``/``by_led``), the state
is copied at each move, and the only search techniques are alpha-beta and a
transposition table at trick boundaries keyed on the exact hands.  That is
slow but obviously right; :func:`brute_force` (no pruning at all) checks
the alpha-beta itself on tiny hands.
"""

from __future__ import annotations

from trumps.bridge.deal import SUIT_OF, trick_winner
from trumps.coinche.play import DIX_DE_DER
from trumps.core.cards import Card
from trumps.five_hundred.play import JokerLead, joker_leads
from trumps.solver.position import JOKERS, PLAIN, Position, SearchLimit, check_limit

__all__ = ["Move", "brute_force", "final_value", "legal_moves", "play", "solve_reference"]

Move = Card | JokerLead
_INF = 1 << 20


def legal_moves(pos: Position) -> list[Move]:
    """The legal cards (and 500 joker leads with their nominated suit) of
    the seat to play, in the engine's own order."""
    seat = pos.to_play
    hand = pos.hands[seat]
    if pos.family == JOKERS:
        rules = pos.rules
        if pos.trick:
            return list(rules.legal_follow(hand, pos.led))
        if rules.trump is None and any(c.suit is None for c in hand):
            return list(joker_leads(hand, pos.shown_void[seat] if pos.restrict_joker_lead else None))
        return list(hand)
    if pos.family == PLAIN:
        if pos.trick:
            return [c for c in hand if SUIT_OF[c.index] == pos.led] or list(hand)
        return list(hand)
    trick = pos.trick
    best = _coinche_best(pos)
    partner = bool(trick) and (pos.trick_seats[best] - seat) % 4 == 2
    return list(pos.rules.legal(hand, trick, best, partner))


def _coinche_best(pos: Position) -> int:
    trick = pos.trick
    if not trick:
        return 0
    strength = pos.rules.by_led[pos.led]
    best = 0
    for i in range(1, len(trick)):
        if strength[trick[i].index] > strength[trick[best].index]:
            best = i
    return best


def play(pos: Position, move: Move) -> tuple[Position, bool]:
    """The position after ``move`` and whether the deal is now over."""
    out = pos.copy()
    seat = out.to_play
    card = move.card if isinstance(move, JokerLead) else move
    out.hands[seat].remove(card)
    if not out.trick:
        if isinstance(move, JokerLead):
            out.led, out.joker_led = int(move.suit), True
        elif out.family == JOKERS:
            out.led, out.joker_led = out.rules.eff[card.index], card.suit is None
        else:
            out.led, out.joker_led = card.index // 16, False
    elif out.family == JOKERS and out.rules.eff[card.index] != out.led:
        out.shown_void[seat].add(out.led)
    out.trick.append(card)
    out.trick_seats.append(seat)
    if len(out.trick) < len(out.active):
        out.to_play = out.nxt[seat]
        return out, False
    if out.family == JOKERS:
        i = out.rules.winner(out.trick, out.led, out.joker_led)
    elif out.family == PLAIN:
        i = trick_winner(out.trick, out.rules)
    else:
        i = _coinche_best(out)
    winner = out.trick_seats[i]
    if not out.declaring[winner]:
        out.lost_trick = True
    if out.declaring[winner]:
        if out.unit == "points":
            out.won += out.rules.trick_points(out.trick) + (DIX_DE_DER if out.tricks_left == 1 else 0)
        else:
            out.won += 1
    out.tricks_left -= 1
    out.trick, out.trick_seats, out.led, out.joker_led = [], [], -1, False
    out.to_play = winner
    over = out.tricks_left == 0 or (out.stop_at is not None and out.won >= out.stop_at)
    return out, over


def final_value(pos: Position) -> int:
    """The declaring side's total of a finished deal: what it won or, under
    the capot objective, ``pos.capot`` when it won every trick."""
    if pos.capot is not None and not pos.lost_trick and pos.tricks_left == 0:
        return pos.capot
    return pos.won


def _wants_more(pos: Position) -> bool:
    return pos.declaring[pos.to_play] != pos.minimise


def _key(pos: Position) -> tuple[object, ...]:
    hands = tuple(tuple(sorted(c.index for c in h)) for h in pos.hands)
    voids = tuple(frozenset(s) for s in pos.shown_void) if pos.restrict_joker_lead else ()
    if pos.capot is not None:  # the future depends on the past: key on it
        return (hands, pos.to_play, voids, pos.won, pos.lost_trick)
    return (hands, pos.to_play, voids, pos.won if pos.stop_at is not None else 0)


class _Search:
    """Alpha-beta with a table of bounds on the *future* value (what is still
    to be won from a trick boundary), which is independent of the past."""

    def __init__(self, limit: int | None = None) -> None:
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        self.nodes = 0
        self.limit = limit

    def value(self, pos: Position, alpha: int, beta: int) -> int:
        """Final total of the declaring side (fail-soft within alpha, beta)."""
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise SearchLimit(self.limit)
        key = None
        lo, hi = -_INF, _INF
        if not pos.trick:
            key = _key(pos)
            got = self.table.get(key)
            if got is not None:
                lo, hi = got[0] + pos.won, got[1] + pos.won
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
        a0, b0 = max(alpha, lo), min(beta, hi)
        a, b = a0, b0
        maxi = _wants_more(pos)
        best = -_INF if maxi else _INF
        for move in legal_moves(pos):
            child, over = play(pos, move)
            v = final_value(child) if over else self.value(child, a, b)
            if maxi:
                if v > best:
                    best = v
                a = max(a, v)
            else:
                if v < best:
                    best = v
                b = min(b, v)
            if a >= b:
                break
        if key is not None:
            old_lo, old_hi = self.table.get(key, (-_INF, _INF))
            f = best - pos.won
            if best <= a0:
                self.table[key] = (old_lo, min(old_hi, f))
            elif best >= b0:
                self.table[key] = (max(old_lo, f), old_hi)
            else:
                self.table[key] = (f, f)
        return best


def solve_reference(pos: Position, limit: int | None = None) -> tuple[dict[str, int], int]:
    """The exact final total after each legal move, and the nodes searched
    (with ``pos.capot`` set: under the capot rule, by a direct search).
    Past ``limit`` nodes it raises :class:`SearchLimit`."""
    search = _Search(check_limit(limit))
    values: dict[str, int] = {}
    for move in legal_moves(pos):
        child, over = play(pos, move)
        values[str(move)] = final_value(child) if over else search.value(child, -_INF, _INF)
    return values, search.nodes


def brute_force(pos: Position) -> int:
    """Plain minimax (no pruning, no table): the check of the check."""
    best: int | None = None
    maxi = _wants_more(pos)
    for move in legal_moves(pos):
        child, over = play(pos, move)
        v = final_value(child) if over else brute_force(child)
        if best is None or (v > best if maxi else v < best):
            best = v
    assert best is not None
    return best
