"""``trumps admin``: looking after a card room's database.

::

    trumps admin broken [--db URL]             the tables set aside as broken
    trumps admin broken --clear ID [--db URL]  take the mark away: resumed at the next start

A table whose stored actions cannot be replayed when the room starts (a
corrupt record, an exception in the engine or a bot) is set aside as broken
(:meth:`trumps.room.room.Room.rebuild`) so that the room starts without it
and does not crash on it at every start; it is not listed in the lobby.
Its rows stay as they were.  This command lists those tables with when and
why, and, once the data or the code is fixed, clears the mark so that the
next start-up tries the table again.
"""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path

from trumps.cli.common import CliParser, UsageError, add_lang_argument, guarded, in_language
from trumps.cli.lang import _

__all__ = ["build_parser", "main"]

DEFAULT_DB = "sqlite:///trumps.db"


def build_parser() -> CliParser:
    parser = CliParser(prog="trumps admin", description=_("look after a card room's database"))
    add_lang_argument(parser)
    sub = parser.add_subparsers(dest="what", metavar="COMMAND", required=True)
    p: CliParser = sub.add_parser(
        "broken", help=_("list the tables set aside as broken (their actions could not be replayed)")
    )
    add_lang_argument(p)
    p.add_argument(
        "--db", default=DEFAULT_DB, help=_("the room's database URL (default sqlite:///trumps.db)")
    )
    p.add_argument(
        "--clear", metavar="ID", help=_("take the broken mark off table ID: the next start-up resumes it")
    )
    return parser


def main(argv: list[str]) -> int:
    """Run ``trumps admin``; returns the exit status."""
    return in_language(argv, _main)


def _main(argv: list[str]) -> int:
    return guarded(lambda: _broken(build_parser().parse_args(argv)))


def _require_room() -> None:
    """The room's database layer is an optional part of the installation:
    without it the command says how to install it, in one line."""
    try:
        import sqlalchemy  # noqa: F401
    except ModuleNotFoundError:
        raise UsageError(
            "trumps admin looks after the card room's database: pip install 'trumps[room]'"
        ) from None


def _existing(url: str) -> str:
    """``url`` if it names a database that can be there: an admin command
    never creates an empty SQLite file for a mistyped path."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise UsageError(f"not a database URL: {url!r}") from None
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database or ""
        if not path or path == ":memory:" or not Path(path).is_file():
            raise UsageError(f"no room database at {url!r}")
    return url


def _broken(args: argparse.Namespace) -> int:
    _require_room()
    from sqlalchemy.exc import SQLAlchemyError

    from trumps.room.storage.store import Store

    url = _existing(args.db)
    try:
        store = Store(url)
    except SQLAlchemyError as exc:
        raise UsageError(
            f"cannot open the room database {url!r}: {getattr(exc, 'orig', None) or exc}"
        ) from None
    try:
        if args.clear is not None:
            status = store.clear_broken(args.clear)
            if status is None:
                raise UsageError(f"no broken table {args.clear!r}")
            print(_("table {id}: no longer broken; the next start resumes it ({status})",
                    id=args.clear, status=status))  # fmt: skip
            return 0
        rows = store.broken_tables()
    finally:
        store.close()
    if not rows:
        print(_("no broken tables"))
        return 0
    for row in rows:
        at = row["at"]
        when = (
            datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            if at is not None
            else "?"
        )
        print(f"{row['id']}\t{row['game']}\t{when}\t{row['reason'] or ''}")
    return 0
