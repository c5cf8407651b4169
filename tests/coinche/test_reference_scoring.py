"""Scores follow the preset: random whole deals under every preset (and
random scoring options) are re-scored by an independent transcription of
coinche.md §9, §11, §12 and §13 for numeric contracts, written here from the
spec's text rather than from the engine's code."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trumps

from .conftest import PRESETS


def r10(x: int, how: str) -> int:
    if how == "nearest":
        return 10 * ((x + 5) // 10)
    if how == "down":
        return 10 * (x // 10)
    return x


def reference(o: Any, contract: str, t: int, cards: list[int], tricks: list[int], bel: list[int], mel: list[int]) -> tuple[bool, list[int]]:  # fmt: skip
    level = len(contract) - len(contract.rstrip("X"))
    bid = int("".join(ch for ch in contract if ch.isdigit()))
    m = {0: 1, 1: 2, 2: o.surcoinche_multiplier}[level]
    d = 1 - t
    c = list(cards)
    if tricks[t] == 8:
        c = [0, 0]
        c[t] = o.capot_points
    elif tricks[d] == 8:
        c = [0, 0]
        c[d] = o.capot_points
    total = [c[x] + bel[x] * o.belote_counts_for_contract for x in (0, 1)]
    if o.melds != "none" and o.melds_count_for_contract:
        total = [total[x] + mel[x] for x in (0, 1)]
    need = bid + (2 if o.contract_threshold == "plus_two" else 0)
    if o.must_beat_opponents:
        made = total[t] >= need and total[t] > total[d]
    else:
        made = total[t] >= (max(need, 82) if o.min_82_for_80 else need)
    s = [0, 0]
    if o.scoring == "seed":
        b = bid * m if o.seed_multiplier_scope == "bid_only" else bid
        if made:
            s[t] = r10(c[t] + bel[t] + mel[t], o.rounding) + b
            s[d] = r10(c[d] + bel[d] + mel[d], o.rounding)
        else:
            s[t] = bel[t] if o.belote_on_failure == "kept" else 0
            s[d] = o.chute_base + bel[d] + mel[d] + b + (bel[t] if o.belote_on_failure == "to_defence" else 0)
        if o.seed_multiplier_scope == "all":
            s = [m * x for x in s]
        return made, s
    if m == 1:
        if made:
            s[t] = bid + r10(c[t], o.rounding) + bel[t] + mel[t]
            own = 160 - r10(c[t], o.rounding) if o.defense_complement else r10(c[d], o.rounding)
            s[d] = max(own, 0) + bel[d] + mel[d]
        else:
            s[t] = bel[t] if o.belote_on_failure == "kept" else 0
            s[d] = (
                o.chute_base + bid + bel[d] + mel[d] + (bel[t] if o.belote_on_failure == "to_defence" else 0)
            )
        return made, s
    w, lo = (t, d) if made else (d, t)
    f = o.coinche_formula
    if f == "all_times_m":
        stake = (160 + bid) * m
    elif f == "bid_times_m":
        stake = 160 + bid * m
    elif f == "base_plus_bid_times_m":
        stake = (o.capot_points if made and tricks[t] == 8 else o.chute_base) + bid * m
    else:
        stake = (320 if m == 2 else 640) + bid * m
    s[w] = stake + bel[w] + mel[w] + (bel[lo] if o.belote_on_failure == "to_defence" else 0)
    s[lo] = bel[lo] if o.belote_on_failure == "kept" else 0
    return made, s


SCORING = st.fixed_dictionaries(
    {},
    optional={
        "rounding": st.sampled_from(["nearest", "down", "none"]),
        "chute_base": st.sampled_from([160, 162, 0]),
        "coinche_formula": st.sampled_from(
            ["all_times_m", "bid_times_m", "base_plus_bid_times_m", "double_base"]
        ),
        "surcoinche_multiplier": st.sampled_from([3, 4]),
        "belote_on_failure": st.sampled_from(["kept", "lost", "to_defence"]),
        "belote_counts_for_contract": st.booleans(),
        "contract_threshold": st.sampled_from(["nominal", "plus_two"]),
        "must_beat_opponents": st.booleans(),
        "min_82_for_80": st.booleans(),
        "capot_points": st.sampled_from([250, 252, 162]),
        "seed_multiplier_scope": st.sampled_from(["all", "bid_only"]),
        "melds_count_for_contract": st.booleans(),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(PRESETS), scoring=SCORING)
def test_scores_follow_the_preset(seed: int, preset: str, scoring: dict[str, Any]) -> None:
    g = trumps.new_game("coinche", preset=preset, options=scoring, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not g.is_over and checked < 4:
        d = g.deal
        number = g.deal_number
        while not g.is_over and g.deal_number == number:
            g.apply(rng.choice(g.legal_actions()))
        r = g.results[-1]
        if r["thrown_in"] or d.contract.kind != "BID":
            continue
        made, pts = reference(
            g.options, r["contract"], d.taker % 2, r["card_points"], r["tricks"], r["belote"], r["melds"]
        )
        assert (made, pts) == (r["made"], r["points"]), r
        checked += 1
