"""``--help`` helps at every level (``trumps score --help`` used to be an
error), says nothing of paths outside the repository, lists the bot levels
the registry knows, and each game's notation is its own."""

from __future__ import annotations

import argparse

import pytest

import trumps
from trumps.bots.registry import KINDS
from trumps.cli.main import build_parser, main
from trumps.cli.play import help_text, notation_examples


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def _help_lines() -> list[list[str]]:
    lines = [["--help"], ["-h"]]
    lines += [[c, "--help"] for c in _commands()]
    lines += [["score", g, "--help"] for g in trumps.games()]
    lines += [["admin", "broken", "--help"], ["score", "-h"], ["--lang", "de", "score", "--help"]]
    lines += [["--lang", "fr", "dd", "--help"], ["solve", "bridge", "--help"], ["play", "bridge", "--help"]]
    return lines


HELP = _help_lines()


def test_every_command_is_asked_for_its_help() -> None:
    asked = {argv[0] for argv in HELP}
    assert set(_commands()) <= asked
    assert {"score", "dd", "solve", "arena", "admin", "serve", "play", "selfplay"} <= set(_commands())


@pytest.mark.parametrize("argv", HELP, ids=[" ".join(a) for a in HELP])
def test_help_helps(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    first = out.splitlines()[0]
    assert first.startswith(("usage:", "Aufruf:", "utilisation :", "Verwendung:")) or "trumps" in first, first
    assert "../shared" not in out and "shared/rules" not in out and "/work/" not in out


def test_score_help_names_the_games_with_a_calculator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--help"]) == 0
    out = capsys.readouterr().out
    assert "trumps score GAME --help" in out
    for game in trumps.games():
        assert game in out


def test_play_help_lists_every_bot_level_of_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for kind in KINDS:
        assert kind in out, kind
    assert main(["selfplay", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert all(kind in out for kind in KINDS)
    assert main(["arena", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert all(kind in out for kind in KINDS) and "colver:AGENT" in out and "contree_exact" in out


def test_a_new_level_in_the_registry_appears_in_the_help(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("trumps.bots.registry.KINDS", (*KINDS, "grandmaster"))
    assert main(["play", "--help"]) == 0
    assert "grandmaster" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("game", "own", "foreign"),
    [
        ("bridge", ["1C", "7NT", "XX"], ["MIS", "RJ", "i6S", "80"]),
        ("coinche", ["80S", "CAPOT-", "XX"], ["MIS", "RJ", "1C", "7NT"]),
        ("500", ["6S", "10NT", "MIS"], ["1C", "80S", "CAPOT"]),
    ],
)
def test_the_play_help_shows_the_games_own_notation(game: str, own: list[str], foreign: list[str]) -> None:
    match = trumps.new_game(game, seed=1)
    text = help_text(notation_examples(match, 0))
    for call in own:
        assert call in text, (game, call, text)
    for call in foreign:
        assert call not in text, (game, call, text)
    # the cards shown are the seat's own, in the engine's notation
    hand = match.view(0)["hands"][match.seat_name(0)]
    assert hand[0] in text


def test_the_score_help_of_each_game_speaks_its_own_notation(capsys: pytest.CaptureFixture[str]) -> None:
    seen = {}
    for game in trumps.games():
        assert main(["score", game, "--help"]) == 0
        seen[game] = capsys.readouterr().out
    assert "MIS" not in seen["bridge"] and "MIS" not in seen["coinche"]
    assert "4HX" in seen["bridge"] and "100H" in seen["coinche"] and "MIS" in seen["500"]


@pytest.mark.parametrize(
    ("game", "own", "foreign"),
    [("bridge", "1C, 7NT, P, X, XX", "MIS"), ("coinche", "80S", "MIS"), ("500", "6S, 10NT, MIS", "80S")],
)
def test_play_game_help_shows_that_games_notation(
    game: str, own: str, foreign: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", game, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert own in out and foreign not in out
