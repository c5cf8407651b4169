"""The 500 commands of the ``trumps`` command line: ``trumps score 500 ...``.

>>> score_command(["8H", "--tricks", "9"])
8H (300), bidders took 9 tricks: made
bidders: +300
defenders: +10
0
"""

from __future__ import annotations

from trumps.cli.common import (
    CliParser,
    add_lang_argument,
    add_option_arguments,
    in_language,
    int_list,
    parse_options,
    split_negative_values,
)
from trumps.cli.lang import _, ngettext

__all__ = ["score_command"]


def _parser() -> CliParser:
    p = CliParser(
        prog="trumps score 500",
        description=_("Each team's points for one deal of 500."),
    )
    p.add_argument("contract", help=_("the contract: 6S .. 10NT, MIS, OMIS"))
    p.add_argument("--tricks", "-t", type=int, required=True, help=_("tricks the bidding team took (0-10)"))
    add_option_arguments(p)
    p.add_argument(
        "--defender-tricks",
        type=int_list,
        metavar="A,B",
        help=_("tricks of each defending team (default: the rest of the ten)"),
    )
    p.add_argument(
        "--scores",
        type=int_list,
        metavar="X,Y",
        help=_("scores before the deal, bidders first (for the must-bid-to-win cap)"),
    )
    add_lang_argument(p)
    return p


def score_command(argv: list[str]) -> int:
    """``trumps score 500 CONTRACT --tricks N [...]``: prints the points."""
    return in_language(argv, _score)


def _score(argv: list[str]) -> int:
    from trumps.five_hundred.scoring import score

    args = _parser().parse_args(split_negative_values(argv, ("--scores", "--defender-tricks")))
    options = parse_options(args.option) or None
    result = score(
        args.contract,
        args.tricks,
        preset=args.preset,
        options=options,
        defender_tricks=args.defender_tricks,
        scores=args.scores,
    )
    made = _("made") if result["made"] else _("failed")
    print(
        ngettext(
            "{contract} ({value}), bidders took {n} trick: {result}",
            "{contract} ({value}), bidders took {n} tricks: {result}",
            args.tricks,
            contract=result["contract"],
            value=result["value"],
            result=made,
        )
    )
    totals = result["totals"]
    shown = args.scores is not None

    def line(label: str, points: int, total: int) -> str:
        text = _("{label}: {value}", label=label, value=f"{points:+d}")
        return text + (" " + _("(total {total})", total=total) if shown else "")

    print(line(_("bidders"), result["bidders"], totals[0]))
    defenders = result["defenders"]
    for i, pts in enumerate(defenders):
        label = _("defenders") if len(defenders) == 1 else _("defenders {n}", n=i + 1)
        print(line(label, pts, totals[i + 1]))
    return 0
