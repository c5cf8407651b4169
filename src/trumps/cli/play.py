"""``trumps play GAME``: a human against bots in the terminal.

The human sees only their own view; what the bots did is told from the
difference between the human's views before and after each action, so a
hidden action (a kitty discard) is told as hidden.  Bad input is re-prompted
with the engine's reason.

Everything is said in the CLI's language.  What the player types is read
by the engine first (its notation: ``7H``, ``QS``, ``XX``, ``P``, always
accepted); only text the engine cannot read is tried as the way German or
French players write cards and calls (``D♥``, ``Dame Herz``, ``Kontra``,
``dame de cœur``, ``surcontre``: :mod:`trumps.cli.localized`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from rich.console import Console
from rich.text import Text

from trumps.bots.base import Bot
from trumps.bots.registry import bot_for
from trumps.bots.selfplay import step
from trumps.cli.lang import _, lang, message, ngettext, styled
from trumps.cli.localized import EXAMPLES, to_neutral
from trumps.cli.render import (
    Screen,
    action_text,
    call_text,
    card_text,
    deal_summary,
    game_over_text,
    hand_text,
    phase_word,
    view_list,
    view_object,
    view_strs,
)
from trumps.core.errors import ParseError, TrumpsError
from trumps.core.json_types import JSON, JSONDict, JSONObject
from trumps.core.protocol import Deal, Match

__all__ = ["EXIT_INTERRUPTED", "Narrator", "help_text", "notation_examples", "play_session", "read_action"]

EXIT_INTERRUPTED = 130


def notation_examples(match: Match[Deal], seat: int | None = None) -> str:
    """A few calls and cards in the notation of ``match``'s own game and
    options: calls from its bidding box (the lowest and the highest bid,
    the other calls beside the grid: pass, double, misère...), cards from
    ``seat``'s hand.  Nothing is hard-coded, so bridge shows ``1C, 7NT, P,
    X, XX`` and coinche ``80S, CAPOT-C, P, X, XX`` rather than 500's calls."""
    box = (match.presentation() or {}).get("box") or {}
    calls: list[str] = []
    rows = [list(r.get("calls") or []) for r in box.get("rows") or []]
    rows = [r for r in rows if r]
    if rows:
        calls += [rows[0][0], rows[-1][-1]]
    calls += [str(c) for c in (box.get("popup") or {}).get("calls") or []][:2]
    calls += [str(c.get("call")) for c in box.get("side") or [] if c.get("call")]
    if not calls:  # a game without a bidding box: whatever is legal now
        calls = [str(a) for a in match.legal_actions()[:3]]
    hand = (match.view(seat).get("hands") or {}).get(match.seat_name(seat)) if seat is not None else None
    cards = [str(c) for c in (hand or [])][:3]
    text = ", ".join(dict.fromkeys(calls))
    if cards:
        text = _("{calls}; cards {cards}", calls=text, cards=", ".join(cards))
    return text


def help_text(examples: str = "") -> str:
    """How to answer a prompt: ``examples`` in the game's own notation
    (:func:`notation_examples`), and the localized forms in German and French."""
    if examples:
        text = _(
            "Type the number of a choice or its notation ({examples}). "
            "'?' shows the table again, 'h' your hand, 'q' quits.",
            examples=examples,
        )
    else:
        text = _(
            "Type the number of a choice or its notation. '?' shows the table again, 'h' your hand, 'q' quits."
        )
    if lang() in EXAMPLES:
        text += " " + _(
            "You may also write cards and calls as you say them: {examples}.", examples=EXAMPLES[lang()]
        )
    return text


def read_action(match: Match[Deal], text: str) -> str:
    """The notation to apply for ``text``: the engine's own reading first
    (``KD`` is the king of diamonds in every language); only text the
    engine cannot read is tried as a localized card or call."""
    try:
        match.parse_action(text)
        return text
    except ParseError as exc:
        alt = to_neutral(text, lang())
        if alt is None:
            raise
        try:
            match.parse_action(alt)
        except ParseError:
            raise exc from None
        return alt


def _cards_played(view: JSONObject) -> list[str]:
    """Every card played this deal, in order."""
    out = [str(c) for t in view_list(view.get("tricks")) for c in view_list(view_object(t).get("cards"))]
    out += [str(view_object(e).get("card")) for e in view_list(view.get("trick"))]
    return out


class Narrator:
    """Tells what happened between two views of the same seat."""

    def __init__(self, me: str) -> None:
        self.me = me

    def who(self, seat: JSON) -> str:
        return _("You") if seat == self.me else str(seat)

    def _said(self, seat: JSON, action: Text) -> Text:
        """``N: 1♠``, ``You: pass``."""
        return styled(_("{who}: {call}"), who=self.who(seat), call=action)

    def _plays(self, seat: JSON, card: str) -> Text:
        if seat == self.me:
            return styled(_("You play {card}"), card=card_text(card))
        return styled(_("{seat} plays {card}"), seat=str(seat), card=card_text(card))

    def tell(
        self,
        before: JSONObject,
        after: JSONObject,
        actor: str,
        action: str,
        closing: JSONObject | None = None,
    ) -> list[Text]:
        """The lines that tell what happened from ``before`` to ``after``.
        When the action ended a deal, ``closing`` is the seat's view of the
        finished deal before the next one replaced it: its last card and
        the winner of its last trick are told from it, then the result."""
        lines: list[Text] = []
        who = self.who(actor)
        deal_over = after.get("deal_number") != before.get("deal_number") or (
            bool(after.get("over")) and not before.get("over")
        )
        if deal_over:
            if closing is not None:
                lines += self.tell(before, closing, actor, action)
            else:  # the last action of a deal is always public (a card, or the last pass)
                lines.append(self._action_line(before, actor, action))
            results = view_list(after.get("results"))
            if len(results) > len(view_list(before.get("results"))):
                lines.append(deal_summary(view_object(results[-1]), after))
            return lines
        old_calls = view_list(before.get("auction"))
        new_calls = view_list(after.get("auction"))
        for entry in map(view_object, new_calls[len(old_calls) :]):
            lines.append(self._said(entry.get("seat"), call_text(str(entry.get("call")))))
        old_play = _cards_played(before)
        new_play = _cards_played(after)
        for card in new_play[len(old_play) :]:
            # one action plays one card, from the hand that was to play
            hand_seat = before.get("hand_to_play") or actor
            line = self._plays(hand_seat, card)
            if hand_seat != actor:
                by = _("(played by You)") if actor == self.me else _("(played by {seat})", seat=actor)
                line.append(" " + by, style="dim")
            lines.append(line)
        old_tricks = view_list(before.get("tricks"))
        new_tricks = view_list(after.get("tricks"))
        for t in map(view_object, new_tricks[len(old_tricks) :]):
            n, winner = len(old_tricks) + 1, t.get("winner")
            if winner == self.me:
                won = _("→ trick {n} won by You", n=n)
            else:
                won = _("→ trick {n} won by {seat}", n=n, seat=winner)
            lines.append(Text("  " + won, style="dim"))
        if after.get("breach") and not before.get("breach"):
            if after["breach"] == self.me:
                called = _("You called BREACH")
            else:
                called = _("{seat} called BREACH", seat=after["breach"])
            lines.append(Text(called, style="yellow"))
        if not lines:
            if actor == self.me:
                lines.append(self._said(actor, action_text(action)))
            else:
                phase = str(before.get("phase") or "").lower()
                if phase == "kitty":
                    what = _("{seat} discards a card face down", seat=who)
                else:
                    what = _("{seat} acts ({phase}, not shown)", seat=who, phase=phase_word(phase))
                lines.append(Text(what, style="dim"))
        if after.get("contract") and not before.get("contract"):
            c = after["contract"]
            line = Text(_("Contract:") + " ", style="bold")
            call = call_text(str(c.get("call") if isinstance(c, Mapping) else c))
            if isinstance(c, Mapping) and c.get("seat"):
                if c["seat"] == self.me:
                    line.append_text(styled(_("{call} by You"), call=call))
                else:
                    line.append_text(styled(_("{call} by {seat}"), call=call, seat=str(c["seat"])))
            else:
                line.append_text(call)
            lines.append(line)
        for seat in view_strs(after.get("exposed")):
            if seat not in view_strs(before.get("exposed")) and seat != self.me:
                hand = view_object(after.get("hands")).get(seat)
                line = Text(_("{seat}'s hand is exposed:", seat=seat) + " ", style="yellow")
                line.append_text(hand_text(view_strs(hand)))
                lines.append(line)
        return lines

    def _action_line(self, before: JSONObject, actor: str, action: str) -> Text:
        if str(before.get("phase")) == "PLAY":
            return self._plays(before.get("hand_to_play") or actor, action)
        return self._said(actor, action_text(action))


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
    match: Match[Deal],
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
    screen = Screen()
    view = match.view(human)
    examples = notation_examples(match, human)
    teams = [t for t in match.teams if human in t]
    partners = [match.seat_name(s) for s in (teams[0] if teams else []) if s != human]
    if partners:
        intro = ngettext(
            "You are {seat}, your partner: {partners}.",
            "You are {seat}, your partners: {partners}.",
            len(partners),
            seat=me,
            partners=", ".join(partners),
        )
    else:
        intro = _("You are {seat}.", seat=me)
    console.print(Text(intro + " " + help_text(examples)))
    try:
        while not match.is_over:
            seat = match.to_act_index
            assert seat is not None
            if seat != human:
                bot = bots[seat]
                shadow = match.clone()
                _actor, action = step(match, bot, rng)
                after = match.view(human)
                closing = _closing_view(match, shadow, human, view, after)
                for line in narrator.tell(view, after, match.seat_name(seat), action, closing):
                    console.print(line)
                view = after
                continue
            view = match.view(human)
            console.print()
            console.print(screen.update(view))
            legal = list(view.get("legal") or [])
            while True:
                text = read(f"{me}> ")
                cmd = text.strip().lower()
                if cmd in ("q", "quit", "exit"):
                    console.print(_("Game abandoned."))
                    return 0
                if cmd == "":
                    continue
                if cmd in ("?", "help"):
                    console.print(help_text(examples), markup=False)
                    console.print(screen.full(view))
                    continue
                if cmd in ("h", "hand"):
                    hand = (view.get("hands") or {}).get(me) or []
                    console.print(hand_text(hand))
                    continue
                try:
                    choice = read_action(match, _pick(text, legal))
                    shadow = match.clone()
                    match.apply(choice, human)
                except TrumpsError as exc:
                    console.print(Text(_("Not accepted: {reason}", reason=message(str(exc))), style="red"))
                    if isinstance(exc, ParseError) and lang() in EXAMPLES:
                        hint = _("You may also write cards and calls as you say them: {examples}.",
                                 examples=EXAMPLES[lang()])  # fmt: skip
                        console.print(Text(hint, style="dim"))
                    continue
                break
            after = match.view(human)
            done = match.log[-1][1] if match.log else choice
            closing = _closing_view(match, shadow, human, view, after)
            for line in narrator.tell(view, after, me, str(done), closing):
                console.print(line)
            view = after
        console.print()
        console.print(game_over_text(match.view(human)))
        return 0
    except EOFError:
        console.print()
        console.print(_("Input closed: game abandoned."))
        return 0
    except KeyboardInterrupt:
        console.print()
        console.print(_("Interrupted: game abandoned."))
        return EXIT_INTERRUPTED


def _closing_view(
    match: Match[Deal], shadow: Match[Deal], human: int, before: JSONObject, after: JSONObject
) -> JSONDict | None:
    """The human's view of a deal the last action finished, as it stood
    with every card played, before the match scored it and dealt the next
    (``shadow`` is the match copied just before that action; the action is
    replayed on its deal alone).  ``None`` when the deal goes on."""
    if after.get("deal_number") == before.get("deal_number") and not (
        after.get("over") and not before.get("over")
    ):
        return None
    if not match.log:
        return None
    shadow.deal.apply_legal(match.log[-1][1])
    closing: JSONDict = shadow.view(human)
    return closing


def make_bots(game: str, kind: str, match: Match[Deal], human: int) -> tuple[dict[int, Bot], str | None]:
    """A bot for every seat but the human's; a note when the rule bot is
    missing and random bots stand in."""
    note = None
    try:
        bot = bot_for(game, kind)
    except TrumpsError as exc:
        if kind.strip().lower() not in ("rules", "rule"):
            raise
        bot = bot_for(game, "random")
        note = _("({reason}: the bots play at random)", reason=message(str(exc)))
    return {s: bot for s in range(match.players) if s != human}, note
