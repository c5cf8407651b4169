"""Command-line entry points for bridge, dispatched by the main CLI:

* ``trumps score bridge 4HX --vul --tricks 9`` → :func:`score_command`
  (``--pbn FILE [--board N]`` scores a board of a PBN or LIN file, and
  ``trumps score bridge --rubber RECORD`` a whole rubber);
* ``trumps dd "N:..." [--par --vul NS --dealer E] [--json]`` → :func:`dd_command`
  (or ``trumps dd FILE.pbn [--board N]``: a board of a PBN or LIN file).

Both take the arguments after the sub-command and return an exit status
(0 ok, 2 bad input, with one ``trumps: error:`` line), and speak the CLI's
language.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from trumps.bridge.calls import Contract
from trumps.bridge.rubber import RubberSheet, score_rubber
from trumps.bridge.scoring import deal_score, vulnerable_sides
from trumps.bridge.spec import SPEC
from trumps.cli.boards import board_number, is_deal_text, read_board
from trumps.cli.common import CliParser, UsageError, add_lang_argument, in_language
from trumps.cli.lang import _, lang
from trumps.cli.localized import LOCALIZED, contract_label, denom_label
from trumps.core.errors import TrumpsError

if TYPE_CHECKING:
    from trumps.bridge.dd import DDTable, Par
    from trumps.core.json_types import JSONDict

__all__ = ["dd_command", "score_command"]

#: The longest text ``--rubber`` reads as a record rather than a file name.
_RECORD_LIMIT = 4096


def score_command(argv: list[str]) -> int:
    """Score one contract result (duplicate), a board of a file, or a whole rubber."""
    return in_language(argv, _score)


def _score_parser() -> CliParser:
    p = CliParser(
        prog="trumps score bridge",
        description=_("Score a bridge contract, a board of a PBN or LIN file, or a rubber."),
    )
    p.add_argument("contract", nargs="?", help=_("e.g. 4HX, 3NT, 7SXX"))
    p.add_argument("--vul", "--vulnerable", dest="vul", action="store_true", help=_("declarer is vulnerable"))
    p.add_argument("--tricks", type=int, help=_("tricks won by declarer's side (0-13)"))
    p.add_argument(
        "--pbn",
        "--lin",
        dest="file",
        metavar="FILE",
        help=_("score a board of a PBN or LIN file (its contract, declarer, vulnerability and result)"),
    )
    p.add_argument("--board", type=board_number, metavar="N", help=_("the board of a file of several"))
    p.add_argument(
        "--rubber",
        metavar="RECORD",
        help=_(
            "a rubber: 'NS 2H 9; EW 3NT 9; NS 4S 10 NS100', a file of such lines, or a trumps game record (JSON)"
        ),
    )
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    add_lang_argument(p)
    return p


def _score(argv: list[str]) -> int:
    args = list(argv)
    if args and args[0].strip().lower() in (SPEC.name, *SPEC.aliases):
        args = args[1:]
    a = _score_parser().parse_args(args)
    if a.board is not None and a.file is None:
        raise UsageError("--board picks a board of a PBN or LIN file: give --pbn FILE")
    if a.rubber is not None:
        if a.file is not None or a.contract is not None:
            raise UsageError("--rubber scores a whole rubber: give no contract and no --pbn")
        text = a.rubber
        if "\0" in text:
            raise UsageError("--rubber: the record holds a NUL byte")
        path = Path(text)
        if "\n" not in text and len(text) < _RECORD_LIMIT and path.is_file():
            text = path.read_text(encoding="utf-8")
        sheet = _sheet_from_json(text) if text.lstrip().startswith("{") else score_rubber(text)
        print(json.dumps(_rubber_json(sheet)) if a.json else _rubber_text(sheet))
        return 0
    if a.file is not None:
        if a.contract is not None:
            raise UsageError("give a contract or --pbn FILE, not both")
        rec = read_board(a.file, a.board, same="result")
        where = f"{a.file}, board {rec.board if rec.board is not None else a.board or 1}"
        if rec.passed_out:
            raise UsageError(f"{where} was passed out: there is nothing to score")
        if rec.contract is None or rec.declarer is None:
            raise UsageError(f"{where} has no contract and declarer")
        c = rec.contract
        vul = a.vul or vulnerable_sides(rec.vulnerable or "None")[rec.declarer & 1]
        tricks = a.tricks if a.tricks is not None else rec.result
        if tricks is None:
            raise UsageError(f"{where} has no result: give --tricks N")
    else:
        if a.contract is None or a.tricks is None:
            raise UsageError("give a contract and --tricks N (or --pbn FILE, or --rubber RECORD)")
        c = Contract.parse(a.contract)
        vul, tricks = a.vul, a.tricks
    score = deal_score(c, vul, tricks)
    if a.json:
        need = c.level + 6
        print(
            json.dumps(
                {
                    "contract": str(c),
                    "vulnerable": vul,
                    "tricks": tricks,
                    "result": tricks - need,
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


def _rubber_json(sheet: RubberSheet) -> JSONDict:
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
    return in_language(argv, _dd)


_VUL_WORDS = {"NONE": "None", "-": "None", "NS": "NS", "EW": "EW", "BOTH": "Both", "ALL": "Both"}


def _dd(argv: list[str]) -> int:
    from trumps.bridge import dd
    from trumps.bridge.hands import format_deal

    p = CliParser(
        prog="trumps dd",
        description=_("Double-dummy table (and par) of a deal: a PBN deal, or a board of a PBN or LIN file."),
    )
    p.add_argument(
        "deal", help=_('a PBN deal, e.g. "N:AKQ.. ... ... ...", or a PBN or LIN file (FILE.pbn, FILE.lin)')
    )
    p.add_argument("--board", type=board_number, metavar="N", help=_("the board of a file of several"))
    p.add_argument("--par", action="store_true", help=_("also the par score and contracts"))
    p.add_argument(
        "--vul", default=None, help=_("None, NS, EW or Both (for --par; default the file's, else None)")
    )
    p.add_argument("--dealer", default=None, help=_("N, E, S or W (for --par; default the file's, else N)"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    add_lang_argument(p)
    a = p.parse_args(argv)
    if not a.deal.strip():
        raise UsageError("the deal is empty: give a PBN deal (N:S.H.D.C ...) or a PBN or LIN file")
    vul_text, dealer = a.vul, a.dealer
    board: int | None = None
    if is_deal_text(a.deal):
        if a.board is not None:
            raise UsageError("--board picks a board of a PBN or LIN file, not of a deal")
        deal = a.deal
    else:
        rec = read_board(a.deal, a.board)
        assert rec.hands is not None  # read_board checks
        deal = format_deal(rec.hands)
        board = rec.board if rec.board is not None else a.board
        if vul_text is None and rec.vulnerable is not None:
            vul_text = rec.vulnerable
        if dealer is None and rec.dealer is not None:
            dealer = "NESW"[rec.dealer]
    vul = _VUL_WORDS.get((vul_text or "None").strip().upper())
    if vul is None:
        raise UsageError(f"--vul must be None, NS, EW or Both, not {vul_text!r}")
    dealer = (dealer or "N").strip().upper()
    if dealer not in ("N", "E", "S", "W"):
        raise UsageError(f"--dealer must be N, E, S or W, not {a.dealer!r}")
    table = dd.dd_table(deal)
    par = dd.par(table, vulnerable=vul, dealer=dealer) if a.par else None
    if a.json:
        out: JSONDict = {"deal": deal, "tricks": table.to_dict()}
        if board is not None:
            out["board"] = board
        if par is not None:
            out["par"] = {**par.to_dict(), "vulnerable": vul, "dealer": dealer}
        print(json.dumps(out))
    else:
        print(_dd_text(table))
        if par is not None:
            print(_par_text(par))
    return 0
