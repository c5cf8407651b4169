"""The game of coinche: a match of deals to the target score behind the
common protocol (:class:`~trumps.core.protocol.Match`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from trumps.coinche.auction import bid_table
from trumps.coinche.calls import Call, Contract
from trumps.coinche.deal import AUCTION, PLAY, BelotePlay, CoincheDeal, next_seat
from trumps.coinche.melds import Declaration
from trumps.coinche.options import SCHEMA
from trumps.coinche.scoring import game_end, score_deal
from trumps.core.cards import Card, sort_cards
from trumps.core.deal_reader import DealReader, deal_json
from trumps.core.decks import deck_coinche
from trumps.core.errors import OptionError, ParseError
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.presentation import Presentation
from trumps.core.protocol import Action, Match
from trumps.core.seats import parse_seat

__all__ = ["Coinche"]

_DECK = deck_coinche()
_READER = DealReader(_DECK, players=4, hand_size=8, sort=True)
_PATTERNS = {"3-2-3": (3, 2, 3), "3-3-2": (3, 3, 2), "2-3-3": (2, 3, 3)}


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class Coinche(Match[CoincheDeal]):
    """A game of Belote Coinche.  Create it with :func:`trumps.new_game`."""

    game = "coinche"
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
        init: JSONDict = {
            "deal": deal_json(deal) if deal is not None else None,
            "contract": contract,
            "declarer": str(declarer) if declarer is not None else None,
        }
        self._setup(options, 4, seed=seed, dealer=dealer, init=init)
        self.nxt = next_seat(options.direction)
        self.totals = [0, 0]
        self._stored_deals = list(_deals or [])
        self._explicit = deal
        self._single = contract is not None
        parsed: Contract | None = None
        taker: int | None = None
        if contract is not None:
            parsed = Contract.parse(contract)
            if parsed.bid not in bid_table(options).bids:
                raise OptionError(f"{parsed.bid} is not a contract these options allow")
            if declarer is None:
                raise OptionError("a contract needs its declarer (the taker's seat)")
            taker = parse_seat(declarer, 4)
        elif declarer is not None:
            raise OptionError("declarer is only meaningful with a contract")
        self.deal = self._new_deal(parsed, taker)

    # ----- dealing ---------------------------------------------------------
    def _new_deal(self, contract: Contract | None = None, taker: int | None = None) -> CoincheDeal:
        number = self.deal_number
        if number < len(self._stored_deals):
            hands = self._read_deal(self._stored_deals[number])
        elif number == 0 and self._explicit is not None:
            hands = self._read_deal(self._explicit)
        else:
            cards = list(_DECK)
            self.shuffle_deal(number, cards)
            hands = deal_packets(cards, self.dealer, self.nxt, str(self.options.deal_pattern))
        deal = CoincheDeal(self.options, self.dealer, hands, contract, taker)
        self.deal_records.append(deal.record(self.seat_name))
        return deal

    def _read_deal(self, spec: object) -> list[list[Card]]:
        return _READER.read(spec)[0]

    # ----- protocol --------------------------------------------------------
    def team_of(self, seat: int) -> int:
        return seat % 2

    @property
    def teams(self) -> list[list[int]]:
        return [[0, 2], [1, 3]]

    def parse_action(self, text: str) -> Action:
        if not isinstance(text, str):
            raise ParseError(f"not an action: {text!r}")
        t = text.strip()
        if self.deal.phase == PLAY:
            if t.upper().startswith("MELD"):
                return Declaration.parse(t)
            if "+" in t:
                return BelotePlay.parse(t)
            return Card(t)
        return Call.parse(t)

    def explain_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        d = self.deal
        shown = " ".join(str(a) for a in legal[:60])
        if d.phase == AUCTION and isinstance(action, Call):
            return f"{action} is not a legal call now (a bid must be higher; X only over an opponent's bid; XX only by the coinched side); legal: {shown}"
        if d.phase == PLAY:
            seat = d.hand_to_play if d.hand_to_play is not None else 0
            if any(isinstance(a, Declaration) for a in legal):
                return f"{self.seat_name(seat)} must first declare melds (or MELD:-); legal: {shown}"
            card = action.card if isinstance(action, BelotePlay) else action
            if isinstance(card, Card) and card not in d.hands[seat]:
                return f"{card} is not in {self.seat_name(seat)}'s hand"
            return f"{action} breaks the obligations (follow suit, go up in trumps, trump / overtrump an opponent); legal: {shown}"
        return f"{action} is not legal in phase {d.phase}; legal: {shown}"

    # ----- the match loop ----------------------------------------------------
    def _finish_deal(self) -> None:
        d = self.deal
        name = self.seat_name
        result: JSONDict = {
            "deal": self.deal_number + 1,
            "dealer": name(d.dealer),
            "contract": None if d.contract is None else str(d.contract),
            "taker": None if d.taker is None else name(d.taker),
            "thrown_in": d.thrown_in,
        }
        if d.thrown_in or d.contract is None or d.taker is None:
            result["points"] = [0, 0]
            result["scores"] = list(self.totals)
            self.results.append(result)
            limit = int(self.options.max_deals)
            if limit > 0 and len(self.results) >= limit:  # thrown-in deals count toward max_deals
                self._over = True
                self._winner = (
                    None if self.totals[0] == self.totals[1] else int(self.totals[1] > self.totals[0])
                )
                return
            self._next_deal()
            return
        taker_team = d.taker % 2
        tricks = d.team_tricks()
        belote = d.belote_points()
        melds = d.meld_points()
        s = score_deal(
            self.options, d.contract, taker_team, d.card_points, tricks, belote, melds, d.won[d.taker] == 8
        )
        self.totals = [self.totals[0] + s.points[0], self.totals[1] + s.points[1]]
        result.update(
            tricks=tricks,
            card_points=list(d.card_points),
            belote=belote,
            melds=melds,
            made=s.made,
            multiplier=s.multiplier,
            points=s.points,
            scores=list(self.totals),
        )
        self.results.append(result)
        contract_winner = taker_team if s.made else 1 - taker_team
        over, winner = game_end(self.options, self.totals, contract_winner)
        limit = int(self.options.max_deals)
        stopped = self._single or (limit > 0 and len(self.results) >= limit)
        if over or stopped:
            self._over = True
            self._winner = winner
            if stopped and not over:
                self._winner = (
                    None if self.totals[0] == self.totals[1] else int(self.totals[1] > self.totals[0])
                )
            return
        self._next_deal()

    def _next_deal(self) -> None:
        self.deal_number += 1
        self.dealer = self.nxt(self.dealer)
        self.deal = self._new_deal()

    # ----- views -------------------------------------------------------------
    def card_text(self, action: str) -> str:
        return action.partition("+")[0]  # a card with its belote announced: KH+BELOTE

    def presentation(self) -> Presentation:
        from trumps.coinche.presentation import presentation

        return presentation(self.options)

    def view(self, seat: int | str | None) -> dict[str, Any]:
        from trumps.coinche.view import view

        return view(self, None if seat is None else parse_seat(seat, 4))


def deal_packets(cards: list[Card], dealer: int, nxt: Any, pattern: str) -> list[list[Card]]:
    """Deal 8 cards each in packets (§3), from eldest in the play direction."""
    second = nxt(nxt(dealer))
    third = nxt(second)
    order = (nxt(dealer), second, third, nxt(third))
    key = (order, pattern)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _plan(order, _PATTERNS[pattern])
    return [sort_cards([cards[k] for k in positions]) for positions in plan]


_PLANS: dict[tuple[tuple[int, int, int, int], str], list[list[int]]] = {}


def _plan(order: tuple[int, int, int, int], sizes: tuple[int, int, int]) -> list[list[int]]:
    """Which positions of the shuffled pack each seat gets: worked out once
    per seat order and pattern (every deal walked the packets through
    ``nxt`` calls, a tenth of dealing a hand)."""
    plan: list[list[int]] = [[], [], [], []]
    k = 0
    for size in sizes:
        for seat in order:
            plan[seat].extend(range(k, k + size))
            k += size
    return plan
