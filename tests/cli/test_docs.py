"""The examples of docs/cli.md run as written: each ``$ trumps ...`` line of
a ``console`` block is run from the repository's root and must print
exactly the lines under it (stdout, or the error line on stderr)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from trumps.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "cli.md"


def _examples() -> list[tuple[str, list[str]]]:
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *expected = chunk.rstrip("\n").split("\n")
            examples.append((command, expected))
    return examples


EXAMPLES = _examples()


def test_the_page_has_examples_and_is_linked_from_the_readme() -> None:
    assert len(EXAMPLES) >= 10
    assert "docs/cli.md" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _e in EXAMPLES])
def test_each_example_prints_what_the_page_shows(
    command: str,
    expected: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "trumps"
    code = main(argv[1:])
    out, err = capsys.readouterr()
    shown = (out if code == 0 else err).splitlines()
    assert shown == expected
    assert code in (0, 2) and (code == 0) == (err == "")
