"""docs/rules/ tells the truth about the code: every option of a game is
described on its page, and the presets the page writes out are exactly the
presets of the game's ``options.py``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from trumps.bridge.options import SCHEMA as BRIDGE
from trumps.coinche.options import SCHEMA as COINCHE
from trumps.core.options import OptionSchema
from trumps.five_hundred.options import SCHEMA as FIVE_HUNDRED

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
GAMES = {"five_hundred": FIVE_HUNDRED, "bridge": BRIDGE, "coinche": COINCHE}
# a preset line of a ```text block: "name = [base with] key=value, key=value, ..."
PRESET = re.compile(
    r"^(?P<name>\w+)\s+=\s+(?:(?P<base>\w+) with )?(?P<pairs>\w+=[\w.-]+(?:,\s*\w+=[\w.-]+)*),?$"
)


def _value(text: str) -> Any:
    if text in ("True", "False"):
        return text == "True"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def documented_presets(page: str) -> dict[str, dict[str, Any]]:
    """The presets written out in ``page``'s text blocks, each resolved on
    its base (continuation lines are indented)."""
    out: dict[str, dict[str, Any]] = {}
    for block in re.findall(r"```text\n(.*?)```", page, re.S):
        entries: list[str] = []
        for line in block.splitlines():
            if line[:1].isspace() and entries:
                entries[-1] += " " + line.strip()
            else:
                entries.append(line.strip())
        for entry in entries:
            m = PRESET.match(entry)
            if not m:
                continue
            pairs = dict(p.strip().split("=", 1) for p in m["pairs"].split(",") if p.strip())
            base = dict(out[m["base"]]) if m["base"] else {}
            out[m["name"]] = {**base, **{k.strip(): _value(v.strip()) for k, v in pairs.items()}}
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_is_described(game: str) -> None:
    page = (RULES / f"{game}.md").read_text(encoding="utf-8")
    schema: OptionSchema = GAMES[game]
    missing = [spec.name for spec in schema.specs if f"`{spec.name}`" not in page and spec.name not in page]
    assert not missing, f"docs/rules/{game}.md does not describe {missing}"
    assert all(f"`{name}`" in page for name in schema.presets)


@pytest.mark.parametrize("game", ["five_hundred", "coinche"])
def test_the_written_presets_are_the_codes(game: str) -> None:
    page = (RULES / f"{game}.md").read_text(encoding="utf-8")
    written = documented_presets(page)
    schema: OptionSchema = GAMES[game]
    assert set(written) == set(schema.presets), f"presets written out in docs/rules/{game}.md"
    for name, values in written.items():
        assert values == dict(schema.presets[name]), f"docs/rules/{game}.md: preset {name}"


def test_the_preset_reader_reads() -> None:
    page = "```text\nbase = a=1, b=True,\n       c=x\nmore = base with b=False\n```\n"
    assert documented_presets(page) == {
        "base": {"a": 1, "b": True, "c": "x"},
        "more": {"a": 1, "b": False, "c": "x"},
    }
