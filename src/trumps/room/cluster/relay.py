"""Table connections that cross workers.

A browser's socket may land on any worker (the proxy is plain round
robin), but only the table's owner runs the table.  So:

- on the socket's worker, a :class:`Relay` forwards the client's messages
  to the owner and the owner's events to the socket, remembering the last
  state's ``seq``; when the owner changes (a takeover, a handover, a gap in
  the notifications) it opens again with ``since`` = that seq and the new
  owner replays what was missed from the stored log;
- on the owner, a :class:`RemoteConnection` stands for that socket among
  the table's connections.  The table makes its events exactly as for a
  local socket (each recipient's own view, made by the owner), and the
  stand-in sends them to the socket's worker.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trumps.room.cluster.bus import Bus
    from trumps.room.table import Connection

__all__ = ["Relay", "RemoteConnection"]


class RemoteConnection:
    """The owner's stand-in for a socket on another worker."""

    def __init__(self, bus: Bus, worker: str, cid: str, player: str | None, name: str) -> None:
        self.bus = bus
        self.worker = worker
        self.cid = cid
        self.player = player
        self.name = name
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def send(self, event: dict[str, Any]) -> None:
        self.bus.send(self.worker, {"k": "ev", "c": self.cid, "e": event})

    async def close(self, code: int = 1000) -> None:
        self.bus.send(self.worker, {"k": "close", "c": self.cid, "code": code})


class Relay:
    """A local socket at a table another worker runs."""

    def __init__(self, cid: str, tid: str, conn: Connection, since: int | None, owner: str | None) -> None:
        self.cid = cid
        self.tid = tid
        self.conn = conn
        self.last_seq = since  # the last state the socket has
        self.owner = owner  # None: not known (ask everyone)
        self.opened = asyncio.Event()
        self.closed = False

    async def deliver(self, event: dict[str, Any]) -> None:
        if event.get("type") == "state" and isinstance(event.get("seq"), int):
            self.last_seq = event["seq"]
        with contextlib.suppress(Exception):
            await self.conn.send(event)
