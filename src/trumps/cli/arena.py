"""``trumps arena GAME --a BOT --b BOT --deals N --seed S``: a duplicate
match between two bots (see :mod:`trumps.bots.arena`).

Prints A's mean gain per deal with its 95% confidence interval (500: points;
Coinche: deal score and card points; Bridge: IMPs per board); ``--json``
prints the summary as JSON instead.
"""

from __future__ import annotations

import json
import sys

from trumps.cli.common import CliParser, add_option_arguments, guarded, parse_options

__all__ = ["main"]


def build_parser() -> CliParser:
    p = CliParser(prog="trumps arena", description="Duplicate match between two bots.")
    p.add_argument("game", help="500, bridge or coinche")
    p.add_argument(
        "--a", default="normal", help="bot A: easy, normal, strong, rules, random (default normal)"
    )
    p.add_argument("--b", default="easy", help="bot B (default easy)")
    p.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument(
        "--progress", action="store_true", help="print the running result on stderr as deals finish"
    )
    p.add_argument("--every", type=int, default=50, help="deals between --progress lines (default 50)")
    add_option_arguments(p)
    return p


def main(argv: list[str]) -> int:
    """Run the arena; returns the exit status."""

    def run() -> int:
        from trumps.bots.arena import DealOutcome, duplicate_match, interval

        args = build_parser().parse_args(argv)
        options = parse_options(args.option)
        if args.preset:
            options["preset"] = args.preset

        seen: list[DealOutcome] = []

        def progress(done: int, outcome: DealOutcome) -> None:
            seen.append(outcome)
            if args.progress and done % max(1, args.every) == 0:
                parts = [
                    f"{m} {interval([d.gains[m] for d in seen]).format()}" for m in sorted(outcome.gains)
                ]
                print(f"  {done} deals: " + ", ".join(parts), file=sys.stderr, flush=True)

        result = duplicate_match(
            args.game,
            args.a,
            args.b,
            deals=args.deals,
            seed=args.seed,
            options=options,
            jobs=max(1, args.jobs),
            progress=progress,
        )
        if args.json:
            print(json.dumps(result.to_dict(), indent=2))
        else:
            print(result.format())
        return 0

    return guarded(run)
