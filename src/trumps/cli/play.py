"""``trumps play GAME``: a human against bots in the terminal.

The human sees only their own view; what the bots did is told from the
difference between the human's views before and after each action, so a
hidden action (a kitty discard) is told as hidden.  Bad input is re-prompted
with the engine's reason.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.text import Text

from trumps.bots.base import Bot
from trumps.bots.registry import bot_for
from trumps.bots.selfplay import step
from trumps.cli.render import (
    action_text,
    call_text,
    card_text,
    deal_summary,
    game_over_text,
    hand_text,
    render_view,
)
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Match

__all__ = ["EXIT_INTERRUPTED", "Narrator", "play_session"]

EXIT_INTERRUPTED = 130

HELP = (
    "Type the number of a choice or its notation (7H, P, MIS, AS, 10D, RJ:C). "
    "'?' shows the table again, 'h' your hand, 'q' quits."
)


def _cards_played(view: dict[str, Any]) -> list[str]:
    """Every card played this deal, in order."""
    out = [str(c) for t in view.get("tricks") or [] for c in t.get("cards") or []]
    out += [str(e.get("card")) for e in view.get("trick") or []]
    return out


class Narrator:
    """Tells what happened between two views of the same seat."""

    def __init__(self, me: str) -> None:
        self.me = me

    def who(self, seat: str | None) -> str:
        return "You" if seat == self.me else str(seat)

    def tell(self, before: dict[str, Any], after: dict[str, Any], actor: str, action: str) -> list[Text]:
        lines: list[Text] = []
        who = self.who(actor)
        deal_over = after.get("deal_number") != before.get("deal_number") or (
            bool(after.get("over")) and not before.get("over")
        )
        if deal_over:
            # the last action of a deal is always public (a card, or the last pass)
            lines.append(self._action_line(before, actor, action))
            results = after.get("results") or []
            if len(results) > len(before.get("results") or []):
                lines.append(deal_summary(results[-1], after))
            return lines
        old_calls = before.get("auction") or []
        new_calls = after.get("auction") or []
        for entry in new_calls[len(old_calls) :]:
            line = Text(f"{self.who(entry.get('seat'))}: ")
            line.append_text(call_text(str(entry.get("call"))))
            lines.append(line)
        old_play = _cards_played(before)
        new_play = _cards_played(after)
        for card in new_play[len(old_play) :]:
            # one action plays one card, from the hand that was to play
            hand_seat = before.get("hand_to_play") or actor
            line = Text(f"{self.who(hand_seat)} {'play' if hand_seat == self.me else 'plays'} ")
            line.append_text(card_text(card))
            if hand_seat != actor:
                line.append(f" (played by {self.who(actor)})", style="dim")
            lines.append(line)
        old_tricks = before.get("tricks") or []
        new_tricks = after.get("tricks") or []
        for t in new_tricks[len(old_tricks) :]:
            won = Text(f"  → trick {len(old_tricks) + 1} won by {self.who(t.get('winner'))}", style="dim")
            lines.append(won)
        if after.get("breach") and not before.get("breach"):
            lines.append(Text(f"{self.who(after['breach'])} called BREACH", style="yellow"))
        if not lines:
            if actor == self.me:
                line = Text("You: ")
                line.append_text(action_text(action))
                lines.append(line)
            else:
                phase = str(before.get("phase") or "").lower()
                what = "discards a card face down" if phase == "kitty" else f"acts ({phase}, not shown)"
                lines.append(Text(f"{who} {what}", style="dim"))
        if after.get("contract") and not before.get("contract"):
            c = after["contract"]
            line = Text("Contract: ", style="bold")
            line.append_text(call_text(str(c.get("call") if isinstance(c, dict) else c)))
            if isinstance(c, dict) and c.get("seat"):
                line.append(f" by {self.who(c['seat'])}")
            lines.append(line)
        for seat in after.get("exposed") or []:
            if seat not in (before.get("exposed") or []) and seat != self.me:
                hand = (after.get("hands") or {}).get(seat)
                line = Text(f"{seat}'s hand is exposed: ", style="yellow")
                line.append_text(hand_text(hand or []))
                lines.append(line)
        return lines

    def _action_line(self, before: dict[str, Any], actor: str, action: str) -> Text:
        if str(before.get("phase")) == "PLAY":
            hand_seat = before.get("hand_to_play") or actor
            line = Text(f"{self.who(hand_seat)} {'play' if hand_seat == self.me else 'plays'} ")
            line.append_text(card_text(action))
            return line
        line = Text(f"{self.who(actor)}: ")
        line.append_text(action_text(action))
        return line


def _pick(text: str, legal: list[str]) -> str:
    """A number from the list, else the text itself (the engine parses it)."""
    t = text.strip()
    if t.isascii() and t.isdigit():
        n = int(t)
        if not 1 <= n <= len(legal):
            raise TrumpsError(f"there is no choice {n}: pick 1 to {len(legal)}, or type the notation")
        return legal[n - 1]
    return t


def play_session(
    match: Match[Any],
    human: int,
    bots: dict[int, Bot],
    *,
    console: Console,
    read: Callable[[str], str],
    rng: random.Random,
) -> int:
    """Play ``match`` to its end; returns the exit status."""
    me = match.seat_name(human)
    narrator = Narrator(me)
    view = match.view(human)
    teams = [t for t in match.teams if human in t]
    partners = [match.seat_name(s) for s in (teams[0] if teams else []) if s != human]
    intro = Text(f"You are {me}")
    if partners:
        intro.append(f", your partner{'s' if len(partners) > 1 else ''}: {', '.join(partners)}")
    intro.append(". " + HELP)
    console.print(intro)
    try:
        while not match.is_over:
            seat = match.to_act
            assert seat is not None
            if seat != human:
                bot = bots[seat]
                _, action = step(match, bot, rng)
                after = match.view(human)
                for line in narrator.tell(view, after, match.seat_name(seat), action):
                    console.print(line)
                view = after
                continue
            view = match.view(human)
            console.print()
            console.print(render_view(view))
            legal = list(view.get("legal") or [])
            while True:
                text = read(f"{me}> ")
                cmd = text.strip().lower()
                if cmd in ("q", "quit", "exit"):
                    console.print("Game abandoned.")
                    return 0
                if cmd == "":
                    continue
                if cmd in ("?", "help"):
                    console.print(HELP)
                    console.print(render_view(view))
                    continue
                if cmd in ("h", "hand"):
                    hand = (view.get("hands") or {}).get(me) or []
                    console.print(hand_text(hand))
                    continue
                try:
                    choice = _pick(text, legal)
                    match.apply(choice, human)
                except TrumpsError as exc:
                    console.print(Text(f"Not accepted: {exc}", style="red"))
                    continue
                break
            after = match.view(human)
            done = match.log[-1][1] if match.log else choice
            for line in narrator.tell(view, after, me, str(done)):
                console.print(line)
            view = after
        console.print()
        console.print(game_over_text(match.view(human)))
        return 0
    except EOFError:
        console.print()
        console.print("Input closed: game abandoned.")
        return 0
    except KeyboardInterrupt:
        console.print()
        console.print("Interrupted: game abandoned.")
        return EXIT_INTERRUPTED


def make_bots(game: str, kind: str, match: Match[Any], human: int) -> tuple[dict[int, Bot], str | None]:
    """A bot for every seat but the human's; a note when the rule bot is
    missing and random bots stand in."""
    note = None
    try:
        bot = bot_for(game, kind)
    except TrumpsError as exc:
        if kind.strip().lower() not in ("rules", "rule"):
            raise
        bot = bot_for(game, "random")
        note = f"({exc}: the bots play at random)"
    return {s: bot for s in range(match.players) if s != human}, note
