"""The options and the five named presets of Belote Coinche (docs/rules/coinche.md §15, §20).

Every rule on which clubs disagree is one flat option; a preset is a plain
dict derived from another one, exactly as docs/rules/coinche.md §15.1 and §20 write it, so that
changing one preset can never silently change another.  The boolean alias
``belote_kept_on_failure`` (§6) is accepted on input and normalised to
``belote_on_failure``; it is never stored, so records replay unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

from trumps.core.errors import OptionError
from trumps.core.options import (
    OptionGroup,
    Options,
    OptionSchema,
    OptionSpec,
    OptionValue,
    PopularRules,
    PresetInfo,
    SchemaDescription,
)

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

SEED_PARLETT: dict[str, OptionValue] = dict(
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

COMMON_FFB: dict[str, OptionValue] = dict(
    SEED_PARLETT, melds="none", rounding="nearest", belote_on_failure="kept", scoring="common",
    coinche_formula="all_times_m", capot_fail_base=250, capot_flat=False, defense_complement=False,
)  # fmt: skip

FFB_2016: dict[str, OptionValue] = dict(
    COMMON_FFB, allow_no_trump=True, allow_all_trump=True, melds="none", chute_base=160,
    coinche_formula="all_times_m", surcoinche_multiplier=4, rounding="nearest", capot_flat=True,
    target_score=2000, must_beat_opponents=False, min_82_for_80=False, belote_on_failure="to_defence",
)  # fmt: skip

CONTREE_EXACT: dict[str, OptionValue] = dict(
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

PAGAT: dict[str, OptionValue] = dict(
    COMMON_FFB, must_beat_opponents=False, min_82_for_80=True, surcoinche_multiplier=4,
    coinche_formula="base_plus_bid_times_m", chute_base=160,
)  # fmt: skip

PRESETS: dict[str, dict[str, OptionValue]] = {
    "seed": SEED_PARLETT,
    "common": COMMON_FFB,
    "ffb_2016": FFB_2016,
    "contree_exact": CONTREE_EXACT,
    "pagat": PAGAT,
}

GROUPS = [
    OptionGroup("game", "The game", "The target, the direction and the deal."),
    OptionGroup("bidding", "Bidding", "Contracts that may be bid, coinche and surcoinche."),
    OptionGroup("belote", "Belote and melds", "Belote-rebelote and the announcements (annonces)."),
    OptionGroup("play", "Play", "What you must play when you cannot follow suit.", advanced=True),
    OptionGroup("scoring", "Scoring", "Card values, rounding, made and failed contracts.", advanced=True),
]

_MELDS = {"melds": ("seed",)}
_CAPOT = {"allow_capot_bid": (True,)}
_COMMON = {"scoring": ("common",)}

_S = OptionSpec
_SPECS = [
    _S("direction", str, "anticlockwise", ("anticlockwise", "clockwise"), "Direction of deal, bidding and play.",
       label="Direction", group="game", choice_labels={"anticlockwise": "anticlockwise", "clockwise": "clockwise"}),
    _S("deal_pattern", str, "3-2-3", ("3-2-3", "3-3-2", "2-3-3"), "Packets of the deal.",
       label="Deal in packets of", group="game"),
    _S("allow_no_trump", bool, True, None, "Sans-atout (NT) contracts may be bid.",
       label="No-trump contracts", group="bidding"),
    _S("allow_all_trump", bool, True, None, "Tout-atout (AT) contracts may be bid.",
       label="All-trump contracts", group="bidding"),
    _S("nt_values", str, "ace19", ("ace19", "plain"), "No-trump card values: A 19 (38 a suit) or plain (30).",
       label="No-trump card values", group="scoring", when={"allow_no_trump": (True,)},
       choice_labels={"ace19": "ace 19 (38 a suit)", "plain": "plain (30 a suit)"}),
    _S("at_values", str, "scaled38", ("scaled38", "trump62"), "All-trump values: 38 a suit or 62 a suit.",
       label="All-trump card values", group="scoring", when={"allow_all_trump": (True,)},
       choice_labels={"scaled38": "38 a suit", "trump62": "62 a suit"}),
    _S("max_numeric_bid", int, 160, None, "Highest numeric bid.",
       check=lambda v: 80 <= v <= 240 and v % 10 == 0, check_doc="must be a multiple of 10 from 80 to 240",
       label="Highest numeric bid", group="bidding", bounds=(80, 240, 10)),
    _S("allow_capot_bid", bool, True, None, "CAPOT bids (all 8 tricks to the side).",
       label="Capot bids", group="bidding"),
    _S("allow_generale_bid", bool, False, None, "GENERALE bids (all 8 tricks to the taker alone).",
       label="Générale bids", group="bidding", when=_CAPOT),
    _S("contract_threshold", str, "nominal", ("nominal", "plus_two"), "A bid N needs N, or N + 2.",
       label="A bid of N needs", group="bidding",
       choice_labels={"nominal": "N points", "plus_two": "N + 2 points"}),
    _S("must_beat_opponents", bool, True, None, "The taker's total must also exceed the defence's.",
       label="Taker must out-score the defence", group="scoring"),
    _S("min_82_for_80", bool, True, None, "Without the out-score test, an 80 still needs 82.",
       label="An 80 needs 82", group="scoring", when={"must_beat_opponents": (False,)}),
    _S("coinche_closes_auction", bool, True, None, "After a coinche only the surcoinche may follow.",
       label="A coinche closes the bidding", group="bidding"),
    _S("coinche_timing", str, "in_turn", ("in_turn", "any_time"), "Coinche in turn, or on the fly.",
       label="Coinche", group="bidding", choice_labels={"in_turn": "in turn", "any_time": "any time"}),
    _S("surcoinche_multiplier", int, 4, (4, 3), "Multiplier of a surcoinched contract.",
       label="Surcoinche multiplies by", group="bidding", choice_labels={4: "×4", 3: "×3"}),
    _S("partner_exempt_on_trump_lead", bool, False, None, "Trump led: no need to go over a winning partner.",
       label="Trump led, partner winning: need not go over", group="play"),
    _S("must_undertrump", bool, True, None, "Unable to overtrump an opponent: must still trump.",
       label="Must under-trump", group="play"),
    _S("partner_master_exemption", bool, True, None, "Partner winning and void: any card.",
       label="Partner winning: any card", group="play"),
    _S("partner_master_trump_must_overtrump", bool, False, None,
       "Partner winning: a trump played must overtrump (unless only lower trumps are held).",
       label="…but a trump must overtrump", group="play", when={"partner_master_exemption": (True,)}),
    _S("belote_in_all_trump", bool, True, None, "Every K-Q pair scores a belote in all-trump.",
       label="Belote in all-trump", group="belote", when={"allow_all_trump": (True,)}),
    _S("belote_requires_announcement", bool, False, None, "Belote scores only if announced.",
       label="Belote must be announced", group="belote"),
    _S("belote_counts_for_contract", bool, True, None, "Belote counts toward making the contract.",
       label="Belote counts for the contract", group="belote"),
    _S("belote_on_failure", str, "kept", ("kept", "lost", "to_defence"), "The losing side's belote.",
       label="Belote of the losing side", group="belote",
       choice_labels={"kept": "kept", "lost": "lost", "to_defence": "goes to the winners"}),
    _S("melds", str, "none", ("none", "seed"), "Melds (annonces): none (belote only) or the seed's.",
       label="Melds", group="belote", choice_labels={"none": "none (belote only)", "seed": "the seed's melds"},
       summary={"seed": "melds"}),
    _S("melds_count_for_contract", bool, True, None, "Won melds count toward the contract.",
       label="Melds count for the contract", group="belote", when=_MELDS),
    _S("meld_equal_value", str, "carre_first", ("carre_first", "rank_only"), "Equal-value meld comparison.",
       label="Melds of equal value", group="belote", when=_MELDS,
       choice_labels={"carre_first": "a carré beats a sequence", "rank_only": "by rank only"}),
    _S("meld_tie_rule", str, "nobody", ("nobody", "first_announcer"), "Equal best melds: who scores.",
       label="Equal best melds", group="belote", when=_MELDS,
       choice_labels={"nobody": "nobody scores", "first_announcer": "the first to announce"}),
    _S("long_run_split", bool, False, None, "A run of 8 scores quinte + tierce.",
       label="A run of 8 scores quinte + tierce", group="belote", when=_MELDS),
    _S("card_in_multiple_melds", bool, True, None, "A card may serve in a carré and a sequence.",
       label="A card in two melds", group="belote", when=_MELDS),
    _S("capot_points", int, 250, (250, 252, 162), "Card points of a side winning all 8 tricks.",
       label="Capot card points", group="scoring"),
    _S("capot_bid_value", int, 250, None, "Bid term of a capot contract.",
       check=lambda v: 170 <= v <= 490 and v % 10 == 0, check_doc="must be a multiple of 10 from 170 to 490",
       label="Capot bid value", group="bidding", when=_CAPOT, bounds=(170, 490, 10)),
    _S("capot_fail_base", int, 250, (250, 160, 162), "Card base of the defence on a failed capot.",
       label="Failed capot: defence's base", group="scoring", when=_CAPOT),
    _S("capot_flat", bool, False, None, "A capot bid scores a flat 500 x m to the side that wins it.",
       label="Capot bid scores a flat 500", group="scoring", when={**_CAPOT, **_COMMON}),
    _S("rounding", str, "nearest", ("nearest", "down", "none"), "Rounding of card points.",
       label="Card points rounded", group="scoring",
       choice_labels={"nearest": "to the nearest 10", "down": "down to 10", "none": "not at all"}),
    _S("chute_base", int, 160, (160, 162, 0), "Card base of the defence on a failed contract.",
       label="Failed contract: defence's base", group="scoring", choice_labels={0: "0 (the bid only)"}),
    _S("scoring", str, "common", ("seed", "common"),
       "How a deal scores: the seed's way (a coinche multiplies every score) or the common way.",
       label="Score formula", group="scoring", choice_labels={"seed": "the seed's", "common": "common"}),
    _S("seed_multiplier_scope", str, "all", ("all", "bid_only"), "Seed scoring: what coinche multiplies.",
       label="Coinche multiplies", group="scoring", when={"scoring": ("seed",)},
       choice_labels={"all": "every score", "bid_only": "the bid only"}),
    _S("coinche_formula", str, "all_times_m", ("all_times_m", "bid_times_m", "base_plus_bid_times_m", "double_base"),
       "Common scoring: what a coinched contract is worth (m: 2 coinched, or the surcoinche multiplier).",
       label="Coinched stake", group="scoring", when=_COMMON,
       choice_labels={"all_times_m": "(160 + bid) × m", "bid_times_m": "160 + bid × m",
                      "base_plus_bid_times_m": "failed-contract base + bid × m",
                      "double_base": "320/640 + bid × m"}),
    _S("defense_complement", bool, False, None, "Defence scores 160 − R(taker's cards).",
       label="Defence scores 160 − the taker's points", group="scoring", when=_COMMON),
    # at most 10,000 (five times the longest usual game): any whole number was taken before, and
    # 10**30 was stored and then broke the lobby of everyone (issue 29)
    _S("target_score", int, 1000, None, "Score that ends the game.",
       label="Game to", group="game", bounds=(1, 10_000, 1), summary="to {target_score}"),
    _S("target_rule", str, "reach", ("reach", "exceed"), "Reaching the target is enough, or exceed it.",
       label="To end the game", group="game",
       choice_labels={"reach": "reach the target", "exceed": "pass the target"}),
    _S("both_over_target_rule", str, "higher_total", ("higher_total", "contract_winner"),
       "Both sides over the target: higher total wins, or the deal's contract winner.",
       label="Both sides over the target", group="game",
       choice_labels={"higher_total": "higher total wins", "contract_winner": "the deal's contract winner"}),
    _S("max_deals", int, 0, None,
       "Stop after this many deals, the higher score winning (0: play until a side wins).",
       label="Deals at most", group="game", bounds=(0, 100, 1)),
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

    def resolve(self, preset: str | None = None, options: Mapping[str, object] | None = None) -> Options:
        if options is not None and isinstance(options, Mapping) and ALIAS in options:
            opts = dict(options)
            if "belote_on_failure" in opts:
                raise OptionError(f"give belote_on_failure or its alias {ALIAS}, not both")
            kept = OptionSpec(ALIAS, bool, True).coerce(opts.pop(ALIAS))
            opts["belote_on_failure"] = "kept" if kept else "lost"
            options = opts
        return super().resolve(preset, options)

    def describe(self, values: Mapping[str, object] | None = None) -> SchemaDescription:
        out = super().describe(values)
        out["aliases"] = {ALIAS: "belote_on_failure (true = kept, false = lost)"}
        return out


#: What a card room's Play button offers (the seed's melds and scoring are not a popular way to play).
POPULAR: list[PopularRules] = [
    {"key": "common", "label": "Common rules", "preset": "common", "options": {}},
    {"key": "ffb_2016", "label": "FFB 2016", "preset": "ffb_2016", "options": {}},
    {"key": "contree_exact", "label": "Contrée, exact points", "preset": "contree_exact", "options": {}},
    {"key": "pagat", "label": "Pagat", "preset": "pagat", "options": {}},
]

PRESET_INFO = {
    "seed": PresetInfo(
        "Seed rules", "The seed document's game: melds, points rounded down, a failed taker loses all."
    ),
    "common": PresetInfo(
        "Common rules", "The usual modern game: belote only, no melds, nearest 10, game to 1000."
    ),
    "ffb_2016": PresetInfo(
        "FFB 2016", "French federation sheet: made on points plus belote, a flat 500 capot, game to 2000."
    ),
    "contree_exact": PresetInfo(
        "Contrée, exact points", "Colour contracts only, exact points, surcoinche ×3, game to 2000."
    ),
    "pagat": PresetInfo(
        "Pagat", "The common rules, but an 80 needs 82 and a coinche multiplies the bid only."
    ),
}

SCHEMA = CoincheSchema(
    specs=_SPECS,
    presets=PRESETS,
    validate=_validate,
    popular=POPULAR,
    title="Belote Coinche",
    groups=GROUPS,
    preset_info=PRESET_INFO,
    summary_preset=True,
    game="coinche",
)


def resolve_options(preset: str | None = None, options: Mapping[str, object] | None = None) -> Options:
    """A complete coinche option set: ``preset`` then ``options`` then defaults."""
    return SCHEMA.resolve(preset, options)
