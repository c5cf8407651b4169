"""A node limit on one search: past it the solve raises ``SearchLimit``
(nothing half-searched comes back), below it the answer is the same, and an
aborted search leaves nothing behind in the C engine's table."""

from __future__ import annotations

import contextlib
import time
from typing import Any

import pytest

import trumps
from trumps.solver import SearchLimit, SolverError, solve, value
from trumps.solver.cengine import _dd


def _game(game: str = "500", seed: int = 3, contract: str = "7S", **opts: object) -> Any:
    return trumps.new_game(game, seed=seed, contract=contract, declarer=0, options=opts or None)


@pytest.mark.parametrize("engine", ["c", "python"])
def test_a_search_past_its_limit_raises(engine: str) -> None:
    g = _game()
    with pytest.raises(SearchLimit) as info:
        solve(g, engine=engine, limit=50)
    assert info.value.limit == 50 and "50 nodes" in str(info.value)
    assert isinstance(info.value, SolverError) and isinstance(info.value, ValueError)
    with pytest.raises(SearchLimit):
        value(g, engine=engine, limit=50)


@pytest.mark.parametrize("objective", ["total", "capot"])
def test_a_limit_above_the_search_changes_nothing(objective: str) -> None:
    g = _game("coinche", seed=5, contract="80H")
    full = solve(g, objective=objective)
    assert solve(g, objective=objective, limit=full.nodes + 1).values == full.values
    assert value(g, objective=objective, limit=10**9) == value(g, objective=objective)


def test_an_aborted_search_leaves_the_table_clean() -> None:
    """Entries stored by a cut-off search would carry wrong bounds; the
    next solves (the same deal and others) must answer as before."""
    deals = [_game(seed=s, contract=c) for s in range(4) for c in ("7S", "7NT", "MIS")]
    before = [solve(g, engine="c").values for g in deals]
    cut = 0
    for g in deals:
        for search in (solve, value):
            try:
                search(g, engine="c", limit=300)
            except SearchLimit:
                cut += 1
    assert cut >= len(deals)
    assert [solve(g, engine="c").values for g in deals] == before


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10", True])
def test_a_bad_limit_is_refused(bad: object) -> None:
    with pytest.raises(SolverError, match="node limit"):
        solve(_game(), limit=bad)  # type: ignore[arg-type]


def test_the_module_refuses_a_negative_limit() -> None:
    with pytest.raises(ValueError, match="negative"):
        assert _dd is not None
        _dd.solve(b"\0" * 400, -1)


def test_a_six_handed_deal_is_cut_off_in_bounded_time() -> None:
    """Some full 500 deals of 2v2v2 take minutes to solve (about one in
    ten above 16 million nodes): under a limit each ends in about a
    second, which is what keeps the room's tables moving."""
    worst = 0.0
    for seed in range(6):
        g = trumps.new_game("500", options={"players": "2v2v2"}, seed=seed, contract="7NT", declarer=0)
        t = time.perf_counter()
        with contextlib.suppress(SearchLimit):
            solve(g, limit=2_000_000)
        worst = max(worst, time.perf_counter() - t)
    assert worst < 5.0
