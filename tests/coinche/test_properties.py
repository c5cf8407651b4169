"""Property tests (hypothesis) over random whole deals under random presets
and obligation/value options: card points total the deal total, legal sets
equal an independent reference of §5.1, scores follow the preset's
formulas, replay and JSON round trip are exact."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trumps
from trumps.coinche.deal import BelotePlay
from trumps.coinche.melds import Declaration
from trumps.coinche.scoring import score_deal
from trumps.core.cards import Card

from .conftest import PRESETS

TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"

OBLIGATIONS = st.fixed_dictionaries(
    {
        "partner_exempt_on_trump_lead": st.booleans(),
        "must_undertrump": st.booleans(),
        "partner_master_exemption": st.just(True) | st.just(False),
        "nt_values": st.sampled_from(["ace19", "plain"]),
        "at_values": st.sampled_from(["scaled38", "trump62"]),
        "belote_requires_announcement": st.booleans(),
        "coinche_closes_auction": st.booleans(),
        "coinche_timing": st.sampled_from(["in_turn", "any_time"]),
        "direction": st.sampled_from(["anticlockwise", "clockwise"]),
    }
)


def _options(draw_opts: dict[str, Any], overtrump: bool, preset: str) -> dict[str, Any]:
    opts = dict(draw_opts)
    if opts["partner_master_exemption"]:
        opts["partner_master_trump_must_overtrump"] = overtrump
    if preset == "contree_exact":
        opts["allow_no_trump"] = opts["allow_all_trump"] = True
    return opts


def reference_legal(hand: list[Card], trick: list[tuple[int, Card]], me: int, denom: str, o: Any) -> set[str]:
    """§5.1 read directly: an independent statement of the obligations."""
    cards = {str(c) for c in hand}
    if not trick:
        return cards
    led = trick[0][1].suit

    def order(c: Card) -> int:
        trumpish = denom == "AT" or (c.suit is not None and c.suit.code == denom)
        return 8 - (TRUMP_ORDER if trumpish else PLAIN_ORDER).index(c.rank_code)

    def is_trump(c: Card) -> bool:
        return c.suit is not None and c.suit.code == denom

    win_seat, win_card = trick[0]
    for seat, c in trick[1:]:
        if (is_trump(c) and not is_trump(win_card)) or (
            c.suit == win_card.suit and order(c) > order(win_card)
        ):
            win_seat, win_card = seat, c
    pw = win_seat == (me + 2) % 4
    follow = {str(c) for c in hand if c.suit == led}
    if denom == "NT":
        return follow or cards
    if denom == "AT":
        if not follow:
            return cards
        if pw and o.partner_exempt_on_trump_lead:
            return follow
        higher = {str(c) for c in hand if c.suit == led and order(c) > order(win_card)}
        return higher or follow
    trumps_held = [c for c in hand if is_trump(c)]
    trick_trumps = [c for _, c in trick if is_trump(c)]
    top = max((order(c) for c in trick_trumps), default=0)
    higher = {str(c) for c in trumps_held if order(c) > top}
    if led is not None and led.code == denom:
        if not trumps_held:
            return cards
        if pw and o.partner_exempt_on_trump_lead:
            return {str(c) for c in trumps_held}
        return higher or {str(c) for c in trumps_held}
    if follow:
        return follow
    if pw and o.partner_master_exemption:
        if o.partner_master_trump_must_overtrump:
            ok = {str(c) for c in hand if not is_trump(c)} | higher
            return ok or cards
        return cards
    if not trumps_held:
        return cards
    if higher:
        return higher
    return {str(c) for c in trumps_held} if o.must_undertrump else cards


def _play_deal(g: Any, rng: random.Random, check_legal: bool) -> None:
    number = g.deal_number
    while not g.is_over and g.deal_number == number:
        d = g.deal
        legal = g.legal_actions()
        if check_legal and d.phase == "PLAY" and not isinstance(legal[0], Declaration):
            contract = g.view(None)["contract"]
            seat = d.hand_to_play
            trick = list(zip(d.trick_seats, d.trick, strict=True))
            got = {str(a) for a in legal if not isinstance(a, BelotePlay)}
            assert got == reference_legal(d.hands[seat], trick, seat, contract["denom"], g.options)
        g.apply(rng.choice(legal))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(PRESETS),
    opts=OBLIGATIONS,
    overtrump=st.booleans(),
)
def test_random_deals(seed: int, preset: str, opts: dict[str, Any], overtrump: bool) -> None:
    options = _options(opts, overtrump, preset)
    g = trumps.new_game("coinche", preset=preset, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        if g.is_over:
            break
        before = list(g.totals)
        d = g.deal
        _play_deal(g, rng, check_legal=True)
        r = g.results[-1]
        if r["thrown_in"]:
            assert r["points"] == [0, 0]
            continue
        total = d.rules.total
        assert sum(r["card_points"]) == total
        assert sum(r["tricks"]) == 8
        o = g.options
        taker_team = d.taker % 2
        s = score_deal(
            o,
            d.contract,
            taker_team,
            r["card_points"],
            r["tricks"],
            r["belote"],
            r["melds"],
            d.won[d.taker] == 8,
        )
        assert s.points == r["points"] and s.made == r["made"]
        assert [before[0] + r["points"][0], before[1] + r["points"][1]] == r["scores"]
        _check_preset_invariants(o, d, r, taker_team)


def _check_preset_invariants(o: Any, d: Any, r: dict[str, Any], t: int) -> None:
    pts, belote, made, m = r["points"], r["belote"], r["made"], r["multiplier"]
    assert m == d.contract.multiplier(o.surcoinche_multiplier)
    if not made:
        kept = belote[t] if o.belote_on_failure == "kept" else 0
        assert pts[t] == kept * (m if o.scoring == "seed" and o.seed_multiplier_scope == "all" else 1)
    if o.scoring == "common" and m > 1:
        loser = 1 - t if made else t
        assert pts[loser] == (belote[loser] if o.belote_on_failure == "kept" else 0)
    if o.rounding != "none" and d.contract.kind == "BID" and o.melds == "none" and not d.contract.level:
        assert all(p % 10 == 0 for p in pts)
    if made and d.contract.kind == "BID":
        assert pts[t] >= d.contract.bid.value


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), preset=st.sampled_from(PRESETS), cut=st.integers(0, 400))
def test_replay_and_json_round_trip(seed: int, preset: str, cut: int) -> None:
    g = trumps.new_game("coinche", preset=preset, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and steps < cut:
        g.apply(str(rng.choice(g.legal_actions())))
        steps += 1
    text = json.dumps(g.to_json())
    again = trumps.load_game(text)
    assert again.to_json() == g.to_json()
    for seat in (None, 0, 1, 2, 3):
        assert again.view(seat) == g.view(seat)
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in g.legal_actions()]
