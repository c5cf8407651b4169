"""The one view function of 500: everything a seat (or a spectator) may see.

Every outgoing state — to a browser, a bot, a log or a replay viewer — is
made here.  Hidden: other players' hands unless exposed (open misère, the
partner's hand under ``nullo_plays = both_hands``), the kitty (seen only by
the contractor, once taken), the discards (the contractor's own).  Public:
the auction, the contract, breach calls, every card played, trick counts,
scores and the results of earlier deals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.core.cards import sort_cards
from trumps.core.json_types import JSONDict
from trumps.core.view import SUIT_CODES, current_trick, finished_tricks, seat_view
from trumps.five_hundred.deal import AUCTION, KITTY, PLAY

if TYPE_CHECKING:
    from trumps.five_hundred.game import FiveHundred

__all__ = ["view"]


def view(game: FiveHundred, seat: int | None) -> JSONDict:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator)."""
    d = game.deal
    name = game.seat_names.__getitem__
    contractor = d.contractor
    took_kitty = (
        contractor is not None
        and d.phase not in (AUCTION,)
        and (d.phase != "BREACH" or d.breach_window == 2)
        and not d.no_contract
    )
    play: JSONDict = {
        "banned": [name(s) for s in sorted(d.banned)],
        "contract": None
        if d.contract is None
        else {
            "call": str(d.contract),
            "seat": name(contractor or 0),
            "team": d.bidding_team,
            # what the contractor's side must take: the bid's tricks, or none in misère
            "goal": {
                "unit": "tricks",
                "need": 0 if d.contract.is_misere else d.contract.level,
                "misere": d.contract.is_misere,
            },
        },
        "no_contract": d.no_contract,
        "breach": None if d.breach_seat is None else name(d.breach_seat),
        "exposed": [name(s) for s in sorted(d.exposed)],
        "sitting_out": [name(s) for s in range(game.players) if s not in d.active],
        "trick": current_trick(d, name),
        "led_suit": SUIT_CODES[d.led] if d.trick and d.led < 4 else None,
        "tricks": finished_tricks(d, name, led_suit=True),
        "tricks_won": d.team_tricks(),
    }
    out = seat_view(
        game,
        seat,
        visible=d.visible_hands(seat),
        order=sort_cards,
        after_hand_sizes={"kitty_size": len(d.kitty)},
        play=play,
    )
    if seat is not None and seat == contractor and took_kitty:
        out["discards"] = [str(c) for c in d.discards]
        if d.phase == KITTY:
            out["kitty"] = [str(c) for c in d.kitty]
    if d.phase == PLAY and d.rules is not None:
        out["trump"] = None if d.rules.trump is None else d.rules.trump.code
    return out
