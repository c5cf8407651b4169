"""Every error of the command line is one ``trumps: error: ...`` line on
stderr with exit status 2 and nothing on stdout: bad arguments, the
engine's refusals, missing files, directories, NUL bytes, huge numbers.
The cases are data: tests/data/cli/bad_command_lines.json."""

from __future__ import annotations

import json
import os
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


def _broken_games() -> int:
    raise RuntimeError("the table fell over\nwith a second line")


def test_a_bug_is_one_internal_error_line_with_status_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TRUMPS_DEBUG", raising=False)
    monkeypatch.setattr("trumps.cli.main._games", _broken_games)
    code = main(["games"])
    out, err = capsys.readouterr()
    assert code == 70 and out == ""
    assert err == (
        "trumps: internal error: RuntimeError: the table fell over with a second line"
        " (please report it; TRUMPS_DEBUG=1 shows the traceback)\n"
    )


def test_a_bug_of_a_nested_tool_is_the_same_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(argv: list[str]) -> int:
        raise KeyError("seat")

    monkeypatch.delenv("TRUMPS_DEBUG", raising=False)
    monkeypatch.setattr("trumps.cli.solve._run", broken)
    code = main(["solve", "bridge"])
    out, err = capsys.readouterr()
    assert code == 70 and out == ""
    assert err.startswith("trumps: internal error: KeyError: 'seat' (please report it;")
    assert len(err.splitlines()) == 1


def test_trumps_debug_keeps_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUMPS_DEBUG", "1")
    monkeypatch.setattr("trumps.cli.main._games", _broken_games)
    with pytest.raises(RuntimeError, match="the table fell over"):
        main(["games"])


def test_an_interrupt_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted() -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("trumps.cli.main._games", interrupted)
    code = main(["games"])
    out, err = capsys.readouterr()
    assert code == 130 and out == ""
    assert "Traceback" not in err and len(err.splitlines()) <= 1


def test_a_real_process_reports_a_bug_in_one_line() -> None:
    """From a real process: the line, status 70, no traceback; with
    ``TRUMPS_DEBUG=1`` the traceback."""
    script = (
        "import sys, trumps.cli.main as m\n"
        "def broken(): raise RuntimeError('boom')\n"
        "m._games = broken\n"
        "sys.exit(m.main(['games']))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TRUMPS_DEBUG"}
    r = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert r.returncode == 70 and r.stdout == ""
    assert (
        r.stderr
        == "trumps: internal error: RuntimeError: boom (please report it; TRUMPS_DEBUG=1 shows the traceback)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "TRUMPS_DEBUG": "1"},
        check=False,
    )
    assert r.returncode == 1 and "Traceback" in r.stderr and "RuntimeError: boom" in r.stderr
