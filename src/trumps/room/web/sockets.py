"""The lobby's and the tables' WebSockets.

Every socket is counted against its person's budget before it is served
(:mod:`trumps.room.limits`), sends only through its bounded queue
(:class:`~trumps.room.web.socket_queue.QueuedSocket`: a reader that does not read
is dropped, never holding up a table or the lobby), and is tracked with
its login session, so that logging out ends it.  A table socket for a
table another worker runs is relayed there (:mod:`trumps.room.cluster`).
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from trumps.room import wire
from trumps.room.cluster.relay import ROUTING_HEADER, routing_name
from trumps.room.limits import person_key
from trumps.room.tables.dispatch import handle
from trumps.room.tables.messages import error_event
from trumps.room.tables.table import AccessDenied, RoomError, Table, TableClosed
from trumps.room.web.accounts import Who
from trumps.room.web.shared import Web
from trumps.room.web.socket_queue import QueuedSocket, admit_socket, client_messages
from trumps.room.web.tables import live_elsewhere

__all__ = ["Sockets", "WsConnection", "since_param", "socket_person"]


def socket_person(ws: WebSocket, who: Who) -> str:
    """The budget key of a socket's person (trumps.room.limits.person_key)."""
    return person_key(who.player, who.account, ws.client.host if ws.client else None)


def since_param(text: str | None) -> int | None:
    """A socket's ``?since=``: the last sequence number the page has, or
    None for anything that is not one (a huge number would not even fit
    the JSON of the bus that carries it to another worker)."""
    if text and text.isascii() and text.isdigit() and len(text) <= 12:
        return int(text)
    return None


class WsConnection(QueuedSocket):
    """A table or lobby client over a WebSocket.  ``send`` only queues
    (:class:`~trumps.room.web.socket_queue.QueuedSocket`): a client that does not read
    is dropped, and never holds up the table or the lobby."""

    def __init__(
        self,
        ws: WebSocket,
        player: str | None,
        name: str,
        session: str | None = None,
        person: str | None = None,
    ) -> None:
        super().__init__(ws)
        self.player = player
        self.name = name
        self.session = session
        # whose budgets (chat, suggestions...) this socket spends: an
        # account's own, a guest's address's (trumps.room.limits.person_key)
        self.person = person or person_key(player, False, ws.client.host if ws.client else None)
        # came through a proxy that routes table sockets by worker name: a
        # handover tells it the heir (trumps.room.cluster.node.Cluster.release)
        self.routing = ws.headers.get(ROUTING_HEADER) == "worker"


class Sockets:
    """``/ws/lobby`` and ``/ws/table/{id}`` (a person's own channel,
    ``/ws/me``, is :mod:`trumps.room.people.presence_routes`')."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            WebSocketRoute("/ws/lobby", self.ws_lobby),
            WebSocketRoute("/ws/table/{tid:tid}", self.ws_table),
        ]

    def connection(self, ws: WebSocket, who: Who) -> WsConnection:
        return WsConnection(ws, who.player, who.name, who.session, socket_person(ws, who))

    async def admit(self, ws: WebSocket, who: Who, table: str | None = None) -> tuple[str, str | None] | None:
        """Count a new socket against its person's budget (by player, or by
        address for nobody yet; a guest's or nobody's against its address's
        too, unless the address is unmetered): the key and address to
        release it with, or None after refusing it (an error event, then a
        policy close)."""
        key = who.player or socket_person(ws, who)
        host = ws.client.host if ws.client else None
        address = None if who.account or host in self.web.unmetered else person_key(None, False, host)
        return (key, address) if await admit_socket(ws, self.web.sockets, key, table, address) else None

    def spender(self, key: tuple[str, str | None]) -> Callable[[], bool]:
        """What spends a message of the socket admitted as ``key`` from
        the budgets its person's (and guests' address's) sockets share."""
        return self.web.sockets.spender(key[0], key[1])

    async def ws_lobby(self, ws: WebSocket) -> None:
        await ws.accept()
        sessions, room = self.web.sessions, self.web.room()
        who = await sessions.who(ws)
        key = await self.admit(ws, who)
        if key is None:
            return
        conn = self.connection(ws, who)
        sessions.track(who.session, conn)
        room.lobby.watchers.add(conn)
        try:
            await conn.send(room.lobby.event(who.player))
            async for _ in client_messages(ws, conn, shared=self.spender(key)):
                pass  # the lobby is read-only; keep the socket open
        finally:
            room.lobby.watchers.discard(conn)
            sessions.untrack(who.session, conn)
            self.web.sockets.close(key[0], None, key[1])
            await conn.finish()

    async def ws_table(self, ws: WebSocket) -> None:
        await ws.accept()
        tid = ws.path_params["tid"]
        since = since_param(ws.query_params.get("since"))
        try:
            table = await self.local_table(ws, tid)
        except RoomError as exc:
            if self.web.room().cluster is not None and await live_elsewhere(self.web, tid) is not None:
                # a proxy that can send a socket to a named worker says so
                # (deploy/nginx/trumps.conf): then the page is told the owner
                routing = ws.headers.get(ROUTING_HEADER) == "worker"
                await self.ws_relayed(ws, tid, since, routing)
                return
            await ws.send_text(wire.dumps(error_event(str(exc))))
            await ws.close(code=4404)
            return
        who = await self.web.sessions.who(ws)
        key = await self.admit(ws, who, tid)
        if key is None:
            return
        try:
            await self.table_socket(ws, who, table, since, self.spender(key))
        finally:
            self.web.sockets.close(key[0], tid, key[1])

    async def table_socket(
        self,
        ws: WebSocket,
        who: Who,
        table: Table,
        since: int | None,
        shared: Callable[[], bool] | None = None,
    ) -> None:
        conn = self.connection(ws, who)
        try:
            await table.join(conn, since)
        except AccessDenied as exc:
            await ws.send_text(wire.dumps(table.error(str(exc))))
            await ws.close(code=4403)
            return
        except TableClosed:  # handed over meanwhile: the page comes back and finds it
            await ws.close(code=1012)
            return
        except Exception:  # the socket closed while its first states were sent
            table.leave(conn)
            return
        sessions = self.web.sessions
        sessions.track(who.session, conn)
        try:
            async for raw in client_messages(ws, conn, table.error, shared):
                await handle(table, conn, raw)
        finally:
            sessions.untrack(who.session, conn)
            table.leave(conn)
            await conn.finish()

    async def local_table(self, ws: WebSocket, tid: str) -> Table:
        """The table, run here.  A socket sent to this worker by name
        (``?worker=``: the table's summary, a route, an heir named at a
        handover) for a table it does not run yet waits a moment for the
        table to arrive rather than being relayed."""
        room = self.web.room()
        c = room.cluster
        if c is not None and tid not in room.tables and ws.headers.get(ROUTING_HEADER) == "worker":
            name = routing_name(c.worker)
            if name is not None and ws.query_params.get("worker") == name:
                await c.arrival(tid)
        return room.get(tid)

    async def ws_relayed(self, ws: WebSocket, tid: str, since: int | None, routing: bool) -> None:
        """A socket for a table another worker runs (trumps.room.cluster.relay)."""
        c = self.web.room().cluster
        assert c is not None
        sessions = self.web.sessions
        who = await sessions.who(ws)
        key = await self.admit(ws, who, tid)
        if key is None:
            return
        conn = self.connection(ws, who)
        sessions.track(who.session, conn)
        try:
            await c.relay(
                conn, tid, since, client_messages(ws, conn, shared=self.spender(key)), routing=routing
            )
        finally:
            sessions.untrack(who.session, conn)
            self.web.sockets.close(key[0], tid, key[1])
            await conn.finish()
