"""Contract Bridge as the registry sees it (:class:`~trumps.core.spec.GameSpec`).

Cheap to import: the code it names is loaded on first use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from trumps.core.cards import Card
from trumps.core.decks import deck_bridge
from trumps.core.errors import OptionError
from trumps.core.options import Options
from trumps.core.spec import GameSpec

__all__ = ["SPEC", "arena_gains", "deck", "match_format", "match_options"]


def deck(options: object) -> list[Card]:
    """The 52 cards (every option set deals them all)."""
    return deck_bridge()


def arena_gains(results: list[dict[str, Any]]) -> dict[str, float]:
    """One board at two tables, seats swapped (A is North-South at the first,
    East-West at the second): A's gain in IMPs."""
    from trumps.bridge.duplicate import team_imps

    t1, t2 = results
    return {"imps": float(team_imps(int(t1["points"][0]), int(t2["points"][0])))}


def match_options(options: Mapping[str, object]) -> dict[str, object]:
    """A whole bridge match is a rubber unless ``scoring`` says Chicago; a
    duplicate board is one deal, not a match."""
    opts = dict(options)
    opts.setdefault("scoring", "rubber")
    if str(opts["scoring"]).strip().lower() not in ("rubber", "chicago"):
        raise OptionError(
            f"a bridge match is a rubber or a Chicago round, not scoring={opts['scoring']} "
            "(a duplicate board is one deal: use --deals)"
        )
    return opts


def tournament_deal(options: Mapping[str, object], k: int, scoring: str) -> dict[str, object]:
    """Deal ``k`` of a duplicate tournament: board ``k + 1``, whose number
    sets the dealer and the vulnerability, scored for comparison by
    matchpoints or IMPs."""
    if any(name in options for name in ("scoring", "board", "vulnerability")):
        raise OptionError(
            "a bridge tournament numbers its own boards: no scoring, board or vulnerability option"
        )
    return {**options, "scoring": "duplicate_imp" if scoring == "imps" else "duplicate_mp", "board": k + 1}


def deal_par(match: Any) -> dict[str, object]:
    """The double-dummy par of a match's first deal (DDS's where endplay is
    installed, else the project's own): the score per side (NS, EW) and the
    par contracts with their declarers ("4HX by N, -1")."""
    from trumps.bridge.dd import par

    d = match.deal
    vul = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}[
        d.vulnerable
    ]
    got = par(d.dealt, vulnerable=vul, dealer=d.dealer)
    contracts = [f"{c} {seat}" + (f" {r:+d}" if r else "") for c, seat, r in got.contracts]
    return {"scores": [got.score, -got.score], "contracts": contracts}


def match_format(options: Options) -> str:
    return "Chicago (four deals)" if options.scoring == "chicago" else "rubber"


SPEC = GameSpec(
    name="bridge",
    title="Bridge",
    noun="bridge",
    match="trumps.bridge.game:Bridge",
    deck="trumps.bridge.spec:deck",
    notation="trumps.bridge.calls:Call.parse",
    view="trumps.bridge.view:view",
    presentation="trumps.bridge.presentation:presentation",
    solver="trumps.solver.position:read_bridge",
    dds_solver="trumps.bots.solving:bridge_dds",
    sampling="trumps.bots.inference:BRIDGE",
    rule_bot="trumps.bots.bridge:BridgeRuleBot",
    system_bidder="trumps.bots.sayc:SaycBot",
    system_explainer="trumps.bots.sayc:choose_call",
    cli="trumps.cli.games.bridge",
    pbn="trumps.bridge.pbn",
    arena_gains="trumps.bridge.spec:arena_gains",
    match_options="trumps.bridge.spec:match_options",
    match_format="trumps.bridge.spec:match_format",
    deal_notation=True,
    arena_measures=("imps",),
    tournament_scorings=("matchpoints", "imps"),
    tournament_deal="trumps.bridge.spec:tournament_deal",
    deal_par="trumps.bridge.spec:deal_par",
    daily_tournament=(None, 8),
    sample_contracts=("1S", "2H", "3D", "4C", "3NT"),
    max_game_length=52 + 319 + 52,
    reward_scales={"score": 7600.0, "imps": 24.0, "tricks": 13.0},
)
