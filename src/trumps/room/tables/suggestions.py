"""The bot's suggestions to the players who switched them on.

Apart from the actor because a suggestion is a slow computation with a
cache and a budget of its own: made at most once per state (kept by seq
and seat) and never twice at once, from the seat's own view only, and
sent to that player alone."""

from __future__ import annotations

import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

from trumps.room.tables.chat import Budget
from trumps.room.tables.errors import RoomError
from trumps.room.tables.messages import PROTOCOL_VERSION
from trumps.room.tables.thinking import think
from trumps.room.tables.wire import Connection

if TYPE_CHECKING:
    from trumps.room.tables.table import Table

log = logging.getLogger("trumps.room")

# ``suggest on/off`` switches per person in any window of CHAT_WINDOW seconds
# (each one sends the person a state and may start a computation)
SUGGEST_SWITCHES = 6
SUGGESTION_LEVEL = "normal"  # the bot level whose choice a suggestion shows


class Suggestions:
    """Who asked for suggestions at one table, and the last one made."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.players: set[str] = set()  # players who switched suggestions on
        self.switches = Budget(SUGGEST_SWITCHES)
        # the last suggestion made, by (seq, seat), and the one being computed
        self._made: tuple[tuple[int, int], dict[str, Any]] | None = None
        self._making: tuple[int, int] | None = None

    async def switch(self, conn: Connection, on: bool) -> None:
        """A player switches the bot's suggestions on or off for themselves."""
        t = self.table
        if conn.player is None or t.seat_of(conn.player) is None:
            raise RoomError("only a player with a seat can ask for suggestions")
        if on and not t.settings.suggestions:
            if t.settings.competition:
                raise RoomError("suggestions are off at this table (a competition game)")
            raise RoomError("suggestions are off at this table")
        self.switches.spend(conn, t.clock.now())
        if on:
            self.players.add(conn.player)
        else:
            self.players.discard(conn.player)
        for c in list(t.connections):
            if c.player == conn.player:
                with contextlib.suppress(Exception):
                    await c.send(t.state_event(c))
        await self.send()

    async def send(self) -> None:
        """If the seat to act asked for suggestions: the bot's choice, sent to
        every socket of that player.  Asking again, switching on and off, or
        a second socket gets the one already made, or the one under way
        sends it when done."""
        t = self.table
        seat = t.match.to_act_index
        if seat is None or t.status != "playing" or not t.settings.suggestions:
            return
        player = t.seats[seat].player
        if player is None or player not in self.players:
            return
        seq = t.seq
        key = (seq, seat)
        if self._made is not None and self._made[0] == key:
            suggestion = self._made[1]
        elif self._making == key:
            return  # under way: it is sent to every socket of the player when done
        else:
            self._making = key
            try:
                suggestion = await self._suggest(seat)
            finally:
                if self._making == key:
                    self._making = None
            self._made = (key, suggestion)
        if t.seq != seq or player not in self.players:
            return
        event = {"v": PROTOCOL_VERSION, "type": "suggestion", "seq": seq, **suggestion}
        for c in list(t.connections):
            if c.player == player:
                with contextlib.suppress(Exception):
                    await c.send(event)

    async def _suggest(self, seat: int) -> dict[str, Any]:
        """The ``normal`` bot's choice for ``seat`` with its reasons (the value
        of each candidate over the sampled deals), from that seat's view."""
        from trumps.bots.suggest import suggest

        t = self.table
        legal = [str(a) for a in t.match.legal_actions()]
        view = t.match.view(seat)
        rng = random.Random(t.rng.getrandbits(64))
        try:
            got = await think(False, suggest, t.game, view, legal, SUGGESTION_LEVEL, rng)
            if got.get("action") in legal:
                return {"action": got["action"], "reasons": got.get("reasons")}
            log.error("suggestion %r is not legal at table %s", got.get("action"), t.id)
        except Exception:
            log.exception("suggestion failed at table %s; the rule bot's choice instead", t.id)
        return {"action": await t.bots.choice(seat, "rules"), "reasons": None}
