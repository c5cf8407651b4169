"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "no python example in the README"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    game = namespace["game"]
    same = namespace["same"]
    assert game.is_over  # type: ignore[attr-defined]
    assert same.to_json() == game.to_json()  # type: ignore[attr-defined]
