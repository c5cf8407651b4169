"""The one view function of coinche: everything a seat (or a spectator) may
see (docs/rules/coinche.md §17 information model).

Hidden: other players' hands, the melds a player committed (until the
winning side's melds are shown at trick 2 — each player sees their own).
Public: the auction, the contract, every card played, belote announcements
as they are made, the meld value announcements and "How high?" answers, the
winning side's melds from trick 2, scores and earlier results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trumps.coinche.calls import DENOM_CODES
from trumps.coinche.deal import AUCTION

if TYPE_CHECKING:
    from trumps.coinche.game import Coinche

__all__ = ["view"]

_SUITS = "SHDC"


def view(game: Coinche, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator)."""
    d = game.deal
    name = game.seat_names.__getitem__
    hands: dict[str, Any] = {name(s): None for s in range(4)}
    if seat is not None:
        hands[name(seat)] = [str(c) for c in d.hands[seat]]
    contract = None
    if d.contract is not None and d.taker is not None:
        contract = {
            "call": str(d.contract),
            "bid": str(d.contract.bid),
            "level": d.contract.level,
            "denom": DENOM_CODES[d.contract.denom],
            "seat": name(d.taker),
            "team": d.taker % 2,
            "goal": _goal(game.options, d.contract.bid),
        }
    out: dict[str, Any] = {
        "game": game.game,
        "seat": None if seat is None else name(seat),
        "players": 4,
        "seats": [name(s) for s in range(4)],
        "teams": [[name(s) for s in team] for team in game.teams],
        "options": game.options.to_dict(),
        "direction": game.options.direction,
        "deal_number": game.deal_number + 1,
        "phase": game.phase,
        "dealer": name(d.dealer),
        "eldest": name(d.eldest),
        "to_act": None if game.to_act is None else name(game.to_act),
        "hand_to_play": None if game.is_over or d.hand_to_play is None else name(d.hand_to_play),
        "hands": hands,
        "hand_sizes": {name(s): len(d.hands[s]) for s in range(4)},
        "auction": [{"seat": name(s), "call": str(c)} for s, c in d.auction.calls],
        "contract": contract,
        "trump": None if d.rules is None or d.rules.trump < 0 else _SUITS[d.rules.trump],
        "exposed": [],
        "trick": [{"seat": name(s), "card": str(c)} for s, c in zip(d.trick_seats, d.trick, strict=True)],
        "tricks": [
            {"leader": name(leader), "cards": [str(c) for c in cards], "winner": name(winner)}
            for leader, cards, winner in d.tricks
        ],
        "tricks_won": d.team_tricks(),
        "card_points": list(d.card_points) if d.phase != AUCTION else [0, 0],
        "belote": [
            {"seat": name(s), "suit": _SUITS[suit], "call": call} for s, suit, call in d.belote_events
        ],
        "melds": _melds(game, seat),
        "scores": list(game.totals),
        "results": [dict(r) for r in game.results],
        "over": game.is_over,
        "winner": game.winner,
        "legal": [],
    }
    if seat is not None and seat == game.to_act:
        out["legal"] = [str(a) for a in game.legal_actions()]
    return out


def _melds(game: Coinche, seat: int | None) -> dict[str, Any] | None:
    d = game.deal
    if game.options.melds == "none":
        return None
    name = game.seat_names.__getitem__
    announced = [
        {
            "seat": name(a["seat"]),
            "value": a["value"],
            **({"how_high": {name(k): v for k, v in a["how_high"].items()}} if "how_high" in a else {}),
        }
        for a in d.meld_announcements()
    ]
    shown: dict[str, list[str]] = {}
    if d.melds_done and d.meld_team is not None and d.tricks:
        for s, decl in d.meld_order:
            if s % 2 == d.meld_team and decl.melds:
                shown[name(s)] = [str(m) for m in decl.melds]
    out: dict[str, Any] = {
        "announcements": announced,
        "winner": d.meld_team if d.melds_done and d.tricks else None,
        "shown": shown,
        "points": d.meld_points() if d.melds_done and d.tricks else [0, 0],
    }
    if seat is not None and seat in d.declared:
        out["mine"] = [str(m) for m in d.declared[seat].melds]
    return out


def _goal(o: Any, bid: Any) -> dict[str, Any]:
    """What the taker's side must reach (§11, as :func:`contract_made` decides):
    every trick for a capot (the taker alone for a générale), else card points."""
    if bid.kind == "CAPOT":
        return {"unit": "tricks", "need": 8}
    if bid.kind == "GENERALE":
        return {"unit": "tricks", "need": 8, "alone": True}
    need = bid.value + 2 if o.contract_threshold == "plus_two" else bid.value
    if o.min_82_for_80 and not o.must_beat_opponents:
        need = max(need, 82)
    return {"unit": "points", "need": need, "beat_opponents": bool(o.must_beat_opponents)}
