"""The public API: values, best, maximising, units, errors, positions
mid-trick (500 no-trump joker leads with their nominated suit), and the
``trumps solve`` command."""

from __future__ import annotations

import json
import random

import pytest

import trumps
from trumps.cli.solve import main, parse_deal_text
from trumps.core.errors import TrumpsError
from trumps.five_hundred.play import JokerLead
from trumps.solver import Solution, SolverError, c_available, position_of, solve
from trumps.solver.randpos import random_position_match

ENGINES = ["python", "c"] if c_available() else ["python"]
DEAL_500 = "N=JS JC AS KS QS TS 9S 8S 7S RJ;E=AH KH QH JH TH 9H 8H 7H 6H 5H;S=AD KD QD JD TD 9D 8D 7D 6D 5D;W=AC KC QC 6S TC 9C 8C 7C 6C 5C"


@pytest.mark.parametrize("engine", ENGINES)
def test_solution_fields(engine: str) -> None:
    g = random_position_match("coinche", random.Random(4), 4, mid_trick=False)
    sol = solve(g, engine=engine)
    assert isinstance(sol, Solution)
    assert sol.unit == "points" and sol.engine == engine
    assert list(sol.values) == [str(c) for c in g.legal_actions()]
    target = max(sol.values.values()) if sol.maximising else min(sol.values.values())
    assert sol.best == [m for m, v in sol.values.items() if v == target]
    assert sol.nodes > 0


def test_all_trumps_in_500_win_everything() -> None:
    g = trumps.new_game("500", deal=parse_deal_text("500", DEAL_500), contract="10S", declarer="N")
    sol = solve(g)
    assert set(sol.values.values()) == {10} and sol.maximising and sol.unit == "tricks"


def test_misere_declarer_minimises() -> None:
    rng = random.Random(3)
    match = random_position_match("500", rng, 5, contract="MIS")
    sol = solve(match)
    pos = position_of(match)
    assert sol.maximising == (not pos.declaring[pos.to_play])


def test_joker_lead_in_no_trumps_nominates() -> None:
    deal = "N=RJ AS KS QS TS 9S 8S 7S 6S 5S;E=AH KH QH JH TH 9H 8H 7H 6H 5H;S=AD KD QD JD TD 9D 8D 7D 6D 5D;W=AC KC QC JC TC 9C 8C 7C 6C 5C"
    g = trumps.new_game("500", deal=parse_deal_text("500", deal), contract="7NT", declarer="N")
    sol = solve(g)
    assert {"RJ:S", "RJ:H", "RJ:D", "RJ:C"} <= set(sol.values)
    g.apply("RJ:H")
    after = solve(g)
    assert position_of(g).led == 1 and set(after.values) == {str(c) for c in g.legal_actions()}
    assert isinstance(trumps.five_hundred.play.JokerLead.parse("RJ:H"), JokerLead)


def test_six_player_500() -> None:
    rng = random.Random(6)
    match = random_position_match("500", rng, 3, players="2v2v2")
    assert solve(match, engine="python").values == solve(match).values


def test_not_in_trick_play() -> None:
    g = trumps.new_game("500", seed=1)
    with pytest.raises(SolverError, match="trick play"):
        solve(g)
    assert issubclass(SolverError, TrumpsError) and issubclass(SolverError, ValueError)
    with pytest.raises(SolverError, match="engine"):
        solve(trumps.new_game("bridge", seed=1, contract="1S", declarer="N"), engine="fortran")


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    pbn = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    assert main(["bridge", "--deal", pbn, "--contract", "3NT", "--declarer", "S"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3NT: W to play") and "AH" in out
    assert main(["500", "--deal", DEAL_500, "--contract", "10S", "--declarer", "N", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unit"] == "tricks" and set(data["values"].values()) == {10} and data["to_play"] == "N"
    assert (
        main(["coinche", "--seed", "4", "--contract", "100H", "--declarer", "E", "--leader", "S", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["to_play"] == "S"


@pytest.mark.parametrize(
    "argv",
    [
        ["500", "--contract", "7Q"],
        ["500", "--deal", "N=AS", "--contract", "7S"],
        ["bridge", "--contract", "3NT", "--play", "ZZ"],
        ["chess", "--contract", "1S"],
        ["500", "--deal", "{nope", "--contract", "7S"],
        ["bridge", "--contract", "3NT", "--seed", "1", "--deal", "N:..."],
        ["bridge", "--contract", "3NT", "--seed", "1", "--play", "x", "--leader", "Q"],
    ],
)
def test_cli_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trumps: error: ") and err.count("\n") == 1
