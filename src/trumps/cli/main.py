"""The ``trumps`` command.

::

    trumps games                       the games this installation plays
    trumps options 500                 a game's options, values, defaults, presets
    trumps play 500 [--seat S] ...     play a game against bots in the terminal
    trumps selfplay 500 --games N ...  bots play each other; a summary, JSONL records
    trumps score 500 8H --tricks 9     one deal's score (the game's own calculator)
    trumps dd "N:..." | FILE.pbn       bridge double-dummy table (--par), of a deal or a file's board
    trumps solve 500 --deal ...        double-dummy value of each card from a position
    trumps arena 500 --a easy --b normal --deals N   duplicate match between two bots
    trumps arena 500 --a easy --b normal --games N   the same over whole games: games won
    trumps admin broken [--db URL]     the room's tables set aside as broken (--clear ID)

Game-specific commands live with their game: ``trumps score GAME ...`` runs
``score_command(argv)`` from ``trumps.cli.games.<game package>``, so adding
a game needs no change here.  Every error (a bad command line, the engine's
refusal, a missing or unreadable file) exits with status 2 and one
``trumps: error: ...`` line on stderr; ``--help`` at every level helps.
The whole command line is described in docs/cli.md.

``--lang en|de|fr`` (anywhere on the command line), else the environment
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), sets the language of
everything printed (:mod:`trumps.cli.lang`); the notation typed and written
to records stays the engine's (``7H``, ``XX``, ``RJ``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from trumps.cli.common import (
    CliParser,
    UsageError,
    add_lang_argument,
    add_option_arguments,
    bot_kinds_text,
    guarded,
    in_language,
    parse_options,
    positive_int,
)
from trumps.cli.lang import N_, _, message, ngettext, number
from trumps.cli.progress import Bar, add_progress_argument

if TYPE_CHECKING:
    from trumps.core.protocol import Deal, Match

__all__ = ["build_parser", "game_command", "main", "port_number", "score_parser"]

#: The highest TCP port.
MAX_PORT = 65535


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535 (an argparse ``type``).  0 is
    refused too: it would let the system pick a random port, and the room's
    address would not be the one asked for."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, not {text!r}") from None
    if not 1 <= n <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to {MAX_PORT}, not {n}")
    return n


def build_parser(play_game: str | None = None) -> CliParser:
    """The parser of the whole command line; with ``play_game`` (``trumps
    play GAME --help``) the help of ``play`` shows that game's notation."""
    from trumps import __version__

    parser = CliParser(
        prog="trumps",
        description=_("Rules engines, bots and a card room for trick-taking games (500, bridge, coinche)."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"trumps {__version__}",
        help=_("show program's version number and exit"),
    )
    add_lang_argument(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str, **kwargs: Any) -> CliParser:
        p: CliParser = sub.add_parser(name, help=help_text.replace("%", "%%"), **kwargs)
        if kwargs.get("add_help", True):
            add_lang_argument(p)
        return p

    command("games", _("list the games"))

    p = command("options", _("list a game's options and presets"))
    p.add_argument("game")

    p = command("play", _("play a game against bots in the terminal"), epilog=_play_epilog(play_game))
    p.add_argument("game")
    add_option_arguments(p)
    p.add_argument("--seed", type=int, help=_("seed of the shuffles (a replayable game)"))
    p.add_argument("--seat", help=_("your seat (default S, or 0 at six)"))
    p.add_argument(
        "--bots",
        default="rules",
        help=_("the other players: {kinds} (default rules)", kinds=bot_kinds_text()),
    )

    p = command("selfplay", _("bots play each other"))
    p.add_argument("game")
    p.add_argument("--games", "-n", type=positive_int, default=100, help=_("number of games (default 100)"))
    p.add_argument("--seed", type=int, help=_("seed of the first game (game i uses seed + i)"))
    add_option_arguments(p)
    p.add_argument(
        "--bots",
        default="rules",
        help=_(
            "bot kinds: one for all, one per team or one per seat, comma separated "
            "(e.g. rules,random); a kind is {kinds}",
            kinds=bot_kinds_text(),
        ),
    )
    p.add_argument("--records", metavar="FILE.jsonl", help=_("write each game's record as one JSON line"))
    add_progress_argument(p)

    p = command("score", _("score one deal with the game's calculator"), add_help=False)
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = command("dd", _("bridge double-dummy table (and par) of a PBN deal"), add_help=False)
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = command("solve", _("double-dummy value of each legal card (any game)"), add_help=False)
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = command(
        "arena",
        _("duplicate match between two bots: per deal (--deals) or games won (--games)"),
        add_help=False,
    )
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = command("admin", _("look after a card room's database (trumps admin broken)"), add_help=False)
    p.add_argument("args", nargs=argparse.REMAINDER)

    p = command("serve", _("run the card room (open it in a browser)"))
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)"))
    p.add_argument("--port", type=port_number, default=8000, help=_("port, 1 to 65535 (default 8000)"))
    p.add_argument(
        "--db",
        default="sqlite:///trumps.db",
        help=_(
            "database URL: SQLite file (default sqlite:///trumps.db) or postgresql+psycopg://user@host/db"
        ),
    )
    p.add_argument(
        "--bot-delay", type=float, default=0.6, help=_("seconds a bot waits before acting (default 0.6)")
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        help=_("worker processes sharing the port (default 1; more need a PostgreSQL --db)"),
    )
    p.add_argument(
        "--worker-name",
        default=None,
        help=_(
            "this worker's name behind a proxy that routes table sockets to their worker "
            "(letters, digits, - and _; see docs/scaling.md)"
        ),
    )
    p.add_argument(
        "--trusted-proxies",
        default="",
        metavar="ADDR[,ADDR]",
        help=_(
            "addresses of the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed "
            "(default none: the peer's own address is the client's; see docs/scaling.md)"
        ),
    )
    p.add_argument(
        "--unmetered",
        default="",
        metavar="ADDR[,ADDR]",
        help=_("client addresses not held to the per-address budgets (a load test's machine; default none)"),
    )
    return parser


def _play_epilog(game: str | None) -> str | None:
    """``trumps play GAME --help``: how that game's calls and cards are typed."""
    if game is None:
        return None
    import trumps
    from trumps.cli.play import notation_examples

    try:
        match = trumps.new_game(game, seed=0)
    except ValueError:
        return None  # an unknown game: the command itself will say so
    return _("{game}: type {examples}", game=match.game, examples=notation_examples(match, 0))


def game_command(game: str, command: str) -> Callable[[list[str]], int]:
    """``<command>_command`` of the module the game's spec names as its CLI
    (``trumps.cli.games.<game>``; the game packages themselves never import
    the CLI layer, they name it)."""
    import trumps

    spec = trumps.game_spec(game)
    name = spec.name
    if not spec.has("cli"):
        raise UsageError(f"{name} has no '{command}' command")
    module = spec.load("cli")
    func = getattr(module, f"{command}_command", None)
    if func is None:
        raise UsageError(f"{name} has no '{command}' command")
    typed: Callable[[list[str]], int] = func
    return typed


def _dd_game() -> str:
    """The game ``trumps dd`` tables: the one whose double dummy goes through
    DDS (bridge), as its spec says."""
    from trumps.core.registry import specs

    for spec in specs():
        if spec.double_dummy_via_dds and spec.has("cli"):
            return spec.name
    raise UsageError("no game of this installation has a double-dummy table command")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    return in_language(args_list, _main)


def _main(argv: list[str]) -> int:
    try:
        return guarded(lambda: _run(argv))
    except KeyboardInterrupt:
        print(_("trumps: interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head & co.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(argv: list[str]) -> int:
    parser = build_parser()
    if not argv:
        parser.print_help()
        return 0
    if argv[0] in ("solve", "arena", "admin"):  # they parse their own arguments, --help included
        return _tool(argv[0])(argv[1:])
    if argv[0] == "dd":
        return game_command(_dd_game(), "dd")(argv[1:])
    if argv[0] == "score":
        return _score(argv[1:])
    if argv[0] == "play" and len(argv) > 1 and not argv[1].startswith("-") and {"-h", "--help"} & set(argv):
        parser = build_parser(play_game=argv[1])
    args = parser.parse_args(argv)
    command = args.command
    if command == "games":
        return _games()
    if command == "options":
        return _options(args.game)
    if command == "dd":
        return game_command(_dd_game(), "dd")(list(args.args))
    if command in ("solve", "arena", "admin"):
        return _tool(command)(list(args.args))
    if command == "serve":
        return _serve(args)
    if command == "play":
        return _play(args)
    if command == "selfplay":
        return _selfplay(args)
    parser.print_help()  # pragma: no cover - argparse rejects unknown commands
    return 2  # pragma: no cover


def score_parser() -> CliParser:
    """``trumps score GAME ...``: only its help; the game's calculator parses
    the rest (``trumps score GAME --help``)."""
    import trumps

    games = [g for g in trumps.games() if _has_command(g, "score")]
    p = CliParser(
        prog="trumps score",
        usage="trumps score GAME ARGS... | trumps score GAME --help",
        description=_(
            "Score one deal with a game's own calculator.  Each game takes its own arguments: "
            "'trumps score GAME --help' lists them."
        ),
        epilog=_("games: {games}", games=", ".join(games))
        + "\n"
        + _("examples:")
        + "\n  trumps score 500 8H --tricks 9\n  trumps score bridge 4HX --vul --tricks 9\n"
        "  trumps score bridge --pbn FILE.pbn --board 3\n  trumps score coinche 100H --points 112 --belote taker",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help=_("the game: {games}", games=", ".join(games)))
    add_lang_argument(p)
    return p


def _has_command(game: str, command: str) -> bool:
    try:
        game_command(game, command)
    except UsageError:
        return False
    return True


def _score(argv: list[str]) -> int:
    """``trumps score``: its own help, else the game's calculator."""
    if not argv or argv[0].startswith("-"):
        score_parser().parse_args(argv[:1] or [])  # --help prints; anything else is an error
        raise UsageError("give the game first: trumps score GAME ... (see trumps score --help)")
    return game_command(argv[0], "score")(argv[1:])


#: The packages of the ``room`` extra (pyproject.toml): ``trumps serve`` needs
#: them (``trumps admin`` checks its own), the rest of the CLI does not.
ROOM_PACKAGES = frozenset(
    {"starlette", "uvicorn", "sqlalchemy", "alembic", "pydantic", "itsdangerous", "psycopg", "argon2",
     "openskill", "orjson"}
)  # fmt: skip


def _room_import(module: str) -> ModuleType:
    """Import a module of the card room; without the ``room`` extra, the one
    line that says how to get it (a bare ``pip install trumps`` has no web
    server or database driver)."""
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in sorted(ROOM_PACKAGES)):
        raise UsageError("the card room needs the room extra: pip install 'trumps[room]'")
    return importlib.import_module(module)


def _tool(command: str) -> Callable[[list[str]], int]:
    """``trumps.cli.<command>:main``: commands that take their own arguments."""
    module = importlib.import_module(f"trumps.cli.{command}")
    func: Callable[[list[str]], int] = module.main
    return func


def _serve(args: argparse.Namespace) -> int:
    serve = _room_import("trumps.room.web.server").serve
    if not args.bot_delay >= 0:  # also NaN
        raise UsageError("--bot-delay must not be negative")
    check_port(args.host, args.port)
    serve(
        host=args.host,
        port=args.port,
        db=args.db,
        bot_delay=args.bot_delay,
        workers=args.workers,
        worker_name=args.worker_name,
        trusted_proxies=_addresses(args.trusted_proxies),
        unmetered=_addresses(args.unmetered),
    )
    return 0


def check_port(host: str, port: int) -> None:
    """Refuse a port the room could not listen on (another server holds it,
    a port below 1024 without the right, an address that is not this
    machine's) before the room starts, so that no address is printed for a
    room that is not there.  Bound as uvicorn binds (``SO_REUSEADDR``, the
    family from the address), then released at once."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except socket.gaierror as exc:
        raise UsageError(f"--host {host!r}: {exc.strerror or exc}") from None
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(
                f"port {port} on {host} is already in use (another server?): choose another with --port"
            ) from None
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except (OverflowError, ValueError) as exc:
        raise UsageError(f"cannot listen on {host!r}:{port}: {exc}") from None


def _addresses(text: str) -> tuple[str, ...]:
    """A comma-separated list of addresses, as a tuple (blanks dropped)."""
    return tuple(a.strip() for a in text.split(",") if a.strip())


# ----- games / options ----------------------------------------------------------
#: The games' one-line descriptions (their docstrings' first line), for the catalogue.
GAME_LINES = (N_("A game of 500"), N_("A game of bridge"), N_("A game of Belote Coinche"))


def _games() -> int:
    import trumps

    for name in trumps.games():
        cls = trumps.game_class(name)
        doc = (cls.__doc__ or "").strip().split("\n")[0].split(".  ")[0].rstrip(".")
        print(f"{name:<10} {message(doc)}")
    return 0


def _show(value: object) -> str:
    """An option value as it is typed after ``--option KEY=`` (never translated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _word(text: str) -> str:
    """A text of the games' data (an option's label, help, a preset's words) in
    the CLI's language (the catalogue has them all, extracted at run time)."""
    return message(text) if text else text


def _values_line(o: Mapping[str, object]) -> str:
    """An option's allowed values: the value to type, its words when they
    say more, the default marked (``o``: an option's ``describe()``)."""
    choices = o["choice_labels"]
    if not choices or not isinstance(choices, list):
        bounds = o["bounds"]
        lo, hi, step = bounds if isinstance(bounds, list) and bounds else (None, None, 1)
        default = _show(o["default"])
        if lo is not None and hi is not None:
            span = _("a whole number from {lo} to {hi}", lo=lo, hi=hi)
        elif lo is not None:
            span = _("a whole number from {lo}", lo=lo)
        elif hi is not None:
            span = _("a whole number to {hi}", hi=hi)
        else:
            span = _("a whole number")
        if step != 1:
            span = _("{numbers} in steps of {step}", numbers=span, step=step)
        return _("{numbers} (default {default})", numbers=span, default=default)
    shown = []
    for c in choices:
        if not isinstance(c, Mapping):
            continue
        value, words = _show(c["value"]), _word(str(c["label"]))
        text = value if words.lower() == value.lower() else f"{value} = {words}"
        same = c["value"] == o["default"] and type(c["value"]) is type(o["default"])
        shown.append(_("{value} (default)", value=text) if same else text)
    return " | ".join(shown)


def _options(game: str) -> int:
    """Every option by group: label and key, the values in words with the
    default marked, the one-line help; then the presets with what they change."""
    import trumps

    cls = trumps.game_class(game)
    info = cls.schema.describe()
    title = _word(info.get("title") or cls.game)
    example = next(
        (f"{o['name']}={_show(c['value'])}" for o in info["options"] for c in o["choice_labels"]
         if c["value"] != o["default"]),
        "KEY=VALUE",
    )  # fmt: skip
    print(_("{title}: house rules (set one with --option KEY=VALUE, e.g. --option {example})",
            title=title, example=example))  # fmt: skip
    groups = info["groups"] or [{"key": "", "label": "Options", "doc": ""}]
    for group in groups:
        members = [o for o in info["options"] if o["group"] == group["key"] or not info["groups"]]
        if not members:
            continue
        print()
        label = _word(group["label"])
        print(_("{label}: {value}", label=label, value=_word(group["doc"])) if group["doc"] else label)
        for o in members:
            when = ""
            if o["when"]:
                conds = [f"{k}={'|'.join(_show(v) for v in allowed)}" for k, allowed in o["when"].items()]
                when = "   " + _("(only with {conditions})", conditions=", ".join(conds))
            print(f"  {_word(o['label'])} · {o['name']}{when}")
            print(f"      {_values_line(o)}")
            if o["help"]:
                print(f"      {_word(o['help'])}")
    presets = info["presets"]
    if presets:
        print()
        print(_("Presets (--preset NAME), with what each changes from the defaults:"))
        for name in presets:
            meta = info["preset_info"][name]
            label = _word(meta["label"])
            print(
                f"  {name} · "
                + (_("{label}: {value}", label=label, value=_word(meta["doc"])) if meta["doc"] else label)
            )
            if not meta["changes"]:
                print("      " + _("(the defaults)"))
            for ch in meta["changes"]:
                print(
                    f"      {_word(ch['label'])}: {_word(ch['words'])}   ({ch['name']}={_show(ch['value'])})"
                )
    return 0


# ----- play -----------------------------------------------------------------------
def _new_match(args: argparse.Namespace) -> Match[Deal]:
    import trumps

    options = parse_options(args.option)
    return trumps.new_game(args.game, preset=args.preset, options=options or None, seed=args.seed)


def _play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from trumps.cli.play import make_bots, play_session

    match = _new_match(args)
    default_seat = "S" if match.players == 4 else 0
    human = match.seat(args.seat if args.seat is not None else default_seat)
    bots, note = make_bots(match.game, args.bots, match, human)
    console = Console(highlight=False)
    if note:
        console.print(note)

    echo = not _isatty(sys.stdin)

    def read(prompt: str) -> str:
        text = console.input(prompt)
        if echo:  # piped input: show the answer so the transcript reads like a session
            console.print(text, markup=False, highlight=False)
        return text

    seed = match.seed
    return play_session(match, human, bots, console=console, read=read, rng=random.Random(f"{seed}/bots"))


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# ----- selfplay ---------------------------------------------------------------------
def _selfplay(args: argparse.Namespace) -> int:
    import trumps
    from trumps.bots.selfplay import bots_for_seats, selfplay

    options = parse_options(args.option) or None
    kinds = [k.strip() for k in str(args.bots).split(",") if k.strip()]
    if not kinds:
        raise UsageError("--bots wants one or more bot kinds, e.g. rules,random")
    # check the set-up (game, options, bots) before starting anything
    probe = trumps.new_game(args.game, preset=args.preset, options=options, seed=0)
    seated = bots_for_seats(probe.game, kinds, probe.players, probe.teams)
    view = probe.view(None)
    from trumps.cli.render import team_names

    names = team_names(view)
    out = None
    if args.records:
        try:
            out = open(args.records, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise UsageError(f"cannot write {args.records}: {exc.strerror or exc}") from None

    bar = Bar(args.games, _("games"), enabled=args.bar)

    def write(match: Match[Deal]) -> None:
        bar.advance()
        if out is not None:
            out.write(json.dumps(match.to_json(), separators=(",", ":")) + "\n")

    try:
        with bar:
            result = selfplay(
                probe.game,
                seated,
                args.games,
                seed=args.seed,
                preset=args.preset,
                options=options,
                on_game=write,
            )
    finally:
        if out is not None:
            out.close()
    print(
        _(
            "{game} self-play: {games} games, {deals} deals in {seconds} s "
            "({games_per_second} games/s, {deals_per_second} deals/s)",
            game=probe.game,
            games=result.games,
            deals=result.deals,
            seconds=number(result.seconds, ".2f"),
            games_per_second=number(result.games_per_second, ".1f"),
            deals_per_second=number(result.deals_per_second, ".1f"),
        )
    )
    per_seat = [str(getattr(b, "name", type(b).__name__)) for b in seated]
    means = result.mean_points_per_deal
    for t, team in enumerate(probe.teams):
        kinds_here = sorted({per_seat[s] for s in team})
        label = _("team {team} ({bots})", team=names[t], bots="/".join(kinds_here))
        pct = 100.0 * result.win_rate(t)
        wins = ngettext("{n} wins", "{n} wins", result.wins[t])  # English says "1 wins" too
        print(
            _(
                "{label}: {wins} ({percent}%), mean {points} points per deal",
                label=label,
                wins=wins,
                percent=number(pct, ".1f"),
                points=number(means[t], "+.1f"),
            )
        )
    if result.undecided:
        print(ngettext("no winner: {n} games", "no winner: {n} games", result.undecided))
    if args.records:
        print(ngettext("records: {n} games written to {file}", "records: {n} games written to {file}",
                       result.games, file=args.records))  # fmt: skip
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
