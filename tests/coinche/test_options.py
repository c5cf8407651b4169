"""Options and presets (coinche.md §15.1, §20): every preset exactly as the
spec writes it, single overrides, and rejected contradictions."""

from __future__ import annotations

import pytest

import trumps
from trumps.coinche.options import COMMON_FFB, CONTREE_EXACT, FFB_2016, PAGAT, SCHEMA, SEED_PARLETT
from trumps.core.errors import OptionError

from .conftest import PRESETS

SPEC_SEED = dict(
    direction="anticlockwise", allow_no_trump=True, allow_all_trump=True,
    nt_values="ace19", at_values="scaled38", max_numeric_bid=160, allow_capot_bid=True,
    allow_generale_bid=False, contract_threshold="nominal", must_beat_opponents=True,
    coinche_closes_auction=True, coinche_timing="in_turn", surcoinche_multiplier=4,
    partner_exempt_on_trump_lead=False, must_undertrump=True, partner_master_exemption=True,
    partner_master_trump_must_overtrump=False, belote_in_all_trump=True,
    belote_requires_announcement=False, belote_counts_for_contract=True,
    melds="seed", melds_count_for_contract=True, meld_equal_value="carre_first",
    meld_tie_rule="nobody", long_run_split=False, card_in_multiple_melds=True,
    capot_points=250, capot_bid_value=250, rounding="down", belote_on_failure="lost",
    chute_base=160, min_82_for_80=True, scoring="seed", seed_multiplier_scope="all",
    target_score=1000, target_rule="reach", both_over_target_rule="higher_total",
)  # fmt: skip
SPEC_COMMON = dict(
    SPEC_SEED, melds="none", rounding="nearest", belote_on_failure="kept", scoring="common",
    coinche_formula="all_times_m", capot_fail_base=250, capot_flat=False, defense_complement=False,
)  # fmt: skip
SPEC_FFB = dict(
    SPEC_COMMON, allow_no_trump=True, allow_all_trump=True, melds="none", chute_base=160,
    coinche_formula="all_times_m", surcoinche_multiplier=4, rounding="nearest", capot_flat=True, target_score=2000,
    must_beat_opponents=False, min_82_for_80=False, belote_on_failure="to_defence",
)  # fmt: skip
SPEC_CONTREE = dict(
    SPEC_COMMON, allow_no_trump=False, allow_all_trump=False, melds="none",
    surcoinche_multiplier=3, must_undertrump=False, must_beat_opponents=False, min_82_for_80=False,
    rounding="none", chute_base=162, belote_on_failure="to_defence", coinche_formula="base_plus_bid_times_m",
    capot_points=252, capot_fail_base=162, capot_flat=False, target_score=2000,
)  # fmt: skip
SPEC_PAGAT = dict(
    SPEC_COMMON, must_beat_opponents=False, min_82_for_80=True, surcoinche_multiplier=4,
    coinche_formula="base_plus_bid_times_m", chute_base=160,
)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "spec", "ours"),
    [
        ("seed", SPEC_SEED, SEED_PARLETT),
        ("common", SPEC_COMMON, COMMON_FFB),
        ("ffb_2016", SPEC_FFB, FFB_2016),
        ("contree_exact", SPEC_CONTREE, CONTREE_EXACT),
        ("pagat", SPEC_PAGAT, PAGAT),
    ],
)
def test_presets_match_the_spec(name: str, spec: dict[str, object], ours: dict[str, object]) -> None:
    resolved = SCHEMA.resolve(name)
    for key, value in spec.items():
        assert resolved[key] == value, (name, key)
    assert all(ours[k] == v for k, v in spec.items())


def test_every_option_is_known_and_presets_only_use_known_options() -> None:
    names = set(SCHEMA.names)
    for p in PRESETS:
        assert set(SCHEMA.presets[p]) <= names


@pytest.mark.parametrize("preset", PRESETS)
def test_single_override_on_a_preset(preset: str) -> None:
    o = SCHEMA.resolve(preset, {"target_score": "1500", "direction": "clockwise"})
    base = SCHEMA.resolve(preset)
    assert o.target_score == 1500 and o.direction == "clockwise"
    assert {k: v for k, v in o.items() if k not in ("target_score", "direction")} == {
        k: v for k, v in base.items() if k not in ("target_score", "direction")
    }


def test_belote_alias_is_normalised() -> None:
    assert SCHEMA.resolve("common", {"belote_kept_on_failure": False}).belote_on_failure == "lost"
    assert SCHEMA.resolve("seed", {"belote_kept_on_failure": "true"}).belote_on_failure == "kept"
    assert "belote_kept_on_failure" not in SCHEMA.resolve("seed", {"belote_kept_on_failure": True})
    with pytest.raises(OptionError, match="not both"):
        SCHEMA.resolve("seed", {"belote_kept_on_failure": True, "belote_on_failure": "kept"})


@pytest.mark.parametrize(
    "bad",
    [
        {"partner_master_exemption": False, "partner_master_trump_must_overtrump": True},
        {"scoring": "seed", "defense_complement": True},
        {"scoring": "seed", "capot_flat": True},
        {"allow_capot_bid": False, "allow_generale_bid": True},
        {"max_numeric_bid": 250},
        {"max_numeric_bid": 165},
        {"surcoinche_multiplier": 5},
        {"rounding": "up"},
        {"no_such_option": 1},
        {"target_score": 0},
    ],
)
def test_contradictions_and_bad_values_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        SCHEMA.resolve(None, bad)


def test_unknown_preset() -> None:
    with pytest.raises(OptionError, match="unknown preset"):
        trumps.new_game("coinche", preset="belgian")


def test_new_game_dispatches_and_aliases() -> None:
    g = trumps.new_game("belote", preset="pagat", seed=1)
    assert g.game == "coinche" and g.options.min_82_for_80 and not g.options.must_beat_opponents
    assert "coinche" in trumps.games()
