"""A table's chat: its lines, who reads which channel, and the budgets.

Apart from the actor because the chat's rules (two channels, the table's
chat setting during the game, preset phrases, per-person budgets) change
for reasons of their own; the actor only broadcasts after a line.  The
:class:`Budget` also paces the suggestion switch."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

from trumps.room.storage.store import ChatLine
from trumps.room.tables.errors import RoomError
from trumps.room.tables.settings import PHRASE_OF_TEXT, PRESET_PHRASES
from trumps.room.tables.wire import Connection, person_of

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

CHAT_BURST, CHAT_WINDOW = 5, 10.0  # at most 5 chat lines per player in any 10 seconds
# ... and ADDRESS_SHARE times that for all the guests of one address together
# (guests are free to make; a family at one table still has room to talk)
ADDRESS_SHARE = 3
#: The lines a state carries.
SHOWN = 50


class Budget:
    """At most ``burst`` uses per player, and ``ADDRESS_SHARE`` times that
    per person (:func:`person_of`: an account or address; a guest
    identity costs nothing to make), in any :data:`CHAT_WINDOW` seconds.
    The book forgets keys idle that long, so it stays as small as the
    people using it."""

    def __init__(self, burst: int) -> None:
        self.burst = burst
        self.book: dict[str, deque[float]] = {}

    def spend(self, conn: Connection, now: float) -> None:
        """Count one use by ``conn`` at ``now``, or refuse (:class:`RoomError`)."""
        book = self.book
        keys = {person_of(conn): self.burst * ADDRESS_SHARE}
        keys[conn.player or person_of(conn)] = self.burst  # (an account: its own key, the player's burst)
        for who, old in list(book.items()):
            while old and now - old[0] >= CHAT_WINDOW:
                old.popleft()
            if not old and who not in keys:
                del book[who]
        if any(len(book.get(key, ())) >= most for key, most in keys.items()):
            raise RoomError("you are sending messages too fast; wait a few seconds")
        for key in keys:
            book.setdefault(key, deque()).append(now)


class Chat:
    """The lines of one table (both channels, oldest first) and its budget."""

    def __init__(self, stored: Iterable[ChatLine]) -> None:
        self.lines: list[dict[str, object]] = [
            {**line, "phrase": PHRASE_OF_TEXT.get(line["text"])} for line in stored
        ]
        self.budget = Budget(CHAT_BURST)

    def players_lines(self) -> list[dict[str, object]]:
        """The last 50 lines of the players' channel (read from the end: the
        chat only grows, and this runs for every state sent)."""
        out: list[dict[str, object]] = []
        for line in reversed(self.lines):
            if line.get("channel") != "spectators":
                out.append(line)
                if len(out) == SHOWN:
                    break
        out.reverse()
        return out

    def shown(self, player_side: bool, hidden: Iterable[str]) -> list[dict[str, object]]:
        """The lines a reader sees: players (and the host) never see the
        spectators' channel, spectators see both; less the lines of the
        people this reader blocked (``hidden``)."""
        lines = self.players_lines() if player_side else self.lines[-SHOWN:]
        hide = set(hidden)
        if hide:
            lines = [line for line in lines if line.get("player") not in hide]
        return lines

    async def say(self, table: Table, conn: Connection, text: str | None, phrase: str | None) -> None:
        """A chat line, typed (``text``) or a preset phrase by its key
        (``phrase``; stored as its English text, shown to each reader in
        their language).  Players and spectators have separate channels;
        while the game is played the table's chat setting applies to the
        players' channel (before and after the game it is always open)."""
        if conn.player is None:
            raise RoomError("choose a name before chatting")
        if phrase is not None:
            if phrase not in PRESET_PHRASES:
                raise RoomError(f"no such phrase: {phrase}")
            text = PRESET_PHRASES[phrase]
        clean = " ".join((text or "").split())[:300]
        if not clean:
            raise RoomError("empty message")
        settings = table.settings
        # the host counts as a player (a host may run the table without a seat)
        seated = table.seat_of(conn.player) is not None or conn.player == table.host
        channel = "players" if seated else "spectators"
        if not seated and not settings.spectator_chat:
            raise RoomError("spectator chat is off at this table")
        if seated and table.status == "playing":
            if settings.chat == "none":
                raise RoomError("chat is off while the game is played")
            if settings.chat == "preset" and clean not in PHRASE_OF_TEXT:
                raise RoomError("only the preset phrases can be sent while the game is played")
        at = table.clock.now()
        self.budget.spend(conn, at)
        store = table.store
        seq = await store.run(store.append_chat, table.id, conn.player, conn.name, clean, at, channel)
        self.lines.append(
            {
                "seq": seq,
                "player": conn.player,
                "name": conn.name,
                "text": clean,
                "phrase": PHRASE_OF_TEXT.get(clean),
                "at": at,
                "channel": channel,
            }
        )
