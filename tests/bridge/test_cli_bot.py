"""The bridge CLI commands and the rule-based bot."""

from __future__ import annotations

import json
import random

import pytest

import trumps
from trumps.bots.bridge import BridgeRuleBot, hcp
from trumps.bridge import dd
from trumps.cli.games.bridge import dd_command, score_command
from trumps.core.cards import parse_hand

DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def test_score_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_command(["bridge", "4HX", "--vul", "--tricks", "9"]) == 0
    assert capsys.readouterr().out.strip() == "-200"
    assert score_command(["3NT", "--tricks", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == 430
    assert score_command(["4HZ", "--tricks", "9"]) == 2
    assert score_command(["4H"]) == 2


def test_score_rubber_command(capsys: pytest.CaptureFixture[str]) -> None:
    rec = "NS 2H 9; EW 3NT 9; NS 4S 10 NS100; EW 4H 8; NS 3NT 10"
    assert score_command(["--rubber", rec]) == 0
    out = capsys.readouterr().out
    assert "1140" in out and "+10" in out
    assert score_command(["--rubber", rec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"] == [1140, 100] and data["back_score"]["N"] == 10 and data["finished"]


def test_score_rubber_from_game_record(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    g = trumps.new_game("bridge", options={"scoring": "rubber"}, seed=8, dealer="N")
    rng = random.Random(8)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    path = Path(str(tmp_path)) / "rubber.json"
    path.write_text(json.dumps(g.to_json()), encoding="utf-8")
    assert score_command(["--rubber", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == g.scores
    assert score_command(["--rubber", "{not json"]) == 2


@pytest.mark.skipif(not dd.available(), reason="endplay not installed")
def test_dd_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert dd_command([DEAL, "--par", "--vul", "None", "--dealer", "N"]) == 0
    out = capsys.readouterr().out
    assert "Par -110" in out and "2S by E" in out
    assert dd_command([DEAL, "--json", "--par"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tricks"]["S"]["E"] == 8 and data["par"]["score"] == -110
    assert dd_command(["N:bad"]) == 2


def test_hcp() -> None:
    assert hcp(parse_hand("AKQJ.A.K.Q2")) == 4 + 3 + 2 + 1 + 4 + 3 + 2


def _bot_game(seed: int, **options: str) -> trumps.Match[object]:
    bot = BridgeRuleBot()
    rng = random.Random(seed)
    g = trumps.new_game("bridge", options={"scoring": "duplicate", **options}, seed=seed)
    while not g.is_over:
        seat = g.to_act_index
        v = g.view(seat)
        g.apply(bot.choose(v, v["legal"], rng), seat)
    return g


def test_bot_plays_full_deals() -> None:
    for seed in range(30):
        g = _bot_game(seed)
        assert g.is_over and len(g.results) == 1


def test_bot_bidding() -> None:
    bot = BridgeRuleBot()
    # N deals; N holds 16 balanced -> 1NT
    g = trumps.new_game(
        "bridge",
        options={"scoring": "duplicate"},
        dealer="N",
        deal="N:AK2.KQ3.A932.J54 QJT9.J54.QJ5.T92 876.A9876.K87.A3 543.T2.T64.KQ876",
    )
    v = g.view("N")
    assert bot.choose(v, v["legal"], random.Random(0)) == "1NT"
    g.apply("1NT")
    v = g.view("E")
    assert bot.choose(v, v["legal"], random.Random(0)) == "P"
    g.apply("P")
    v = g.view("S")  # 11 HCP opposite 1NT: 3NT
    assert bot.choose(v, v["legal"], random.Random(0)) == "3NT"


def test_bot_declarer_plays_dummy_and_accepts_rules() -> None:
    g = _bot_game(3, claims="consent")
    assert g.is_over


def test_importing_bridge_does_not_load_the_solver() -> None:
    import subprocess
    import sys

    code = "import sys, trumps, trumps.bridge, trumps.bridge.dd; print('endplay' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_bot_opener_accepts_raise_with_extras() -> None:
    bot = BridgeRuleBot()
    g = trumps.new_game(
        "bridge",
        options={"scoring": "duplicate"},
        dealer="N",
        deal="N:AKJ76.KQ3.A93.J5 QT9.J54.QJ5.T982 8432.A98.K87.A43 5.T762.T642.KQ76",
    )
    rng = random.Random(0)
    calls = []
    for _ in range(5):
        v = g.view(g.to_act_index)
        call = bot.choose(v, v["legal"], rng)
        calls.append(call)
        g.apply(call)
    assert calls == ["1S", "P", "3S", "P", "4S"]  # S: 11 HCP, four spades -> jump raise
