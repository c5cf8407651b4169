"""The game of 500: a match of deals to ±500 behind the common protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from trumps.core.cards import Card, Suit, card_texts, card_words, deal_sorted, sort_cards
from trumps.core.deal_reader import DealReader, deal_json
from trumps.core.decks import deck_500
from trumps.core.errors import IllegalAction, OptionError, ParseError
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.presentation import Presentation
from trumps.core.protocol import Action, Match
from trumps.core.seats import parse_seat
from trumps.five_hundred.calls import Call
from trumps.five_hundred.deal import AUCTION, KITTY, PLAY, FiveHundredDeal, seating
from trumps.five_hundred.options import SCHEMA
from trumps.five_hundred.play import JokerLead
from trumps.five_hundred.scoring import rules_game_end, score_deal, scoring_rules

__all__ = ["FiveHundred"]

_JOKER_WORDS = {"RJ": "the joker", "BJ": "the black joker"}


def _deck_and_reader(players: int, kitty_size: int) -> tuple[list[Card], DealReader, list[Card]]:
    """The deck, the deal reader and the deck in canonical order of a table
    size and kitty, made once: a reader indexes its deck, a tenth of
    starting a game when it was made for every game.  None is changed after
    (deals shuffle a copy)."""
    key = (players, kitty_size)
    got = _READERS.get(key)
    if got is None:
        deck = deck_500(players, kitty_size)
        reader = DealReader(deck, players=players, hand_size=10, piles={"kitty": len(deck) - 10 * players})
        got = _READERS[key] = (deck, reader, sort_cards(deck))
    return got


_READERS: dict[tuple[int, int], tuple[list[Card], DealReader, list[Card]]] = {}
_NO_BANS: frozenset[int] = frozenset()


def _seats_of_positions(players: int) -> list[list[int]]:
    """Per dealer, the seat each of the first ``10 × players`` positions of
    the shuffled pack goes to: dealt one at a time from the dealer's left,
    so position ``p`` goes to seat ``dealer + 1 + p mod players``.  Made
    once per table size."""
    got = _SEATS_OF.get(players)
    if got is None:
        got = _SEATS_OF[players] = [
            [(dealer + 1 + p % players) % players for p in range(10 * players)] for dealer in range(players)
        ]
    return got


_SEATS_OF: dict[int, list[list[int]]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class FiveHundred(Match[FiveHundredDeal]):
    """A game of 500.  Create it with :func:`trumps.new_game`."""

    game = "500"
    schema = SCHEMA

    def __init__(
        self,
        options: Options,
        *,
        seed: int | None = None,
        deal: object = None,  # a deal spec, checked by the reader
        dealer: int | str | None = None,
        contract: str | None = None,
        declarer: int | str | None = None,
        _deals: Sequence[object] | None = None,
    ) -> None:
        players = 4 if options.players == "2v2" else 6
        seats = seating(str(options.players))
        self._team = seats.team  # shared, never changed
        self._n_teams = seats.sides
        self.deck, self._reader, self._in_order = _deck_and_reader(players, int(options.kitty_size))
        init: JSONDict = {
            "deal": deal_json(deal, ["kitty"]) if deal is not None else None,
            "contract": contract,
            "declarer": str(declarer) if declarer is not None else None,
        }
        # deal 0 shuffled with the first dealer's draw, unless it is given
        pack = self.deck if deal is None and not _deals else None
        self._setup(options, players, seed=seed, dealer=dealer, init=init, pack=pack)
        self.totals = [0] * self._n_teams
        self.bans: frozenset[int] = _NO_BANS
        self._stored_deals = list(_deals or [])
        self._explicit = deal
        self._single = contract is not None
        call = None
        contractor = None
        if contract is not None:
            call = Call.parse(contract)
            if not call.is_bid or call.inkle:
                raise ParseError(f"{contract!r} is not a 500 contract")
            if declarer is None:
                raise OptionError("a contract needs its declarer (the contractor's seat)")
            contractor = parse_seat(declarer, players)
        elif declarer is not None:
            raise OptionError("declarer is only meaningful with a contract")
        self.deal = self._new_deal(call, contractor)

    # ----- dealing ---------------------------------------------------------
    def _new_deal(self, contract: Call | None = None, contractor: int | None = None) -> FiveHundredDeal:
        number = self.deal_number
        if number < len(self._stored_deals):
            hands, kitty = self._read_deal(self._stored_deals[number])
        elif number == 0 and self._explicit is not None:
            hands, kitty = self._read_deal(self._explicit)
        else:
            cards = self._shuffled(number, self.deck)
            n = self.players
            # dealt clockwise from the dealer's left, one at a time, ten each,
            # each hand sorted; the rest is the kitty
            hands = deal_sorted(cards, _seats_of_positions(n)[self.dealer], n, self._in_order)
            kitty = cards[10 * n :]
        deal = FiveHundredDeal(self.options, self.dealer, hands, kitty, self.bans, contract, contractor)
        self.deal_records.append(deal.record(self.seat_names))
        return deal

    def _read_deal(self, spec: object) -> tuple[list[list[Card]], list[Card]]:
        hands, piles = self._reader.read(spec)
        return hands, piles["kitty"]

    # ----- protocol --------------------------------------------------------
    def team_of(self, seat: int) -> int:
        return self._team[seat]

    @property
    def teams(self) -> list[list[int]]:
        return [[s for s in range(self.players) if self._team[s] == t] for t in range(self._n_teams)]

    def parse_action(self, text: object) -> Action:
        if not isinstance(text, str):
            raise ParseError(f"not an action: {text!r}")
        phase = self.deal.phase
        t = text.strip()
        if phase in (PLAY, KITTY):
            if phase == PLAY and ":" in t:
                return JokerLead.parse(t)
            card = Card(t)
            if phase == PLAY and card.is_joker:
                legal = self.deal.legal_actions()
                if card not in legal and any(isinstance(a, JokerLead) for a in legal):
                    raise IllegalAction(
                        f"leading {card} in no trumps: name the suit to follow, "
                        f"e.g. {card}:S, {card}:H, {card}:D or {card}:C"
                    )
            return card
        call = Call.parse(t)
        if (
            phase == AUCTION
            and call.kind == "BID"
            and call.level == 6
            and not call.inkle
            and self.options.variation == "american"
        ):
            call = call.as_inkle()
        return call

    def explain_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        d = self.deal
        phase = d.phase
        if phase == AUCTION and isinstance(action, Call):
            seat = d.to_act
            if seat is not None and seat in d.banned:
                return f"{self.seat_name(seat)} may not bid this deal (breach rule): only P"
            if not action.is_bid:
                return f"{action} is not a call of the auction; legal: {_show(legal)}"
            if action.inkle:
                return f"{action}: only the first {self.options.inkle_seats} speakers may bid at the 6 level here; legal: {_show(legal)}"
            if action.is_misere and self.options.nullo_mode == "off":
                return f"{action}: misère bids are off at this table"
            return f"{action} does not outrank the current bid or is not allowed now; legal: {_show(legal)}"
        if phase == PLAY and isinstance(action, (Card, JokerLead)):
            card = action.card if isinstance(action, JokerLead) else action
            hand = d.hands[d.hand_to_play] if d.hand_to_play is not None else []
            if card not in hand:
                return f"{card} is not in {self.seat_name(d.hand_to_play or 0)}'s hand"
            if isinstance(action, JokerLead):
                # only a joker leading in no trumps / misère names a suit
                if d.trick:
                    return f"{action}: only the leader names a suit; play {card}"
                if d.rules is not None and d.rules.trump is not None:
                    return f"{action}: with a trump suit the joker is a trump, lead it as {card}"
                return (
                    f"{action}: you may not name {action.suit} (you failed to follow it earlier); "
                    f"legal: {_show(legal)}"
                )
            return f"{action} may not be played: follow suit; legal: {_show(legal)}"
        if phase == KITTY and isinstance(action, Card):
            return f"{action} is not in the contractor's hand; discard one of: {_show(legal)}"
        return f"{action} is not legal in phase {phase}; legal: {_show(legal)}"

    # ----- the match loop ----------------------------------------------------
    def _finish_deal(self) -> None:
        d = self.deal
        names = self.seat_names  # indexed: cheaper than a seat_name call per seat
        contract = d.contract
        contractor = d.contractor
        head: JSONDict = {
            "deal": self.deal_number + 1,
            "dealer": names[d.dealer],
            "contract": str(contract) if contract is not None else None,
            "contractor": names[contractor] if contractor is not None else None,
            "thrown_in": d.thrown_in,
            # public once the deal is over (the seed room shows them at its end)
            "kitty": card_texts(sort_cards(d.kitty)),
            "discards": card_texts(sort_cards(d.discards)) if d.discards else [],
        }
        bidding_team = d.bidding_team
        if d.thrown_in:
            head["points"] = [0] * self._n_teams
            head["scores"] = list(self.totals)
            self.bans = _NO_BANS
            self.results.append(head)
            if self._deal_limit_reached():
                return
            self._next_deal()
            return
        breach_seat = d.breach_seat
        breach_team = self._team[breach_seat] if breach_seat is not None else None
        tricks = d.team_tricks()
        s = score_deal(
            self.options, self.totals, tricks, contract, bidding_team,
            contractor, breach_seat, breach_team,
        )  # fmt: skip
        head["tricks"] = tricks
        head["made"] = s.made
        head["points"] = s.points
        head["breach"] = (
            None
            if breach_seat is None
            else {"seat": names[breach_seat], "succeeded": s.breach_success, "points": s.breach_points}
        )
        head["scores"] = s.totals
        self.totals = s.totals
        bans = s.bans
        self.bans = frozenset(bans) if bans else _NO_BANS
        if bans:
            head["banned_next_deal"] = [names[b] for b in bans]
        self.results.append(head)
        rules = scoring_rules(self.options)
        over, winner = rules_game_end(rules, s.totals_before_breach, bidding_team)
        limit = rules.max_deals
        stopped = self._single or (limit > 0 and len(self.results) >= limit)
        if stopped or over:
            self._over = True
            self._winner = winner if over else None
            if stopped and not over:
                best = max(self.totals)
                tops = [t for t, v in enumerate(self.totals) if v == best]
                self._winner = tops[0] if len(tops) == 1 else None
            return
        self._next_deal()

    def _deal_limit_reached(self) -> bool:
        """The ``max_deals`` option: the game ends after that many deals
        (thrown-in ones too), the higher total winning, or nobody on a tie."""
        limit = int(self.options.max_deals)
        if limit <= 0 or len(self.results) < limit:
            return False
        self._over = True
        best = max(self.totals)
        tops = [t for t, v in enumerate(self.totals) if v == best]
        self._winner = tops[0] if len(tops) == 1 else None
        return True

    def _next_deal(self) -> None:
        self.deal_number += 1
        self.dealer = (self.dealer + 1) % self.players
        self.deal = self._new_deal()

    # ----- views -------------------------------------------------------------
    def presentation(self) -> Presentation:
        from trumps.five_hundred.presentation import presentation

        return presentation(self.options)

    card_phases = frozenset({PLAY, KITTY})  # the discards to the kitty are cards too
    own_view_keys = ("discards", "kitty")

    def card_text(self, action: str) -> str:
        return action.partition(":")[0]  # a joker led naming a suit: RJ:H

    def spoken(self, action: str) -> str:
        card, _, called = action.partition(":")  # a joker, maybe led calling a suit ("RJ:H")
        words = _JOKER_WORDS.get(card)
        if words is None or self.presentation().get("labels", {}).get(action) or card_words(action):
            return super().spoken(action)
        return words + (f" ({Suit.parse(called).symbol})" if called in ("S", "H", "D", "C") else "")

    def view(self, seat: object) -> dict[str, Any]:
        from trumps.five_hundred.view import view

        return view(self, None if seat is None else parse_seat(seat, self.players))


def _show(legal: Sequence[Action]) -> str:
    return " ".join(str(a) for a in legal[:40])
