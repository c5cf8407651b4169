"""The game protocol every game implements, and the match loop they share.

The shape follows OpenSpiel and python-chess: a state knows whose turn it is
(:attr:`Match.to_act`), lists its :meth:`~Match.legal_actions`, and
:meth:`~Match.apply` takes one of them (or its notation string) or raises
without changing anything.  :meth:`~Match.view` is the only way state leaves
the engine; :meth:`~Match.to_json` / :meth:`Match.from_json` write and replay
a complete game record.

A :class:`Match` is a sequence of deals.  Each game supplies a :class:`Deal`
(the state machine of one deal: auction, exchanges, play) and the scoring and
end-of-game rules; this module owns the parts that are the same for every
game: the action log, seat checks, seeded dealing, records and replay.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from mypy_extensions import mypyc_attr

from trumps.core.cards import Card, card_words
from trumps.core.copying import shallow_copy
from trumps.core.errors import (
    DealError,
    GameOver,
    IllegalAction,
    OptionError,
    ParseError,
    RecordError,
    WrongSeat,
)
from trumps.core.json_types import JSONDict
from trumps.core.options import Options, OptionSchema
from trumps.core.presentation import Presentation
from trumps.core.seats import SEAT_NAMES_4, parse_seat, seat_name
from trumps.core.shuffle import seeded, seeded_randbelow, seeded_randbelow_and_shuffle, seeded_shuffle

__all__ = ["RECORD_FORMAT", "Action", "Deal", "Match"]

RECORD_FORMAT = "trumps.record"
RECORD_VERSION = 1


class Action(Protocol):
    """What every game's actions share (cards, calls, claims...): immutable
    values, hashable and equal by value, whose ``str()`` is the notation that
    the game's ``parse_action`` reads back.  A protocol rather than a union so
    a game outside trumps brings its own action types without touching this
    module; code that needs a game's fields narrows with ``isinstance``."""

    def __hash__(self) -> int: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __str__(self) -> str: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class Deal(ABC):
    """The state machine of one deal.  Implementations assume the action was
    checked against :meth:`legal_actions` by the :class:`Match`."""

    to_act: int | None
    hand_to_play: int | None

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]: ...

    @abstractmethod
    def apply_legal(self, action: Action) -> None: ...

    @property
    @abstractmethod
    def is_done(self) -> bool: ...

    @property
    @abstractmethod
    def phase(self) -> str: ...

    @abstractmethod
    def copy(self) -> Self: ...


D = TypeVar("D", bound=Deal, covariant=True)


@mypyc_attr(allow_interpreted_subclasses=True)
class Match(ABC, Generic[D]):
    """A whole game (a match of deals) behind the common protocol."""

    game: ClassVar[str]
    schema: ClassVar[OptionSchema]

    players: int
    options: Options
    seed: int
    first_dealer: int
    dealer: int
    deal: D
    deal_number: int
    totals: list[int]
    # one row per deal, each game's own keys; read key by key across the
    # package (room, bots, envs), so its values stay Any
    results: list[dict[str, Any]]
    log: list[tuple[int, Action, float | None]]
    deal_records: list[JSONDict]
    _winner: int | None
    _over: bool
    _init: JSONDict
    # deal 0's shuffle, drawn with the first dealer (_setup), and the pack it
    # was shuffled from: taken by the first _shuffled
    _first_cards: list[Card] | None
    _first_pack: Sequence[Card] | None

    # ----- construction ------------------------------------------------
    def __init__(
        self,
        options: Options,
        *,
        seed: int | None = None,
        deal: object = None,
        dealer: int | str | None = None,
        contract: str | None = None,
        declarer: int | str | None = None,
        _deals: Sequence[object] | None = None,
    ) -> None:
        """Every game is built from complete options, a seed, an optional
        explicit first deal and dealer, and an optional contract to start
        at the play phase (``_deals``: the recorded deals, for replay).
        Each game writes its own; not an ``abstractmethod`` only because
        mypyc, which compiles the engines, cannot build an abstract
        ``__init__`` with keyword-only arguments."""
        raise NotImplementedError  # a game's class defines its own

    def _setup(
        self,
        options: Options,
        players: int,
        *,
        seed: int | None,
        dealer: int | str | None,
        init: JSONDict,
        pack: Sequence[Card] | None = None,
    ) -> None:
        """The parts every game starts with.  ``pack``: the cards, in their
        order, that the first deal will shuffle (:meth:`_shuffled`), when it
        is shuffled (not an explicit or stored deal): with the first dealer
        drawn too, the two generators are seeded side by side, in the time
        of one (:func:`~trumps.core.shuffle.seeded_randbelow_and_shuffle`)."""
        self.options = options
        self.players = players
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._first_cards = None
        self._first_pack = None
        if dealer is None:
            # random.Random(f"{self.seed}/dealer").randrange(players), draw for draw
            if pack is not None:
                cards = list(pack)
                self.first_dealer = seeded_randbelow_and_shuffle(
                    f"{self.seed}/dealer", players, f"{self.seed}/0", cards
                )
                self._first_cards = cards
                self._first_pack = pack
            else:
                self.first_dealer = seeded_randbelow(f"{self.seed}/dealer", players)
        else:
            self.first_dealer = parse_seat(dealer, players)
        self.dealer = self.first_dealer
        self.deal_number = 0
        self.results = []
        self.log = []
        self.deal_records = []
        self._winner = None
        self._over = False
        self._init = init

    def deal_rng(self, number: int) -> random.Random:
        """The shuffle of deal ``number`` is a pure function of the seed:
        ``random.Random(f"{seed}/{number}")`` (:func:`~trumps.core.shuffle.seeded`)."""
        return seeded(f"{self.seed}/{number}")

    def shuffle_deal(self, number: int, cards: list[Card]) -> None:
        """Shuffle ``cards`` for deal ``number`` in place, as
        ``self.deal_rng(number).shuffle(cards)`` does
        (:func:`~trumps.core.shuffle.seeded_shuffle`: without the generator
        object, in C where it is built)."""
        seeded_shuffle(f"{self.seed}/{number}", cards)

    def _shuffled(self, number: int, pack: Sequence[Card]) -> list[Card]:
        """A copy of ``pack`` shuffled for deal ``number``
        (:meth:`shuffle_deal`): deal 0's was drawn by :meth:`_setup` when it
        was given this pack."""
        first = self._first_cards
        if first is not None and number == 0 and pack is self._first_pack:
            self._first_cards = self._first_pack = None
            return first
        cards = list(pack)
        self.shuffle_deal(number, cards)
        return cards

    def __repr__(self) -> str:
        """The game, the options that differ from its defaults, the seed and
        where it stands: enough to tell two games apart in a debugger or a
        log, and to rebuild the start with :func:`trumps.new_game`."""
        defaults = self.schema.resolve(None, {})
        changed = {k: v for k, v in self.options.items() if defaults.get(k) != v}
        options = f" options={changed!r}" if changed else ""
        if self._over:
            where = f"over, scores {self.totals}, winner {self._winner}"
        else:
            actor = self.deal.to_act
            who = "nobody" if actor is None else self.seat_name(actor)
            where = f"deal {self.deal_number + 1} {self.phase}, {who} to act, scores {self.totals}"
        return f"<{type(self).__name__} {self.game!r}{options} seed={self.seed}: {where}>"

    # ----- the protocol --------------------------------------------------
    @property
    def to_act(self) -> str | None:
        """The name of the seat that must decide now (``"E"``; declarer for
        bridge's dummy), as views, errors and the wire name it; ``None`` when
        the game is over.  :attr:`to_act_index` is the same seat's number."""
        seat = None if self._over else self.deal.to_act
        return None if seat is None else self.seat_names[seat]

    @property
    def to_act_index(self) -> int | None:
        """The number of the seat to act (0 is the first seat in the order of
        :attr:`seat_names`), or ``None`` when the game is over."""
        return None if self._over else self.deal.to_act

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def scores(self) -> list[int]:
        """Running total per team."""
        return list(self.totals)

    @property
    def winner(self) -> int | None:
        """The winning team once the game is over (``None`` before)."""
        return self._winner

    @property
    def phase(self) -> str:
        return "GAME_OVER" if self._over else self.deal.phase

    def seat_name(self, seat: int | str) -> str:
        """The name of a seat given by number or by name (checked)."""
        if type(seat) is int and 0 <= seat < self.players:
            return self.seat_names[seat]
        return seat_name(parse_seat(seat, self.players), self.players)

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Every seat's name in seat order (a view names seats some thirty
        times: indexing this is a quarter of the cost of calling :meth:`seat_name`)."""
        return SEAT_NAMES_4 if self.players == 4 else tuple(str(s) for s in range(self.players))

    def seat(self, value: int | str) -> int:
        return parse_seat(value, self.players)

    @abstractmethod
    def team_of(self, seat: int) -> int: ...

    @property
    @abstractmethod
    def teams(self) -> list[list[int]]: ...

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act, in the game's order: a new
        list the caller owns.  The deal keeps its own (cached until the next
        action, and checked by :meth:`apply`), so changing the list handed
        out cannot change what the game accepts."""
        if self._over:
            return []
        return list(self.deal.legal_actions())

    @abstractmethod
    def parse_action(self, text: object) -> Action:
        """Read an action from its notation in the current context (anything
        but a string: :class:`~trumps.core.errors.ParseError`)."""

    def apply(self, action: Action | str, seat: object = None, *, time: float | None = None) -> None:
        """Apply ``action`` (an action object or its notation) for the seat to
        act.  With ``seat`` given, it must be the seat to act.  Raises a
        :class:`~trumps.core.errors.TrumpsError` and changes nothing if the
        action is malformed or illegal."""
        if self._over:
            raise GameOver("the game is over")
        actor = self.deal.to_act
        if actor is None:  # pragma: no cover - a finished deal is replaced at once
            raise IllegalAction("nobody is to act")
        if seat is not None:
            who = parse_seat(seat, self.players)
            if who != actor:
                raise WrongSeat(f"it is {self.seat_name(actor)}'s turn, not {self.seat_name(who)}'s")
        if isinstance(action, str):
            action = self.parse_action(action)
        legal = self.deal.legal_actions()
        if not _listed(action, legal):
            raise IllegalAction(self.explain_illegal(action, legal))
        self.deal.apply_legal(action)
        self.log.append((actor, action, time))
        if self.deal.is_done:
            self._finish_deal()

    def explain_illegal(self, action: Action, legal: Sequence[Action]) -> str:
        """The message for an illegal action: games override to say why."""
        shown = " ".join(str(a) for a in legal[:40])
        return f"{action} is not legal now; legal: {shown}"

    def default_action(self) -> Action:
        """What a move timer plays for a player who runs out of time: the
        first legal action (games order legal actions so that is a pass or a
        low card)."""
        legal = self.legal_actions()
        if not legal:
            raise GameOver("the game is over")
        return legal[0]

    @abstractmethod
    def view(self, seat: object) -> dict[str, Any]:  # JSON; read key by key by bots, envs, cli
        """Everything ``seat`` may see (``None``: a spectator), as JSON data.
        (``seat`` is typed ``object`` so that a compiled build refuses what is
        no seat with the same ParseError as the Python sources, not a TypeError.)"""

    def presentation(self) -> Presentation:
        """How a card table draws this game under its options: the bidding
        box, the call labels and names, the variant's words, the target (see
        :mod:`trumps.core.presentation`).  Public and the same for every seat.
        A game without its own gets buttons for whatever is legal."""
        return {"box": None, "labels": {}, "names": {}, "terms": {}, "target": None}

    # ----- how records and notices read an action ----------------------------
    #: the phases whose actions may be cards from the hand to play: a replay
    #: shows such an action as a card (played, or discarded) when the hand
    #: to play holds the card it names (:meth:`card_text`)
    card_phases: ClassVar[frozenset[str]] = frozenset({"PLAY"})
    #: keys of a seat's own view, besides its hand, that the others' views
    #: hide (the 500 kitty and discards): a replay, which shows every hand,
    #: takes them from that seat's view
    own_view_keys: ClassVar[tuple[str, ...]] = ()

    def card_text(self, action: str) -> str:
        """The card ``action`` plays, as the views write cards: an action
        that says more than its card (a 500 joker lead naming a suit, a
        coinche card with its belote) gives its card alone.  Any other
        action comes back as it is."""
        return action

    def spoken(self, action: str) -> str:
        """``action`` as an English sentence says it: the game's own label
        of a call (``Pass``, ``7♠``: :meth:`presentation`), ``10♥`` for a
        card, not the codes ``P``, ``7S``, ``TH``."""
        label = self.presentation().get("labels", {}).get(action)
        if label:
            return str(label)
        return card_words(action) or action

    # ----- the match loop ------------------------------------------------
    @abstractmethod
    def _finish_deal(self) -> None:
        """Score the finished deal, test for the end, start the next deal."""

    # ----- copies, records, replay -----------------------------------------
    def clone(self) -> Match[D]:
        """An independent copy of the whole state."""
        other = shallow_copy(self)
        other.deal = self.deal.copy()
        other.totals = list(self.totals)
        other.results = list(self.results)
        other.log = list(self.log)
        other.deal_records = list(self.deal_records)
        return other

    def history(self) -> list[tuple[str, str]]:
        """The action log as (seat name, notation) pairs."""
        return [(self.seat_name(s), str(a)) for s, a, _ in self.log]

    def to_json(self) -> JSONDict:
        """The complete game record: options, every deal as dealt, every
        action with its seat (and time when given), results and scores.
        This is the stored record, not a view: it holds every hidden card."""
        actions = []
        for s, a, t in self.log:
            entry: JSONDict = {"seat": self.seat_name(s), "action": str(a)}
            if t is not None:
                entry["time"] = t
            actions.append(entry)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options.to_dict(),
            "seed": self.seed,
            "dealer": self.seat_name(self.first_dealer),
            **{k: v for k, v in self._init.items() if v is not None},
            "deals": [dict(d) for d in self.deal_records],
            "actions": actions,
            "results": [dict(r) for r in self.results],
            "scores": list(self.totals),
            "winner": self._winner,
            "over": self._over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object] | str) -> Match[D]:
        """Rebuild a game from :meth:`to_json` output by replaying its
        actions.  Raises :class:`RecordError` if it is malformed or does not
        replay to the recorded scores."""
        return cls._replay(read_record(data))

    @classmethod
    def _replay(cls, record: Mapping[str, Any]) -> Match[D]:  # unchecked JSON: checked here
        """:meth:`from_json` of a record already read into a mapping.  A game
        that overrides :meth:`from_json` calls this rather than
        ``super().from_json``, which the compiled engines get wrong in a
        classmethod (mypyc passes the metaclass as ``cls``)."""
        if record.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a trumps record (format {record.get('format')!r})")
        if record.get("game") != cls.game:
            raise RecordError(f"record is for game {record.get('game')!r}, not {cls.game!r}")
        actions = record.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"record 'actions' must be a list, not {actions!r}")
        scores = record.get("scores")
        if "scores" in record and not isinstance(scores, list):
            raise RecordError(f"record 'scores' must be a list, not {scores!r}")
        try:
            match = cls._from_record(record)
            for i, entry in enumerate(actions):
                if not isinstance(entry, Mapping):
                    raise RecordError(f"action {i + 1} is malformed: {entry!r}")
                when = entry.get("time")
                if when is not None and (isinstance(when, bool) or not isinstance(when, int | float)):
                    raise RecordError(f"action {i + 1} has a time that is no number: {entry!r}")
                try:
                    match.apply(entry["action"], entry["seat"], time=when)
                except (KeyError, TypeError) as exc:
                    raise RecordError(f"action {i + 1} is malformed: {entry!r}") from exc
                except IllegalAction as exc:
                    raise RecordError(
                        f"action {i + 1} ({entry.get('action')}) does not replay: {exc}"
                    ) from exc
        except (ParseError, OptionError, DealError) as exc:
            # bad options or deals inside a record make the record malformed:
            # callers of load_game catch one error class for a bad record
            raise RecordError(f"record does not parse: {exc}") from exc
        if scores is not None and scores != match.totals:
            raise RecordError(f"record scores {scores} differ from the replayed {match.totals}")
        return match

    @classmethod
    def _from_record(cls, data: Mapping[str, Any]) -> Match[D]:  # unchecked JSON: cls() checks it
        """A match in its initial state, as the record says it was created."""
        from trumps.core.errors import DealError

        options = cls.schema.resolve(None, data.get("options") or {})
        deals = data.get("deals")
        if deals is not None and not isinstance(deals, list):
            raise DealError("record 'deals' must be a list")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise DealError("record 'seed' must be an integer")
        dealer = cls._record_dealer(options, data)
        # types checked here: a compiled class refuses a wrong one with a
        # TypeError, the Python sources with a ParseError (both: RecordError)
        for name, value in (("dealer", dealer), ("declarer", data.get("declarer"))):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
                raise DealError(f"record {name!r} is not a seat: {value!r}")
        contract = data.get("contract")
        if contract is not None and not isinstance(contract, str):
            raise DealError(f"record 'contract' is not a contract: {contract!r}")
        return cls(
            options,
            seed=seed,
            deal=data.get("deal"),
            dealer=dealer,
            contract=contract,
            declarer=data.get("declarer"),
            _deals=deals,
        )

    @classmethod
    def _record_dealer(cls, options: Options, data: Mapping[str, object]) -> Any:
        """The ``dealer`` argument to rebuild a recorded game with."""
        return data.get("dealer")


def read_record(data: Mapping[str, object] | str) -> Mapping[str, Any]:  # unchecked JSON: readers check
    """A record given as JSON text or as a mapping, as a mapping."""
    import json

    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise RecordError("a game record must be a JSON object")
    return data


def cards_json(cards: Sequence[Card]) -> list[str]:
    return [str(c) for c in cards]


def _listed(action: Action, legal: Sequence[Action]) -> bool:
    """``action in legal``, by identity first: an action a player takes
    from the legal list (or parses: cards and calls are made once each) is
    the object listed, and ``in`` compares each action before it through
    the rich comparison, a hundred instructions an action, at every action.
    Equality decides only when no listed object is this one.  (A list and
    a tuple apart: compiled, each loop is then its type's own indexing.)"""
    if isinstance(legal, list):  # noqa: SIM114
        for a in legal:
            if a is action:
                return True
    elif isinstance(legal, tuple):
        for a in legal:
            if a is action:
                return True
    return action in legal
