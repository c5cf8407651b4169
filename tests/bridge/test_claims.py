"""Claims and concessions in ``consent`` and ``verify`` mode (bridge.md §3.1)."""

from __future__ import annotations

from typing import Any

import pytest

import trumps
from trumps.bridge import dd
from trumps.core.errors import IllegalAction

DEAL = "N:AKQJ.AKQ.AK2.432 T98765.J.QJ.T987 2.T98765.T98.AKQ 43.432.76543.J65"


def new(claims: str = "consent", **kw: Any) -> trumps.Match[Any]:
    return trumps.new_game(
        "bridge", options={"scoring": "duplicate", "claims": claims}, deal=DEAL, dealer="N", **kw
    )


def test_claims_off_by_default() -> None:
    g = trumps.new_game("bridge", options={"scoring": "duplicate"}, deal=DEAL, contract="3NT", declarer="N")
    assert not any(str(a).startswith("CLAIM") for a in g.legal_actions())
    with pytest.raises(IllegalAction):
        g.apply("CLAIM13")


def test_declarer_claim_accepted_by_both_defenders() -> None:
    g = new(contract="3NT", declarer="N")
    g.apply("JH")  # E leads
    assert g.to_act == "N" and "CLAIM12" in [str(a) for a in g.legal_actions()]
    g.apply("CLAIM12", "N")
    assert g.phase == "CLAIM" and g.to_act == "E"
    assert g.view("E")["claim"] == {"seat": "N", "tricks": 12}
    g.apply("ACCEPT", "E")
    assert g.to_act == "W"
    g.apply("ACCEPT", "W")
    assert g.is_over
    r = g.results[0]
    assert r["tricks"] == 12 and r["claim"]["how"] == "accepted"
    assert r["points"][0] == trumps.bridge.score("3NT", vulnerable=False, tricks=12)  # type: ignore[attr-defined]


def test_rejected_claim_continues_and_blocks_reclaim_this_trick() -> None:
    g = new(contract="3NT", declarer="N")
    g.apply("JH")
    g.apply("CLAIM13")
    g.apply("ACCEPT")
    g.apply("REJECT")
    assert g.phase == "PLAY" and g.view("N")["hand_to_play"] == "S"
    assert not any(str(a).startswith("CLAIM") for a in g.legal_actions())
    g.apply("5H")
    g.apply("4H")  # W
    g.apply("AH")  # N wins, new trick: claims allowed again
    assert any(str(a).startswith("CLAIM") for a in g.legal_actions())


def test_defender_concession_answered_by_declarer_and_partner() -> None:
    g = new(contract="3NT", declarer="N")
    g.apply("CONCEDE", "E")  # E concedes all 13 for the defence
    assert g.to_act == "N"
    g.apply("ACCEPT")
    assert g.to_act == "W"
    g.apply("ACCEPT")
    assert g.is_over and g.results[0]["tricks"] == 13


def test_claim_json_round_trip() -> None:
    g = new(contract="3NT", declarer="N")
    g.apply("JH")
    g.apply("CLAIM12")
    g.apply("ACCEPT")
    g.apply("ACCEPT")
    again = trumps.load_game(g.to_json())
    assert again.results == g.results


@pytest.mark.skipif(not dd.available(), reason="endplay not installed")
def test_verify_mode_uses_double_dummy() -> None:
    g = new("verify", contract="3NT", declarer="N")
    g.apply("JH")
    g.apply("CLAIM13")  # S has AKQ of clubs and N the rest: all 13 are cold? check below
    if not g.is_over:  # the solver refused the claim: play continues, no re-claim this trick
        assert g.phase == "PLAY"
        assert not any(str(a).startswith("CLAIM") for a in g.legal_actions())
    g2 = new("verify", contract="3NT", declarer="N")
    g2.apply("JH")
    g2.apply("CLAIM9")
    assert g2.is_over and g2.results[0]["claim"]["how"] == "verified"
