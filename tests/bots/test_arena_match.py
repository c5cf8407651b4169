"""The arena's match mode: whole games to the engine's end, games won."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import trumps
from trumps.bots.arena_match import (
    GameOutcome,
    MatchResult,
    PairOutcome,
    duplicate_game,
    duplicate_games,
    match_format,
    play_game,
    wilson,
)
from trumps.bots.base import Bot, BotError, RandomBot
from trumps.bots.registry import bot_for
from trumps.cli.arena import main

COINCHE_SHORT = {"target_score": 400}


def _bots(game: str, a: str, b: str, a_team: int = 0) -> list[Bot]:
    return [bot_for(game, a if s % 2 == a_team else b) for s in range(4)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_coinche_game_ends_exactly_at_the_target(seed: int) -> None:
    m = play_game("coinche", _bots("coinche", "rules", "random"), seed, COINCHE_SHORT)
    assert m.is_over and m.to_act_index is None
    final = m.results[-1]["scores"]
    assert final == m.scores and max(final) >= 400 and final[0] != final[1]
    assert m.winner == (0 if final[0] > final[1] else 1)
    for r in m.results[:-1]:  # never over before: nobody at the target, or a tie
        s = r["scores"]
        assert max(s) < 400 or s[0] == s[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_500_game_ends_when_the_engine_says(seed: int) -> None:
    m = play_game("500", _bots("500", "rules", "random"), seed)
    assert m.is_over and m.winner in (0, 1)
    assert any(abs(x) >= 500 for x in m.scores)
    # replaying the record stops at the same place with the same winner
    again = trumps.load_game(m.to_json())
    assert again.is_over and again.winner == m.winner and len(again.results) == len(m.results)
    for r in m.results[:-1]:
        assert all(abs(x) < 500 for x in r["scores"]) or r["scores"].count(max(r["scores"])) > 1


def test_bridge_plays_a_rubber_and_chicago() -> None:
    m = play_game("bridge", _bots("bridge", "rules", "rules"), 5)
    assert m.is_over and max(m.results[-1]["games"]) == 2
    assert all(max(r["games"]) < 2 for r in m.results[:-1])
    c = play_game("bridge", _bots("bridge", "rules", "random"), 5, {"scoring": "chicago"})
    assert c.is_over and len(c.results) == 4 + sum(bool(r.get("redeal")) for r in c.results)
    assert match_format("bridge") == "rubber"
    assert match_format("bridge", {"scoring": "chicago"}).startswith("Chicago")
    assert match_format("coinche", COINCHE_SHORT).startswith("to 400")


def test_unfinished_rubber_is_stopped_by_the_engine() -> None:
    # random bidders outbid everything: no game is ever made
    m = play_game("bridge", [RandomBot()] * 4, 1, max_deals=6)
    assert m.is_over and len([r for r in m.results if r["deal"] is not None]) == 6
    assert m.results[-1]["deal"] is None  # finish_rubber's entry
    out = GameOutcome.of(m, 0)
    assert out.stopped and out.deals == 6
    r = duplicate_games("bridge", "random", "random", games=1, max_deals=3)
    assert r.stopped == 2 and "stopped unfinished     2" in r.format()
    with pytest.raises(BotError, match="did not end in 2 deals"):
        play_game("500", _bots("500", "rules", "rules"), 1, max_deals=2)


def test_outcome_is_read_from_the_engine() -> None:
    m = play_game("coinche", _bots("coinche", "random", "rules"), 7, COINCHE_SHORT)
    for a_team in (0, 1):
        g = GameOutcome.of(m, a_team)
        assert (g.score_a, g.score_b) == (m.scores[a_team], m.scores[1 - a_team])
        assert g.winner == ("A" if m.winner == a_team else "B")
        assert g.deals == len(m.results)
    with pytest.raises(BotError):
        GameOutcome.of(trumps.new_game("coinche", seed=1), 0)


def test_same_bots_both_ways_mirror_exactly() -> None:
    for game, opts in (("500", None), ("coinche", COINCHE_SHORT), ("bridge", None)):
        r = duplicate_games(game, "rules", "rules", games=2, seed=3, options=opts)
        for p in r.per_pair:
            g1, g2 = p.games
            assert g1.deals == g2.deals and g1.margin == -g2.margin and g1.winner != g2.winner
        assert r.wins_a == r.wins_b == 2 and r.margin().mean == 0 and r.win_rate().mean == 0.5


def test_counts_add_up_and_rules_beat_random() -> None:
    r = duplicate_games("500", "rules", "random", games=4, seed=1)
    assert r.games == 8 and r.pairs == 4
    assert r.wins_a + r.wins_b + r.draws == r.games
    assert r.wins_a > r.wins_b and r.margin().mean > 0
    share = (r.wins_a + r.draws / 2) / r.games
    assert r.win_rate().mean == pytest.approx(share) == r.wilson()[0]


def test_same_seed_same_result_and_jobs() -> None:
    one = duplicate_games("coinche", "rules", "random", games=3, seed=11, options=COINCHE_SHORT)
    two = duplicate_games("coinche", "rules", "random", games=3, seed=11, options=COINCHE_SHORT)
    par = duplicate_games("coinche", "rules", "random", games=3, seed=11, options=COINCHE_SHORT, jobs=2)
    assert one.to_dict() == two.to_dict() == par.to_dict()
    other = duplicate_games("coinche", "rules", "random", games=3, seed=12, options=COINCHE_SHORT)
    assert other.to_dict() != one.to_dict()


def test_swapping_a_and_b_mirrors_the_counts() -> None:
    ab = duplicate_games("500", "rules", "random", games=3, seed=2)
    ba = duplicate_games("500", "random", "rules", games=3, seed=2)
    assert (ab.wins_a, ab.wins_b, ab.draws) == (ba.wins_b, ba.wins_a, ba.draws)
    assert ab.margin().mean == -ba.margin().mean
    assert ab.win_rate().mean == pytest.approx(1 - ba.win_rate().mean)
    for p, q in zip(ab.per_pair, ba.per_pair, strict=True):
        # the same two games, with the labels A and B exchanged
        assert [g.deals for g in p.games] == [g.deals for g in reversed(q.games)]


def test_deal_k_is_the_same_at_both_tables() -> None:
    hands: list[dict[tuple[int, str], list[str]]] = [{}, {}]

    class Spy(Bot):
        name = "spy"

        def __init__(self, table: int) -> None:
            self.table = table

        def decide(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
            key = (int(view["deal_number"]), str(view["seat"]))
            hands[self.table].setdefault(key, sorted(view["hands"][view["seat"]]))
            return RandomBot().choose(view, legal, rng)

    made = iter([0, 0, 1, 1])  # duplicate_game makes bot A then bot B for each table
    pair = duplicate_game("coinche", lambda: Spy(next(made)), lambda: Spy(next(made)), 4, COINCHE_SHORT)
    common = set(hands[0]) & set(hands[1])
    assert len(common) == 4 * min(g.deals for g in pair.games)
    assert all(hands[0][k] == hands[1][k] for k in common)


def test_wilson_interval() -> None:
    p, low, high = wilson(8, 10)
    assert p == 0.8
    assert (low, high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 5)[1] == 0.0 and wilson(5, 5)[2] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 0.0, 1.0)


def test_result_from_known_pairs() -> None:
    def g(team: int, winner: str | None, a: int, b: int) -> GameOutcome:
        return GameOutcome(team, winner, a, b, 5)

    r = MatchResult("500", "x", "y", 1, "to 500")
    r.per_pair = [
        PairOutcome(1, (g(0, "A", 500, 100), g(1, "A", 520, 0))),
        PairOutcome(2, (g(0, "A", 500, 300), g(1, "B", 200, 510))),
        PairOutcome(3, (g(0, None, 100, 100), g(1, "B", 0, 500))),
    ]
    assert (r.wins_a, r.wins_b, r.draws, r.games) == (3, 2, 1, 6)
    assert r.win_rate().mean == pytest.approx(3.5 / 6)
    assert [p.score for p in r.per_pair] == [1.0, 0.5, 0.25]
    assert r.margin().mean == pytest.approx((460 - 55 - 250) / 3)


def test_errors() -> None:
    with pytest.raises(BotError):
        duplicate_games("500", "rules", "nonsense", games=1)
    with pytest.raises(BotError):
        duplicate_games("500", "rules", "nonsense", games=1, jobs=2)
    with pytest.raises(BotError):
        duplicate_games("500", "rules", "rules", games=0)
    with pytest.raises(BotError, match="rubber or a Chicago"):
        duplicate_games("bridge", "rules", "rules", games=1, options={"scoring": "duplicate_imp"})
    with pytest.raises(trumps.OptionError):
        duplicate_games("coinche", "rules", "rules", games=1, options={"nonsense": "1"})


def test_cli_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["500", "--a", "rules", "--b", "random", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 duplicate games (4 played)" in out and "games won" in out and "A's win rate" in out
    argv = ["coinche", "--a", "rules", "--b", "random", "--games", "2", "-o", "target_score=300", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "game", "a", "b", "seed", "format", "pairs", "games", "won", "stopped",
        "win_rate", "margin", "deals_per_game", "per_pair",
    }  # fmt: skip
    assert data["games"] == 4 and sum(data["won"].values()) == 4
    assert set(data["win_rate"]) == {"paired", "wilson"}
    assert set(data["win_rate"]["paired"]) == set(data["margin"]) == {"mean", "low", "high", "n"}
    assert data["format"] == "to 300 points (reach)"
    game = data["per_pair"][0]["games"][0]
    assert set(game) == {"a_team", "winner", "scores", "deals", "stopped"}


def test_cli_progress(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["500", "--a", "rules", "--b", "random", "--games", "2", "--progress", "--every", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "1 duplicate games: won A" in err and "2 duplicate games" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["500", "--games", "2", "--deals", "3"], "--games and --deals cannot be combined"),
        (["500", "--games", "2", "--a", "nope"], "unknown bot kind 'nope'"),
        (["500", "--games", "2", "-o", "nonsense=1"], "unknown option 'nonsense'"),
        (["500", "--games", "0"], "at least 1, not 0"),
        (["bridge", "--games", "1", "-o", "scoring=duplicate"], "a bridge match is a rubber"),
        (["500", "--deals", "2", "--max-deals", "5"], "--max-deals only applies with --games"),
        (["500", "--games", "x"], "expected a whole number, not 'x'"),
    ],
)
def test_cli_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("trumps: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
