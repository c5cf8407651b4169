"""Double-dummy adapter against the DDS test files and the RealBridge
``DoubleDummyTricks`` tags (needs endplay)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from trumps.bridge import dd

CORPUS = Path(__file__).resolve().parents[1] / "data" / "bridge" / "corpus"
pytestmark = pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed")


def _dds_list(name: str) -> list[tuple[int, str, str, list[int], int]]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    deals = re.findall(r'^PBN (\d) (\d) \d \d "([^"]+)"', text, re.M)
    tables = re.findall(r"^TABLE ([\d ]+)", text, re.M)
    par2 = re.findall(r'^PAR2 "(-?\d+)"', text, re.M)
    vuls = ["None", "Both", "NS", "EW"]
    return [
        (int(d), vuls[int(v)], deal, [int(x) for x in t.split()], int(p))
        for (d, v, deal), t, p in zip(deals, tables, par2, strict=True)
    ]


def _check_list(rows: list[tuple[int, str, str, list[int], int]]) -> None:
    for dealer, vul, deal, want, par_score in rows:
        table = dd.dd_table(deal)
        # DDS TABLE order: strains S H D C NT, hands N E S W
        got = [table.tricks[s][h] for s in (3, 2, 1, 0, 4) for h in range(4)]
        assert got == want, deal
        assert dd.par(table, vulnerable=vul, dealer=dealer).score == par_score, deal


def test_dds_list10_tables_and_par() -> None:
    rows = _dds_list("dds_list10.txt")
    assert len(rows) == 10
    _check_list(rows)


@pytest.mark.slow  # about 30 s
def test_dds_list100_tables_and_par() -> None:
    rows = _dds_list("dds_list100.txt")
    assert len(rows) == 100
    _check_list(rows)


def test_dds_sol10_gib_format() -> None:
    lines = [x for x in (CORPUS / "dds_sol10.txt").read_text().splitlines() if ":" in x]
    assert len(lines) == 10
    for line in lines:
        hands, digits = line.split(":")
        w, n, e, s = hands.split()
        table = dd.dd_table(f"W:{w} {n} {e} {s}")
        for k, strain in enumerate((4, 3, 2, 1, 0)):  # NT S H D C
            for j, seat in enumerate((1, 0, 3, 2)):  # declarers E N W S
                ns_tricks = int(digits[4 * k + j], 16)
                want = ns_tricks if seat % 2 == 0 else 13 - ns_tricks
                assert table.tricks[strain][seat] == want


def test_realbridge_double_dummy_tags() -> None:
    from trumps.bridge.pbn import read_pbn_file

    recs = read_pbn_file(CORPUS / "endplay_example2_realbridge2021.pbn")
    tables: dict[str, tuple[tuple[int, ...], ...]] = {}
    for r in recs:  # 299 records, 10 distinct boards
        assert r.hands is not None and r.dd_tricks is not None
        key = r.tags["Deal"]
        if key not in tables:
            tables[key] = dd.dd_table(r.hands).tricks
        assert tables[key] == r.dd_tricks
    assert len(tables) == 10


def test_lead_analysis_and_position_solver() -> None:
    import trumps

    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. -"
    leads = dd.lead_analysis(deal, "N", "NT")
    assert set(leads.values()) == {0} and len(leads) == 13
    g = trumps.new_game("bridge", options={"scoring": "duplicate"}, deal=deal, contract="7S", declarer="N")
    assert dd.max_tricks_from(g.deal, 0) == 13
    g.apply("AH")
    assert dd.max_tricks_from(g.deal, 0) == 13 and dd.max_tricks_from(g.deal, 1) == 0
    assert dd.par(deal, vulnerable="None", dealer="N").score > 0
    assert "NT" in dd.dd_table(deal).to_dict() and dd.dd_table(deal).get("S", "N") == 13


def test_batch_tables_match_single() -> None:
    deals = [r[2] for r in _dds_list("dds_list10.txt")[:3]]
    assert [t.tricks for t in dd.dd_tables(deals)] == [dd.dd_table(d).tricks for d in deals]
