"""``trumps score coinche ...``: the one-deal score calculator a club player
reaches for when the table disagrees (the scoring rules: docs/rules/).

    trumps score coinche 100H --points 112 --belote taker
    trumps score coinche 90DX --points 95 --belote taker --preset common
    trumps score coinche CAPOT-H --capot --preset ffb_2016 --json
    trumps score coinche 80H --points 80 --preset contree_exact

``--points`` are the taker side's card points including the dix de der
(the defence has the rest of the deal total); ``--capot`` says the taker's
side won all eight tricks (``--defence-capot``: the defence did),
``--generale`` that the taker won them alone.  ``--option key=value``
overrides single options on top of the preset.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from trumps.cli.common import CliParser, UsageError, add_lang_argument, in_language, parse_options
from trumps.cli.lang import _
from trumps.coinche.calls import Contract
from trumps.coinche.options import PRESETS, resolve_options
from trumps.coinche.play import rules_for
from trumps.coinche.scoring import score

__all__ = ["build_parser", "score_command"]


def build_parser() -> CliParser:
    p = CliParser(
        prog="trumps score coinche",
        description=_("Score one deal of Belote Coinche under any preset."),
    )
    p.add_argument("contract", help=_("e.g. 100H, 90DX (coinched), 120SXX, 100NT, 90AT, CAPOT-H, GENERALE-S"))
    p.add_argument("--points", type=int, default=None, help=_("taker side's card points incl. dix de der"))
    p.add_argument(
        "--defence-points", type=int, default=None, help=_("defence card points (default: the rest)")
    )
    p.add_argument("--preset", default="common", choices=sorted(PRESETS))
    p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument(
        "--belote", choices=["none", "taker", "defence"], default="none", help=_("who held the belote (20)")
    )
    p.add_argument(
        "--belote-taker", type=int, default=None, help=_("taker side's belote points (e.g. 40 in AT)")
    )
    p.add_argument("--belote-defence", type=int, default=None, help=_("defence's belote points"))
    p.add_argument("--melds-taker", type=int, default=0, help=_("melds won by the taker side"))
    p.add_argument("--melds-defence", type=int, default=0, help=_("melds won by the defence"))
    p.add_argument("--capot", action="store_true", help=_("the taker's side won all 8 tricks"))
    p.add_argument("--defence-capot", action="store_true", help=_("the defence won all 8 tricks"))
    p.add_argument("--generale", action="store_true", help=_("the taker won all 8 tricks alone"))
    p.add_argument("--json", action="store_true", help=_("print the result as JSON"))
    add_lang_argument(p)
    return p


def score_command(argv: Sequence[str] | None = None) -> int:
    """Run the calculator; 0 on success, 2 on bad input (one ``trumps: error:``
    line on stderr)."""
    return in_language(sys.argv[1:] if argv is None else argv, _score)


def _score(argv: list[str]) -> int:
    a = build_parser().parse_args(argv)
    options = parse_options(a.option)
    if (a.capot or a.generale) and a.defence_capot:
        raise UsageError("--capot / --generale and --defence-capot exclude each other")
    tricks = 8 if (a.capot or a.generale) else 0 if a.defence_capot else None
    points = a.points
    if points is None:
        if tricks is None:
            raise UsageError("give --points (or --capot / --defence-capot / --generale)")
        contract = Contract.parse(a.contract)
        total = rules_for(contract.denom, resolve_options(a.preset, options or None)).total
        points = total if tricks == 8 else 0
    bt = a.belote_taker if a.belote_taker is not None else (20 if a.belote == "taker" else 0)
    bd = a.belote_defence if a.belote_defence is not None else (20 if a.belote == "defence" else 0)
    result = score(
        a.contract, points, preset=a.preset, options=options or None,
        defence_points=a.defence_points, taker_tricks=tricks, alone=a.generale,
        belote_taker=bt, belote_defence=bd, melds_taker=a.melds_taker, melds_defence=a.melds_defence,
    )  # fmt: skip
    if a.json:
        print(json.dumps({"preset": a.preset, **result}, sort_keys=True))
        return 0
    t = result["contract_totals"]
    verdict = _("made") if result["made"] else _("failed")
    print(
        _(
            "{contract} under {preset}: {result} (totals taker {taker} / defence {defence})",
            contract=result["contract"],
            preset=a.preset,
            result=verdict,
            taker=t["taker"],
            defence=t["defence"],
        )
    )
    print(_("taker side {taker}   defence {defence}", taker=result["taker"], defence=result["defence"]))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(score_command())
