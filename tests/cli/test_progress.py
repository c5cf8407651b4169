"""The long commands (``arena``, ``selfplay``) draw a progress bar on a
terminal by default: on stderr, only when stderr is a terminal (a pseudo
terminal here), never on stdout, never into a redirected stderr, and
``--no-progress`` turns it off."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys

import pytest

from trumps.cli.main import main
from trumps.cli.progress import Bar

ARENA = ["arena", "500", "--a", "random", "--b", "random", "--deals", "6", "--json"]
SELFPLAY = ["selfplay", "500", "--games", "3", "--bots", "random", "--seed", "1"]


def _with_terminal_stderr(argv: list[str]) -> tuple[int, str, bytes]:
    """Run ``trumps ARGV`` with stderr on a pseudo terminal and stdout on a
    pipe: (exit status, stdout, everything the terminal received)."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "100", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "trumps", *argv], stdout=subprocess.PIPE, stderr=follower, env=env
    )
    os.close(follower)
    seen = b""
    while True:
        ready, _w, _x = select.select([leader], [], [], 120)
        if not ready:
            proc.kill()
            pytest.fail("no output from the command in 120 s")
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the command closed its end
            break
        if not chunk:
            break
        seen += chunk
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait(timeout=120)
    os.close(leader)
    return code, out, seen


@pytest.mark.parametrize("argv", [ARENA, SELFPLAY], ids=["arena", "selfplay"])
def test_a_bar_on_a_terminal_and_stdout_untouched(argv: list[str]) -> None:
    code, out, terminal = _with_terminal_stderr(argv)
    assert code == 0, terminal
    assert b"\x1b[" in terminal  # the bar draws itself with control sequences
    assert b"/6" in terminal or b"/3" in terminal  # done / total
    assert "\x1b" not in out
    if "--json" in argv:
        assert json.loads(out)["deals"] == 6  # stdout is the JSON alone


@pytest.mark.parametrize("argv", [ARENA, SELFPLAY], ids=["arena", "selfplay"])
def test_no_progress_turns_it_off(argv: list[str]) -> None:
    code, _out, terminal = _with_terminal_stderr([*argv, "--no-progress"])
    assert code == 0
    assert terminal == b""


@pytest.mark.parametrize("argv", [ARENA, SELFPLAY], ids=["arena", "selfplay"])
def test_no_bar_when_stderr_is_not_a_terminal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "" and "\x1b" not in out


def test_running_lines_go_above_the_bar_or_plainly() -> None:
    stream = io.StringIO()  # not a terminal: no bar, plain lines
    with Bar(3, "deals", stream=stream) as bar:
        assert not bar.enabled
        bar.advance()
        bar.line("  1 deals: points +1.00 [+0.00, +2.00]")
    assert stream.getvalue() == "  1 deals: points +1.00 [+0.00, +2.00]\n"
    assert not Bar(0, "deals", stream=stream).enabled
