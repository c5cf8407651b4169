"""What one seat of Toy Tricks sees: its own hand, the tricks, the scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toygame.game import ToyTricks


def view(game: ToyTricks, seat: int | None) -> dict[str, Any]:
    d = game.deal
    names = game.seat_names
    over = game.is_over
    mine = seat is not None and not over and d.to_act == seat
    return {
        "game": game.game,
        "seat": None if seat is None else names[seat],
        "players": 4,
        "seats": list(names),
        "teams": [[names[s] for s in t] for t in game.teams],
        "options": game.options.to_dict(),
        "deal_number": game.deal_number + 1,
        "phase": game.phase,
        "dealer": names[d.dealer],
        "to_act": None if over or d.to_act is None else names[d.to_act],
        "hand_to_play": None if over or d.hand_to_play is None else names[d.hand_to_play],
        "hands": {names[s]: ([str(c) for c in h] if s == seat else None) for s, h in enumerate(d.hands)},
        "hand_sizes": {names[s]: len(h) for s, h in enumerate(d.hands)},
        "auction": [],
        "contract": None,
        "exposed": [],
        "trick": [{"seat": names[s], "card": str(c)} for s, c in zip(d.trick_seats, d.trick, strict=True)],
        "led_suit": "SHDC"[d.led] if d.trick and 0 <= d.led < 4 else None,
        "tricks": [
            {"leader": names[lead], "cards": [str(c) for c in cards], "winner": names[win]}
            for lead, cards, win in d.tricks
        ],
        "tricks_won": list(d.won),
        "scores": list(game.totals),
        "results": [dict(r) for r in game.results],
        "over": over,
        "winner": game.winner,
        "legal": [str(a) for a in game.legal_actions()] if mine else [],
    }
