"""The notice of a move a timer made, worded from each receiver's view.

Apart from the actor because it is a question of what a view shows: the
seat itself is told the action; anyone else is told it only if their view
shows it (:func:`told_action`), else only what their view does show (a
card discarded face down, a meld's announced value), so a notice never
leaks what the state hides."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from trumps.core.protocol import Deal, Match
from trumps.i18n import N_
from trumps.room.tables.messages import PROTOCOL_VERSION

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

#: The notices of a move a timer made (per receiver: :func:`timeout_events`),
#: translated by their templates where they are shown.
TIMEOUT_PLAYED = N_("{who} ran out of time: {action} was played automatically")
TIMEOUT_PASSED = N_("{who} ran out of time: {call} was made for them")
TIMEOUT_DISCARD = N_("{who} ran out of time: a card was discarded automatically")
TIMEOUT_MELDS = N_("{who} ran out of time: melds worth {points} were announced automatically")
TIMEOUT_MOVE = N_("{who} ran out of time: a move was made automatically")


def cards_played(view: dict[str, Any]) -> list[str]:
    """Every card a view shows played this deal, in order."""
    out = [str(c) for t in view.get("tricks") or () for c in t.get("cards") or ()]
    return out + [str(p.get("card")) for p in view.get("trick") or ()]


def spoken_action(match: Match[Deal], action: str) -> str:
    """An action as an English notice says it (:meth:`Match.spoken
    <trumps.core.protocol.Match.spoken>`: ``Pass``, ``7♣``, ``10♥``, not the
    codes); the page words it in its own language."""
    return match.spoken(action)


def told_action(before: dict[str, Any], after: dict[str, Any], action: str, card: str | None = None) -> bool:
    """Whether a receiver whose view was ``before`` and is ``after`` the
    action sees which action it was (so a notice may name it): a call that
    appears in the auction, the card that appears played (a joker's suit, a
    belote announcement with it), or the action that ended the deal (always
    a call or a card everyone sees).  Anything else (a card discarded face
    down, a meld declaration whose cards stay in the hand) is not told: the
    receiver learns only what the view after it shows.  ``card``: the card
    the action plays (:meth:`Match.card_text <trumps.core.protocol.Match.card_text>`),
    if it says more than its card."""
    if after.get("deal_number") != before.get("deal_number") or (
        after.get("over") and not before.get("over")
    ):
        return True
    calls = (after.get("auction") or [])[len(before.get("auction") or []) :]
    if len(calls) == 1 and str(calls[0].get("call")) == action:
        return True
    cards = cards_played(after)[len(cards_played(before)) :]
    return len(cards) == 1 and cards[0] == (action if card is None else card)


def untold_move(who: str, name: str, before: dict[str, Any], after: dict[str, Any]) -> str:
    """The notice of a timed-out move that the receiver's view does not
    show, in the words of what it does show: the hand of ``name``
    (the seat) one card smaller with no card played (a discard), or a
    new announcement of that seat's melds (their value, not the cards)."""
    sizes_before, sizes_after = before.get("hand_sizes") or {}, after.get("hand_sizes") or {}
    if sizes_before.get(name, 0) - sizes_after.get(name, 0) == 1:
        return TIMEOUT_DISCARD.format(who=who)
    melds_before, melds_after = before.get("melds") or {}, after.get("melds") or {}
    old = melds_before.get("announcements") or []
    for a in (melds_after.get("announcements") or [])[len(old) :]:
        if a.get("seat") == name and a.get("value"):
            points = a["value"]
            return TIMEOUT_MELDS.format(who=who, points=points)
    return TIMEOUT_MOVE.format(who=who)


class TimeoutNotices:
    """The ``notice`` events of one timed-out move, one per receiver's seat
    (``None``: a spectator), each made once however many sockets share it.
    ``before`` is the match before the action, ``after`` the match now."""

    def __init__(
        self, seat: int, who: str, action: str, before: Match[Deal], after: Match[Deal], seq: int
    ) -> None:
        self.name = after.seat_name(seat)
        self.who, self.action = who, action
        self.before, self.after = before, after
        self.base: dict[str, object] = {
            "v": PROTOCOL_VERSION,
            "type": "notice",
            "seq": seq,
            "seat": self.name,
            "who": who,
            "timeout": True,
        }
        # the page words the action itself in its reader's language ("kind"
        # and "action"); the text is the English for any other client
        spoken = spoken_action(before, action)
        if str(before.view(None).get("phase", "")).upper() == "AUCTION":
            text, kind = TIMEOUT_PASSED.format(who=who, call=spoken), "call"
        else:
            text, kind = TIMEOUT_PLAYED.format(who=who, action=spoken), "move"
        self.told: dict[str, object] = {**self.base, "text": text, "action": action, "kind": kind}
        self._events: dict[int | None, dict[str, object]] = {seat: self.told}

    def for_seat(self, looks_from: int | None) -> dict[str, object]:
        """The notice for a receiver looking from ``looks_from``."""
        event = self._events.get(looks_from)
        if event is None:
            view_before, view_after = self.before.view(looks_from), self.after.view(looks_from)
            if told_action(view_before, view_after, self.action, self.after.card_text(self.action)):
                event = self.told
            else:
                event = {**self.base, "text": untold_move(self.who, self.name, view_before, view_after)}
            self._events[looks_from] = event
        return event


async def tell_timeout(table: Table, seat: int, action: str, before: Match[Deal]) -> None:
    """Tell everyone at ``table`` that a timer played ``action`` for
    ``seat``, each from their own view (``before``: the match before it)."""
    who = table.seats[seat].name or table.match.seat_name(seat)
    events = TimeoutNotices(seat, who, action, before, table.match, table.seq)
    for conn in list(table.connections):
        with contextlib.suppress(Exception):
            await conn.send(events.for_seat(table.seat_of(conn.player)))
