"""``trumps solve GAME``: the double-dummy value of every legal card.

    trumps solve bridge --deal "N:AKQ.. ... ... ..." --contract 3NT --declarer S
    trumps solve 500 --deal "N=JS AS ...;E=...;S=...;W=..." --contract 7NT --declarer N --json
    trumps solve coinche --seed 4 --contract 100H --declarer E --play "AH 7H"
    trumps solve --pbn boards.pbn --board 3          (bridge: the board's deal and contract)

The deal is bridge PBN (``N:`` then four hands ``S.H.D.C``), or for any game
``SEAT=CARDS`` groups separated by ``;`` (cards as the engine writes them,
space- or comma-separated, or the hand form ``AKQ.JT9.876.543+RJ``; 500 may
add ``kitty=...``, else the kitty is the cards not dealt), or a JSON object
of the same; without ``--deal`` a seeded random deal (``--seed``).  The deal
starts at its first lead under ``--contract``/``--declarer``; ``--play``
applies cards (500 joker leads in no trumps as ``RJ:C``) to reach a later
position; ``--leader`` makes another seat lead the first trick.
``--pbn FILE`` (or ``--lin FILE``) takes a bridge board of a PBN or LIN file
(``--board N`` in a file of several), with its contract and declarer unless
``--contract``/``--declarer`` say otherwise.

The report is in the CLI's language; in German and French the cards show
the players' letters with the engine's notation beside them (``D♥ [QH]``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

import trumps
from trumps.cli.boards import board_number, read_board
from trumps.cli.common import (
    CliParser,
    UsageError,
    add_lang_argument,
    add_option_arguments,
    in_language,
    parse_options,
)
from trumps.cli.lang import _, lang, pgettext
from trumps.cli.localized import LOCALIZED, card_label
from trumps.core.errors import DealError
from trumps.core.seats import parse_seat
from trumps.solver import ENGINES, Solution, position_of, solve

if TYPE_CHECKING:
    from trumps.core.json_types import JSONDict
    from trumps.core.protocol import Deal, Match

__all__ = ["main", "parse_deal_text"]


def parse_deal_text(game: str, text: str) -> Mapping[str, object] | str:
    """The ``--deal`` text as ``new_game`` takes it: bridge PBN stays a
    string; ``SEAT=CARDS;...`` and JSON objects become a mapping."""
    t = text.strip()
    if t.startswith("{"):
        try:
            data = json.loads(t)
        except json.JSONDecodeError as exc:
            raise DealError(f"--deal: not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise DealError("--deal: a JSON deal is an object of seats to cards")
        return data
    if "=" not in t:
        if trumps.game_spec(game).deal_notation:  # the game reads its own deal text (bridge: PBN)
            return t
        raise DealError("--deal: write SEAT=CARDS groups separated by ';' (e.g. N=AS KS ...;E=...)")
    out: dict[str, str] = {}
    for part in t.split(";"):
        if not part.strip():
            continue
        key, sep, cards = part.partition("=")
        if not sep or not key.strip():
            raise DealError(f"--deal: {part.strip()!r} is not SEAT=CARDS")
        out[key.strip()] = cards.replace(",", " ").strip()
    return out


def _parser() -> CliParser:
    p = CliParser(
        prog="trumps solve", description=_("Double-dummy value of each legal card from a position.")
    )
    p.add_argument(
        "game", nargs="?", help=_("{games} (default bridge with --pbn)", games=", ".join(trumps.games()))
    )
    p.add_argument(
        "--deal",
        help=_(
            "the hands: a bridge PBN deal 'N:S.H.D.C ...', or SEAT=CARDS groups separated by ';', "
            "or a JSON object of seats to cards"
        ),
    )
    p.add_argument(
        "--pbn",
        "--lin",
        dest="file",
        metavar="FILE",
        help=_("a bridge board of a PBN or LIN file (its deal, contract and declarer)"),
    )
    p.add_argument("--board", type=board_number, metavar="N", help=_("the board of a file of several"))
    p.add_argument("--seed", type=int, help=_("a seeded random deal instead of --deal"))
    p.add_argument("--contract", help=_("e.g. 7NT, MIS (500), 3NT (bridge), 100H (coinche)"))
    p.add_argument("--declarer", help=_("the declaring (contracting) seat (default N / 0)"))
    p.add_argument("--leader", help=_("the seat to lead the first trick (default: the game's rule)"))
    p.add_argument("--play", default="", help=_("cards already played, in order (e.g. 'AS 2S RJ:C')"))
    p.add_argument("--engine", default="auto", choices=ENGINES, help=_("auto (C if built), c or python"))
    p.add_argument("--json", action="store_true", help=_("machine-readable output"))
    add_option_arguments(p)
    add_lang_argument(p)
    return p


def main(argv: list[str]) -> int:
    """Entry point of ``trumps solve``."""
    return in_language(argv, _run)


def _file_game() -> str:
    """The game of the boards of PBN and LIN files: the one whose spec names a PBN module."""
    from trumps.core.registry import specs

    for spec in specs():
        if spec.has("pbn"):
            return spec.name
    raise UsageError("no game of this installation reads PBN or LIN files")


def _run(argv: list[str]) -> int:
    a = _parser().parse_args(argv)
    sources = [
        name for name, v in (("--deal", a.deal), ("--seed", a.seed), ("--pbn", a.file)) if v is not None
    ]
    if len(sources) > 1:
        raise UsageError(f"give one of --deal, --seed and --pbn, not {' and '.join(sources)}")
    if a.board is not None and a.file is None:
        raise UsageError("--board picks a board of a PBN or LIN file: give --pbn FILE")
    contract, declarer = a.contract, a.declarer
    deal: Mapping[str, object] | str | None = None
    game = a.game
    if a.file is not None:
        file_game = _file_game()
        if game is None:
            game = file_game
        if trumps.game_class(game) is not trumps.game_class(file_game):
            raise UsageError(f"a PBN or LIN file holds {file_game} boards, not {game} deals")
        from trumps.bridge.hands import format_deal

        rec = read_board(a.file, a.board)
        assert rec.hands is not None  # read_board checks
        deal = format_deal(rec.hands)
        where = f"{a.file}, board {rec.board if rec.board is not None else a.board or 1}"
        if contract is None:
            if rec.contract is None:
                why = "was passed out" if rec.passed_out else "has no contract"
                raise UsageError(f"{where} {why}: give --contract")
            contract = str(rec.contract)
        if declarer is None and rec.declarer is not None:
            declarer = "NESW"[rec.declarer]
    elif game is None:
        raise UsageError("give the game: trumps solve GAME ... (or --pbn FILE for a bridge board)")
    if contract is None:
        raise UsageError("give the contract: --contract (e.g. 3NT)")
    if a.deal is not None:
        deal = parse_deal_text(game, a.deal)
    match = trumps.new_game(
        game,
        preset=a.preset,
        options=parse_options(a.option),
        seed=a.seed if a.seed is not None else (None if deal is not None else 0),
        deal=deal,
        contract=contract,
        declarer=declarer if declarer is not None else "0",
    )
    for action in a.play.replace(",", " ").split():
        if match.is_over or match.deal.phase != "PLAY":
            raise UsageError(f"--play: the deal is over before {action}")
        match.apply(action)
    pos = position_of(match)
    if a.leader is not None:
        started = bool(pos.trick) or bool(match.view(None).get("tricks"))
        if started:
            raise UsageError("--leader only applies before the first card is played")
        seat = parse_seat(a.leader, match.players)
        if seat not in pos.active:
            raise UsageError(f"--leader: {match.seat_name(seat)} does not play this deal")
        pos.to_play = seat
    sol = solve(pos, engine=a.engine)
    if a.json:
        print(json.dumps(_json(match, pos.game, contract, sol)))
    else:
        print(_text(match, contract, sol))
    return 0


def _json(match: Match[Deal], game: str, contract: str, sol: Solution) -> JSONDict:
    return {
        "game": game,
        "contract": contract,
        "to_play": match.seat_name(sol.seat),
        "maximising": sol.maximising,
        "unit": sol.unit,
        "values": sol.values,
        "best": sol.best,
        "nodes": sol.nodes,
        "engine": sol.engine,
    }


def _shown(move: str) -> str:
    """A move as the report shows it: the notation, and in German and French
    the players' letters first (``D♥ [QH]``)."""
    if lang() not in LOCALIZED:
        return move
    label = card_label(move, lang())
    return move if label == move else f"{label} [{move}]"


def _text(match: Match[Deal], contract: str, sol: Solution) -> str:
    seat = match.seat_name(sol.seat)
    unit = {"tricks": pgettext("unit", "tricks"), "points": pgettext("unit", "points")}.get(
        sol.unit, sol.unit
    )
    if sol.maximising:
        wants = _(
            "values are the declaring side's final {unit} ({seat} wants more; * = best)", unit=unit, seat=seat
        )
    else:
        wants = _(
            "values are the declaring side's final {unit} ({seat} wants fewer; * = best)",
            unit=unit,
            seat=seat,
        )
    lines = [_("{contract}: {seat} to play; {values}", contract=contract, seat=seat, values=wants)]
    shown = {m: _shown(m) for m in sol.values}
    width = max(len(m) for m in shown.values())
    for move, value in sol.values.items():
        mark = "  *" if move in sol.best else ""
        lines.append(f"  {shown[move]:<{width}}  {value:>3}{mark}")
    return "\n".join(lines)
