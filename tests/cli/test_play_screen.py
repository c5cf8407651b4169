"""``trumps play``: every trick's winner is told, the last one of each deal
too (it used to vanish when the next deal replaced the finished one), and
at each turn only the parts of the table that changed are drawn again."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest

from trumps.cli.main import main
from trumps.cli.render import Screen

TRICK = re.compile(r"^  → trick (\d+) won by (You|[NESW])$")
SUMMARY = re.compile(r"^Deal (\d+): ")


def _play(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    answers: list[str],
    seed: int = 2,
) -> list[str]:
    it: Iterator[str] = iter(answers)

    def answer(*_: object) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", answer)
    code = main(["play", game, "--seed", str(seed)])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    return out.splitlines()


def _deals(lines: list[str]) -> list[tuple[list[int], list[str]]]:
    """Each finished deal: the trick numbers told, and its summary lines."""
    deals: list[tuple[list[int], list[str]]] = []
    tricks: list[int] = []
    for i, line in enumerate(lines):
        m = TRICK.match(line)
        if m:
            tricks.append(int(m.group(1)))
        elif SUMMARY.match(line):
            summary = [line]
            summary += [x for x in lines[i + 1 : i + 6] if x.startswith("  ")]
            deals.append((tricks, summary))
            tricks = []
    return deals


@pytest.mark.parametrize(("game", "per_deal"), [("500", 10), ("bridge", 13), ("coinche", 8)])
def test_every_trick_is_told_the_last_one_too(
    game: str, per_deal: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _play(capsys, monkeypatch, game, ["1"] * 160)
    deals = [(t, s) for t, s in _deals(lines) if t]  # deals that were played (not thrown in)
    assert deals, "\n".join(lines[-40:])
    for tricks, summary in deals:
        assert tricks == list(range(1, len(tricks) + 1)), (tricks, summary)
        counts = re.search(r"tricks: \w+ (\d+), \w+ (\d+)", " ".join(summary))
        if counts:  # 500 and coinche: tricks per team; all of them were told
            assert len(tricks) == int(counts.group(1)) + int(counts.group(2)), (tricks, summary)
        else:  # bridge: a played deal has all its tricks
            assert len(tricks) == per_deal, (tricks, summary)
    assert any(len(t) == per_deal for t, _s in deals)


def test_the_table_is_not_drawn_again_at_every_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _play(capsys, monkeypatch, "500", ["1"] * 60)
    turns = sum(1 for line in lines if line.startswith("S> "))
    score_tables = sum(1 for line in lines if line.startswith("Team "))
    deals = len({line.split(" · ")[0] for line in lines if re.match(r"^Deal \d+ · ", line)})
    assert turns >= 40
    assert score_tables == deals  # once a deal, not once a turn
    auctions = sum(1 for line in lines if line.strip() == "Auction")
    assert auctions <= 2 * deals  # the first look at a deal, and the auction once it is over
    # the choices are the prompt: every turn
    assert sum(1 for line in lines if line == "Your choices" or line.startswith("Your choices (")) == turns


def test_a_question_mark_draws_the_whole_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _play(capsys, monkeypatch, "coinche", ["1", "?", "1", "?"])
    assert sum(1 for line in lines if line.startswith("Team ")) >= 3  # first look, then each '?'
    assert sum(1 for line in lines if line.startswith("Type the number of a choice")) == 2


def test_the_screen_draws_what_changed() -> None:
    view = {
        "seat": "S",
        "deal_number": 1,
        "dealer": "N",
        "phase": "PLAY",
        "to_act": "S",
        "teams": [["N", "S"], ["E", "W"]],
        "scores": [0, 0],
        "tricks_won": [0, 0],
        "tricks": [],
        "trick": [{"seat": "W", "card": "AS"}],
        "hands": {"S": ["KS", "2H"]},
        "legal": ["KS"],
    }
    screen = Screen()
    from rich.console import Console

    def shown(renderable: object) -> str:
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(renderable)
        return console.export_text()

    first = shown(screen.update(view))
    assert "Team" in first and "Your hand" in first and "Trick 1:" in first
    again = shown(screen.update(view))
    assert "Team" not in again and "Your hand" not in again and "Your choices" in again
    later = dict(
        view, trick=[], tricks=[{"winner": "S"}], tricks_won=[1, 0], hands={"S": ["2H"]}, legal=["2H"]
    )
    text = shown(screen.update(later))
    assert "Team" not in text  # the scores did not change
    assert "Trick 2:" in text and "tricks won: NS 1, EW 0" in text and "Your hand (S): ♥ 2" in text
    assert "Team" in shown(screen.full(later))
