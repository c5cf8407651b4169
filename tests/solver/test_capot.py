"""The capot question and the capot objective of the solver (coinche), checked
against the trick-count and card-points searches, across the two engines,
and against plain minimax on small endgames."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import trumps
from trumps.solver import SolverError, c_available, can_capot, position_of, solve, value
from trumps.solver.position import Position
from trumps.solver.randpos import random_position_match
from trumps.solver.reference import brute_force, final_value, legal_moves, play, solve_reference

needs_c = pytest.mark.skipif(not c_available(), reason="the C solver is not built")
ENGINES = ["python", "c"] if c_available() else ["python"]


def _positions(seed: str, count: int, cards: int = 3, **options: Any) -> list[Position]:
    """Random coinche endgames, each also as if the taker's side had won
    every trick so far (so that the capot is still open)."""
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(count):
        pos = position_of(random_position_match("coinche", rng, cards, **options))
        out.append(pos)
        if pos.lost_trick:
            out.append(replace(pos.copy(), lost_trick=False))
    return out


def _max_tricks(pos: Position) -> int:
    """The declaring side's tricks from here with best play, by plain minimax."""
    t = pos.copy()
    t.unit, t.won, t.capot = "tricks", 0, None
    return brute_force(t)


def _capot_minimax(pos: Position) -> dict[str, int]:
    """The capot objective by plain minimax, per legal move, belote included."""
    cap = pos.copy()
    cap.capot = int(pos.options.capot_points)
    out = {}
    for move in legal_moves(cap):
        child, over = play(cap, move)
        out[str(move)] = (final_value(child) if over else brute_force(child)) + pos.belote
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_can_capot_is_all_the_remaining_tricks(engine: str) -> None:
    seen = {True: 0, False: 0}
    for pos in _positions(f"capot/{engine}", 150):
        want = not pos.lost_trick and _max_tricks(pos) == pos.tricks_left
        assert can_capot(pos, engine=engine) is want, pos
        seen[want] += 1
    assert seen[True] > 10 and seen[False] > 10, seen


@needs_c
@pytest.mark.parametrize("cards", [2, 3, 4])
def test_c_trick_count_of_coinche_equals_python(cards: int) -> None:
    from trumps.solver.cengine import solve_c
    from trumps.solver.reference import solve_reference

    for pos in _positions(f"tricks/{cards}", {2: 150, 3: 150, 4: 40}[cards], cards):
        t = pos.copy()
        t.unit, t.won = "tricks", 0
        assert solve_c(t)[0] == solve_reference(t)[0], t


@pytest.mark.parametrize("options", [{}, {"capot_points": 162}, {"capot_points": 252}])
def test_capot_objective_equals_minimax(options: dict[str, Any]) -> None:
    for pos in _positions(f"minimax/{options}", 60, 2 + len(options), **options):
        want = _capot_minimax(pos)
        for engine in ENGINES:
            got = solve(pos, engine=engine, objective="capot")
            assert got.values == want, (engine, pos)
            assert got.objective == "capot" and got.unit == "points"
            best = max(want.values()) if got.maximising else min(want.values())
            assert value(pos, engine=engine, objective="capot") == best


class _WithCapot:
    """Options with a (hand-made, below the card points) ``capot_points``."""

    def __init__(self, base: Any, capot: int) -> None:
        self.base, self.capot_points = base, capot

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)


def test_the_decomposition_equals_the_direct_search() -> None:
    """The capot value is the capot where it can be forced and the card
    points elsewhere: checked against the reference's direct search of the
    capot score (the transposition key then holds the past), and that
    direct search (used only if a capot were worth less than the card
    points still in play) against plain minimax with a small capot."""
    for pos in _positions("direct", 60, 3):
        cap = pos.copy()
        cap.capot = int(pos.options.capot_points)
        direct = {m: v + pos.belote for m, v in solve_reference(cap)[0].items()}
        assert solve(pos, engine="python", objective="capot").values == direct
        small = pos.copy()
        small.options = _WithCapot(pos.options, pos.won + 1)
        want = _capot_minimax(small)
        assert solve(small, engine="python", objective="capot").values == want


@needs_c
@pytest.mark.parametrize("cards", [3, 4])
def test_capot_objective_c_equals_python(cards: int) -> None:
    for pos in _positions(f"engines/{cards}", {3: 80, 4: 25}[cards], cards):
        c = solve(pos, engine="c", objective="capot")
        py = solve(pos, engine="python", objective="capot")
        assert c.values == py.values and c.best == py.best, pos
        assert c.engine == "c" and py.engine == "python"


@pytest.mark.parametrize("engine", ENGINES)
def test_capot_value_against_card_points(engine: str) -> None:
    for pos in _positions(f"points/{engine}", 120):
        capot = int(pos.options.capot_points)
        points = value(pos, engine=engine)
        got = value(pos, engine=engine, objective="capot")
        # the capot rule only adds to the card points: never below them
        assert got >= points + pos.belote
        if can_capot(pos, engine=engine):  # the taker's side goes for all tricks
            assert got == capot + pos.belote
        else:  # the defence's card-points defence already takes a trick
            assert got == points + pos.belote
        per_card = solve(pos, engine=engine, objective="capot").values
        plain = solve(pos, engine=engine).values
        assert per_card.keys() == plain.keys()
        assert all(per_card[m] >= plain[m] + pos.belote for m in plain)


def test_belote_is_the_taker_sides_pairs() -> None:
    rng = random.Random("belote")
    seen = 0
    for _ in range(200):
        match = random_position_match("coinche", rng, 3, mid_trick=False)
        pos = position_of(match)
        side = pos.declaring.index(True) % 2
        if not match.deal.o.belote_requires_announcement:
            assert pos.belote == match.deal.belote_points()[side]
        seen += pos.belote > 0
        assert value(match, objective="capot") == value(pos, objective="capot")
    assert seen > 5


def _full_deal_capot() -> trumps.Match:  # type: ignore[type-arg]
    # North holds every heart (trumps) but the 7 and two aces: the capot is on
    deal = {
        "N": "JH 9H AH TH KH QH AS AD",
        "E": "7S 8S 9S TS 7D 8D 9D TD",
        "S": "7H KS QS JS KD QD JD 7C",
        "W": "8H AC TC KC QC JC 9C 8C",
    }
    return trumps.new_game("coinche", deal=deal, dealer="W", contract="CAPOT-H", declarer="N")


def test_a_full_deal_capot() -> None:
    g = _full_deal_capot()
    assert can_capot(g)
    capot = int(g.deal.o.capot_points)
    assert value(g, objective="capot") == capot + 20  # belote: KH QH with North
    assert value(g) == 162
    sol = solve(g, objective="capot")
    # South leads: a trump or the club keeps the capot; a spade or a
    # diamond gives the defence a trick (and only card points are left)
    assert sol.best == ["7H", "7C"] and sol.values["7H"] == capot + 20
    assert sol.values["KS"] == solve(g).values["KS"] + 20 < capot
    assert can_capot_after(g, "7H") and not can_capot_after(g, "KS")


def can_capot_after(g: trumps.Match, move: str) -> bool:  # type: ignore[type-arg]
    h = g.clone()
    h.apply(move)
    return can_capot(h)


def test_errors() -> None:
    bridge = trumps.new_game("bridge", seed=3, contract="7NT", declarer="N")
    assert can_capot(bridge) == (value(bridge) == 13)
    with pytest.raises(SolverError, match="coinche"):
        solve(bridge, objective="capot")
    with pytest.raises(SolverError, match="objective"):
        value(bridge, objective="slam")
    misere = trumps.new_game("500", seed=3, contract="MIS", declarer="N")
    with pytest.raises(SolverError, match="misère"):
        can_capot(misere)
