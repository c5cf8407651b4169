"""Suggestions with their reasons, and the post-game review.

The card room calls these; they take plain data, never a live game:

* :func:`explain` ranks the legal actions of one seat from that seat's
  view alone: for a card, each candidate's mean double-dummy value over the
  sampled deals (tricks, or coinche card points, of the declaring side) and
  the number of samples; for a bid, the bidding rule that chose it (bridge)
  or the simulated expected score of each candidate contract (500, coinche).
* :func:`suggest` is the level's choice plus that explanation.
* :func:`review` replays a finished game's record and marks every card
  played with what it cost double dummy (0 for a best card), from the full
  deal: this is after the game, so every hand is open.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TypedDict

import trumps
from trumps.bots.base import BotError
from trumps.bots.bidsim import Reason
from trumps.bots.levels import PimcBot, card_actions
from trumps.bots.registry import bot_for
from trumps.bots.sampling import SamplingError
from trumps.core.json_types import JSONObject
from trumps.core.protocol import Deal, Match, read_record
from trumps.solver import SearchLimit

__all__ = ["EXPLAIN_BID_SAMPLES", "Reason", "ReviewRow", "Suggestion", "explain", "review", "suggest"]

#: Deals simulated to explain a 500 / coinche bid when the level itself bids by rule.
EXPLAIN_BID_SAMPLES = 6


class Suggestion(TypedDict):
    """:func:`suggest`: the level's action (of the kind the legal actions
    were given in) and :func:`explain`'s ranking as its reasons."""

    action: object
    reasons: list[Reason]


class ReviewRow(TypedDict):
    """One card played, in :func:`review`."""

    index: int
    deal: int
    seat: str
    card: str
    cost: float | None
    value: float | None
    best: list[str]
    unit: str


def _level_bot(game: str, level: str) -> PimcBot:
    bot = bot_for(game, level if level in ("normal", "strong") else "normal")
    assert isinstance(bot, PimcBot)
    return bot


def _decision(
    game: str | Match[Deal], view: JSONObject | None, legal: Sequence[object] | None
) -> tuple[str, JSONObject, list[str]]:
    """The game's name, the view and the legal notations of one decision.

    ``game`` is a game's name or a live game; with a live game, ``view`` and
    ``legal`` default to the seat to act's (so ``suggest(game)`` works), and
    ``legal`` may hold the engine's action objects or their notations."""
    if isinstance(game, Match):
        name = game.game
        if view is None:
            view = game.view(game.deal.to_act if not game.is_over else None)
        if legal is None:
            legal = game.legal_actions()
    else:
        name = trumps.game_class(game).game
    if view is None or legal is None:
        raise BotError("give the view and the legal actions, or a live game")
    return name, view, [a if type(a) is str else str(a) for a in legal]


def explain(
    game: str | Match[Deal],
    view: JSONObject | None = None,
    legal: Sequence[object] | None = None,
    level: str = "normal",
    rng: random.Random | None = None,
) -> list[Reason]:
    """The candidates of this decision, best first.

    ``game`` is a game's name (then ``view`` and ``legal`` say the decision)
    or a live game (then they default to the seat to act's); ``legal`` may
    be action objects or notations, and the rows name actions by notation.

    Card play: ``[{"action", "value", "samples", "unit"}]`` with ``value``
    the mean final total of the declaring side (``unit`` "tricks" or
    "points") over ``samples`` deals consistent with the view, and
    ``"maximising"`` telling whether this seat wants it high.  Bidding:
    ``[{"action", "value", "samples", "unit", "reason"}]`` where bridge gives
    the rule of the system (value ``None``), and 500 / coinche their
    simulated expected deal score (ours minus theirs) per candidate with
    ``"make"`` the fraction of samples in which it makes (see
    :mod:`trumps.bots.bidsim`; only the candidates the simulation finds
    sound are listed, the pass always).  Raises :class:`BotError` with no legal action.
    """
    name, view, legal = _decision(game, view, legal)
    if not legal:
        raise BotError("no legal action to explain")
    rng = rng if rng is not None else random.Random(0)
    bot = _level_bot(name, level)
    phase = str(view.get("phase", "")).upper()
    if phase == "PLAY":
        cards = card_actions(legal)
        if not cards:
            return [{"action": a, "value": None, "samples": 0, "unit": None} for a in legal]
        try:
            ev = bot.evaluate(view, cards, rng)
        except (SamplingError, SearchLimit):
            return [{"action": a, "value": None, "samples": 0, "unit": None} for a in cards]
        return [
            {
                "action": r["action"],
                "value": r["value"],
                "samples": r["samples"],
                "unit": ev.unit,
                "maximising": ev.maximising,
            }
            for r in ev.ranked()
        ]
    spec = trumps.game_spec(name)
    explainer = spec.hook("system_explainer")
    if explainer is not None and phase == "AUCTION":
        chosen, rule = explainer(view, legal)
        return [{"action": chosen, "value": None, "samples": 0, "unit": None, "reason": rule}]
    if spec.has("bid_simulation") and phase == "AUCTION":
        # the level's own sample count for this game
        samples = bot.bid_samples(name) or EXPLAIN_BID_SAMPLES
        rows: list[Reason] = bot.simulation_bidder(name, samples).explain(view, legal, rng)
        return rows
    chosen = bot.bidder(name).choose(view, legal, rng)
    return [{"action": chosen, "value": None, "samples": 0, "unit": None, "reason": "rule-based"}]


def suggest(
    game: str | Match[Deal],
    view: JSONObject | None = None,
    legal: Sequence[object] | None = None,
    level: str = "normal",
    rng: random.Random | None = None,
) -> Suggestion:
    """``{"action", "reasons"}``: the level's choice from this view, with
    :func:`explain`'s ranking as its reasons (same seed, same answer).
    Takes what :func:`explain` takes; ``action`` is of the kind ``legal``
    holds (an action object when given objects or a live game, else a
    notation)."""
    if isinstance(game, Match) and legal is None:
        legal = game.legal_actions()
    given = list(legal) if legal is not None else None
    name, view, notations = _decision(game, view, given)
    action, reasons = _suggest(name, view, notations, level, rng)
    if given is not None and any(type(a) is not str for a in given):
        return {"action": given[notations.index(action)], "reasons": reasons}
    return {"action": action, "reasons": reasons}


def _suggest(
    game: str, view: JSONObject, legal: list[str], level: str, rng: random.Random | None
) -> tuple[str, list[Reason]]:
    seed = (rng if rng is not None else random.Random(0)).getrandbits(64)
    reasons = explain(game, view, legal, level, random.Random(seed))
    # 500's simulation keeps the rule call unless another is clearly better,
    # so there the level's own choice is asked for, not the ranking's first
    simulated = trumps.game_spec(game).suggest_ranked_bid
    if (
        simulated
        and str(view.get("phase", "")).upper() == "AUCTION"
        and reasons
        and reasons[0].get("value") is not None
    ):
        # a simulated bid: suggest what the reasons rank first
        return reasons[0]["action"], reasons
    bot = _level_bot(trumps.game_class(game).game, level)
    action = bot.choose(view, list(legal), random.Random(seed))
    if all(r.get("action") != action for r in reasons):
        # a bid chosen by rule that the simulation did not rank: the reasons
        # must still name the suggested action, so "why?" can show it
        reasons = [
            {
                "action": action,
                "value": None,
                "samples": 0,
                "unit": None,
                "reason": "the bot's rule-based choice",
            },
            *reasons,
        ]
    return action, reasons


def review(record: Mapping[str, object] | str) -> list[ReviewRow]:
    """Every card played in a game record with its double-dummy cost.

    Returns ``[{"index", "deal", "seat", "card", "cost", "value", "best",
    "unit"}]`` in play order: ``index`` is the action's position in the
    record's ``actions``, ``deal`` the deal number (1-based), ``value`` the
    final total of the declaring side the card leads to with best play
    afterwards, ``best`` the optimal cards, and ``cost`` how much worse the
    card is than the best for the side that played it (0 for a best or a
    forced card; ``None``, with no ``best``, when no solver could take the
    position), in ``unit`` ("tricks" or "points")."""
    from trumps.bots.solving import SolveError, solve_values

    data = read_record(record)
    cls = trumps.game_class(str(data.get("game")))
    match = cls._from_record(data)
    out: list[ReviewRow] = []
    for i, entry in enumerate(data.get("actions", [])):
        action = str(entry["action"])
        deal = match.deal
        seat = match.to_act_index
        hand = deal.hand_to_play
        if (
            hand is not None
            and seat is not None
            and deal.phase == "PLAY"
            and not match.is_over
            and card_actions([action])
        ):
            legal = [str(a) for a in match.legal_actions()]
            vals = None
            unsolved = False
            if action in legal and len(card_actions(legal)) > 1:
                try:
                    vals = solve_values(match)
                except SolveError:  # only without any solver installed
                    vals, unsolved = None, True
            if vals is not None:
                v = vals.values.get(action)
                if v is not None:
                    top = max(vals.values.values()) if vals.maximising else min(vals.values.values())
                    cost = (top - v) if vals.maximising else (v - top)
                    out.append(
                        {
                            "index": i,
                            "deal": match.deal_number + 1,
                            "seat": match.seat_name(hand),
                            "card": action,
                            "cost": cost,
                            "value": v,
                            "best": [a for a, x in vals.values.items() if x == top],
                            "unit": vals.unit,
                        }
                    )
            elif action in legal:
                out.append(
                    {
                        "index": i,
                        "deal": match.deal_number + 1,
                        "seat": match.seat_name(hand),
                        "card": action,
                        # a forced card costs nothing; one no solver could take is not analysed
                        "cost": None if unsolved else 0,
                        "value": None,
                        "best": [] if unsolved else [action],
                        "unit": trumps.game_spec(match.game).solver_unit,
                    }
                )
        match.apply(action, entry["seat"])
    return out
