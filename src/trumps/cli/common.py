"""Pieces every ``trumps`` sub-command shares: an argument parser whose
errors are one line, ``--option KEY=VALUE`` parsing, and the error exit.

Games' own command modules (``trumps.cli.games.<game>``) use these too, so every
bad command line ends the same way: one line on stderr starting
``trumps: error:`` and exit status 2.

The parser speaks the CLI's language (:mod:`trumps.cli.lang`): its help
sections, ``usage:`` and argparse's own error messages are translated, and
an error is printed in the language of the command.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

from trumps.cli.lang import _, add_lang_argument, session, translate_error

__all__ = [
    "EXIT_SOFTWARE",
    "EXIT_USAGE",
    "CliParser",
    "UsageError",
    "add_lang_argument",
    "add_option_arguments",
    "bot_kinds_text",
    "fail",
    "guarded",
    "int_list",
    "internal_error",
    "os_error",
    "parse_options",
    "positive_int",
    "split_negative_values",
]

EXIT_USAGE = 2
EXIT_SOFTWARE = 70  # sysexits.h EX_SOFTWARE: a bug of trumps, not the user's doing
DEBUG_VARIABLE = "TRUMPS_DEBUG"  # set (not "0"): a bug keeps its Python traceback


class UsageError(Exception):
    """A bad command line: reported as one ``trumps: error:`` line, exit 2."""


class CliParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that raises :class:`UsageError`
    instead of printing the usage and exiting, and writes its help in the
    CLI's language (build it once the language is set)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:  # argparse.ArgumentParser's arguments, passed on
        super().__init__(*args, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = _("show this help message and exit")

    def add_argument(self, *args: str, **kwargs: Any) -> argparse.Action:  # (kwargs: argparse's own)
        help_text = kwargs.get("help")
        if isinstance(help_text, str) and "%(" not in help_text:
            kwargs["help"] = help_text.replace("%", "%%")  # a translation may write "95 %"
        return super().add_argument(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def _usage_prefix(self) -> str:
        return _("usage:") + " "

    def format_usage(self) -> str:
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups, self._usage_prefix())
        return formatter.format_help()

    def format_help(self) -> str:
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups, self._usage_prefix())
        formatter.add_text(self.description)
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()


def fail(message: str, stream: TextIO | None = None) -> int:
    """Print the one-line error and return the usage exit status.  A
    message of several lines (a file's list of defects) is joined into one;
    control characters a user typed (a NUL byte, an escape) are shown
    escaped, so an error line never drives the terminal."""
    text = " ".join(translate_error(str(message)).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    print(_("trumps: error: {message}", message=text), file=stream if stream is not None else sys.stderr)
    return EXIT_USAGE


def in_language(argv: Sequence[str], run: Callable[[list[str]], int]) -> int:
    """Run a command in its ``--lang`` (else the enclosing command's, else the
    environment's language) on the rest of ``argv``, every error of it
    turned into the one ``trumps: error:`` line (:func:`guarded`).  An
    unknown ``--lang`` is that line in the language the command would
    otherwise speak."""
    try:
        with session(list(argv)) as rest:
            return guarded(lambda: run(rest))
    except UsageError as exc:
        with session([]):
            return fail(str(exc))


def guarded(run: Callable[[], int]) -> int:
    """Run a command, turning every error a user can cause into the one-line
    exit: a bad command line (:class:`UsageError`), the engine's refusals
    (:class:`~trumps.core.errors.TrumpsError` and any other ``ValueError``
    of the library: a bad number, text that is not UTF-8, a NUL byte in a
    path) and the operating system's (a file that is missing, a directory,
    no permission).  A broken pipe and an interrupt are left to the caller
    (output piped into ``head`` is not an error; ``trumps`` exits 130 on
    Ctrl-C); anything else is a bug: one ``trumps: internal error:`` line
    and exit status 70 (:func:`internal_error`), or its Python traceback
    when ``TRUMPS_DEBUG=1``."""
    try:
        return run()
    except (UsageError, ValueError) as exc:
        return fail(str(exc) or type(exc).__name__)
    except BrokenPipeError:
        raise
    except OSError as exc:
        return fail(os_error(exc))
    except SystemExit as exc:  # --help / --version
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else fail(str(code)))
    except Exception as exc:  # a bug (KeyboardInterrupt is no Exception: it goes on up)
        if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
            raise
        return internal_error(exc)


def internal_error(exc: BaseException, stream: TextIO | None = None) -> int:
    """Report a bug in one line (``trumps: internal error: RuntimeError: ...``,
    asking for a report) and return :data:`EXIT_SOFTWARE`.  Not translated:
    the line is meant to be pasted into a bug report."""
    text = " ".join(str(exc).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    print(
        f"trumps: internal error: {what} (please report it; {DEBUG_VARIABLE}=1 shows the traceback)",
        file=stream if stream is not None else sys.stderr,
    )
    return EXIT_SOFTWARE


def os_error(exc: OSError) -> str:
    """An operating-system error in words: ``cannot read x.pbn: No such file
    or directory`` (the file named, the system's reason, no errno)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return reason


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--option KEY=VALUE``."""
    parser.add_argument("--preset", metavar="NAME", help=_("a named preset of the game's options"))
    parser.add_argument(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        action="append",
        default=[],
        help=_("set one option (repeatable); see 'trumps options GAME'"),
    )


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``["kitty_size=5", "must_bid_to_win=yes"]`` -> a dict of strings (the
    game's option schema converts the values)."""
    out: dict[str, str] = {}
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


def positive_int(text: str) -> int:
    """A whole number of at least 1 (an argparse ``type``): a count of
    games, deals or workers."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, not {n}")
    return n


def bot_kinds_text(*, colver_preset: str | None = None) -> str:
    """The bot kinds a command accepts, from the bots' registry (so a new
    level appears in every ``--help`` without an edit here); with
    ``colver_preset`` the outside engine's agents too, and the preset
    whose rules they play."""
    from trumps.bots.registry import KINDS

    text = ", ".join(KINDS) + ", " + _("or module:Class")
    if colver_preset is not None:
        from trumps.bots.colver_bot import AGENTS

        text += "; " + _(
            "for coinche colver:AGENT ({agents}; needs pip install trumps[arena]; --preset {preset})",
            agents=", ".join(AGENTS),
            preset=colver_preset,
        )
    return text
