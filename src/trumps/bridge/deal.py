"""One deal of bridge as a state machine (docs/rules/bridge.md §2, §3): the auction,
the opening lead from declarer's left, dummy exposed after the lead and
played by declarer, thirteen tricks, and optional claims (§3.1).

The hot path is table driven: a card's suit and rank are read from lists
indexed by :attr:`Card.index`, and the legal list is computed once per
state and cached, like the 500 engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from trumps.bridge.auction import Auction
from trumps.bridge.calls import Call, Contract
from trumps.bridge.claims import ACCEPT, REJECT, ClaimCall, claim
from trumps.bridge.play import SUIT_OF, rules_for, trick_winner
from trumps.core.cards import Card, card_texts, sort_cards
from trumps.core.json_types import JSONDict
from trumps.core.protocol import Action
from trumps.core.trick import DONE, Trick, TrickDeal

__all__ = ["AUCTION", "CLAIM", "DONE", "PLAY", "SUIT_OF", "BridgeDeal", "trick_winner"]

# Final: compiled code reads these as C statics, not through the module's dict
AUCTION: Final = "AUCTION"
PLAY: Final = "PLAY"
CLAIM: Final = "CLAIM"


Verifier = Callable[["BridgeDeal", int, int], bool]


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class BridgeDeal(TrickDeal):
    """The state of one deal.  ``hands`` are indexed by seat (0 = N).  Pass
    ``contract``/``declarer`` to start at the opening lead (analysis)."""

    def __init__(
        self,
        dealer: int,
        hands: list[list[Card]],
        vulnerable: tuple[bool, bool] = (False, False),
        contract: Contract | None = None,
        declarer: int | None = None,
        claims: str = "off",
        verifier: Verifier | None = None,
        *,
        in_order: bool = False,
    ) -> None:
        """``in_order``: the hands are in canonical order already (as the
        game deals them: :func:`~trumps.core.cards.deal_sorted`), so they
        are copied, not sorted again."""
        self.dealer = dealer
        self.vulnerable = vulnerable
        if in_order:
            self.hands = [list(h) for h in hands]
        else:
            self.hands = [sort_cards(h) for h in hands]  # S H D C, high to low (no key call per card)
        self.dealt = [list(h) for h in self.hands]
        self.auction = Auction(dealer)
        self.claims = claims
        self.verifier = verifier
        self.phase_ = AUCTION
        self.to_act: int | None = dealer
        self.hand_to_play: int | None = dealer
        self.contract: Contract | None = None
        self.declarer: int | None = None
        self.dummy: int | None = None
        self.trump = -1
        self.exposed: set[int] = set()
        # tricks per seat in won, per side (NS, EW) in side_won: a claim adds to the sides only
        self.next_of = [1, 2, 3, 0]
        self.side_of = (0, 1, 0, 1)  # on the deal, not read from the class: read at every trick
        self._init_trick_play()
        self.claim_state: tuple[int, int, list[int]] | None = None  # claimer, n, responders left
        self.claimed: dict[str, Any] | None = None
        self.no_claim: set[int] = set()  # seats whose claim was rejected this trick
        self._legal: Sequence[Action] | None = None
        if contract is not None:
            assert declarer is not None
            self.auction.done = True
            self.auction.to_act = None
            self._start_play(declarer, contract)

    # ----- protocol --------------------------------------------------------
    @property
    def won(self) -> list[int]:
        """Tricks won per side (NS, EW), claims included."""
        return self.side_won

    @property
    def passed_out(self) -> bool:
        return bool(self.auction.passed_out)

    def _copy_into(self, other: BridgeDeal) -> None:
        other.exposed = set(self.exposed)
        other.no_claim = set(self.no_claim)
        if self.claim_state is not None:
            c, n, left = self.claim_state
            other.claim_state = (c, n, list(left))

    def _compute_legal(self) -> Sequence[Action]:
        phase = self.phase_
        if phase == PLAY:
            seat = self.hand_to_play
            assert seat is not None
            hand = self.hands[seat]
            out: list[Action]
            if self.trick:
                led = self.led
                out = [c for c in hand if SUIT_OF[c.index] == led] or list(hand)
            else:
                out = list(hand)
            if self.claims != "off" and self.to_act not in self.no_claim:
                out.extend(claim(n) for n in range(14 - len(self.tricks)))
            return out
        if phase == AUCTION:
            auction: Auction = (
                self.auction
            )  # typed: native calls, not look-ups by name (it is Any on TrickDeal)
            calls: tuple[Call, ...] = auction.legal()  # shared: the match copies what it hands out
            return calls
        if phase == CLAIM:
            return [ACCEPT, REJECT]
        return []

    def apply_legal(self, action: Action) -> None:
        self._legal = None
        phase = self.phase_
        if phase == PLAY:
            if type(action) is Card:  # the common case first
                if self.trick or self.tricks:
                    assert self.hand_to_play is not None
                    self._play_card(self.hand_to_play, action)
                else:
                    self._lead_first(action)
            elif type(action) is ClaimCall:
                self._claim(action.tricks)
            else:
                raise TypeError(f"not a card or a claim: {action!r}")
        elif phase == AUCTION:
            assert isinstance(action, Call)
            auction: Auction = self.auction
            auction.apply(action)
            if not auction.done:
                self.to_act = self.hand_to_play = auction.to_act
                return
            won = auction.contract()
            if won is None:
                self._finish()
            else:
                self._start_play(*won)
        elif phase == CLAIM:
            assert isinstance(action, ClaimCall)
            self._answer(action)

    # ----- play ------------------------------------------------------------
    def _start_play(self, declarer: int, contract: Contract) -> None:
        self.contract = contract
        self.declarer = declarer
        self.dummy = (declarer + 2) & 3
        self.rules = rules = rules_for(contract.strain)
        self.trump = rules.trump
        self.phase_ = PLAY
        self._set_turn((declarer + 1) & 3)

    def _set_turn(self, seat: int) -> None:
        self.hand_to_play = seat
        self.to_act = self.declarer if seat == self.dummy else seat

    def _lead_first(self, card: Card) -> None:
        """The opening lead; then dummy is faced."""
        seat = self.hand_to_play
        assert seat is not None and self.dummy is not None
        self.exposed.add(self.dummy)
        self._play_card(seat, card)

    def _trick_done(self, trick: Trick) -> bool:
        if self.no_claim:
            self.no_claim = set()
        return len(self.tricks) == 13

    # ----- claims ----------------------------------------------------------
    def _claim(self, n: int) -> None:
        claimer = self.to_act
        assert claimer is not None and self.declarer is not None
        if self.claims == "verify" and self.verifier is not None:
            if self.verifier(self, claimer & 1, n):
                self._settle(claimer, n, "verified")
            else:
                self.no_claim.add(claimer)
            return
        if (claimer & 1) == (self.declarer & 1):
            left = [(self.declarer + 1) & 3, (self.declarer + 3) & 3]
        else:
            left = [self.declarer, (claimer + 2) & 3]
        self.claim_state = (claimer, n, left)
        self.phase_ = CLAIM
        self.to_act = left[0]

    def _answer(self, action: ClaimCall) -> None:
        assert self.claim_state is not None
        claimer, n, left = self.claim_state
        left.pop(0)
        if action is REJECT:
            self.claim_state = None
            self.no_claim.add(claimer)
            self.phase_ = PLAY
            assert self.hand_to_play is not None
            self._set_turn(self.hand_to_play)
        elif left:
            self.to_act = left[0]
        else:
            self.claim_state = None
            self._settle(claimer, n, "accepted")

    def _settle(self, claimer: int, n: int, how: str) -> None:
        rest = 13 - len(self.tricks)
        side = claimer & 1
        self.side_won[side] += n
        self.side_won[1 - side] += rest - n
        self.claimed = {"seat": claimer, "tricks": n, "how": how, "remaining": rest}
        self._finish()

    # ----- results ---------------------------------------------------------
    def declarer_tricks(self) -> int:
        """Tricks won by declarer's side (0 before the contract is known)."""
        return 0 if self.declarer is None else self.side_won[self.declarer & 1]

    def visible_hands(self, seat: int | None) -> set[int]:
        """Seats whose current hands ``seat`` may see: its own and dummy
        once the opening lead is faced."""
        out = set(self.exposed)
        if seat is not None:
            out.add(seat)
        return out

    def record(self, names: Sequence[str]) -> JSONDict:
        """The deal as dealt (every hidden card: for the stored record only)."""
        vul = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}
        return {
            "dealer": names[self.dealer],
            "vulnerable": vul[self.vulnerable],
            "hands": {names[s]: card_texts(h) for s, h in enumerate(self.dealt)},
        }
