"""The game of coinche: a match of deals to the target score behind the
common protocol (:class:`~trumps.core.protocol.Match`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from trumps.coinche.auction import bid_table
from trumps.coinche.calls import Call, Contract
from trumps.coinche.deal import AUCTION, PLAY, BelotePlay, CoincheDeal, next_seats
from trumps.coinche.melds import Declaration
from trumps.coinche.options import SCHEMA
from trumps.coinche.scoring import game_end, score_deal
from trumps.core.cards import Card, deal_sorted, sort_cards
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
_IN_ORDER = sort_cards(_DECK)
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
        # deal 0 shuffled with the first dealer's draw, unless it is given
        pack = _DECK if deal is None and not _deals else None
        self._setup(options, 4, seed=seed, dealer=dealer, init=init, pack=pack)
        self.next_of = next_seats(str(options.direction))  # shared, never changed
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
            cards = self._shuffled(number, _DECK)
            hands = deal_sorted(cards, _deal_plans(self.options)[self.dealer], 4, _IN_ORDER)
        deal = CoincheDeal(self.options, self.dealer, hands, contract, taker)
        self.deal_records.append(deal.record(self.seat_names))
        return deal

    def _read_deal(self, spec: object) -> list[list[Card]]:
        return _READER.read(spec)[0]

    # ----- protocol --------------------------------------------------------
    def team_of(self, seat: int) -> int:
        return seat % 2

    @property
    def teams(self) -> list[list[int]]:
        return [[0, 2], [1, 3]]

    def parse_action(self, text: object) -> Action:
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
        names = self.seat_names  # indexed: cheaper than a seat_name call per seat
        contract = d.contract
        taker = d.taker
        if d.thrown_in or contract is None or taker is None:
            self.results.append(
                {
                    "deal": self.deal_number + 1,
                    "dealer": names[d.dealer],
                    "contract": None if contract is None else str(contract),
                    "taker": None if taker is None else names[taker],
                    "thrown_in": d.thrown_in,
                    "points": [0, 0],
                    "scores": list(self.totals),
                }
            )
            limit = int(self.options.max_deals)
            if limit > 0 and len(self.results) >= limit:  # thrown-in deals count toward max_deals
                self._over = True
                self._winner = (
                    None if self.totals[0] == self.totals[1] else int(self.totals[1] > self.totals[0])
                )
                return
            self._next_deal()
            return
        taker_team = taker % 2
        tricks = d.team_tricks()
        belote = d.belote_points()
        melds = d.meld_points()
        alone = tricks[taker_team] == 8 and d.won[taker] == 8  # seats' tricks counted only for a capot
        s = score_deal(self.options, contract, taker_team, d.card_points, tricks, belote, melds, alone)
        self.totals = [self.totals[0] + s.points[0], self.totals[1] + s.points[1]]
        # one dict built at once, its keys in the order the records have always had
        self.results.append(
            {
                "deal": self.deal_number + 1,
                "dealer": names[d.dealer],
                "contract": str(contract),
                "taker": names[taker],
                "thrown_in": False,
                "tricks": tricks,
                "card_points": list(d.card_points),
                "belote": belote,
                "melds": melds,
                "made": s.made,
                "multiplier": s.multiplier,
                "points": s.points,
                "scores": list(self.totals),
            }
        )
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
        self.dealer = self.next_of[self.dealer]
        self.deal = self._new_deal()

    # ----- views -------------------------------------------------------------
    def card_text(self, action: str) -> str:
        return action.partition("+")[0]  # a card with its belote announced: KH+BELOTE

    def presentation(self) -> Presentation:
        from trumps.coinche.presentation import presentation

        return presentation(self.options)

    def view(self, seat: object) -> dict[str, Any]:
        from trumps.coinche.view import view

        return view(self, None if seat is None else parse_seat(seat, 4))


def deal_packets(cards: list[Card], dealer: int, nxt: Callable[[int], int], pattern: str) -> list[list[Card]]:
    """Deal 8 cards each in packets (§3), from eldest in the play direction."""
    second = nxt(nxt(dealer))
    third = nxt(second)
    order = (nxt(dealer), second, third, nxt(third))
    return deal_sorted(cards, _seats_of(order, _PATTERNS[pattern]), 4, _IN_ORDER)


def _deal_plans(o: Options) -> list[list[int]]:
    """Per dealer, the seat each position of the shuffled pack goes to under
    the options' direction and packet pattern: worked out once per option
    set (kept in its memo), not walked through the packets at every deal."""
    plans: list[list[int]] | None = o.memo.get("coinche.deal_plans")
    if plans is None:
        after = next_seats(str(o.direction))
        sizes = _PATTERNS[str(o.deal_pattern)]
        plans = []
        for dealer in range(4):
            first = after[dealer]
            second = after[first]
            third = after[second]
            plans.append(_seats_of((first, second, third, after[third]), sizes))
        o.memo["coinche.deal_plans"] = plans
    return plans


def _seats_of(order: tuple[int, int, int, int], sizes: tuple[int, int, int]) -> list[int]:
    """The seat each position of the shuffled pack goes to, the seats in
    ``order`` (eldest first) taking packets of ``sizes``."""
    seat_of: list[int] = []
    for size in sizes:
        for seat in order:
            seat_of.extend([seat] * size)
    return seat_of
