"""Bidding by simulation for 500 and coinche.

A bidder holds one hand and sees the calls so far.  It deals the unseen
cards at random (and, in 500, the kitty), plays each deal double dummy, and
scores the calls it could make with the game's own scoring rules.

**Coinche**: for each denomination worth considering, each deal is solved
with our side declaring; it bids the contract with the best expected score
if that beats passing by a margin and the contract makes often enough (the
risk rule: :attr:`SimulationBidder.min_make`).  A seat that bid a suit is
dealt at least three cards of it with its jack or nine.

**500** (four players): the rule bot's call is the reference.  Deals are
drawn so that every seat that has called would have made its calls by the
rule bot; on each deal every candidate call (pass, the rule call, sound
bids in the hand's strains, misère with a low hand) is followed by the rest
of the auction bid by rule, and the contract it leads to is played double
dummy after the rule bot's kitty exchange, with a handicap for the
declaring side (half a trick, and one more in no trumps).  Another call
replaces the rule call only if it beats it on the same deals by
:attr:`SimulationBidder.margin` points and :attr:`SimulationBidder.z`
standard errors.  Six-player games bid by rule.

The simulation of a decision is computed once and kept.  Which strains
are simulated is pruned by the hand, so weak hands are quick.

Other decisions (500's kitty discards, breach; coinche's belote
announcement) go to the rule bot, as does any call the simulation does not
cover.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

import trumps
from trumps.bots.base import Bot
from trumps.core.cards import Card, Suit
from trumps.core.errors import TrumpsError
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Deal, Match
from trumps.core.trick import TrickDeal

__all__ = ["COINCHE", "FIVE_HUNDRED", "BidOption", "BidStrategy", "BidTimeout", "Reason", "SimulationBidder"]

SUITS = "SHDC"


class BidTimeout(TrumpsError):
    """A bid's simulation ran past the bidder's ``cap`` seconds."""


class Reason(TypedDict):
    """One candidate of an explanation (:meth:`SimulationBidder.explain`,
    :func:`trumps.bots.suggest.explain`): the action, its value over
    ``samples`` deals in ``unit`` (``None`` for a call chosen by rule), and
    what the producer adds: whether the seat wants the value high (card
    play), how often the contract makes and why it was chosen (bidding)."""

    action: str
    value: float | None
    samples: int
    unit: str | None
    maximising: NotRequired[bool]
    make: NotRequired[float]
    reason: NotRequired[str]


@dataclass
class BidOption:
    """One candidate call with its simulated outcome."""

    action: str
    ev: float  # mean score difference (our side minus theirs) per deal
    make: float  # fraction of samples in which the contract makes
    #: 500: the score difference on each sample (the same samples for every call)
    values: list[float] = field(default_factory=list, repr=False, compare=False)


@dataclass
class _Sim:
    """Per denomination: the declaring side's double-dummy total per sample."""

    key: tuple[object, ...]
    totals: dict[str, list[float]] = field(default_factory=dict)
    #: per denomination: the sampled hands, seat -> cards
    extras: dict[str, list[dict[str, list[str]]]] = field(default_factory=dict)
    samples: int = 0
    samples500: list[_Sample] = field(default_factory=list)


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
        min_make: float | None = None,
        margin: float | None = None,
        handicap: float | None = None,
        z: float | None = None,
        limit: int | None = None,
        cap: float | None = None,
    ) -> None:
        self.game = game
        #: the game's way of simulating its auction (its spec's ``bid_simulation``)
        self.strategy: BidStrategy = trumps.game_spec(game).load("bid_simulation")
        #: nodes one double-dummy search may take, and seconds one decision
        #: may take (None: no bound); past either the decision is the rule
        #: bot's, so a room's bot never holds the solver for minutes
        self.limit = limit
        self.cap = cap
        self._deadline: float | None = None
        self.samples = samples
        self.rules = rules
        s = self.strategy
        #: the risk rule: a contract of ours is considered only if it makes
        #: (after the handicap) in this fraction of the samples
        self.min_make = s.min_make if min_make is None else min_make
        #: coinche: points a bid must beat passing by; 500: points by which
        #: a call must beat the rule bot's call to replace it
        self.margin = s.margin if margin is None else margin
        #: taken off every double-dummy total of the declaring side before
        #: scoring (500: tricks; coinche: card points of ours): declarers do
        #: worse at the table than with all cards open
        self.handicap = s.handicap if handicap is None else handicap
        #: 500: standard errors by which a call must beat the rule bot's
        self.z = 2.0 if z is None else z
        #: 500: tricks taken off a no-trump declarer on top of the handicap
        self.nt_handicap = 1.0
        self._cache: _Sim | None = None

    # ----- the Bot interface ------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> str:
        if str(view.get("phase", "")).upper() != "AUCTION" or len(legal) == 1:
            return self.rules.choose(view, legal, rng)
        try:
            options = self.options_for(view, legal, rng)
        except TrumpsError:  # a sampled deal the engine or solver refuses
            options = []
        if not options:
            return self.rules.choose(view, legal, rng)
        if self.strategy.decide is not None:
            call, _why = self.strategy.decide(self, options, self.rules.choose(view, legal, rng))
            return call if call in legal else self.rules.choose(view, legal, rng)
        best = max(options, key=lambda o: o.ev)
        return best.action if best.action in legal else self.rules.choose(view, legal, rng)

    def explain(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> list[Reason]:
        """The candidates with their expected score and how often they make
        (500: the chosen call first, its reason saying why it was chosen).
        A simulation the engine or solver refuses, or that passes its
        bounds, leaves the rule bot's call alone, as in :meth:`choose`."""
        try:
            options = self.options_for(view, legal, rng)
        except TrumpsError:
            options = []
        samples = self._cache.samples if self._cache is not None else 0
        chosen, why = None, ""
        if self.strategy.decide is not None and options:
            chosen, why = self.strategy.decide(self, options, self.rules.choose(view, legal, rng))
        rows: list[Reason] = [
            {
                "action": o.action,
                "value": round(o.ev, 1),
                "samples": samples,
                "unit": "points",
                "make": round(o.make, 2),
                "reason": why if o.action == chosen else "simulated expected score (ours minus theirs)",
            }
            for o in sorted(options, key=lambda o: (o.action != chosen, -o.ev))
        ]
        if not rows:
            rows = [
                {"action": self.rules.choose(view, legal, rng), "value": None, "samples": 0, "unit": None}
            ]
        return rows

    # ----- evaluation ----------------------------------------------------------
    def options_for(self, view: Mapping[str, Any], legal: list[str], rng: random.Random) -> list[BidOption]:
        """Every call the simulation covers, valued; the pass included.
        Raises :class:`BidTimeout` past ``cap`` seconds and
        :class:`trumps.solver.SearchLimit` for a search past ``limit``."""
        self._deadline = None if self.cap is None else time.perf_counter() + self.cap
        try:
            found: list[BidOption] = self.strategy.options(self, view, legal, rng)
            return found
        finally:
            self._deadline = None

    def check_time(self) -> None:
        """Raise :class:`BidTimeout` once this decision is past its cap."""
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise BidTimeout(f"the bid's simulation took more than {self.cap} s")

    def simulation(self, view: Mapping[str, Any], denoms: list[str], rng: random.Random) -> _Sim:
        """Coinche: double-dummy card points of our side per denomination (cached per deal)."""
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
                sim.totals[d], sim.extras[d] = _solve_denom(self, view, d, deals)
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
        if all(_fits(out[s], suits, view) for s, suits in bid.items() if s != me and s in out):
            break
    return out


def _fits(hand: list[str], suits: set[str], view: Mapping[str, object]) -> bool:
    """Whether ``hand`` keeps what bidding ``suits`` promised in the view's
    game: three cards of each (and what the game's strategy adds)."""
    needs = trumps.game_spec(str(view["game"])).load("bid_simulation").suit_needs
    for s in suits:
        held = [c for c in hand if c[-1] == s]
        if len(held) < 3:
            return False
        if needs and not any(c[0] in needs for c in held):
            return False
    return True


# ----- double-dummy totals ----------------------------------------------------------------
def _solve_denom(
    bidder: SimulationBidder, view: Mapping[str, Any], denom: str, deals: list[dict[str, list[str]]]
) -> tuple[list[float], list[dict[str, list[str]]]]:
    """Our side's double-dummy card points in the coinche denomination
    ``denom`` on each sampled deal, with us declaring."""
    from trumps.bots.solving import solve_values

    me = str(view["seat"])
    totals: list[float] = []
    extras: list[dict[str, list[str]]] = []
    for deal in deals:
        hands = {s: list(h) for s, h in deal.items()}
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
        bidder.check_time()
        vals = solve_values(match, bidder.limit)
        pick = max if vals.maximising else min
        totals.append(float(pick(vals.values.values())))
        extras.append(hands)
    return totals, extras


# ----- 500 ----------------------------------------------------------------------------------
@dataclass
class _Sample:
    """One sampled deal of a 500 bid decision."""

    hands: dict[str, list[str]]  # seat -> ten cards, and "kitty"
    base: Match[Deal]  # the engine's match at this decision (the auction so far replayed)
    #: (strain, contractor seat) -> the declaring side's double-dummy tricks
    tricks: dict[tuple[str, str], float] = field(default_factory=dict)
    #: our call -> the contract (call, seat) the rest of the auction leads to (None: thrown in)
    after: dict[str, tuple[str, str] | None] = field(default_factory=dict)


def _strain(call: str) -> str:
    """The strain of a call: 7H -> H, 8NT -> NT, MIS and OMIS -> MIS."""
    c = call.lstrip("i")
    if c in ("MIS", "OMIS"):
        return "MIS"
    return c[-2:] if c.endswith("NT") else c[-1]


def _samples_500(bidder: SimulationBidder, view: Mapping[str, Any], rng: random.Random) -> list[_Sample]:
    """The sampled deals of this decision (cached per deal and auction)."""
    seat = str(view["seat"])
    auction = tuple((str(e["seat"]), str(e["call"])) for e in view.get("auction") or [])
    key = (view.get("deal_number"), seat, tuple(view["hands"][seat]), str(view.get("dealer")), auction)
    sim = bidder._cache
    if sim is not None and sim.key == key:
        return sim.samples500
    sim = bidder._cache = _Sim(key)
    sub = random.Random(rng.getrandbits(64))
    opts = dict(view.get("options") or {})
    dealer = str(view["dealer"])
    # the legal calls before each call of the auction (they do not depend on the cards)
    game = str(view["game"])
    probe = trumps.new_game(game, options=opts, dealer=dealer, seed=0)
    before: list[list[str]] = []
    for _s, call in auction:
        before.append([str(a) for a in probe.legal_actions()])
        probe.apply(call)
    if probe.to_act_index is None or str(probe.view(probe.to_act_index)["seat"]) != seat:
        raise TrumpsError("the auction in the view does not lead to this seat's turn")
    for _ in range(bidder.samples):
        hands = _deal_sample_500(bidder, view, auction, before, sub)
        base = trumps.new_game(game, options=opts, deal=hands, dealer=dealer)
        for _s, call in auction:
            base.apply(call)
        sim.samples500.append(_Sample(hands, base))
    sim.samples = len(sim.samples500)
    return sim.samples500


#: hands tried per seat for one that makes that seat's calls
SAMPLE_TRIES = 60


def _deal_sample_500(
    bidder: SimulationBidder,
    view: Mapping[str, Any],
    auction: tuple[tuple[str, str], ...],
    before: list[list[str]],
    rng: random.Random,
) -> dict[str, list[str]]:
    """Hidden hands and kitty dealt at random so that every seat that has
    called would have made its calls by the rule bot (the model of the
    others' bidding; the opponents at the table bid by rule): seat by seat,
    up to :data:`SAMPLE_TRIES` hands each, else the best try (the most of
    its calls matched; a suit bid promises three of the suit)."""
    from trumps.bots.sampling import _deck, _options_key

    me = str(view["seat"])
    seats: list[str] = list(view["seats"])
    mine = [str(c) for c in view["hands"][me]]
    pool = [c for c in _deck(str(view["game"]), _options_key(view)) if c not in set(mine)]
    size = len(mine)
    teams = _teams(view)
    callers = [s for s in seats if s != me and any(a == s for a, _c in auction)]
    out: dict[str, list[str]] = {me: list(mine)}
    for s in callers:
        mine_idx = [i for i, (a, _c) in enumerate(auction) if a == s]
        best: tuple[int, list[str]] | None = None
        for _ in range(SAMPLE_TRIES):
            hand = rng.sample(pool, size)
            hits = 0
            for i in mine_idx:
                v = {
                    "game": view["game"],
                    "phase": "AUCTION",
                    "seat": s,
                    "players": len(seats),
                    "seats": seats,
                    "teams": teams,
                    "options": view.get("options") or {},
                    "hands": {s: hand},
                    "auction": [{"seat": a, "call": c} for a, c in auction[:i]],
                }
                call = bidder.rules.choose(v, before[i], random.Random(0))
                hits += call == auction[i][1]
            if (
                best is None
                or hits > best[0]
                or (
                    hits == best[0]
                    and _fits(hand, _bid_suits(view).get(s, set()), view)
                    and not _fits(best[1], _bid_suits(view).get(s, set()), view)
                )
            ):
                best = (hits, hand)
            if hits == len(mine_idx):
                break
        assert best is not None
        out[s] = best[1]
        taken = set(best[1])
        pool = [c for c in pool if c not in taken]
    rng.shuffle(pool)
    i = 0
    for s in seats:
        if s not in out:
            out[s] = pool[i : i + size]
            i += size
    out["kitty"] = pool[i:]
    return out


def _exchange_by_rule(
    rules: Bot, view: Mapping[str, Any], hand: list[str], call: str, seat: str
) -> tuple[list[str], list[str]]:
    """The contractor's kitty exchange as the rule bot makes it (the bots'
    own exchange): ``hand`` holds the kitty; returns (kept, discarded)."""
    seats: list[str] = list(view["seats"])
    team = _team_of(view, seat)
    keep = list(hand)
    discards: list[str] = []
    fake: JSONDict = {
        "game": view["game"],
        "phase": "KITTY",
        "seat": seat,
        "hand_to_play": seat,
        "players": view.get("players", len(seats)),
        "seats": seats,
        "teams": _teams(view),
        "options": view.get("options") or {},
        "contract": {"call": call, "seat": seat, "team": team},
        "hands": {seat: keep},
    }
    rng = random.Random(0)
    while len(keep) > 10:
        card = rules.choose(fake, list(keep), rng)
        keep.remove(card)
        discards.append(card)
    return keep, discards


def _tricks(
    bidder: SimulationBidder, view: Mapping[str, Any], sample: _Sample, call: str, seat: str
) -> float:
    """Double-dummy tricks of ``seat``'s side declaring ``call``'s strain on
    this sample, after the rule bot's kitty exchange (cached)."""
    from trumps.bots.solving import solve_value

    strain = _strain(call)
    key = (strain, seat)
    got = sample.tricks.get(key)
    if got is not None:
        return got
    contract = "MIS" if strain == "MIS" else "7" + strain
    hands = {s: list(h) for s, h in sample.hands.items() if s != "kitty"}
    hands[seat], hands["kitty"] = _exchange_by_rule(
        bidder.rules, view, hands[seat] + sample.hands["kitty"], contract, seat
    )
    opts = dict(view.get("options") or {})
    opts["end_hand_when_decided"] = False
    match = trumps.new_game(
        str(view["game"]),
        options=opts,
        deal=hands,
        dealer=str(view["dealer"]),
        contract=contract,
        declarer=seat,
    )
    bidder.check_time()
    total = solve_value(match, bidder.limit)
    sample.tricks[key] = total
    return total


def _rest_of_auction(
    bidder: SimulationBidder, view: Mapping[str, Any], sample: _Sample, call: str
) -> tuple[str, str] | None:
    """The contract after ``call`` when every later call is the rule bot's
    (the opponents at the table bid by rule; partner is modelled so too)."""
    if call in sample.after:
        return sample.after[call]
    m = sample.base.clone()
    deal = m.deal
    if not isinstance(deal, TrickDeal):
        raise TrumpsError(f"{m.game} has no auction to simulate")
    m.apply(call)
    banned = set(view.get("banned") or [])
    rng = random.Random(0)
    steps = 0
    while not deal.auction.done and steps < 40:
        steps += 1
        v = m.view(m.to_act_index)
        legal = [str(a) for a in v["legal"]]
        a = "P" if str(v["seat"]) in banned else bidder.rules.choose(v, legal, rng)
        m.apply(a)
    won = deal.auction.contract()
    seats: list[str] = list(view["seats"])
    out = None if won is None else (str(won[1]), seats[won[0]])
    sample.after[call] = out
    return out


def _result_500(
    bidder: SimulationBidder, view: Mapping[str, Any], sample: _Sample, contract: tuple[str, str] | None
) -> tuple[float, float]:
    """(how far the contract makes, 0 to 1; our side's score minus the
    others') on this sample if ``contract`` is played.  Our double-dummy
    tricks lose :attr:`SimulationBidder.handicap` as declarers (theirs too):
    a fractional shortfall makes the contract partly."""
    from trumps.bots.five_hundred import misere_danger
    from trumps.five_hundred.calls import Call

    if contract is None:
        return 0.0, 0.0
    call, seat = contract
    o = view.get("options") or {}
    c = Call.parse(call)
    seats: list[str] = list(view["seats"])
    me = str(view["seat"])
    teams = _teams(view)
    ours = any(seat in t and me in t for t in teams)
    per_trick = 10.0
    if c.is_misere:
        per_trick = 0.0 if o.get("misere_defender_points") == "none" else 10.0
        value = float(o.get("open_nullo_points", 500) if call == "OMIS" else o.get("nullo_points", 250))
        if seat == str(view["seat"]):
            t = _tricks(bidder, view, sample, call, seat)
            made = 1.0 if t < 0.5 else 0.0
        else:  # another seat's misère: the rule bot's own judgement of that hand
            from trumps.core.decks import deck_500

            deck = deck_500(len(seats), int(o.get("kitty_size", 3)))
            danger = misere_danger([Card(x) for x in sample.hands[seat]], deck)
            made = 0.66 if danger <= 1.0 else 0.6 if danger <= 2.0 else 0.45 if danger <= 3.0 else 0.2
            t = 1.5 * (1 - made)
        diff = value * (2 * made - 1) - per_trick * (10 - t)
    else:
        t = _tricks(bidder, view, sample, call, seat) - bidder.handicap
        if c.denom is None:  # no trumps: double dummy flatters the declarer most
            t -= bidder.nt_handicap
        value = float(c.value)
        made = min(1.0, max(0.0, t - c.level + 1))
        won = 250.0 if t >= 10 and value < 250 else value
        diff = made * won - (1 - made) * value - per_trick * min(10.0, max(0.0, 10 - t))
    return made, (diff if ours else -diff)


def _five_hundred_candidates(view: Mapping[str, Any], legal: list[str]) -> list[str]:
    """The strains worth simulating for this hand: a suit with four or more
    (counting bowers and jokers), no trumps with three aces and jokers,
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
        if misere_danger(hand, deck) <= MISERE_DANGER:
            out.append("MIS")
    return out


#: the largest misère danger (:func:`trumps.bots.five_hundred.misere_danger`)
#: of a hand whose misère is simulated
MISERE_DANGER = 1.0


def _five_hundred_options(
    bidder: SimulationBidder, view: Mapping[str, Any], legal: list[str], rng: random.Random
) -> list[BidOption]:
    """Our candidate calls valued by playing out the rest of the auction (by
    rule) and the resulting contract (double dummy) on every sample: passing
    is worth what the others then bid and make."""
    from trumps.five_hundred.calls import Call

    if len(view["seats"]) != 4:
        return []  # six players: a full-deal solve per sample is far too slow; the rule bot bids
    ruled = bidder.rules.choose(view, legal, random.Random(0))
    strains = _five_hundred_candidates(view, legal)
    if ruled != "P" and not ruled.startswith("i") and _strain(ruled) not in strains:
        strains.append(_strain(ruled))
    samples = _samples_500(bidder, view, rng)
    me = str(view["seat"])
    calls: list[str] = [c for c in dict.fromkeys(["P", ruled]) if c in legal]
    makes: dict[str, float] = {}
    for call in legal:
        if call in calls or call.startswith("i") or call in ("P", "BREACH"):
            continue
        c = Call.parse(call)
        if not c.is_bid or _strain(call) not in strains:
            continue
        # no competition, we declare: how often would it make?
        rate = statistics.fmean(_result_500(bidder, view, s, (call, me))[0] for s in samples)
        makes[call] = rate
        if rate >= bidder.min_make:
            calls.append(call)
    out: list[BidOption] = []
    for call in calls:
        evs = [_result_500(bidder, view, s, _rest_of_auction(bidder, view, s, call))[1] for s in samples]
        if call not in makes:
            c = Call.parse(call.lstrip("i"))
            real = c.is_bid and not call.startswith("i")
            makes[call] = (
                statistics.fmean(_result_500(bidder, view, s, (call, me))[0] for s in samples)
                if real
                else 1.0
            )
        out.append(BidOption(call, statistics.fmean(evs), makes[call], evs))
    return out


def _decide_500(bidder: SimulationBidder, options: list[BidOption], ruled: str) -> tuple[str, str]:
    """The call, and why: the rule bot's call unless another call beats it
    on the same samples by :attr:`SimulationBidder.margin` points on average
    and by :attr:`SimulationBidder.z` standard errors of that difference
    (the best of many noisy estimates looks better than it is)."""
    by = {o.action: o for o in options}
    base = by.get(ruled)
    if base is None:
        best = max(options, key=lambda o: o.ev)
        return best.action, "simulation: best expected score"
    found: tuple[float, BidOption] | None = None
    for o in options:
        if o.action == ruled or len(o.values) != len(base.values) or len(o.values) < 2:
            continue
        diff = [a - b for a, b in zip(o.values, base.values, strict=True)]
        gain = statistics.fmean(diff)
        error = statistics.stdev(diff) / len(diff) ** 0.5
        if gain >= bidder.margin and gain >= bidder.z * error and (found is None or gain > found[0]):
            found = (gain, o)
    if found is not None:
        return found[1].action, f"simulation: beats the rule bid {ruled} by {found[0]:.0f} points"
    return ruled, "the rule bid; the simulation finds nothing clearly better"


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


def _teams(view: Mapping[str, Any]) -> list[list[str]]:
    """The view's partnerships (four players: alternate seats if it gives none)."""
    seats: list[str] = list(view["seats"])
    return [list(t) for t in view.get("teams") or [seats[0::2], seats[1::2]]]


def _team_of(view: Mapping[str, object], seat: str) -> int:
    """The index in ``_teams(view)`` of the partnership ``seat`` is in."""
    return next(i for i, t in enumerate(_teams(view)) if seat in t)


def _coinche_options(
    bidder: SimulationBidder, view: Mapping[str, Any], legal: list[str], rng: random.Random
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
    opts = trumps.game_class(str(view["game"])).schema.resolve(None, dict(view.get("options") or {}))
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


# ----- the games' strategies ----------------------------------------------------------------
@dataclass(frozen=True)
class BidStrategy:
    """How one game's auction is simulated (named by its spec's ``bid_simulation``).

    ``options(bidder, view, legal, rng)`` values every call it covers;
    ``decide(bidder, options, rule call) -> (call, why)`` picks one (``None``:
    the best expected score); ``min_make``, ``margin`` and ``handicap`` are
    the bidder's defaults (see :class:`SimulationBidder`); ``suit_needs``:
    a suit bid promises three cards of the suit, one of them of these ranks
    ("J9" in coinche; "" for any three)."""

    options: Callable[[SimulationBidder, Mapping[str, Any], list[str], random.Random], list[BidOption]]
    decide: Callable[[SimulationBidder, list[BidOption], str], tuple[str, str]] | None
    min_make: float
    margin: float
    handicap: float
    suit_needs: str = ""


FIVE_HUNDRED = BidStrategy(_five_hundred_options, _decide_500, min_make=0.5, margin=30.0, handicap=0.5)
COINCHE = BidStrategy(_coinche_options, None, min_make=0.6, margin=10.0, handicap=10.0, suit_needs="J9")
