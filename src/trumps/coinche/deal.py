"""One deal of coinche as a state machine (docs/rules/coinche.md §17): auction, then
eight tricks with the trick-1 meld declarations and the belote
announcements.  Scoring lives in :mod:`.scoring`, the match in :mod:`.game`.

The hot path (a card played) is a few list look-ups in the contract's
:class:`~trumps.coinche.play.TrickRules`; the legal list is cached until the
next action.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from trumps.coinche.auction import Auction
from trumps.coinche.belote import BelotePlay
from trumps.coinche.calls import AT, NT, Call, Contract
from trumps.coinche.melds import Announcement, Declaration, announcements, declarations, meld_winner
from trumps.coinche.play import DIX_DE_DER, TrickRules, rules_for
from trumps.core.cards import Card, card_texts
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.protocol import Action
from trumps.core.trick import DONE, Trick, TrickDeal, trick_cards, trick_winner

__all__ = ["AUCTION", "DONE", "PLAY", "BelotePlay", "CoincheDeal", "next_seat", "next_seats"]

# Final: compiled code reads these as C statics, not through the module's dict
AUCTION: Final = "AUCTION"
PLAY: Final = "PLAY"


def next_seat(direction: str) -> Callable[[int], int]:
    """``next(seat)`` for the direction option — the only thing it changes.
    Made once per direction (every deal asks for it)."""
    got = _NEXT.get(direction)
    if got is None:
        step = 3 if direction == "anticlockwise" else 1
        got = _NEXT[direction] = lambda seat: (seat + step) % 4
        _NEXT_OF[direction] = [got(s) for s in range(4)]
    return got


def next_seats(direction: str) -> list[int]:
    """``next_seat(direction)`` as a list, seat -> the next seat: what the
    deal, its auction and the match read (an index, not a call).  Shared:
    read it, never change it."""
    got = _NEXT_OF.get(direction)
    if got is None:
        next_seat(direction)
        got = _NEXT_OF[direction]
    return got


_NEXT: dict[str, Callable[[int], int]] = {}
_NEXT_OF: dict[str, list[int]] = {}  # direction -> seat -> the next seat


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class CoincheDeal(TrickDeal):
    """The state of one deal.  Pass ``contract``/``taker`` to start at the
    play phase (analysis, single-deal scoring)."""

    def __init__(
        self,
        options: Options,
        dealer: int,
        hands: list[list[Card]],
        contract: Contract | None = None,
        taker: int | None = None,
    ) -> None:
        self.o = options
        self.dealer = dealer
        self.next_of = next_seats(str(options.direction))  # shared, never changed
        self.side_of = (0, 1, 0, 1)  # on the deal, not read from the class: read at every trick
        self._init_trick_play()
        self.hands = [list(h) for h in hands]
        self.dealt = [list(h) for h in hands]
        self.auction = Auction(options, dealer, self.next_of)
        self.phase_ = AUCTION
        self.to_act: int | None = self.auction.to_act
        self.hand_to_play: int | None = self.to_act
        self.contract: Contract | None = None
        self.taker: int | None = None
        # read at every legal list of the play (an option is a dictionary look-up behind __getattr__)
        self.announce_belote = bool(options.belote_requires_announcement)
        self.best = 0  # index in the trick on the table of the card winning it so far
        self.card_points = [0, 0]
        self.belote_pairs: dict[tuple[int, int], int] = {}  # (seat, suit) -> cards of it played
        self.belote_events: list[tuple[int, int, str]] = []  # seat, suit, "belote"/"rebelote"
        self.belote_scored: set[tuple[int, int]] = set()
        self.declared: dict[int, Declaration] = {}
        self.meld_order: list[tuple[int, Declaration]] = []
        self.melds_done = options.melds == "none"
        self.meld_team: int | None = None
        self._legal: Sequence[Action] | None = None
        if contract is not None:
            assert taker is not None
            self.auction.done = True
            self.auction.to_act = None
            self.auction.high = (taker, contract.bid)
            self.auction.level = contract.level
            self._start_play(taker, contract)

    # ----- protocol --------------------------------------------------------
    @property
    def thrown_in(self) -> bool:
        """Everybody passed: the deal ended without play."""
        return self.contract is None and self.phase_ == DONE

    @property
    def eldest(self) -> int:
        """The seat after the dealer: first to speak and to lead."""
        return self.next_of[self.dealer]

    @property
    def won(self) -> list[int]:
        """Tricks won per seat."""
        return self.seat_tricks()

    def _copy_into(self, other: CoincheDeal) -> None:
        other.card_points = list(self.card_points)
        other.belote_pairs = dict(self.belote_pairs)
        other.belote_events = list(self.belote_events)
        other.belote_scored = set(self.belote_scored)
        other.declared = dict(self.declared)
        other.meld_order = list(self.meld_order)

    def _compute_legal(self) -> Sequence[Action]:
        phase = self.phase_
        if phase == PLAY:
            seat = self.hand_to_play
            rules: TrickRules = self.rules  # typed: native calls, not look-ups by name (Any on TrickPlay)
            assert seat is not None and rules is not None
            hand = self.hands[seat]
            if not self.melds_done and seat not in self.declared:
                o = self.o
                return list(declarations(hand, bool(o.card_in_multiple_melds), bool(o.long_run_split)))
            trick = self.trick
            best = self.best
            cards = (
                rules.legal(hand, trick, best, (self.trick_seats[best] - seat) % 4 == 2)
                if trick
                else list(hand)
            )
            if self.belote_pairs and self.announce_belote:
                out: list[Action] = list(cards)
                for c in cards:
                    assert c.suit is not None
                    key = (seat, int(c.suit))
                    if self.belote_pairs.get(key) == 0 and c.rank in (15, 16):
                        out.append(BelotePlay(c))
                return out
            return cards
        if phase == AUCTION:
            auction: Auction = self.auction
            calls: tuple[Call, ...] = auction.legal()  # shared: the match copies what it hands out
            return calls
        return []

    def apply_legal(self, action: Action) -> None:
        self._legal = None
        if self.phase_ == PLAY:
            if type(action) is Card:  # the common case first: a card without announcement
                card, announce = action, False
            elif type(action) is BelotePlay:
                card, announce = action.card, True
            elif isinstance(action, Declaration):
                self._declare(action)
                return
            else:
                raise TypeError(f"not a card, belote or declaration: {action!r}")
            seat = self.hand_to_play
            rules: TrickRules = self.rules
            assert seat is not None and rules is not None
            trick = self.trick
            if trick:  # follow the winning card: the legal cards depend on it
                strength = rules.by_led[self.led]
                if strength[card.index] > strength[trick[self.best].index]:
                    self.best = len(trick)
            else:
                self.best = 0
            if self.belote_pairs and card.rank in (15, 16):
                self._belote(seat, card, announce)
            self._play_card(seat, card, None, self.best)
            return
        assert isinstance(action, Call)
        auction: Auction = self.auction
        auction.apply(action)
        if auction.done:
            won = auction.contract()
            if won is None:
                self._finish()
            else:
                self._start_play(*won)
        else:
            self.to_act = self.hand_to_play = auction.to_act

    # ----- play ------------------------------------------------------------
    def _start_play(self, taker: int, contract: Contract) -> None:
        self.contract = contract
        self.taker = taker
        denom = contract.bid.denom  # contract.denom without its Python-level property
        self.rules = rules_for(denom, self.o)
        if denom == AT and self.o.belote_in_all_trump:
            suits = [0, 1, 2, 3]
        elif denom < NT:
            suits = [denom]
        else:
            suits = []
        if suits:  # no set per hand: a scan of its eight cards' indices
            for seat, hand in enumerate(self.hands):
                for s in suits:
                    queen = s * 16 + 13  # Q and K (index = 16 suit + rank - 2)
                    found = 0
                    for c in hand:
                        if c.index == queen or c.index == queen + 1:
                            found += 1
                    if found == 2:
                        self.belote_pairs[(seat, s)] = 0
        self.phase_ = PLAY
        self.to_act = self.hand_to_play = self.eldest

    def _declare(self, decl: Declaration) -> None:
        seat = self.hand_to_play
        assert seat is not None
        self.declared[seat] = decl
        self.meld_order.append((seat, decl))

    def _set_turn(self, seat: int) -> None:
        self.to_act = self.hand_to_play = seat

    def _trick_done(self, trick: Trick) -> bool:
        rules: TrickRules = self.rules
        assert rules is not None
        pts = rules.trick_points(trick_cards(trick))
        last = len(self.tricks) == 8
        if last:
            pts += DIX_DE_DER
        # the trick's cards and winner as native reads, not its properties (trick_cards)
        self.card_points[self.side_of[trick_winner(trick)]] += pts
        if len(self.tricks) == 1 and not self.melds_done:
            self._close_melds()
        return last

    def _belote(self, seat: int, card: Card, announce: bool) -> None:
        assert card.suit is not None
        key = (seat, int(card.suit))
        played = self.belote_pairs.get(key)
        if played is None:
            return
        self.belote_pairs[key] = played + 1
        if played == 0:
            if announce or not self.announce_belote:
                self.belote_scored.add(key)
                self.belote_events.append((seat, key[1], "belote"))
        elif key in self.belote_scored:
            self.belote_events.append((seat, key[1], "rebelote"))

    def _close_melds(self) -> None:
        o = self.o
        trump = self.rules.trump if self.rules is not None else -1
        self.meld_team = meld_winner(self.meld_order, trump, o.meld_equal_value, o.meld_tie_rule)
        self.melds_done = True

    # ----- results -----------------------------------------------------------
    def belote_points(self) -> list[int]:
        """20 per belote scored, per team (automatic: every pair dealt)."""
        out = [0, 0]
        for key in self.belote_pairs:
            seat = key[0]
            if self.announce_belote and key not in self.belote_scored:
                continue
            out[seat % 2] += 20
        return out

    def meld_points(self) -> list[int]:
        """Melds won per team (only the side that won the comparison)."""
        out = [0, 0]
        if self.meld_team is not None:
            for seat, decl in self.meld_order:
                if seat % 2 == self.meld_team:
                    out[self.meld_team] += decl.value
        return out

    def meld_announcements(self) -> list[Announcement]:
        trump = self.rules.trump if self.rules is not None else -1
        return announcements(self.meld_order, trump, self.o.meld_equal_value)

    def record(self, names: Sequence[str]) -> JSONDict:
        """The deal as dealt (every hidden card: for the stored record only)."""
        return {
            "dealer": names[self.dealer],
            "hands": {names[s]: card_texts(h) for s, h in enumerate(self.dealt)},
        }
