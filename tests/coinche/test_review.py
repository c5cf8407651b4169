"""Review tests: the engine checked against an independent reference
(:mod:`.reference`, written from coinche.md alone) and against deals worked
by hand, preset by preset.  Every number in the tables below was computed
by hand from the spec, not read back from the engine."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import trumps
from trumps.coinche.calls import Contract
from trumps.coinche.deal import BelotePlay
from trumps.coinche.melds import Declaration
from trumps.coinche.options import resolve_options
from trumps.coinche.play import rules_for
from trumps.coinche.scoring import game_end, round_points, score, score_deal
from trumps.core.cards import Card, parse_cards
from trumps.core.errors import OptionError, TrumpsError

from . import reference as ref
from .conftest import PRESETS

# ---------------------------------------------------------------------------
# §15.1 / §20: the presets, copied literally from the spec's code blocks
# ---------------------------------------------------------------------------

SPEC_SEED = dict(
    direction="anticlockwise", allow_no_trump=True, allow_all_trump=True,
    nt_values="ace19", at_values="scaled38", max_numeric_bid=160, allow_capot_bid=True,
    allow_generale_bid=False, contract_threshold="nominal", must_beat_opponents=True,
    coinche_closes_auction=True, coinche_timing="in_turn", surcoinche_multiplier=4,
    partner_exempt_on_trump_lead=False, must_undertrump=True, partner_master_exemption=True,
    partner_master_trump_must_overtrump=False, belote_in_all_trump=True,
    belote_requires_announcement=False, belote_counts_for_contract=True,
    melds="seed", melds_count_for_contract=True, meld_equal_value="carre_first",
    meld_tie_rule="nobody", long_run_split=False, card_in_multiple_melds=True,
    capot_points=250, capot_bid_value=250, rounding="down", belote_on_failure="lost",
    chute_base=160, min_82_for_80=True, scoring="seed", seed_multiplier_scope="all",
    target_score=1000, target_rule="reach", both_over_target_rule="higher_total",
)  # fmt: skip
SPEC_COMMON = dict(SPEC_SEED, melds="none", rounding="nearest",
    belote_on_failure="kept", scoring="common", coinche_formula="all_times_m",
    capot_fail_base=250, capot_flat=False, defense_complement=False)  # fmt: skip
SPEC_FFB_2016 = dict(SPEC_COMMON, allow_no_trump=True, allow_all_trump=True, melds="none",
    chute_base=160, coinche_formula="all_times_m", surcoinche_multiplier=4,
    rounding="nearest", capot_flat=True, target_score=2000,
    must_beat_opponents=False, min_82_for_80=False, belote_on_failure="to_defence")  # fmt: skip
SPEC_CONTREE_EXACT = dict(SPEC_COMMON, allow_no_trump=False, allow_all_trump=False,
    melds="none", belote_requires_announcement=False, belote_counts_for_contract=True,
    max_numeric_bid=160, allow_capot_bid=True, capot_bid_value=250,
    allow_generale_bid=False, coinche_closes_auction=True, coinche_timing="in_turn",
    surcoinche_multiplier=3, partner_exempt_on_trump_lead=False,
    must_undertrump=False, partner_master_exemption=True,
    partner_master_trump_must_overtrump=False, contract_threshold="nominal",
    must_beat_opponents=False, min_82_for_80=False, scoring="common",
    rounding="none", chute_base=162, belote_on_failure="to_defence",
    coinche_formula="base_plus_bid_times_m", capot_points=252, capot_fail_base=162,
    capot_flat=False, target_score=2000, target_rule="reach")  # fmt: skip
SPEC_PAGAT = dict(SPEC_COMMON, must_beat_opponents=False, min_82_for_80=True,
    surcoinche_multiplier=4, coinche_formula="base_plus_bid_times_m", chute_base=160)  # fmt: skip
# keys no preset lists: their documented defaults (§3 of coinche.md)
SPEC_DEFAULTS = {"deal_pattern": "3-2-3", "max_deals": 0}

SPEC_PRESETS = {
    "seed": SPEC_SEED,
    "common": SPEC_COMMON,
    "ffb_2016": SPEC_FFB_2016,
    "contree_exact": SPEC_CONTREE_EXACT,
    "pagat": SPEC_PAGAT,
}
# keys of the common scoring the seed block does not list take the defaults
SPEC_SEED_FILL = {"coinche_formula": "all_times_m", "capot_fail_base": 250, "capot_flat": False,
                  "defense_complement": False}  # fmt: skip


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_is_the_spec_block(preset: str) -> None:
    want = {**SPEC_DEFAULTS, **SPEC_SEED_FILL, **SPEC_PRESETS[preset]}
    assert resolve_options(preset).to_dict() == want


def test_no_preset_is_common() -> None:
    assert resolve_options(None).to_dict() == resolve_options("common").to_dict()


# ---------------------------------------------------------------------------
# §2: orders and points, every values option
# ---------------------------------------------------------------------------

TOTALS = [
    ({}, [162, 162, 162, 162, 162, 162]),
    ({"nt_values": "plain"}, [162, 162, 162, 162, 130, 162]),
    ({"at_values": "trump62"}, [162, 162, 162, 162, 162, 258]),
    ({"nt_values": "plain", "at_values": "trump62"}, [162, 162, 162, 162, 130, 258]),
]


@pytest.mark.parametrize(("options", "totals"), TOTALS)
def test_deal_totals_and_every_card_value(options: dict[str, Any], totals: list[int]) -> None:
    o = resolve_options("common", options)
    od = o.to_dict()
    for denom, want in enumerate(totals):
        r = rules_for(denom, o)
        assert r.total == want == ref.deal_total(ref.DENOMS[denom], od)
        for text in ref.DECK:
            assert r.points[Card(text).index] == ref.points(text, ref.DENOMS[denom], od), (denom, text)


@pytest.mark.parametrize("denom", range(6))
def test_every_pair_of_cards_beats_like_the_spec(denom: int) -> None:
    """Every ordered pair of cards, led by either: the engine's trick winner
    is the reference's (highest trump, else highest of the suit led; AT/NT:
    the suit led only, in trump / plain order)."""
    r = rules_for(denom, resolve_options("common"))
    name = ref.DENOMS[denom]
    for a in ref.DECK:
        for b in ref.DECK:
            if a == b:
                continue
            led = Card(a).index // 16
            engine = r.strength(Card(b), led) > r.strength(Card(a), led)
            assert engine == ref.beats(b, a, name), (name, a, b)


# ---------------------------------------------------------------------------
# §5: obligations, hand-built positions under every option
# ---------------------------------------------------------------------------

# (trump, [(who, card)...], hand, options, legal) — trump H unless said
POSITIONS: list[tuple[str, list[tuple[str, str]], str, dict[str, Any], str]] = [
    # follow suit, no obligation to beat
    ("H", [("o", "KS")], "AS 7S JH", {}, "AS 7S"),
    ("H", [("o", "KS"), ("p", "AS")], "QS 7S JH", {}, "QS 7S"),
    # trump led: go up, even over partner; exemption variant
    ("H", [("o", "TH")], "AH 8H KS", {}, "AH"),
    ("H", [("o", "KH"), ("p", "9H")], "JH 7H", {}, "JH"),
    ("H", [("o", "KH"), ("p", "9H")], "JH 7H", {"partner_exempt_on_trump_lead": True}, "JH 7H"),
    ("H", [("o", "9H"), ("p", "JH")], "AH 7H", {}, "AH 7H"),  # cannot beat J: any trump
    ("H", [("p", "9H"), ("o", "JH")], "AH 7H", {"partner_exempt_on_trump_lead": True}, "AH 7H"),
    ("H", [("p", "JH"), ("o", "7H")], "9H 8H QS", {"partner_exempt_on_trump_lead": True}, "9H 8H"),
    ("H", [("p", "AH"), ("o", "7H")], "9H 8H QS", {}, "9H"),
    ("H", [("o", "7H")], "AS KD", {}, "AS KD"),  # no trump: anything
    # void, opponent winning with a plain card: must trump (any trump)
    ("H", [("o", "AC")], "7H KD", {}, "7H"),
    ("H", [("o", "AC")], "7H JH KD", {"must_undertrump": False}, "7H JH"),
    ("H", [("p", "7C"), ("o", "AC")], "7H 8H KD", {}, "7H 8H"),
    # void, opponent winning with a trump: overtrump; under-trump compulsory or free
    ("H", [("o", "AC"), ("p", "TC"), ("o", "9H")], "JH 8H KD", {}, "JH"),
    ("H", [("o", "AC"), ("p", "TC"), ("o", "JH")], "9H 8H KD", {}, "9H 8H"),
    ("H", [("o", "AC"), ("p", "TC"), ("o", "JH")], "9H 8H KD", {"must_undertrump": False}, "9H 8H KD"),
    ("H", [("o", "AC"), ("p", "TC"), ("o", "8H")], "9H 7H KD", {"must_undertrump": False}, "9H"),
    # void, partner winning: anything; strict tables; trump-must-overtrump variant
    ("H", [("p", "AC"), ("o", "8C")], "7H KD", {}, "7H KD"),
    ("H", [("p", "AC"), ("o", "8C")], "7H KD", {"partner_master_exemption": False}, "7H"),
    ("H", [("o", "7C"), ("p", "AC")], "7H KD", {"partner_master_exemption": False}, "7H"),
    ("H", [("o", "AC"), ("p", "9H"), ("o", "8C")], "JH 7H KD", {}, "JH 7H KD"),
    ("H", [("o", "AC"), ("p", "9H"), ("o", "8C")], "JH 7H KD", {"partner_master_exemption": False}, "JH"),
    (
        "H",
        [("o", "AC"), ("p", "9H"), ("o", "8C")],
        "AH 7H KD",
        {"partner_master_exemption": False},
        "AH 7H",
    ),  # no overtrump: under-trump
    (
        "H",
        [("o", "AC"), ("p", "9H"), ("o", "8C")],
        "AH 7H KD",
        {"partner_master_exemption": False, "must_undertrump": False},
        "AH 7H KD",
    ),
    (
        "H",
        [("o", "AC"), ("p", "9H"), ("o", "8C")],
        "JH 7H KD",
        {"partner_master_trump_must_overtrump": True},
        "KD JH",
    ),
    ("H", [("p", "AC"), ("o", "8C")], "7H KD", {"partner_master_trump_must_overtrump": True}, "7H KD"),
    (
        "H",
        [("o", "AC"), ("p", "9H"), ("o", "8C")],
        "AH 7H",
        {"partner_master_trump_must_overtrump": True},
        "AH 7H",
    ),  # nothing but lower trumps
    # partner trumped, opponent over-trumped: opponent winning again
    ("H", [("p", "AC"), ("o", "9H")], "JH 7H KD", {}, "JH"),
    # all-trump: follow and go up in the suit led; void: anything
    ("AT", [("o", "TS")], "AS 8S", {}, "AS"),
    ("AT", [("o", "TS")], "KS 8S JH", {}, "KS 8S"),
    ("AT", [("o", "TS"), ("p", "9S")], "JS 8S", {}, "JS"),
    ("AT", [("o", "TS"), ("p", "9S")], "JS 8S", {"partner_exempt_on_trump_lead": True}, "JS 8S"),
    ("AT", [("o", "TS"), ("p", "JH")], "AS 8S", {}, "AS"),  # other suits never win
    ("AT", [("o", "TS")], "JH 7D", {}, "JH 7D"),
    # no-trump: follow only
    ("NT", [("o", "KC")], "AC 7C 9H", {}, "AC 7C"),
    ("NT", [("o", "KC")], "JH 9H", {}, "JH 9H"),
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(("trump", "trick", "hand", "options", "legal"), POSITIONS)
def test_hand_built_positions(
    preset: str, trump: str, trick: list[tuple[str, str]], hand: str, options: dict[str, Any], legal: str
) -> None:
    opts = {"must_undertrump": True, **options}
    o = resolve_options(preset, opts)
    r = rules_for(ref.DENOMS.index(trump), o)
    cards = [Card(c) for _, c in trick]
    best = ref.winner_index([c for _, c in trick], trump)
    pw = trick[best][0] == "p"
    got = r.legal(parse_cards(hand), cards, best, pw)
    assert sorted(str(c) for c in got) == sorted(legal.split())
    assert sorted(legal.split()) == sorted(
        ref.legal(hand.split(), [c for _, c in trick], pw, trump, o.to_dict())
    )


# ---------------------------------------------------------------------------
# Random games through the whole engine against the reference
# ---------------------------------------------------------------------------

AXES: dict[str, list[Any]] = dict(
    partner_exempt_on_trump_lead=[False, True], must_undertrump=[True, False],
    partner_master_exemption=[True, False], partner_master_trump_must_overtrump=[False, True],
    nt_values=["ace19", "plain"], at_values=["scaled38", "trump62"],
    belote_requires_announcement=[False, True], belote_counts_for_contract=[True, False],
    belote_on_failure=["kept", "lost", "to_defence"], belote_in_all_trump=[True, False],
    rounding=["nearest", "down", "none"],
    coinche_formula=["all_times_m", "bid_times_m", "base_plus_bid_times_m", "double_base"],
    surcoinche_multiplier=[4, 3], chute_base=[160, 162, 0], direction=["anticlockwise", "clockwise"],
    melds=["none", "seed"], contract_threshold=["nominal", "plus_two"], must_beat_opponents=[True, False],
    min_82_for_80=[True, False], capot_points=[250, 252, 162], capot_fail_base=[250, 160, 162],
    allow_generale_bid=[False, True], coinche_closes_auction=[True, False],
    coinche_timing=["in_turn", "any_time"], meld_equal_value=["carre_first", "rank_only"],
    meld_tie_rule=["nobody", "first_announcer"], seed_multiplier_scope=["all", "bid_only"],
    defense_complement=[False, True],
    melds_count_for_contract=[True, False],
    long_run_split=[False, True],
    card_in_multiple_melds=[True, False],
    target_rule=["reach", "exceed"],
    both_over_target_rule=["higher_total", "contract_winner"],
    deal_pattern=["3-2-3", "3-3-2", "2-3-3"],
)  # fmt: skip


def _random_options(rng: random.Random) -> tuple[str, dict[str, Any]]:
    preset = rng.choice(PRESETS)
    opts = {k: rng.choice(v) for k, v in AXES.items() if rng.random() < 0.3}
    if opts.get("partner_master_exemption") is False:
        opts["partner_master_trump_must_overtrump"] = False
    if opts.get("defense_complement") and (preset == "seed" or opts.get("scoring") == "seed"):
        del opts["defense_complement"]
    return preset, opts


def _belote_reference(d: Any, announced: set[tuple[int, str]], o: dict[str, Any]) -> list[int]:
    denom = ref.DENOMS[d.contract.denom]
    if denom == "NT" or (denom == "AT" and not o["belote_in_all_trump"]):
        suits = ""
    else:
        suits = ref.SUITS if denom == "AT" else denom
    out = [0, 0]
    for seat in range(4):
        held = {str(c) for c in d.dealt[seat]}
        for s in suits:
            if "K" + s in held and "Q" + s in held:
                if o["belote_requires_announcement"] and (seat, s) not in announced:
                    continue
                out[seat % 2] += 20
    return out


def _meld_key(meld: Any, trump: str, equal_value: str) -> tuple[int, ...]:
    natural = "AKQJT987"
    carre = "J9ATKQ"
    top = str(meld)[0]
    if meld.is_carre:
        if equal_value == "carre_first":
            return (meld.value, 1, 6 - carre.index(top), 0)
        return (meld.value, 0, 8 - natural.index(top), 0)
    trump_seq = int(str(meld)[-1] == trump)
    return (meld.value, 0, 8 - natural.index(top), trump_seq)


def _melds_reference(d: Any, o: dict[str, Any]) -> list[int]:
    if o["melds"] == "none":
        return [0, 0]
    trump = ref.DENOMS[d.contract.denom]
    best: dict[int, tuple[tuple[int, ...], int]] = {}
    for order, (seat, decl) in enumerate(d.meld_order):
        for m in decl.melds:
            k = _meld_key(m, trump, o["meld_equal_value"])
            if seat % 2 not in best or k > best[seat % 2][0]:
                best[seat % 2] = (k, order)
    if not best:
        return [0, 0]
    if len(best) == 1:
        team = next(iter(best))
    elif best[0][0] != best[1][0]:
        team = 0 if best[0][0] > best[1][0] else 1
    elif o["meld_tie_rule"] == "first_announcer":
        team = 0 if best[0][1] < best[1][1] else 1
    else:
        return [0, 0]
    out = [0, 0]
    out[team] = sum(decl.value for seat, decl in d.meld_order if seat % 2 == team)
    return out


def test_random_games_match_the_reference() -> None:
    checked_cards = scored = 0
    for n in range(400):
        rng = random.Random(n)
        preset, opts = _random_options(rng)
        g = trumps.new_game("coinche", preset=preset, options=opts, seed=n)
        o = g.options.to_dict()
        announced: set[tuple[int, str]] = set()
        for _ in range(1500):
            if g.is_over:
                break
            d = g.deal
            legal = g.legal_actions()
            if d.phase == "AUCTION" and not d.auction.calls:
                assert d.to_act == d.eldest
            if d.phase == "PLAY" and not isinstance(legal[0], Declaration):
                seat = d.hand_to_play
                denom = ref.DENOMS[d.contract.denom]
                trick = [str(c) for c in d.trick]
                pw = bool(trick) and (d.trick_seats[ref.winner_index(trick, denom)] - seat) % 4 == 2
                want = ref.legal([str(c) for c in d.hands[seat]], trick, pw, denom, o)
                assert sorted(str(a) for a in legal if isinstance(a, Card)) == sorted(want)
                checked_cards += 1
            action = rng.choice(legal)
            if isinstance(action, BelotePlay):
                announced.add((d.hand_to_play, str(action.card)[-1]))
            count = len(g.results)
            g.apply(action)
            if len(g.results) == count or g.results[-1]["thrown_in"]:
                continue
            res = g.results[-1]
            denom = ref.DENOMS[d.contract.denom]
            cp = [0, 0]
            for k, (leader, cards, winner) in enumerate(d.tricks):
                texts = [str(c) for c in cards]
                seat = leader
                for _ in range(ref.winner_index(texts, denom)):
                    seat = d.next_of[seat]
                assert seat == winner
                cp[winner % 2] += sum(ref.points(c, denom, o) for c in texts) + (10 if k == 7 else 0)
            assert cp == res["card_points"] and sum(cp) == ref.deal_total(denom, o)
            belote = _belote_reference(d, announced, o)
            melds = _melds_reference(d, o)
            assert belote == res["belote"] and melds == res["melds"]
            t = d.taker % 2
            made, ts, ds = ref.score(
                o, d.contract.kind, d.contract.bid.value, d.contract.level, [cp[t], cp[1 - t]],
                res["tricks"][t], d.won[d.taker] == 8, [belote[t], belote[1 - t]], [melds[t], melds[1 - t]],
            )  # fmt: skip
            assert (made, ts, ds) == (res["made"], res["points"][t], res["points"][1 - t]), res
            over, winner = ref.game_end(o, res["scores"], t if made else 1 - t)
            assert (g.is_over, g.winner) == (over, winner)
            scored += 1
            announced = set()
    assert checked_cards > 25_000 and scored > 800


# ---------------------------------------------------------------------------
# Scoring: the reference over a grid, every preset, every coinche formula
# ---------------------------------------------------------------------------

GRID_OVERRIDES: list[dict[str, Any]] = [
    {},
    {"coinche_formula": "bid_times_m"},
    {"coinche_formula": "base_plus_bid_times_m"},
    {"coinche_formula": "double_base"},
    {"surcoinche_multiplier": 3},
    {"belote_on_failure": "lost"},
    {"belote_on_failure": "to_defence"},
    {"belote_counts_for_contract": False},
    {"rounding": "none"},
    {"rounding": "down"},
    {"chute_base": 162},
    {"chute_base": 0},
    {"contract_threshold": "plus_two"},
    {"must_beat_opponents": False},
    {"must_beat_opponents": False, "min_82_for_80": False},
    {"capot_points": 252, "capot_fail_base": 162},
    {"capot_fail_base": 160, "capot_bid_value": 270},
    {"seed_multiplier_scope": "bid_only"},
]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("override", GRID_OVERRIDES, ids=[str(o) for o in GRID_OVERRIDES])
def test_scoring_grid(preset: str, override: dict[str, Any]) -> None:
    o = resolve_options(preset, override)
    od = o.to_dict()
    for text in ("80H", "90S", "100D", "120C", "160H", "CAPOT-S"):
        for level in (0, 1, 2):
            c = Contract.parse(text + "X" * level)
            for taker_cards in (0, 40, 78, 79, 80, 81, 82, 84, 85, 89, 91, 95, 102, 115, 125, 162):
                for tricks in (0, 4, 8) if taker_cards in (0, 162) else (4,):
                    for bel in ((0, 0), (20, 0), (0, 20)):
                        for melds in ((0, 0), (50, 0), (0, 20)) if od["melds"] != "none" else ((0, 0),):
                            s = score_deal(o, c, 1, [162 - taker_cards, taker_cards], [8 - tricks, tricks],
                                           bel[::-1], melds[::-1])  # fmt: skip
                            want = ref.score(
                                od, c.kind, c.bid.value, level, [taker_cards, 162 - taker_cards], tricks,
                                tricks == 8, bel, melds,
                            )  # fmt: skip
                            assert (s.made, s.points[1], s.points[0]) == want, (text, level, taker_cards, bel)


# ---------------------------------------------------------------------------
# Worked deals, by hand, per preset
# (contract, taker cards incl. dix de der, taker tricks, belote (t, d), melds
#  (t, d)) -> (made, taker side, defence)
# ---------------------------------------------------------------------------

W = tuple[str, int, int, tuple[int, int], tuple[int, int], bool, int, int]
WORKED: dict[str, list[W]] = {
    "seed": [
        ("100H", 112, 5, (20, 0), (0, 0), True, 230, 50),  # §16.1: floor10(132) + 100 / floor10(50)
        ("110S", 100, 4, (0, 0), (0, 0), False, 0, 270),  # §16.2
        ("80C", 81, 4, (0, 0), (0, 0), False, 0, 240),  # §16.3 litige
        ("90D", 91, 5, (0, 0), (0, 0), True, 180, 70),  # §16.4
        ("90DX", 95, 5, (20, 0), (0, 0), True, 400, 120),  # §16.5 (110 + 90) x 2 / 60 x 2
        ("120SXX", 110, 5, (0, 0), (0, 0), False, 0, 1120),  # §16.6
        ("100S", 162, 8, (20, 0), (0, 0), True, 370, 0),  # §16.7 floor10(270) + 100
        ("CAPOT-H", 162, 8, (0, 0), (0, 0), True, 500, 0),  # §16.8
        ("100H", 90, 5, (20, 0), (0, 0), True, 210, 70),  # §16.9a
        ("100H", 89, 5, (0, 0), (0, 0), False, 0, 260),
        ("100H", 89, 5, (20, 0), (0, 0), True, 200, 70),  # 109 -> 100 + 100 ; 73 -> 70
        ("100H", 92, 4, (20, 0), (0, 20), True, 210, 90),  # 112 > 90: 110 + 100 / floor10(90)
        ("100H", 70, 4, (20, 0), (0, 0), False, 0, 260),  # belote lost on failure
        ("100H", 70, 4, (0, 20), (0, 50), False, 0, 330),  # 160 + 20 + 50 + 100
        ("80S", 97, 5, (0, 0), (50, 0), True, 220, 60),  # melds: 147 -> 140 + 80 / 65 -> 60
        ("80S", 97, 5, (0, 0), (0, 100), False, 0, 340),  # 97 < 165: 160 + 100 + 80
        ("80SX", 97, 5, (0, 0), (0, 100), False, 0, 680),
        ("CAPOT-H", 150, 7, (20, 0), (0, 0), False, 0, 410),  # 160 + 250
        ("CAPOT-HX", 162, 8, (0, 0), (0, 0), True, 1000, 0),
    ],
    "common": [
        ("100H", 112, 5, (20, 0), (0, 0), True, 230, 50),
        ("110S", 100, 4, (0, 0), (0, 0), False, 0, 270),
        ("80C", 81, 4, (0, 0), (0, 0), False, 0, 240),
        ("90D", 91, 5, (0, 0), (0, 0), True, 180, 70),
        ("90DX", 95, 5, (20, 0), (0, 0), True, 520, 0),
        ("120SXX", 110, 5, (0, 0), (0, 0), False, 0, 1120),
        ("100S", 162, 8, (20, 0), (0, 0), True, 370, 0),
        ("CAPOT-H", 162, 8, (0, 0), (0, 0), True, 500, 0),
        ("100H", 90, 5, (20, 0), (0, 0), True, 210, 70),
        ("100H", 85, 5, (20, 0), (0, 0), True, 210, 80),  # 85 -> 90 ; 77 -> 80 (sum 170)
        ("100H", 75, 5, (20, 0), (0, 0), False, 20, 260),  # 95 < 100: belote kept
        ("100H", 75, 5, (0, 20), (0, 0), False, 0, 280),
        ("100HX", 75, 5, (20, 0), (0, 0), False, 20, 520),  # (160 + 100) x 2
        ("100HX", 75, 5, (0, 20), (0, 0), False, 0, 540),
        ("80D", 82, 4, (0, 0), (0, 0), True, 160, 80),  # 82 > 80: made
        ("80D", 81, 4, (20, 0), (0, 0), True, 180, 80),  # 101 > 81
        ("80D", 81, 4, (0, 20), (0, 0), False, 0, 260),  # 81 < 101
        ("80DXX", 120, 6, (0, 0), (0, 0), True, 960, 0),  # (160 + 80) x 4
        ("CAPOT-H", 155, 7, (20, 0), (0, 0), False, 20, 500),
        ("CAPOT-HX", 162, 8, (20, 0), (0, 0), True, 1020, 0),
        ("CAPOT-HX", 155, 7, (0, 0), (0, 0), False, 0, 1000),
    ],
    "ffb_2016": [
        ("100H", 112, 5, (20, 0), (0, 0), True, 230, 50),
        ("90DX", 95, 5, (20, 0), (0, 0), True, 520, 0),
        ("120SXX", 110, 5, (0, 0), (0, 0), False, 0, 1120),
        ("CAPOT-H", 162, 8, (0, 0), (0, 0), True, 500, 0),
        ("CAPOT-H", 162, 8, (20, 0), (0, 0), True, 520, 0),
        ("CAPOT-HX", 162, 8, (20, 0), (0, 0), True, 1020, 0),  # §18.9: 1000 (+ belote)
        ("CAPOT-HXX", 162, 8, (0, 0), (0, 0), True, 2000, 0),
        ("CAPOT-H", 150, 7, (0, 20), (0, 0), False, 0, 520),  # flat 500 to the defence
        ("CAPOT-HX", 150, 7, (20, 0), (0, 0), False, 0, 1020),  # the takers' belote goes to the defence
        ("100S", 162, 8, (0, 0), (0, 0), True, 350, 0),  # unbid capot 250 + 100
    ],
    "contree_exact": [
        ("80H", 80, 4, (0, 0), (0, 0), True, 160, 82),  # §18.9
        ("80H", 79, 4, (0, 0), (0, 0), False, 0, 242),  # 162 + 80
        ("80H", 60, 4, (20, 0), (0, 0), True, 160, 102),  # 60 + 20 >= 80, no need to out-score
        ("100H", 93, 5, (0, 20), (0, 0), False, 0, 282),  # 162 + 100 + 20
        ("100H", 93, 5, (20, 0), (0, 0), True, 213, 69),  # exact points: 100 + 93 + 20 / 69
        ("100H", 73, 5, (20, 0), (0, 0), False, 0, 282),  # 93 < 100: the belote goes to the defence
        ("100HX", 110, 5, (0, 0), (0, 0), True, 362, 0),  # 162 + 100 x 2
        ("100HXX", 110, 5, (0, 20), (0, 0), True, 482, 0),  # 162 + 300 + both belotes
        ("100HX", 70, 3, (20, 0), (0, 0), False, 0, 382),  # 162 + 200 + 20
        ("100HX", 162, 8, (0, 0), (0, 0), True, 452, 0),  # B = 252 with all 8 tricks
        ("100S", 162, 8, (20, 0), (0, 0), True, 372, 0),  # unbid capot 252 + 100 + 20
        ("CAPOT-H", 162, 8, (0, 0), (0, 0), True, 502, 0),  # §20 check
        ("CAPOT-H", 162, 8, (20, 0), (0, 0), True, 522, 0),
        ("CAPOT-HX", 162, 8, (0, 0), (0, 0), True, 752, 0),  # 252 + 250 x 2
        ("CAPOT-HXX", 162, 8, (0, 0), (0, 0), True, 1002, 0),  # 252 + 250 x 3
        ("CAPOT-H", 150, 7, (20, 0), (0, 0), False, 0, 432),  # 162 + 250 + both belotes
        ("CAPOT-HX", 150, 7, (0, 20), (0, 0), False, 0, 682),  # 162 + 500 + 20
    ],
    "pagat": [
        ("80H", 80, 4, (0, 0), (0, 0), False, 0, 240),  # §18.9: 80 needs 82
        ("80H", 82, 4, (0, 0), (0, 0), True, 160, 80),
        ("80H", 62, 4, (20, 0), (0, 0), True, 160, 100),  # 62 + 20 = 82: made, 80 + 60 + 20 / 100
        ("90H", 90, 4, (0, 20), (0, 0), True, 180, 90),  # §18.9: 90 vs 72 + 20
        ("90H", 89, 4, (0, 0), (0, 0), False, 0, 250),
        ("100HXX", 101, 4, (0, 0), (0, 0), True, 560, 0),  # 160 + 100 x 4: the bid only
        ("100HX", 99, 4, (20, 0), (0, 0), True, 380, 0),  # 119 >= 100: 160 + 100 x 2 + 20
    ],
}


@pytest.mark.parametrize(
    ("preset", "row"), [(p, r) for p, rows in WORKED.items() for r in rows], ids=lambda x: str(x)
)
def test_worked_deals(preset: str, row: W) -> None:
    contract, cards, tricks, belote, melds, made, taker, defence = row
    o = resolve_options(preset)
    s = score_deal(o, Contract.parse(contract), 0, [cards, 162 - cards], [tricks, 8 - tricks],
                   list(belote), list(melds))  # fmt: skip
    assert (s.made, s.points[0], s.points[1]) == (made, taker, defence)
    got = score(contract, cards, preset=preset, taker_tricks=tricks, belote_taker=belote[0],
                belote_defence=belote[1], melds_taker=melds[0], melds_defence=melds[1])  # fmt: skip
    assert (got["made"], got["taker"], got["defence"]) == (made, taker, defence)


def test_no_trump_and_all_trump_value_options_in_scoring() -> None:
    # plain NT totals 130: 90NT with 95 vs 35 is made, 90 + 100 / 40; 80NT 66 vs 64 made
    s = score("90NT", 95, preset="common", options={"nt_values": "plain"})
    assert (s["made"], s["taker"], s["defence"]) == (True, 190, 40)
    s = score("80NT", 66, preset="seed", options={"nt_values": "plain"})
    assert (s["made"], s["taker"], s["defence"]) == (False, 0, 240)  # 66 < 80
    # trump62 AT totals 258: 160AT with 170 vs 88 made, 160 + 170 / 90
    s = score("160AT", 170, preset="common", options={"at_values": "trump62"})
    assert (s["made"], s["taker"], s["defence"]) == (True, 330, 90)
    # ... and the failure base stays 160 (§2.2)
    s = score("160AT", 150, preset="common", options={"at_values": "trump62"})
    assert (s["made"], s["taker"], s["defence"]) == (False, 0, 320)
    with pytest.raises(TrumpsError):
        score("100NT", 140, preset="common", options={"nt_values": "plain"})


def test_rounding_of_halves_and_edges() -> None:
    assert [round_points(x, "nearest") for x in (0, 4, 5, 14, 15, 84, 85, 95, 155, 162)] == [
        0, 0, 10, 10, 20, 80, 90, 100, 160, 160,
    ]  # fmt: skip
    assert [round_points(x, "down") for x in (0, 9, 67, 119, 162)] == [0, 0, 60, 110, 160]
    assert [round_points(x, "none") for x in (67, 85)] == [67, 85]


def test_defense_complement() -> None:
    o = resolve_options("common", {"defense_complement": True})
    s = score_deal(o, Contract.parse("80H"), 0, [85, 77], [5, 3], [0, 0], [0, 0])
    assert s.points == [170, 70]  # 80 + 90 / 160 - 90


# ---------------------------------------------------------------------------
# §14: the end of the game
# ---------------------------------------------------------------------------


def test_game_end_rules() -> None:
    o = resolve_options("common")
    assert game_end(o, [990, 500], 0) == (False, None)
    assert game_end(o, [1000, 500], 0) == (True, 0)
    assert game_end(o, [1000, 1010], 0) == (True, 1)
    assert game_end(o, [1010, 1010], 0) == (False, None)  # tie over the target: another deal
    e = resolve_options("common", {"target_rule": "exceed"})
    assert game_end(e, [1000, 500], 0) == (False, None)
    assert game_end(e, [1001, 500], 0) == (True, 0)
    c = resolve_options("common", {"both_over_target_rule": "contract_winner"})
    assert game_end(c, [1100, 1020], 1) == (True, 1)
    assert game_end(c, [1020, 1020], 0) == (True, 0)
    assert game_end(c, [1100, 900], 1) == (True, 0)  # only one side over
    f = resolve_options("ffb_2016")
    assert game_end(f, [1990, 1500], 0) == (False, None) and game_end(f, [2000, 1500], 0) == (True, 0)


def test_match_runs_to_the_target_and_the_dealer_rotates() -> None:
    for preset in PRESETS:
        g = trumps.new_game("coinche", preset=preset, seed=11, dealer="N")
        rng = random.Random(1)
        dealers = [g.dealer]
        while not g.is_over:
            n = g.deal_number
            g.apply(rng.choice(g.legal_actions()))
            if g.deal_number != n and not g.is_over:
                dealers.append(g.dealer)
                assert g.deal.eldest == (g.dealer + 3) % 4
        assert all((b - a) % 4 == 3 for a, b in itertools.pairwise(dealers))
        target = g.options.target_score
        assert max(g.totals) >= target and g.totals[g.winner] == max(g.totals)
        assert g.totals[0] != g.totals[1]
        assert g.totals == [sum(r["points"][i] for r in g.results) for i in (0, 1)]


# ---------------------------------------------------------------------------
# §4: the auction, by hand
# ---------------------------------------------------------------------------


def _calls(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def test_auction_eldest_rotation_and_direction() -> None:
    g = trumps.new_game("coinche", preset="common", seed=1, dealer="N")
    assert g.to_act == "W"  # anticlockwise: eldest on the dealer's right
    g.apply("80H")
    assert g.to_act == "S"
    c = trumps.new_game("coinche", preset="common", seed=1, dealer="N", options={"direction": "clockwise"})
    assert c.to_act == "E"
    for _ in range(4):
        c.apply("P")
    assert c.seat_name(c.dealer) == "E" and c.to_act == "S" and c.deal_number == 1


def test_auction_bids_rebid_and_capot() -> None:
    g = trumps.new_game("coinche", preset="common", seed=1, dealer="N")
    legal = _calls(g)
    assert legal[0] == "P" and "80S" in legal and "160AT" in legal and "170S" not in legal
    assert "CAPOT-NT" in legal and not any(x.startswith("GENERALE") for x in legal)
    g.apply("P")  # W
    g.apply("80H")  # S
    assert "80S" not in _calls(g) and "90S" in _calls(g)  # same number is not higher
    g.apply("P")  # E
    g.apply("120S")  # N jumps
    g.apply("130D")  # W bids after passing
    g.apply("CAPOT-H")  # S
    assert _calls(g) == ["P", "X"]  # nothing is higher than a capot (générale off)
    for _ in range(3):
        g.apply("P")
    assert str(g.deal.contract) == "CAPOT-H" and g.seat_name(g.deal.taker) == "S"
    assert g.to_act == "W"  # eldest leads


def test_auction_higher_numeric_bids_and_generale() -> None:
    g = trumps.new_game(
        "coinche", preset="common", seed=1, dealer="N",
        options={"max_numeric_bid": 180, "allow_generale_bid": True},
    )  # fmt: skip
    legal = _calls(g)
    assert "180C" in legal and "190C" not in legal and "GENERALE-AT" in legal
    g.apply("GENERALE-H")
    assert _calls(g) == ["P", "X"]


def test_coinche_closes_the_auction_and_the_surcoinche_window() -> None:
    g = trumps.new_game("coinche", preset="common", seed=1, dealer="N")  # W S E N
    g.apply("100H")  # W
    assert "X" in _calls(g)  # S faces the bid
    g.apply("P")  # S
    assert "X" not in _calls(g)  # E is W's partner
    g.apply("P")  # E
    g.apply("X")  # N coinches
    # window: the contracting side from after the coincher: W then E; S skipped
    assert g.to_act == "W" and _calls(g) == ["P", "XX"]
    g.apply("P")
    assert g.to_act == "E" and _calls(g) == ["P", "XX"]
    g.apply("P")
    assert str(g.deal.contract) == "100HX" and g.deal.phase == "PLAY"
    h = trumps.new_game("coinche", preset="common", seed=1, dealer="N")
    h.apply("100H")
    h.apply("X")  # S coinches at once
    assert h.to_act == "E"
    h.apply("XX")
    assert str(h.deal.contract) == "100HXX" and h.seat_name(h.deal.taker) == "W"


def test_coinche_not_closing_the_auction() -> None:
    g = trumps.new_game(
        "coinche", preset="common", seed=1, dealer="N", options={"coinche_closes_auction": False}
    )
    g.apply("100H")  # W
    g.apply("X")  # S
    assert "110S" in _calls(g) and "XX" in _calls(g)  # E: bid on or surcoinche
    g.apply("110S")  # the coinche is cancelled
    assert g.deal.auction.level == 0
    assert "X" in _calls(g)  # N faces E's bid
    g.apply("P")  # N
    assert "X" not in _calls(g)  # W is E's partner
    g.apply("P")  # W
    g.apply("X")  # S coinches E's 110S
    assert "XX" in _calls(g) and "120S" in _calls(g)
    g.apply("XX")  # E surcoinches
    for _ in range(3):
        g.apply("P")
    assert str(g.deal.contract) == "110SXX" and g.seat_name(g.deal.taker) == "E"


def test_coinche_any_time_polls_the_defenders() -> None:
    g = trumps.new_game(
        "coinche", preset="common", seed=1, dealer="N", options={"coinche_timing": "any_time"}
    )
    g.apply("100H")  # W bids; S is next in turn, N is polled first
    assert g.to_act == "N" and _calls(g) == ["P", "X"]
    g.apply("X")
    assert g.to_act == "W" and _calls(g) == ["P", "XX"]  # window from after N
    g.apply("P")
    g.apply("P")
    assert str(g.deal.contract) == "100HX"


def test_all_pass_throws_in() -> None:
    g = trumps.new_game("coinche", preset="seed", seed=1, dealer="S")
    for _ in range(4):
        g.apply("P")
    assert g.results[-1]["thrown_in"] and g.totals == [0, 0] and g.seat_name(g.dealer) == "E"
    assert g.to_act == "N"


# ---------------------------------------------------------------------------
# Belote and melds through the engine
# ---------------------------------------------------------------------------

MELD_DEAL = {
    "E": "AH KH QH JH AS 8D TC 7C",
    "S": "QD JD TD 9D KS TH AC 9C",
    "W": "9S 8S 7S QS 9H AD 8C 7D",
    "N": "KC QC JC JS TS 8H 7H KD",
}


def _play_declaring_all(g: Any) -> None:
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[0])


def test_meld_example_of_the_spec_through_the_engine() -> None:
    """§7.4: E fifty, S fifty, "How high?" -> ace beats queen; EW 50 + 20."""
    g = trumps.new_game("coinche", preset="seed", deal=MELD_DEAL, dealer="S", contract="80S", declarer="N")
    assert g.to_act == "E"
    for _ in range(4):
        g.apply(g.legal_actions()[0])  # the full declaration
        v = g.view("N")
        assert v["melds"]["shown"] == {} and v["melds"]["points"] == [0, 0]
        g.apply(g.legal_actions()[0])
    v = g.view("N")
    assert v["melds"]["announcements"] == [
        {"seat": "E", "value": 50},
        {"seat": "S", "value": 50, "how_high": {"E": "A", "S": "Q"}},
    ]
    assert v["melds"]["shown"] == {"E": ["AKQJH"], "W": ["987S"]} and v["melds"]["points"] == [0, 70]
    assert "mine" in v["melds"] and v["melds"]["mine"] == ["KQJC"]
    assert "mine" not in g.view(None)["melds"]


@pytest.mark.parametrize(("equal_value", "winner"), [("carre_first", 0), ("rank_only", 1)])
def test_meld_comparison_options(equal_value: str, winner: int) -> None:
    """§7.4: N carré of queens vs E quinte to the ace (trump spades)."""
    from trumps.coinche.melds import Meld, meld_winner

    decls = [(seat, Declaration([Meld.parse(m)])) for seat, m in ((0, "QQQQ"), (1, "AKQJTD"))]
    assert meld_winner(decls, 0, equal_value, "nobody") == winner


def test_meld_ties() -> None:
    from trumps.coinche.melds import Meld, meld_winner

    seq = [(1, Declaration([Meld.parse("KQJD")])), (0, Declaration([Meld.parse("KQJC")]))]
    assert meld_winner(seq, 0, "carre_first", "nobody") is None
    assert meld_winner(seq, 0, "carre_first", "first_announcer") == 1
    assert meld_winner(seq, 3, "carre_first", "nobody") == 0  # trump sequence beats plain
    carres = [(1, Declaration([Meld.parse("AAAA")])), (0, Declaration([Meld.parse("TTTT")]))]
    assert meld_winner(carres, 0, "carre_first", "nobody") == 1  # A > T among 100 carrés
    nines = [(1, Declaration([Meld.parse("AKQJTH")])), (0, Declaration([Meld.parse("9999")]))]
    assert meld_winner(nines, 0, "carre_first", "nobody") == 0  # 150 > 100


def test_meld_values_and_runs() -> None:
    from trumps.coinche.melds import find_melds

    def vals(hand: str, sharing: bool = True, split: bool = False) -> list[tuple[str, int]]:
        return [(str(m), m.value) for m in find_melds(parse_cards(hand), sharing, split)]

    assert vals("AH KH QH JH TH 9H 8H 7H") == [("AKQJT987H", 100)]
    assert vals("AH KH QH JH TH 9H 8H 7H", split=True) == [("AKQJTH", 100), ("987H", 20)]
    assert vals("8S 8H 8D 8C 7S 7H 7D 7C") == []  # four 8s / 7s: nothing
    assert vals("JS JH JD JC 9S 9H 9D 9C") == [("JJJJ", 200), ("9999", 150)]
    assert vals("QS JS TS 9S AH AD AC AS") == [("AAAA", 100), ("QJT9S", 50)]
    assert vals("9D 8D 7D KC QC 7S 8H AH") == [("987D", 20)]


def test_belote_in_colour_nt_at_and_announced() -> None:
    deal = {
        "N": "KH QH KS QS 7D 8D 7C 8C",
        "E": "AH TH AS TS AD TD AC TC",
        "S": "JH 9H JS 9S JD 9D JC 9C",
        "W": "8H 7H 8S 7S KD QD KC QC",
    }
    for contract, want in (("80H", [20, 0]), ("80NT", [0, 0]), ("80AT", [40, 40]), ("80C", [0, 20])):
        g = trumps.new_game(
            "coinche", preset="common", deal=deal, dealer="E", contract=contract, declarer="N"
        )
        _play_declaring_all(g)
        assert g.results[-1]["belote"] == want, contract
    g = trumps.new_game("coinche", preset="common", deal=deal, dealer="E", contract="80AT", declarer="N",
                        options={"belote_in_all_trump": False})  # fmt: skip
    _play_declaring_all(g)
    assert g.results[-1]["belote"] == [0, 0]
    # announced: playing KH without announcing forfeits it; announcing scores it
    for announce, want in ((False, [0, 0]), (True, [20, 0])):
        g = trumps.new_game("coinche", preset="common", deal=deal, dealer="E", contract="80H", declarer="N",
                            options={"belote_requires_announcement": True})  # fmt: skip
        assert g.to_act == "N"
        legal = _calls(g)
        assert "KH+BELOTE" in legal and "QH+BELOTE" in legal
        g.apply("KH+BELOTE" if announce else "KH")
        v = g.view("E")
        assert [e["call"] for e in v["belote"]] == (["belote"] if announce else [])
        _play_declaring_all(g)
        assert g.results[-1]["belote"] == want


# ---------------------------------------------------------------------------
# Single-deal mode, errors, option contradictions
# ---------------------------------------------------------------------------


def test_single_deal_contract_110hx() -> None:
    g = trumps.new_game("coinche", preset="common", seed=4, dealer="N", contract="110HX", declarer="E")
    assert g.deal.phase == "PLAY" and str(g.deal.contract) == "110HX" and g.to_act == "W"
    assert g.view(None)["contract"]["call"] == "110HX"
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    r = g.results[-1]
    assert len(g.results) == 1 and r["multiplier"] == 2 and r["contract"] == "110HX"
    win = 1 if r["made"] else 0
    assert r["points"][win] == 540 + r["belote"][win] and r["points"][1 - win] == r["belote"][1 - win]
    with pytest.raises(OptionError):
        trumps.new_game("coinche", preset="contree_exact", seed=1, contract="110NT", declarer="E")
    with pytest.raises(OptionError):
        trumps.new_game("coinche", preset="common", seed=1, contract="110H")


def test_illegal_actions_change_nothing() -> None:
    g = trumps.new_game("coinche", preset="seed", seed=9, dealer="N")
    g.apply("100H")
    before = g.to_json()
    for bad in ("90S", "100S", "XX", "KH", "MELD:-", "zz", "170H", "85H"):
        with pytest.raises(TrumpsError):
            g.apply(bad)
        assert g.to_json() == before
    with pytest.raises(TrumpsError):
        g.apply("P", "N")  # S is to call, not N
    assert g.to_json() == before


def test_option_contradictions_rejected() -> None:
    for opts in (
        {"partner_master_exemption": False, "partner_master_trump_must_overtrump": True},
        {"belote_on_failure": "kept", "belote_kept_on_failure": True},
        {"max_numeric_bid": 250},
        {"surcoinche_multiplier": 2},
        {"rounding": "up"},
        {"no_such_option": 1},
    ):
        with pytest.raises(OptionError):
            resolve_options("common", opts)
    assert resolve_options("seed", {"belote_kept_on_failure": True}).belote_on_failure == "kept"
    assert resolve_options("common", {"belote_kept_on_failure": False}).belote_on_failure == "lost"


@pytest.mark.parametrize(
    ("pattern", "direction", "first"),
    [
        ("3-2-3", "anticlockwise", [3, 2, 1, 0]),
        ("2-3-3", "clockwise", [1, 2, 3, 0]),
        ("3-3-2", "anticlockwise", [3, 2, 1, 0]),
    ],
)
def test_deal_packets_from_eldest_in_the_direction(pattern: str, direction: str, first: list[int]) -> None:
    from trumps.coinche.deal import next_seat
    from trumps.coinche.game import deal_packets

    deck = [Card(c) for c in ref.DECK]
    hands = deal_packets(deck, 0, next_seat(direction), pattern)
    sizes = [int(x) for x in pattern.split("-")]
    want: list[set[Card]] = [set(), set(), set(), set()]
    k = 0
    for size in sizes:
        for seat in first:  # eldest = next(dealer N) first
            want[seat] |= set(deck[k : k + size])
            k += size
    assert [set(h) for h in hands] == want and all(len(h) == 8 for h in hands)


def test_calculator_rejects_inconsistent_deals() -> None:
    with pytest.raises(TrumpsError):
        score("100NT", 100, belote_taker=20)  # no belote in no-trump
    with pytest.raises(TrumpsError):
        score("100H", 100, belote_taker=20, belote_defence=20)  # one K-Q of trumps
    with pytest.raises(TrumpsError):
        score("100AT", 100, belote_taker=20, options={"belote_in_all_trump": False})
    assert score("100AT", 100, belote_taker=40, belote_defence=40)["made"] is True
    with pytest.raises(TrumpsError):
        score("100AT", 100, belote_taker=60, belote_defence=40)
    with pytest.raises(TrumpsError):
        score("100H", 100, melds_taker=50, preset="common")  # common plays without melds
    with pytest.raises(TrumpsError):
        score("100H", 100, melds_taker=25, preset="seed")
    with pytest.raises(TrumpsError):
        score("CAPOT-H", 140, taker_tricks=8)  # all the tricks, all the points
    with pytest.raises(TrumpsError):
        score("80H", 10, taker_tricks=0)
    with pytest.raises(TrumpsError):
        score("GENERALE-H", 150, taker_tricks=7, alone=True, options={"allow_generale_bid": True})
    s = score("GENERALE-H", 162, taker_tricks=8, alone=True, options={"allow_generale_bid": True})
    assert (s["made"], s["taker"]) == (True, 750)
    s = score("100H", 162, alone=True)  # alone means all 8 tricks: an unbid capot
    assert (s["made"], s["taker"], s["cards"]["taker"]) == (True, 350, 250)
    with pytest.raises(TrumpsError):
        score("100H", 150, alone=True)


@pytest.mark.parametrize(
    "argv",
    [
        ["100H", "--generale", "--defence-capot"],
        ["100H", "--capot", "--points", "100"],
        ["100NT", "--points", "100", "--belote", "taker"],
        ["100H", "--points", "100", "--melds-taker", "50"],
    ],
)
def test_score_command_rejects_inconsistent_input(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from trumps.cli.games.coinche import score_command

    assert score_command(argv) == 2
    assert capsys.readouterr().err.startswith("trumps: error: ")
