"""An independent review of the bridge engine against bridge.md, PBN 2.1 and
BBO LIN: every oracle below is written from the spec's tables, not from the
engine's formulas, so the two are checked against each other."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

import trumps
import trumps.bridge as bridge
from trumps.bridge.duplicate import (
    BoardResult,
    butler_imps,
    cross_imps,
    ew_matchpoints,
    matchpoints,
    neuberg,
    session_summary,
    team_imps,
)
from trumps.bridge.lin import read_lin, write_lin
from trumps.bridge.pbn import PbnError, read_pbn, write_pbn
from trumps.bridge.rubber import ChicagoSheet, RubberSheet, back_score_units, score_rubber
from trumps.core.errors import IllegalAction, OptionError, TrumpsError, WrongSeat

CORPUS = Path(__file__).resolve().parents[1] / "data" / "bridge" / "corpus"
DEAL = "N:AKQJ.AKQ.AK2.432 T98765.J.QJ.T987 2.T98765.T98.AKQ 43.432.76543.J65"
STRAINS = ("C", "D", "H", "S", "NT")


# --------------------------------------------------------------------------
# §4/§5 duplicate score: the whole grid against a table-driven oracle
# --------------------------------------------------------------------------
# §4.5 per-undertrick table: rows 1st, 2nd-3rd, 4th+; columns (vul, risk)
_UNDER = {
    (True, 0): (100, 100, 100),
    (True, 1): (200, 300, 300),
    (True, 2): (400, 600, 600),
    (False, 0): (50, 50, 50),
    (False, 1): (100, 200, 300),
    (False, 2): (200, 400, 600),
}


def _oracle(level: int, strain: str, risk: int, vul: bool, won: int) -> int:
    need = level + 6
    if won < need:
        steps = _UNDER[(vul, risk)]
        return -sum(steps[0 if k == 1 else 1 if k <= 3 else 2] for k in range(1, need - won + 1))
    # §4.1 trick values, odd trick by odd trick
    values = [
        20 if strain in "CD" else 40 if (strain == "NT" and k == 1) else 30 for k in range(1, level + 1)
    ]
    below = sum(values) * {0: 1, 1: 2, 2: 4}[risk]
    over = won - need
    per_over = {0: 20 if strain in "CD" else 30, 1: 200 if vul else 100, 2: 400 if vul else 200}[risk]
    total = below + over * per_over + {0: 0, 1: 50, 2: 100}[risk]
    total += (500 if vul else 300) if below >= 100 else 50
    total += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    return total


@pytest.mark.parametrize("level", range(1, 8))
def test_duplicate_score_full_grid(level: int) -> None:
    for strain, risk, vul, won in itertools.product(STRAINS, range(3), (False, True), range(14)):
        contract = f"{level}{strain}{('', 'X', 'XX')[risk]}"
        assert bridge.score(contract, vulnerable=vul, tricks=won) == _oracle(level, strain, risk, vul, won), (
            contract,
            vul,
            won,
        )


def test_score_spot_values_from_memory_of_published_tables() -> None:
    # values every scoring table prints
    cases = {
        ("1NT", False, 7): 90, ("2H", False, 8): 110, ("3NT", False, 9): 400, ("3NT", True, 9): 600,
        ("4S", True, 10): 620, ("5C", False, 11): 400, ("6NT", True, 12): 1440, ("7NT", True, 13): 2220,
        ("7NT", False, 13): 1520, ("1CX", False, 7): 140, ("1CXX", False, 7): 230, ("1NTXX", False, 7): 560,
        ("2DX", True, 10): 580, ("2DX", True, 11): 780, ("3NTX", True, 0): -2600, ("7NTXX", False, 0): -7000,
        ("4HX", True, 9): -200, ("6SX", True, 12): 1660, ("1HX", False, 13): 760,
    }  # fmt: skip
    for (contract, vul, won), want in cases.items():
        assert bridge.score(contract, vulnerable=vul, tricks=won) == want, contract


def test_score_rejects_bad_input_with_value_errors() -> None:
    for bad in ("8C", "0NT", "4", "4Z", "", "4HXXX"):
        with pytest.raises(ValueError):
            bridge.score(bad, vulnerable=False, tricks=9)
    for tricks in (-1, 14):
        with pytest.raises(ValueError):
            bridge.score("4H", vulnerable=False, tricks=tricks)


# --------------------------------------------------------------------------
# §7.4 IMPs: every multiple of 10 against the printed ranges
# --------------------------------------------------------------------------
_IMP_RANGES = [
    (0, 10), (20, 40), (50, 80), (90, 120), (130, 160), (170, 210), (220, 260), (270, 310),
    (320, 360), (370, 420), (430, 490), (500, 590), (600, 740), (750, 890), (900, 1090),
    (1100, 1290), (1300, 1490), (1500, 1740), (1750, 1990), (2000, 2240), (2250, 2490),
    (2500, 2990), (3000, 3490), (3500, 3990),
]  # fmt: skip


def _imp_oracle(diff: int) -> int:
    a = abs(diff)
    for n, (lo, hi) in enumerate(_IMP_RANGES):
        if lo <= a <= hi:
            return n if diff >= 0 else -n
    assert a >= 4000
    return 24 if diff > 0 else -24


def test_imp_scale_every_ten() -> None:
    for diff in range(-8000, 8001, 10):
        assert bridge.imps(diff) == _imp_oracle(diff), diff


def test_imp_boundaries_and_team_example() -> None:
    got = {d: bridge.imps(d) for d in (10, 20, 40, 50, 490, 500, 3990, 4000, 750, 600, -600)}
    assert got == {
        10: 0,
        20: 1,
        40: 1,
        50: 2,
        490: 10,
        500: 11,
        3990: 23,
        4000: 24,
        750: 13,
        600: 12,
        -600: -12,
    }
    assert team_imps(650, 620) == 1 and team_imps(-100, 620) == -12 and team_imps(420, -50) == 10


# --------------------------------------------------------------------------
# §7.3 matchpoints, percentages, Neuberg; cross-IMPs and Butler
# --------------------------------------------------------------------------
def _mp_oracle(scores: list[int]) -> list[int]:
    return [
        sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]


@pytest.mark.parametrize(
    "scores",
    [
        [450, 420, 420, 170, -50],
        [100, 100, 100, 100],
        [620],
        [-200, 1430, -200, 0, 0, 650, 620, 650],
        [50, -50],
    ],
)
def test_matchpoints_with_ties(scores: list[int]) -> None:
    n = len(scores)
    ns = matchpoints(scores)
    assert ns == _mp_oracle(scores)
    assert sum(ns) == n * (n - 1)  # §7.3: the NS total is n(n-1)
    assert ew_matchpoints(scores) == [2 * (n - 1) - m for m in ns]
    assert matchpoints(scores, "1_half") == [m / 2 for m in ns]
    # EW matchpoints are NS matchpoints of the negated scores
    assert ew_matchpoints(scores) == _mp_oracle([-s for s in scores])


def test_spec_matchpoint_example_and_percentages() -> None:
    assert matchpoints([450, 420, 420, 170, -50]) == [8, 5, 5, 2, 0]
    assert bridge.duplicate.percentages([8, 5, 5, 2, 0], 8) == [100.0, 62.5, 62.5, 25.0, 0.0]
    with pytest.raises(ValueError):
        matchpoints([1, 2], "3_1")


def test_neuberg_formula() -> None:
    # a board played 3 times in a 5-table movement: top 4 becomes (MP + 1) * 5/3 - 1
    assert neuberg(4, 3, 5) == pytest.approx(7 + 1 / 3)
    assert neuberg(0, 3, 5) == pytest.approx(2 / 3)
    assert neuberg(2, 3, 5) == pytest.approx(4)  # the average stays average
    assert neuberg(3, 4, 4) == 3


def test_cross_imps_against_every_other_result() -> None:
    scores = [620, 650, -100, 170]
    want = [sum(_imp_oracle(s - t) for j, t in enumerate(scores) if j != i) / 3 for i, s in enumerate(scores)]
    assert cross_imps(scores) == pytest.approx(want)
    assert sum(cross_imps(scores)) == pytest.approx(0)
    assert cross_imps([400]) == [0.0]


def test_butler_datum_rounds_half_away_from_zero() -> None:
    # mean 212.5 -> datum 210; mean 425 -> 430 (never banker's rounding, which gives 420)
    for scores, datum in (([420, 430, 0, 0], 210), ([840, 860, 0, 0], 430), ([-840, -860, 0, 0], -430)):
        assert butler_imps(scores, trim=False) == [_imp_oracle(s - datum) for s in scores], scores
    # five or more results: the top and bottom are left out of the datum
    assert butler_imps([2000, 420, 400, 450, -1000]) == [
        _imp_oracle(s - 420) for s in [2000, 420, 400, 450, -1000]
    ]


def test_session_summary_with_neuberg() -> None:
    rows = [
        BoardResult(1, "A", "B", 420), BoardResult(1, "C", "D", 450), BoardResult(1, "E", "F", -50),
        BoardResult(2, "A", "D", 100), BoardResult(2, "C", "B", 100),  # played twice of three
    ]  # fmt: skip
    out = {s.pair: s for s in session_summary(rows)}
    # board 1: NS 420/450/-50 -> 2, 4, 0 ; EW 2, 0, 4.  Board 2 (n=2, N=3): MP 1 each -> (1+1)*3/2-1 = 2
    assert out["A"].matchpoints == 2 + 2 and out["C"].matchpoints == 4 + 2 and out["E"].matchpoints == 0
    assert out["B"].matchpoints == 2 + 2 and out["D"].matchpoints == 0 + 2 and out["F"].matchpoints == 4
    assert out["A"].top == 8 and out["E"].top == 4
    assert out["C"].percentage == 75.0
    assert out["A"].cross_imps == pytest.approx((_imp_oracle(-30) + _imp_oracle(470)) / 2)
    plain = {s.pair: s for s in session_summary(rows, factor=False)}
    assert plain["A"].matchpoints == 3 and plain["A"].top == 6


# --------------------------------------------------------------------------
# §7.2 boards 1-36
# --------------------------------------------------------------------------
_BOARDS = {
    1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "Both"),
    5: ("N", "NS"), 6: ("E", "EW"), 7: ("S", "Both"), 8: ("W", "None"),
    9: ("N", "EW"), 10: ("E", "Both"), 11: ("S", "None"), 12: ("W", "NS"),
    13: ("N", "Both"), 14: ("E", "None"), 15: ("S", "NS"), 16: ("W", "EW"),
}  # fmt: skip


@pytest.mark.parametrize("board", range(1, 37))
def test_board_dealer_and_vulnerability(board: int) -> None:
    dealer, vul = _BOARDS[(board - 1) % 16 + 1]
    assert "NESW"[bridge.board_dealer(board)] == dealer
    assert bridge.board_vulnerability(board) == vul
    g = trumps.new_game("bridge", options={"scoring": "duplicate", "board": board}, seed=board)
    v = g.view(None)
    assert v["dealer"] == dealer and v["vulnerable"] == vul and v["to_act"] == dealer


def test_board_zero_is_rejected() -> None:
    with pytest.raises(ValueError):
        bridge.board_dealer(0)
    with pytest.raises(ValueError):
        bridge.board_vulnerability(-3)


# --------------------------------------------------------------------------
# §6 rubber bridge
# --------------------------------------------------------------------------
def test_rubber_worked_example_line_by_line() -> None:
    s = RubberSheet()
    s.record(0, "2H", 9)
    assert (s.below, s.above, s.below_current) == ([60, 0], [30, 0], [60, 0])
    s.record(1, "3NT", 9)  # They win game 1; our 60 no longer counts
    assert s.games == [0, 1] and s.below_current == [0, 0] and s.vulnerable(1) and not s.vulnerable(0)
    s.record(0, "4S", 10, (0, 100))  # dummy holds AKQJ of spades
    assert s.games == [1, 1] and s.above == [130, 0]
    e = s.record(1, "4H", 8)  # They (V) down 2 undoubled
    assert e.above == [200, 0]
    e = s.record(0, "3NT", 10)
    assert s.over and e.above == [530, 0] and e.below == [100, 0]
    assert s.totals() == [1140, 100] and s.back_score() == [10, -10, 10, -10] and s.winner() == 0
    with pytest.raises(ValueError):
        s.record(0, "1C", 7)


def test_rubber_partscores_wiped_for_both_sides() -> None:
    s = RubberSheet()
    s.record(0, "2S", 8)  # 60
    s.record(1, "2D", 8)  # 40
    s.record(1, "3C", 9)  # 40 + 60 = 100: game to They; our 60 stops counting
    assert s.games == [0, 1] and s.below_current == [0, 0]
    s.record(0, "1NT", 7)  # 40: a fresh partscore, not 100
    assert s.games == [0, 1] and s.below_current == [40, 0]
    s.record(0, "2C", 8)  # 40 + 40 = 80: still no game
    assert s.games == [0, 1]
    s.record(0, "1C", 7)  # 100: game
    assert s.games == [1, 1] and not s.over


def test_rubber_doubled_and_vulnerable_bonuses_above_the_line() -> None:
    s = RubberSheet()
    s.record(1, "1C", 7)
    s.record(1, "4S", 10)  # They vulnerable now
    e = s.record(1, "2SX", 10)  # doubled, 2 overtricks vulnerable = 400, insult 50; 120 below = game
    assert e.below == [0, 120] and e.above == [0, 400 + 50 + 700] and s.over
    assert e.items[-1] == (1, "rubber", 700)  # 2-0
    s = RubberSheet()
    e = s.record(0, "6NTXX", 13)  # NV: 190*4 = 760 below, 200 over, 100 insult, 500 slam
    assert e.below == [760, 0] and e.above == [800, 0]
    e = s.record(1, "3NTX", 5)  # They NV, down 4 doubled: 800 to us
    assert e.above == [800, 0]
    e = s.record(1, "4HXX", 6)  # still NV, down 4 redoubled: 1600
    assert e.above == [1600, 0]
    e = s.record(0, "7CX", 6)  # We vulnerable now, down 7 doubled vulnerable: 2000 to them
    assert e.above == [0, 2000]


def test_rubber_honours_any_hand_never_doubled() -> None:
    # four aces in one hand at NT: 150, even to a defender and when the contract fails
    s = RubberSheet()
    e = s.record(0, "3NTX", 8, (1, 150))
    assert e.above == [0, 100 + 150]
    hands = bridge.hands.parse_deal("N:A432.A32.A32.A32 KQJT.KQJ.KQJ.KQ4 9876.T98.T98.T98 5.7654.7654.J765")
    assert bridge.honors(hands, None) == (0, 150)
    from trumps.core.cards import Suit

    assert bridge.honors(hands, Suit.SPADES) == (1, 100)  # KQJT of spades in E
    assert bridge.honors(hands, Suit.HEARTS) == (-1, 0)  # split honours score nothing
    five = bridge.hands.parse_deal("N:AKQJT.A32.A32.A3 98765.KQJ.KQJ.K2 432.T98.T98.T987 .7654.7654.QJ654")
    assert bridge.honors(five, Suit.SPADES) == (0, 150)


def test_unfinished_rubber_and_back_score() -> None:
    s = score_rubber("NS 4S 10; EW 2C 8")  # NS a game, EW a partscore
    assert s.unfinished_bonus is not None and s.unfinished_bonus.above == [300, 100]
    assert s.totals() == [120 + 300, 40 + 100] and s.back_score() == [3, -3, 3, -3]
    s = score_rubber("NS 2S 8; EW 2C 8")  # both a partscore: nothing
    assert s.totals() == [60, 40]
    s = score_rubber("NS 4S 10; EW 4S 10; EW 1C 7")  # a game each, only EW a partscore
    assert s.unfinished_bonus is not None and s.unfinished_bonus.above == [0, 100]
    assert [back_score_units(m) for m in (950, 940, 1040, 1050, 49, 50, 0)] == [10, 9, 10, 11, 0, 1, 0]


def test_rubber_through_the_engine() -> None:
    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=11, dealer="N")
    for c in ["4S", "P", "P", "P"]:
        g.apply(c)
    assert g.deal.vulnerable == (False, False)
    while g.deal_number == 0:
        g.apply(g.legal_actions()[0])
    # the next dealer deals and vulnerability follows the games won
    assert g.seat_name(g.deal.dealer) == "E"
    assert g.deal.vulnerable == (g.rubber.games[0] >= 1, g.rubber.games[1] >= 1)  # type: ignore[union-attr]
    for c in ["P", "P", "P", "P"]:  # passed out: the next dealer deals a new hand
        g.apply(c)
    assert g.seat_name(g.deal.dealer) == "S" and g.results[-1]["passed_out"]


# --------------------------------------------------------------------------
# §8 Chicago
# --------------------------------------------------------------------------
@pytest.mark.parametrize("scheme", ["dealer_side", "non_dealer_side"])
def test_chicago_schedule_and_pass_out(scheme: str) -> None:
    g = trumps.new_game(
        "bridge", options={"scoring": "chicago", "chicago_vul_scheme": scheme}, seed=3, dealer="E"
    )
    for c in ["P", "P", "P", "P"]:  # passed out: same dealer, same vulnerability, does not count
        g.apply(c)
    seen = []
    while not g.is_over:
        d = g.deal
        if d.phase == "AUCTION" and not d.auction.calls:
            seen.append((g.seat_name(d.dealer), d.vulnerable))
            for c in ["1C", "P", "P", "P"]:
                g.apply(c)
        else:
            g.apply(g.legal_actions()[0])
    dealer_vul = scheme == "dealer_side"
    assert seen == [
        ("E", (False, False)),
        ("S", (dealer_vul, not dealer_vul)),
        ("W", (not dealer_vul, dealer_vul)),
        ("N", (True, True)),
    ]
    assert len(g.results) == 5 and g.results[0]["passed_out"]


def test_chicago_game_by_accumulation_and_fourth_deal_partscore() -> None:
    c = ChicagoSheet()
    e = c.record(0, "2S", 8, (False, False))  # 60 + no 50 partscore bonus
    assert e.above == [0, 0] and e.below == [60, 0]
    e = c.record(0, "2D", 8, (True, False))  # 60 + 40: game, bonus at this deal's vulnerability
    assert e.above == [500, 0] and e.game_won == 0
    e = c.record(1, "2H", 8, (False, True))  # 60 for They; not the fourth deal
    assert e.above == [0, 0]
    e = c.record(0, "1NT", 8, (True, True), (1, 150))  # 4th deal partscore +100, 30 overtrick, honours
    assert e.above == [130, 150] and e.below == [40, 0] and c.over
    assert c.totals() == [60 + 40 + 500 + 40 + 130, 60 + 150]


def test_chicago_fourth_deal_game_gets_no_partscore_bonus() -> None:
    c = ChicagoSheet()
    for _ in range(3):
        c.record(1, "1C", 7, (False, False))  # 20 each: 60 below
    e = c.record(1, "2C", 8, (True, True))  # 60 + 40 = 100: game, vulnerable
    assert e.above == [0, 500]


# --------------------------------------------------------------------------
# §2 auction edge cases through the public protocol
# --------------------------------------------------------------------------
def _new(**kw: Any) -> Any:
    kw.setdefault("options", {"scoring": "duplicate"})
    kw.setdefault("dealer", "N")
    kw.setdefault("deal", DEAL)
    return trumps.new_game("bridge", **kw)


def _legal(calls: list[str]) -> set[str]:
    g = _new()
    for c in calls:
        g.apply(c)
    return {str(a) for a in g.legal_actions()}


def test_double_and_redouble_legality() -> None:
    assert "X" not in _legal(["1H", "P"])  # partner's bid
    assert "X" in _legal(["1H", "P", "P"])  # LHO's bid after partner passed
    assert "X" not in _legal(["1H", "X", "P"])  # already doubled
    assert "XX" not in _legal(["1H", "X", "P"])  # own side's double
    assert "XX" in _legal(["1H", "X"])  # opponent doubled our bid
    assert "XX" in _legal(["1H", "X", "P", "P"])  # after an intervening pass
    assert not {"X", "XX"} & _legal(["1H", "X", "XX"])
    assert not {"X", "XX"} & _legal(["1H", "X", "XX", "P"])
    assert "X" in _legal(["1H", "X", "XX", "1S"])  # a new bid may be doubled again
    assert "1H" not in _legal(["1H", "X", "XX"]) and {"1S", "1NT", "2C"} <= _legal(["1H", "X", "XX"])
    assert "X" not in _legal([]) and "XX" not in _legal([])
    assert "3S" not in _legal(["3NT"]) and "4C" in _legal(["3NT"])


@pytest.mark.parametrize(
    "calls,contract,declarer",
    [
        (["P", "P", "P", "P"], None, None),
        (["1H", "P", "2H", "P", "4H", "P", "P", "P"], "4H", "N"),  # N named hearts first
        (["1C", "P", "1H", "P", "2H", "P", "4H", "P", "P", "P"], "4H", "S"),
        (["1H", "X", "XX", "1S", "P", "P", "P"], "1S", "W"),
        (["1H", "X", "P", "P", "P"], "1HX", "N"),
        (["1H", "X", "XX", "P", "P", "P"], "1HXX", "N"),
        (["P", "1S", "P", "2S", "X", "P", "P", "P"], "2SX", "E"),
        (["P", "1D", "1H", "P", "P", "2H", "P", "3H", "P", "P", "P"], "3H", "E"),  # E's cue bid came first
        (["1NT", "2H", "P", "P", "X", "P", "P", "XX", "P", "P", "P"], "2HXX", "E"),
        (["P", "P", "P", "1C", "P", "P", "P"], "1C", "W"),
    ],
)
def test_contract_and_declarer(calls: list[str], contract: str | None, declarer: str | None) -> None:
    g = _new()
    for c in calls:
        g.apply(c)
    if contract is None:
        assert g.is_over and g.results[0]["passed_out"] and g.scores == [0, 0]
        return
    assert str(g.deal.contract) == contract and g.seat_name(g.deal.declarer) == declarer
    assert g.to_act == "NESW"[("NESW".index(declarer) + 1) % 4]


def test_errors_are_value_errors_and_change_nothing() -> None:
    g = _new()
    g.apply("1H")
    before = g.to_json()
    for action, seat in [
        ("X", "S"),
        ("1C", None),
        ("XX", None),
        ("8C", None),
        ("", None),
        ("AS", None),
        ("2C", "N"),
    ]:
        with pytest.raises(ValueError):
            g.apply(action, seat)
        assert g.to_json() == before
    with pytest.raises(WrongSeat):
        g.apply("P", "W")
    with pytest.raises(IllegalAction):
        g.apply("1C")


# --------------------------------------------------------------------------
# §3 play: dummy exposure, declarer plays dummy, views
# --------------------------------------------------------------------------
def _after_auction(calls: list[str], **kw: Any) -> Any:
    g = _new(**kw)
    for c in calls:
        g.apply(c)
    return g


def test_dummy_hidden_until_the_opening_lead_then_public() -> None:
    g = _after_auction(["P", "1NT", "P", "3NT", "P", "P", "P"])  # E declares, W is dummy, S leads
    assert g.seat_name(g.deal.declarer) == "E" and g.to_act == "S"
    for seat in ("N", "E", "S", None):
        assert g.view(seat)["hands"]["W"] is None  # not even declarer sees dummy before the lead
    assert g.view("W")["hands"]["W"] is not None and g.view("W")["hands"]["E"] is None
    g.apply("2S", "S")
    for seat in ("N", "E", "S", "W", None):
        v = g.view(seat)
        assert v["hands"]["W"] is not None and v["exposed"] == ["W"]
        hidden = {"N", "E", "S"} - ({seat} if seat else set())
        assert all(v["hands"][h] is None for h in hidden)


def test_declarer_plays_dummy_and_dummy_never_acts() -> None:
    g = _after_auction(["P", "1NT", "P", "3NT", "P", "P", "P"])
    g.apply("2S", "S")
    assert g.to_act == "E" and g.view("E")["hand_to_play"] == "W"
    assert g.view("E")["legal"] and g.view("W")["legal"] == []
    with pytest.raises(WrongSeat):
        g.apply(g.legal_actions()[0], "W")
    assert {str(c) for c in g.legal_actions()} == {str(c) for c in g.deal.hands[3] if c.suit.code == "S"}
    seen_dummy_turn = 0
    while not g.is_over:
        if g.deal.hand_to_play == 3:
            assert g.to_act == "E"
            seen_dummy_turn += 1
        assert g.to_act_index != 3
        g.apply(g.legal_actions()[0])
    assert seen_dummy_turn == 13
    assert g.results[0]["tricks"] == g.deal.won[1]  # E-W declared


def test_follow_suit_and_trick_winner() -> None:
    g = _after_auction(["1S", "P", "P", "P"])  # N declares spades, E leads, S dummy
    g.apply("JH", "E")  # E's only heart
    legal = {str(c) for c in g.legal_actions()}
    assert legal == {"TH", "9H", "8H", "7H", "6H", "5H"}  # dummy (S) must follow
    g.apply("5H")
    g.apply("4H", "W")
    assert {str(c) for c in g.legal_actions()} == {"AH", "KH", "QH"}
    g.apply("AH", "N")
    assert g.deal.tricks[-1][2] == 0 and g.to_act == "N"
    g.apply("2D", "N")  # N leads a diamond
    g.apply("QD", "E")
    g.apply("8D")  # S (dummy) follows, declared by N
    g.apply("3D", "W")
    assert g.deal.tricks[-1][2] == 1  # E's queen wins
    g.apply("TS", "E")  # E leads a spade: trumps
    assert {str(c) for c in g.legal_actions()} == {"2S"}


# --------------------------------------------------------------------------
# §3.1 claims
# --------------------------------------------------------------------------
def test_claims_flow() -> None:
    opts = {"scoring": "duplicate", "claims": "consent"}
    g = _after_auction(["1NT", "P", "3NT", "P", "P", "P"], options=opts)  # N declares
    assert "CLAIM13" in {str(a) for a in g.legal_actions()}
    g.apply("JH", "E")
    g.apply("CLAIM12", "N")  # on dummy's turn, declarer claims
    assert g.phase == "CLAIM" and g.to_act == "E"
    with pytest.raises(WrongSeat):
        g.apply("ACCEPT", "S")  # dummy takes no part
    g.apply("ACCEPT", "E")
    assert g.to_act == "W"
    other = g.clone()
    g.apply("REJECT", "W")  # play continues, the claimer may not claim again this trick
    assert g.phase == "PLAY" and g.to_act == "N" and g.view("N")["hand_to_play"] == "S"
    assert not any(str(a).startswith("CLAIM") for a in g.legal_actions())
    other.apply("ACCEPT", "W")
    assert other.is_over and other.results[0]["tricks"] == 12 and other.scores == [490, -490]
    again = type(other).from_json(other.to_json())
    assert again.scores == [490, -490]

    g = _after_auction(["7NT", "P", "P", "P"], options=opts)
    g.apply("CLAIM1", "E")  # a defender claims: declarer answers, then the claimer's partner
    assert g.to_act == "N"
    g.apply("ACCEPT")
    assert g.to_act == "W"
    g.apply("ACCEPT")
    assert g.results[0]["tricks"] == 12 and g.scores == [-50, 50]

    off = _after_auction(["1NT", "P", "P", "P"])
    with pytest.raises(IllegalAction):
        off.apply("CLAIM7")


# --------------------------------------------------------------------------
# options
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"bogus": 1},
        {"scoring": "contract"},
        {"scoring": "rubber", "board": 3},
        {"scoring": "chicago", "board": 1},
        {"scoring": "rubber", "vulnerability": "Both"},
        {"scoring": "chicago", "vulnerability": "NS"},
        {"scoring": "duplicate", "board": 2, "vulnerability": "EW"},  # board 2 is NS
        {"scoring": "rubber", "chicago_vul_scheme": "non_dealer_side"},
        {"scoring": "rubber", "mp_scale": "1_half"},
        {"scoring": "chicago", "neuberg": False},
        {"claims": "sometimes"},
        {"board": -1},
        {"vulnerability": "All"},
    ],
)
def test_bad_options_are_rejected(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options=options, seed=1)


def test_good_option_combinations() -> None:
    for options in (
        {"scoring": "duplicate", "board": 2, "vulnerability": "NS"},
        {"scoring": "duplicate_imp", "vulnerability": "Both"},
        {"scoring": "chicago", "chicago_vul_scheme": "non_dealer_side"},
        {"scoring": "duplicate_mp", "mp_scale": "1_half", "neuberg": False},
    ):
        trumps.new_game("bridge", options=options, seed=1)
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options={"scoring": "duplicate", "board": 2}, seed=1, dealer="N")
    with pytest.raises(OptionError):
        trumps.new_game("bridge", options={"scoring": "duplicate"}, seed=1, declarer="N")


# --------------------------------------------------------------------------
# PBN 2.1 edge cases
# --------------------------------------------------------------------------
def test_pbn_hash_inherits_nearest_real_value_of_any_tag() -> None:
    text = (
        '[Round "R1"]\n[Table "3"]\n[Board "1"]\n\n'  # game 1
        '[Board "2"]\n\n'  # game 2: no Round at all
        '[Round "#"]\n[Table "#"]\n[Site "#"]\n'  # game 3: nearest previous real value, or ""
    )
    recs = read_pbn(text)
    assert recs[2].tags["Round"] == "R1" and recs[2].tags["Table"] == "3" and recs[2].tags["Site"] == ""


def test_pbn_double_hash_holds_for_later_games_until_redefined() -> None:
    text = '[Date "##2024.01.01"]\n[Board "1"]\n\n[Board "2"]\n\n[Date "2024.01.02"]\n\n[Board "4"]\n'
    recs = read_pbn(text)
    assert [r.tags["Date"] for r in recs] == ["2024.01.01", "2024.01.01", "2024.01.02", "2024.01.02"]
    with pytest.raises(PbnError, match="not allowed"):
        read_pbn('[Contract "##4S"]\n')


def test_pbn_repeated_tag_keeps_the_first() -> None:
    (r,) = read_pbn('[Board "5"]\n[Board "6"]\n')
    assert r.board == 5


def test_pbn_score_and_result_forms() -> None:
    head = f'[Deal "{DEAL}"]\n[Vulnerable "None"]\n[Contract "4H"]\n[Declarer "E"]\n'
    forms = {
        '[Result "10"][Score "420"]': (10, -420),  # bare numbers: declarer's
        '[Result "EW 10"][Score "EW 420"]': (10, -420),
        '[Result "NS 3"][Score "NS -420"]': (10, -420),
        '[Result "NS 3 EW 10"][Score "NS -420 EW 420"]': (10, -420),
        '[Result "EW 10 NS 3"][Score "EW 420 NS -420"]': (10, -420),
        '[Result "^9"]': (9, None),
    }
    for tags, (result, score) in forms.items():
        (r,) = read_pbn(head + tags + "\n")
        assert (r.result, r.score) == (result, score), tags
        if score is not None:
            assert r.computed_score() == score
    for bad in ('[Result "NS"]', '[Result "14"]', '[Score "NS 1 NS 2"]', '[Score "lots"]'):
        with pytest.raises(PbnError):
            read_pbn(head + bad + "\n")


def test_pbn_auction_table_starting_left_of_the_dealer() -> None:
    text = (
        f'[Dealer "E"]\n[Deal "{DEAL}"]\n[Contract "3NT"]\n[Declarer "W"]\n'
        '[Auction "N"]\n- 1C Pass 1NT\nPass 3NT Pass Pass\nPass\n'
    )
    (r,) = read_pbn(text)
    assert r.auction_first == 1 and str(r.contract) == "3NT" and r.declarer == 3
    assert [str(c) for c in r.auction or []][:2] == ["1C", "P"]
    g = r.to_game()
    assert g.seat_name(g.deal.declarer) == "W"


def test_pbn_annotations_suffixes_nags_notes_and_sections() -> None:
    text = (
        f'[Dealer "N"]\n[Deal "{DEAL}"]\n[Contract "1NT"]\n[Declarer "N"]\n[Result "7"]\n'
        '[Auction "N"]\n1NT !! =1= $25 Pass Pass Pass\n'
        '[Note "1:15-17"]\n'
        '[Play "E"]\nHJ =1= H5\n? H2 $7 HA\n'
        "DQ ^S D8 D3 D2\n+ - - -\n"
        '[Note "1:count"]\n'
    )
    (r,) = read_pbn(text)
    assert r.alerts == {0: "15-17"} and r.notes == {1: "15-17"} and r.play_notes == {1: "count"}
    assert r.call_nags == {0: [3, 25]}  # '!!' is $3 (very good call), not an alert
    assert [str(c) for c in r.play] == ["JH", "5H", "2H", "AH", "2D", "QD", "8D", "3D"]
    assert not r.play_complete and r.defects == []


def test_pbn_incomplete_play_stops_at_the_first_unplayed_card() -> None:
    text = (
        f'[Dealer "N"]\n[Deal "{DEAL}"]\n[Contract "1S"]\n[Declarer "N"]\n'
        '[Play "E"]\nHJ H5 H4 HA\n- - - D2\n*\n'
    )
    (r,) = read_pbn(text)
    assert [str(c) for c in r.play] == ["JH", "5H", "4H", "AH", "2D"]


def test_pbn_comments_do_not_nest_and_do_not_end_games() -> None:
    text = (
        "% PBN 2.1\n"
        '[Event "a;b {c}"] ; rest {not a brace\n'
        "{ one { two ; three\n\n still the comment }\n"
        '[Board "1"]\n'
    )
    (r,) = read_pbn(text)
    assert r.tags["Event"] == "a;b {c}" and r.board == 1
    assert r.comments[0].strip().startswith("rest {not a brace") and "still the comment" in r.comments[1]


def test_pbn_export_format() -> None:
    g = _after_auction(
        ["1NT", "P", "3NT", "P", "P", "P"], options={"scoring": "duplicate", "vulnerability": "Both"}
    )
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    text = g.to_pbn()
    lines = text.splitlines()
    assert '[Vulnerable "All"]' in lines  # export writes None/All
    play = lines.index('[Play "E"]')
    assert "*" not in lines[play:]  # 13 tricks end the section by themselves
    tags = [ln.split()[0][1:] for ln in lines if ln.startswith("[")]
    assert tags[:15] == [
        "Event", "Site", "Date", "Board", "West", "North", "East", "South",
        "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
    ]  # fmt: skip
    supplemental = tags[15 : tags.index("Auction")]
    assert supplemental == sorted(supplemental) and "Score" in supplemental
    (back,) = read_pbn(text)
    assert back.vulnerable == "Both" and back.score == g.scores[0]

    unfinished = _new()
    unfinished.apply("1H")
    text = unfinished.to_pbn()
    assert "1H +" in text.splitlines()  # the auction is to be continued
    assert read_pbn(text)[0].auction is not None


def test_pbn_claimed_play_ends_with_star() -> None:
    g = _after_auction(["1NT", "P", "P", "P"], options={"scoring": "duplicate", "claims": "consent"})
    g.apply("JH", "E")
    g.apply("CLAIM10", "N")
    g.apply("ACCEPT")
    g.apply("ACCEPT")
    lines = g.to_pbn().splitlines()
    at = lines.index('[Play "E"]')
    assert lines[at + 1] == "HJ - - -" and lines[at + 2] == "*"
    (r,) = read_pbn("\n".join(lines))
    assert r.result == 10 and [str(c) for c in r.play] == ["JH"]


# --------------------------------------------------------------------------
# LIN
# --------------------------------------------------------------------------
def test_lin_export_uses_bbo_spellings_and_round_trips() -> None:
    lin = (
        "pn|s1,w1,n1,e1|st||md|3S2HT98765DT98CAKQ,S43H432D76543CJ65,SAKQJHAKQDAK2C432,|rh||"
        "ah|Board 7|sv|b|mb|1N!|an|15-17|mb|p|mb|3N|mb|d|mb|r|mb|p|mb|p|mb|p|pg||pc|HJ|pc|H5|"
        "pc|H2|pc|HA|pg||mc|11|"
    )
    (r,) = read_lin(lin)
    assert (r.board, r.vulnerable, r.dealer, r.declarer, str(r.contract)) == (7, "Both", 0, 0, "3NTXX")
    assert r.alerts == {0: "15-17"} and r.result == 11 and r.tags["North"] == "n1"
    out = write_lin([r])
    assert "mb|1N!|an|15-17|" in out and "mb|3N|" in out and "mb|d|mb|r|" in out and "mc|11|" in out
    (again,) = read_lin(out)
    assert (
        again.hands,
        again.auction,
        again.alerts,
        again.play,
        again.result,
        again.board,
        again.vulnerable,
    ) == (
        r.hands,
        r.auction,
        r.alerts,
        r.play,
        r.result,
        r.board,
        r.vulnerable,
    )
    assert r.computed_score() == bridge.score("3NTXX", vulnerable=True, tricks=11)


def test_lin_corpus_round_trip_through_lin_and_pbn() -> None:
    recs = read_lin((CORPUS / "endplay_example1_bbo.lin").read_text(encoding="utf-8"))
    key = [(r.hands, r.dealer, r.vulnerable, r.board, r.auction, r.alerts, r.play, r.result) for r in recs]
    again = read_lin(write_lin(recs))
    assert [
        (r.hands, r.dealer, r.vulnerable, r.board, r.auction, r.alerts, r.play, r.result) for r in again
    ] == key
    via_pbn = read_pbn(write_pbn(recs))
    assert [
        (r.hands, r.dealer, r.vulnerable, r.board, r.auction, r.alerts, r.play, r.result) for r in via_pbn
    ] == key


def test_lin_errors_are_typed() -> None:
    with pytest.raises(TrumpsError):
        read_lin("md|9SA,,,|")
    recs = read_lin("md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|mb|1C|mb|1C|", strict=False)
    assert recs[0].defects and str(recs[0].auction[0]) == "1C"  # type: ignore[index]


def test_pbn_tag_pair_may_span_lines() -> None:
    (r,) = read_pbn('[Event\n  "x y"\n]\n[Board "2"] [Dealer\n"E"]\n')
    assert r.tags == {"Event": "x y", "Board": "2", "Dealer": "E"}
    (r,) = read_pbn('[Broken\n[Event "x"]\n', strict=False)
    assert r.tags == {"Event": "x"} and "malformed tag pair '[Broken'" in r.defects[0]


def test_pbn_contract_and_declarer_from_the_auction_alone() -> None:
    text = f'[Dealer "S"]\n[Deal "{DEAL}"]\n[Vulnerable "None"]\n[Result "9"]\n[Score "400"]\n'
    (r,) = read_pbn(text + '[Auction "S"]\n1NT Pass 3NT AP\n')
    assert str(r.contract) == "3NT" and r.declarer == 2 and r.score == 400 == r.computed_score()
    (r,) = read_pbn(f'[Dealer "S"]\n[Deal "{DEAL}"]\n[Auction "S"]\nAP\n')
    assert r.passed_out and r.computed_score() == 0


def test_pbn_incomplete_auction_with_contract_tags_replays_from_the_contract() -> None:
    text = (
        f'[Dealer "N"]\n[Deal "{DEAL}"]\n[Vulnerable "NS"]\n[Contract "3NT"]\n[Declarer "N"]\n'
        '[Auction "N"]\n1NT Pass 3NT *\n[Play "E"]\nHJ H5 H2 HA\n*\n'
    )
    (r,) = read_pbn(text)
    g = r.to_game()
    assert g.phase == "PLAY" and str(g.deal.contract) == "3NT" and len(g.deal.tricks) == 1


def test_rubber_export_writes_score_rubber_not_a_duplicate_score() -> None:
    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=5, dealer="N", deal=DEAL)
    for c in ["4S", "P", "P", "P"]:
        g.apply(c)
    while g.deal_number == 0:
        g.apply(g.legal_actions()[0])
    sheet = g.results[0]["sheet"]
    text = g.to_pbn()
    want = f"NS {sheet['above'][0]}/{sheet['below'][0]} EW {sheet['above'][1]}/{sheet['below'][1]}"
    assert f'[ScoreRubber "{want}"]' in text and "[Score " not in text
    assert '[Scoring "Rubber"]' in text


def test_verified_claims_use_the_double_dummy_solver() -> None:
    from trumps.bridge import dd

    if not dd.available():
        pytest.skip("endplay not installed")
    opts = {"scoring": "duplicate", "claims": "verify"}
    g = _after_auction(["3NT", "P", "P", "P"], options=opts)
    g.apply("CLAIM1", "E")  # EW cannot make a trick double dummy: refused, play goes on
    assert g.phase == "PLAY" and g.to_act == "E"
    assert not any(str(a).startswith("CLAIM") for a in g.legal_actions())
    g.apply("JH", "E")
    assert dd.max_tricks_from(g.deal, 0) == 13
    g.apply("CLAIM13", "N")
    assert g.is_over and g.results[0]["claim"]["how"] == "verified" and g.scores == [520, -520]


def test_pbn_play_columns_may_start_at_any_seat_in_import_format() -> None:
    text = (
        f'[Dealer "N"]\n[Deal "{DEAL}"]\n[Contract "1S"]\n[Declarer "N"]\n'
        '[Play "N"]\nHA HJ H5 H4\nD2 DQ D8 D3\n*\n'  # fixed columns N E S W; E leads
    )
    (r,) = read_pbn(text)
    assert [str(c) for c in r.play] == ["JH", "5H", "4H", "AH", "2D", "QD", "8D", "3D"] and r.defects == []


def test_pbn_deal_ranks_in_any_order_and_any_first_seat() -> None:
    shuffled = "S:2.T98765.T98.AKQ 43.432.76543.J65 JQKA.QKA.2KA.342 T98765.J.QJ.T987"
    assert bridge.hands.parse_deal(shuffled) == bridge.hands.parse_deal(DEAL)
    (r,) = read_pbn(f'[Dealer "E"]\n[Deal "{shuffled}"]\n')
    assert write_pbn([r]).count(
        '[Deal "E:T98765.J.QJ.T987 2.T98765.T98.AKQ 43.432.76543.J65 AKQJ.AKQ.AK2.432"]'
    )


def test_score_sheets_reject_impossible_deals_without_changing() -> None:
    s = RubberSheet()
    s.record(0, "2S", 8)
    before = (list(s.below), list(s.above), list(s.below_current), len(s.entries))
    for args in [
        (0, "4S", 14),
        (0, "4S", -1),
        (2, "4S", 10),
        (0, "3NT", 9, (0, 100)),  # no 100 honours at no trumps
        (0, "4S", 10, (0, 120)),
        (0, "4S", 10, (-1, 100)),
    ]:
        with pytest.raises(ValueError):
            s.record(*args)  # type: ignore[arg-type]
        assert (s.below, s.above, s.below_current, len(s.entries)) == before
    c = ChicagoSheet()
    with pytest.raises(ValueError):
        c.record(0, "4S", 14, (False, False))
    for _ in range(4):
        c.record(0, "1C", 7, (False, False))
    with pytest.raises(ValueError):
        c.record(0, "1C", 7, (True, True))
    with pytest.raises(ValueError):
        score_rubber("NS 3NT 9 NS100")


def test_a_deal_mapping_names_its_dealer_and_vulnerability_which_must_agree() -> None:
    hands = {
        "N": "AKQJ.AKQ.AK2.432",
        "E": "T98765.J.QJ.T987",
        "S": "2.T98765.T98.AKQ",
        "W": "43.432.76543.J65",
    }
    deal = {"dealer": "E", "vulnerable": "Both", "hands": hands}
    g = trumps.new_game(
        "bridge", options={"scoring": "duplicate", "vulnerability": "Both"}, seed=1, deal=deal
    )
    assert g.seat_name(g.deal.dealer) == "E" and g.deal.vulnerable == (True, True)
    for kw in (
        {"options": {"scoring": "duplicate"}, "deal": deal},  # vulnerability disagrees
        {"options": {"scoring": "duplicate", "vulnerability": "Both"}, "deal": deal, "dealer": "N"},
        {"options": {"scoring": "duplicate", "board": 1}, "deal": {"dealer": "E", "hands": hands}},
    ):
        with pytest.raises(OptionError):
            trumps.new_game("bridge", seed=1, **kw)


def test_pbn_left_out_deal_carries_over_only_to_the_same_board() -> None:
    text = (
        f'[Event "E"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n\n'
        '[Room "Closed"]\n\n'  # the other table of board 1: same deal
        '[Board "2"]\n'  # a new board without its deal: nothing to carry over
    )
    a, b, c = read_pbn(text)
    assert b.hands == a.hands and b.board == 1 and b.dealer == 0 and b.tags["Event"] == "E"
    assert c.board == 2 and c.hands is None and c.dealer is None and c.tags["Event"] == "E"


def test_pbn_table_rows_keep_quoted_text_with_semicolons_and_braces() -> None:
    text = (
        '[Board "1"]\n[TotalScoreTable "Rank\\\\2R;Names\\\\30L;Score"]\n'
        ' 1 "Smith; J. {x}" 62.5 ; a real comment\n 2 "Doe" 50\n'
    )
    (r,) = read_pbn(text)
    assert r.table("TotalScoreTable") == (
        ["Rank", "Names", "Score"],
        [["1", "Smith; J. {x}", "62.5"], ["2", "Doe", "50"]],
    )
    assert r.comments == [" a real comment"]
    (again,) = read_pbn(write_pbn([r]))
    assert again.table("TotalScoreTable") == r.table("TotalScoreTable")


def test_pbn_result_mismatch_is_a_defect_unless_marked_with_a_caret() -> None:
    g = _after_auction(["1NT", "P", "P", "P"])
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    text = g.to_pbn()
    real = g.results[0]["tricks"]
    wrong = (real + 1) % 14
    tampered = text.replace(f'[Result "{real}"]', f'[Result "{wrong}"]')
    with pytest.raises(PbnError, match="complete play gives"):
        read_pbn(tampered)
    (r,) = read_pbn(text.replace(f'[Result "{real}"]', f'[Result "^{wrong}"]'))
    assert r.result == wrong and r.replay() == real and r.play_complete


def test_pbn_text_with_bom_and_crlf() -> None:
    (r,) = read_pbn('\ufeff[Board "3"]\r\n[Dealer "W"]\r\n')
    assert r.board == 3 and r.dealer == 3 and r.defects == []


def test_default_action_is_a_pass_a_low_card_or_a_rejection() -> None:
    g = _new(options={"scoring": "duplicate", "claims": "consent"})
    assert str(g.default_action()) == "P"
    for c in ["1S", "P", "P", "P"]:
        g.apply(c)
    assert str(g.default_action()) == "7C"  # E's lowest non-trump, not the first (highest) card listed
    g.apply("TS", "E")
    assert str(g.default_action()) == "2S"  # dummy must follow; declarer's timer plays dummy's lowest
    g.apply("CLAIM0")
    assert g.phase == "CLAIM" and str(g.default_action()) == "REJECT"
