"""The part of every game's view that is the same for all games.

A view (``Match.view(seat)``) is the JSON a seat may see.  Its frame — who
is playing, the options, the deal's phase and dealer, whose turn it is, the
hands the seat may see, the auction, the trick on the table and the tricks
taken, the scores and the legal actions of the seat to act — is built here
once; a game's ``view.py`` adds only what its rules have (500's kitty and
misère exposure, bridge's dummy and claims, coinche's belote and melds).

The keys come out in the order the pages and stored logs have always had,
with each game's own keys at fixed points of the frame, so a view's JSON is
the same byte for byte as when each game wrote the whole of it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from trumps.core.cards import Card
from trumps.core.json_types import JSON, JSONDict
from trumps.core.protocol import Deal, Match
from trumps.core.trick import TrickPlay

__all__ = ["SUIT_CODES", "current_trick", "finished_tricks", "seat_view"]

SUIT_CODES = "SHDC"  # a suit number (0-3) as the views write it

Extra = Mapping[str, JSON]
_NONE: Extra = {}


def seat_view(
    game: Match[Deal],
    seat: int | None,
    *,
    visible: Collection[int],
    play: Extra,
    order: Callable[[Iterable[Card]], list[Card]] = list,
    after_options: Extra = _NONE,
    after_deal_number: Extra = _NONE,
    after_dealer: Extra = _NONE,
    after_hand_sizes: Extra = _NONE,
) -> dict[str, Any]:
    """The view frame of ``game`` for ``seat`` (``None``: a spectator).

    ``visible`` are the seats whose hands the viewer sees (in ``order``);
    ``play`` is the game's middle part (contract, trick, tricks, ...) placed
    after the auction; the ``after_*`` mappings are the game's keys placed
    after the frame's key of that name."""
    d: Any = game.deal
    name = game.seat_names.__getitem__
    players = game.players
    hands = d.hands
    out: JSONDict = {
        "game": game.game,
        "seat": None if seat is None else name(seat),
        "players": players,
        "seats": [name(s) for s in range(players)],
        "teams": [[name(s) for s in team] for team in game.teams],
        "options": game.options.to_dict(),
        **after_options,
        "deal_number": game.deal_number + 1,
        **after_deal_number,
        "phase": game.phase,
        "dealer": name(d.dealer),
        **after_dealer,
        "to_act": None if game.to_act_index is None else name(game.to_act_index),
        "hand_to_play": None if game.is_over or d.hand_to_play is None else name(d.hand_to_play),
        "hands": {
            name(s): ([str(c) for c in order(hands[s])] if s in visible else None) for s in range(players)
        },
        "hand_sizes": {name(s): len(hands[s]) for s in range(players)},
        **after_hand_sizes,
        "auction": [{"seat": name(s), "call": str(c)} for s, c in d.auction.calls],
        **play,
        "scores": list(game.totals),
        "results": [dict(r) for r in game.results],
        "over": game.is_over,
        "winner": game.winner,
        "legal": [],
    }
    if seat is not None and seat == game.to_act_index:
        out["legal"] = [str(a) for a in game.legal_actions()]
    return out


def current_trick(d: TrickPlay, name: Callable[[int], str]) -> list[dict[str, str]]:
    """The cards on the table, in play order, with their seats."""
    return [{"seat": name(s), "card": str(c)} for s, c in zip(d.trick_seats, d.trick, strict=True)]


def finished_tricks(d: TrickPlay, name: Callable[[int], str], *, led_suit: bool = False) -> list[JSONDict]:
    """Every finished trick (with its led suit where the game shows it)."""
    return [t.to_json(name, led_suit=led_suit) for t in d.tricks]
