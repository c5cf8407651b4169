"""Scoring a 500 deal (§9), the breach side bet (§11) and the end of the
game (§12), as pure functions of numbers so a calculator, the engine and the
tests share them.

>>> contract_points("7S", 10)
250
>>> contract_points("8C", 10), contract_points("7NT", 6)
(260, -220)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trumps.core.options import Options
from trumps.five_hundred.calls import MIS, OMIS, Call, check_contract
from trumps.five_hundred.options import resolve_options

__all__ = [
    "DealScore",
    "ScoringRules",
    "apply_breach",
    "breach_succeeded",
    "capped",
    "contract_points",
    "contract_value",
    "defender_points",
    "game_end",
    "made",
    "rules_game_end",
    "score",
    "score_deal",
    "scoring_rules",
]

CAP = 490


def _call(contract: Call | str) -> Call:
    """``Call(contract)``, without the Python-level ``Call.__new__`` when it
    is a call already (the engine's case: four times a deal)."""
    return contract if isinstance(contract, Call) else Call(contract)


def _items(values: object, name: str) -> list[object]:
    """A list or tuple of a calculator's argument, else ParseError."""
    from trumps.core.errors import ParseError

    if not isinstance(values, list | tuple):
        raise ParseError(f"{name} must be a list, not {values!r}")
    return list(values)


def _misere(c: Call) -> bool:
    """``c.is_misere`` as a compiled identity test (calls are interned)."""
    return c is MIS or c is OMIS


def contract_value(contract: Call | str, options: Options | None = None) -> int:
    """``V``: the Avondale value of a bid, or the misère points option."""
    c = _call(contract)
    o = options if options is not None else resolve_options()  # not `or`: a Mapping's len() is a Python call
    if c.kind == "BID":
        return c.value
    if c.kind == "MIS":
        return int(o.nullo_points)
    if c.kind == "OMIS":
        return int(o.open_nullo_points)
    raise ValueError(f"{c} is not a contract")


def made(contract: Call | str, bidders_tricks: int) -> bool:
    c = _call(contract)
    if _misere(c):
        return bidders_tricks == 0
    return bidders_tricks >= c.level


def contract_points(contract: Call | str, bidders_tricks: int, options: Options | None = None) -> int:
    """The bidders' points: ``+V`` made (``max(V, 250)`` for a slam of a
    suit/NT contract), ``-V`` failed."""
    c = _call(contract)
    v = contract_value(c, options)
    if not made(c, bidders_tricks):
        return -v
    if c.kind == "BID" and bidders_tricks == 10:
        return max(v, 250)
    return v


def defender_points(contract: Call | str | None, tricks: int, options: Options) -> int:
    """A non-bidding team's 10 points a trick (none against misère when
    ``misere_defender_points`` is ``none``)."""
    if contract is not None and _misere(_call(contract)) and options.misere_defender_points == "none":
        return 0
    return 10 * tricks


def capped(old: int, points: int, must_bid_to_win: bool) -> int:
    """A defending team's new score: with ``must_bid_to_win`` trick points
    never take it above 490 (and never lower it)."""
    if not must_bid_to_win:
        return old + points
    return max(old, min(old + points, CAP))


def breach_succeeded(contract: Call | str, bidders_tricks: int) -> bool:
    """§11.3: a suit contract fails by 2+ tricks; a misère contractor takes 3+."""
    c = _call(contract)
    if _misere(c):
        return bidders_tricks >= 3
    return c.level - bidders_tricks >= 2


def apply_breach(score: int, delta: int, inclusive: bool = True) -> int:
    """§11.5: breach points cannot take a team out (or further in)."""
    limit = 490 if inclusive else 500
    inside = -500 < score < 500 if inclusive else -500 <= score <= 500
    if inside:
        return min(max(score + delta, -limit), limit)
    return score + delta


@dataclass(init=False)  # its own __init__: compiled, where the generated one is Python (a third of a scoring)
class DealScore:
    """The scoring of one deal: points per team (before breach), the breach
    delta per team, totals before and after the breach adjustment, and the
    seats banned from bidding in the next deal."""

    points: list[int]
    breach_points: list[int]
    totals_before_breach: list[int]
    totals: list[int]
    made: bool | None
    breach_success: bool | None
    bans: list[int]

    def __init__(
        self,
        points: list[int],
        breach_points: list[int],
        totals_before_breach: list[int],
        totals: list[int],
        made: bool | None,
        breach_success: bool | None = None,
        bans: list[int] | None = None,
    ) -> None:
        self.points = points
        self.breach_points = breach_points
        self.totals_before_breach = totals_before_breach
        self.totals = totals
        self.made = made
        self.breach_success = breach_success
        self.bans = [] if bans is None else bans


class ScoringRules:
    """What the scoring reads of an option set, read once (kept in the
    options' memo) as typed fields: the engine scores every deal, and an
    option read is a dictionary look-up."""

    __slots__ = (
        "ban_any_level", "bidders_win", "breach_value", "inclusive", "max_deals",
        "misere_defenders_score", "must_bid_to_win", "nullo_points", "open_nullo_points",
    )  # fmt: skip

    def __init__(self, o: Options) -> None:
        self.must_bid_to_win = bool(o.must_bid_to_win)
        self.nullo_points = int(o.nullo_points)
        self.open_nullo_points = int(o.open_nullo_points)
        self.misere_defenders_score = o.misere_defender_points != "none"
        self.breach_value = int(o.breach_value)
        self.inclusive = bool(o.win_threshold_inclusive)
        self.ban_any_level = bool(o.breach_ban_any_level)
        self.bidders_win = o.simultaneous_out_rule == "bidders_win"
        self.max_deals = int(o.max_deals)


def scoring_rules(o: Options) -> ScoringRules:
    """The :class:`ScoringRules` of ``o``, made once per option set."""
    got: ScoringRules | None = o.memo.get("500.scoring")
    if got is None:
        got = o.memo["500.scoring"] = ScoringRules(o)
    return got


def _bidders_points(r: ScoringRules, c: Call, tricks: int) -> int:
    """:func:`contract_points` with the options read once and the call's
    fields read once (``Call`` is a Python class: each read is a look-up)."""
    kind = c.kind
    if kind == "BID":
        v: int = c.value
        if tricks < c.level:
            return -v
        return max(v, 250) if tricks == 10 else v
    if kind == "MIS":
        v = r.nullo_points
    elif kind == "OMIS":
        v = r.open_nullo_points
    else:
        raise ValueError(f"{c} is not a contract")
    return v if tricks == 0 else -v


def score_deal(
    options: Options,
    totals: Sequence[int],
    team_tricks: Sequence[int],
    contract: Call | None,
    bidding_team: int | None,
    contractor: int | None = None,
    breach_seat: int | None = None,
    breach_team: int | None = None,
) -> DealScore:
    """Score one played deal.  ``contract`` is ``None`` for an all-pass deal
    played in no trumps (every team scores its tricks)."""
    r = scoring_rules(options)
    teams = len(totals)
    must = r.must_bid_to_win
    # a non-bidding team's 10 points a trick (defender_points): none against
    # misère when misere_defender_points is none
    per_trick = 0 if contract is not None and _misere(contract) and not r.misere_defenders_score else 10
    new = list(totals)
    points = [0] * teams
    is_made: bool | None = None
    for team in range(teams):
        if contract is not None and team == bidding_team:
            pts = _bidders_points(r, contract, team_tricks[team])
            is_made = pts > 0
            new[team] = totals[team] + pts
        else:
            new[team] = capped(totals[team], per_trick * team_tricks[team], must)
        points[team] = new[team] - totals[team]
    before_breach = list(new)
    breach_points = [0] * teams
    success: bool | None = None
    bans: list[int] = []
    if breach_team is not None and contract is not None and bidding_team is not None:
        success = breach_succeeded(contract, team_tricks[bidding_team])
        delta = r.breach_value if success else -r.breach_value
        after = apply_breach(new[breach_team], delta, r.inclusive)
        breach_points[breach_team] = after - new[breach_team]
        new[breach_team] = after
        if success:
            if contractor is not None and (
                r.ban_any_level or (contract.kind == "BID" and contract.level == 7)
            ):
                bans.append(contractor)
        elif breach_seat is not None:
            bans.append(breach_seat)
    return DealScore(points, breach_points, before_breach, new, is_made, success, bans)


def game_end(
    options: Options, totals_before_breach: Sequence[int], bidding_team: int | None
) -> tuple[bool, int | None]:
    """§12: (is the game over, winning team).  Made on the scores before any
    breach delta.  ``(False, None)`` when nobody is out, or when the rule
    says to play another deal."""
    return rules_game_end(scoring_rules(options), totals_before_breach, bidding_team)


def rules_game_end(
    r: ScoringRules, totals_before_breach: Sequence[int], bidding_team: int | None
) -> tuple[bool, int | None]:
    """:func:`game_end` with the options already read (the engine, at every deal)."""
    s = list(totals_before_breach)
    inclusive = r.inclusive
    out = False
    for v in s:
        if (v >= 500 or v <= -500) if inclusive else (v > 500 or v < -500):
            out = True
            break
    if not out:
        return False, None
    if r.bidders_win and bidding_team is not None:
        reached = s[bidding_team] >= 500 if r.inclusive else s[bidding_team] > 500
        if reached:
            return True, bidding_team
    best = max(s)
    top = [t for t in range(len(s)) if s[t] == best]
    if len(top) == 1:
        return True, top[0]
    if bidding_team is not None and bidding_team in top:
        return True, bidding_team
    return False, None


def score(
    contract: object,
    tricks: object,
    *,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    defender_tricks: object = None,
    scores: object = None,
) -> dict[str, Any]:
    """The calculator: each team's points for one deal.

    ``tricks`` is the bidders' tricks; ``defender_tricks`` the tricks of each
    defending team (default: the rest of the ten, for one defending team);
    ``scores`` the totals before the deal (bidders first) for the
    must-bid-to-win cap.  Returns ``{"bidders": int, "defenders": [int...],
    "made": bool}``.
    """
    from trumps.core.errors import ParseError, TrumpsError, whole_number

    o = resolve_options(preset, dict(options) if options else None)
    # arguments typed object and checked: compiled, a wrong type is the same
    # ParseError as in the Python sources, not a TypeError
    if not isinstance(contract, str | Call):
        raise ParseError(f"not a contract: {contract!r}")
    c = _call(contract)
    if not c.is_bid or c.inkle:
        raise TrumpsError(f"{c} is not a contract")
    check_contract(c, o)  # no misère when nullo_mode is off
    won = whole_number(tricks, "tricks")
    if not 0 <= won <= 10:
        raise TrumpsError(f"tricks must be 0 to 10, not {won}")
    defenders = (
        [whole_number(t, "defender_tricks") for t in _items(defender_tricks, "defender_tricks")]
        if defender_tricks is not None
        else [10 - won]
    )
    if any(t < 0 for t in defenders) or won + sum(defenders) > 10:
        raise TrumpsError("tricks add up to more than 10")
    totals = (
        [whole_number(t, "scores") for t in _items(scores, "scores")]
        if scores is not None
        else [0] * (1 + len(defenders))
    )
    if len(totals) != 1 + len(defenders):
        raise TrumpsError("give one score per team, bidders first")
    result = score_deal(o, totals, [won, *defenders], c, 0)
    return {
        "contract": str(c),
        "value": contract_value(c, o),
        "made": bool(result.made),
        "bidders": result.points[0],
        "defenders": result.points[1:],
        "totals": result.totals,
    }
