"""The options and presets of 500 (five_hundred.md §14, §17).

Defaults that the spec gives per variation (``must_bid_to_win``,
``nullo_mode``) follow the chosen ``variation`` when no preset sets them.
"""

from __future__ import annotations

from typing import Any

from trumps.core.errors import OptionError
from trumps.core.options import Options, OptionSchema, OptionSpec

__all__ = ["AMERICAN", "AUSTRALIAN", "SCHEMA", "resolve_options"]

AMERICAN: dict[str, Any] = dict(
    variation="american", players="2v2", kitty_size=3,
    must_bid_to_win=False, raise_own_bid=False, nullo_mode="anytime",
    nullo_points=250, eight_spades_overbids_nullo=True, nullo_plays="own_hand",
    open_nullo_points=500, open_nullo_after_8=False,
    inkles_must_outrank=True, inkle_seats=2, all_pass_action="redeal",
    first_lead="contractor", misere_defender_points="per_trick",
    open_misere_expose="before_lead", breach_enabled=False,
)  # fmt: skip

AUSTRALIAN: dict[str, Any] = dict(
    AMERICAN, variation="australian", must_bid_to_win=True, nullo_mode="after_7"
)

_SPECS = [
    OptionSpec("variation", str, "american", ("american", "australian"),
               "American: one bidding round with inkles. Australian: rounds until all but one pass."),
    OptionSpec("players", str, "2v2", ("2v2", "2v2v2", "3v3"),
               "4 players in 2 teams, 6 players in 3 teams of 2, or 6 in 2 teams of 3."),
    OptionSpec("kitty_size", int, 3, (3, 5, 6),
               "Kitty (widow) size; selects the deck: 43/45/46 or 63/65/66 cards."),
    OptionSpec("must_bid_to_win", bool, False, None,
               "Only a contract can win: defenders' trick points stop at 490."),
    OptionSpec("raise_own_bid", bool, False, None,
               "Australian: once all others pass, the high bidder may raise once."),
    OptionSpec("raise_reopens_on_denomination_change", bool, False, None,
               "A raise that changes denomination lets passed players back in."),
    OptionSpec("nullo_mode", str, "anytime", ("off", "after_7", "anytime"),
               "When misère (nullo) bids may be made."),
    OptionSpec("nullo_points", int, 250, (210, 230, 250), "Value (and rank) of misère."),
    OptionSpec("eight_spades_overbids_nullo", bool, True, None,
               "Every 8-level bid, 8♠ included, outranks a 250 misère."),
    OptionSpec("nullo_plays", str, "own_hand", ("own_hand", "both_hands"),
               "Misère bidder plays alone, or plays partner's exposed hand too."),
    OptionSpec("open_nullo_points", int, 500, (330, 430, 500, 520),
               "Value (and rank) of open misère."),
    OptionSpec("open_nullo_after_8", bool, False, None,
               "Open misère needs an earlier 8-level bid (requires nullo_mode after_7)."),
    OptionSpec("inkles_must_outrank", bool, True, None,
               "American: an inkle must outrank earlier inkles."),
    OptionSpec("inkle_seats", int, 2, (2, 3), "American: how many first speakers may inkle."),
    OptionSpec("all_pass_action", str, "redeal", ("redeal", "play_no_trumps"),
               "When nobody bids: redeal, or play no trumps with 10 points a trick."),
    OptionSpec("joker_lead_suit_restriction", bool, False, None,
               "A led joker (no trumps) may only name a suit its leader has followed."),
    OptionSpec("joker_low_in_misere", bool, False, None,
               "In misère the joker is the lowest card, never a trump."),
    OptionSpec("open_misere_expose", str, "before_lead", ("before_lead", "after_first_trick"),
               "When the open misère hand is shown."),
    OptionSpec("end_hand_when_decided", bool, False, None,
               "A misère hand stops as soon as the contractor takes a trick."),
    OptionSpec("first_lead", str, "contractor", ("contractor", "eldest"),
               "Who leads to the first trick."),
    OptionSpec("misere_defender_points", str, "per_trick", ("per_trick", "none"),
               "Defenders' 10 points a trick against misère, or nothing."),
    OptionSpec("breach_enabled", bool, False, None,
               "The breach rule: a defender may bet the contract fails by 2+."),
    OptionSpec("breach_value", int, 100, None, "Points won or lost on a breach.",
               check=lambda v: v > 0 and v % 10 == 0, check_doc="must be a positive multiple of 10"),
    OptionSpec("breach_ban_any_level", bool, True, None,
               "A successfully breached contractor of any level sits out the next auction."),
    OptionSpec("win_threshold_inclusive", bool, True, None,
               "Exactly 500 (or −500) ends the game."),
    OptionSpec("simultaneous_out_rule", str, "highest_score_then_bidders",
               ("highest_score_then_bidders", "bidders_win"),
               "Who wins when several teams are out at once."),
]  # fmt: skip


def _defaults_for(chosen: dict[str, Any]) -> dict[str, Any]:
    variation = chosen.get("variation", "american")
    return dict(AUSTRALIAN if variation == "australian" else AMERICAN)


def _validate(o: Options) -> None:
    if o.open_nullo_after_8 and o.nullo_mode != "after_7":
        raise OptionError(f"open_nullo_after_8 requires nullo_mode after_7 (nullo_mode is {o.nullo_mode})")
    if o.raise_own_bid and o.variation != "australian":
        raise OptionError("raise_own_bid is an Australian option (variation is american)")
    if o.raise_reopens_on_denomination_change and not o.raise_own_bid:
        raise OptionError("raise_reopens_on_denomination_change requires raise_own_bid")
    if o.inkle_seats == 3 and o.players == "2v2":
        raise OptionError(
            "inkle_seats 3 is for six players: with four, the last two speakers must bid 7 or more"
        )
    if o.nullo_plays == "both_hands" and o.players == "3v3":
        raise OptionError("nullo_plays both_hands is not allowed with players 3v3")


#: What a card room's Play button offers.
POPULAR = [
    {"key": "american", "label": "American rules", "preset": "american", "options": {}},
    {"key": "australian", "label": "Australian rules", "preset": "australian", "options": {}},
]

SCHEMA = OptionSchema(
    specs=_SPECS,
    presets={"american": AMERICAN, "australian": AUSTRALIAN},
    defaults_for=_defaults_for,
    validate=_validate,
    popular=POPULAR,
)


def resolve_options(preset: str | None = None, options: dict[str, Any] | None = None) -> Options:
    """A complete 500 option set: ``preset`` then ``options`` then defaults."""
    return SCHEMA.resolve(preset, options)
