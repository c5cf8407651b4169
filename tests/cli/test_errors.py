"""Every error of the command line is one ``trumps: error: ...`` line on
stderr with exit status 2 and nothing on stdout: bad arguments, the
engine's refusals, missing files, directories, NUL bytes, huge numbers.
The cases are data: tests/data/cli/bad_command_lines.json."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trumps.cli.common import fail
from trumps.cli.main import main

DATA = Path(__file__).resolve().parents[1] / "data" / "cli"
CASES: list[dict[str, Any]] = json.loads((DATA / "bad_command_lines.json").read_text(encoding="utf-8"))[
    "cases"
]


def _argv(case: dict[str, Any], tmp: Path) -> list[str]:
    return [a.replace("{data}", str(DATA)).replace("{tmp}", str(tmp)) for a in case["argv"]]


def _one_error_line(code: int, out: str, err: str, says: str) -> None:
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and err.endswith("\n"), err
    assert lines[0].startswith("trumps: error: ")
    assert says in lines[0], lines[0]
    assert "Traceback" not in err and "../shared" not in err


@pytest.mark.parametrize("case", CASES, ids=[" ".join(c["argv"])[:70] for c in CASES])
def test_each_bad_command_line_is_one_error_line(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(_argv(case, tmp_path))
    out, err = capsys.readouterr()
    _one_error_line(code, out, err, case["says"])


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "bridge", "4H"],
        ["score", "coinche", "100H"],
        ["dd", "N:bad"],
        ["dd", "{data}/three_boards.pbn"],
        ["serve", "--port", "99999"],
    ],
)
def test_a_real_process_says_it_the_same_way(argv: list[str], tmp_path: Path) -> None:
    """The prefixes ``trumps score bridge:`` / ``trumps dd:`` are gone: the
    calculators speak like every other command, from a real process too."""
    r = subprocess.run(
        [sys.executable, "-m", "trumps", *_argv({"argv": argv}, tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    _one_error_line(r.returncode, r.stdout, r.stderr, "trumps: error: ")


def test_an_error_line_never_carries_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert fail("bad\x00name\x1b[31m\nsecond line") == 2
    err = capsys.readouterr().err
    assert err == "trumps: error: bad\\x00name\\x1b[31m second line\n"


def test_a_file_that_is_not_utf8_is_read_not_crashed_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "noise.pbn"
    path.write_bytes(bytes(range(256)) * 4)
    code = main(["dd", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("trumps: error: ")


def test_an_unreadable_path_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path through a file (``board.pbn/x``) fails in the operating
    system, even for root: said in one line with the system's reason."""
    inside = DATA / "one_board.pbn" / "x.pbn"
    code = main(["dd", str(inside)])
    out, err = capsys.readouterr()
    _one_error_line(code, out, err, "cannot read")
    assert "Not a directory" in err


def test_admin_without_the_room_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)  # as in an installation without [room]
    code = main(["admin", "broken"])
    out, err = capsys.readouterr()
    _one_error_line(code, out, err, "pip install 'trumps[room]'")
