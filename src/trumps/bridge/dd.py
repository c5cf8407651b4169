"""Double-dummy analysis of bridge deals, behind a small adapter.

The solver is Bo Haglund's DDS as packaged by ``endplay`` (the ``dds`` extra:
``pip install 'trumps[dds]'``, imported only when a function here is
called), so the rest of the engine never depends on it and the solver can be
swapped by rewriting this one module.  Without endplay, the tables, the lead
analysis and the claim check are answered by trumps' own solver
(:mod:`trumps.solver`): the same numbers, slower (seconds for a table instead
of a fraction of one), with a one-line note logged once; the par comes from
the table (:mod:`trumps.bridge.par`).  Tables are indexed ``[strain][seat]`` with strains
C D H S NT (the auction order) and seats N E S W.

DDS is not safe to call from several threads at once as ``endplay`` calls
it: every ``solve_board`` uses DDS's thread slot 0, and the table calls run
DDS's own worker threads over every slot, so two bot threads solving at the
same time share one transposition table and the process dies (SIGSEGV, or
DDS's ``Sum 7 is not four`` and ``exit``) or gets wrong answers.  Every call
into DDS in the code base therefore goes through the functions of this
module's *gate* (:func:`solve_board`, :func:`calc_dd_table`,
:func:`calc_all_tables`, :func:`dds_par`): a single board solve takes a
thread slot of its own (DDS keeps separate memory per slot, so solves on
different slots run truly in parallel; ctypes releases the GIL), and a table
or par call, which uses every slot, waits until it is alone.  The benchmark
``benchmarks/dds_threads.py`` compares this with one caller at a time, a
dedicated solver thread and a process pool (figures in docs/benchmarks.md).
"""

from __future__ import annotations

import ctypes
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trumps.bridge.calls import STRAINS, Contract
from trumps.bridge.hands import check_deal, format_deal, parse_deal
from trumps.core.cards import Card
from trumps.core.errors import DealError, TrumpsError
from trumps.core.json_types import JSONDict
from trumps.core.seats import SEAT_NAMES_4, parse_seat

if TYPE_CHECKING:
    from trumps.bridge.deal import BridgeDeal
    from trumps.solver.position import Position

__all__ = [
    "DDTable",
    "Par",
    "SolverMissing",
    "available",
    "calc_all_tables",
    "calc_dd_table",
    "dd_table",
    "dd_tables",
    "dds_par",
    "lead_analysis",
    "max_tricks_from",
    "par",
    "solve_board",
]

# endplay enums: Denom spades=0 hearts=1 diamonds=2 clubs=3 nt=4; Player N=0 E=1 S=2 W=3.
_DENOM_OF_STRAIN = (3, 2, 1, 0, 4)
_VUL = {"None": 0, "Both": 1, "NS": 2, "EW": 3}


#: DDS's suit numbers of the strains C D H S NT, as the bridge deal numbers suits (-1: no trumps)
_TRUMP_SUIT = (3, 2, 1, 0, -1)
#: DDS's CalcAllTables takes at most 40 deals with all five strains ("Too many DD tables requested")
TABLES_PER_CALL = 32
_log = logging.getLogger(__name__)
_NOTE = (
    "bridge double dummy: DDS (endplay) is not installed, trumps' own solver answers (slower); "
    "pip install 'trumps[dds]' for DDS"
)
_noted = threading.Event()


class SolverMissing(TrumpsError):
    """DDS (endplay, the ``dds`` extra) is needed here and is not installed."""


def available() -> bool:
    """Whether DDS (endplay) can be imported here; without it the functions
    of this module use trumps' own solver."""
    try:
        _endplay()
    except SolverMissing:
        return False
    return True


def _endplay() -> Any:
    try:
        import endplay.dds as dds
        import endplay.types as types
    except ImportError:  # pragma: no cover - depends on the installation
        raise SolverMissing(
            "double-dummy analysis with DDS needs the endplay package: pip install 'trumps[dds]'"
        ) from None
    return dds, types


def note_own_solver() -> None:
    """Say once per process (a logged warning: one line on stderr unless
    logging is configured otherwise) that bridge double dummy runs on trumps'
    own solver because DDS is not installed."""
    if not _noted.is_set():
        _noted.set()
        _log.warning(_NOTE)


def _own_position(
    hands: Sequence[Sequence[Card]],
    strain: int,
    declarer: int,
    *,
    trick: Sequence[Card] = (),
    trick_seats: Sequence[int] = (),
    leader: int | None = None,
    tricks_left: int = 13,
) -> Position:
    """A bridge position for trumps' own solver: ``hands`` without the cards
    of the current trick, ``leader`` the seat that led it (default: declarer's
    left-hand opponent, the opening lead); the declaring side's total counts
    from here (nothing won yet)."""
    from trumps.solver.position import PLAIN, Position

    side = declarer & 1
    first = trick_seats[0] if trick else (declarer + 1) % 4 if leader is None else leader
    return Position(
        game="bridge",
        family=PLAIN,
        rules=_TRUMP_SUIT[strain],
        options=None,
        n_seats=4,
        active=[0, 1, 2, 3],
        nxt=[1, 2, 3, 0],
        declaring=[s & 1 == side for s in range(4)],
        minimise=False,
        unit="tricks",
        hands=[list(h) for h in hands],
        trick=list(trick),
        trick_seats=list(trick_seats),
        led=trick[0].index // 16 if trick else -1,  # the bridge deck numbers suits by sixteens
        joker_led=False,
        to_play=(first + len(trick)) % 4,
        won=0,
        tricks_left=tricks_left,
        shown_void=[set() for _ in range(4)],
    )


def _own_table(hands: Sequence[Sequence[Card]]) -> DDTable:
    """The 20-cell table by trumps' own solver (20 searches from the first lead)."""
    note_own_solver()
    from trumps.solver import value

    return DDTable(tuple(tuple(value(_own_position(hands, s, p)) for p in range(4)) for s in range(5)))


class _Gate:
    """Who may be inside DDS now: up to ``slots`` board solves at once, each
    on its own DDS thread slot, or one call that uses every slot alone
    (a table or par computation).  A waiting exclusive call stops new
    solves from entering, so a stream of bot solves cannot starve it."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self._free = list(range(self.slots))
        self._alone = False
        self._waiting_alone = 0
        self._cond = threading.Condition()

    @contextmanager
    def slot(self) -> Iterator[int]:
        """Hold one DDS thread slot (its index) for a single solve."""
        with self._cond:
            self._cond.wait_for(lambda: self._free and not self._alone and not self._waiting_alone)
            index = self._free.pop()
        try:
            yield index
        finally:
            with self._cond:
                self._free.append(index)
                self._cond.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        """Hold every slot: DDS runs its own threads over all of them."""
        with self._cond:
            self._waiting_alone += 1
            try:
                self._cond.wait_for(lambda: len(self._free) == self.slots and not self._alone)
            finally:
                self._waiting_alone -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._cond:
                self._alone = False
                self._cond.notify_all()


_GATE: _Gate | None = None
_GATE_LOCK = threading.Lock()


def _dds_threads(raw: Any) -> int:
    """How many thread slots DDS allocated (``SetMaxThreads(0)`` at load:
    one per core, fewer if memory is short).  endplay's ``DDSInfo`` is
    smaller than DDS 2.9's structure (reading it through endplay overruns
    the buffer), so the count is read from a generous buffer at its offset."""
    try:
        buf = ctypes.create_string_buffer(8192)
        raw._dll.GetDDSInfo(buf)
        major = int.from_bytes(buf.raw[0:4], "little", signed=True)
        # DDSInfo: major minor patch, versionString[10] (padded to 24), system,
        # numBits, compiler, constructor, numCores (40), threading, noOfThreads (48):
        # the slots DDS really allocated, fewer than the cores when memory is short
        threads = int.from_bytes(buf.raw[48:52], "little", signed=True)
    except Exception:  # pragma: no cover - an endplay without GetDDSInfo
        return 1
    if major != 2:  # pragma: no cover - another DDS layout: one caller at a time is safe
        return 1
    return threads if 1 <= threads <= 256 else 1


def _gate() -> _Gate:
    global _GATE
    if _GATE is None:
        with _GATE_LOCK:
            if _GATE is None:
                from endplay import _dds

                _GATE = _Gate(_dds_threads(_dds))
    return _GATE


def solve_board(deal: Any) -> list[tuple[Any, int]]:
    """DDS's tricks for each card of the hand to play in an endplay
    ``Deal`` (``first`` and ``trump`` set): ``(card, tricks)`` pairs.  Safe
    from any thread: the solve runs on a DDS thread slot of its own."""
    _endplay()
    from endplay import _dds
    from endplay.dds.solve import SolvedBoard

    with _gate().slot() as index:
        fut = _dds.futureTricks()
        _dds.SolveBoard(deal._data, -1, 3, 1, fut, index)
    return list(SolvedBoard(fut))


def calc_dd_table(deal: object) -> Any:
    """endplay's ``calc_dd_table``, alone in DDS (it uses every slot)."""
    dds, _ = _endplay()
    with _gate().alone():
        return dds.calc_dd_table(deal)


def calc_all_tables(deals: Iterable[object]) -> list[Any]:
    """endplay's ``calc_all_tables``, alone in DDS (it uses every slot)."""
    dds, _ = _endplay()
    with _gate().alone():
        return list(dds.calc_all_tables(list(deals)))


def dds_par(raw: object, vul: object, dealer: object) -> Any:
    """endplay's ``par`` (which solves the table first when given a deal),
    alone in DDS."""
    dds, _ = _endplay()
    with _gate().alone():
        return dds.par(raw, vul, dealer)


def _deal(hands: str | Sequence[Sequence[Card]]) -> Any:
    _, types = _endplay()
    return types.Deal(format_deal(_hands(hands)))


@dataclass(frozen=True)
class DDTable:
    """Double-dummy tricks for each declarer: ``tricks[strain][seat]``."""

    tricks: tuple[tuple[int, ...], ...]
    raw: Any = field(default=None, compare=False, repr=False)  # the solver's own table

    def get(self, strain: str | int, declarer: str | int) -> int:
        s = strain if isinstance(strain, int) else STRAINS.index(strain.upper().replace("N", "NT")[:2])
        return self.tricks[s][parse_seat(declarer)]

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {STRAINS[s]: {SEAT_NAMES_4[p]: self.tricks[s][p] for p in range(4)} for s in range(5)}

    def format(self) -> str:
        lines = ["      C   D   H   S  NT"]
        for p in range(4):
            lines.append(f"{SEAT_NAMES_4[p]}  " + "".join(f"{self.tricks[s][p]:4d}" for s in range(5)))
        return "\n".join(lines)


def _hands(hands: str | Sequence[Sequence[Card]]) -> list[list[Card]]:
    """The hands N E S W of a deal given as a PBN deal string or as hands,
    checked alike (:class:`~trumps.core.errors.DealError` unless they are
    four hands of 13 distinct cards): a solver given anything else answers
    with a made-up table or an error of its own."""
    if isinstance(hands, str):
        return parse_deal(hands)
    try:
        out = [list(h) for h in hands]
        check_deal(out)
    except TypeError:  # not hands of cards: a number, a hand of lists...
        value = hands  # the deal reader's message (one translation)
        raise DealError(f"deal: not a list of cards: {value!r}") from None
    return out


def dd_table(hands: str | Sequence[Sequence[Card]]) -> DDTable:
    """The 20-cell double-dummy table of a deal (PBN deal string or hands):
    by DDS where endplay is installed, else by trumps' own solver."""
    if not available():
        return _own_table(_hands(hands))
    _, types = _endplay()
    raw = calc_dd_table(_deal(hands))
    return DDTable(
        tuple(
            tuple(int(raw[types.Denom(_DENOM_OF_STRAIN[s]), types.Player(p)]) for p in range(4))
            for s in range(5)
        ),
        raw,
    )


def dd_tables(deals: Sequence[str | Sequence[Sequence[Card]]]) -> list[DDTable]:
    """Tables of many deals at once (DDS's batch call, which uses threads,
    in batches of :data:`TABLES_PER_CALL`; one after the other by trumps' own
    solver without endplay)."""
    if not available():
        return [_own_table(_hands(h)) for h in deals]
    _, types = _endplay()
    raws = [
        raw
        for i in range(0, len(deals), TABLES_PER_CALL)
        for raw in calc_all_tables([_deal(h) for h in deals[i : i + TABLES_PER_CALL]])
    ]
    return [
        DDTable(
            tuple(
                tuple(int(raw[types.Denom(_DENOM_OF_STRAIN[s]), types.Player(p)]) for p in range(4))
                for s in range(5)
            ),
            raw,
        )
        for raw in raws
    ]


@dataclass(frozen=True)
class Par:
    """Par result: ``score`` for North–South and the par contracts as
    ``(contract, declarer, result)`` with result the over/under tricks."""

    score: int
    contracts: tuple[tuple[str, str, int], ...]

    def to_dict(self) -> JSONDict:
        return {
            "score": self.score,
            "contracts": [{"contract": c, "declarer": d, "result": r} for c, d, r in self.contracts],
        }

    def format(self) -> str:
        shown = sorted({f"{c} by {d}" + (f" {r:+d}" if r else "") for c, d, r in self.contracts})
        return f"Par {self.score:+d} (NS): " + (", ".join(shown) or "passed out")


def par(hands: str | Sequence[Sequence[Card]] | DDTable, *, vulnerable: str, dealer: str | int) -> Par:
    """Par score (NS view) and contracts of a deal for a vulnerability
    (``None``/``NS``/``EW``/``Both``) and dealer: DDS's par where endplay is
    installed, else :func:`trumps.bridge.par.par_of_table` on the table (the
    same score and contracts on 3,840 compared cases)."""
    if vulnerable not in _VUL:
        raise TrumpsError(f"vulnerability must be None, NS, EW or Both, not {vulnerable!r}")
    if not available() or (isinstance(hands, DDTable) and hands.raw is None):
        from trumps.bridge.par import par_of_table

        table = hands if isinstance(hands, DDTable) else dd_table(hands)
        score, contracts = par_of_table(table.tricks, vulnerable=vulnerable, dealer=parse_seat(dealer))
        return Par(score, contracts)
    _, types = _endplay()
    raw = hands.raw if isinstance(hands, DDTable) else _deal(hands)
    plist = dds_par(raw, types.Vul(_VUL[vulnerable]), types.Player(parse_seat(dealer)))
    out = []
    for c in plist:
        strain = _DENOM_OF_STRAIN.index(int(c.denom))
        contract = Contract(int(c.level), strain, (0, 1, 2)[int(c.penalty) - 1] if int(c.penalty) else 0)
        out.append((str(contract), SEAT_NAMES_4[int(c.declarer)], int(c.result)))
    return Par(int(plist.score), tuple(out))


def lead_analysis(hands: str | Sequence[Sequence[Card]], declarer: str | int, strain: str) -> dict[str, int]:
    """For each opening lead of the defender on declarer's left, the tricks
    declarer's side then takes double dummy."""
    if not available():
        return _own_leads(_hands(hands), parse_seat(declarer), _strain_index(strain))
    _, types = _endplay()
    d = _deal(hands)
    decl = parse_seat(declarer)
    d.first = types.Player((decl + 1) % 4)
    d.trump = types.Denom(_DENOM_OF_STRAIN[_strain_index(strain)])
    solved = solve_board(d)
    return {_card_text(card): 13 - int(tricks) for card, tricks in solved}


def _strain_index(strain: str) -> int:
    return STRAINS.index(strain.upper().replace("N", "NT")[:2])


def _own_leads(hands: list[list[Card]], declarer: int, strain: int) -> dict[str, int]:
    """:func:`lead_analysis` by trumps' own solver: every card of the leader."""
    from trumps.solver import solve

    note_own_solver()
    pos = _own_position(hands, strain, declarer)
    return {card: int(v) for card, v in solve(pos).values.items()}


def _card_text(card: object) -> str:
    text = str(card)  # endplay writes suit symbol then rank, e.g. "♠T"
    suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text[0], text[0])
    return text[1:] + suit


def max_tricks_from(deal: BridgeDeal, side: int) -> int:
    """Double-dummy tricks ``side`` (0 NS, 1 EW) can still win from the
    current position of a deal in play, the current trick included."""
    assert deal.contract is not None
    if not available():
        return _own_max_tricks(deal, side)
    _, types = _endplay()
    hands = [list(h) for h in deal.hands]
    for seat, card in zip(deal.trick_seats, deal.trick, strict=True):
        hands[seat].append(card)
    leader = deal.trick_seats[0] if deal.trick else deal.hand_to_play
    assert leader is not None
    text = format_deal(hands)
    ep = types.Deal(text)
    ep.first = types.Player(leader)
    ep.trump = types.Denom(_DENOM_OF_STRAIN[deal.contract.strain])
    for card in deal.trick:
        ep.play(types.Card(str(card)[-1] + str(card)[:-1]))
    remaining = 13 - len(deal.tricks)
    solved = solve_board(ep)
    best = max(int(t) for _, t in solved)
    to_play = deal.hand_to_play
    assert to_play is not None
    return best if (to_play & 1) == side else remaining - best


def _own_max_tricks(deal: BridgeDeal, side: int) -> int:
    """:func:`max_tricks_from` by trumps' own solver."""
    assert deal.contract is not None and deal.declarer is not None
    note_own_solver()
    decl_side = deal.declarer & 1
    leader = deal.trick_seats[0] if deal.trick else deal.hand_to_play
    from trumps.solver import value

    remaining = 13 - len(deal.tricks)
    pos = _own_position(
        deal.hands,
        deal.contract.strain,
        deal.declarer,
        trick=deal.trick,
        trick_seats=deal.trick_seats,
        leader=leader,
        tricks_left=remaining,
    )
    total = value(pos)  # the declaring side's tricks from here, the current trick included
    return total if side == decl_side else remaining - total
