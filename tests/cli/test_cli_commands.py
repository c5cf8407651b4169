"""The ``trumps`` command line: what a user types and sees."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import trumps
from trumps.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], list[str]]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trumps.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# ----- score ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["8H", "--tricks", "9"],
            ["8H (300), bidders took 9 tricks: made", "bidders: +300", "defenders: +10"],
        ),
        (
            ["7S", "--tricks", "10"],
            ["7S (140), bidders took 10 tricks: made", "bidders: +250", "defenders: +0"],
        ),
        (
            ["MIS", "--tricks", "0"],
            ["MIS (250), bidders took 0 tricks: made", "bidders: +250", "defenders: +100"],
        ),
        (["7NT", "-t", "6"], ["7NT (220), bidders took 6 tricks: failed", "bidders: -220", "defenders: +40"]),
        (
            ["MIS", "--tricks", "0", "--option", "misere_defender_points=none"],
            ["MIS (250), bidders took 0 tricks: made", "bidders: +250", "defenders: +0"],
        ),
        (
            ["7H", "--tricks", "7", "--preset", "australian", "--scores", "0,460"],
            [
                "7H (200), bidders took 7 tricks: made",
                "bidders: +200 (total 200)",
                "defenders: +30 (total 490)",
            ],
        ),
        (
            ["6D", "--tricks", "5", "--scores", "-40,120"],
            [
                "6D (80), bidders took 5 tricks: failed",
                "bidders: -80 (total -120)",
                "defenders: +50 (total 170)",
            ],
        ),
        (
            ["8S", "--tricks", "8", "--option", "players=2v2v2", "--defender-tricks", "1,1"],
            [
                "8S (240), bidders took 8 tricks: made",
                "bidders: +240",
                "defenders 1: +10",
                "defenders 2: +10",
            ],
        ),
    ],
)
def test_score_prints_each_teams_points(
    capsys: pytest.CaptureFixture[str], argv: list[str], expected: list[str]
) -> None:
    code, out, err = run(capsys, "score", "500", *argv)
    assert (code, out, err) == (0, expected, [])


# ----- errors ---------------------------------------------------------------------------
BAD = [
    ["score", "500", "8X", "--tricks", "9"],
    ["score", "500", "8H", "--tricks", "11"],
    ["score", "500", "8H", "--tricks", "nine"],
    ["score", "500", "8H"],
    ["score", "500", "P", "--tricks", "3"],
    ["score", "500", "8H", "--tricks", "9", "--option", "kitty_size=4"],
    ["score", "500", "8H", "--tricks", "9", "--option", "nonsense"],
    ["score", "500", "8H", "--tricks", "9", "--preset", "martian"],
    ["score", "whist", "1S"],
    ["play", "whist"],
    ["play", "500", "--option", "no_such_key=1"],
    ["play", "500", "--seat", "X"],
    ["play", "500", "--bots", "genius"],
    ["selfplay", "500", "--games", "0"],
    ["selfplay", "500", "--games", "ten"],
    ["selfplay", "500", "--bots", "rules,random,rules"],
    ["selfplay", "500", "--option", "players=9v9"],
    ["options", "whist"],
    ["fly"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a) for a in BAD])
def test_a_bad_command_line_is_one_error_line(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert len(err) == 1, err
    assert err[0].startswith("trumps: error: ")
    assert "Traceback" not in err[0]


def test_error_exit_status_from_a_real_process() -> None:
    r = cli("score", "500", "12H", "--tricks", "3")
    assert r.returncode == 2
    assert r.stderr.splitlines() == [
        "trumps: error: not a 500 call: '12H' (examples: P, 7H, 10NT, i6S, MIS, OMIS)"
    ]
    r = cli("play", "500", "--option", "kitty_size=4")
    assert r.returncode == 2
    assert r.stderr.startswith("trumps: error: option kitty_size must be one of 3, 5, 6")
    assert len(r.stderr.splitlines()) == 1


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, [f"trumps {trumps.__version__}"])
    code, out, _ = run(capsys, "--help")
    assert code == 0 and any("selfplay" in line for line in out)


# ----- games / options ----------------------------------------------------------------
def test_games_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and out[0].startswith("500 ")
    code, out, _ = run(capsys, "options", "500")
    assert code == 0
    assert out[0] == "500: house rules (set one with --option KEY=VALUE, e.g. --option variation=australian)"
    # by group as the seed room groups them: the label and key, the values in words with
    # the default marked, the one-line help
    groups = [line for line in out if line and not line.startswith(" ")]
    assert [g.split(":")[0] for g in groups[1:]] == [
        "The game", "Nullo (misère)", "Bidding and play", "End of the game", "Breach rule", "Presets (--preset NAME), with what each changes from the defaults",
    ]  # fmt: skip
    at = out.index("  Widow (kitty) size · kitty_size")
    assert out[at + 1 : at + 3] == [
        "      3 = 3 cards (default) | 5 = 5 cards | 6 = 6 cards, both jokers",
        "      Cards left for the contractor; it sets the deck: 43, 45 or 46 cards (63, 65 or 66 for six).",
    ]
    at = out.index("  Must bid to win · must_bid_to_win")
    assert out[at + 1] == "      yes | no (default)"
    at = out.index("  Nullo (misère) points · nullo_points   (only with nullo_mode=after_7|anytime)")
    assert out[at + 1] == "      210 = ±210 | 230 = ±230 | 250 = ±250 (default)"
    at = out.index("  Breach value · breach_value   (only with breach_enabled=yes)")
    assert out[at + 1] == "      a whole number from 10 to 1000 in steps of 10 (default 100)"
    # presets, each with what it changes, worded as its own rules word them
    at = out.index(
        "  australian · Australian rules: Bidding goes round; misère after a 7 bid; you must bid to win."
    )
    assert out[at + 1 :] == [
        "      Variation: Australian   (variation=australian)",
        "      Must bid to win: yes   (must_bid_to_win=yes)",
        "      Misère: after a 7 bid   (nullo_mode=after_7)",
    ]
    assert "      (the defaults)" in out
    code, out, _ = run(capsys, "options", "bridge")
    assert code == 0 and out[0].startswith("Contract Bridge: house rules")
    assert (
        "      rubber = rubber bridge | chicago = Chicago (four deals) | duplicate | "
        "duplicate_mp = duplicate, matchpoints (default) | duplicate_imp = duplicate, IMPs"
    ) in out
    assert not any(line.startswith("Presets") for line in out)
    code, out, _ = run(capsys, "options", "coinche")
    assert code == 0
    assert (
        "  ffb_2016 · FFB 2016: French federation sheet: made on points plus belote, a flat 500 capot, game to 2000."
    ) in out
    assert "      Game to: 2000   (target_score=2000)" in out


# ----- selfplay ---------------------------------------------------------------------------
def test_selfplay_summary_and_records(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    code, out, err = run(
        capsys,
        "selfplay",
        "500",
        "--games",
        "6",
        "--seed",
        "11",
        "--bots",
        "rules,random",
        "--records",
        str(path),
    )
    assert code == 0 and err == []
    assert out[0].startswith("500 self-play: 6 games, ")
    assert "games/s" in out[0] and "deals/s" in out[0]
    assert out[1].startswith("team NS (rules): ")
    assert out[2].startswith("team EW (random): ")
    assert "points per deal" in out[1]
    assert out[-1] == f"records: 6 games written to {path}"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    wins = 0
    for line in lines:
        record = json.loads(line)
        game = trumps.load_game(line)
        assert game.is_over and game.scores == record["scores"]
        wins += game.winner == 0
    assert f"team NS (rules): {wins} wins" in out[1]


def test_selfplay_with_options_and_six_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "selfplay",
        "500",
        "-n",
        "3",
        "--seed",
        "2",
        "--preset",
        "australian",
        "--option",
        "players=3v3",
    )
    assert code == 0
    assert out[1].startswith("team 0+2+4 (rules): ")


def test_selfplay_records_unwritable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "selfplay", "500", "-n", "1", "--records", str(tmp_path / "no" / "dir.jsonl"))
    assert code == 2 and len(err) == 1 and err[0].startswith("trumps: error: cannot write")


# ----- play -------------------------------------------------------------------------------
def scripted(answers: Iterator[str], prompts: list[str]) -> object:
    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return next(answers)

    return fake_input


def test_play_a_whole_game_with_scripted_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def answers() -> Iterator[str]:
        yield "zz"  # not an action: re-prompted with the reason
        yield "99"  # no such number
        while True:
            yield "P"  # notation (legal in the auction, refused in the play)
            yield "1"  # a number from the list

    it = answers()
    monkeypatch.setattr("builtins.input", lambda *a: next(it))
    code, out, err = run(capsys, "play", "500", "--seed", "3")
    text = "\n".join(out)
    assert code == 0, err
    assert out[0].startswith("You are S, your partner: N.")
    assert "S> zz" in text  # piped answers are echoed
    assert "Not accepted: not a 500 call: 'zz'" in text
    assert "Not accepted: there is no choice 99: pick 1 to 28, or type the notation" in text
    assert "Your hand (S): " in text
    assert "Your choices" in text and "1) pass [P]" in text
    # what the bots did: their calls, the contract, their cards, the tricks
    assert any(re.fullmatch(r"[EWN]: (pass|i?\d+(♠|♥|♦|♣|NT)|MIS|OMIS)", line) for line in out)
    assert any(line.startswith("Contract: ") and " by " in line for line in out)
    assert any(re.fullmatch(r"[EWN] plays (10|[2-9JQKA])[♠♥♦♣]|[EWN] plays RJ.*", line) for line in out)
    assert any(line.startswith("  → trick 1 won by ") for line in out)
    # a summary after each deal
    summaries = [i for i, line in enumerate(out) if re.match(r"Deal \d+: ", line)]
    assert summaries
    last = summaries[-1]
    assert out[last + 1].startswith("  tricks: NS ")
    assert out[last + 2].startswith("  points: NS ")
    assert out[last + 3].startswith("  scores: NS ")
    assert out[-1].startswith("Game over: ")
    assert "Traceback" not in text + "\n".join(err)


def test_play_shows_no_hidden_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["P"] * 3 + ["q"])
    monkeypatch.setattr("builtins.input", lambda *a: next(answers))
    code, out, _ = run(capsys, "play", "500", "--seed", "5", "--seat", "N")
    assert code == 0
    assert out[-1] == "Game abandoned."
    match = trumps.new_game("500", seed=5)
    east = match.to_json()["deals"][0]["hands"]["E"]
    text = "\n".join(out)
    assert "Your hand (N): " in text
    assert "Your hand (E)" not in text and " ".join(east) not in text


def test_play_eof_and_interrupt(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def eof(*_: object) -> str:
        raise EOFError

    def interrupt(*_: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", eof)
    code, out, err = run(capsys, "play", "500", "--seed", "1")
    assert code == 0 and out[-1] == "Input closed: game abandoned." and err == []
    monkeypatch.setattr("builtins.input", interrupt)
    code, out, err = run(capsys, "play", "500", "--seed", "1")
    assert code == 130 and out[-1] == "Interrupted: game abandoned." and err == []


def test_play_through_a_pipe() -> None:
    r = cli("play", "500", "--seed", "7", "--bots", "random", stdin="1\n" * 400)
    assert r.returncode == 0, r.stderr
    assert "Game over: " in r.stdout or "Input closed: game abandoned." in r.stdout
    assert r.stderr == ""
    r = cli("play", "500", "--seed", "7", stdin="")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert r.stdout.rstrip().endswith("Input closed: game abandoned.")


def test_play_tells_a_hidden_discard_as_hidden(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the human (S) passes; the bots' contractor exchanges with the kitty face down
    for seed in range(1, 30):
        answers = iter(["P", "q"])
        monkeypatch.setattr("builtins.input", lambda *a, it=answers: next(it))
        main(["play", "500", "--seed", str(seed)])
        out = capsys.readouterr().out.splitlines()
        contract = [line for line in out if line.startswith("Contract: ")]
        if contract and "by You" not in contract[0]:
            by = contract[0].split(" by ")[1]
            assert out.count(f"{by} discards a card face down") == 3
            match = trumps.new_game("500", seed=seed)
            kitty = match.to_json()["deals"][0]["kitty"]
            assert not any(f"discards {c}" in "\n".join(out) for c in kitty)
            return
    pytest.fail("no seed gave a bots' contract")


# ----- serve ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "url",
    ["postgresql+psycopg://trumps:S3cret-pw@127.0.0.1:1/trumps", "bogus://trumps:S3cret-pw@h/x"],
)
def test_serve_never_prints_the_database_password(capsys: pytest.CaptureFixture[str], url: str) -> None:
    import socket

    with socket.socket() as probe:  # a free port: the port is checked before the database
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, out, err = run(capsys, "serve", "--db", url, "--port", str(port))
    assert code != 0 and len(err) == 1 and "cannot open database" in err[0]
    assert "S3cret-pw" not in "\n".join(out + err) and "trumps:***@" in err[0]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql+psycopg://trumps:S3cret-pw@db/trumps", "postgresql+psycopg://trumps:***@db/trumps"),
        ("postgresql+psycopg://trumps@db/trumps", "postgresql+psycopg://trumps@db/trumps"),
        ("postgresql://u:S3cret@pw@h/x", "postgresql://u:***@h/x"),  # an '@' in the password
        ("postgresql://:S3cret-pw@h/x", "postgresql://:***@h/x"),
        (
            "postgresql://h/db?password=S3cret-pw&sslmode=require",
            "postgresql://h/db?password=***&sslmode=require",
        ),
        ("postgresql://h/db?sslpassword=S3cret-pw", "postgresql://h/db?sslpassword=***"),
        ("host=h password=S3cret-pw user=u", "host=h password=*** user=u"),
        ("sqlite:///room.db", "sqlite:///room.db"),
    ],
)
def test_a_database_url_is_shown_without_its_password(url: str, expected: str) -> None:
    from trumps.room.web.server import shown, startup_line

    assert shown(url) == expected
    line = startup_line("0.0.0.0", 8001, url, 1)
    assert expected in line and ("S3cret" not in line)
