"""Nothing in the repository points to a path outside it: a reader, a user
of ``--help`` or a test run on another machine has only the repository.

The rules the engines implement are in ``docs/rules/``; the real-world data
the tests read is in ``tests/data/``.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("src", "tests", "docs", "scripts", "deploy", "benchmarks", "examples")
TEXT = frozenset({".py", ".md", ".json", ".toml", ".cfg", ".txt", ".html", ".js", ".css", ".po", ".pot",
                  ".sh", ".conf", ".service", ".ini", ".yml", ".yaml", ".pyi", ".c", ".h"})  # fmt: skip
OUTSIDE = re.compile(r"\.\./shared\b|/work/(?:shared|main|wt)\b")


def text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "setup.py"]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in TEXT and p.is_file()]
    return [p for p in files if p.exists() and p != Path(__file__).resolve()]


def test_no_file_points_outside_the_repository() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in text_files()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not hits, "paths outside the repository:\n" + "\n".join(hits)


def test_the_check_sees_the_sources() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in text_files()}
    assert {"README.md", "src/trumps/five_hundred/options.py", "docs/rules/bridge.md"} <= names
    assert OUTSIDE.search("see ../shared/rules/bridge.md") and OUTSIDE.search('Path("/work/shared/corpus")')
