"""Terminal rendering of a seat's view with rich, generic over the view keys
every game shares (``hands``, ``trick``, ``auction``, ``contract``,
``scores``, ``tricks_won``, ``legal``, ``phase``, ``to_act``, ``dealer``,
``exposed``, ``results``), so a new game's views render without changes.

:class:`Screen` remembers what the player last saw, so that at each turn
only the parts that changed are drawn again (``trumps play``).

Everything is worded in the CLI's language (:mod:`trumps.cli.lang`); in
German and French the cards show the players' letters (``D♥`` is the queen
of hearts, :mod:`trumps.cli.localized`).

>>> card_text("TH").plain, call_text("i6S").plain, card_text("RJ:C").plain
('10♥', 'i6♠', 'RJ→♣')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from trumps.cli.lang import _, lang, ngettext, pgettext, styled
from trumps.cli.localized import denom_label, joker_label, rank_label
from trumps.core.json_types import JSON, JSONObject

__all__ = [
    "Screen",
    "action_text",
    "call_text",
    "card_text",
    "deal_summary",
    "game_over_text",
    "hand_text",
    "legal_text",
    "phase_word",
    "render_view",
    "team_names",
    "view_list",
    "view_object",
    "view_strs",
]

_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
_CARD = re.compile(r"^(10|1[123]|[2-9TJQKA])([SHDC])$")
_CALL = re.compile(r"^(i?)(\d+)(S|H|D|C|NT|AT|SA)$")
_SUIT_ORDER = "SHDC"
_RANK_ORDER = {
    r: i
    for i, r in enumerate(
        ["A", "K", "Q", "J", "13", "12", "11", "T", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    )
}


def _suit(code: str) -> Text:
    return Text(_SYMBOL.get(code, code), style=_STYLE.get(code, ""))


def card_text(card: str) -> Text:
    """``TH`` -> ``10♥`` (red); ``RJ`` stays ``RJ``; ``RJ:C`` -> ``RJ→♣``."""
    head, sep, tail = card.partition(":")
    if sep:
        out = card_text(head)
        out.append("→")
        out.append_text(_suit(tail))
        return out
    if head in ("RJ", "BJ"):
        return Text(joker_label(head, lang()), style="bold magenta" if head == "RJ" else "bold")
    m = _CARD.match(head)
    if not m:
        return Text(card)
    rank, suit = m.groups()
    out = Text(rank_label(rank, lang()), style=_STYLE[suit])
    out.append_text(_suit(suit))
    return out


def call_text(call: str) -> Text:
    """An auction call: ``7H`` -> ``7♥``, ``i6S`` -> ``i6♠``, ``P`` -> ``pass``."""
    if call == "P":
        return Text(pgettext("call", "pass"), style="dim")
    m = _CALL.match(call)
    if m:
        inkle, level, denom = m.groups()
        out = Text(inkle + level)
        out.append_text(_suit(denom) if denom in _SYMBOL else Text(denom_label(denom, lang()), style="bold"))
        return out
    if lang() != "en":
        kind, dash, denom = call.partition("-")
        word = {"CAPOT": "Capot", "GENERALE": "Générale"}.get(kind)
        if dash and word:  # coinche: CAPOT-H -> Capot ♥
            out = Text(word + " ", style="bold")
            out.append_text(
                _suit(denom) if denom in _SYMBOL else Text(denom_label(denom, lang()), style="bold")
            )
            return out
    return Text(call, style="bold")


def action_text(action: str) -> Text:
    """A card, a joker lead or a call, whichever ``action`` is."""
    head = action.partition(":")[0]
    if head in ("RJ", "BJ") or _CARD.match(head):
        return card_text(action)
    card, plus, tail = action.partition("+")
    if plus and tail == "BELOTE" and _CARD.match(card) and lang() != "en":  # coinche: KH+BELOTE
        out = card_text(card)
        out.append(" + Belote", style="bold")
        return out
    return call_text(action)


def hand_text(cards: Sequence[str]) -> Text:
    """A hand grouped by suit (S H D C, high to low), jokers last."""
    groups: dict[str, list[str]] = {s: [] for s in _SUIT_ORDER}
    others: list[str] = []
    for c in cards:
        m = _CARD.match(c)
        if m:
            groups[m.group(2)].append(m.group(1))
        else:
            others.append(c)
    out = Text()
    first = True
    for s in _SUIT_ORDER:
        ranks = sorted(groups[s], key=lambda r: _RANK_ORDER.get(r, 99))
        if not ranks:
            continue
        if not first:
            out.append("   ")
        first = False
        out.append_text(_suit(s))
        out.append(" " + " ".join(rank_label(r, lang()) for r in ranks), style=_STYLE[s])
    for j in others:
        if not first:
            out.append("   ")
        first = False
        out.append_text(card_text(j))
    return out if not first else Text("—", style="dim")


def view_list(value: JSON) -> Sequence[JSON]:
    """A list of a view (``[]`` for null or a missing key)."""
    return value if isinstance(value, Sequence) and not isinstance(value, str) else []


def view_object(value: JSON) -> JSONObject:
    """An object of a view (``{}`` for null or a missing key)."""
    return value if isinstance(value, Mapping) else {}


def view_strs(value: JSON) -> list[str]:
    """A list of cards, seats or calls of a view."""
    return [str(v) for v in view_list(value)]


def team_names(view: JSONObject) -> list[str]:
    """``["NS", "EW"]`` at a four-seat table, ``["0+3", ...]`` with six."""
    names = []
    for team in view_list(view.get("teams")):
        seats = view_strs(team)
        names.append("".join(seats) if all(len(s) == 1 and s.isalpha() for s in seats) else "+".join(seats))
    return names


def _team_of(view: JSONObject, seat: JSON) -> int | None:
    for t, team in enumerate(view_list(view.get("teams"))):
        if seat in view_list(team):
            return t
    return None


def legal_text(legal: Sequence[str], width: int = 78) -> Text:
    """The numbered list of legal actions."""
    out = Text()
    line = 0
    for i, a in enumerate(legal, 1):
        item = Text(f"{i}) ", style="cyan")
        item.append_text(action_text(a))
        if a != action_text(a).plain:
            item.append(f" [{a}]", style="dim")
        if line and line + len(item.plain) + 2 > width:
            out.append("\n")
            line = 0
        elif line:
            out.append("  ")
            line += 2
        out.append_text(item)
        line += len(item.plain)
    return out


def _auction_table(view: JSONObject) -> Table | None:
    auction = [view_object(entry) for entry in view_list(view.get("auction"))]
    if not auction:
        return None
    seats = view_strs(view.get("seats"))
    if view.get("direction") == "anticlockwise":
        seats = seats[:1] + seats[1:][::-1]
    first = auction[0].get("seat")
    if (
        isinstance(first, str) and first in seats
    ):  # columns from the first speaker, so rounds read left to right
        i = seats.index(first)
        seats = seats[i:] + seats[:i]
    table = Table(title=_("Auction"), title_justify="left", show_edge=False, pad_edge=False)
    for s in seats:
        table.add_column(s, justify="center")
    row: list[Text] = [Text("") for _seat in seats]
    last = -1
    started = False
    for entry in auction:
        seat = entry.get("seat")
        i = seats.index(seat) if isinstance(seat, str) and seat in seats else 0
        if started and i <= last:
            table.add_row(*row)
            row = [Text("") for _seat in seats]
        started = True
        row[i] = call_text(str(entry.get("call")))
        last = i
    table.add_row(*row)
    return table


def _contract_line(view: JSONObject) -> Text | None:
    contract = view.get("contract")
    if not contract:
        return None
    out = Text(_("Contract:") + " ", style="bold")
    if isinstance(contract, Mapping):
        call = call_text(str(contract.get("call")))
        seat = contract.get("seat")
        if seat is not None:
            out.append_text(styled(_("{call} by {seat}"), call=call, seat=str(seat)))
            team = _team_of(view, seat)
            names = team_names(view)
            if team is not None and team < len(names):
                out.append(f" ({names[team]})")
        else:
            out.append_text(call)
    else:
        out.append(str(contract))
    trump = view.get("trump")
    if "trump" in view:
        out.append("   " + _("trumps:") + " ")
        out.append_text(_suit(str(trump)) if trump else Text(_("none (no trumps)")))
    breach = view.get("breach")
    if breach:
        out.append("   " + _("breach called by {seat}", seat=breach), style="yellow")
    return out


def _trick_line(view: JSONObject) -> Text | None:
    trick = [view_object(entry) for entry in view_list(view.get("trick"))]
    if not trick and view.get("phase") != "PLAY":
        return None
    number = len(view_list(view.get("tricks"))) + 1
    out = Text(_("Trick {n}:", n=number) + " ", style="bold")
    if not trick:
        out.append(_("(no card yet)"), style="dim")
    for i, entry in enumerate(trick):
        if i:
            out.append("  ")
        out.append(f"{entry.get('seat')} ")
        out.append_text(card_text(str(entry.get("card"))))
    won = view.get("tricks_won")
    names = team_names(view)
    if isinstance(won, list) and any(won) and len(won) == len(names):
        shown = ", ".join(f"{n} {w}" for n, w in zip(names, won, strict=True))
        out.append("   " + _("tricks won: {values}", values=shown), style="dim")
    return out


def _score_table(view: JSONObject) -> Table:
    names = team_names(view)
    scores = view_list(view.get("scores"))
    tricks = view.get("tricks_won")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column(_("Team"))
    table.add_column(_("Score"), justify="right")
    if tricks is not None:
        table.add_column(_("Tricks"), justify="right")
    me = _team_of(view, view.get("seat"))
    for t, name in enumerate(names):
        label = _("{team} (you)", team=name) if t == me else name
        row = [label, str(scores[t]) if t < len(scores) else ""]
        if tricks is not None:
            won = view_list(tricks)
            row.append(str(won[t]) if t < len(won) else "")
        table.add_row(*row)
    return table


def phase_word(phase: str) -> str:
    """A deal's phase in words (``AUCTION`` -> ``auction``)."""
    key = phase.lower()
    words = {
        "auction": pgettext("phase", "auction"),
        "kitty": pgettext("phase", "kitty"),
        "breach": pgettext("phase", "breach"),
        "play": pgettext("phase", "play"),
        "claim": pgettext("phase", "claim"),
        "done": pgettext("phase", "done"),
        "game_over": pgettext("phase", "game_over"),
    }
    return words.get(key, key)


def _parts(view: JSONObject) -> list[tuple[str, RenderableType | None, object]]:
    """Everything the seat sees, part by part: ``(name, renderable, key)``;
    a part whose key is the same as when it was last drawn has not changed
    (:class:`Screen`).  The choices have no key: they are the prompt."""
    parts: list[tuple[str, RenderableType | None, object]] = []
    seat = view.get("seat")
    deal_number = view.get("deal_number")
    head = Text()
    if deal_number is not None:
        head.append(_("Deal {n}", n=deal_number), style="bold")
        head.append(" · ")
    head.append(_("dealer {seat}", seat=view.get("dealer")) + " · " + phase_word(str(view.get("phase", ""))))
    head_key = head.plain
    if view.get("to_act"):
        head.append(" · " + _("{seat} to act", seat=view["to_act"]))
    parts.append(("head", head, head_key))
    parts.append(("scores", _score_table(view), (deal_number, repr(view.get("scores")))))
    # while the auction runs each call is told as it is made: the table is
    # drawn when the deal is first seen and once more when the auction ends
    live = str(view.get("phase")) == "AUCTION"
    auction_key = (deal_number, "live" if live else repr(view.get("auction")))
    parts.append(("auction", _auction_table(view), auction_key))
    contract = _contract_line(view)
    if contract is not None:
        parts.append(("contract", contract, contract.plain))
    trick = _trick_line(view)
    if trick is not None:
        parts.append(("trick", trick, (deal_number, trick.plain)))
    hands = view_object(view.get("hands"))
    acting = view.get("hand_to_play") or seat
    for other in view_strs(view.get("exposed")):
        if other != seat and hands.get(other) is not None:
            line = Text(_("{seat} (exposed):", seat=other) + " ", style="yellow")
            line.append_text(hand_text(view_strs(hands[other])))
            parts.append((f"exposed {other}", line, line.plain))
    if isinstance(seat, str) and hands.get(seat) is not None:
        line = Text(_("Your hand ({seat}):", seat=seat) + " ", style="bold")
        line.append_text(hand_text(view_strs(hands[seat])))
        parts.append(("hand", line, line.plain))
    if view.get("kitty"):
        line = Text(_("Kitty taken:") + " ")
        line.append_text(hand_text(view_strs(view["kitty"])))
        size = view.get("kitty_size")
        left = (size if isinstance(size, int) else 0) - len(view_list(view.get("discards")))
        if view.get("phase") == "KITTY" and left > 0:
            line.append("   ")
            line.append(
                ngettext(
                    "discard {n} more card, one at a time", "discard {n} more cards, one at a time", left
                ),
                style="bold",
            )
        parts.append(("kitty", line, line.plain))
    legal = view_strs(view.get("legal"))
    if legal:
        title = Text(
            _("Your choices") if acting == seat else _("Your choices (playing {seat}'s hand)", seat=acting),
            style="bold",
        )
        choices = Group(title, legal_text(legal))
        parts.append(("choices", choices, None))
    return parts


def render_view(view: JSONObject) -> RenderableType:
    """Everything the seat sees, for its turn to act."""
    return Group(*(part for _name, part, _key in _parts(view) if part is not None))


class Screen:
    """The table as the player last saw it: :meth:`update` draws only the
    parts that changed since (a new card in the trick, the hand after a
    play, the scores after a deal) and the choices, instead of the whole
    table at every turn; :meth:`full` draws everything (the first turn, or
    ``?``)."""

    def __init__(self) -> None:
        self._shown: dict[str, object] = {}

    def full(self, view: JSONObject) -> RenderableType:
        parts = _parts(view)
        self._shown = {name: key for name, _part, key in parts}
        return Group(*(part for _name, part, _key in parts if part is not None))

    def update(self, view: JSONObject) -> RenderableType:
        parts = _parts(view)
        changed = [
            part
            for name, part, key in parts
            if part is not None and (key is None or name not in self._shown or self._shown[name] != key)
        ]
        self._shown = {name: key for name, _part, key in parts}
        return Group(*changed)


def deal_summary(result: JSONObject, view: JSONObject) -> Text:
    """One deal's result line(s) from a ``results`` entry (500, bridge and
    coinche spell a few keys differently; unknown keys are left out)."""
    names = team_names(view)
    number = result.get("deal")
    out = Text((_("Deal {n}:", n=number) if number is not None else _("Deal:")) + " ", style="bold")
    contract = result.get("contract")
    if result.get("thrown_in") or result.get("passed_out"):
        out.append(_("no contract — thrown in, the deal passes on"))
        return out
    if contract:
        call = call_text(str(contract))
        by = result.get("contractor") or result.get("declarer") or result.get("taker")
        out.append_text(styled(_("{call} by {seat}"), call=call, seat=str(by)) if by else call)
        made = result.get("made")
        if made is not None:
            out.append(" — " + (_("made") if made else _("failed")), style="green" if made else "red")
    else:
        out.append(_("no contract"))

    def team(t: int) -> str:
        return names[t] if t < len(names) else str(t)

    def per_team(values: JSON, signed: bool = False) -> str:
        if not isinstance(values, list):
            return str(values)
        return ", ".join(f"{team(t)} {v:+d}" if signed else f"{team(t)} {v}" for t, v in enumerate(values))

    def line(text: str) -> None:
        out.append("\n  " + text)

    tricks = result.get("tricks")
    if isinstance(tricks, list):
        line(_("tricks: {values}", values=per_team(tricks)))
    elif tricks is not None:
        line(_("tricks: {n} by the declaring side", n=tricks))
    if isinstance(result.get("card_points"), list):
        line(_("card points: {values}", values=per_team(result["card_points"])))
    if result.get("points") is not None:
        line(_("points: {values}", values=per_team(result["points"], signed=True)))
    breach = result.get("breach")
    if isinstance(breach, Mapping):
        points = per_team(breach.get("points"), signed=True)
        seat = breach.get("seat")
        if breach.get("succeeded"):
            line(_("breach by {seat} succeeded: {points}", seat=seat, points=points))
        else:
            line(_("breach by {seat} failed: {points}", seat=seat, points=points))
    if result.get("scores") is not None:
        line(_("scores: {values}", values=per_team(result["scores"])))
    return out


def game_over_text(view: JSONObject) -> Text:
    names = team_names(view)
    scores = view_list(view.get("scores"))
    winner = view.get("winner")
    out = Text(_("Game over:") + " ", style="bold")
    if isinstance(winner, int) and winner < len(names):
        out.append(_("{team} win", team=names[winner]), style="bold green")
    else:
        out.append(_("no winner"))
    out.append(" — " + ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False)))
    return out
