"""Double-dummy analysis through DDS, behind a small adapter.

The solver is Bo Haglund's DDS as packaged by ``endplay`` (an optional
dependency, imported only when a function here is called), so the rest of
the engine never depends on it and the solver can be swapped by rewriting
this one module.  Tables are indexed ``[strain][seat]`` with strains
C D H S NT (the auction order) and seats N E S W.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from trumps.bridge.calls import STRAINS, Contract
from trumps.bridge.hands import format_deal, parse_deal
from trumps.core.cards import Card
from trumps.core.errors import TrumpsError
from trumps.core.seats import SEAT_NAMES_4, parse_seat

if TYPE_CHECKING:
    from trumps.bridge.deal import BridgeDeal

__all__ = [
    "DDTable",
    "Par",
    "SolverMissing",
    "available",
    "dd_table",
    "lead_analysis",
    "max_tricks_from",
    "par",
]

# endplay enums: Denom spades=0 hearts=1 diamonds=2 clubs=3 nt=4; Player N=0 E=1 S=2 W=3.
_DENOM_OF_STRAIN = (3, 2, 1, 0, 4)
_VUL = {"None": 0, "Both": 1, "NS": 2, "EW": 3}


class SolverMissing(TrumpsError):
    """The double-dummy solver (``pip install endplay``) is not installed."""


def available() -> bool:
    """Whether the solver can be imported here."""
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
        raise SolverMissing("double-dummy analysis needs the endplay package: pip install endplay") from None
    return dds, types


def _deal(hands: str | Sequence[Sequence[Card]]) -> Any:
    _, types = _endplay()
    text = format_deal(parse_deal(hands) if isinstance(hands, str) else hands)
    return types.Deal(text)


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


def dd_table(hands: str | Sequence[Sequence[Card]]) -> DDTable:
    """The 20-cell double-dummy table of a deal (PBN deal string or hands)."""
    dds, types = _endplay()
    raw = dds.calc_dd_table(_deal(hands))
    return DDTable(
        tuple(
            tuple(int(raw[types.Denom(_DENOM_OF_STRAIN[s]), types.Player(p)]) for p in range(4))
            for s in range(5)
        ),
        raw,
    )


def dd_tables(deals: Sequence[str | Sequence[Sequence[Card]]]) -> list[DDTable]:
    """Tables of many deals at once (DDS's batch call, which uses threads)."""
    dds, types = _endplay()
    raws = list(dds.calc_all_tables([_deal(h) for h in deals]))
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "contracts": [{"contract": c, "declarer": d, "result": r} for c, d, r in self.contracts],
        }

    def format(self) -> str:
        shown = sorted({f"{c} by {d}" + (f" {r:+d}" if r else "") for c, d, r in self.contracts})
        return f"Par {self.score:+d} (NS): " + (", ".join(shown) or "passed out")


def par(hands: str | Sequence[Sequence[Card]] | DDTable, *, vulnerable: str, dealer: str | int) -> Par:
    """Par score (NS view) and contracts of a deal for a vulnerability
    (``None``/``NS``/``EW``/``Both``) and dealer."""
    dds, types = _endplay()
    if vulnerable not in _VUL:
        raise TrumpsError(f"vulnerability must be None, NS, EW or Both, not {vulnerable!r}")
    table = hands if isinstance(hands, DDTable) and hands.raw is not None else None
    raw = table.raw if table is not None else _deal(hands) if not isinstance(hands, DDTable) else None
    if raw is None:
        raise TrumpsError("par needs the deal or a table computed by dd_table")
    plist = dds.par(raw, types.Vul(_VUL[vulnerable]), types.Player(parse_seat(dealer)))
    out = []
    for c in plist:
        strain = _DENOM_OF_STRAIN.index(int(c.denom))
        contract = Contract(int(c.level), strain, (0, 1, 2)[int(c.penalty) - 1] if int(c.penalty) else 0)
        out.append((str(contract), SEAT_NAMES_4[int(c.declarer)], int(c.result)))
    return Par(int(plist.score), tuple(out))


def lead_analysis(hands: str | Sequence[Sequence[Card]], declarer: str | int, strain: str) -> dict[str, int]:
    """For each opening lead of the defender on declarer's left, the tricks
    declarer's side then takes double dummy."""
    dds, types = _endplay()
    d = _deal(hands)
    decl = parse_seat(declarer)
    d.first = types.Player((decl + 1) % 4)
    d.trump = types.Denom(_DENOM_OF_STRAIN[STRAINS.index(strain.upper().replace("N", "NT")[:2])])
    solved = dds.solve_board(d)
    return {_card_text(card): 13 - int(tricks) for card, tricks in solved}


def _card_text(card: Any) -> str:
    text = str(card)  # endplay writes suit symbol then rank, e.g. "♠T"
    suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text[0], text[0])
    return text[1:] + suit


def max_tricks_from(deal: BridgeDeal, side: int) -> int:
    """Double-dummy tricks ``side`` (0 NS, 1 EW) can still win from the
    current position of a deal in play, the current trick included."""
    dds, types = _endplay()
    assert deal.contract is not None
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
    solved = list(dds.solve_board(ep))
    best = max(int(t) for _, t in solved)
    to_play = deal.hand_to_play
    assert to_play is not None
    return best if (to_play & 1) == side else remaining - best
