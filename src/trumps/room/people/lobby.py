"""The lobby: the unfinished tables each viewer may see, and the sockets
that watch it.

Every table of every worker is listed (the others' through
:attr:`People.remote <trumps.room.people.presence.People.remote>`), each only
for the viewers the access rules list it for.  The listing covers every
table, so building it per change would cost O(tables) per action: changes
are gathered instead, and one push (at most one per
:data:`LOBBY_INTERVAL`) carries all of them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING

from trumps.room import wire
from trumps.room.tables import access
from trumps.room.tables.messages import PROTOCOL_VERSION
from trumps.room.tables.table import LIVE, Connection, Table, TableSummary

if TYPE_CHECKING:
    from trumps.room.people.presence import People

__all__ = ["LOBBY_INTERVAL", "Lobby", "LobbyEntry"]

LOBBY_INTERVAL = 0.1  # seconds: lobby updates are gathered, at most one push per interval

log = logging.getLogger("trumps.room")


class LobbyEntry(TableSummary, total=False):
    """A table in the lobby: its summary, and the viewer's seat there (``you``)."""

    you: str


class Lobby:
    """The listing of ``tables`` (this worker's) and ``people.remote`` (the
    others'), and the sockets watching it (:attr:`watchers`)."""

    def __init__(self, tables: dict[str, Table], people: People) -> None:
        self.tables = tables
        self.people = people
        self.watchers: set[Connection] = set()
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        # lobby entries checked to encode (see _entry): table id -> what was checked
        self._sound: dict[str, tuple[int, int, int, int, str, str]] = {}
        self._unlisted: set[str] = set()  # tables left out of the lobby (logged once)

    def listing(self, viewer: str | None = None) -> list[TableSummary | LobbyEntry]:
        """The lobby as ``viewer`` sees it: every unfinished table listed for
        them (:func:`trumps.room.tables.access.listed`), newest first.  ``you``: the
        seat the viewer holds there (the lobby offers the way back to it)."""
        every: list[access.Facts] = [*self.tables.values(), *self.people.remote.values()]
        tables = sorted(every, key=lambda t: t.created, reverse=True)
        out: list[TableSummary | LobbyEntry] = []
        for t in tables:
            if t.status not in LIVE or not self.people.listed(t, viewer):
                continue
            summary = self._entry(t)
            if summary is None:
                continue
            seat = t.seat_of(viewer) if viewer is not None else None
            if seat is not None:
                out.append({**summary, "you": summary["seats"][seat]["seat"]})
            else:
                out.append(summary)
        return out

    def _entry(self, t: access.Facts) -> TableSummary | None:
        """A table's lobby entry, or None (logged once) if it cannot be sent.

        One table whose stored settings, options or times no JSON can carry
        (a NaN start time, a target of 10**30 written before the checks
        existed) made ``GET /api/tables`` answer 500 and closed the lobby
        socket of everyone.  Such an entry is left out instead.  Encoding
        every entry on every listing would double the lobby's cost, so an
        entry is checked once, again only when the table's settings,
        options or times are other objects (the parts a table keeps
        from storage; the rest is the server's own)."""
        summary = t.summary()
        key = (
            id(t), id(t.settings), id(getattr(t, "options", None)), id(getattr(t, "preset", None)),
            repr(t.created), repr(getattr(t, "started", None)),
        )  # fmt: skip
        if self._sound.get(t.id) == key:
            return summary
        try:
            wire.dumps(summary)  # 64-bit integers, no lone surrogates
            json.dumps(summary, allow_nan=False)  # finite numbers (the REST answers)
        except (TypeError, ValueError, OverflowError) as exc:
            self._sound.pop(t.id, None)
            if t.id not in self._unlisted:
                self._unlisted.add(t.id)
                log.error("table %s is left out of the lobby: its entry cannot be encoded (%s)", t.id, exc)
            return None
        if len(self._sound) > 4 * len(self.tables) + 1000:  # forget tables long gone
            self._sound.clear()
        self._sound[t.id] = key
        return summary

    def event(self, viewer: str | None = None) -> dict[str, object]:
        """The ``lobby`` event for ``viewer``."""
        return {"v": PROTOCOL_VERSION, "type": "lobby", "tables": self.listing(viewer)}

    async def changed(self) -> None:
        """Some table's lobby entry changed (here or on another worker)."""
        if not self.watchers:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        await asyncio.sleep(0)  # gather the changes made in the same turn of the loop
        while self._dirty and self.watchers:
            self._dirty = False
            await self.send()
            await asyncio.sleep(LOBBY_INTERVAL)

    async def send(self) -> None:
        """The listing to every watcher (one listing per viewer)."""
        events: dict[str | None, dict[str, object]] = {}
        for conn in list(self.watchers):
            event = events.get(conn.player)
            if event is None:
                event = events[conn.player] = self.event(conn.player)
            try:
                await conn.send(event)
            except Exception:
                self.watchers.discard(conn)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
