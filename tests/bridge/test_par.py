"""The par of a deal from its double-dummy table (``trumps.bridge.par``,
what ``trumps.bridge.dd.par`` answers without DDS) against DDS's own par:
the expected answers in ``tests/data/bridge/par_dds.json`` were made by DDS
(30 random deals, every vulnerability and dealer), so the check runs where
endplay is not installed; where it is, fresh deals are compared too."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import trumps
from trumps.bridge import dd
from trumps.bridge.hands import format_deal
from trumps.bridge.par import par_of_table
from trumps.core.errors import TrumpsError

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "bridge" / "par_dds.json").read_text())
CASES = DATA["cases"]


def test_the_data_has_sacrifices_slams_and_passed_outs_or_part_scores() -> None:
    scores = {p["score"] for c in CASES for p in c["par"].values()}
    assert len(CASES) == 30 and len(CASES[0]["par"]) == 16
    assert any(abs(s) >= 980 for s in scores) and any(0 < abs(s) < 400 for s in scores)
    assert any(c[0].endswith("X") for case in CASES for p in case["par"].values() for c in p["contracts"])


@pytest.mark.parametrize("i", range(len(CASES)))
def test_par_of_table_equals_dds(i: int) -> None:
    case = CASES[i]
    for key, want in case["par"].items():
        vul, dealer = key.split()
        score, contracts = par_of_table(case["tricks"], vulnerable=vul, dealer="NESW".index(dealer))
        assert (score, sorted(list(c) for c in contracts)) == (want["score"], want["contracts"]), key


def test_dd_par_without_dds_uses_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES[0]
    monkeypatch.setattr(dd, "available", lambda: False)
    table = dd.DDTable(tuple(tuple(r) for r in case["tricks"]))
    got = dd.par(table, vulnerable="Both", dealer="W")
    want = case["par"]["Both W"]
    assert got.score == want["score"] and sorted(list(c) for c in got.contracts) == want["contracts"]


def test_bad_input_is_a_value_error() -> None:
    table = CASES[0]["tricks"]
    with pytest.raises(TrumpsError, match="vulnerability"):
        par_of_table(table, vulnerable="all", dealer=0)
    with pytest.raises(TrumpsError, match="5 strains of 4 seats"):
        par_of_table(table[:4], vulnerable="None", dealer=0)
    with pytest.raises(ValueError, match="0 to 13"):
        par_of_table([[14, 0, 0, 0]] * 5, vulnerable="None", dealer=0)


@pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed: pip install '.[dds]'")
def test_par_of_table_equals_dds_on_fresh_deals() -> None:
    rng = random.Random("par-fresh")
    deals = [
        format_deal(trumps.new_game("bridge", seed=rng.randrange(1 << 30)).deal.hands) for _ in range(12)
    ]
    for table in dd.dd_tables(deals):
        for vul in ("None", "NS", "EW", "Both"):
            for dealer in range(4):
                want = dd.par(table, vulnerable=vul, dealer=dealer)
                score, contracts = par_of_table(table.tricks, vulnerable=vul, dealer=dealer)
                assert (score, sorted(contracts)) == (want.score, sorted(want.contracts))
