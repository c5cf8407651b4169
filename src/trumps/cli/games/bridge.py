"""Command-line entry points for bridge, dispatched by the main CLI:

* ``trumps score bridge 4HX --vul --tricks 9`` → :func:`score_command`
  (and ``trumps score bridge --rubber RECORD`` for a whole rubber);
* ``trumps dd "N:..." [--par --vul NS --dealer E] [--json]`` → :func:`dd_command`.

Both take the arguments after the sub-command and return an exit status
(0 ok, 2 bad input, 3 solver missing), and speak the CLI's language.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from trumps.bridge.calls import Contract
from trumps.bridge.rubber import RubberSheet, score_rubber
from trumps.bridge.scoring import deal_score
from trumps.bridge.spec import SPEC
from trumps.cli.common import CliParser, add_lang_argument, in_language
from trumps.cli.lang import _, lang, translate_error
from trumps.cli.localized import LOCALIZED, contract_label, denom_label
from trumps.core.errors import TrumpsError

if TYPE_CHECKING:
    from trumps.bridge.dd import DDTable, Par

__all__ = ["dd_command", "score_command"]


class _Parser(CliParser):
    def error(self, message: str) -> NoReturn:
        raise TrumpsError(message)


def score_command(argv: list[str]) -> int:
    """Score one contract result (duplicate) or a whole rubber."""
    return in_language(argv, _score, prog="trumps score bridge")


def _score(argv: list[str]) -> int:
    args = list(argv)
    if args and args[0].strip().lower() in (SPEC.name, *SPEC.aliases):
        args = args[1:]
    p = _Parser(prog="trumps score bridge", description=_("Score a bridge contract or a rubber."))
    p.add_argument("contract", nargs="?", help=_("e.g. 4HX, 3NT, 7SXX"))
    p.add_argument("--vul", "--vulnerable", dest="vul", action="store_true", help=_("declarer is vulnerable"))
    p.add_argument("--tricks", type=int, help=_("tricks won by declarer's side (0-13)"))
    p.add_argument(
        "--rubber",
        metavar="RECORD",
        help=_(
            "a rubber: 'NS 2H 9; EW 3NT 9; NS 4S 10 NS100', a file of such lines, or a trumps game record (JSON)"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    add_lang_argument(p)
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
        print(f"trumps score bridge: {translate_error(str(exc))}", file=sys.stderr)
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
    heads = [_("deal"), _("We below"), _("We above"), _("They below"), _("They above")]
    w0, w1, w2 = (
        max(4, len(heads[0])),
        max(8, len(heads[1]), len(heads[2])),
        max(10, len(heads[3]), len(heads[4])),
    )
    lines = [f"{heads[0]:>{w0}}  {heads[1]:>{w1}} {heads[2]:>{w1}}  {heads[3]:>{w2}} {heads[4]:>{w2}}"]
    n = len(sheet.entries) - (1 if sheet.unfinished_bonus is not None else 0)
    for i, e in enumerate(sheet.entries, 1):
        label = str(i) if i <= n else _("end")
        lines.append(
            f"{label:>{w0}}  {e.below[0]:{w1}d} {e.above[0]:{w1}d}  {e.below[1]:{w2}d} {e.above[1]:{w2}d}"
        )
    t = sheet.totals()
    lines.append(
        _(
            "totals: We (NS) {we}, They (EW) {they}; games {games}",
            we=t[0],
            they=t[1],
            games=f"{sheet.games[0]}-{sheet.games[1]}",
        )
    )
    w = sheet.winner()
    if w is None:
        lines.append(_("the rubber is drawn"))
    else:
        units = abs(sheet.back_score()[0])
        diff = abs(t[0] - t[1])
        text = _("We (NS) win by {n}", n=diff) if w == 0 else _("They (EW) win by {n}", n=diff)
        if not sheet.over:
            text += " " + _("(unfinished rubber)")
        text += "; " + _(
            "back score {winner} each winner, {loser} each loser", winner=f"{units:+d}", loser=f"{-units:+d}"
        )
        lines.append(text)
    return "\n".join(lines)


def _dd_text(table: DDTable) -> str:
    """The double-dummy table (:meth:`DDTable.format`; in German and French
    with the suits' symbols and SA for no trumps)."""
    if lang() not in LOCALIZED:
        return table.format()
    heads = ["♣", "♦", "♥", "♠", denom_label("NT", lang())]
    lines = ["    " + "".join(f"{h:>4}" for h in heads)]
    for p, seat in enumerate("NESW"):
        lines.append(f"{seat}  " + "".join(f"{table.tricks[s][p]:4d}" for s in range(5)))
    return "\n".join(lines)


def _par_text(par: Par) -> str:
    """The par line (:meth:`Par.format`) in the CLI's language."""
    shown = sorted(
        _("{contract} by {seat}", contract=contract_label(c, lang()), seat=d) + (f" {r:+d}" if r else "")
        for c, d, r in par.contracts
    )
    return _(
        "Par {score} (NS): {contracts}",
        score=f"{par.score:+d}",
        contracts=", ".join(shown) or _("passed out"),
    )


def dd_command(argv: list[str]) -> int:
    """Print the double-dummy table of a deal, optionally with par."""
    return in_language(argv, _dd, prog="trumps dd")


def _dd(argv: list[str]) -> int:
    from trumps.bridge import dd

    p = _Parser(prog="trumps dd", description=_("Double-dummy table (and par) of a PBN deal."))
    p.add_argument("deal", help=_('PBN deal, e.g. "N:AKQ.. ... ... ..."'))
    p.add_argument("--par", action="store_true", help=_("also the par score and contracts"))
    p.add_argument("--vul", default="None", help=_("None, NS, EW or Both (for --par)"))
    p.add_argument("--dealer", default="N", help=_("N, E, S or W (for --par)"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    add_lang_argument(p)
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
        print(f"trumps dd: {translate_error(str(exc))}", file=sys.stderr)
        return 3
    except TrumpsError as exc:
        print(f"trumps dd: {translate_error(str(exc))}", file=sys.stderr)
        return 2
    if a.json:
        out: dict[str, Any] = {"deal": a.deal, "tricks": table.to_dict()}
        if par is not None:
            out["par"] = {**par.to_dict(), "vulnerable": vul, "dealer": a.dealer.upper()}
        print(json.dumps(out))
    else:
        print(_dd_text(table))
        if par is not None:
            print(_par_text(par))
    return 0
