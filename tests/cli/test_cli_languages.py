"""The ``trumps`` command line in English, German and French.

The language comes from ``--lang`` (anywhere on the command line) or the
environment (``LANGUAGE`` / ``LC_ALL`` / ``LC_MESSAGES`` / ``LANG``); an
unknown ``--lang`` is one usage line.  In German and French everything
printed is translated and cards show the players' letters (``D♥`` is the
queen of hearts); typed input accepts the engine's notation first, then the
players' own words (``Dame Herz``, ``dame de cœur``, ``Kontra``, ``Passe``).

The tests that look for translated words (``Stich``, ``pli``...) need the
German and French catalogues to translate the CLI's messages.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import trumps
from trumps.cli.lang import lang, session
from trumps.cli.main import main
from trumps.cli.play import read_action
from trumps.core.errors import ParseError

LANGS = ("en", "de", "fr")
LOCALE_ENV = {"en": "C.UTF-8", "de": "de_DE.UTF-8", "fr": "fr_FR.UTF-8"}
HOW = ("option", "environment")


def _clean_env(monkeypatch: pytest.MonkeyPatch, lang_env: str | None = None) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    if lang_env is not None:
        monkeypatch.setenv("LANG", lang_env)


def run_in(
    code: str, how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str
) -> tuple[int, str, str]:
    """``trumps ARGV`` in language ``code``, chosen by ``--lang`` or by ``LANG``."""
    if how == "option":
        _clean_env(monkeypatch, "de_DE.UTF-8" if code != "de" else "fr_FR.UTF-8")  # --lang beats LANG
        status = main(["--lang", code, *argv])
    else:
        _clean_env(monkeypatch, LOCALE_ENV[code])
        status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def cli(*argv: str, lang_env: str | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    if lang_env is not None:
        env["LANG"] = lang_env
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "trumps.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
        env=env,
    )


# ----- choosing the language ----------------------------------------------------------------
def test_the_language_comes_from_the_option_else_the_environment() -> None:
    with session(["--lang", "fr", "play", "500"], {"LANG": "de_DE.UTF-8"}) as rest:
        assert (lang(), rest) == ("fr", ["play", "500"])
        with session(["arena", "500"], {"LANG": "de_DE.UTF-8"}):  # a sub-command keeps it
            assert lang() == "fr"
    with session(["games"], {"LANG": "de_DE.UTF-8"}):
        assert lang() == "de"
    with session(["games"], {"LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}):
        assert lang() == "fr"
    with session(["games"], {"LANG": "C"}):
        assert lang() == "en"
    assert lang() == "en"  # back to English after a command


@pytest.mark.parametrize(
    "argv",
    [
        ["--lang", "xx", "games"],
        ["play", "500", "--lang=klingon"],
        ["--lang"],
        ["score", "500", "--lang", "es"],
    ],
)
def test_an_unknown_language_is_one_usage_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_env(monkeypatch)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("trumps: error: ") and "--lang" in lines[0], lines


def test_an_unknown_language_from_a_real_process() -> None:
    r = cli("--lang", "xx", "games")
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "trumps: error: argument --lang: invalid choice: 'xx' (choose from 'en', 'de', 'fr')"
    ]


def test_english_stays_english_whatever_the_environment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_in("en", "option", capsys, monkeypatch, "score", "500", "8H", "--tricks", "9")
    assert (status, out.splitlines()) == (
        0,
        ["8H (300), bidders took 9 tricks: made", "bidders: +300", "defenders: +10"],
    )


# ----- short commands in each language -------------------------------------------------------
#: words that must appear (lower-cased output) and English words that must not, per language
SCORE_WORDS = {
    "en": (["tricks", "bidders", "made"], []),
    "de": (["stiche"], ["tricks", "bidders", "made"]),
    "fr": (["plis"], ["tricks", "bidders", "made"]),
}


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("code", LANGS)
def test_score_in_each_language(
    code: str, how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run_in(code, how, capsys, monkeypatch, "score", "500", "8H", "--tricks", "9")
    assert status == 0 and err == ""
    assert out.splitlines()[0].startswith("8H (300)")  # the notation stays the engine's
    want, gone = SCORE_WORDS[code]
    text = out.lower()
    assert all(w in text for w in want), out
    assert not any(w in text for w in gone), out


HELP_WORDS = {
    "en": (["show this help message and exit", "usage:", "options:"], []),
    "de": (["hilfe"], ["show this help message", "usage:", "positional arguments", "list the games"]),
    "fr": (["aide"], ["show this help message", "usage:", "positional arguments", "list the games"]),
}


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("code", LANGS)
def test_help_in_each_language(
    code: str, how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run_in(code, how, capsys, monkeypatch, "--help")
    assert status == 0
    assert "--lang {en,de,fr}" in out
    want, gone = HELP_WORDS[code]
    assert all(w in out.lower() for w in want), out
    assert not any(w in out for w in gone), out


@pytest.mark.parametrize("code", LANGS)
def test_help_of_a_subcommand_in_each_language(code: str) -> None:
    r = cli("play", "--help", lang_env=LOCALE_ENV[code])
    assert r.returncode == 0, r.stderr
    want, gone = HELP_WORDS[code]
    assert all(w in r.stdout.lower() for w in want), r.stdout
    assert not any(w in r.stdout for w in gone), r.stdout
    assert ("your seat" in r.stdout) == (code == "en")


@pytest.mark.parametrize("code", LANGS)
def test_errors_in_each_language(code: str) -> None:
    r = cli("score", "500", "12H", "--tricks", "3", "--lang", code)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert "'12H'" in r.stderr  # the values stay as typed
    assert ("not a 500 call" in r.stderr) == (code == "en"), r.stderr
    r = cli("selfplay", "500", "--games", "ten", "--lang", code)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1
    assert ("expected a whole number" in r.stderr) == (code == "en"), r.stderr


@pytest.mark.parametrize("code", LANGS)
def test_reports_write_numbers_as_the_language_does(
    code: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["arena", "coinche", "--a", "rules", "--b", "random", "--deals", "2", "--seed", "2"]
    status, out, err = run_in(code, "option", capsys, monkeypatch, *argv)
    assert status == 0, err
    decimals = re.findall(r"[+-]\d+([.,])\d\d\b", out)
    assert decimals and set(decimals) == {"." if code == "en" else ","}, out
    assert ("A - B per deal" in out) == (code == "en"), out
    status, out, err = run_in(
        code, "option", capsys, monkeypatch, "selfplay", "500", "-n", "2", "--seed", "1"
    )
    assert status == 0, err
    assert re.search(r"\d([.,])\d\d s", out).group(1) == ("." if code == "en" else ","), out  # type: ignore[union-attr]
    assert ("points per deal" in out) == (code == "en"), out


def test_the_arena_report_in_english_is_the_bots_own() -> None:
    from trumps.bots.arena import duplicate_match
    from trumps.bots.arena_match import duplicate_games
    from trumps.cli.arena import format_deals, format_games

    deals = duplicate_match("coinche", "random", "random", deals=3, seed=5)
    assert format_deals(deals) == deals.format()
    games = duplicate_games("500", "random", "random", games=2, seed=1)
    assert format_games(games) == games.format()


# ----- cards as players write them --------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "hand"),
    [
        ("en", "♠ A K 8   ♦ K 9   ♣ J 8 7"),
        ("de", "♠ A K 8   ♦ K 9   ♣ B 8 7"),
        ("fr", "♠ A R 8   ♦ R 9   ♣ V 8 7"),
    ],
)
def test_cards_show_the_players_letters(code: str, hand: str) -> None:
    r = cli("play", "coinche", "--seed", "3", "--lang", code, stdin="q\n")
    assert r.returncode == 0, r.stderr
    assert hand in r.stdout, r.stdout


def test_the_neutral_notation_always_wins() -> None:
    match = trumps.new_game("coinche", seed=3, contract="100H", declarer="E")
    assert match.phase == "PLAY"
    with session(["--lang", "de"]):
        assert read_action(match, "KD") == "KD"  # the king of diamonds, not "Karo-Dame"
        assert read_action(match, "AS") == "AS"
        assert read_action(match, "D♦") == "QD"
        assert read_action(match, "Karo-Dame") == "QD"
        assert read_action(match, "König Karo") == "KD"
        assert read_action(match, "b♣") == "JC"
        with pytest.raises(ParseError):
            read_action(match, "DK")  # no localized suit letters: Karo or Kreuz?
    with session(["--lang", "fr"]):
        assert read_action(match, "KD") == "KD"
        assert read_action(match, "R♦") == "KD"
        assert read_action(match, "valet de trèfle") == "JC"
        assert read_action(match, "Dame de Coeur") == "QH"
    with session(["--lang", "en"]), pytest.raises(ParseError):
        read_action(match, "D♥")  # English has no localized forms
    auction = trumps.new_game("bridge", seed=1)
    with session(["--lang", "fr"]):
        assert read_action(auction, "1 pique") == "1S"
        assert read_action(auction, "3 SA") == "3 SA"  # the engine reads SA itself
        assert read_action(auction, "3 sans atout") == "3NT"
        assert read_action(auction, "Contre") == "X"
        assert read_action(auction, "D") == "D"  # the engine's double, before any localized reading
    with session(["--lang", "de"]):
        assert read_action(auction, "Passe") == "P"
        assert read_action(auction, "Rekontra") == "XX"
        assert read_action(auction, "2 Herz") == "2H"


# ----- an interactive session with localized input --------------------------------------------------
_CARD = re.compile(r"(10|1[123]|[2-9TJQKA])([SHDC])")
_WORDS: dict[str, dict[str, Any]] = {
    "de": {
        "ranks": {"A": "Ass", "K": "König", "Q": "Dame", "J": "Bube", "T": "10"},
        "letters": {"A": "A", "K": "K", "Q": "D", "J": "B", "T": "10"},
        "suits": {"S": "Pik", "H": "Herz", "D": "Karo", "C": "Kreuz"},
        "pass": "Passe",
        "double": "Kontra",
    },
    "fr": {
        "ranks": {"A": "as", "K": "roi", "Q": "dame", "J": "valet", "T": "10"},
        "letters": {"A": "A", "K": "R", "Q": "D", "J": "V", "T": "10"},
        "suits": {"S": "pique", "H": "cœur", "D": "carreau", "C": "trèfle"},
        "pass": "Passe",
        "double": "Contre",
    },
}
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def localized_card(card: str, code: str, form: int) -> str:
    """``QH`` as a German or French player may type it (three forms)."""
    m = _CARD.fullmatch(card)
    assert m, card
    rank, suit = m.groups()
    w = _WORDS[code]
    word, letter, suit_word = w["ranks"].get(rank, rank), w["letters"].get(rank, rank), w["suits"][suit]
    if form == 0:
        return f"{letter}{_SYMBOLS[suit]}"
    if form == 1:
        return f"{word} de {suit_word}" if code == "fr" else f"{suit_word}-{word}"
    return f"{word.upper()} {suit_word}"


class Player:
    """Answers the prompts of ``trumps play coinche`` from the match it spies on:
    localized cards and calls, the engine's notation once in the auction and
    once in the play; counts the answers refused."""

    def __init__(self, code: str, plays: int) -> None:
        self.code, self.plays = code, plays
        self.match: Any = None
        self.answers: list[str] = []
        self.refused = 0
        self.neutral_play_done = False
        self._last: tuple[int, int] | None = None

    def new_game(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            self.match = real(*args, **kwargs)
            return self.match

        return spy

    def __call__(self, *_: object) -> str:
        m = self.match
        state = (len(m.log), len(m.results))
        if state == self._last:
            self.refused += 1
        self._last = state
        view = m.view(m.to_act_index)
        legal = view["legal"]
        w = _WORDS[self.code]
        if view["phase"] == "AUCTION":
            if not self.answers:
                answer = "P"  # the engine's notation
            elif "X" in legal:
                answer = w["double"]
            else:
                answer = w["pass"]
        else:
            cards = [a for a in legal if _CARD.fullmatch(a)]
            if not cards:
                answer = "1"  # a meld declaration: by its number
            elif self.plays <= 0:
                answer = "q"
            elif not self.neutral_play_done:
                answer, self.neutral_play_done = cards[-1], True
            else:
                answer = localized_card(cards[0], self.code, self.plays % 3)
            self.plays -= 1
        self.answers.append(answer)
        return answer


def play_session_in(
    code: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[Player, list[str]]:
    player = Player(code, plays=14)
    monkeypatch.setattr(trumps, "new_game", player.new_game(trumps.new_game))
    monkeypatch.setattr("builtins.input", player)
    _clean_env(monkeypatch, LOCALE_ENV[code])
    status = main(["play", "coinche", "--seed", "3"])
    out, err = capsys.readouterr()
    assert status == 0 and "Traceback" not in out + err, err
    return player, out.splitlines()


@pytest.mark.parametrize("code", ["de", "fr"])
def test_localized_input_is_accepted(
    code: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    player, out = play_session_in(code, capsys, monkeypatch)
    text = "\n".join(out)
    assert player.answers[0] == "P" and player.neutral_play_done
    assert any(" " in a or any(s in a for s in _SYMBOLS.values()) for a in player.answers), player.answers
    assert player.refused == 0, (player.answers, text)
    assert player.answers[-1] == "q"
    assert len(player.match.log) > 14  # the game went on


@pytest.mark.parametrize(
    ("code", "words", "english"),
    [
        ("de", ["Stich", "Reizung", "Kontrakt"], ["Trick", "Your hand", "Contract", "You play", "Auction"]),
        ("fr", ["pli", "enchères", "contrat"], ["Trick", "Your hand", "Contract", "You play", "Auction"]),
    ],
)
def test_the_play_screen_speaks_the_language(
    code: str,
    words: list[str],
    english: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _player, out = play_session_in(code, capsys, monkeypatch)
    text = "\n".join(out)
    assert all(w.lower() in text.lower() for w in words), text
    assert not any(e in text for e in english), text


def _stdin_for(code: str) -> str:
    """Every card of South's hand (seed 3) in localized forms, with passes in
    between, many times over: whatever is legal is typed sooner or later."""
    hand = trumps.new_game("coinche", seed=3).view("S")["hands"]["S"]
    w = _WORDS[code]

    def rounds() -> Iterator[str]:
        yield "P"  # the engine's notation works in every language
        for i in range(12):
            yield str(w["pass"])
            for card in hand:
                yield localized_card(card, code, i % 3)

    return "\n".join(rounds()) + "\n"


@pytest.mark.parametrize("code", ["de", "fr"])
def test_an_interactive_game_fed_on_stdin(code: str) -> None:
    r = cli("play", "coinche", "--seed", "3", lang_env=LOCALE_ENV[code], stdin=_stdin_for(code))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    out = r.stdout
    # South's hand shrinks: localized cards were played
    hands = [line for line in out.splitlines() if "(S)" in line and "♠" in line + "♥♦♣"]
    counts = [
        len(re.findall(r"(?<![\w♠♥♦♣])(?:10|[2-9AKDBRV])(?!\w)", line.split(":", 1)[-1])) for line in hands
    ]
    assert counts and counts[0] == 8 and min(counts) < 8, hands
    assert ("Stich" if code == "de" else "Pli") in out, out
