"""Command-line entry points for bridge, dispatched by the main CLI:

* ``trumps score bridge 4HX --vul --tricks 9`` → :func:`score_command`
  (and ``trumps score bridge --rubber RECORD`` for a whole rubber);
* ``trumps dd "N:..." [--par --vul NS --dealer E] [--json]`` → :func:`dd_command`.

Both take the arguments after the sub-command and return an exit status
(0 ok, 2 bad input, 3 solver missing).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from trumps.bridge.calls import Contract
from trumps.bridge.rubber import RubberSheet, score_rubber
from trumps.bridge.scoring import deal_score
from trumps.core.errors import TrumpsError

__all__ = ["dd_command", "score_command"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise TrumpsError(message)


def score_command(argv: list[str]) -> int:
    """Score one contract result (duplicate) or a whole rubber."""
    args = list(argv)
    if args and args[0].lower() == "bridge":
        args = args[1:]
    p = _Parser(prog="trumps score bridge", description="Score a bridge contract or a rubber.")
    p.add_argument("contract", nargs="?", help="e.g. 4HX, 3NT, 7SXX")
    p.add_argument("--vul", "--vulnerable", dest="vul", action="store_true", help="declarer is vulnerable")
    p.add_argument("--tricks", type=int, help="tricks won by declarer's side (0-13)")
    p.add_argument(
        "--rubber",
        metavar="RECORD",
        help="a rubber: 'NS 2H 9; EW 3NT 9; NS 4S 10 NS100', a file of such lines, or a trumps game record (JSON)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    try:
        a = p.parse_args(args)
        if a.rubber is not None:
            text = a.rubber
            path = Path(text)
            if "\n" not in text and len(text) < 4096 and path.is_file():
                text = path.read_text(encoding="utf-8")
            sheet = _sheet_from_json(text) if text.lstrip().startswith("{") else score_rubber(text)
            print(json.dumps(_rubber_json(sheet)) if a.json else _rubber_text(sheet))
            return 0
        if a.contract is None or a.tricks is None:
            raise TrumpsError("give a contract and --tricks N (or --rubber RECORD)")
        c = Contract.parse(a.contract)
        score = deal_score(c, a.vul, a.tricks)
    except TrumpsError as exc:
        print(f"trumps score bridge: {exc}", file=sys.stderr)
        return 2
    if a.json:
        need = c.level + 6
        print(
            json.dumps(
                {
                    "contract": str(c),
                    "vulnerable": a.vul,
                    "tricks": a.tricks,
                    "result": a.tricks - need,
                    "score": score,
                }
            )
        )
    else:
        print(score)
    return 0


def _sheet_from_json(text: str) -> RubberSheet:
    """The sheet of a rubber game record (``trumps`` JSON), closed if unfinished."""
    import copy

    from trumps.bridge.game import Bridge

    game = Bridge.from_json(text)
    if game.rubber is None:
        raise TrumpsError("the game record is not a rubber (options.scoring is not 'rubber')")
    sheet = copy.deepcopy(game.rubber)
    if not sheet.over:
        sheet.finish()
    return sheet


def _rubber_json(sheet: RubberSheet) -> dict[str, Any]:
    entries = [e.to_dict() for e in sheet.entries]
    return {
        "deals": entries,
        "below": sheet.below,
        "above": sheet.above,
        "totals": sheet.totals(),
        "games": sheet.games,
        "finished": sheet.over,
        "winner": None if sheet.winner() is None else ("NS", "EW")[sheet.winner() or 0],
        "back_score": dict(zip("NESW", sheet.back_score(), strict=True)),
    }


def _rubber_text(sheet: RubberSheet) -> str:
    lines = [f"{'deal':>4}  {'We below':>8} {'We above':>8}  {'They below':>10} {'They above':>10}"]
    n = len(sheet.entries) - (1 if sheet.unfinished_bonus is not None else 0)
    for i, e in enumerate(sheet.entries, 1):
        label = str(i) if i <= n else "end"
        lines.append(f"{label:>4}  {e.below[0]:8d} {e.above[0]:8d}  {e.below[1]:10d} {e.above[1]:10d}")
    t = sheet.totals()
    lines.append(f"totals: We (NS) {t[0]}, They (EW) {t[1]}; games {sheet.games[0]}-{sheet.games[1]}")
    w = sheet.winner()
    if w is None:
        lines.append("the rubber is drawn")
    else:
        units = abs(sheet.back_score()[0])
        lines.append(
            f"{('We (NS)', 'They (EW)')[w]} win by {abs(t[0] - t[1])}"
            + ("" if sheet.over else " (unfinished rubber)")
            + f"; back score {units:+d} each winner, {-units:+d} each loser"
        )
    return "\n".join(lines)


def dd_command(argv: list[str]) -> int:
    """Print the double-dummy table of a deal, optionally with par."""
    from trumps.bridge import dd

    p = _Parser(prog="trumps dd", description="Double-dummy table (and par) of a PBN deal.")
    p.add_argument("deal", help='PBN deal, e.g. "N:AKQ.. ... ... ..."')
    p.add_argument("--par", action="store_true", help="also the par score and contracts")
    p.add_argument("--vul", default="None", help="None, NS, EW or Both (for --par)")
    p.add_argument("--dealer", default="N", help="N, E, S or W (for --par)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    try:
        a = p.parse_args(argv)
        vul = {"NONE": "None", "-": "None", "NS": "NS", "EW": "EW", "BOTH": "Both", "ALL": "Both"}.get(
            a.vul.strip().upper()
        )
        if vul is None:
            raise TrumpsError(f"--vul must be None, NS, EW or Both, not {a.vul!r}")
        table = dd.dd_table(a.deal)
        par = dd.par(table, vulnerable=vul, dealer=a.dealer) if a.par else None
    except dd.SolverMissing as exc:
        print(f"trumps dd: {exc}", file=sys.stderr)
        return 3
    except TrumpsError as exc:
        print(f"trumps dd: {exc}", file=sys.stderr)
        return 2
    if a.json:
        out: dict[str, Any] = {"deal": a.deal, "tricks": table.to_dict()}
        if par is not None:
            out["par"] = {**par.to_dict(), "vulnerable": vul, "dealer": a.dealer.upper()}
        print(json.dumps(out))
    else:
        print(table.format())
        if par is not None:
            print(par.format())
    return 0
