"""The game of bridge behind the common protocol: one duplicate board, a
rubber, or a Chicago round of four deals (docs/rules/bridge.md §6–§8).

The deal state machine is :mod:`.deal`; the per-form score sheets are
:mod:`.scoring` and :mod:`.rubber`.  This module owns dealing, dealer
rotation, vulnerability and the end of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from trumps.bridge.calls import DOUBLE, REDOUBLE, Call, Contract
from trumps.bridge.claims import REJECT, ClaimCall
from trumps.bridge.deal import AUCTION, CLAIM, PLAY, BridgeDeal
from trumps.bridge.hands import DECK, deal_from_any, format_deal
from trumps.bridge.options import DUPLICATE_FORMS, SCHEMA
from trumps.bridge.rubber import ChicagoSheet, RubberSheet
from trumps.bridge.scoring import board_dealer, board_vulnerability, deal_score, honors, vulnerable_sides
from trumps.core.cards import Card, deal_sorted, sort_cards
from trumps.core.errors import GameOver, OptionError, ParseError, RecordError
from trumps.core.json_types import JSONDict
from trumps.core.options import Options
from trumps.core.presentation import Presentation
from trumps.core.protocol import Action, Match, read_record
from trumps.core.seats import parse_seat

__all__ = ["Bridge"]

_VUL_NAME = {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "Both"}
# per dealer, the seat each position of the shuffled pack goes to (dealt one
# at a time from the dealer's left), and the pack in canonical order
_SEATS_OF = [[(dealer + 1 + p % 4) & 3 for p in range(52)] for dealer in range(4)]
_IN_ORDER = sort_cards(DECK)


@mypyc_attr(allow_interpreted_subclasses=True)  # cls.__new__ skips __init__: copies (trumps.core.copying)
class Bridge(Match[BridgeDeal]):
    """A game of bridge.  Create it with :func:`trumps.new_game`:

    >>> import trumps
    >>> g = trumps.new_game("bridge", options={"scoring": "duplicate", "board": 5}, seed=1)
    >>> g.to_act, g.deal.vulnerable
    ('N', (True, False))
    """

    game = "bridge"
    schema = SCHEMA

    def __init__(
        self,
        options: Options,
        *,
        seed: int | None = None,
        deal: object = None,  # a deal spec (or text), checked by the reader
        dealer: int | str | None = None,
        contract: str | None = None,
        declarer: int | str | None = None,
        _deals: Sequence[object] | None = None,
    ) -> None:
        self.form = "duplicate" if options.scoring in DUPLICATE_FORMS else str(options.scoring)
        if isinstance(deal, Mapping) and deal.get("dealer") is not None:
            # a deal given as a record mapping names its dealer: never ignore it silently
            named = parse_seat(deal["dealer"])
            if dealer is not None and parse_seat(dealer) != named:
                raise OptionError(f"the deal is dealt by {'NESW'[named]}, not {dealer}")
            dealer = named
        board = int(options.board)
        if board:
            fixed = board_dealer(board)
            if dealer is not None and parse_seat(dealer) != fixed:
                raise OptionError(
                    f"board {board} is dealt by {'NESW'[fixed]}, not {'NESW'[parse_seat(dealer)]}"
                )
            dealer = fixed
        self._explicit = deal_from_any(deal) if deal is not None else None
        init: JSONDict = {
            "deal": format_deal(self._explicit) if self._explicit is not None else None,
            "contract": str(Contract.parse(contract)) if contract is not None else None,
            "declarer": "NESW"[parse_seat(declarer)] if declarer is not None else None,
        }
        # deal 0 shuffled with the first dealer's draw, unless it is given
        pack = DECK if self._explicit is None and not _deals else None
        self._setup(options, 4, seed=seed, dealer=dealer, init=init, pack=pack)
        self.totals = [0, 0]
        self.rubber: RubberSheet | None = RubberSheet() if self.form == "rubber" else None
        self.chicago: ChicagoSheet | None = (
            ChicagoSheet(str(options.chicago_vul_scheme)) if self.form == "chicago" else None
        )
        self._stored = list(_deals or [])
        self.deal_starts: tuple[int, ...] = (0,)  # log index where each deal begins
        self._single = contract is not None
        start: Contract | None = None
        seat: int | None = None
        if contract is not None:
            start = Contract.parse(contract)
            if declarer is None:
                raise OptionError("a contract needs its declarer's seat")
            seat = parse_seat(declarer)
        elif declarer is not None:
            raise OptionError("declarer is only meaningful with a contract")
        self.deal = self._new_deal(start, seat)
        if isinstance(deal, Mapping) and deal.get("vulnerable") is not None:
            named_vul = vulnerable_sides(str(deal["vulnerable"]))
            if named_vul != self.deal.vulnerable:
                raise OptionError(
                    f"the deal says vulnerable {deal['vulnerable']}, but this game's first deal is "
                    f"{_VUL_NAME[self.deal.vulnerable]} (set the vulnerability or board option)"
                )

    # ----- dealing ---------------------------------------------------------
    def vulnerability(self) -> tuple[bool, bool]:
        """``(NS, EW)`` vulnerable for the deal about to be dealt."""
        if self.rubber is not None:
            return (self.rubber.vulnerable(0), self.rubber.vulnerable(1))
        if self.chicago is not None:
            return self.chicago.vulnerability(self.chicago.deals_played + 1, self.dealer)
        if self.options.board:
            return vulnerable_sides(board_vulnerability(int(self.options.board)))
        return vulnerable_sides(str(self.options.vulnerability))

    def _new_deal(self, contract: Contract | None = None, declarer: int | None = None) -> BridgeDeal:
        number = self.deal_number
        in_order = False
        if number < len(self._stored):
            stored = self._stored[number]
            hands = deal_from_any(stored.get("hands", stored) if isinstance(stored, Mapping) else stored)
        elif number == 0 and self._explicit is not None:
            hands = [list(h) for h in self._explicit]
        else:
            cards = self._shuffled(number, DECK)
            # dealt one at a time from the dealer's left, each hand sorted
            hands = deal_sorted(cards, _SEATS_OF[self.dealer], 4, _IN_ORDER)
            in_order = True
        verifier = _dd_verify if self.options.claims == "verify" else None
        deal = BridgeDeal(
            self.dealer, hands, self.vulnerability(), contract, declarer, str(self.options.claims), verifier,
            in_order=in_order,
        )  # fmt: skip
        self.deal_records.append(deal.record(self.seat_names))
        return deal

    # ----- protocol --------------------------------------------------------
    def team_of(self, seat: int) -> int:
        return seat & 1

    @property
    def teams(self) -> list[list[int]]:
        return [[0, 2], [1, 3]]

    def parse_action(self, text: object) -> Action:
        if not isinstance(text, str):
            raise ParseError(f"not an action: {text!r}")
        phase = self.deal.phase
        if phase == AUCTION:
            return Call(text)
        if phase == CLAIM:
            return ClaimCall.parse(text)
        t = text.strip().upper()
        if t.startswith("CLAIM") or t == "CONCEDE":
            return ClaimCall.parse(t)
        return Card(text)

    def default_action(self) -> Action:
        """What a move timer plays (see :meth:`Match.default_action`): a pass
        in the auction, the lowest legal card (a non-trump first) in the play
        (the legal list runs from the ace of spades down), and REJECT when
        asked about a claim, so play simply goes on."""
        legal = self.legal_actions()
        if not legal:
            raise GameOver("the game is over")
        d = self.deal
        if d.phase == CLAIM:
            return REJECT
        if d.phase == PLAY:
            cards = [a for a in legal if isinstance(a, Card)]
            trump = d.contract.trump if d.contract is not None else None
            return min(cards, key=lambda c: (c.suit is trump, c.rank))
        return legal[0]

    def explain_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        d = self.deal
        shown = " ".join(str(a) for a in legal[:40])
        if d.phase == AUCTION and isinstance(action, Call):
            a = d.auction
            if action.is_bid and a.last_bid is not None:
                return f"{action} is insufficient over {a.last_bid}; legal: {shown}"
            if action is DOUBLE:
                return f"X is legal only over an opponent's undoubled bid; legal: {shown}"
            if action is REDOUBLE:
                return f"XX is legal only over an opponent's double of your side's bid; legal: {shown}"
        if d.phase == PLAY and isinstance(action, Card):
            seat = d.hand_to_play if d.hand_to_play is not None else 0
            if action not in d.hands[seat]:
                if seat == d.dummy:
                    return f"{action} is not in {self.seat_name(seat)}'s hand (dummy)"
                return f"{action} is not in {self.seat_name(seat)}'s hand"
            return f"{action}: you must follow suit ({'SHDC'[d.led]}); legal: {shown}"
        if isinstance(action, ClaimCall):
            return f"{action} is not possible now (claims: {self.options.claims}); legal: {shown}"
        return f"{action} is not legal in phase {d.phase}; legal: {shown}"

    # ----- the match loop --------------------------------------------------
    def _finish_deal(self) -> None:
        d = self.deal
        name = self.seat_name
        result: JSONDict = {
            "deal": len(self.results) + 1,
            "dealer": name(d.dealer),
            "vulnerable": _VUL_NAME[d.vulnerable],
            "passed_out": d.passed_out,
            "contract": None if d.contract is None else str(d.contract),
            "declarer": None if d.declarer is None else name(d.declarer),
            "tricks": None if d.contract is None else d.declarer_tricks(),
        }
        if d.claimed is not None:
            result["claim"] = {**d.claimed, "seat": name(d.claimed["seat"])}
        if self.form == "duplicate":
            self._score_duplicate(d, result)
        elif self.form == "rubber":
            self._score_rubber(d, result)
        else:
            self._score_chicago(d, result)
        result["scores"] = list(self.totals)
        self.results.append(result)
        if not self._over:
            self._next_deal(same_dealer=d.passed_out and self.form == "chicago")

    def _score_duplicate(self, d: BridgeDeal, result: JSONDict) -> None:
        ns = 0
        if d.contract is not None and d.declarer is not None:
            s = deal_score(d.contract, d.vulnerable[d.declarer & 1], d.declarer_tricks())
            ns = s if d.declarer & 1 == 0 else -s
        result["points"] = [ns, -ns]
        self.totals = [self.totals[0] + ns, self.totals[1] - ns]
        self._end(None if self.totals[0] == 0 else (0 if self.totals[0] > 0 else 1))

    def _honors(self, d: BridgeDeal) -> tuple[int, int]:
        assert d.contract is not None
        seat, points = honors(d.dealt, d.contract.trump)
        return (seat & 1 if seat >= 0 else -1, points)

    def _score_rubber(self, d: BridgeDeal, result: JSONDict) -> None:
        sheet = self.rubber
        assert sheet is not None
        if d.contract is not None and d.declarer is not None:
            e = sheet.record(d.declarer & 1, d.contract, d.declarer_tricks(), self._honors(d))
            result["sheet"] = e.to_dict()
            result["points"] = [e.below[s] + e.above[s] for s in (0, 1)]
        else:
            result["points"] = [0, 0]
        if self._single and not sheet.over:
            extra = sheet.finish()
            if extra is not None:
                result["unfinished"] = extra.to_dict()
        self.totals = sheet.totals()
        result["games"] = list(sheet.games)
        if sheet.over or self._single:
            result["back_score"] = sheet.back_score()
            self._end(sheet.winner())

    def _score_chicago(self, d: BridgeDeal, result: JSONDict) -> None:
        sheet = self.chicago
        assert sheet is not None
        if d.contract is not None and d.declarer is not None:
            e = sheet.record(d.declarer & 1, d.contract, d.declarer_tricks(), d.vulnerable, self._honors(d))
            result["sheet"] = e.to_dict()
            result["points"] = [e.below[s] + e.above[s] for s in (0, 1)]
        else:
            result["points"] = [0, 0]
            result["redeal"] = True
        self.totals = sheet.totals()
        if sheet.over or self._single:
            t = self.totals
            self._end(None if t[0] == t[1] else (0 if t[0] > t[1] else 1))

    def _end(self, winner: int | None) -> None:
        self._over = True
        self._winner = winner

    def _next_deal(self, *, same_dealer: bool = False) -> None:
        self.deal_starts = (*self.deal_starts, len(self.log))
        self.deal_number += 1
        if not same_dealer:
            self.dealer = (self.dealer + 1) & 3
        self.deal = self._new_deal()

    def finish_rubber(self) -> None:
        """Stop an unfinished rubber now and score it (§6.6)."""
        if self.rubber is None or self._over:
            raise OptionError("only an unfinished rubber can be stopped")
        extra = self.rubber.finish()
        self._init = {**self._init, "stopped": True}  # recorded so that a replay stops too
        self.totals = self.rubber.totals()
        self.results.append(
            {
                "deal": None,
                "unfinished": None if extra is None else extra.to_dict(),
                "scores": list(self.totals),
            }
        )
        self._over = True
        self._winner = self.rubber.winner()

    # ----- views and records -------------------------------------------------
    def presentation(self) -> Presentation:
        from trumps.bridge.presentation import presentation

        return presentation(self.options)

    def view(self, seat: object) -> dict[str, Any]:
        from trumps.bridge.view import view

        return view(self, None if seat is None else parse_seat(seat))

    def clone(self) -> Bridge:
        """An independent copy (the rubber/Chicago sheets included)."""
        import copy

        other = super().clone()
        assert isinstance(other, Bridge)
        other.rubber = copy.deepcopy(self.rubber)
        other.chicago = copy.deepcopy(self.chicago)
        return other

    def to_pbn(self) -> str:
        """Every deal so far as PBN 2.1 (deal, auction, play, result, score)."""
        from trumps.bridge.pbn import records_from_game, write_pbn

        return write_pbn(records_from_game(self))

    def to_lin(self) -> str:
        """Every deal so far as BBO LIN, one line per deal."""
        from trumps.bridge.lin import write_lin
        from trumps.bridge.pbn import records_from_game

        return write_lin(records_from_game(self))

    @classmethod
    def from_json(cls, data: Mapping[str, object] | str) -> Bridge:
        """Replay a record (see :meth:`Match.from_json`); a rubber stopped
        unfinished with :meth:`finish_rubber` is stopped again."""
        record = read_record(data)  # JSON text read once; not a mapping: RecordError
        if not record.get("stopped"):
            match = cls._replay(record)
            assert isinstance(match, Bridge)
            return match
        body = {k: v for k, v in record.items() if k not in ("scores", "stopped")}
        match = cls._replay(body)
        assert isinstance(match, Bridge)
        match.finish_rubber()
        if "scores" in record and list(record["scores"]) != match.totals:
            raise RecordError(f"record scores {record['scores']} differ from the replayed {match.totals}")
        return match

    @classmethod
    def _record_dealer(cls, options: Options, data: Mapping[str, object]) -> Any:
        return None if options.board else data.get("dealer")


def _dd_verify(deal: BridgeDeal, side: int, n: int) -> bool:
    """Claim check (§3.1 ``verify``): can ``side`` win ``n`` more tricks
    against any defence?  By DDS where installed, else trumps' own solver."""
    from trumps.bridge.dd import max_tricks_from

    return max_tricks_from(deal, side) >= n
