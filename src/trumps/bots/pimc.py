"""Perfect-information Monte Carlo card play, the same for every game.

For one decision in trick play:

1. read what the seat knows (:func:`trumps.bots.sampling.knowledge`);
2. deal the unseen cards at random, consistently with it;
3. rebuild that deal as an engine match at the start of its play phase
   (:func:`world`) and replay every card played so far: a sampled deal on
   which a past card would have been illegal is thrown away, which enforces
   every rule of the game the sampler does not model itself;
4. solve the position double dummy (:func:`trumps.bots.solving.solve_values`);
5. average each legal card's value over the samples.

The seat then plays the card with the best average (the declaring side
maximises its total, the defenders minimise it; a 500 misère contractor
minimises).  All chance comes from one number drawn from the caller's
``rng``, so a seed gives the same decision.  The budget of a decision is a
number of samples and of solver nodes (both deterministic); the wall-clock
cap only cuts a decision short on an overloaded machine.  A ``limit`` on
one search's nodes keeps a rare deal whose search runs long from holding
the solver (one search per processor at once) for minutes: past it that sample is
dropped, and with no sample solved the decision raises ``SearchLimit``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

import trumps
from trumps.bots.sampling import PILE, SamplingError, knowledge
from trumps.bots.solving import Values, solve_values, solver_name
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Deal, Match
from trumps.solver import SearchLimit

__all__ = ["Evaluation", "Ranked", "card_of", "evaluate", "world"]


class Ranked(TypedDict):
    """One action of :meth:`Evaluation.ranked`: its mean value over the samples."""

    action: str
    value: float
    samples: int


@dataclass(frozen=True)
class Evaluation:
    """Mean double-dummy value of each legal action over ``samples`` deals."""

    values: dict[str, float]
    samples: int
    unit: str
    maximising: bool

    def best(self, eps: float = 1e-9) -> list[str]:
        """The actions within ``eps`` of the best mean, in legal order."""
        if not self.values:
            return []
        top = max(self.values.values()) if self.maximising else min(self.values.values())
        return [a for a, v in self.values.items() if abs(v - top) <= eps]

    def ranked(self) -> list[Ranked]:
        """``[{"action", "value", "samples"}]``, best first."""
        sign = -1 if self.maximising else 1
        order = sorted(self.values.items(), key=lambda kv: sign * kv[1])
        return [{"action": a, "value": round(v, 3), "samples": self.samples} for a, v in order]


def world(view: Mapping[str, Any], hands: Mapping[int, list[str]]) -> Match[Deal]:
    """The engine match of a sampled deal (``hands``: current hands, plus
    :data:`~trumps.bots.sampling.PILE`), with the play so far replayed.
    Raises :class:`SamplingError` if a past card is illegal in it."""
    from trumps.bots.sampling import inference_of, play_sequence

    seats: list[str] = list(view["seats"])
    played = play_sequence(view)
    start: dict[str, list[str]] = {name: list(hands.get(i, [])) for i, name in enumerate(seats)}
    for seat, card, _ in played:
        start[seats[seat]].append(card)
    deal: dict[str, list[str]] = dict(start)
    rules = inference_of(view)
    if rules.pile_key is not None:
        deal[rules.pile_key] = list(hands.get(PILE, []))
    contract, declarer = rules.contract_args(view)
    try:
        match = trumps.new_game(
            str(view["game"]),
            options=dict(view.get("options") or {}),
            deal=deal,
            dealer=str(view["dealer"]),
            contract=contract,
            declarer=declarer,
        )
        for _, card, led in played:
            match.apply(_action_for(match, card, led))
    except TrumpsError as exc:
        raise SamplingError(f"sampled deal contradicts the play: {exc}") from None
    return match


def _action_for(match: Match[Deal], card: str, led: int | None) -> object:
    """The legal action that plays ``card`` (a 500 joker lead names its suit)."""
    candidates = [a for a in match.legal_actions() if str(a) == card or str(a).startswith(card + ":")]
    if not candidates:
        raise SamplingError(f"{card} would not be legal here")
    if len(candidates) > 1 and led is not None:
        code = "SHDC"[led]
        for a in candidates:
            if str(a).endswith(":" + code):
                return a
    return candidates[0]


def evaluate(
    view: Mapping[str, object],
    legal: list[str],
    rng: random.Random,
    *,
    samples: int,
    nodes: int | None = None,
    budget: float | None = None,
    limit: int | None = None,
) -> Evaluation:
    """Average double-dummy value of each legal action over up to
    ``samples`` consistent deals.  Fewer when the solver has searched
    ``nodes`` nodes in all (deterministic), or when ``budget`` seconds have
    passed (a safety net against an overloaded machine); at least one deal
    is solved.  A search past ``limit`` nodes ends the sampling: the deals
    solved so far decide, and if there are none :class:`SearchLimit` is
    raised."""
    know = knowledge(view)
    sub = random.Random(rng.getrandbits(64))
    solver_name(str(view["game"]))  # loads (and warms up) the solver outside the clock
    start = time.perf_counter()
    totals = dict.fromkeys(legal, 0.0)
    done = 0
    unit, maximising = "tricks", True
    attempts = 0
    spent = 0
    while done < samples and attempts < samples * 20:
        attempts += 1
        if done and nodes is not None and spent >= nodes:
            break
        if done and budget is not None and time.perf_counter() - start > budget:
            break
        try:
            match = world(view, know.sample(sub))
        except SamplingError:
            continue
        try:
            vals: Values = solve_values(match, limit)
        except SearchLimit:
            if not done:
                raise
            break
        unit, maximising = vals.unit, vals.maximising
        spent += vals.nodes
        for action in legal:
            totals[action] += _value_of(action, vals.values)
        done += 1
    if not done:
        raise SamplingError("no consistent deal found")
    return Evaluation({a: t / done for a, t in totals.items()}, done, unit, maximising)


def card_of(action: str) -> str:
    """The card an action plays: ``RJ:H`` (a 500 joker lead naming hearts)
    and ``KH+BELOTE`` (a coinche card with its announcement) play ``RJ``, ``KH``."""
    return action.split(":")[0].split("+")[0]


def _value_of(action: str, values: Mapping[str, float]) -> float:
    if action in values:
        return values[action]
    card = card_of(action)
    for key, v in values.items():
        if card_of(key) == card:
            return v
    raise TrumpsError(f"the solver gave no value for {action}")
