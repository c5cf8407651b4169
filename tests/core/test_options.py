"""Option schemas: coercion of strings, unknown keys, presets, validation."""

from __future__ import annotations

from typing import Any

import pytest

from trumps.core.errors import OptionError
from trumps.core.options import Options, OptionSchema, OptionSpec


def _validate(o: Options) -> None:
    if o.flag and o.size == 5:
        raise OptionError("flag and size 5 do not mix")


SCHEMA = OptionSchema(
    specs=[
        OptionSpec("flag", bool, False),
        OptionSpec("size", int, 3, (3, 5, 6)),
        OptionSpec("mode", str, "a", ("a", "b")),
        OptionSpec("value", int, 100, None, check=lambda v: v > 0, check_doc="must be positive"),
    ],
    presets={"big": {"size": 6, "mode": "b"}},
    validate=_validate,
)


@pytest.mark.parametrize(
    ("raw", "value"),
    [("yes", True), ("Yes", True), ("true", True), ("on", True), ("1", True), ("no", False),
     ("false", False), ("off", False), ("0", False), (True, True), (False, False)],
)  # fmt: skip
def test_bool_coercion(raw: Any, value: bool) -> None:
    assert SCHEMA.resolve(None, {"flag": raw}).flag is value


@pytest.mark.parametrize(("raw", "value"), [("3", 3), (" 5 ", 5), (6, 6)])
def test_int_coercion(raw: Any, value: int) -> None:
    assert SCHEMA.resolve(None, {"size": raw}).size == value


@pytest.mark.parametrize(
    "options",
    [
        {"flag": "maybe"},
        {"flag": 2},
        {"size": "three"},
        {"size": 4},
        {"size": True},
        {"size": 3.0},
        {"mode": "c"},
        {"mode": 1},
        {"value": -5},
        {"colour": "red"},
        {"flag": True, "size": 5},
    ],
)
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        SCHEMA.resolve(None, options)


def test_defaults_presets_and_immutability() -> None:
    o = SCHEMA.resolve()
    assert o.to_dict() == {"flag": False, "size": 3, "mode": "a", "value": 100}
    p = SCHEMA.resolve("BIG", {"mode": "a"})
    assert (p.size, p.mode) == (6, "a")
    assert p["size"] == 6 and len(p) == 4 and set(p) == {"flag", "size", "mode", "value"}
    with pytest.raises(AttributeError):
        p.size = 3
    with pytest.raises(AttributeError):
        _ = p.nothing
    with pytest.raises(OptionError):
        SCHEMA.resolve("huge")
    with pytest.raises(OptionError):
        SCHEMA.resolve(None, ["size", 3])  # type: ignore[arg-type]
    described = SCHEMA.describe()
    assert [d["name"] for d in described["options"]] == ["flag", "size", "mode", "value"]
    assert described["presets"] == {"big": {"size": 6, "mode": "b"}}


def test_the_memo_is_not_part_of_the_options() -> None:
    """``Options.memo`` holds what engines derive from an option set: not an
    option, not compared, not copied or pickled."""
    import copy
    import pickle

    import trumps

    opts = trumps.new_game("coinche", preset="contree_exact", seed=1).options
    assert opts.memo  # the engines' trick rules and bid table were kept there
    assert "memo" not in opts and "memo" not in dict(opts)
    fresh = pickle.loads(pickle.dumps(opts))
    assert fresh == opts and fresh.memo == {} and copy.copy(opts).memo == {}
    assert trumps.new_game("coinche", preset="contree_exact", seed=1).options is opts  # one per rule set
