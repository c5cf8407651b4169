"""PBN and LIN files wherever a bridge deal is taken: ``trumps dd FILE``,
``trumps solve --pbn FILE``, ``trumps score bridge --pbn FILE``; ``--board
N`` picks a board of a file of several (tests/data/cli: three_boards.pbn,
two_boards.lin, one_board.pbn, two_rooms.pbn)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trumps.bridge.hands import format_deal
from trumps.bridge.pbn import read_pbn_file
from trumps.cli.boards import is_deal_text, read_board
from trumps.cli.common import UsageError
from trumps.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "cli"
PBN3 = str(DATA / "three_boards.pbn")
LIN2 = str(DATA / "two_boards.lin")
ONE = str(DATA / "one_board.pbn")


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    data: dict[str, object] = json.loads(out)
    return data


def _deal_of(path: str, board: int) -> str:
    rec = next(r for r in read_pbn_file(path) if r.board == board)
    assert rec.hands is not None
    return format_deal(rec.hands)


@pytest.mark.parametrize("board", [1, 2, 3])
def test_dd_of_a_board_is_the_dd_of_its_deal(board: int, capsys: pytest.CaptureFixture[str]) -> None:
    deal = _deal_of(PBN3, board)
    from_file = _json(capsys, "dd", PBN3, "--board", str(board), "--json")
    from_text = _json(capsys, "dd", deal, "--json")
    assert from_file["deal"] == deal and from_file["board"] == board
    assert from_file["tricks"] == from_text["tricks"]


def test_dd_par_takes_the_files_vulnerability_and_dealer(capsys: pytest.CaptureFixture[str]) -> None:
    # board 2: dealer E, vulnerable NS (the file's tags)
    got = _json(capsys, "dd", PBN3, "--board", "2", "--par", "--json")
    par = got["par"]
    assert isinstance(par, dict) and par["vulnerable"] == "NS" and par["dealer"] == "E"
    # the command line still wins over the file
    got = _json(capsys, "dd", PBN3, "--board", "2", "--par", "--vul", "EW", "--dealer", "w", "--json")
    par = got["par"]
    assert isinstance(par, dict) and par["vulnerable"] == "EW" and par["dealer"] == "W"


def test_a_file_of_one_board_needs_no_board_number(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, "dd", ONE, "--json")
    assert got["deal"] == _deal_of(ONE, 1)
    # the same board twice with the same deal (two rooms) is one deal for dd
    assert _json(capsys, "dd", str(DATA / "two_rooms.pbn"), "--json")["deal"] == got["deal"]


def test_lin_boards(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, "dd", LIN2, "--board", "1", "--json")
    assert got["deal"] == _deal_of(PBN3, 1)  # the LIN file holds the same deals
    assert main(["score", "bridge", "--lin", LIN2, "--board", "2"]) == 0
    assert capsys.readouterr().out == "620\n"  # 4H by S, vulnerable, 10 tricks


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        (1, {"contract": "3NT", "vulnerable": False, "tricks": 9, "result": 0, "score": 400}),
        (2, {"contract": "4H", "vulnerable": False, "tricks": 10, "result": 0, "score": 420}),
        (3, {"contract": "2S", "vulnerable": False, "tricks": 7, "result": -1, "score": -50}),
    ],
)
def test_score_bridge_of_a_board(
    board: int, expected: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _json(capsys, "score", "bridge", "--pbn", PBN3, "--board", str(board), "--json") == expected


def test_score_bridge_of_a_board_with_other_tricks(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(capsys, "score", "bridge", "--pbn", PBN3, "--board", "1", "--tricks", "10", "--json")
    assert got["score"] == 430 and got["result"] == 1


def test_solve_a_board_of_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    """``trumps solve --pbn FILE``: bridge by default, the board's contract
    and declarer (3NT by S: W leads), the same values as with --deal."""
    deal = _deal_of(ONE, 1)
    from_file = _json(capsys, "solve", "--pbn", ONE, "--json")
    from_text = _json(
        capsys, "solve", "bridge", "--deal", deal, "--contract", "3NT", "--declarer", "S", "--json"
    )
    from_file.pop("nodes"), from_text.pop("nodes")  # the search's own count may differ run to run
    assert from_file == from_text
    assert from_file["contract"] == "3NT" and from_file["to_play"] == "W"


def test_solve_a_board_with_another_contract(capsys: pytest.CaptureFixture[str]) -> None:
    got = _json(
        capsys, "solve", "--lin", LIN2, "--board", "1", "--contract", "1S", "--declarer", "N", "--json"
    )
    assert got["contract"] == "1S" and got["to_play"] == "E"


def test_reading_helpers() -> None:
    assert is_deal_text("N:AKQ.. ... ... ...") and is_deal_text(" w: ...")
    assert not is_deal_text("boards.pbn") and not is_deal_text("N.pbn")
    assert read_board(PBN3, 3).board == 3
    with pytest.raises(UsageError, match=r"holds 3 boards \(1-3\)"):
        read_board(PBN3, None)


def test_unnumbered_boards_are_picked_by_their_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (DATA / "three_boards.pbn").read_text(encoding="utf-8")
    plain = "\n".join(line for line in text.splitlines() if not line.startswith("[Board "))
    path = tmp_path / "unnumbered.pbn"
    path.write_text(plain, encoding="utf-8")
    got = _json(capsys, "dd", str(path), "--board", "2", "--json")
    assert got["deal"] == _deal_of(PBN3, 2)


def test_a_latin1_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (DATA / "one_board.pbn").read_text(encoding="utf-8").replace('[Site "-"]', '[Site "Montréal"]')
    path = tmp_path / "latin1.pbn"
    path.write_bytes(text.encode("latin-1"))
    assert _json(capsys, "dd", str(path), "--json")["deal"] == _deal_of(ONE, 1)
