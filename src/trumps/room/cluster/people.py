"""People across workers (:class:`PeopleAcross`).

A person's sockets may be on several workers.  Presence, pushes to a
person's own channel, friendship changes, renames and ended sessions are
broadcast, so they hold on every worker; each worker applies them to its
own :class:`~trumps.room.people.presence.People` (``local=True``: not
broadcast again).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trumps.room.cluster.messages import (
        BusMessage,
        EndedMessage,
        PersonMessage,
        PresenceMessage,
        PushMessage,
    )
    from trumps.room.cluster.state import Shared

__all__ = ["PeopleAcross"]


class PeopleAcross:
    """What this worker tells the others of its people, and learns of
    theirs: who has a channel open where (:attr:`online`), pushes, social
    changes, renames and revoked sessions."""

    def __init__(self, state: Shared) -> None:
        self.state = state
        self.online: defaultdict[str, set[str]] = defaultdict(set)  # player -> workers with their channel

    def tell(self, worker: str) -> None:
        """Tell a worker that started who is online here."""
        for pid in self.state.room.people.channels:
            self.state.bus.send(worker, {"k": "presence", "p": pid, "on": True})

    def worker_gone(self, worker: str) -> None:
        """A worker stopped beating: its channels are closed."""
        for pid, workers in list(self.online.items()):
            if worker in workers:
                workers.discard(worker)
                if not workers:
                    del self.online[pid]

    def presence(self, pid: str, on: bool) -> None:
        self.state.bus.send(None, {"k": "presence", "p": pid, "on": on})

    async def on_presence(self, m: PresenceMessage) -> None:
        if m["from"] == self.state.worker:
            return
        # (the friends were told by the worker the person is on: People.attach/detach)
        pid, workers = m["p"], self.online[m["p"]]
        (workers.add if m["on"] else workers.discard)(m["from"])
        if not workers:
            del self.online[pid]

    def push(self, pid: str, event: Mapping[str, object]) -> None:
        self.state.bus.send(None, {"k": "push", "p": pid, "e": event})

    async def on_push(self, m: PushMessage) -> None:
        if m["from"] != self.state.worker:
            await self.state.room.people.push(m["p"], m["e"], local=True)

    def social_changed(self) -> None:
        self.state.bus.send(None, {"k": "social"})

    async def on_social(self, m: BusMessage) -> None:
        if m["from"] != self.state.worker:
            await self.state.room.people.reload_social()

    def renamed(self, pid: str) -> None:
        self.state.bus.send(None, {"k": "renamed", "p": pid})

    async def on_renamed(self, m: PersonMessage) -> None:
        room = self.state.room
        if m["from"] != self.state.worker:  # names and the account flag are cached per worker
            await room.people.renamed(m["p"], local=True)
            for table in room.tables.values():
                if table.seat_of(m["p"]) is not None:
                    await table.broadcast()

    def sessions_ended(self, sids: list[str]) -> None:
        self.state.bus.send(None, {"k": "ended", "sids": sids})

    async def on_ended(self, m: EndedMessage) -> None:
        room = self.state.room
        if m["from"] != self.state.worker and room.sessions is not None:
            await room.sessions.ended(m["sids"], local=True)
