"""One deal of 500 as a state machine (§15): auction, breach windows, kitty
exchange, exposure, ten tricks.  Scoring lives in :mod:`.scoring`; the match
(dealer rotation, totals, end of game) in :mod:`.game`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from trumps.core.cards import Card, card_texts, remove_card
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.protocol import Action
from trumps.core.trick import Trick, TrickDeal
from trumps.five_hundred.auction import Auction
from trumps.five_hundred.calls import BREACH, MIS, OMIS, PASS, Call, check_contract
from trumps.five_hundred.play import NO_SUIT, JokerLead, TrickRules, joker_leads, rules_for

__all__ = ["FiveHundredDeal", "Seating", "seating", "team_map"]

# Final: compiled code reads these as C statics, not through the module's dict
AUCTION: Final = "AUCTION"
BREACH_PHASE: Final = "BREACH"
KITTY: Final = "KITTY"
PLAY: Final = "PLAY"
# the misère calls, tested by identity at every trick: names of this module
# (C statics when compiled), not look-ups in another module's dictionary
_MIS: Final = MIS
_OMIS: Final = OMIS


def team_map(players_option: str) -> list[int]:
    """Seat → team for ``2v2``, ``2v2v2`` and ``3v3``."""
    if players_option == "2v2":
        return [0, 1, 0, 1]
    if players_option == "2v2v2":
        return [s % 3 for s in range(6)]
    return [s % 2 for s in range(6)]


class Seating:
    """What a deal's start reads of its table size, made once per
    ``players`` option (every deal asked for it): the teams (shared: never
    changed), their number, and the seat order to copy."""

    __slots__ = ("order", "sides", "succ", "team")

    def __init__(self, players_option: str) -> None:
        self.team = team_map(players_option)
        self.sides = max(self.team) + 1
        n = len(self.team)
        self.order = list(range(n))
        self.succ = [(s + 1) % n for s in range(n)]


def seating(players_option: str) -> Seating:
    """The :class:`Seating` of a ``players`` option, made once (shared: read it, never change it)."""
    got = _SEATINGS.get(players_option)
    if got is None:
        got = _SEATINGS[players_option] = Seating(players_option)
    return got


_SEATINGS: dict[str, Seating] = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class FiveHundredDeal(TrickDeal):
    """The state of one deal.  Create with the dealt hands and kitty; pass
    ``contract``/``contractor`` to start at the play phase (analysis)."""

    def __init__(
        self,
        options: Options,
        dealer: int,
        hands: list[list[Card]],
        kitty: list[Card],
        banned: frozenset[int] = frozenset(),
        contract: Call | None = None,
        contractor: int | None = None,
    ) -> None:
        self.o = options
        self.n = len(hands)
        seats = seating(str(options.players))
        self.side_of = seats.team  # shared, never changed
        self.dealer = dealer
        self.hands = [list(h) for h in hands]
        self.dealt = [list(h) for h in hands]
        self.kitty = list(kitty)
        self.discards: list[Card] = []
        self.banned = banned
        self.auction = Auction(options, self.n, dealer, banned)
        self.phase_ = AUCTION
        self.to_act: int | None = self.auction.to_act
        self.hand_to_play: int | None = self.to_act
        self.contract: Call | None = None
        self.contractor: int | None = None
        self.bidding_team: int | None = None
        self.no_contract = False
        self.thrown_in = False
        self.breach_polls: list[int] = []
        self.breach_window = 0
        self.breach_seat: int | None = None
        self.active: list[int] = list(seats.order)
        self.exposed: set[int] = set()
        self.next_of = list(seats.succ)  # its own: _start_play skips the seats sitting out
        # 500's trick tuples carried the led suit: four fields
        self._init_trick_play(trick_width=4, sides=seats.sides)
        self.led = NO_SUIT
        self.shown_void: list[set[int]] = [set() for _ in range(self.n)]
        self._legal: Sequence[Action] | None = None
        if contract is not None:
            assert contractor is not None
            check_contract(contract, options)  # e.g. no misère with nullo_mode off
            self.auction.done = True
            self.auction.to_act = None
            self.auction.high_real = (contractor, contract)
            self._set_contract(contractor, contract)
            self.discards = list(self.kitty)
            self._start_play()

    # ----- protocol --------------------------------------------------------

    @property
    def team(self) -> Sequence[int]:
        """Seat -> team."""
        return self.side_of

    @property
    def joker_led(self) -> bool:
        """Whether the trick on the table was led by a joker."""
        return bool(self.trick) and self.trick[0].suit is None

    @property
    def won(self) -> list[int]:
        """Tricks won per seat."""
        return self.seat_tricks()

    def _copy_into(self, other: FiveHundredDeal) -> None:
        other.discards = list(self.discards)
        other.breach_polls = list(self.breach_polls)
        other.active = list(self.active)
        # next_of is rewritten in place by _start_play: the copy gets its own,
        # so a clone that reaches the play phase cannot change the original's
        # turn order.
        other.next_of = list(self.next_of)
        other.exposed = set(self.exposed)
        other.shown_void = [set(s) for s in self.shown_void]

    def _compute_legal(self) -> Sequence[Action]:
        phase = self.phase_
        if phase == PLAY:
            rules: TrickRules = self.rules
            assert self.hand_to_play is not None and rules is not None
            hand = self.hands[self.hand_to_play]
            if self.trick:
                return rules.legal_follow(hand, self.led)  # a new list
            if rules.trump is None and any(c.suit is None for c in hand):
                void = self.shown_void[self.hand_to_play] if self.o.joker_lead_suit_restriction else None
                return joker_leads(hand, void)
            return list(hand)
        if phase == AUCTION:
            auction: Auction = (
                self.auction
            )  # typed: native calls, not look-ups by name (it is Any on TrickDeal)
            calls: tuple[Call, ...] = auction.legal()  # shared: the match copies what it hands out
            return calls
        if phase == KITTY:
            assert self.contractor is not None
            return list(self.hands[self.contractor])
        if phase == BREACH_PHASE:
            return [PASS, BREACH]
        return []

    def apply_legal(self, action: Action) -> None:
        self._legal = None
        phase = self.phase_
        if phase == PLAY:  # a card (or a joker naming its suit) from the hand to play
            seat = self.hand_to_play
            rules: TrickRules = self.rules
            assert seat is not None and rules is not None
            if type(action) is Card:  # the common case first
                if self.trick and rules.eff[action.index] != self.led:
                    self.shown_void[seat].add(self.led)
                self._play_card(seat, action)
            elif type(action) is JokerLead:
                self._play_card(seat, action.card, int(action.suit))
            else:
                raise TypeError(f"not a card to play: {action!r}")
        elif phase == AUCTION:
            assert isinstance(action, Call)
            auction: Auction = self.auction
            auction.apply(action)
            if auction.done:
                self._end_auction()
            else:
                self.to_act = self.hand_to_play = auction.to_act
        elif phase == KITTY:
            assert isinstance(action, Card)
            self._discard(action)
        elif phase == BREACH_PHASE:
            assert isinstance(action, Call)
            self._breach_call(action)

    # ----- phases -----------------------------------------------------------
    def _set_contract(self, seat: int, call: Call) -> None:
        self.contract = call
        self.contractor = seat
        self.bidding_team = self.team[seat]
        if call is MIS or call is OMIS:  # call.is_misere, without a Python-level property call
            self.rules = rules_for(None, joker_low=bool(self.o.joker_low_in_misere))
        else:
            self.rules = rules_for(call.denom)

    def _breach_eligible(self) -> bool:
        c = self.contract
        return bool(self.o.breach_enabled) and c is not None and (c is MIS or c is OMIS or c.level >= 7)

    def _open_breach_window(self, window: int) -> bool:
        assert self.contractor is not None
        if not self._breach_eligible() or self.breach_seat is not None:
            return False
        polls = [
            (self.contractor + k) % self.n
            for k in range(1, self.n)
            if self.team[(self.contractor + k) % self.n] != self.bidding_team
        ]
        self.breach_polls = polls
        self.breach_window = window
        self.phase_ = BREACH_PHASE
        self.to_act = self.hand_to_play = polls[0]
        return True

    def _end_auction(self) -> None:
        won = self.auction.contract()
        if won is None:
            if self.o.all_pass_action == "play_no_trumps":
                self.no_contract = True
                self.rules = rules_for(None)
                self.discards = list(self.kitty)
                self._start_play()
            else:
                self.thrown_in = True
                self._finish()
            return
        seat, call = won
        self._set_contract(seat, call)
        if not self._open_breach_window(1):
            self._start_kitty()

    def _breach_call(self, call: Call) -> None:
        seat = self.breach_polls.pop(0)
        if call is BREACH:
            self.breach_seat = seat
            self.breach_polls = []
        if self.breach_polls:
            self.to_act = self.hand_to_play = self.breach_polls[0]
            return
        if self.breach_window == 1:
            self._start_kitty()
        else:
            self._start_play()

    def _start_kitty(self) -> None:
        assert self.contractor is not None
        self.hands[self.contractor].extend(self.kitty)
        self.phase_ = KITTY
        self.to_act = self.hand_to_play = self.contractor

    def _discard(self, card: Card) -> None:
        assert self.contractor is not None
        remove_card(self.hands[self.contractor], card)
        self.discards.append(card)
        if len(self.discards) == len(self.kitty) and not self._open_breach_window(2):
            self._start_play()

    def _start_play(self) -> None:
        o = self.o
        c = self.contract
        n = self.n
        # who decides for each hand: the contractor plays a misère partner's exposed hand (both_hands)
        self.actor_of = list(range(n))
        if (c is MIS or c is OMIS) and self.contractor is not None:
            partners = [s for s in range(n) if self.team[s] == self.bidding_team and s != self.contractor]
            if o.nullo_plays == "own_hand":
                self.active = [s for s in range(n) if s not in partners]
            else:
                self.exposed.update(partners)
                for s in partners:
                    self.actor_of[s] = self.contractor
            if c is OMIS and o.open_misere_expose == "before_lead":
                self.exposed.add(self.contractor)
        for i, s in enumerate(self.active):
            self.next_of[s] = self.active[(i + 1) % len(self.active)]
        if self.no_contract or o.first_lead == "eldest":
            leader = (self.dealer + 1) % n
            while leader not in self.active:
                leader = (leader + 1) % n
        else:
            assert self.contractor is not None
            leader = self.contractor
        self.phase_ = PLAY
        self._set_turn(leader)

    def _set_turn(self, seat: int) -> None:
        self.hand_to_play = seat
        self.to_act = self.actor_of[seat]

    def _trick_done(self, trick: Trick) -> bool:
        # calls are interned: identity, not a Python-level attribute or property,
        # at every trick
        if (
            len(self.tricks) == 1
            and self.contract is _OMIS
            and self.o.open_misere_expose == "after_first_trick"
        ):
            assert self.contractor is not None
            self.exposed.add(self.contractor)
        return len(self.tricks) == 10 or self._decided()

    def _decided(self) -> bool:
        c = self.contract
        if (c is not _MIS and c is not _OMIS) or not self.o.end_hand_when_decided:  # not c.is_misere
            return False
        taken = self.team_tricks()[self.bidding_team or 0]
        if self.breach_seat is not None:
            return taken >= 3
        return taken >= 1

    # ----- results -------------------------------------------------------------
    def visible_hands(self, seat: int | None) -> set[int]:
        """Seats whose current hands ``seat`` may see."""
        out = set(self.exposed)
        if seat is not None:
            out.add(seat)
        return out

    def record(self, names: Sequence[str]) -> JSONDict:
        """The deal as dealt (every hidden card: for the stored record only)."""
        return {
            "dealer": names[self.dealer],
            "hands": {names[s]: card_texts(h) for s, h in enumerate(self.dealt)},
            "kitty": card_texts(self.kitty),
        }
