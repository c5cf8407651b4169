"""The one view function of coinche: everything a seat (or a spectator) may
see (docs/rules/coinche.md §17 information model).

Hidden: other players' hands, the melds a player committed (until the
winning side's melds are shown at trick 2 — each player sees their own).
Public: the auction, the contract, every card played, belote announcements
as they are made, the meld value announcements and "How high?" answers, the
winning side's melds from trick 2, scores and earlier results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.coinche.calls import DENOM_CODES, Call
from trumps.coinche.deal import AUCTION
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.view import SUIT_CODES, current_trick, finished_tricks, seat_view

if TYPE_CHECKING:
    from trumps.coinche.game import Coinche

__all__ = ["view"]


def view(game: Coinche, seat: int | None) -> JSONDict:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator)."""
    d = game.deal
    name = game.seat_names.__getitem__
    contract: JSONDict | None = None
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
    play: JSONDict = {
        "contract": contract,
        "trump": None if d.rules is None or d.rules.trump < 0 else SUIT_CODES[d.rules.trump],
        "exposed": [],
        "trick": current_trick(d, name),
        "tricks": finished_tricks(d, name),
        "tricks_won": d.team_tricks(),
        "card_points": list(d.card_points) if d.phase != AUCTION else [0, 0],
        "belote": [
            {"seat": name(s), "suit": SUIT_CODES[suit], "call": call} for s, suit, call in d.belote_events
        ],
        "melds": _melds(game, seat),
    }
    return seat_view(
        game,
        seat,
        visible=() if seat is None else (seat,),
        after_options={"direction": game.options.direction},
        after_dealer={"eldest": name(d.eldest)},
        play=play,
    )


def _melds(game: Coinche, seat: int | None) -> JSONDict | None:
    d = game.deal
    if game.options.melds == "none":
        return None
    name = game.seat_names.__getitem__
    announced: list[JSONDict] = [
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
    out: JSONDict = {
        "announcements": announced,
        "winner": d.meld_team if d.melds_done and d.tricks else None,
        "shown": shown,
        "points": d.meld_points() if d.melds_done and d.tricks else [0, 0],
    }
    if seat is not None and seat in d.declared:
        out["mine"] = [str(m) for m in d.declared[seat].melds]
    return out


def _goal(o: Options, bid: Call) -> JSONDict:
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
