"""PBN 2.1 and LIN reading and writing, and the real-world corpus
(tests/data/bridge/corpus, see its README for the expected figures)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from trumps.bridge.calls import Contract
from trumps.bridge.lin import read_lin, write_lin
from trumps.bridge.pbn import PbnError, PbnRecord, read_pbn, read_pbn_file, records_from_game, write_pbn

CORPUS = Path(__file__).resolve().parents[1] / "data" / "bridge" / "corpus"


@functools.cache
def _corpus(name: str) -> list[PbnRecord]:
    """Each corpus file read once (lenient) for all the tests below."""
    return read_pbn_file(CORPUS / name, strict=False)


DEAL = "N:AKQJ.AKQ.AK2.432 T98765.J.QJ.T987 2.T98765.T98.AKQ 43.432.76543.J65"

SMALL = f"""% PBN 2.1
[Event "Club night"] ; a comment
[Board "7"]
[Dealer "S"]
[Vulnerable "All"]
[Deal "{DEAL}"]
[Declarer "N"]
[Contract "3NT"]
[Result "9"]
[Auction "S"]
1C =1= Pass 1S! {{a comment
that spans lines}} Pass
2C Pass 3NT AP
[Note "1:16+"]
[Play "E"]
HJ - - -
*
[Score "NS 600"]

[Declarer "N"]
[Contract "3NTX"]
[Result "8"]
[Auction "S"]
1C Pass 1S Pass 2C Pass 3NT X AP
"""


def test_small_file_with_inheritance_comments_and_notes() -> None:
    recs = read_pbn(SMALL)
    a, b = recs
    assert a.board == 7 and a.dealer == 2 and a.vulnerable == "Both"
    assert str(a.contract) == "3NT" and a.declarer == 0 and a.result == 9
    assert [str(c) for c in a.auction or []] == ["1C", "P", "1S", "P", "2C", "P", "3NT", "P", "P", "P"]
    assert a.alerts == {0: "16+"}  # '1S!' is PBN's "good call" suffix ($1), not an alert
    assert a.call_nags == {2: [1]}
    assert [str(c) for c in a.play] == ["JH"] and not a.play_complete
    assert a.score == 600 and a.computed_score() == 600
    assert "a comment" in a.comments[0]
    # record 2 inherits Board, Dealer, Vulnerable, Deal and Event
    assert b.hands == a.hands and b.board == 7 and b.tags["Event"] == "Club night"
    assert str(b.contract) == "3NTX" and b.computed_score() == -200


def test_unknown_values() -> None:
    recs = read_pbn('[Board "?"]\n[Deal "?"]\n[Contract ""]\n[Result "?"]\n[Vulnerable "-"]\n')
    r = recs[0]
    assert r.board is None and r.hands is None and r.contract is None and r.vulnerable == "None"


def test_hash_means_previous_value() -> None:
    recs = read_pbn(f'[Board "3"]\n[Deal "{DEAL}"]\n\n[Board "#"]\n')
    assert recs[1].board == 3 and recs[1].hands == recs[0].hands
    # PBN 4.8 forbids '#' for Deal (and Dealer, Vulnerable, ...): a defect, still read leniently
    text = f'[Board "3"]\n[Deal "{DEAL}"]\n\n[Deal "#"]\n'
    with pytest.raises(PbnError, match="not allowed for Deal"):
        read_pbn(text)
    assert read_pbn(text, strict=False)[1].hands == recs[0].hands


def test_strict_mode_lists_each_defect_with_record_number() -> None:
    bad = (
        f'[Deal "{DEAL}"]\n[Contract "4H"]\n[Declarer "N"]\n[Result "15"]\n\n'
        '[Deal "N:AKQ.. ... ... ..."]\n[Dealer "Q"]\n'
    )
    with pytest.raises(PbnError) as err:
        read_pbn(bad)
    defects = err.value.defects
    assert any(d.startswith("record 1:") and "Result" in d for d in defects)
    assert any(d.startswith("record 2:") and "Deal" in d for d in defects)
    assert any(d.startswith("record 2:") and "Dealer" in d for d in defects)
    lenient = read_pbn(bad, strict=False)
    assert lenient[0].contract is not None and lenient[0].result is None and lenient[1].hands is None


def test_illegal_auction_and_revoke_are_defects() -> None:
    text = (
        f'[Dealer "N"]\n[Deal "{DEAL}"]\n[Contract "4H"]\n[Declarer "N"]\n'
        '[Auction "N"]\n1H 1C\n[Play "E"]\nDQ D8 D3 DA\nHJ D9 D4 DK\n*\n'
    )
    recs = read_pbn(text, strict=False)
    text_defects = " ".join(recs[0].defects)
    assert "1C by E is not legal" in text_defects
    assert "revoke" in text_defects
    assert [str(c) for c in recs[0].play] == ["QD", "8D", "3D", "AD", "KD"]


def test_write_and_read_back() -> None:
    recs = read_pbn(SMALL)
    again = read_pbn(write_pbn(recs))
    for a, b in zip(recs, again, strict=True):
        assert (a.hands, a.auction, a.alerts, a.contract, a.declarer, a.result, a.play, a.score) == (
            b.hands,
            b.auction,
            b.alerts,
            b.contract,
            b.declarer,
            b.result,
            b.play,
            b.score,
        )


def test_record_from_game_round_trip() -> None:
    import random

    import trumps

    g = trumps.new_game("bridge", options={"scoring": "duplicate", "board": 4}, seed=9)
    rng = random.Random(2)
    g.apply("1NT")
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    (rec,) = records_from_game(g)
    assert read_pbn(g.to_pbn())[0].play == rec.play  # type: ignore[attr-defined]
    assert read_lin(g.to_lin())[0].play == rec.play  # type: ignore[attr-defined]
    back = read_pbn(write_pbn([rec]))[0]
    assert back.play_complete and back.replay() == back.result == g.results[0]["tricks"]
    assert back.computed_score() == g.scores[0] and back.board == 4 and back.vulnerable == "Both"
    lin = read_lin(write_lin([rec]))[0]
    assert lin.play == rec.play and lin.result == rec.result and lin.contract == rec.contract


def test_lin_basics() -> None:
    text = "pn|S1,W1,N1,E1|md|1S2TH47JAD3459QC7T,S69JKH5D6KC35689J,S78AH39TQKD2TCQKA,|sv|b|mb|1N!|an|15-17|mb|p|mb|3N|mb|p|mb|p|mb|p|mc|10|"
    r = read_lin(text)[0]
    assert r.dealer == 2 and r.vulnerable == "Both" and r.tags["North"] == "N1"
    assert str(r.contract) == "3NT" and r.declarer == 2 and r.result == 10
    assert r.alerts == {0: "15-17"}
    assert r.computed_score() == 630


LIN_1NT = "md|3SJH39AD34QAC279KA,S567QAH2KD6TC458T,S9TKH78JQD57JKC3Q,|mb|1N|mb|p|mb|p|mb|p|"


@pytest.mark.parametrize(
    ("tail", "defect"),
    [
        ("pc||", "pc|| is not a card"),  # was an IndexError
        ("pc| |", "pc| | is not a card"),
        ("pc|S|", "pc|S| is not a card"),
        ("pc|S2|pc||pc|S9|", "pc|| is not a card"),
        (f"ah|Board {'9' * 5000}|", "is not a board number"),  # int() refuses 5,000 digits
        ("mc|" + "9" * 5000 + "|", "is not a number of tricks"),
        ("mc|99|", "mc|99| is not a number of tricks"),
        ("mc|-3|", "mc|-3| is not a number of tricks"),
    ],
)
def test_a_bad_lin_token_is_a_defect_strict_or_not(tail: str, defect: str) -> None:
    """A bad token is a defect like any other: strict mode raises
    :class:`PbnError` naming it, lenient mode keeps it on the record."""
    with pytest.raises(PbnError, match="record 1: ") as info:
        read_lin(LIN_1NT + tail)
    assert any(defect in d for d in info.value.defects), info.value.defects
    (rec,) = read_lin(LIN_1NT + tail, strict=False)
    assert any(defect in d for d in rec.defects), rec.defects
    assert str(rec.contract) == "1NT" and rec.result is None
    assert len(rec.play) <= 1  # the play stops at the bad card (S2 is a legal lead of East)


@pytest.mark.parametrize(
    "argv", [["dd", "{lin}"], ["score", "bridge", "--lin", "{lin}"], ["solve", "bridge", "--pbn", "{lin}"]]
)
def test_the_command_line_names_the_bad_token(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from trumps.cli.main import main

    lin = tmp_path / "pc_empty.lin"
    lin.write_text(LIN_1NT + "pc||\n", encoding="utf-8")
    assert main([a.replace("{lin}", str(lin)) for a in argv]) == 2  # was 70, an internal error
    out, err = capsys.readouterr()
    assert out == "" and err == f"trumps: error: {lin}, board 1: pc|| is not a card\n"


def test_a_board_number_too_long_to_read_is_a_defect() -> None:
    (rec,) = read_lin("qx|o" + "9" * 5000 + "|" + LIN_1NT, strict=False)
    assert rec.board is None and any("is not a board number" in d for d in rec.defects)
    (rec,) = read_lin(LIN_1NT + "mc|7|", strict=False)
    assert rec.result == 7 and not rec.defects


# ----- the corpus ---------------------------------------------------------------
_PBN_FILES = {
    "endplay_example1_eyc1998.pbn": 2,
    "endplay_example2_realbridge2021.pbn": 299,
    "endplay_example3_wc2012_rpbridge.pbn": 7632,
    "endplay_example4_comments.pbn": 1,
    "endplay_sample.pbn": 2,
    "ben_CTC050620-BEN3_messy.pbn": 20,
}


@pytest.mark.parametrize("name,count", sorted(_PBN_FILES.items()))
def test_every_corpus_file_loads(name: str, count: int) -> None:
    recs = _corpus(name)
    assert len(recs) == count
    assert all(r.hands is not None for r in recs)  # the deal is carried over where omitted
    again = read_pbn(write_pbn(recs), strict=False)
    assert [(r.hands, r.contract, r.declarer, r.result, r.play) for r in again] == [
        (r.hands, r.contract, r.declarer, r.result, r.play) for r in recs
    ]


@pytest.mark.parametrize(
    "name", ["endplay_example1_eyc1998.pbn", "endplay_example2_realbridge2021.pbn", "endplay_sample.pbn"]
)
def test_clean_files_pass_strict_mode(name: str) -> None:
    read_pbn_file(CORPUS / name, strict=True)


def test_realbridge_scores_and_replays() -> None:
    recs = read_pbn_file(CORPUS / "endplay_example2_realbridge2021.pbn")
    scored = [r for r in recs if r.score is not None]
    assert len(scored) == 279
    assert all(r.computed_score() == r.score for r in scored)
    complete = [r for r in recs if r.play_complete]
    assert len(complete) == 64
    assert all(r.replay() == r.result for r in complete)
    for r in complete:  # the whole engine: auction, play, duplicate score
        g = r.to_game()
        assert g.is_over and g.results[0]["tricks"] == r.result
        if r.score is not None:
            assert g.scores[0] == r.score
    assert all(r.dd_tricks is not None for r in recs)
    assert sum(len(r.alerts) for r in recs) > 100


def test_eyc_and_sample_scores() -> None:
    for name, n in (("endplay_example1_eyc1998.pbn", 2), ("endplay_sample.pbn", 1)):
        scored = [r for r in read_pbn_file(CORPUS / name) if r.score is not None and not r.passed_out]
        assert len(scored) == n and all(r.computed_score() == r.score for r in scored)


def test_messy_ben_file_defects_reported_in_strict_mode() -> None:
    with pytest.raises(PbnError) as err:
        read_pbn_file(CORPUS / "ben_CTC050620-BEN3_messy.pbn")
    assert len(err.value.defects) == 20
    assert all("'%' escape line" in d for d in err.value.defects)
    recs = read_pbn_file(CORPUS / "ben_CTC050620-BEN3_messy.pbn", strict=False)
    assert [r.board for r in recs] == list(range(1, 21))
    assert all(r.contract is not None or r.passed_out for r in recs)


def test_wc2012_source_errors_are_reported() -> None:
    recs = _corpus("endplay_example3_wc2012_rpbridge.pbn")
    defects = [d for r in recs for d in r.defects]  # what strict mode would raise
    assert defects and all(d.startswith(f"record {d.split()[1]}") for d in defects)
    complete = [r for r in recs if r.play_complete]
    assert len(complete) == 138  # README: 138 complete plays replay legally
    assert all(r.replay() == r.result for r in complete)
    bad_play = [r for r in recs if any("not held" in d or "revoke" in d for d in r.defects)]
    assert bad_play and all(r.number >= 1 for r in bad_play)
    assert sum(1 for r in recs if "Deal" not in r.tags or r.hands is None) == 0


def test_comments_file() -> None:
    r = read_pbn_file(CORPUS / "endplay_example4_comments.pbn", strict=False)[0]
    assert r.tags["VisitTeam"] == "Sweden" and len(r.comments) >= 3
    assert str(r.contract) == "5C" and r.declarer == 1


def test_lin_corpus() -> None:
    recs = read_lin((CORPUS / "endplay_example1_bbo.lin").read_text(encoding="utf-8"))
    assert len(recs) == 8 and [r.board for r in recs] == list(range(1, 9))
    assert all(r.contract is not None and r.result is not None for r in recs)
    claimed = [r for r in recs if not r.play_complete]
    assert {r.board for r in claimed} == {3, 7} and all("Claim" in r.tags for r in claimed)
    assert recs[0].alerts and recs[0].vulnerable == "None" and recs[1].vulnerable == "NS"
    again = read_lin(write_lin(recs))
    assert [(r.hands, r.auction, r.play, r.result) for r in again] == [
        (r.hands, r.auction, r.play, r.result) for r in recs
    ]
    assert isinstance(recs[0], PbnRecord) and recs[0].contract == Contract.parse("5H")


def test_rubber_game_exports_every_deal() -> None:
    import random

    import trumps

    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=4, dealer="N")
    rng = random.Random(4)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    recs = read_pbn(g.to_pbn())  # type: ignore[attr-defined]
    assert len(recs) == len(g.results)
    for rec, res in zip(recs, g.results, strict=True):
        assert rec.passed_out == res["passed_out"]
        if not rec.passed_out:
            assert rec.replay() == res["tricks"] == rec.result


def test_tables_and_hex_double_dummy_in_sample() -> None:
    r = _corpus("endplay_sample.pbn")[0]
    columns, rows = r.table("OptimumResultTable")
    assert columns == ["Declarer", "Denomination", "Result"] and rows[0] == ["N", "NT", "7"]
    assert r.optimum[0] == (0, 4, 7) and len(r.optimum) == 10
    assert r.dd_tricks is not None
    # "746b5747b5...": N makes 7 in NT, 4 in spades, 6 in hearts, 11 in diamonds, 5 in clubs
    assert [r.dd_tricks[s][0] for s in (4, 3, 2, 1, 0)] == [7, 4, 6, 11, 5]
    assert r.vulnerable == "None" and str(r.contract) == "5SX" and r.computed_score() == r.score == 500
