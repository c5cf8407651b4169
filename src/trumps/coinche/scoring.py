"""Scoring a coinche deal (docs/rules/coinche.md §8–§14) as pure functions of numbers,
so the engine, the ``trumps score coinche`` calculator and the tests share
one implementation.

The contract test (§11) uses each side's *total* (cards, plus belote and won
melds as the options say); the deal score uses §12 (``scoring = seed``) or
§13 (``scoring = common``).  Every constant the rules name "160" in a
formula stays 160 whatever the deal total (§2.2).

>>> from trumps.coinche.options import resolve_options
>>> o = resolve_options("common")
>>> s = score_deal(o, Contract.parse("100H"), 0, [112, 50], [5, 3], [20, 0], [0, 0])
>>> s.made, s.points
(True, [230, 50])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from trumps.coinche.auction import bid_table
from trumps.coinche.calls import AT, DENOM_CODES, NT, Contract
from trumps.coinche.options import resolve_options
from trumps.coinche.play import rules_for
from trumps.core.errors import OptionError, ParseError, TrumpsError, whole_number
from trumps.core.json_types import JSONDict
from trumps.core.options import Options

__all__ = [
    "GENERALE_VALUE", "DealScore", "ScoringRules", "contract_made", "game_end", "round_points", "score",
    "score_deal", "scoring_rules",
]  # fmt: skip

GENERALE_VALUE: Final = 500


def round_points(x: int, rounding: str) -> int:
    """``nearest`` (units 0-4 down, 5-9 up), ``down`` (floor to ten), ``none``.

    >>> [round_points(x, "nearest") for x in (84, 85, 112, 67)], round_points(67, "down")
    ([80, 90, 110, 70], 60)
    """
    if rounding == "nearest":
        return (x + 5) // 10 * 10
    if rounding == "down":
        return x // 10 * 10
    return x


@dataclass(init=False)  # its own __init__: compiled, where the generated one is Python (a third of a scoring)
class DealScore:
    """One scored deal: made or not, points per team (NS, EW), the totals
    used by the contract test, the card points after any capot premium, and
    the coinche multiplier."""

    made: bool
    points: list[int]
    contract_totals: list[int]
    cards: list[int]
    multiplier: int

    def __init__(
        self, made: bool, points: list[int], contract_totals: list[int], cards: list[int], multiplier: int
    ) -> None:
        self.made = made
        self.points = points
        self.contract_totals = contract_totals
        self.cards = cards
        self.multiplier = multiplier

    def to_dict(self) -> JSONDict:
        return {
            "made": self.made,
            "points": list(self.points),
            "contract_totals": list(self.contract_totals),
            "cards": list(self.cards),
            "multiplier": self.multiplier,
        }


class ScoringRules:
    """What the scoring reads of an option set, read once (kept in the
    options' memo) as typed fields: the engine scores every deal, the bots'
    simulations thousands, and an option read is a dictionary look-up."""

    __slots__ = (
        "belote_counts", "belote_on_failure", "both_over_to_winner", "capot_bid_value",
        "capot_fail_base", "capot_flat", "capot_points", "chute_base", "coinche_formula", "count_melds",
        "defense_complement", "min_82", "must_beat", "plus_two", "reach", "rounding", "seed",
        "seed_scope", "surcoinche", "target",
    )  # fmt: skip

    def __init__(self, o: Options) -> None:
        self.capot_points = int(o.capot_points)
        self.capot_fail_base = int(o.capot_fail_base)
        self.capot_bid_value = int(o.capot_bid_value)
        self.capot_flat = bool(o.capot_flat)
        self.chute_base = int(o.chute_base)
        self.count_melds = o.melds != "none" and bool(o.melds_count_for_contract)
        self.belote_counts = bool(o.belote_counts_for_contract)
        self.belote_on_failure = str(o.belote_on_failure)
        self.plus_two = o.contract_threshold == "plus_two"
        self.must_beat = bool(o.must_beat_opponents)
        self.min_82 = bool(o.min_82_for_80)
        self.surcoinche = int(o.surcoinche_multiplier)
        self.seed = o.scoring == "seed"
        self.seed_scope = str(o.seed_multiplier_scope)
        self.rounding = str(o.rounding)
        self.defense_complement = bool(o.defense_complement)
        self.coinche_formula = str(o.coinche_formula)
        self.target = int(o.target_score)
        self.reach = o.target_rule == "reach"
        self.both_over_to_winner = o.both_over_target_rule == "contract_winner"


def scoring_rules(o: Options) -> ScoringRules:
    """The :class:`ScoringRules` of ``o``, made once per option set."""
    got: ScoringRules | None = o.memo.get("coinche.scoring")
    if got is None:
        got = o.memo["coinche.scoring"] = ScoringRules(o)
    return got


def contract_made(
    o: Options, contract: Contract, totals: Sequence[int], taker_team: int, tricks: Sequence[int], alone: bool
) -> bool:
    """§11: numeric contracts by threshold (and out-scoring), capot by all
    eight tricks to the side, générale by all eight to the taker alone."""
    bid = contract.bid
    return _made(scoring_rules(o), bid.kind, bid.value, totals, taker_team, tricks, alone)


def _made(
    r: ScoringRules,
    kind: str,
    bid: int,
    totals: Sequence[int],
    taker_team: int,
    tricks: Sequence[int],
    alone: bool,
) -> bool:
    """:func:`contract_made` with the bid's kind and value read once."""
    if kind == "CAPOT":
        return tricks[taker_team] == 8
    if kind == "GENERALE":
        return alone
    threshold = bid + 2 if r.plus_two else bid
    mine, theirs = totals[taker_team], totals[1 - taker_team]
    if r.must_beat:
        return mine > theirs and mine >= threshold
    if r.min_82:
        threshold = max(threshold, 82)
    return mine >= threshold


def score_deal(
    o: Options,
    contract: Contract,
    taker_team: int,
    card_points: Sequence[int],
    tricks: Sequence[int],
    belote: Sequence[int],
    melds_won: Sequence[int],
    alone: bool = False,
) -> DealScore:
    """Score a played deal.  ``card_points`` per team include the dix de der;
    a side with all eight ``tricks`` counts ``capot_points`` instead."""
    r = scoring_rules(o)
    t = taker_team
    cards = [card_points[0], card_points[1]]
    if tricks[1] == 8:  # a side with every trick counts the capot points, the other none
        cards = [0, r.capot_points]
    elif tricks[0] == 8:
        cards = [r.capot_points, 0]
    counted = [cards[0], cards[1]]
    if r.belote_counts:
        counted = [counted[0] + belote[0], counted[1] + belote[1]]
    if r.count_melds:
        counted = [counted[0] + melds_won[0], counted[1] + melds_won[1]]
    # the contract's fields read once: Contract and Call are Python classes,
    # every attribute read a look-up by name
    bid = contract.bid
    kind: str = bid.kind
    value: int = bid.value
    level = contract.level
    made = _made(r, kind, value, counted, t, tricks, alone)
    m = 1 if level == 0 else 2 if level == 1 else r.surcoinche  # contract.multiplier(), no Python call
    if r.seed:
        points = _seed(r, kind, value, t, cards, belote, melds_won, made, m)
    else:
        points = _common(r, kind, value, t, cards, belote, melds_won, made, m, tricks[t] == 8)
    return DealScore(made, points, counted, cards, m)


def _bid_term(r: ScoringRules, kind: str, value: int) -> int:
    if kind == "CAPOT":
        return r.capot_bid_value
    if kind == "GENERALE":
        return GENERALE_VALUE
    return value


def _seed(
    r: ScoringRules, kind: str, value: int, t: int, cards: list[int], belote: Sequence[int],
    melds: Sequence[int], made: bool, m: int,
) -> list[int]:  # fmt: skip
    """§12: the failing side loses everything (belote per the option);
    the coinche multiplies both scores or only the bid term."""
    d = 1 - t
    rounding = r.rounding
    bid = _bid_term(r, kind, value)
    bid_m = bid * m if r.seed_scope == "bid_only" else bid
    out = [0, 0]
    if made:
        out[t] = round_points(cards[t] + belote[t] + melds[t], rounding) + bid_m
        out[d] = round_points(cards[d] + belote[d] + melds[d], rounding)
    else:
        out[t] = belote[t] if r.belote_on_failure == "kept" else 0
        out[d] = r.chute_base + belote[d] + melds[d] + bid_m
        if r.belote_on_failure == "to_defence":
            out[d] += belote[t]
    if r.seed_scope == "all":
        out = [x * m for x in out]
    return out


def _common(
    r: ScoringRules, kind: str, value: int, t: int, cards: list[int], belote: Sequence[int],
    melds: Sequence[int], made: bool, m: int, all_tricks: bool,
) -> list[int]:  # fmt: skip
    """§13: the plain formulas, the coinche stake, capot and générale."""
    d = 1 - t
    rounding = r.rounding
    winner, loser = (t, d) if made else (d, t)
    out = [0, 0]
    flat = kind == "CAPOT" and r.capot_flat
    if m == 1 and not flat:
        bid = _bid_term(r, kind, value)
        if kind == "BID":
            if made:
                out[t] = bid + round_points(cards[t], rounding) + belote[t] + melds[t]
                if r.defense_complement:
                    out[d] = max(0, 160 - round_points(cards[t], rounding)) + belote[d] + melds[d]
                else:
                    out[d] = round_points(cards[d], rounding) + belote[d] + melds[d]
                return out
            base = r.chute_base
        else:
            base = r.capot_points if made else r.capot_fail_base
        if made:
            out[t] = base + bid + belote[t] + melds[t]
            out[d] = belote[d] + melds[d]
            return out
        out[d] = base + bid + belote[d] + melds[d]
    else:
        stake = 500 * m if flat else _stake(r, kind, value, m, made, all_tricks)
        out[winner] = stake + belote[winner] + melds[winner]
    if r.belote_on_failure == "kept":
        out[loser] += belote[loser]
    elif r.belote_on_failure == "to_defence":
        out[winner] += belote[loser]
    return out


def _stake(r: ScoringRules, kind: str, value: int, m: int, made: bool, all_tricks: bool) -> int:
    """The coinched stake of §13 for every ``coinche_formula``."""
    formula = r.coinche_formula
    bid = _bid_term(r, kind, value)
    if kind == "BID":
        if formula == "all_times_m":
            return (160 + bid) * m
        if formula == "bid_times_m":
            return 160 + bid * m
        if formula == "base_plus_bid_times_m":
            # B is the card base of the deal: ``chute_base`` (162 in contree_exact,
            # 160 in pagat), or the capot points when the taker made it with every trick
            base = r.capot_points if made and all_tricks else r.chute_base
            return base + bid * m
        return (320 if m == 2 else 640) + bid * m
    base = r.capot_points if made else r.capot_fail_base
    if formula == "all_times_m":
        return (base + bid) * m
    if formula in ("bid_times_m", "base_plus_bid_times_m"):
        return base + bid * m
    return (2 * base if m == 2 else 4 * base) + bid * m


def game_end(o: Options, totals: Sequence[int], contract_winner: int | None) -> tuple[bool, int | None]:
    """§14: (is the game over, winning team).  Equal totals over the target
    play another deal."""
    r = scoring_rules(o)
    target = r.target
    a, b = totals[0], totals[1]
    over_a = a >= target if r.reach else a > target
    over_b = b >= target if r.reach else b > target
    if not over_a and not over_b:
        return False, None
    if over_a and over_b and r.both_over_to_winner and contract_winner is not None:
        return True, contract_winner
    if a == b:
        return False, None
    return True, 0 if a > b else 1


def score(
    contract: object,
    taker_points: object,
    *,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    defence_points: object = None,
    taker_tricks: object = None,
    alone: object = None,
    belote_taker: object = 0,
    belote_defence: object = 0,
    melds_taker: object = 0,
    melds_defence: object = 0,
) -> dict[str, Any]:
    """The calculator: one deal's points for the taker's side and the defence.

    ``taker_points`` are card points including the dix de der; the defence
    gets the rest of the deal total unless ``defence_points`` is given.
    ``taker_tricks`` 8 (or 0) marks a capot by the taker (or the defence);
    ``alone`` says the taker won all eight personally (générale).  Belote
    and melds are the points each side holds (melds: only the side that won
    the comparison may have any).

    The arguments are typed ``object`` and checked here: compiled, a wrong
    type is then the same ParseError as in the Python sources, not a
    TypeError."""
    if not isinstance(contract, str | Contract):
        raise ParseError(f"not a contract: {contract!r}")
    if alone is not None and not isinstance(alone, bool):
        raise ParseError(f"alone must be true or false, not {alone!r}")
    return _score(
        contract,
        whole_number(taker_points, "taker_points"),
        preset=preset,
        options=options,
        defence_points=None if defence_points is None else whole_number(defence_points, "defence_points"),
        taker_tricks=None if taker_tricks is None else whole_number(taker_tricks, "taker_tricks"),
        alone=alone,
        belote_taker=whole_number(belote_taker, "belote_taker"),
        belote_defence=whole_number(belote_defence, "belote_defence"),
        melds_taker=whole_number(melds_taker, "melds_taker"),
        melds_defence=whole_number(melds_defence, "melds_defence"),
    )


def _score(
    contract: str | Contract,
    taker_points: int,
    *,
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    defence_points: int | None = None,
    taker_tricks: int | None = None,
    alone: bool | None = None,
    belote_taker: int = 0,
    belote_defence: int = 0,
    melds_taker: int = 0,
    melds_defence: int = 0,
) -> dict[str, Any]:
    """:func:`score` with its arguments' types checked."""
    o = resolve_options(preset, options)
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    if c.bid not in bid_table(o).bids:  # as new_game: a contract these options allow
        raise OptionError(f"{c.bid} is not a contract these options allow")
    total = rules_for(c.denom, o).total
    if not 0 <= taker_points <= total:
        raise TrumpsError(f"taker_points must be 0 to {total}, not {taker_points}")
    dp = total - taker_points if defence_points is None else defence_points
    if dp < 0 or (defence_points is not None and taker_points + dp != total):
        raise TrumpsError(f"card points must add up to {total} (taker {taker_points}, defence {dp})")
    if melds_taker and melds_defence:
        raise TrumpsError("only the side that won the meld comparison scores melds")
    for name, v in (("melds_taker", melds_taker), ("melds_defence", melds_defence)):
        if v < 0 or v % 10:
            raise TrumpsError(f"{name} must be a multiple of 10, not {v}")
        if v and o.melds == "none":
            raise TrumpsError(f"{name}: these options play without melds (melds=none)")
    for name, v in (("belote_taker", belote_taker), ("belote_defence", belote_defence)):
        if v < 0 or v % 20:
            raise TrumpsError(f"{name} must be a multiple of 20, not {v}")
    # §6: one K-Q of trumps in a colour contract, one per suit in all-trump, none in no-trump
    pairs = 4 if c.denom == AT and o.belote_in_all_trump else 1 if c.denom < NT else 0
    if belote_taker + belote_defence > 20 * pairs:
        raise TrumpsError(f"at most {20 * pairs} belote points in a {DENOM_CODES[c.denom]} contract")
    if taker_tricks is None:
        tt = 8 if alone else 4  # the taker alone won every trick: a capot for any contract
        tricks = [tt, 8 - tt]
    else:
        if not 0 <= taker_tricks <= 8:
            raise TrumpsError(f"taker_tricks must be 0 to 8, not {taker_tricks}")
        tricks = [taker_tricks, 8 - taker_tricks]
        if alone and taker_tricks != 8:
            raise TrumpsError("a taker who won every trick alone (générale) has all 8 tricks")
    if (tricks[0] == 8 and (taker_points, dp) != (total, 0)) or (
        tricks[0] == 0 and (taker_points, dp) != (0, total)
    ):
        raise TrumpsError(f"a side that wins all 8 tricks has all {total} card points")
    s = score_deal(
        o, c, 0, [taker_points, dp], tricks, [belote_taker, belote_defence],
        [melds_taker, melds_defence], bool(alone if alone is not None else False),
    )  # fmt: skip
    return {
        "contract": str(c),
        "made": s.made,
        "taker": s.points[0],
        "defence": s.points[1],
        "contract_totals": {"taker": s.contract_totals[0], "defence": s.contract_totals[1]},
        "cards": {"taker": s.cards[0], "defence": s.cards[1]},
        "multiplier": s.multiplier,
    }
