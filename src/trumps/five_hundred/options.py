"""The options and presets of 500 (docs/rules/five_hundred.md §14, §17).

Defaults that the rules give per variation (``must_bid_to_win``,
``nullo_mode``) follow the chosen ``variation`` when no preset sets them.
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
)

__all__ = ["AMERICAN", "AUSTRALIAN", "SCHEMA", "resolve_options"]

AMERICAN: dict[str, OptionValue] = dict(
    variation="american", players="2v2", kitty_size=3,
    must_bid_to_win=False, raise_own_bid=False, nullo_mode="anytime",
    nullo_points=250, eight_spades_overbids_nullo=True, nullo_plays="own_hand",
    open_nullo_points=500, open_nullo_after_8=False,
    inkles_must_outrank=True, inkle_seats=2, all_pass_action="redeal",
    first_lead="contractor", misere_defender_points="per_trick",
    open_misere_expose="before_lead", breach_enabled=False,
)  # fmt: skip

AUSTRALIAN: dict[str, OptionValue] = dict(
    AMERICAN, variation="australian", must_bid_to_win=True, nullo_mode="after_7"
)

#: The words that follow the variation (the room's help page,
#: docs/rules/five_hundred.md §1: "the undealt cards are the widow in the
#: American version, the kitty in the Australian; likewise a bid to take no
#: tricks is Misère in the Australian variant but Nullo in the American").
#: ``""``: when the variation is not known.
TERMS = {
    "": {"misere": "nullo (misère)", "kitty": "widow (kitty)"},
    "american": {"misere": "nullo", "kitty": "widow"},
    "australian": {"misere": "misère", "kitty": "kitty"},
}

#: The seed room's groups (its help page: the game's own options, then
#: Nullo/Misère, then its limits, which are the card room's table settings),
#: then the engine's finer points.
GROUPS = [
    OptionGroup("game", "The game", "Variation, players and the deck."),
    OptionGroup("misere", "{Misere}", "Bids to take no tricks at all."),
    OptionGroup("play", "Bidding and play", "Finer points of the auction and the play.", advanced=True),
    OptionGroup("scoring", "End of the game", "Who wins, and when.", advanced=True),
    OptionGroup(
        "breach", "Breach rule", "A defenders' side bet that the contract fails badly.", advanced=True
    ),
]

_NULLO_ON = {"nullo_mode": ("after_7", "anytime")}
_AMERICAN_ONLY = {"variation": ("american",)}

_SPECS = [
    OptionSpec("variation", str, "american", ("american", "australian"),
               "American: one bidding round, inkles instead of 6 bids. Australian: bidding goes round "
               "until all but one pass.",
               label="Variation", group="game",
               choice_labels={"american": "American", "australian": "Australian"}, summary="{value}"),
    OptionSpec("players", str, "2v2", ("2v2", "2v2v2", "3v3"),
               "Teams: two of 2 (2v2), three of 2 (2v2v2) or two of 3 (3v3).",
               label="Players", group="game",
               choice_labels={"2v2": "2v2, 4 players", "2v2v2": "2v2v2, 6 players", "3v3": "3v3, 6 players"},
               summary="{players}"),
    OptionSpec("kitty_size", int, 3, (3, 5, 6),
               "Cards left for the contractor; it sets the deck: 43, 45 or 46 cards (63, 65 or 66 for six).",
               label="{Kitty} size", group="game",
               choice_labels={3: "3 cards", 5: "5 cards", 6: "6 cards, both jokers"},
               summary={5: "5-card {kitty}", 6: "6-card {kitty}"}),
    OptionSpec("must_bid_to_win", bool, False, None,
               "Only a made contract takes a team out: defenders' trick points stop at 490.",
               label="Must bid to win", group="game"),
    OptionSpec("raise_own_bid", bool, False, None,
               "Once all the others have passed, the high bidder may raise once (or pass to keep the bid).",
               label="Raise own bid", group="game", when={"variation": ("australian",)}),
    OptionSpec("raise_reopens_on_denomination_change", bool, False, None,
               "A raise that changes the suit lets the players who passed bid again.",
               label="A raise in another suit reopens the bidding", group="game",
               when={"variation": ("australian",), "raise_own_bid": (True,)}),
    OptionSpec("nullo_mode", str, "anytime", ("off", "after_7", "anytime"),
               "When {misere} may be bid; after a 7 bid, open {misere} may still be bid any time.",
               label="{Misere}", group="misere",
               choice_labels={"off": "off", "after_7": "after a 7 bid", "anytime": "any time"},
               summary={"off": "no {misere}", "after_7": "{misere} {nullo_points}",
                        "anytime": "{misere} {nullo_points}"}),
    OptionSpec("nullo_points", int, 250, (210, 230, 250),
               "Won or lost; it also ranks the bid: 7NT beats 210, any 8 bid beats 230, 8♣ and up beat 250.",
               label="{Misere} points", group="misere", when=_NULLO_ON,
               choice_labels={210: "±210", 230: "±230", 250: "±250"}),
    OptionSpec("eight_spades_overbids_nullo", bool, True, None,
               "Every 8 bid, 8♠ included, beats a 250 {misere}.",
               label="8♠ overbids {misere}", group="misere",
               when={**_NULLO_ON, "nullo_points": (250,)}),
    OptionSpec("nullo_plays", str, "own_hand", ("own_hand", "both_hands"),
               "Own hand: the partner sits out. Both hands: the bidder also plays the partner's hand, face up.",
               label="{Misere} plays", group="misere", when=_NULLO_ON,
               choice_labels={"own_hand": "own hand", "both_hands": "both hands"}),
    OptionSpec("open_nullo_points", int, 500, (330, 430, 500, 520),
               "Won or lost; it also ranks the bid: any 9 bid beats 330, any 10 bid 430, only 10NT 500; "
               "nothing beats 520.",
               label="Open {misere} points", group="misere", when=_NULLO_ON,
               choice_labels={330: "±330", 430: "±430", 500: "±500", 520: "±520"}),
    OptionSpec("open_nullo_after_8", bool, False, None,
               "Open {misere} needs an earlier 8 bid (with {misere} after a 7 bid only).",
               label="Open {misere} after 8", group="misere", when={"nullo_mode": ("after_7",)}),
    OptionSpec("inkles_must_outrank", bool, True, None,
               "American: an inkle must outrank the inkles before it.",
               label="Inkles must outrank", group="play", when=_AMERICAN_ONLY),
    OptionSpec("inkle_seats", int, 2, (2, 3),
               "American: how many of the first speakers may inkle (3 only with six players).",
               label="Inkle seats", group="play", when=_AMERICAN_ONLY,
               choice_labels={2: "first 2 speakers", 3: "first 3 speakers"}),
    OptionSpec("all_pass_action", str, "redeal", ("redeal", "play_no_trumps"),
               "When nobody bids: redeal, or play the hand in no trumps at 10 points a trick.",
               label="When all pass", group="play",
               choice_labels={"redeal": "redeal", "play_no_trumps": "play no trumps"}),
    OptionSpec("joker_lead_suit_restriction", bool, False, None,
               "A joker led in no trumps may only name a suit its leader has not shown out of.",
               label="Led joker names a held suit", group="play"),
    OptionSpec("joker_low_in_misere", bool, False, None,
               "In {misere} the joker is the lowest card, never a winner.",
               label="Joker low in {misere}", group="misere", when=_NULLO_ON),
    OptionSpec("open_misere_expose", str, "before_lead", ("before_lead", "after_first_trick"),
               "When the open {misere} hand is laid face up.",
               label="Open {misere} hand shown", group="misere", when=_NULLO_ON,
               choice_labels={"before_lead": "before the lead", "after_first_trick": "after trick 1"}),
    OptionSpec("end_hand_when_decided", bool, False, None,
               "A {misere} hand stops as soon as the bidder takes a trick.",
               label="Stop a lost {misere} hand", group="misere", when=_NULLO_ON),
    OptionSpec("first_lead", str, "contractor", ("contractor", "eldest"),
               "Who leads to the first trick.",
               label="First lead", group="play",
               choice_labels={"contractor": "the contractor", "eldest": "left of the dealer"}),
    OptionSpec("misere_defender_points", str, "per_trick", ("per_trick", "none"),
               "What the defenders score for their tricks against {misere}.",
               label="Defenders against {misere}", group="misere", when=_NULLO_ON,
               choice_labels={"per_trick": "10 a trick", "none": "nothing"}),
    OptionSpec("breach_enabled", bool, False, None,
               "A defender may bet that the contract fails by 2 tricks or more.",
               label="Breach rule", group="breach", summary={True: "breach"}),
    # at most 1,000: twice the game (any positive number was taken before; issue 29)
    OptionSpec("breach_value", int, 100, None, "Points won or lost on a breach.",
               check=lambda v: v > 0 and v % 10 == 0, check_doc="must be a positive multiple of 10",
               label="Breach value", group="breach", when={"breach_enabled": (True,)}, bounds=(10, 1000, 10)),
    OptionSpec("breach_ban_any_level", bool, True, None,
               "A breached contractor of any level (not only 7) may not bid in the next hand.",
               label="Breached contractor sits out", group="breach", when={"breach_enabled": (True,)}),
    OptionSpec("win_threshold_inclusive", bool, True, None,
               "Yes: exactly 500 (or −500) ends the game. No: it must be passed.",
               label="Exactly 500 ends the game", group="scoring"),
    OptionSpec("simultaneous_out_rule", str, "highest_score_then_bidders",
               ("highest_score_then_bidders", "bidders_win"),
               "Several teams out in one hand: the highest score wins (the bidders on a tie), or the bidders.",
               label="Several teams out at once", group="scoring",
               choice_labels={"highest_score_then_bidders": "highest score", "bidders_win": "the bidders win"}),
    OptionSpec("max_deals", int, 0, None,
               "Stop after this many deals, the higher score winning (0: play until a team wins).",
               label="Deals at most", group="scoring", bounds=(0, 100, 1)),
]  # fmt: skip


def _defaults_for(chosen: Mapping[str, object]) -> dict[str, OptionValue]:
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
POPULAR: list[PopularRules] = [
    {"key": "american", "label": "American rules", "preset": "american", "options": {}},
    {"key": "australian", "label": "Australian rules", "preset": "australian", "options": {}},
]

SCHEMA = OptionSchema(
    specs=_SPECS,
    presets={"american": AMERICAN, "australian": AUSTRALIAN},
    defaults_for=_defaults_for,
    validate=_validate,
    popular=POPULAR,
    title="500",
    game="500",
    groups=GROUPS,
    preset_info={
        "american": PresetInfo(
            "American rules", "One round of bidding with inkles; {misere} any time; passing 500 wins."
        ),
        "australian": PresetInfo(
            "Australian rules", "Bidding goes round; {misere} after a 7 bid; you must bid to win."
        ),
    },
    varies_by="variation",
    terms=TERMS,
)


def resolve_options(preset: str | None = None, options: Mapping[str, object] | None = None) -> Options:
    """A complete 500 option set: ``preset`` then ``options`` then defaults."""
    return SCHEMA.resolve(preset, options)
