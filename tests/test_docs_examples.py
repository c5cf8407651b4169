"""The examples in README.md and docs/**/*.md run as written, so a broken
example fails the suite instead of a reader.

What runs (docs/testing.md, "Examples in the documentation"):

- every fenced ```python block, in order, one namespace per file (a later
  block may use what an earlier one defined), in a scratch directory;
- in fenced ```console blocks, every ``$ trumps ...`` command, and the lines
  after it (up to the next ``$``) are its expected output: each must match a
  line of the real output, in order, ``...`` standing for any text and runs
  of spaces for any spacing;
- in fenced ```sh / ```bash / ```shell blocks, every line that is a
  ``trumps ...`` command (an environment prefix such as ``LANG=de_DE.UTF-8``
  allowed); it must exit 0.  Other commands (``pip``, ``python scripts/...``)
  are shown, not run.

A block preceded by ``<!-- no-test: why -->`` is not run (``trumps serve``,
an interactive ``trumps play``, a code fragment that needs a live room).  A
fence with no language that holds a ``trumps`` command fails: it must say
whether it is an example (``console``/``sh``) or not (``text``).

Commands run this checkout's code (``python -m trumps`` with ``src`` first
on ``PYTHONPATH``) with no terminal, so they must not wait for input.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELLS = frozenset({"sh", "bash", "shell"})
COMMAND_TIMEOUT = 90.0  # s: a doc command should take seconds; this only stops a hang
FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})(?P<lang>[\w+-]*)\s*$")
NO_TEST = re.compile(r"^\s*<!--\s*no-test:\s*(?P<why>\S.*?)\s*-->\s*$")
TRUMPS_COMMAND = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*trumps(?:\s|$)")


@dataclass(frozen=True)
class Block:
    """One fenced code block of a Markdown file."""

    path: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    no_test: str | None  # the reason given in a preceding <!-- no-test: ... -->

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def blocks_of(path: Path) -> list[Block]:
    """Every fenced block of ``path``, with its language and no-test reason."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks = len(m["indent"]), m["ticks"]
        end = i + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        if end == len(lines):
            raise AssertionError(f"{path.name}:{i + 1}: a code fence is never closed")
        body = "\n".join(x[indent:] if not x[:indent].strip() else x.lstrip() for x in lines[i + 1 : end])
        before = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        why = NO_TEST.match(before)
        found.append(Block(path, i + 1, m["lang"].lower(), body + "\n", why["why"] if why else None))
        i = end + 1
    return found


ALL_BLOCKS = [b for doc in DOCS for b in blocks_of(doc)]


@dataclass(frozen=True)
class Command:
    """A shell command of a block and the output the doc shows for it."""

    text: str
    expected: tuple[str, ...]


def commands_of(block: Block) -> list[Command]:
    """The ``trumps`` commands of a console or shell block, with the output
    a console block shows after each (continuation lines ending in ``\\``
    are joined)."""
    raw = block.text.splitlines()
    joined: list[str] = []
    for line in raw:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1] + " " + line.strip()
        else:
            joined.append(line)
    out: list[Command] = []
    if block.lang == "console":
        current: str | None = None
        expected: list[str] = []
        for line in [*joined, "$ "]:
            if line.startswith("$ ") or line == "$":
                if current is not None and TRUMPS_COMMAND.match(current):
                    out.append(Command(current, tuple(x for x in expected if x.strip())))
                current, expected = line[2:].strip(), []
            elif current is not None:
                expected.append(line)
        return out
    return [Command(line.strip(), ()) for line in joined if TRUMPS_COMMAND.match(line.strip())]


def _pattern(expected: str) -> re.Pattern[str]:
    """An expected output line as a pattern: ``...`` is any text, a run of
    spaces any spacing."""
    parts = [r"\s+".join(map(re.escape, piece.split())) for piece in expected.strip().split("...")]
    return re.compile(".*".join(parts))


def missing_lines(expected: tuple[str, ...], output: str) -> list[str]:
    """The expected lines not found, in order, among the output's lines."""
    actual = [line.strip() for line in output.splitlines() if line.strip()]
    at, missing = 0, []
    for want in expected:
        pattern = _pattern(want)
        for k in range(at, len(actual)):
            if pattern.fullmatch(actual[k]):
                at = k + 1
                break
        else:
            missing.append(want)
    return missing


def run_command(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` under bash, ``trumps`` being this checkout's CLI."""
    shim = f'trumps() {{ {shlex.quote(sys.executable)} -m trumps "$@"; }}\n'
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100", "LANG": "C.UTF-8", "LANGUAGE": ""})
    env.pop("LC_ALL", None)
    return subprocess.run(
        ["bash", "-c", shim + command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False,
    )  # fmt: skip


SHELL_BLOCKS = [
    b for b in ALL_BLOCKS if b.lang in SHELLS | {"console"} and b.no_test is None and commands_of(b)
]
PYTHON_DOCS = sorted({b.path for b in ALL_BLOCKS if b.lang == "python" and b.no_test is None})


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=[b.name for b in SHELL_BLOCKS])
def test_shell_example_runs(block: Block, tmp_path: Path) -> None:
    for command in commands_of(block):
        if not (tmp_path / "tests").exists():  # examples name the repository's sample files
            (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
        r = run_command(command.text, tmp_path)
        where = f"{block.name}: `{command.text}`"
        # a doc showing the CLI's error line documents a refusal: exit 2, said on stderr
        refused = any(line.strip().startswith("trumps: error:") for line in command.expected)
        wanted = 2 if refused else 0
        assert r.returncode == wanted, f"{where} exited {r.returncode}\n{r.stdout}{r.stderr}"
        missing = missing_lines(command.expected, r.stdout + r.stderr if refused else r.stdout)
        assert not missing, (
            f"{where}: the doc shows lines the run did not print: {missing}\n--- got:\n{r.stdout}"
        )


@pytest.mark.parametrize("doc", PYTHON_DOCS, ids=[str(p.relative_to(ROOT)) for p in PYTHON_DOCS])
def test_python_examples_run(doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__doc_example__"}
    for block in blocks_of(doc):
        if block.lang == "python" and block.no_test is None:
            exec(compile(block.text, block.name, "exec"), namespace)


def test_every_example_says_whether_it_runs() -> None:
    """A fence with no language holding a ``trumps`` command or Python
    prompt hides an example from this test: it must be tagged."""
    hidden = [
        b.name
        for b in ALL_BLOCKS
        if not b.lang
        and b.no_test is None
        and any(
            TRUMPS_COMMAND.match(x.strip().removeprefix("$ ")) or x.startswith(">>>")
            for x in b.text.splitlines()
        )
    ]
    assert not hidden, f"tag these fences console/sh (run) or text (not an example): {hidden}"


def test_examples_are_found() -> None:
    """The runner sees the README's examples (a parser that found nothing
    would pass every test above)."""
    readme = [b for b in ALL_BLOCKS if b.path.name == "README.md"]
    assert any(b.lang == "python" for b in readme)
    assert any(b.lang in SHELLS | {"console"} and commands_of(b) for b in readme)


def test_the_output_check_can_fail() -> None:
    shown = ("games won   A ..., B ..., drawn 0", "deals per game 5.2")
    printed = "500: ...\n  games won              A 3, B 1, drawn 0\n  deals per game         4.2\n"
    assert missing_lines(shown, printed) == ["deals per game 5.2"]
    assert missing_lines(shown[:1], printed) == []
    assert missing_lines(("deals per game 4.2", "games won A 3, B 1, drawn 0"), printed) == [
        "games won A 3, B 1, drawn 0"
    ]  # order matters
