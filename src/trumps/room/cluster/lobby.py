"""The lobby across workers (:class:`LobbyMirror`, :class:`RemoteTable`).

Each owner publishes a table's summary when it changes, with the facts the
access rules need (host, members, invited, removed); every worker keeps the
others' in :attr:`Cluster.remote` (:attr:`Shared.remote`), so each lobby
lists every table its viewer may see, whichever worker runs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trumps.room.tables.settings import TableSettings
from trumps.room.tables.table import Seat

if TYPE_CHECKING:
    from trumps.room.cluster.messages import AccessFacts, SummaryMessage, TableMessage
    from trumps.room.cluster.state import Shared
    from trumps.room.tables.table import Table, TableSummary

__all__ = ["LobbyMirror", "RemoteTable", "access_facts"]


class RemoteTable:
    """What a worker knows of a table another worker runs: its lobby
    summary and the facts the access rules read (so a lobby, a page or an
    invitation code is judged here exactly as the owner would)."""

    def __init__(self, tid: str, worker: str, summary: TableSummary, access: AccessFacts) -> None:
        self.id = tid
        self.worker = worker
        self.update(summary, access)

    def update(self, summary: TableSummary, access: AccessFacts) -> None:
        self._summary = summary
        self.status: str = summary["status"]
        self.created: float = summary["created"]
        self.host: str = access["host"]
        self.settings = TableSettings.model_validate(summary["settings"])
        self.seats = [Seat(player=p) for p in access["seats"]]
        self.pending = {i: (p, "") for i, p in enumerate(access["pending"])}
        self.invited: set[str] = set(access["invited"])
        self.banned: set[str] = set(access["banned"])
        self.invite: str | None = access.get("invite")
        self.game: str = summary["game"]
        self.preset: str | None = summary["preset"]

    def summary(self) -> TableSummary:
        return self._summary

    def seat_of(self, player: str | None) -> int | None:
        for i, s in enumerate(self.seats):
            if player is not None and s.player == player:
                return i
        return None


def access_facts(table: Table) -> AccessFacts:
    return {
        "host": table.host,
        "seats": [s.player for s in table.seats],
        "pending": [p for p, _ in table.pending.values()],
        "invited": sorted(table.invited),
        "banned": sorted(table.banned),
        "invite": table.invite,
    }


class LobbyMirror:
    """This worker's part in the one lobby every worker shows: it tells the
    others the tables it runs (``summary``, ``unlisted``) and mirrors
    theirs, so that a lobby, a table's page or an invitation is judged the
    same whichever worker the browser reached."""

    def __init__(self, state: Shared) -> None:
        self.state = state

    def publish(self, table: Table) -> None:
        """Tell every worker a table's lobby entry (it changed)."""
        self.state.bus.send(
            None, {"k": "summary", "t": table.id, "s": table.summary(), "a": access_facts(table)}
        )

    def tell(self, worker: str) -> None:
        """Tell a worker that started every table run here."""
        for table in self.state.room.tables.values():
            self.state.bus.send(
                worker, {"k": "summary", "t": table.id, "s": table.summary(), "a": access_facts(table)}
            )

    async def on_summary(self, m: SummaryMessage) -> None:
        s = self.state
        tid, worker = m["t"], m["from"]
        if worker == s.worker or tid in s.room.tables:
            return
        entry = s.remote.get(tid)
        if entry is None:
            s.remote[tid] = RemoteTable(tid, worker, m["s"], m["a"])
        else:
            entry.worker = worker
            entry.update(m["s"], m["a"])
        await s.room.lobby.changed()

    async def on_unlisted(self, m: TableMessage) -> None:
        s = self.state
        if m["from"] != s.worker and s.remote.pop(m["t"], None) is not None:
            await s.room.lobby.changed()
