"""The room: every live table, the lobby's subscribers, table creation and
the rebuild of every unfinished table at start-up."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import trumps
from trumps.core.errors import TrumpsError
from trumps.room.messages import PROTOCOL_VERSION
from trumps.room.store import Store
from trumps.room.table import Connection, RoomError, Table

__all__ = ["Room", "game_catalogue"]

LOBBY_INTERVAL = 0.1  # seconds: lobby updates are gathered, at most one push per interval


def game_catalogue() -> list[dict[str, Any]]:
    """Every installed game with its option metadata (forms are built from it)."""
    out = []
    for name in trumps.games():
        cls = trumps.game_class(name)
        out.append({"game": name, **cls.schema.describe()})
    return out


class Room:
    def __init__(self, store: Store, *, bot_delay: float = 0.6, grace: float = 30.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.grace = grace
        self.tables: dict[str, Table] = {}
        self.lobby: set[Connection] = set()
        self.names: dict[str, str] = {}
        self._lobby_dirty = False
        self._lobby_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Rebuild every unfinished table from storage and restart its bots."""
        stored = await self.store.run(self.store.load_tables)
        for st in stored:
            for player, _bot in st.seats.values():
                if player and player not in self.names:
                    name = await self.store.run(self.store.player_name, player)
                    self.names[player] = name or "?"
            table = self._make(st)
            self.tables[table.id] = table
            table._schedule_bot()

    def _make(self, st: Any) -> Table:
        return Table(
            st, self.store, self.names, bot_delay=self.bot_delay, grace=self.grace, on_change=self._changed
        )

    async def stop(self) -> None:
        if self._lobby_task is not None:
            self._lobby_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._lobby_task
        for t in self.tables.values():
            await t.close()

    # ----- players ---------------------------------------------------------------
    async def new_player(self, name: str) -> str:
        pid = await self.store.run(self.store.create_player, name)
        self.names[pid] = name
        return pid

    async def player_name(self, pid: str) -> str | None:
        if pid not in self.names:
            name = await self.store.run(self.store.player_name, pid)
            if name is None:
                return None
            self.names[pid] = name
        return self.names[pid]

    # ----- tables ------------------------------------------------------------------
    async def create_table(
        self, host: str, game: str, preset: str | None, options: dict[str, Any] | None
    ) -> Table:
        """Validate the options through the engine, store the table, go live."""
        try:
            cls = trumps.game_class(game)
            resolved = cls.schema.resolve(preset or None, options or {})
            seed = random.SystemRandom().randrange(2**62)
            probe = trumps.new_game(cls.game, options=resolved.to_dict(), seed=seed)
        except TrumpsError as exc:
            raise RoomError(str(exc)) from None
        tid = await self.store.run(
            self.store.create_table, cls.game, preset or None, resolved.to_dict(), seed, host, probe.players
        )
        st = await self.store.run(self.store.load_table, tid)
        assert st is not None
        table = self._make(st)
        self.tables[tid] = table
        await self._changed(table)
        return table

    def get(self, tid: str) -> Table:
        try:
            return self.tables[tid]
        except KeyError:
            raise RoomError(f"no table {tid!r}") from None

    def listing(self) -> list[dict[str, Any]]:
        tables = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)
        return [t.summary() for t in tables if t.status != "finished"]

    def lobby_event(self) -> dict[str, Any]:
        return {"v": PROTOCOL_VERSION, "type": "lobby", "tables": self.listing()}

    async def _changed(self, _table: Table) -> None:
        """A table's lobby entry changed: push the listing to the lobby.

        The listing covers every table, so building it per change would cost
        O(tables) per action; changes are gathered instead, and one push
        (at most one per :data:`LOBBY_INTERVAL`) carries all of them."""
        if not self.lobby:
            return
        self._lobby_dirty = True
        if self._lobby_task is None or self._lobby_task.done():
            self._lobby_task = asyncio.get_running_loop().create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        await asyncio.sleep(0)  # gather the changes made in the same turn of the loop
        while self._lobby_dirty and self.lobby:
            self._lobby_dirty = False
            await self.send_lobby()
            await asyncio.sleep(LOBBY_INTERVAL)

    async def send_lobby(self) -> None:
        event = self.lobby_event()
        for conn in list(self.lobby):
            try:
                await conn.send(event)
            except Exception:
                self.lobby.discard(conn)
