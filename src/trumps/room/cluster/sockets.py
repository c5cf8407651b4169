"""Table sockets that cross workers, on both sides (:class:`Relays`, :class:`StandIns`).

A socket for a table run elsewhere is relayed
(:mod:`~trumps.room.cluster.relay`): the worker holding the socket keeps a
:class:`~trumps.room.cluster.relay.Relay` for it (:class:`Relays`), the
table's owner a :class:`~trumps.room.cluster.relay.RemoteConnection`
standing for it at the table (:class:`StandIns`).  Delivery gaps are
repaired by opening again with the last ``seq`` the socket has.  The two
sides keep nothing in common but the bus, so each is a class of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterable
from typing import TYPE_CHECKING

from trumps.room.cluster.relay import Relay, RemoteConnection, Replay
from trumps.room.cluster.state import DEAD_AFTER
from trumps.room.tables.messages import PROTOCOL_VERSION, error_event
from trumps.room.tables.table import AccessDenied, TableClosed

if TYPE_CHECKING:
    from trumps.room.cluster.messages import (
        BusMessage,
        ClientMessage,
        CloseMessage,
        EventMessage,
        OpenMessage,
        SocketMessage,
    )
    from trumps.room.cluster.state import Shared
    from trumps.room.tables.table import Connection, Table

__all__ = ["OPEN_RETRY", "OPEN_WAIT", "Relays", "StandIns"]

OPEN_RETRY = 0.5  # seconds before asking again where a table is
OPEN_WAIT = 12.0  # a relayed socket whose table no worker answers for is closed (the client reconnects)


class Relays:
    """The relayed sockets (this worker holds the socket): each opened at
    its table's owner, asking every worker while the owner is not known,
    and opened again when the owner changes or notifications were lost."""

    def __init__(self, state: Shared) -> None:
        self.state = state
        self.by_cid: dict[str, Relay] = {}  # cid -> a local socket at a table run elsewhere

    async def relay(
        self,
        conn: Connection,
        tid: str,
        since: int | None,
        messages: AsyncIterable[str | bytes],
        *,
        routing: bool = False,
    ) -> None:
        """Serve ``conn`` for a table another worker runs until the socket
        closes: ``messages`` yields the client's raw messages.  ``routing``:
        the proxy can send the socket to a named worker, so it is told the
        owner once the owner answers (:meth:`Relay.tell_owner`)."""
        cid = secrets.token_hex(8)
        entry = self.state.remote.get(tid)
        relay = Relay(cid, tid, conn, since, entry.worker if entry else None, routing, self.state.worker)
        relay.ask_replay = self._ask_replay
        self.by_cid[cid] = relay
        opener = asyncio.create_task(self._open(relay))
        try:
            async for raw in messages:
                if not relay.opened.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(relay.opened.wait(), OPEN_WAIT)
                if relay.closed:
                    break
                text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8", "replace")
                relay.note_sent(text)
                if relay.owner is not None:
                    self.state.bus.send(relay.owner, {"k": "msg", "c": cid, "raw": text})
        finally:
            relay.close()
            opener.cancel()
            self.by_cid.pop(cid, None)
            if relay.owner is not None:
                self.state.bus.send(relay.owner, {"k": "gone", "c": cid})

    async def _open(self, relay: Relay, repair: bool = False) -> None:
        """Ask the owner (everyone, if it is not known) to connect the
        socket, until one answers; a table nobody answers for within
        :data:`OPEN_WAIT` closes the socket (the page reconnects).
        ``repair``: opened again by this worker (a new owner, lost
        notifications), not by the client: its replay is not paced."""
        relay.opened.clear()
        deadline = time.monotonic() + OPEN_WAIT
        while not relay.closed and not relay.opened.is_set():
            if time.monotonic() > deadline:
                await relay.deliver(error_event("this table is not available right now; reconnecting"))
                with contextlib.suppress(Exception):
                    await relay.conn.close(1013)
                relay.close()
                return
            c = relay.conn
            msg = {"k": "open", "c": relay.cid, "t": relay.tid, "p": c.player, "n": c.name,
                   "pk": getattr(c, "person", None), "since": relay.last_seq, "to": relay.owner,
                   "repair": repair}  # fmt: skip
            self.state.bus.send(relay.owner, msg)  # None: broadcast, only the owner answers
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(OPEN_RETRY):  # (not wait_for: see Cluster._scan_loop)
                    await relay.opened.wait()

    def _ask_replay(self, relay: Relay, since: int) -> None:
        """A relayed socket missed states: the owner replays them, in order
        on the same stream, as a repair (``repair``: not paced; an owner of
        an earlier version reads the client protocol's own ``hello``)."""
        if relay.owner is not None:
            hello = json.dumps({"v": PROTOCOL_VERSION, "type": "hello", "since": since})
            self.state.bus.send(relay.owner, {"k": "msg", "c": relay.cid, "raw": hello, "repair": since})

    def _reopen(self, relay: Relay, owner: str | None) -> None:
        relay.owner = owner
        relay.opened.clear()
        asyncio.get_running_loop().create_task(self._open(relay, repair=True))

    def owner_is(self, tid: str, owner: str) -> None:
        """``owner`` announced it runs ``tid``: its sockets open there."""
        for relay in list(self.by_cid.values()):
            if relay.tid == tid and relay.owner != owner:
                self._reopen(relay, owner)

    def reopen_all(self) -> None:
        """Notifications were lost: every socket opens again from the last state it has."""
        for relay in list(self.by_cid.values()):
            self._reopen(relay, relay.owner)

    def goodbye(self) -> None:
        """This worker leaves: the owners may forget its sockets' stand-ins."""
        for relay in list(self.by_cid.values()):
            if relay.owner is not None:
                self.state.bus.send(relay.owner, {"k": "gone", "c": relay.cid})

    async def on_opened(self, m: SocketMessage) -> None:
        relay = self.by_cid.get(m["c"])
        if relay is not None:
            relay.owner = m["from"]
            relay.answer_next()
            relay.opened.set()
            # an action sent just before the owner changed may have been lost
            # with it: send it again (its seq makes a second copy harmless)
            if relay.unanswered is not None:
                self.state.bus.send(relay.owner, {"k": "msg", "c": relay.cid, "raw": relay.unanswered})

    async def on_nothere(self, m: SocketMessage) -> None:
        relay = self.by_cid.get(m["c"])
        if relay is not None and relay.owner == m["from"]:
            relay.owner = None  # ask everyone next time

    async def on_moved(self, m: SocketMessage) -> None:
        relay = self.by_cid.get(m["c"])
        if relay is not None:
            self._reopen(relay, None)

    async def on_ev(self, m: EventMessage) -> None:
        relay = self.by_cid.get(m["c"])
        if relay is None:  # the socket closed: the owner may forget it
            self.state.bus.send(m["from"], {"k": "gone", "c": m["c"]})
            return
        if relay.owner == m["from"]:
            await relay.deliver(m["e"])

    async def on_close(self, m: CloseMessage) -> None:
        relay = self.by_cid.get(m["c"])
        if relay is not None and int(m.get("code", 1000)) == 1012 and relay.owner == m["from"]:
            self._reopen(relay, None)  # the table moved on as the stand-in came: find its new worker
            return
        if relay is not None:
            relay.close()
            with contextlib.suppress(Exception):
                await relay.conn.close(int(m.get("code", 1000)))

    async def on_regap(self, m: BusMessage) -> None:
        """Another worker lost notifications: the sockets relayed to its tables open again."""
        if m["from"] == self.state.worker:
            return
        for relay in list(self.by_cid.values()):
            if relay.owner == m["from"]:
                self._reopen(relay, relay.owner)


class StandIns:
    """The stand-ins (this worker runs the table) for sockets another worker
    holds: each joins its table and hands it the client's messages in
    order, until its socket goes (``gone``), its worker goes, or the table
    is let go."""

    def __init__(self, state: Shared) -> None:
        self.state = state
        self.guests: dict[str, tuple[str, RemoteConnection]] = {}  # cid -> (table, stand-in)

    async def on_open(self, m: OpenMessage) -> None:
        tid, cid, sender = m["t"], m["c"], m["from"]
        table = self.state.room.tables.get(tid)
        if table is None:
            if m.get("to") == self.state.worker:
                self.state.bus.send(sender, {"k": "nothere", "c": cid, "t": tid})
            return
        old = self.guests.pop(cid, None)
        if old is not None:
            await self.leave(old[1], table)
        conn = RemoteConnection(self.state.bus, sender, cid, m.get("p"), m.get("n") or "", m.get("pk"))
        self.guests[cid] = (tid, conn)
        self.state.bus.send(sender, {"k": "opened", "c": cid, "t": tid})
        paced = m.get("repair") is not True
        conn.task = asyncio.create_task(self.serve(table, conn, m.get("since"), paced))

    async def serve(
        self, table: Table, conn: RemoteConnection, since: int | None, paced: bool = True
    ) -> None:
        """The stand-in at its table: joined, then the client's messages handled one by one."""
        from trumps.room.tables.dispatch import handle

        try:
            await table.join(conn, since, paced=paced)
        except AccessDenied as exc:
            await conn.send(table.error(str(exc)))
            await conn.close(4403)
            self.guests.pop(conn.cid, None)
            return
        except TableClosed:  # handed over meanwhile: the socket opens again and finds it
            await conn.close(1012)
            self.guests.pop(conn.cid, None)
            return
        try:
            while True:
                raw = await conn.inbox.get()
                if raw is None:
                    break
                if isinstance(raw, Replay):
                    await table.catch_up(conn, raw.since, paced=False)
                    continue
                await handle(table, conn, raw)
        finally:
            table.leave(conn)  # (again: the socket may have closed while it joined)

    async def leave(self, conn: RemoteConnection, table: Table | None) -> None:
        """The socket behind a stand-in closed.  Its loop is not cancelled:
        it ends after the messages that came before (the socket sent them),
        and a message half handled finishes — cancelled in the middle, a sit
        that filled the table left it full but never started (the socket had
        been told the owner and left at once)."""
        conn.inbox.put_nowait(None)
        if table is not None:
            table.leave(conn)

    def let_go(self, conn: RemoteConnection, tid: str, moved: bool) -> None:
        """The table ``tid`` is let go here: its stand-in stops at once;
        ``moved``: its socket's worker is told to find the table elsewhere."""
        self.guests.pop(conn.cid, None)
        if conn.task is not None:
            conn.task.cancel()
        if moved:
            self.state.bus.send(conn.worker, {"k": "moved", "c": conn.cid, "t": tid})

    async def worker_gone(self, worker: str) -> None:
        """A worker stopped beating: the sockets it held are gone."""
        for cid, (tid, conn) in list(self.guests.items()):
            if conn.worker == worker:
                del self.guests[cid]
                await self.leave(conn, self.state.room.tables.get(tid))

    def unconfirm(self) -> None:
        """Notifications were lost: each stand-in stays if its socket opens
        again soon (:meth:`drop_unconfirmed`)."""
        for _tid, conn in self.guests.values():
            conn.confirmed = False

    async def drop_unconfirmed(self) -> None:
        await asyncio.sleep(DEAD_AFTER)
        for cid, (tid, conn) in list(self.guests.items()):
            if not conn.confirmed:
                del self.guests[cid]
                await self.leave(conn, self.state.room.tables.get(tid))

    async def on_msg(self, m: ClientMessage) -> None:
        got = self.guests.get(m["c"])
        if got is not None:
            repair = m.get("repair")  # (from the socket's worker, never from the client)
            if isinstance(repair, int) and not isinstance(repair, bool):
                got[1].inbox.put_nowait(Replay(repair))
            else:
                got[1].inbox.put_nowait(m["raw"])

    async def on_gone(self, m: SocketMessage) -> None:
        got = self.guests.pop(m["c"], None)
        if got is not None:
            await self.leave(got[1], self.state.room.tables.get(got[0]))
