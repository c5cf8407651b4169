"""The one view function of bridge: everything a seat (or a spectator) may
see (docs/rules/bridge.md §3 rule 2).

Hidden: other players' hands, except dummy's once the opening lead is
faced (dummy itself then sees nothing more than anyone else plus its own
hand).  Public: the auction, the contract, every card played, trick
counts, scores and earlier results.  Keys mirror the 500 view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.bridge.deal import PLAY
from trumps.core.json_types import JSONDict
from trumps.core.view import SUIT_CODES, current_trick, finished_tricks, seat_view

if TYPE_CHECKING:
    from trumps.bridge.game import Bridge

__all__ = ["view"]

_VUL = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}


def view(game: Bridge, seat: int | None) -> JSONDict:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator)."""
    d = game.deal
    name = game.seat_names.__getitem__
    contract = d.contract
    play: JSONDict = {
        "contract": None
        if contract is None or d.declarer is None
        else {
            "call": str(contract),
            "seat": name(d.declarer),
            "declarer": name(d.declarer),
            "dummy": name((d.declarer + 2) & 3),
            "team": d.declarer & 1,
            "goal": {"unit": "tricks", "need": contract.level + 6},
        },
        "exposed": [name(s) for s in sorted(d.exposed)],
        "trick": current_trick(d, name),
        "led_suit": SUIT_CODES[d.led] if d.trick else None,
        "tricks": finished_tricks(d, name),
        "tricks_won": d.team_tricks(),
        "claim": None
        if d.claim_state is None
        else {"seat": name(d.claim_state[0]), "tricks": d.claim_state[1]},
    }
    out = seat_view(
        game,
        seat,
        visible=d.visible_hands(seat),
        after_options={"scoring": game.form},
        after_deal_number={"board": game.options.board or None},
        after_dealer={"vulnerable": _VUL[d.vulnerable]},
        play=play,
    )
    if game.rubber is not None:
        out["games"] = list(game.rubber.games)
        out["below_line"] = list(game.rubber.below_current)
    if d.phase == PLAY and contract is not None:
        out["trump"] = None if contract.trump is None else contract.trump.code
    return out
