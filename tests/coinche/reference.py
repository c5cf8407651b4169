"""An independent reference of the coinche rules, written from coinche.md
alone (by the reviewer, not from the engine's code), for the review tests.

Everything here works on card *strings* (``"JH"``) and plain dicts of
options, so it shares no tables and no code with :mod:`trumps.coinche`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SUITS = "SHDC"
DENOMS = ("S", "H", "D", "C", "NT", "AT")

# §2.1 / §2.2, rank code -> points; order strings high -> low
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"
TRUMP_PTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_PTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
NT19_PTS = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
AT38_PTS = {"J": 14, "9": 9, "A": 6, "T": 5, "K": 3, "Q": 1, "8": 0, "7": 0}

DECK = [r + s for s in SUITS for r in "AKQJT987"]


def points(card: str, denom: str, o: Mapping[str, Any]) -> int:
    rank, suit = card[0], card[1]
    if denom == "NT":
        return (NT19_PTS if o["nt_values"] == "ace19" else PLAIN_PTS)[rank]
    if denom == "AT":
        return (AT38_PTS if o["at_values"] == "scaled38" else TRUMP_PTS)[rank]
    return (TRUMP_PTS if suit == denom else PLAIN_PTS)[rank]


def deal_total(denom: str, o: Mapping[str, Any]) -> int:
    return sum(points(c, denom, o) for c in DECK) + 10


def beats(a: str, b: str, denom: str) -> bool:
    """Does card ``a`` (played later) beat card ``b`` (currently winning)?"""
    if denom in SUITS:
        if a[1] == denom and b[1] != denom:
            return True
        if a[1] != b[1]:
            return False
        order = TRUMP_ORDER if a[1] == denom else PLAIN_ORDER
    else:
        if a[1] != b[1]:
            return False
        order = TRUMP_ORDER if denom == "AT" else PLAIN_ORDER
    return order.index(a[0]) < order.index(b[0])


def winner_index(trick: Sequence[str], denom: str) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], denom):
            best = i
    return best


def trump_over(a: str, b: str) -> bool:
    return TRUMP_ORDER.index(a[0]) < TRUMP_ORDER.index(b[0])


def legal(hand: Sequence[str], trick: Sequence[str], pw: bool, denom: str, o: Mapping[str, Any]) -> list[str]:
    """§5.2 written out again (``pw``: partner currently winning)."""
    hand = list(hand)
    if not trick:
        return hand
    led = trick[0][1]
    follow = [x for x in hand if x[1] == led]
    if denom == "NT":
        return follow or hand
    if denom == "AT":
        if not follow:
            return hand
        best = trick[winner_index(trick, "AT")]
        higher = [x for x in follow if trump_over(x, best)]
        if higher and not (o["partner_exempt_on_trump_lead"] and pw):
            return higher
        return follow
    t = denom
    trumps = [x for x in hand if x[1] == t]
    played = [x for x in trick if x[1] == t]
    top = None
    for x in played:
        if top is None or trump_over(x, top):
            top = x
    over = [x for x in trumps if top is None or trump_over(x, top)]
    if led == t:
        if not trumps:
            return hand
        if over and not (o["partner_exempt_on_trump_lead"] and pw):
            return over
        return trumps
    if follow:
        return follow
    if pw and o["partner_master_exemption"]:
        if o["partner_master_trump_must_overtrump"]:
            allowed = [x for x in hand if x[1] != t] + over
            return allowed or hand
        return hand
    if not trumps:
        return hand
    if over:
        return over
    return trumps if o["must_undertrump"] else hand


def r10(x: int, rounding: str) -> int:
    if rounding == "nearest":
        q, u = divmod(x, 10)
        return 10 * (q + (1 if u >= 5 else 0))
    if rounding == "down":
        return 10 * (x // 10)
    return x


def score(
    o: Mapping[str, Any],
    kind: str,  # "BID", "CAPOT", "GENERALE"
    bid: int,
    level: int,  # 0, 1 (coinche), 2 (surcoinche)
    cards: Sequence[int],  # taker side, defence (before any capot premium)
    tricks_taker: int,
    alone: bool,
    belote: Sequence[int],
    melds: Sequence[int],
) -> tuple[bool, int, int]:
    """(made, taker side's score, defence's score) by §8-§13 and §20."""
    c = list(cards)
    if tricks_taker == 8:
        c = [o["capot_points"], 0]
    elif tricks_taker == 0:
        c = [0, o["capot_points"]]
    tot = [
        c[x]
        + (belote[x] if o["belote_counts_for_contract"] else 0)
        + (melds[x] if o["melds"] != "none" and o["melds_count_for_contract"] else 0)
        for x in (0, 1)
    ]
    if kind == "CAPOT":
        made = tricks_taker == 8
    elif kind == "GENERALE":
        made = alone
    else:
        thr = bid + 2 if o["contract_threshold"] == "plus_two" else bid
        if o["must_beat_opponents"]:
            made = tot[0] > tot[1] and tot[0] >= thr
        else:
            made = tot[0] >= (max(thr, 82) if o["min_82_for_80"] else thr)
    m = [1, 2, o["surcoinche_multiplier"]][level]
    term = {"BID": bid, "CAPOT": o["capot_bid_value"], "GENERALE": 500}[kind]
    bof = o["belote_on_failure"]
    R = o["rounding"]
    if o["scoring"] == "seed":
        bm = term * m if o["seed_multiplier_scope"] == "bid_only" else term
        if made:
            t = r10(c[0] + belote[0] + melds[0], R) + bm
            d = r10(c[1] + belote[1] + melds[1], R)
        else:
            t = belote[0] if bof == "kept" else 0
            d = o["chute_base"] + belote[1] + melds[1] + bm + (belote[0] if bof == "to_defence" else 0)
        if o["seed_multiplier_scope"] == "all":
            t, d = t * m, d * m
        return made, t, d
    # common, §13
    win, lose = (0, 1) if made else (1, 0)
    out = [0, 0]
    if kind == "CAPOT" and o["capot_flat"]:
        out[win] = 500 * m + belote[win] + melds[win]
    elif kind == "BID" and m == 1:
        if made:
            out[0] = bid + r10(c[0], R) + belote[0] + melds[0]
            if o["defense_complement"]:
                out[1] = max(0, 160 - r10(c[0], R)) + belote[1] + melds[1]
            else:
                out[1] = r10(c[1], R) + belote[1] + melds[1]
            return made, out[0], out[1]
        out[1] = o["chute_base"] + bid + belote[1] + melds[1]
    elif m == 1:  # capot / générale, not coinched
        base = o["capot_points"] if made else o["capot_fail_base"]
        if made:
            return made, base + term + belote[0] + melds[0], belote[1] + melds[1]
        out[1] = base + term + belote[1] + melds[1]
    else:
        f = o["coinche_formula"]
        if kind == "BID":
            base = 160
            if f == "base_plus_bid_times_m":
                base = o["capot_points"] if made and tricks_taker == 8 else o["chute_base"]
        else:
            base = o["capot_points"] if made else o["capot_fail_base"]
        if f == "all_times_m":
            stake = (base + term) * m
        elif f in ("bid_times_m", "base_plus_bid_times_m"):
            stake = base + term * m
        else:  # double_base: 320/640 = 2x/4x the base of 160
            stake = (2 if m == 2 else 4) * base + term * m
        out[win] = stake + belote[win] + melds[win]
    if bof == "kept":
        out[lose] += belote[lose]
    elif bof == "to_defence":
        out[win] += belote[lose]
    return made, out[0], out[1]


def game_end(o: Mapping[str, Any], totals: Sequence[int], contract_winner: int) -> tuple[bool, int | None]:
    """§14: (over, winning team)."""
    target = o["target_score"]
    over = [x for x in (0, 1) if (totals[x] >= target if o["target_rule"] == "reach" else totals[x] > target)]
    if not over:
        return False, None
    if len(over) == 2 and o["both_over_target_rule"] == "contract_winner":
        return True, contract_winner
    if totals[0] == totals[1]:
        return False, None
    return True, int(totals[1] > totals[0])
