"""Pieces every ``trumps`` sub-command shares: an argument parser whose
errors are one line, ``--option KEY=VALUE`` parsing, and the error exit.

Games' own command modules (``trumps.cli.games.<game>``) use these too, so every
bad command line ends the same way: one line on stderr starting
``trumps: error:`` and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from trumps.core.errors import TrumpsError

__all__ = [
    "EXIT_USAGE",
    "CliParser",
    "UsageError",
    "add_option_arguments",
    "fail",
    "guarded",
    "int_list",
    "parse_options",
    "split_negative_values",
]

EXIT_USAGE = 2


class UsageError(Exception):
    """A bad command line: reported as one ``trumps: error:`` line, exit 2."""


class CliParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that raises :class:`UsageError`
    instead of printing the usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def fail(message: str, stream: TextIO | None = None) -> int:
    """Print the one-line error and return the usage exit status."""
    text = " ".join(str(message).split())
    print(f"trumps: error: {text}", file=stream if stream is not None else sys.stderr)
    return EXIT_USAGE


def guarded(run: Callable[[], int]) -> int:
    """Run a command, turning usage and engine errors into the one-line exit."""
    try:
        return run()
    except (UsageError, TrumpsError) as exc:
        return fail(str(exc))
    except SystemExit as exc:  # --help / --version
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else fail(str(code)))


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--option KEY=VALUE``."""
    parser.add_argument("--preset", metavar="NAME", help="a named preset of the game's options")
    parser.add_argument(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help="set one option (repeatable); see 'trumps options GAME'",
    )


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``["kitty_size=5", "must_bid_to_win=yes"]`` -> a dict of strings (the
    game's option schema converts the values)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--option wants KEY=VALUE, not {pair!r}")
        out[key] = value.strip()
    return out


def split_negative_values(argv: Sequence[str], flags: Sequence[str]) -> list[str]:
    """Let ``--scores -40,120`` through argparse (which would take the value
    for an option): joined as ``--scores=-40,120``."""
    out: list[str] = []
    i = 0
    args = list(argv)
    while i < len(args):
        a = args[i]
        if a in flags and i + 1 < len(args) and args[i + 1].startswith("-") and args[i + 1][1:2].isdigit():
            out.append(f"{a}={args[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def int_list(text: str) -> list[int]:
    """``"3,4"`` -> ``[3, 4]`` (an argparse ``type``)."""
    try:
        return [int(x) for x in text.replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected whole numbers separated by commas, not {text!r}"
        ) from None
