"""Bridge double dummy without DDS: ``trumps.bridge.dd`` answers by trumps'
own solver (the bare install has no endplay), with the same numbers as DDS
and one logged note per process.  The comparison with DDS runs where endplay
is installed (``.[dds]``, as ``scripts/test.sh`` installs it); the
fallback's own checks run everywhere."""

from __future__ import annotations

import logging
import random
import re

import pytest

import trumps
from trumps.bridge import dd
from trumps.bridge.hands import format_deal, parse_deal
from trumps.core.cards import Card
from trumps.core.errors import DealError

needs_dds = pytest.mark.skipif(not dd.available(), reason="endplay (DDS) not installed: pip install '.[dds]'")

#: a deal whose table is known by heart: every hand one suit's sequence, so
#: each side takes its top tricks
SEQUENCES = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


@pytest.fixture
def without_dds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dd, "available", lambda: False)
    monkeypatch.setattr(dd, "_noted", type(dd._noted)())  # a fresh "said once"


def _deals(n: int) -> list[str]:
    rng = random.Random("dd-fallback")
    return [format_deal(trumps.new_game("bridge", seed=rng.randrange(1 << 30)).deal.hands) for _ in range(n)]


def test_own_table_of_a_known_deal(without_dds: None) -> None:
    table = dd.dd_table(SEQUENCES)
    assert table.raw is None
    # each hand holds the top of one suit: on lead, a side cashes it first
    assert table.tricks == ((5, 7, 5, 7), (7, 5, 7, 5), (5, 7, 5, 7), (7, 5, 7, 5), (5, 5, 5, 5))


def test_the_note_is_logged_once(without_dds: None, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="trumps.bridge.dd"):
        dd.lead_analysis(SEQUENCES, "S", "NT")
        dd.lead_analysis(SEQUENCES, "N", "S")
    notes = [r.getMessage() for r in caplog.records if "own solver" in r.getMessage()]
    assert notes == [dd._NOTE]
    assert "\n" not in dd._NOTE and "trumps[dds]" in dd._NOTE


def test_par_without_dds(without_dds: None) -> None:
    par = dd.par(SEQUENCES, vulnerable="None", dealer="N")
    assert (par.score, par.contracts) == (80, (("1S", "N", 0), ("1S", "S", 0)))  # as DDS says


def test_a_claim_is_verified_without_dds(without_dds: None) -> None:
    m = trumps.new_game("bridge", seed=5, contract="3NT", declarer="S", options={"claims": "verify"})
    deal = m.deal
    side = deal.declarer & 1
    best = dd.max_tricks_from(deal, side)
    assert 0 <= best <= 13
    assert dd.max_tricks_from(deal, 1 - side) == 13 - best


@needs_dds
def test_own_table_equals_dds() -> None:
    deals = _deals(2)
    with_dds = [dd.dd_table(d).tricks for d in deals]
    saved = dd.available
    dd.available = lambda: False  # type: ignore[assignment]
    try:
        own = [dd.dd_table(d).tricks for d in deals]
    finally:
        dd.available = saved  # type: ignore[assignment]
    assert own == with_dds


@needs_dds
def test_own_leads_and_mid_deal_equal_dds(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = _deals(1)[0]
    leads = dd.lead_analysis(deal, "E", "H")
    m = trumps.new_game("bridge", deal=deal, contract="4H", declarer="E")
    rng = random.Random(3)
    for _ in range(9):  # two tricks and a card into the third
        m.apply(rng.choice([str(a) for a in m.legal_actions()]))
    mid = [dd.max_tricks_from(m.deal, side) for side in (0, 1)]
    monkeypatch.setattr(dd, "available", lambda: False)
    own_leads = dd.lead_analysis(deal, "E", "H")
    # DDS lists one card of a run of equals; every card it lists agrees
    assert {c: own_leads[c] for c in leads} == leads
    assert [dd.max_tricks_from(m.deal, side) for side in (0, 1)] == mid


_ONE_CARD_EACH = [[Card("AS")], [Card("KS")], [Card("QS")], [Card("JS")]]


@pytest.mark.parametrize("solver", ["dds", "own"])
@pytest.mark.parametrize(
    ("hands", "says"),
    [
        (_ONE_CARD_EACH, "N has 1 cards, not 13"),  # DDS answered with a made-up table
        ([[], [], [], []], "N has 0 cards, not 13"),  # DDS's "Zero cards" (a RuntimeError)
        ([[Card("AS")] * 13] * 4, "AS is dealt twice"),  # DDS's "Cards duplicated"
        (_ONE_CARD_EACH[:3], "3 hands, not 4"),  # an IndexError
        ([["AS"] * 13] * 4, "AS is not a bridge card"),  # card strings are not cards
        (5, "not a list of cards"),  # a TypeError
        ([5, 5, 5, 5], "not a list of cards"),
        ("N:A... K... Q... J...", "N has 1 cards, not 13"),  # the same defect as a PBN string
    ],
)
def test_hands_given_as_lists_are_checked_like_a_pbn_deal(
    solver: str, hands: object, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if solver == "dds" and not dd.available():
        pytest.skip("endplay (DDS) not installed")
    if solver == "own":
        monkeypatch.setattr(dd, "available", lambda: False)
    calls = [
        lambda: dd.dd_table(hands),  # type: ignore[arg-type]
        lambda: dd.dd_tables([hands]),  # type: ignore[list-item]
        lambda: dd.par(hands, vulnerable="None", dealer="N"),  # type: ignore[arg-type]
        lambda: dd.lead_analysis(hands, "N", "NT"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(DealError, match=re.escape(says)):
            call()


def test_a_good_deal_as_lists_still_solves() -> None:
    hands = parse_deal(SEQUENCES)
    assert dd.dd_table(hands).tricks == dd.dd_table(SEQUENCES).tricks
    assert dd.dd_table(tuple(tuple(h) for h in hands)).tricks == dd.dd_table(SEQUENCES).tricks
