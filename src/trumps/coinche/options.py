"""The options and the five named presets of Belote Coinche (coinche.md §15, §20).

Every rule on which clubs disagree is one flat option; a preset is a plain
dict derived from another one, exactly as the spec writes it, so that
changing one preset can never silently change another.  The boolean alias
``belote_kept_on_failure`` (§6) is accepted on input and normalised to
``belote_on_failure``; it is never stored, so records replay unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps.core.errors import OptionError
from trumps.core.options import Options, OptionSchema, OptionSpec

__all__ = [
    "COMMON_FFB",
    "CONTREE_EXACT",
    "FFB_2016",
    "PAGAT",
    "PRESETS",
    "SCHEMA",
    "SEED_PARLETT",
    "resolve_options",
]

SEED_PARLETT: dict[str, Any] = dict(
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

COMMON_FFB: dict[str, Any] = dict(
    SEED_PARLETT, melds="none", rounding="nearest", belote_on_failure="kept", scoring="common",
    coinche_formula="all_times_m", capot_fail_base=250, capot_flat=False, defense_complement=False,
)  # fmt: skip

FFB_2016: dict[str, Any] = dict(
    COMMON_FFB, allow_no_trump=True, allow_all_trump=True, melds="none", chute_base=160,
    coinche_formula="all_times_m", surcoinche_multiplier=4, rounding="nearest", capot_flat=True,
    target_score=2000, must_beat_opponents=False, min_82_for_80=False, belote_on_failure="to_defence",
)  # fmt: skip

CONTREE_EXACT: dict[str, Any] = dict(
    COMMON_FFB, allow_no_trump=False, allow_all_trump=False,
    melds="none", belote_requires_announcement=False, belote_counts_for_contract=True,
    max_numeric_bid=160, allow_capot_bid=True, capot_bid_value=250,
    allow_generale_bid=False, coinche_closes_auction=True, coinche_timing="in_turn",
    surcoinche_multiplier=3, partner_exempt_on_trump_lead=False,
    must_undertrump=False, partner_master_exemption=True,
    partner_master_trump_must_overtrump=False, contract_threshold="nominal",
    must_beat_opponents=False, min_82_for_80=False, scoring="common",
    rounding="none", chute_base=162, belote_on_failure="to_defence",
    coinche_formula="base_plus_bid_times_m", capot_points=252, capot_fail_base=162,
    capot_flat=False, target_score=2000, target_rule="reach",
)  # fmt: skip

PAGAT: dict[str, Any] = dict(
    COMMON_FFB, must_beat_opponents=False, min_82_for_80=True, surcoinche_multiplier=4,
    coinche_formula="base_plus_bid_times_m", chute_base=160,
)  # fmt: skip

PRESETS: dict[str, dict[str, Any]] = {
    "seed": SEED_PARLETT,
    "common": COMMON_FFB,
    "ffb_2016": FFB_2016,
    "contree_exact": CONTREE_EXACT,
    "pagat": PAGAT,
}

_S = OptionSpec
_SPECS = [
    _S("direction", str, "anticlockwise", ("anticlockwise", "clockwise"), "Direction of deal, bidding and play."),
    _S("deal_pattern", str, "3-2-3", ("3-2-3", "3-3-2", "2-3-3"), "Packets of the deal."),
    _S("allow_no_trump", bool, True, None, "Sans-atout (NT) contracts may be bid."),
    _S("allow_all_trump", bool, True, None, "Tout-atout (AT) contracts may be bid."),
    _S("nt_values", str, "ace19", ("ace19", "plain"), "No-trump card values: A 19 (38 a suit) or plain (30)."),
    _S("at_values", str, "scaled38", ("scaled38", "trump62"), "All-trump values: 38 a suit or 62 a suit."),
    _S("max_numeric_bid", int, 160, None, "Highest numeric bid.",
       check=lambda v: 80 <= v <= 240 and v % 10 == 0, check_doc="must be a multiple of 10 from 80 to 240"),
    _S("allow_capot_bid", bool, True, None, "CAPOT bids (all 8 tricks to the side)."),
    _S("allow_generale_bid", bool, False, None, "GENERALE bids (all 8 tricks to the taker alone)."),
    _S("contract_threshold", str, "nominal", ("nominal", "plus_two"), "A bid N needs N, or N + 2."),
    _S("must_beat_opponents", bool, True, None, "The taker's total must also exceed the defence's."),
    _S("min_82_for_80", bool, True, None, "Without the out-score test, an 80 still needs 82."),
    _S("coinche_closes_auction", bool, True, None, "After a coinche only the surcoinche may follow."),
    _S("coinche_timing", str, "in_turn", ("in_turn", "any_time"), "Coinche in turn, or on the fly."),
    _S("surcoinche_multiplier", int, 4, (4, 3), "Multiplier of a surcoinched contract."),
    _S("partner_exempt_on_trump_lead", bool, False, None, "Trump led: no need to go over a winning partner."),
    _S("must_undertrump", bool, True, None, "Unable to overtrump an opponent: must still trump."),
    _S("partner_master_exemption", bool, True, None, "Partner winning and void: any card."),
    _S("partner_master_trump_must_overtrump", bool, False, None,
       "Partner winning: a trump played must overtrump (unless only lower trumps are held)."),
    _S("belote_in_all_trump", bool, True, None, "Every K-Q pair scores a belote in all-trump."),
    _S("belote_requires_announcement", bool, False, None, "Belote scores only if announced."),
    _S("belote_counts_for_contract", bool, True, None, "Belote counts toward making the contract."),
    _S("belote_on_failure", str, "kept", ("kept", "lost", "to_defence"), "The losing side's belote."),
    _S("melds", str, "none", ("none", "seed"), "Melds (annonces): none (belote only) or the seed's."),
    _S("melds_count_for_contract", bool, True, None, "Won melds count toward the contract."),
    _S("meld_equal_value", str, "carre_first", ("carre_first", "rank_only"), "Equal-value meld comparison."),
    _S("meld_tie_rule", str, "nobody", ("nobody", "first_announcer"), "Equal best melds: who scores."),
    _S("long_run_split", bool, False, None, "A run of 8 scores quinte + tierce."),
    _S("card_in_multiple_melds", bool, True, None, "A card may serve in a carré and a sequence."),
    _S("capot_points", int, 250, (250, 252, 162), "Card points of a side winning all 8 tricks."),
    _S("capot_bid_value", int, 250, None, "Bid term of a capot contract.",
       check=lambda v: 170 <= v <= 490 and v % 10 == 0, check_doc="must be a multiple of 10 from 170 to 490"),
    _S("capot_fail_base", int, 250, (250, 160, 162), "Card base of the defence on a failed capot."),
    _S("capot_flat", bool, False, None, "A capot bid scores a flat 500 x m to the side that wins it."),
    _S("rounding", str, "nearest", ("nearest", "down", "none"), "Rounding of card points."),
    _S("chute_base", int, 160, (160, 162, 0), "Card base of the defence on a failed contract."),
    _S("scoring", str, "common", ("seed", "common"), "Deal score formula: §12 seed or §13 common."),
    _S("seed_multiplier_scope", str, "all", ("all", "bid_only"), "Seed scoring: what coinche multiplies."),
    _S("coinche_formula", str, "all_times_m", ("all_times_m", "bid_times_m", "base_plus_bid_times_m", "double_base"),
       "Common scoring: the stake of a coinched contract ((160 + bid) × m, 160 + bid × m, "
       "chute base + bid × m, 320/640 + bid × m)."),
    _S("defense_complement", bool, False, None, "Defence scores 160 − R(taker's cards)."),
    _S("target_score", int, 1000, None, "Score that ends the game.",
       check=lambda v: v > 0, check_doc="must be positive"),
    _S("target_rule", str, "reach", ("reach", "exceed"), "Reaching the target is enough, or exceed it."),
    _S("both_over_target_rule", str, "higher_total", ("higher_total", "contract_winner"),
       "Both sides over the target: higher total wins, or the deal's contract winner."),
]  # fmt: skip

ALIAS = "belote_kept_on_failure"


def _validate(o: Options) -> None:
    if o.partner_master_trump_must_overtrump and not o.partner_master_exemption:
        raise OptionError(
            "partner_master_trump_must_overtrump refines partner_master_exemption, which is off: "
            "without the exemption a void player must already trump and overtrump"
        )
    if o.scoring == "seed" and o.defense_complement:
        raise OptionError("defense_complement is a rule of the common scoring (scoring=common)")
    if o.scoring == "seed" and o.capot_flat:
        raise OptionError("capot_flat is a rule of the common scoring (scoring=common)")
    if o.allow_generale_bid and not o.allow_capot_bid:
        raise OptionError("allow_generale_bid needs allow_capot_bid (a générale overbids a capot)")
    if o.max_numeric_bid >= o.capot_bid_value:
        raise OptionError(
            f"max_numeric_bid {o.max_numeric_bid} must be below capot_bid_value {o.capot_bid_value}"
        )


class CoincheSchema(OptionSchema):
    """:class:`OptionSchema` that also reads the ``belote_kept_on_failure`` alias."""

    def resolve(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Options:
        if options is not None and isinstance(options, Mapping) and ALIAS in options:
            opts = dict(options)
            if "belote_on_failure" in opts:
                raise OptionError(f"give belote_on_failure or its alias {ALIAS}, not both")
            kept = OptionSpec(ALIAS, bool, True).coerce(opts.pop(ALIAS))
            opts["belote_on_failure"] = "kept" if kept else "lost"
            options = opts
        return super().resolve(preset, options)

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["aliases"] = {ALIAS: "belote_on_failure (true = kept, false = lost)"}
        return out


#: What a card room's Play button offers (the seed's melds and scoring are not a popular way to play).
POPULAR = [
    {"key": "common", "label": "Common rules", "preset": "common", "options": {}},
    {"key": "ffb_2016", "label": "FFB 2016", "preset": "ffb_2016", "options": {}},
    {"key": "contree_exact", "label": "Contrée, exact points", "preset": "contree_exact", "options": {}},
    {"key": "pagat", "label": "Pagat", "preset": "pagat", "options": {}},
]

SCHEMA = CoincheSchema(specs=_SPECS, presets=PRESETS, validate=_validate, popular=POPULAR)


def resolve_options(preset: str | None = None, options: Mapping[str, Any] | None = None) -> Options:
    """A complete coinche option set: ``preset`` then ``options`` then defaults."""
    return SCHEMA.resolve(preset, options)
