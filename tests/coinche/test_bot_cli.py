"""The rule-based bot plays legal, sensible coinche from its view only, and
the ``trumps score coinche`` calculator prints the spec's numbers."""

from __future__ import annotations

import json
import random

import pytest

import trumps
from trumps.bots.coinche import CoincheRuleBot
from trumps.cli.games.coinche import score_command

from .conftest import PRESETS


@pytest.mark.parametrize("preset", PRESETS)
def test_bot_plays_whole_matches(preset: str) -> None:
    bot = CoincheRuleBot()
    rng = random.Random(7)
    g = trumps.new_game(
        "coinche", preset=preset, seed=11, options={"belote_requires_announcement": preset == "pagat"}
    )
    actions = 0
    while not g.is_over and actions < 20_000:
        v = g.view(g.to_act_index)
        choice = bot.choose(v, v["legal"], rng)
        assert choice in v["legal"]
        g.apply(choice)
        actions += 1
    assert g.is_over


def test_bot_beats_random() -> None:
    bot = CoincheRuleBot()
    rng = random.Random(3)
    wins = 0
    for seed in range(12):
        g = trumps.new_game("coinche", preset="common", seed=seed)
        while not g.is_over:
            seat = g.to_act_index
            if seat % 2 == 0:
                v = g.view(seat)
                g.apply(bot.choose(v, v["legal"], rng))
            else:
                g.apply(rng.choice(g.legal_actions()))
        wins += g.winner == 0
    assert wins >= 10


def _hand_view(
    hand: str, trick: list[dict[str, str]], legal: list[str], contract: str = "100H"
) -> dict[str, object]:
    return {
        "seat": "S",
        "seats": ["N", "E", "S", "W"],
        "phase": "PLAY",
        "hands": {"N": None, "E": None, "S": hand.split(), "W": None},
        "trick": trick,
        "contract": {"call": contract, "denom": contract.lstrip("0123456789"), "seat": "N"},
        "auction": [],
        "legal": legal,
    }


def test_bot_loads_points_on_winning_partner_and_wins_cheaply() -> None:
    bot = CoincheRuleBot()
    rng = random.Random(0)
    trick = [{"seat": "E", "card": "7S"}, {"seat": "N", "card": "AS"}, {"seat": "W", "card": "8S"}]
    assert bot.choose(_hand_view("TS 7C", trick, ["TS"]), ["TS"], rng) == "TS"
    trick = [{"seat": "E", "card": "7C"}, {"seat": "N", "card": "AC"}, {"seat": "W", "card": "8C"}]
    v = _hand_view("TD 7D 8H", trick, ["TD", "7D", "8H"])
    assert bot.choose(v, ["TD", "7D", "8H"], rng) == "TD"  # charger on partner's ace
    trick = [{"seat": "W", "card": "KS"}]
    v = _hand_view("AS TS 7S", trick, ["AS", "TS", "7S"])
    assert bot.choose(v, ["AS", "TS", "7S"], rng) == "TS"  # cheapest winner


def test_bot_announces_belote_and_bids_a_strong_suit() -> None:
    bot = CoincheRuleBot()
    rng = random.Random(0)
    legal = ["KH", "KH+BELOTE", "QH", "QH+BELOTE"]
    v = _hand_view("KH QH 7C", [{"seat": "W", "card": "JH"}], legal)
    assert bot.choose(v, legal, rng).endswith("+BELOTE")
    bid_view = {
        "seat": "N", "seats": ["N", "E", "S", "W"], "phase": "AUCTION",
        "hands": {"N": ["JH", "9H", "AH", "TH", "KH", "AS", "AC", "7D"], "E": None, "S": None, "W": None},
        "auction": [], "trick": [], "contract": None,
    }  # fmt: skip
    g = trumps.new_game("coinche", seed=1)
    legal = [str(a) for a in g.legal_actions()]
    choice = bot.choose(bid_view, legal, rng)
    assert choice.endswith("H") and int(choice[:-1]) >= 120
    weak = dict(
        bid_view,
        hands={"N": ["7S", "8S", "7H", "8H", "7D", "8D", "9C", "7C"], "E": None, "S": None, "W": None},
    )
    assert bot.choose(weak, legal, rng) == "P"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["100H", "--points", "112", "--belote", "taker", "--preset", "seed"], (230, 50, True)),
        (["90DX", "--points", "95", "--belote", "taker"], (520, 0, True)),
        (
            ["90DX", "--points", "95", "--belote", "taker", "-o", "coinche_formula=bid_times_m"],
            (360, 0, True),
        ),
        (["120SXX", "--points", "110", "--preset", "contree_exact"], (0, 522, False)),
        (["CAPOT-HX", "--capot", "--belote", "taker", "--preset", "ffb_2016"], (1020, 0, True)),
        (["80H", "--points", "80", "--preset", "contree_exact"], (160, 82, True)),
        (["80H", "--points", "80", "--preset", "pagat"], (0, 240, False)),
        (["100S", "--capot", "--belote", "taker", "--preset", "common"], (370, 0, True)),
        (["100H", "--points", "80", "--melds-taker", "50", "--preset", "seed"], (230, 80, True)),
    ],
)
def test_score_command(
    argv: list[str], expected: tuple[int, int, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    assert score_command([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["taker"], out["defence"], out["made"]) == expected
    assert score_command(argv) == 0
    text = capsys.readouterr().out
    assert str(expected[0]) in text and ("made" if expected[2] else "failed") in text


@pytest.mark.parametrize(
    "argv",
    [["100H"], ["100H", "--points", "170"], ["75H", "--points", "80"], ["100H", "--points", "90", "-o", "nope=1"],
     ["100H", "--points", "90", "-o", "rounding"], ["100H", "--capot", "--defence-capot"]],
)  # fmt: skip
def test_score_command_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert score_command(argv) == 2
    assert capsys.readouterr().err.startswith("trumps: error: ")


def test_bot_draws_trumps_with_the_master() -> None:
    bot = CoincheRuleBot()
    v = _hand_view("JH 7H AS 7C", [], ["JH", "7H", "AS", "7C"])
    v["tricks"] = []
    assert bot.choose(v, ["JH", "7H", "AS", "7C"], random.Random(0)) == "JH"
    v = _hand_view("9H 7H AS 7C", [], ["9H", "7H", "AS", "7C"])
    v["tricks"] = []  # the jack is still out: lead the ace instead
    assert bot.choose(v, ["9H", "7H", "AS", "7C"], random.Random(0)) == "AS"


def test_score_command_capot_uses_the_deal_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_command(["100NT", "--capot", "-o", "nt_values=plain", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["taker"], out["defence"], out["made"]) == (350, 0, True)


def test_registry_and_selfplay_drive_the_coinche_bot() -> None:
    from trumps.bots import bot_for, selfplay

    assert isinstance(bot_for("coinche", "rules"), CoincheRuleBot)
    r = selfplay("coinche", ["rules", "random"], games=2, seed=5)
    assert r.games == 2
