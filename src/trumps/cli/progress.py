"""A progress bar for the long commands (``trumps arena``, ``trumps selfplay``).

Shown by default, but only where someone watches: on stderr, and only when
stderr is a terminal, so that stdout (a report, ``--json``) and a redirected
stderr (a log file, a CI job) never receive a bar's control sequences.
``--no-progress`` turns it off.  Lines a command prints on stderr while the
bar runs (the arena's ``--progress`` running results) go through
:meth:`Bar.line`, above the bar, so the two never garble each other.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from trumps.cli.lang import _

if TYPE_CHECKING:
    import argparse

    from rich.progress import Progress, TaskID

__all__ = ["Bar", "add_progress_argument", "stderr_is_terminal"]


def stderr_is_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default stderr) is a terminal a person watches."""
    s = sys.stderr if stream is None else stream
    try:
        return bool(s.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``: no bar even on a terminal."""
    parser.add_argument(
        "--no-progress",
        dest="bar",
        action="store_false",
        help=_("no progress bar (one is drawn on stderr only when stderr is a terminal)"),
    )


class Bar:
    """``with Bar(total, "deals", enabled=args.bar) as bar: ... bar.advance()``.

    Disabled (``enabled`` false, or stderr not a terminal) it draws nothing
    and :meth:`line` prints plain lines on stderr."""

    def __init__(self, total: int, label: str, *, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.total = total
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and total > 0 and stderr_is_terminal(self.stream)
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> Bar:
        if self.enabled:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            console = Console(file=self.stream, highlight=False)
            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.label, total=self.total)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def update(self, done: int) -> None:
        """``done`` of ``total`` are finished."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=done)

    def advance(self, n: int = 1) -> None:
        """``n`` more are finished."""
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, n)

    def line(self, text: str) -> None:
        """A line on stderr (above the bar while it runs)."""
        if self._progress is not None:
            self._progress.console.print(text, markup=False, highlight=False)
        else:
            print(text, file=self.stream, flush=True)
