"""500 as the registry sees it (:class:`~trumps.core.spec.GameSpec`).

Cheap to import: the code it names is loaded on first use."""

from __future__ import annotations

from trumps.core.cards import Card
from trumps.core.decks import deck_500
from trumps.core.options import Options
from trumps.core.spec import GameSpec

__all__ = ["SPEC", "deck", "match_format"]


def deck(options: Options) -> list[Card]:
    """Every card of a 500 deal under ``options`` (43 to 66 cards)."""
    players = 4 if options.players == "2v2" else 6
    return deck_500(players, int(options.kitty_size))


def match_format(options: Options) -> str:
    op = ">=" if options.win_threshold_inclusive else ">"
    return f"to 500 points (out at {op} 500 or {'<=' if op == '>=' else '<'} -500)"


SPEC = GameSpec(
    name="500",
    aliases=("five_hundred", "fivehundred"),
    title="500",
    noun="500",
    match="trumps.five_hundred.game:FiveHundred",
    deck="trumps.five_hundred.spec:deck",
    notation="trumps.five_hundred.calls:Call.parse",
    view="trumps.five_hundred.view:view",
    presentation="trumps.five_hundred.presentation:presentation",
    solver="trumps.solver.position:read_five_hundred",
    sampling="trumps.bots.inference:FIVE_HUNDRED",
    rule_bot="trumps.bots.five_hundred:FiveHundredRuleBot",
    cli="trumps.cli.games.five_hundred",
    bid_simulation="trumps.bots.bidsim:FIVE_HUNDRED",
    bid_budget="bid_samples_500",
    match_format="trumps.five_hundred.spec:match_format",
    rl_actions="trumps.envs.encoding:five_hundred_actions",
    seat_counts=(4, 6),
    arena_measures=("points",),
    tournament_scorings=("matchpoints",),
    deal_par="trumps.five_hundred.par:deal_par",
    daily_tournament=("american", 6),
    sample_contracts=("6S", "7H", "8D", "9C", "10S", "6NT", "8NT", "MIS", "OMIS"),
    sample_options=(
        {},
        {"kitty_size": 5},
        {"kitty_size": 6},
        {"players": "2v2v2"},
        {"players": "3v3"},
        {"players": "2v2v2", "kitty_size": 6},
        {"nullo_plays": "both_hands"},
        {"joker_low_in_misere": True},
        {"joker_low_in_misere": True, "kitty_size": 6},
        {"joker_lead_suit_restriction": True, "kitty_size": 6},
        {"end_hand_when_decided": True},
    ),
    max_game_length=66 + 400 + 6 + 66,
    reward_scales={"score": 1500.0, "tricks": 13.0},
)
