"""Belote Coinche as the registry sees it (:class:`~trumps.core.spec.GameSpec`).

Cheap to import: the code it names is loaded on first use."""

from __future__ import annotations

from typing import Any

from trumps.core.cards import Card
from trumps.core.decks import deck_coinche
from trumps.core.options import Options
from trumps.core.spec import GameSpec

__all__ = ["SPEC", "arena_gains", "deck", "match_format"]


def deck(options: object) -> list[Card]:
    """The 32-card piquet deck (every option set deals it)."""
    return deck_coinche()


def arena_gains(results: list[dict[str, Any]]) -> dict[str, float]:
    """One deal at two tables, seats swapped: the deal's score and its card
    points, side A minus side B, averaged over the two tables (a deal thrown
    in has no card points: zero each)."""
    t1, t2 = results

    def diff(key: str) -> float:
        p1, p2 = t1.get(key) or (0, 0), t2.get(key) or (0, 0)
        return ((p1[0] - p1[1]) + (p2[1] - p2[0])) / 2

    return {"deal_score": diff("points"), "card_points": diff("card_points")}


def match_format(options: Options) -> str:
    return f"to {int(options.target_score)} points ({options.target_rule})"


SPEC = GameSpec(
    name="coinche",
    aliases=("belote",),
    title="Coinche",
    noun="coinche",
    match="trumps.coinche.game:Coinche",
    deck="trumps.coinche.spec:deck",
    notation="trumps.coinche.calls:Call.parse",
    view="trumps.coinche.view:view",
    presentation="trumps.coinche.presentation:presentation",
    solver="trumps.solver.position:read_coinche",
    sampling="trumps.bots.inference:COINCHE",
    rule_bot="trumps.bots.coinche:CoincheRuleBot",
    cli="trumps.cli.games.coinche",
    bid_simulation="trumps.bots.bidsim:COINCHE",
    suggest_ranked_bid=True,
    match_format="trumps.coinche.spec:match_format",
    rl_actions="trumps.envs.encoding:coinche_actions",
    view_names_led_suit=False,
    solver_unit="points",
    outside_engines=("colver",),
    arena_gains="trumps.coinche.spec:arena_gains",
    arena_measures=("deal_score", "card_points"),
    tournament_scorings=("matchpoints",),
    daily_tournament=("contree_exact", 8),
    deal_par="trumps.coinche.par:deal_par",
    capot_objective=True,
    sample_contracts=("80S", "90H", "100D", "110C", "90NT", "100AT"),
    sample_options=(
        {},
        {"partner_exempt_on_trump_lead": True},
        {"must_undertrump": False},
        {"partner_master_exemption": False},
        {"partner_master_trump_must_overtrump": True},
        {"partner_master_exemption": False, "must_undertrump": False},
        {"direction": "clockwise"},
        {"nt_values": "plain", "at_values": "plain"},
    ),
    max_game_length=32 + 400 + 4 + 32,
    reward_scales={"score": 10000.0, "tricks": 8.0, "card_points": 1000.0},
)
