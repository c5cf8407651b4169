"""Terminal rendering of a seat's view with rich, generic over the view keys
every game shares (``hands``, ``trick``, ``auction``, ``contract``,
``scores``, ``tricks_won``, ``legal``, ``phase``, ``to_act``, ``dealer``,
``exposed``, ``results``), so a new game's views render without changes.

>>> card_text("TH").plain, call_text("i6S").plain, card_text("RJ:C").plain
('10♥', 'i6♠', 'RJ→♣')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

__all__ = [
    "action_text",
    "call_text",
    "card_text",
    "deal_summary",
    "game_over_text",
    "hand_text",
    "legal_text",
    "render_view",
    "team_names",
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
        return Text(head, style="bold magenta" if head == "RJ" else "bold")
    m = _CARD.match(head)
    if not m:
        return Text(card)
    rank, suit = m.groups()
    out = Text("10" if rank == "T" else rank, style=_STYLE[suit])
    out.append_text(_suit(suit))
    return out


def call_text(call: str) -> Text:
    """An auction call: ``7H`` -> ``7♥``, ``i6S`` -> ``i6♠``, ``P`` -> ``pass``."""
    if call == "P":
        return Text("pass", style="dim")
    m = _CALL.match(call)
    if m:
        inkle, level, denom = m.groups()
        out = Text(inkle + level)
        out.append_text(_suit(denom) if denom in _SYMBOL else Text(denom, style="bold"))
        return out
    return Text(call, style="bold")


def action_text(action: str) -> Text:
    """A card, a joker lead or a call, whichever ``action`` is."""
    head = action.partition(":")[0]
    if head in ("RJ", "BJ") or _CARD.match(head):
        return card_text(action)
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
        out.append(" " + " ".join("10" if r == "T" else r for r in ranks), style=_STYLE[s])
    for j in others:
        if not first:
            out.append("   ")
        first = False
        out.append_text(card_text(j))
    return out if not first else Text("—", style="dim")


def team_names(view: dict[str, Any]) -> list[str]:
    """``["NS", "EW"]`` at a four-seat table, ``["0+3", ...]`` with six."""
    names = []
    for team in view.get("teams") or []:
        seats = [str(s) for s in team]
        names.append("".join(seats) if all(len(s) == 1 and s.isalpha() for s in seats) else "+".join(seats))
    return names


def _team_of(view: dict[str, Any], seat: str | None) -> int | None:
    for t, team in enumerate(view.get("teams") or []):
        if seat in team:
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


def _auction_table(view: dict[str, Any]) -> Table | None:
    auction = view.get("auction") or []
    if not auction:
        return None
    seats: list[str] = list(view.get("seats") or [])
    if view.get("direction") == "anticlockwise":
        seats = seats[:1] + seats[1:][::-1]
    first = auction[0].get("seat")
    if first in seats:  # columns from the first speaker, so rounds read left to right
        i = seats.index(first)
        seats = seats[i:] + seats[:i]
    table = Table(title="Auction", title_justify="left", show_edge=False, pad_edge=False)
    for s in seats:
        table.add_column(s, justify="center")
    row: list[Text] = [Text("") for _ in seats]
    last = -1
    started = False
    for entry in auction:
        seat = entry.get("seat")
        i = seats.index(seat) if seat in seats else 0
        if started and i <= last:
            table.add_row(*row)
            row = [Text("") for _ in seats]
        started = True
        row[i] = call_text(str(entry.get("call")))
        last = i
    table.add_row(*row)
    return table


def _contract_line(view: dict[str, Any]) -> Text | None:
    contract = view.get("contract")
    if not contract:
        return None
    out = Text("Contract: ", style="bold")
    if isinstance(contract, dict):
        out.append_text(call_text(str(contract.get("call"))))
        seat = contract.get("seat")
        if seat is not None:
            out.append(f" by {seat}")
            team = _team_of(view, seat)
            names = team_names(view)
            if team is not None and team < len(names):
                out.append(f" ({names[team]})")
    else:
        out.append(str(contract))
    trump = view.get("trump")
    if "trump" in view:
        out.append("   trumps: ")
        out.append_text(_suit(trump) if trump else Text("none (no trumps)"))
    breach = view.get("breach")
    if breach:
        out.append(f"   breach called by {breach}", style="yellow")
    return out


def _trick_line(view: dict[str, Any]) -> Text | None:
    trick = view.get("trick") or []
    if not trick and view.get("phase") != "PLAY":
        return None
    number = len(view.get("tricks") or []) + 1
    out = Text(f"Trick {number}: ", style="bold")
    if not trick:
        out.append("(no card yet)", style="dim")
    for i, entry in enumerate(trick):
        if i:
            out.append("  ")
        out.append(f"{entry.get('seat')} ")
        out.append_text(card_text(str(entry.get("card"))))
    return out


def _score_table(view: dict[str, Any]) -> Table:
    names = team_names(view)
    scores = view.get("scores") or []
    tricks = view.get("tricks_won")
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("Team")
    table.add_column("Score", justify="right")
    if tricks is not None:
        table.add_column("Tricks", justify="right")
    me = _team_of(view, view.get("seat"))
    for t, name in enumerate(names):
        label = name + (" (you)" if t == me else "")
        row = [label, str(scores[t]) if t < len(scores) else ""]
        if tricks is not None:
            row.append(str(tricks[t]) if t < len(tricks) else "")
        table.add_row(*row)
    return table


def render_view(view: dict[str, Any]) -> RenderableType:
    """Everything the seat sees, for its turn to act."""
    parts: list[RenderableType] = []
    seat = view.get("seat")
    head = Text()
    if view.get("deal_number") is not None:
        head.append(f"Deal {view['deal_number']}", style="bold")
        head.append(" · ")
    head.append(f"dealer {view.get('dealer')} · {str(view.get('phase', '')).lower()}")
    if view.get("to_act"):
        head.append(f" · {view['to_act']} to act")
    parts.append(head)
    parts.append(_score_table(view))
    auction = _auction_table(view)
    if auction is not None:
        parts.append(auction)
    contract = _contract_line(view)
    if contract is not None:
        parts.append(contract)
    trick = _trick_line(view)
    if trick is not None:
        parts.append(trick)
    hands = view.get("hands") or {}
    acting = view.get("hand_to_play") or seat
    for other in view.get("exposed") or []:
        if other != seat and hands.get(other) is not None:
            line = Text(f"{other} (exposed): ", style="yellow")
            line.append_text(hand_text(hands[other]))
            parts.append(line)
    if seat is not None and hands.get(seat) is not None:
        line = Text(f"Your hand ({seat}): ", style="bold")
        line.append_text(hand_text(hands[seat]))
        parts.append(line)
    if view.get("kitty"):
        line = Text("Kitty taken: ")
        line.append_text(hand_text(view["kitty"]))
        left = int(view.get("kitty_size") or 0) - len(view.get("discards") or [])
        if view.get("phase") == "KITTY" and left > 0:
            line.append(f"   discard {left} more card{'s' if left > 1 else ''}, one at a time", style="bold")
        parts.append(line)
    legal = view.get("legal") or []
    if legal:
        title = Text(
            "Your choices" if acting == seat else f"Your choices (playing {acting}'s hand)", style="bold"
        )
        parts.append(title)
        parts.append(legal_text(legal))
    return Group(*parts)


def deal_summary(result: dict[str, Any], view: dict[str, Any]) -> Text:
    """One deal's result line(s) from a ``results`` entry (500, bridge and
    coinche spell a few keys differently; unknown keys are left out)."""
    names = team_names(view)
    number = result.get("deal")
    out = Text(f"Deal {number}: " if number is not None else "Deal: ", style="bold")
    contract = result.get("contract")
    if result.get("thrown_in") or result.get("passed_out"):
        out.append("no contract — thrown in, the deal passes on")
        return out
    if contract:
        out.append_text(call_text(str(contract)))
        by = result.get("contractor") or result.get("declarer") or result.get("taker")
        if by:
            out.append(f" by {by}")
        made = result.get("made")
        if made is not None:
            out.append(" — made" if made else " — failed", style="green" if made else "red")
    else:
        out.append("no contract")

    def team(t: int) -> str:
        return names[t] if t < len(names) else str(t)

    def per_team(values: Any, signed: bool = False) -> str:
        if not isinstance(values, list):
            return str(values)
        return ", ".join(f"{team(t)} {v:+d}" if signed else f"{team(t)} {v}" for t, v in enumerate(values))

    tricks = result.get("tricks")
    if isinstance(tricks, list):
        out.append(f"\n  tricks: {per_team(tricks)}")
    elif tricks is not None:
        out.append(f"\n  tricks: {tricks} by the declaring side")
    if isinstance(result.get("card_points"), list):
        out.append(f"\n  card points: {per_team(result['card_points'])}")
    if result.get("points") is not None:
        out.append(f"\n  points: {per_team(result['points'], signed=True)}")
    breach = result.get("breach")
    if isinstance(breach, dict):
        ok = "succeeded" if breach.get("succeeded") else "failed"
        out.append(f"\n  breach by {breach.get('seat')} {ok}: {per_team(breach.get('points'), signed=True)}")
    if result.get("scores") is not None:
        out.append(f"\n  scores: {per_team(result['scores'])}")
    return out


def game_over_text(view: dict[str, Any]) -> Text:
    names = team_names(view)
    scores = view.get("scores") or []
    winner = view.get("winner")
    out = Text("Game over: ", style="bold")
    if isinstance(winner, int) and winner < len(names):
        out.append(f"{names[winner]} win", style="bold green")
    else:
        out.append("no winner")
    out.append(" — " + ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False)))
    return out
