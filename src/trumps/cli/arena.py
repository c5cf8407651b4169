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
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from trumps.cli.common import CliParser, UsageError, add_option_arguments, guarded, parse_options

__all__ = ["main"]

DEFAULT_DEALS = 100

EPILOG = """\
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


def build_parser() -> CliParser:
    p = CliParser(
        prog="trumps arena",
        description="Duplicate match between two bots: single deals (--deals) or whole games (--games).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", help="500, bridge or coinche")
    p.add_argument(
        "--a",
        default="normal",
        help="bot A: easy, normal, strong, rules, random, module:Class, or for coinche colver:AGENT "
        "(heuristic, ismcts, smart_ismcts, random: needs pip install trumps[arena]) (default normal)",
    )
    p.add_argument("--b", default="easy", help="bot B (default easy)")
    p.add_argument(
        "--deals", type=int, default=None, help=f"duplicate deals (default {DEFAULT_DEALS} without --games)"
    )
    p.add_argument(
        "--games", type=int, default=None, help="duplicate games in the match format (each played twice)"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the first deal or game (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--max-deals",
        type=int,
        default=None,
        help="--games: a game still going after this many deals is an error; a bridge rubber is "
        "stopped and scored as unfinished (default 200)",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--progress",
        action="store_true",
        help="print the running result on stderr as deals (or duplicate games) finish",
    )
    p.add_argument(
        "--every",
        type=int,
        default=None,
        help="deals (or games) between --progress lines (default 50 deals, 5 games)",
    )
    add_option_arguments(p)
    return p


def main(argv: list[str]) -> int:
    """Run the arena; returns the exit status."""

    def run() -> int:
        args = build_parser().parse_args(argv)
        options = parse_options(args.option)
        if args.preset:
            options["preset"] = args.preset
        if args.games is not None:
            if args.deals is not None:
                raise UsageError(
                    "--games and --deals cannot be combined: --deals plays single deals, --games whole games"
                )
            return _games(args, options)
        if args.max_deals is not None:
            raise UsageError("--max-deals only applies with --games")
        return _deals(args, options)

    return guarded(run)


def _deals(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from trumps.bots.arena import DealOutcome, duplicate_match, interval

    every = max(1, args.every or 50)
    seen: list[DealOutcome] = []

    def progress(done: int, outcome: DealOutcome) -> None:
        seen.append(outcome)
        if args.progress and done % every == 0:
            parts = [f"{m} {interval([d.gains[m] for d in seen]).format()}" for m in sorted(outcome.gains)]
            print(f"  {done} deals: " + ", ".join(parts), file=sys.stderr, flush=True)

    result = duplicate_match(
        args.game,
        args.a,
        args.b,
        deals=DEFAULT_DEALS if args.deals is None else args.deals,
        seed=args.seed,
        options=options,
        jobs=max(1, args.jobs),
        progress=progress,
    )
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.format())
    return 0


def _games(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from trumps.bots.arena_match import MAX_DEALS, MatchResult, PairOutcome, duplicate_games

    every = max(1, args.every or 5)
    running = MatchResult(args.game, args.a, args.b, args.seed, "")

    def progress(done: int, outcome: PairOutcome) -> None:
        running.per_pair.append(outcome)
        if args.progress and done % every == 0:
            rate, margin = running.win_rate(), running.margin()
            print(
                f"  {done} duplicate games: won A {running.wins_a}, B {running.wins_b}, "
                f"drawn {running.draws}; A's win rate {rate.mean:.3f} [{rate.low:.3f}, {rate.high:.3f}]; "
                f"margin {margin.format(1)}",
                file=sys.stderr,
                flush=True,
            )

    result = duplicate_games(
        args.game,
        args.a,
        args.b,
        games=args.games,
        seed=args.seed,
        options=options,
        jobs=max(1, args.jobs),
        max_deals=MAX_DEALS if args.max_deals is None else args.max_deals,
        progress=progress,
    )
    print(json.dumps(result.to_dict(), indent=2) if args.json else result.format())
    return 0
