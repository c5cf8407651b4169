"""``trumps arena`` with a ``colver:`` bot on rules colver does not play
says which preset to use, before the first deal (it used to stop in the
middle of a match at the first no-trump bid)."""

from __future__ import annotations

import pytest

from trumps.cli.arena import COLVER_PRESET, check_colver
from trumps.cli.common import UsageError


@pytest.mark.parametrize(
    "options",
    [{"preset": COLVER_PRESET}, {"preset": COLVER_PRESET, "target_score": "1000"}],
)
def test_colvers_own_rules_pass(options: dict[str, str]) -> None:
    check_colver("coinche", ("strong", "colver:smart_ismcts"), dict(options))


@pytest.mark.parametrize(
    ("options", "differs"),
    [
        ({}, "allow_no_trump=True"),
        ({"preset": "ffb_2016"}, "allow_all_trump=True"),
        ({"preset": COLVER_PRESET, "must_undertrump": "yes"}, "must_undertrump=True"),
    ],
)
def test_other_rules_name_the_preset(options: dict[str, str], differs: str) -> None:
    with pytest.raises(UsageError) as info:
        check_colver("coinche", ("colver:heuristic", "easy"), dict(options))
    text = str(info.value)
    assert text.endswith(f"use --preset {COLVER_PRESET}") and differs in text


def test_without_a_colver_bot_nothing_is_checked() -> None:
    check_colver("coinche", ("strong", "easy"), {})
    check_colver("500", ("strong", "colver:heuristic"), {})  # the bot itself says colver plays coinche only
