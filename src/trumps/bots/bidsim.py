"""Bidding by simulation for 500 and coinche.

A bidder holds one hand and sees the calls so far.  For each denomination
worth considering it deals the unseen cards at random (and, in 500, the
kitty), plays each deal double dummy with itself (or its partner) as the
declaring side, and scores every contract it could bid with the game's own
scoring rules.  It bids the contract with the best expected score, if that
beats passing by a margin and the contract makes often enough (the risk
rule: :attr:`SimulationBidder.min_make`).

What the auction implies is used simply: a seat that bid a suit is dealt at
least three cards of it in every sample (coinche: with its jack or nine),
so partner's and the opponents' bids shape the deals.

The simulation for a hand is computed once per deal and kept: later calls
of the same deal only re-read the auction.  Which denominations are
simulated is pruned by the hand (a trump suit needs length or top trumps,
no trumps needs aces, misère needs a hand with few dangerous cards), so
weak hands pass quickly.

Other decisions (500's kitty discards, breach and inkle rounds; coinche's
belote announcement) go to the rule bot, as does any call the simulation
does not cover.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trumps
from trumps.bots.base import Bot
from trumps.core.cards import Card, Suit
from trumps.core.errors import TrumpsError

__all__ = ["BidOption", "SimulationBidder"]

SUITS = "SHDC"


@dataclass
class BidOption:
    """One candidate call with its simulated outcome."""

    action: str
    ev: float  # mean score difference (our side minus theirs) per deal
    make: float  # fraction of samples in which the contract makes


@dataclass
class _Sim:
    """Per denomination: the declaring side's double-dummy total per sample."""

    key: tuple[Any, ...]
    totals: dict[str, list[float]] = field(default_factory=dict)
    extras: dict[str, list[Any]] = field(default_factory=dict)
    samples: int = 0


def _cards(texts: Sequence[str]) -> list[Card]:
    return [Card(t) for t in texts]


class SimulationBidder(Bot):
    """Simulation bidding for one game at one level."""

    name = "bidsim"

    def __init__(
        self,
        game: str,
        samples: int,
        rules: Bot,
        min_make: float = 0.6,
        margin: float = 10.0,
        handicap: float | None = None,
    ) -> None:
        self.game = game
        self.samples = samples
        self.rules = rules
        #: 500 contracts are judged more strictly: the double-dummy
        #: contractor also sees which three cards to throw from the kitty
        self.min_make = max(min_make, 0.7) if game == "500" else min_make
        self.margin = margin
        #: taken off every double-dummy total of ours before scoring: the
        #: declaring side does worse at the table than with all cards open
        self.handicap = (10.0 if game == "coinche" else 0.0) if handicap is None else handicap
        self._cache: _Sim | None = None

    # ----- the Bot interface ------------------------------------------------
    def choose(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        if str(view.get("phase", "")).upper() != "AUCTION" or len(legal) == 1:
            return self.rules.choose(view, legal, rng)
        try:
            options = self.options_for(view, legal, rng)
        except TrumpsError:  # a sampled deal the engine or solver refuses
            options = []
        if not options:
            return self.rules.choose(view, legal, rng)
        best = max(options, key=lambda o: o.ev)
        if best.action == "P" and self.game == "500":
            ruled = self.rules.choose(view, legal, rng)
            if ruled.startswith("i"):  # an inkle tells partner something and costs nothing
                return ruled
        return best.action if best.action in legal else self.rules.choose(view, legal, rng)

    def explain(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> list[dict[str, Any]]:
        """The candidates with their expected score and how often they make."""
        options = self.options_for(view, legal, rng)
        samples = self._cache.samples if self._cache is not None else 0
        rows = [
            {
                "action": o.action,
                "value": round(o.ev, 1),
                "samples": samples,
                "unit": "points",
                "make": round(o.make, 2),
                "reason": "simulated expected score (ours minus theirs)",
            }
            for o in sorted(options, key=lambda o: -o.ev)
        ]
        if not rows:
            rows = [
                {"action": self.rules.choose(view, legal, rng), "value": None, "samples": 0, "unit": None}
            ]
        return rows

    # ----- evaluation ----------------------------------------------------------
    def options_for(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> list[BidOption]:
        """Every call the simulation covers, valued; the pass included."""
        if self.game == "coinche":
            return _coinche_options(self, view, legal, rng)
        return _five_hundred_options(self, view, legal, rng)

    def simulation(self, view: Mapping[str, Any], denoms: list[str], rng: random.Random) -> _Sim:
        """Double-dummy totals of our side per denomination (cached per deal)."""
        seat = str(view["seat"])
        key = (view.get("deal_number"), seat, tuple(view["hands"][seat]), str(view.get("dealer")))
        sim = self._cache
        if sim is None or sim.key != key:
            sim = _Sim(key)
            self._cache = sim
        missing = [d for d in denoms if d not in sim.totals]
        if missing:
            sub = random.Random(rng.getrandbits(64))
            deals = [_deal_sample(view, sub) for _ in range(self.samples)]
            sim.samples = len(deals)
            for d in missing:
                sim.totals[d], sim.extras[d] = _solve_denom(view, d, deals)
        return sim


# ----- sampling the unseen cards ---------------------------------------------------------
def _bid_suits(view: Mapping[str, Any]) -> dict[str, set[str]]:
    """Seat name -> suits it has bid (a suit bid promises three cards)."""
    out: dict[str, set[str]] = {}
    for entry in view.get("auction") or []:
        c = str(entry["call"]).lstrip("i")
        suit = c[-1] if c[:1].isdigit() and c[-1] in SUITS and not c.endswith("NT") else None
        if suit:
            out.setdefault(str(entry["seat"]), set()).add(suit)
    return out


def _deal_sample(view: Mapping[str, Any], rng: random.Random) -> dict[str, list[str]]:
    """Hidden hands (and ``"kitty"``) dealt at random, honouring bid suits."""
    from trumps.bots.sampling import _deck, _options_key

    game = str(view["game"])
    me = str(view["seat"])
    seats: list[str] = list(view["seats"])
    mine = [str(c) for c in view["hands"][me]]
    deck = _deck(game, _options_key(view))
    pool = [c for c in deck if c not in set(mine)]
    size = len(mine)
    bid = _bid_suits(view)
    out: dict[str, list[str]] = {}
    for _ in range(30):
        rng.shuffle(pool)
        out = {me: list(mine)}
        i = 0
        for s in seats:
            if s == me:
                continue
            out[s] = pool[i : i + size]
            i += size
        out["kitty"] = pool[i:]
        if all(_fits(out[s], suits, game) for s, suits in bid.items() if s != me and s in out):
            break
    return out


def _fits(hand: list[str], suits: set[str], game: str) -> bool:
    for s in suits:
        held = [c for c in hand if c[-1] == s]
        if len(held) < 3:
            return False
        if game == "coinche" and not any(c[0] in "J9" for c in held):
            return False
    return True


# ----- double-dummy totals ----------------------------------------------------------------
def _solve_denom(
    view: Mapping[str, Any], denom: str, deals: list[dict[str, list[str]]]
) -> tuple[list[float], list[Any]]:
    """Our side's double-dummy total in ``denom`` (a 500 call text, or a
    coinche denomination) on each sampled deal, with us declaring."""
    from trumps.bots.solving import solve_values

    me = str(view["seat"])
    totals: list[float] = []
    extras: list[Any] = []
    for deal in deals:
        hands = {s: list(h) for s, h in deal.items()}
        if view["game"] == "500":
            kitty = hands.pop("kitty")
            hands[me], discards = _exchange(hands[me] + kitty, denom)
            hands["kitty"] = discards
            contract = denom
        else:
            hands.pop("kitty", None)
            contract = "80" + denom
        match = trumps.new_game(
            str(view["game"]),
            options=dict(view.get("options") or {}),
            deal=hands,
            dealer=str(view["dealer"]),
            contract=contract,
            declarer=me,
        )
        vals = solve_values(match)
        pick = max if vals.maximising else min
        totals.append(float(pick(vals.values.values())))
        extras.append(hands)
    return totals, extras


def _exchange(cards: list[str], call: str) -> tuple[list[str], list[str]]:
    """The 500 contractor's ten cards after the kitty: keep trumps and high
    cards (low cards in misère), discard the rest."""
    from trumps.five_hundred.calls import Call
    from trumps.five_hundred.play import TrickRules

    c = Call.parse(call)
    trump = None if c.is_misere or call.endswith("NT") else Suit.parse(call[-1])
    rules = TrickRules(trump)
    keep_count = len(cards) - (len(cards) - 10)  # ten cards are kept

    def strength(text: str) -> float:
        card = Card(text)
        p = rules.power[card.index]
        is_trump = trump is not None and rules.eff[card.index] == int(trump)
        return (1000 if is_trump else 0) + p

    order = sorted(cards, key=strength, reverse=not c.is_misere)
    return order[:keep_count], order[keep_count:]


# ----- 500 ----------------------------------------------------------------------------------
def _five_hundred_candidates(view: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The strains worth simulating for this hand: a suit with four or more
    (counting bowers and jokers), no trumps with two aces or a joker,
    misère with a low hand."""
    from trumps.five_hundred.play import TrickRules

    hand = [Card(c) for c in view["hands"][view["seat"]]]
    out: list[str] = []
    for s in "SCDH":
        rules = TrickRules(Suit.parse(s))
        n = sum(1 for c in hand if rules.eff[c.index] == int(Suit.parse(s)))
        if n >= 4 and any(x.endswith(s) and x[:1].isdigit() for x in legal):
            out.append(s)
    aces = sum(1 for c in hand if str(c)[0] == "A" or c.is_joker)
    if aces >= 3 and any(x.endswith("NT") and x[:1].isdigit() for x in legal):
        out.append("NT")
    if "MIS" in legal or "OMIS" in legal:
        from trumps.bots.five_hundred import misere_danger
        from trumps.core.decks import deck_500

        deck = deck_500(len(view["seats"]), int(view["options"].get("kitty_size", 3)))
        if misere_danger(hand, deck) < 0.5:
            out.append("MIS")
    return out


def _five_hundred_options(
    bidder: SimulationBidder, view: dict[str, Any], legal: list[str], rng: random.Random
) -> list[BidOption]:
    from trumps.five_hundred.calls import Call, bid_value

    strains = _five_hundred_candidates(view, legal)
    if not strains:
        return []
    denoms = [("6" + s if s != "MIS" else "MIS") for s in strains]
    sim = bidder.simulation(view, denoms, rng)
    o = view.get("options") or {}
    out: list[BidOption] = []
    if "P" in legal:
        out.append(BidOption("P", _five_hundred_pass(view, sim), 1.0))
    for call in legal:
        if call.startswith("i") or call in ("P", "BREACH"):
            continue
        c = Call.parse(call)
        if not c.is_bid:
            continue
        if c.is_misere:
            if "MIS" not in sim.totals:
                continue
            value = (
                int(o.get("open_nullo_points", 500)) if call == "OMIS" else int(o.get("nullo_points", 250))
            )
            made = [t + bidder.handicap < 1 for t in sim.totals["MIS"]]
        else:
            strain = call[-2:] if call.endswith("NT") else call[-1]
            key = "6" + strain
            if key not in sim.totals:
                continue
            made = [t - bidder.handicap >= c.level for t in sim.totals[key]]
            value = bid_value(c.level, c.denom)
        rate = sum(made) / len(made)
        # the defenders score ten a trick (misère: the contractor's tricks)
        tricks = sim.totals["MIS" if c.is_misere else key]
        theirs = [10 * (t if c.is_misere else 10 - t) for t in tricks]
        ev = statistics.fmean((value if m else -value) - d for m, d in zip(made, theirs, strict=True))
        if rate >= bidder.min_make and ev > bidder.margin:
            out.append(BidOption(call, ev, rate))
    return out


def _five_hundred_pass(view: Mapping[str, Any], sim: _Sim) -> float:
    """Passing is worth 0, or partner's contract when partner holds the
    highest bid (valued as if this hand declared it: a rough stand-in)."""
    from trumps.five_hundred.calls import Call, bid_value

    for entry in reversed(view.get("auction") or []):
        call = str(entry["call"])
        c = Call.parse(call.lstrip("i"))
        if not c.is_bid or call.startswith("i"):
            continue
        if str(entry["seat"]) != _partner(view) or c.is_misere:
            return 0.0
        strain = call[-2:] if call.endswith("NT") else call[-1]
        totals = sim.totals.get("6" + strain)
        if not totals:
            return 0.0
        value = bid_value(c.level, c.denom)
        return statistics.fmean(value if t >= c.level else -value for t in totals)
    return 0.0


# ----- coinche --------------------------------------------------------------------------------
def _coinche_candidates(view: Mapping[str, Any], legal: list[str]) -> list[str]:
    hand = [str(c) for c in view["hands"][view["seat"]]]
    out: list[str] = []
    bid = _bid_suits(view)
    partner = _partner(view)
    for s in SUITS:
        held = [c for c in hand if c[-1] == s]
        strong = ("J" + s in held and len(held) >= 2) or (
            len(held) >= 3 and ("9" + s in held or "J" + s in held)
        )
        if (strong or s in bid.get(partner, set())) and any(x.endswith(s) and x[:1].isdigit() for x in legal):
            out.append(s)
    aces = sum(1 for c in hand if c[0] == "A")
    jacks = sum(1 for c in hand if c[0] == "J")
    if aces >= 3 and any(x.endswith("NT") for x in legal):
        out.append("NT")
    if jacks >= 3 and any(x.endswith("AT") for x in legal):
        out.append("AT")
    return out


def _partner(view: Mapping[str, Any]) -> str:
    seats: list[str] = list(view["seats"])
    return seats[(seats.index(str(view["seat"])) + 2) % len(seats)]


def _team_of(view: Mapping[str, Any], seat: str) -> int:
    seats: list[str] = list(view["seats"])
    return seats.index(seat) % 2


def _coinche_options(
    bidder: SimulationBidder, view: dict[str, Any], legal: list[str], rng: random.Random
) -> list[BidOption]:
    from trumps.coinche.calls import Contract
    from trumps.coinche.scoring import score_deal

    current = _current_coinche(view)
    denoms = _coinche_candidates(view, legal)
    if current is not None and current[1] not in denoms and current[1] in SUITS + "NTAT":
        denoms.append(current[1])
    if not denoms:
        return []
    sim = bidder.simulation(view, denoms, rng)
    opts = trumps.game_class("coinche").schema.resolve(None, dict(view.get("options") or {}))
    me = str(view["seat"])
    us = _team_of(view, me)

    def outcome(call: str, denom: str, taker_team: int, level: int = 0) -> tuple[float, float]:
        c = Contract.parse(call + "X" * level)
        diffs: list[float] = []
        made = 0
        for total, hands in zip(sim.totals[denom], sim.extras[denom], strict=True):
            # the declaring side's handicap: ours when we declare, theirs when they do
            shift = -bidder.handicap if taker_team == us else bidder.handicap
            ours = int(min(162, max(0, total + shift)))
            card_points = [0, 0]
            card_points[us], card_points[1 - us] = ours, 162 - ours
            belote = [0, 0]
            if denom in SUITS:
                for s, h in hands.items():
                    if "K" + denom in h and "Q" + denom in h:
                        belote[_team_of(view, s)] = 20
            tricks = [4, 4]
            if ours == 162:
                tricks[us], tricks[1 - us] = 8, 0
            elif ours == 0:
                tricks[us], tricks[1 - us] = 0, 8
            r = score_deal(opts, c, taker_team, card_points, tricks, belote, [0, 0])
            made += int(r.made)
            diffs.append(float(r.points[us] - r.points[1 - us]))
        return statistics.fmean(diffs), made / len(diffs)

    out: list[BidOption] = []
    if "P" in legal:
        if current is None:
            out.append(BidOption("P", 0.0, 1.0))
        else:
            call, denom, seat = current
            ev, rate = outcome(call, denom, _team_of(view, seat)) if denom in sim.totals else (0.0, 1.0)
            out.append(BidOption("P", ev, rate))
    if "X" in legal and current is not None and current[1] in sim.totals:
        call, denom, seat = current
        ev, rate = outcome(call, denom, _team_of(view, seat), level=1)
        if 1 - rate >= 0.75:
            out.append(BidOption("X", ev, 1 - rate))
    for call in legal:
        if not call[:1].isdigit():
            continue
        denom = call[-2:] if call.endswith(("NT", "AT")) else call[-1]
        if denom not in sim.totals:
            continue
        ev, rate = outcome(call, denom, us)
        if rate >= bidder.min_make:
            out.append(BidOption(call, ev - bidder.margin, rate))
    return out


def _current_coinche(view: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(bid, denomination, seat) of the highest bid so far."""
    for entry in reversed(view.get("auction") or []):
        call = str(entry["call"])
        if call[:1].isdigit():
            denom = call[-2:] if call.endswith(("NT", "AT")) else call[-1]
            return call, denom, str(entry["seat"])
    return None
