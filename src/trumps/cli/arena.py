"""``trumps arena GAME --a BOT --b BOT --deals N --seed S``: a duplicate
match between two bots (see :mod:`trumps.bots.arena`).

Prints A's mean gain per deal with its 95% confidence interval (500: points;
Coinche: deal score and card points; Bridge: IMPs per board); ``--json``
prints the summary as JSON instead.

``--games N`` plays whole games instead (:mod:`trumps.bots.arena_match`):
N duplicate games in the game's match format (500 and coinche to the target
score, a bridge rubber or with ``-o scoring=chicago`` a Chicago round), each
twice with the seats swapped, and prints the games won by each bot, A's win
rate and A's mean final margin with their 95% intervals.

The report is worded in the CLI's language (the bots' own ``format()`` is
English; :func:`format_deals` and :func:`format_games` say the same in
every language, English exactly as the bots do).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from trumps.cli.common import (
    CliParser,
    UsageError,
    add_lang_argument,
    add_option_arguments,
    bot_kinds_text,
    in_language,
    parse_options,
    positive_int,
)
from trumps.cli.lang import N_, _, message, ngettext, number, pgettext
from trumps.cli.progress import Bar, add_progress_argument

if TYPE_CHECKING:
    from trumps.bots.arena import ArenaResult, Interval
    from trumps.bots.arena_match import MatchResult

__all__ = ["COLVER_PRESET", "check_colver", "format_deals", "format_games", "main"]

DEFAULT_DEALS = 100

#: The coinche preset whose rules colver plays (docs/coinche-presets.md).
COLVER_PRESET = "contree_exact"
#: The option groups whose rules decide what is legal: the ones colver must share.
COLVER_GROUPS = ("bidding", "play")

#: The match formats the arena reports (``trumps.bots.arena_match.match_format``).
MATCH_FORMATS = (
    N_("to 500 points (out at {op} 500 or {op2} -500)"),
    N_("to {points} points ({rule})"),
    N_("Chicago (four deals)"),
    N_("rubber"),
)


def _epilog() -> str:
    return _(
        """\
modes:
  --deals N   N duplicate deals (default 100): A's mean gain per deal
  --games N   N duplicate games in the match format, each played twice with
              the seats swapped (2N games): games won, A's win rate (paired
              95% interval over the N pairs, Wilson for comparison) and the
              mean final margin A - B per game
              500: to 500 / -500; coinche: to target_score (-o target_score=...);
              bridge: a rubber, or a Chicago round with -o scoring=chicago
examples:
  trumps arena coinche --a normal --b easy --deals 200 --jobs 2
  trumps arena 500 --a normal --b easy --games 20 --seed 1 --jobs 2
  trumps arena coinche --preset contree_exact --a strong --b colver:smart_ismcts --deals 200
"""
    )


def build_parser() -> CliParser:
    p = CliParser(
        prog="trumps arena",
        description=_("Duplicate match between two bots: single deals (--deals) or whole games (--games)."),
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    import trumps

    p.add_argument("game", help=" ".join(trumps.games()))
    p.add_argument(
        "--a",
        default="normal",
        help=_("bot A: {kinds} (default normal)", kinds=bot_kinds_text(colver_preset=COLVER_PRESET)),
    )
    p.add_argument("--b", default="easy", help=_("bot B (default easy)"))
    p.add_argument(
        "--deals",
        type=positive_int,
        default=None,
        help=_("duplicate deals (default {n} without --games)", n=DEFAULT_DEALS),
    )
    p.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help=_("duplicate games in the match format (each played twice)"),
    )
    p.add_argument("--seed", type=int, default=1, help=_("seed of the first deal or game (default 1)"))
    p.add_argument("--jobs", type=positive_int, default=1, help=_("worker processes (default 1)"))
    p.add_argument(
        "--max-deals",
        type=positive_int,
        default=None,
        help=_(
            "--games: a game still going after this many deals is an error; a bridge rubber is "
            "stopped and scored as unfinished (default 200)"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("print the summary as JSON"))
    p.add_argument(
        "--progress",
        action="store_true",
        help=_("print the running result on stderr as deals (or duplicate games) finish"),
    )
    p.add_argument(
        "--every",
        type=positive_int,
        default=None,
        help=_("deals (or games) between --progress lines (default 50 deals, 5 games)"),
    )
    add_progress_argument(p)
    add_option_arguments(p)
    add_lang_argument(p)
    return p


def main(argv: list[str]) -> int:
    """Run the arena; returns the exit status."""
    return in_language(argv, _main)


def _main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    options = parse_options(args.option)
    if args.preset:
        options["preset"] = args.preset
    check_colver(args.game, (args.a, args.b), options)
    if args.games is not None:
        if args.deals is not None:
            raise UsageError(
                "--games and --deals cannot be combined: --deals plays single deals, --games whole games"
            )
        return _games(args, options)
    if args.max_deals is not None:
        raise UsageError("--max-deals only applies with --games")
    return _deals(args, options)


def check_colver(game: str, kinds: tuple[str, ...], options: dict[str, str]) -> None:
    """A ``colver:`` bot plays the rules of one preset only: refuse, before
    the first deal, a match whose bidding or play rules differ from it,
    naming the preset to use (else the match would stop at the first call
    colver does not know, such as a no-trump bid)."""
    if not any(str(k).strip().lower().startswith("colver:") for k in kinds):
        return
    import trumps

    cls = trumps.game_class(game)
    if COLVER_PRESET not in cls.schema.presets:
        return  # not coinche: the bot itself says that colver plays coinche only
    given = dict(options)
    preset = given.pop("preset", None)
    wanted = trumps.new_game(game, preset=COLVER_PRESET, seed=0).options
    here = trumps.new_game(game, preset=preset, options=given or None, seed=0).options
    groups = {o["name"]: o["group"] for o in cls.schema.describe()["options"]}
    differ = [f"{k}={here[k]!s}" for k, g in groups.items() if g in COLVER_GROUPS and here[k] != wanted[k]]
    if differ:
        shown = ", ".join(differ[:4]) + (", ..." if len(differ) > 4 else "")
        raise UsageError(
            f"the colver bots play the rules of the {COLVER_PRESET} preset; this match's "
            f"bidding or play rules differ ({shown}): use --preset {COLVER_PRESET}"
        )


def _deals(args: argparse.Namespace, options: dict[str, str]) -> int:
    from trumps.bots.arena import DealOutcome, duplicate_match, interval

    every = args.every or 50
    seen: list[DealOutcome] = []
    deals = DEFAULT_DEALS if args.deals is None else args.deals

    with Bar(deals, pgettext("progress", "deals"), enabled=args.bar) as bar:

        def progress(done: int, outcome: DealOutcome) -> None:
            seen.append(outcome)
            bar.update(done)
            if args.progress and done % every == 0:
                parts = [
                    f"{_measure(m)} {_interval(interval([d.gains[m] for d in seen]))}"
                    for m in sorted(outcome.gains)
                ]
                head = ngettext("{n} deals:", "{n} deals:", done)  # English says "1 deals" too
                bar.line(f"  {head} " + ", ".join(parts))

        result = duplicate_match(
            args.game,
            args.a,
            args.b,
            deals=deals,
            seed=args.seed,
            options=options,
            jobs=args.jobs,
            progress=progress,
        )
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_deals(result))
    return 0


def _games(args: argparse.Namespace, options: dict[str, str]) -> int:
    from trumps.bots.arena_match import MAX_DEALS, MatchResult, PairOutcome, duplicate_games

    every = args.every or 5
    running = MatchResult(args.game, args.a, args.b, args.seed, "")
    bar = Bar(args.games, pgettext("progress", "duplicate games"), enabled=args.bar)

    def progress(done: int, outcome: PairOutcome) -> None:
        running.per_pair.append(outcome)
        bar.update(done)
        if args.progress and done % every == 0:
            rate, margin = running.win_rate(), running.margin()
            text = ngettext(
                "{n} duplicate games: won A {a}, B {b}, drawn {drawn}; A's win rate {rate}; margin {margin}",
                "{n} duplicate games: won A {a}, B {b}, drawn {drawn}; A's win rate {rate}; margin {margin}",
                done,
                a=running.wins_a,
                b=running.wins_b,
                drawn=running.draws,
                rate=_interval(rate, 3, signed=False),
                margin=_interval(margin, 1),
            )
            bar.line("  " + text)

    with bar:
        result = duplicate_games(
            args.game,
            args.a,
            args.b,
            games=args.games,
            seed=args.seed,
            options=options,
            jobs=args.jobs,
            max_deals=MAX_DEALS if args.max_deals is None else args.max_deals,
            progress=progress,
        )
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_games(result))
    return 0


# ----- the reports ------------------------------------------------------------------
def _measure(name: str) -> str:
    """A measure of the duplicate deals (its key in the JSON summary) in words."""
    words = {
        "points": pgettext("arena measure", "points"),
        "imps": pgettext("arena measure", "imps"),
        "deal_score": pgettext("arena measure", "deal_score"),
        "card_points": pgettext("arena measure", "card_points"),
    }
    return words.get(name, name)


def _interval(i: Interval, digits: int = 2, *, signed: bool = True) -> str:
    """``+1.25 [-0.50, +3.00]`` (:meth:`Interval.format`) in the CLI's language."""
    spec = f"{'+' if signed else ''}.{digits}f"
    return _(
        "{mean} [{low}, {high}]",
        mean=number(i.mean, spec),
        low=number(i.low, spec),
        high=number(i.high, spec),
    )


def _verdict(n: int, a_better: bool, b_better: bool, *, games: bool) -> str:
    if n < 2:
        return _("too few games to tell") if games else _("too few deals to tell")
    return _("A better") if a_better else _("B better") if b_better else _("no significant difference")


def _row(label: str, value: str) -> str:
    return f"  {label:<22} {value}"


def format_deals(result: ArenaResult) -> str:
    """The report of duplicate deals (:meth:`ArenaResult.format`, translated)."""
    lines = [
        ngettext(
            "{game}: {a} (A) vs {b} (B), {n} duplicate deals, seed {seed}",
            "{game}: {a} (A) vs {b} (B), {n} duplicate deals, seed {seed}",
            result.deals,
            game=result.game,
            a=result.a,
            b=result.b,
            seed=result.seed,
        )
    ]
    for m, i in result.summary().items():
        verdict = _verdict(i.n, i.low > 0, i.high < 0, games=False)
        value = _("A - B per deal {interval}  ({verdict})", interval=_interval(i), verdict=verdict)
        lines.append(_row(_measure(m), value))
    return "\n".join(lines)


def format_games(result: MatchResult) -> str:
    """The report of duplicate games (:meth:`MatchResult.format`, translated)."""
    rate, (_share, low, high), margin = result.win_rate(), result.wilson(), result.margin()
    # both intervals must agree: the paired one can be too narrow over a
    # few pairs that all came out alike (zero spread)
    verdict = _verdict(rate.n, rate.low > 0.5 and low > 0.5, rate.high < 0.5 and high < 0.5, games=True)
    m_verdict = _verdict(margin.n, margin.low > 0, margin.high < 0, games=True)
    lines = [
        ngettext(
            "{game}: {a} (A) vs {b} (B), {n} duplicate game ({games} played), {format}, seed {seed}",
            "{game}: {a} (A) vs {b} (B), {n} duplicate games ({games} played), {format}, seed {seed}",
            result.pairs,
            game=result.game,
            a=result.a,
            b=result.b,
            games=result.games,
            format=message(result.match_format),
            seed=result.seed,
        ),
        _row(
            _("games won"),
            _("A {a}, B {b}, drawn {drawn}", a=result.wins_a, b=result.wins_b, drawn=result.draws),
        ),
        _row(
            _("A's win rate"),
            _(
                "{rate} paired  ({verdict}; Wilson [{low}, {high}])",
                rate=_interval(rate, 3, signed=False),
                verdict=verdict,
                low=number(low, ".3f"),
                high=number(high, ".3f"),
            ),
        ),
        _row(_("margin A - B per game"), f"{_interval(margin, 1)}  ({m_verdict})"),
        _row(_("deals per game"), number(result.deals_per_game(), ".1f")),
    ]
    if result.stopped:
        lines.append(
            _row(_("stopped unfinished"), _("{n} (at the deal cap, scored by the engine)", n=result.stopped))
        )
    return "\n".join(lines)
