"""The one view function of bridge: everything a seat (or a spectator) may
see (docs/rules/bridge.md §3 rule 2).

Hidden: other players' hands, except dummy's once the opening lead is
faced (dummy itself then sees nothing more than anyone else plus its own
hand).  Public: the auction, the contract, every card played, trick
counts, scores and earlier results.  Keys mirror the 500 view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trumps.bridge.deal import PLAY

if TYPE_CHECKING:
    from trumps.bridge.game import Bridge

__all__ = ["view"]

_VUL = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}


def view(game: Bridge, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``game`` for ``seat`` (``None``: spectator)."""
    d = game.deal
    name = game.seat_names.__getitem__
    visible = d.visible_hands(seat)
    hands: dict[str, Any] = {
        name(s): ([str(c) for c in d.hands[s]] if s in visible else None) for s in range(4)
    }
    contract = d.contract
    out: dict[str, Any] = {
        "game": game.game,
        "seat": None if seat is None else name(seat),
        "players": 4,
        "seats": ["N", "E", "S", "W"],
        "teams": [["N", "S"], ["E", "W"]],
        "options": game.options.to_dict(),
        "scoring": game.form,
        "deal_number": game.deal_number + 1,
        "board": game.options.board or None,
        "phase": game.phase,
        "dealer": name(d.dealer),
        "vulnerable": _VUL[d.vulnerable],
        "to_act": None if game.to_act is None else name(game.to_act),
        "hand_to_play": None if game.is_over or d.hand_to_play is None else name(d.hand_to_play),
        "hands": hands,
        "hand_sizes": {name(s): len(d.hands[s]) for s in range(4)},
        "auction": [{"seat": name(s), "call": str(c)} for s, c in d.auction.calls],
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
        "trick": [{"seat": name(s), "card": str(c)} for s, c in zip(d.trick_seats, d.trick, strict=True)],
        "led_suit": "SHDC"[d.led] if d.trick else None,
        "tricks": [
            {"leader": name(leader), "cards": [str(c) for c in cards], "winner": name(winner)}
            for leader, cards, winner in d.tricks
        ],
        "tricks_won": list(d.won),
        "claim": None
        if d.claim_state is None
        else {"seat": name(d.claim_state[0]), "tricks": d.claim_state[1]},
        "scores": list(game.totals),
        "results": [dict(r) for r in game.results],
        "over": game.is_over,
        "winner": game.winner,
        "legal": [],
    }
    if game.rubber is not None:
        out["games"] = list(game.rubber.games)
        out["below_line"] = list(game.rubber.below_current)
    if seat is not None and seat == game.to_act:
        out["legal"] = [str(a) for a in game.legal_actions()]
    if d.phase == PLAY and contract is not None:
        out["trump"] = None if contract.trump is None else contract.trump.code
    return out
