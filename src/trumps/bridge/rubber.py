"""Rubber bridge and Chicago score sheets (docs/rules/bridge.md §6, §8).

A sheet is fed one deal at a time (:meth:`RubberSheet.record`) and keeps the
We/They columns above and below the line, games, vulnerability and bonuses,
so the engine, the CLI (``trumps score bridge --rubber``) and tests share one
implementation.  Sides are 0 = NS (We) and 1 = EW (They).

>>> s = RubberSheet()
>>> _ = s.record(0, "2H", 9); _ = s.record(1, "3NT", 9)
>>> s.vulnerable(1), s.below_current
(True, [0, 0])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trumps.bridge.calls import Contract
from trumps.bridge.scoring import contract_points, overtrick_points, slam_bonus, undertrick_penalty
from trumps.core.errors import ParseError
from trumps.core.json_types import JSONDict

__all__ = [
    "ChicagoSheet",
    "DealEntry",
    "RubberSheet",
    "back_score_units",
    "parse_rubber_record",
    "score_rubber",
]


def back_score_units(margin: int) -> int:
    """Whole hundreds of a rubber margin, an odd 50 or more counting 100 (§6.7)."""
    return (abs(margin) + 50) // 100


@dataclass
class DealEntry:
    """What one deal wrote on the sheet, per side."""

    below: list[int] = field(default_factory=lambda: [0, 0])
    above: list[int] = field(default_factory=lambda: [0, 0])
    items: list[tuple[int, str, int]] = field(default_factory=list)  # (side, what, points)
    game_won: int | None = None

    def add(self, side: int, what: str, points: int, *, below: bool = False) -> None:
        if points == 0:
            return
        (self.below if below else self.above)[side] += points
        self.items.append((side, what, points))

    def to_dict(self) -> JSONDict:
        return {
            "below": list(self.below),
            "above": list(self.above),
            "items": [{"side": ("NS", "EW")[s], "what": w, "points": p} for s, w, p in self.items],
            "game_won": None if self.game_won is None else ("NS", "EW")[self.game_won],
        }


def _check(side: int, c: Contract, tricks: int, honors: tuple[int, int]) -> None:
    """Reject a deal that cannot happen (before anything is written)."""
    if side not in (0, 1):
        raise ParseError(f"the declaring side is 0 (NS) or 1 (EW), not {side!r}")
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ParseError(f"tricks must be 0 to 13, not {tricks!r}")
    hside, hpoints = honors
    allowed = (0, 150) if c.strain == 4 else (0, 100, 150)  # NT: only four aces (150)
    if hpoints not in allowed or (hpoints and hside not in (0, 1)):
        raise ParseError(
            f"honours {honors!r} are not possible at {c} (NT: 150 for four aces; suits: 100 or 150)"
        )


def _score_common(
    e: DealEntry, side: int, c: Contract, tricks: int, vul: bool, honors: tuple[int, int]
) -> int:
    """Everything but game bonuses; returns the trick points below the line
    (0 when the contract failed)."""
    need = c.level + 6
    hside, hpoints = honors
    if hside >= 0 and hpoints:
        e.add(hside, "honors", hpoints)
    if tricks < need:
        e.add(1 - side, "undertricks", undertrick_penalty(c.risk, vul, need - tricks))
        return 0
    points = contract_points(c)
    e.add(side, "contract", points, below=True)
    e.add(side, "overtricks", overtrick_points(c, vul, tricks - need))
    e.add(side, "insult", (0, 50, 100)[c.risk])
    e.add(side, "slam", slam_bonus(c.level, vul))
    return points


class RubberSheet:
    """One rubber's score sheet."""

    def __init__(self) -> None:
        self.entries: list[DealEntry] = []
        self.below = [0, 0]
        self.above = [0, 0]
        self.below_current = [0, 0]
        self.games = [0, 0]
        self.over = False
        self.unfinished_bonus: DealEntry | None = None

    def vulnerable(self, side: int) -> bool:
        return self.games[side] >= 1

    def record(
        self, side: int, contract: str | Contract, tricks: int, honors: tuple[int, int] = (-1, 0)
    ) -> DealEntry:
        """Score a played deal: ``side`` declared ``contract`` and won ``tricks``."""
        if self.over:
            raise ParseError("the rubber is over")
        c = Contract.parse(contract)
        _check(side, c, tricks, honors)
        e = DealEntry()
        points = _score_common(e, side, c, tricks, self.vulnerable(side), honors)
        if points:
            self.below_current[side] += points
            if self.below_current[side] >= 100:
                e.game_won = side
                self.games[side] += 1
                self.below_current = [0, 0]
                if self.games[side] == 2:
                    e.add(side, "rubber", 700 if self.games[1 - side] == 0 else 500)
                    self.over = True
        self._post(e)
        return e

    def _post(self, e: DealEntry) -> None:
        self.entries.append(e)
        for s in (0, 1):
            self.below[s] += e.below[s]
            self.above[s] += e.above[s]

    def finish(self) -> DealEntry | None:
        """Close an unfinished rubber (§6.6): 300 to the only side with a
        game, 100 to the only side with a partscore in the current game."""
        if self.over or self.unfinished_bonus is not None:
            return None
        e = DealEntry()
        g = self.games
        if (g[0] >= 1) != (g[1] >= 1):
            e.add(0 if g[0] else 1, "unfinished game", 300)
        p = self.below_current
        if (p[0] > 0) != (p[1] > 0):
            e.add(0 if p[0] else 1, "unfinished partscore", 100)
        self.unfinished_bonus = e
        self._post(e)
        return e

    def totals(self) -> list[int]:
        return [self.below[s] + self.above[s] for s in (0, 1)]

    def winner(self) -> int | None:
        t = self.totals()
        return None if t[0] == t[1] else (0 if t[0] > t[1] else 1)

    def back_score(self) -> list[int]:
        """Back-score units per seat N, E, S, W (sums to zero)."""
        t = self.totals()
        units = back_score_units(t[0] - t[1])
        ns = units if t[0] >= t[1] else -units
        return [ns, -ns, ns, -ns]


class ChicagoSheet:
    """Four-deal bridge (§8): duplicate-style deal scores, honours, game
    bonuses by accumulation, +100 for a fourth-deal partscore."""

    def __init__(self, scheme: str = "dealer_side") -> None:
        self.scheme = scheme
        self.entries: list[DealEntry] = []
        self.below = [0, 0]
        self.above = [0, 0]
        self.below_current = [0, 0]
        self.games = [0, 0]

    @property
    def deals_played(self) -> int:
        return len(self.entries)

    @property
    def over(self) -> bool:
        return len(self.entries) >= 4

    def vulnerability(self, deal_number: int, dealer: int) -> tuple[bool, bool]:
        """``(NS, EW)`` vulnerable on deal 1–4 of the round with ``dealer``."""
        k = (deal_number - 1) % 4
        if k == 0:
            return (False, False)
        if k == 3:
            return (True, True)
        side = dealer & 1 if self.scheme == "dealer_side" else 1 - (dealer & 1)
        return (side == 0, side == 1)

    def record(
        self,
        side: int,
        contract: str | Contract,
        tricks: int,
        vul: tuple[bool, bool],
        honors: tuple[int, int] = (-1, 0),
    ) -> DealEntry:
        if self.over:
            raise ParseError("the Chicago round is over (four deals)")
        c = Contract.parse(contract)
        _check(side, c, tricks, honors)
        e = DealEntry()
        points = _score_common(e, side, c, tricks, vul[side], honors)
        if points:
            self.below_current[side] += points
            if self.below_current[side] >= 100:
                e.game_won = side
                self.games[side] += 1
                e.add(side, "game", 500 if vul[side] else 300)
                self.below_current = [0, 0]
            elif len(self.entries) == 3:
                e.add(side, "fourth-deal partscore", 100)
        self.entries.append(e)
        for s in (0, 1):
            self.below[s] += e.below[s]
            self.above[s] += e.above[s]
        return e

    def totals(self) -> list[int]:
        return [self.below[s] + self.above[s] for s in (0, 1)]


def parse_rubber_record(text: str) -> list[tuple[int, Contract, int, tuple[int, int]]]:
    """Read a rubber record: deals separated by ``;`` or new lines, each
    ``SIDE CONTRACT TRICKS [HONOURS]`` where SIDE is ``NS``/``EW`` (or
    ``We``/``They``) and HONOURS is e.g. ``NS100`` or ``EW150``.  ``#``
    starts a comment.  Example: ``NS 2H 9; EW 3NT 9; NS 4S 10 NS100``."""
    sides = {"NS": 0, "N": 0, "S": 0, "WE": 0, "EW": 1, "E": 1, "W": 1, "THEY": 1}
    out = []
    for n, raw in enumerate(text.replace(";", "\n").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) not in (3, 4) or parts[0].upper() not in sides:
            raise ParseError(
                f"rubber record line {n}: expected 'SIDE CONTRACT TRICKS [HONOURS]', got {raw!r}"
            )
        try:
            tricks = int(parts[2])
        except ValueError:
            raise ParseError(f"rubber record line {n}: tricks must be a number, not {parts[2]!r}") from None
        honors = (-1, 0)
        if len(parts) == 4:
            h = parts[3].upper()
            if h[:2] not in ("NS", "EW") or h[2:] not in ("100", "150"):
                raise ParseError(f"rubber record line {n}: honours are NS100, NS150, EW100 or EW150")
            honors = (sides[h[:2]], int(h[2:]))
        out.append((sides[parts[0].upper()], Contract.parse(parts[1]), tricks, honors))
    return out


def score_rubber(text: str) -> RubberSheet:
    """Score a whole rubber record (see :func:`parse_rubber_record`); a
    rubber that does not finish is closed with the unfinished bonuses."""
    sheet = RubberSheet()
    for side, c, tricks, honors in parse_rubber_record(text):
        sheet.record(side, c, tricks, honors)
    if not sheet.over:
        sheet.finish()
    return sheet
