"""The ASGI app: pages, a small JSON API and three WebSockets (lobby,
table, and each person's own channel).

Who a request is comes from its session cookie (:mod:`trumps.room.account_routes`),
so a client can only ever act for its own seat; cross-site requests are
refused (:mod:`trumps.room.csrf`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar
from urllib.parse import quote

from itsdangerous import URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from trumps.i18n import N_, translator
from trumps.room import (
    access,
    account_routes,
    competition,
    history,
    history_store,
    languages,
    people_routes,
    play,
    profiles,
    rematch,
    wire,
)
from trumps.room.account_routes import Sessions, Who
from trumps.room.cluster.relay import ROUTING_HEADER, routing_name
from trumps.room.csrf import CrossSiteGuard
from trumps.room.dispatch import handle
from trumps.room.limits import BodyLimit, SocketCount, person_key
from trumps.room.messages import MessageError, error_event
from trumps.room.pages import message_page
from trumps.room.room import KEEP_FINISHED, Room, game_catalogue
from trumps.room.settings import PRESET_PHRASES, settings_schema
from trumps.room.sockets import QueuedSocket, TransportAccess, admit_socket, client_messages
from trumps.room.stopping import CloseWhenStopping, Stopping
from trumps.room.store import Store, StoreUnavailable
from trumps.room.table import ABANDON_AFTER, AccessDenied, RoomError, Table, TableClosed
from trumps.room.timers import Clock
from trumps.room.validate import Line, RefuseControlCharacters

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("trumps.room")

M = TypeVar("M", bound=BaseModel)


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Line = Field(min_length=1, max_length=20)
    preset: Line | None = Field(default=None, max_length=40)
    options: dict[str, object] = Field(default_factory=dict)
    settings: dict[str, object] = Field(default_factory=dict)
    invite: list[Line] = Field(default_factory=list, max_length=12)  # friends to invite at once


@dataclass
class _Started:
    """What the app's lifespan makes at start-up and its routes then use."""

    store: Store | None = None
    room: Room | None = None
    signer: URLSafeSerializer | None = None


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Line = Field(min_length=1, max_length=24)


def socket_person(ws: WebSocket, who: Who) -> str:
    """The budget key of a socket's person (trumps.room.limits.person_key)."""
    return person_key(who.player, who.account, ws.client.host if ws.client else None)


class WsConnection(QueuedSocket):
    """A table or lobby client over a WebSocket.  ``send`` only queues
    (:class:`~trumps.room.sockets.QueuedSocket`): a client that does not read
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


async def server_error(_request: Request, _exc: Exception) -> Response:
    """The answer to a request that raised: a 500 that closes its connection.

    uvicorn closes a keep-alive connection after an unhandled exception
    without saying so; a reverse proxy that pools connections to the workers
    (nginx's ``keepalive``, ``deploy/nginx``) then sends the next request,
    maybe another player's POST, down the closed connection and answers it
    502.  ``Connection: close`` tells the proxy not to reuse it.  (Starlette
    still re-raises the exception, so the server logs it.)"""
    return PlainTextResponse("Internal Server Error", status_code=500, headers={"Connection": "close"})


async def store_unavailable(_request: Request, exc: Exception) -> Response:
    """A write the database did not take (trumps.room.db.StoreUnavailable):
    503 with the reason, nothing acknowledged (logged once where detected)."""
    return JSONResponse({"error": str(exc)}, status_code=503)


def since_param(text: str | None) -> int | None:
    """A socket's ``?since=``: the last sequence number the page has, or
    None for anything that is not one (a huge number would not even fit
    the JSON of the bus that carries it to another worker)."""
    if text and text.isascii() and text.isdigit() and len(text) <= 12:
        return int(text)
    return None


GC_YOUNG = 5_000  # allocations between young collections (CPython's default: 700)


def server_gc() -> None:
    """Garbage collection for a long-running server process.

    A full collection walks every tracked object and stops the process
    (event loop and database thread) meanwhile: with 300 tables and 1,200
    connections that was 200-350 ms, every 8-10 s, the whole p99 of the
    load benchmark (docs/benchmarks.md).  So: what exists once the room has
    started (modules, classes, the rebuilt tables) is frozen out of the
    collector's walks, and young collections run every ``GC_YOUNG``
    allocations instead of 700, so short-lived objects (a message, an
    action waiting for its commit) die before they are collected and are
    not promoted, which is what made full collections frequent.  (20,000
    made the young collections themselves take up to 140 ms; 5,000 keeps
    them under ~25 ms.)"""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


def create_app(
    db_url: str = "sqlite:///trumps.db",
    *,
    bot_delay: float = 0.6,
    grace: float = 30.0,
    clock: Clock | None = None,
    tune_gc: bool = False,
    keep_finished: float = KEEP_FINISHED,
    abandon_after: float = ABANDON_AFTER,
    trusted_origins: tuple[str, ...] = (),
    cluster: bool | None = None,
    worker: str | None = None,
    unmetered: tuple[str, ...] = (),
) -> Starlette:
    """The card room app, storing everything in ``db_url``; ``clock``
    drives timers and scheduled starts (a fake clock in tests);
    ``keep_finished``: seconds a finished table nobody is connected to
    stays live before its page becomes the replay; ``abandon_after``:
    seconds a waiting table with no person connected stays open.  With
    ``tune_gc`` (``trumps serve``) the garbage collector is set up for a
    long-running server once the room has started (:func:`server_gc`).
    ``trusted_origins``: other origins whose pages may send requests (for a
    front end served elsewhere); by default only the room's own.
    ``cluster``: run as one of several workers sharing the database
    (:mod:`trumps.room.cluster`); by default on PostgreSQL and never on
    SQLite (one process only); ``worker`` names this worker (random by default).
    ``unmetered``: client addresses the per-address budgets of
    :mod:`trumps.room.limits` do not count (a load test's own machine)."""
    state = _Started()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(db_url)
        room = Room(
            store, bot_delay=bot_delay, grace=grace, clock=clock, keep_finished=keep_finished,
            abandon_after=abandon_after,
        )  # fmt: skip
        state.store = store
        state.room = room
        state.signer = URLSafeSerializer(store.secret(), salt="trumps-player")
        on_postgres = store.engine.dialect.name == "postgresql"
        if cluster and not on_postgres:
            raise RuntimeError("several workers need PostgreSQL: SQLite serves one process")
        if (cluster is None and on_postgres) or cluster:
            room.use_cluster(db_url, worker)
        room.sessions = sessions
        await room.start()
        if tune_gc:
            server_gc()
        try:
            yield
        finally:
            await room.stop()
            store.close()

    def room() -> Room:
        if state.room is None:
            raise RuntimeError("the room has not started")
        return state.room

    def signer() -> URLSafeSerializer:
        if state.signer is None:
            raise RuntimeError("the room has not started")
        return state.signer

    sessions = Sessions(room, signer)
    identity = sessions.identity
    sockets = SocketCount()  # open sockets per person (trumps.room.limits)

    def bad(reason: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": reason}, status_code=status)

    async def body(request: Request, model: type[M]) -> M:
        raw = await request.body()
        if len(raw) > 16_384:
            raise MessageError("request too large")
        try:
            return model.model_validate_json(raw or b"{}")
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise MessageError(f"{where or 'body'}: {first.get('msg')}") from None

    # ----- pages ---------------------------------------------------------------
    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(_request: Request) -> Response:
        # browsers ask for /favicon.ico whatever the pages link to
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def said(request: Request, message: str, status: int) -> Response:
        """A page saying ``message`` (an English msgid) in the reader's language."""
        lang = await languages.language_of(request, room(), sessions)
        words = translator(lang)
        text = words.gettext(message)
        return message_page(words, text[:1].upper() + text[1:], status, lang)

    async def table_page(request: Request) -> Response:
        tid = request.path_params["tid"]
        table = room().people.find(tid)
        if table is None and room().cluster is not None:
            elsewhere = await live_elsewhere(tid)
            if elsewhere is True:  # live, but not yet in this worker's lobby: the socket checks access
                return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})
            table = elsewhere
        if table is None:
            # every unfinished table is live, so a stored table that is not is
            # finished (its replay), or was closed before it began
            status = await room().store.run(history_store.table_status, room().store, tid)
            if status == "closed":
                return await said(request, history.CLOSED_UNPLAYED, 410)
            if status is not None:
                return RedirectResponse(f"/replay/{tid}", status_code=303)
            return await said(request, N_("No such table"), 404)
        pid, _ = await identity(request)
        why = room().people.not_seen_because(table, pid)
        if why is not None:
            return await said(request, why, 403)
        # never from a cache: the access check must run on every visit
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})

    async def join_page(request: Request) -> Response:
        """An invitation link: the lobby takes the code (asking for a name first)."""
        code = request.path_params["code"]
        return RedirectResponse(f"/?join={quote(code, safe='')}", status_code=303)

    # ----- API -------------------------------------------------------------------
    async def api_games(_request: Request) -> Response:
        return JSONResponse(game_catalogue())

    async def api_settings(_request: Request) -> Response:
        return JSONResponse(
            {
                "settings": settings_schema(),
                "phrases": [{"key": k, "text": v} for k, v in PRESET_PHRASES.items()],
            }
        )

    async def api_join(request: Request) -> Response:
        pid, _ = await identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        try:
            data = await body(request, JoinIn)
            table = await room().join_by_code(pid, data.code)
        except (MessageError, RoomError) as exc:
            return bad(str(exc), 404 if isinstance(exc, RoomError) else 400)
        return JSONResponse({"table": table.id})

    async def api_tables(request: Request) -> Response:
        pid, _ = await identity(request)
        if request.method == "GET":
            return JSONResponse(room().listing(pid))
        if pid is None:
            return bad("choose a name first", 401)
        try:
            data = await body(request, TableIn)
            if data.invite:  # checked before anything is made
                await room().people.check_invitees(pid, data.invite)
            table = await room().create_table(pid, data.game, data.preset, data.options, data.settings)
            if data.invite:
                await room().people.invite(table, pid, data.invite)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse(with_worker(request, table.summary(), table.id), status_code=201)

    def with_worker(request: Request, summary: Mapping[str, object], tid: str) -> Mapping[str, object]:
        """Behind a proxy that routes table sockets (the ROUTING_HEADER), a
        table's summary names the worker that runs it, so that the page's
        first socket goes there (``/ws/table/{id}?worker=``)."""
        c = room().cluster
        if c is None or request.headers.get(ROUTING_HEADER) != "worker":
            return summary
        worker = c.worker if tid in room().tables else getattr(c.remote.get(tid), "worker", None)
        name = None if worker is None else routing_name(worker)
        return summary if name is None else {**summary, "worker": name}

    async def live_elsewhere(tid: str) -> access.Facts | Literal[True] | None:
        """On several workers: the table as the lobby knows it, waiting a
        moment for a table made just now on another worker (True: stored
        as live, not yet announced; None: not live)."""
        c = room().cluster
        assert c is not None
        status = await room().store.run(history_store.table_status, room().store, tid)
        if status not in ("waiting", "playing"):
            return None
        for _ in range(20):
            if tid in c.remote or tid in room().tables:
                return room().people.find(tid)
            await asyncio.sleep(0.05)
        return True

    async def api_table(request: Request) -> Response:
        tid = request.path_params["tid"]
        try:
            found: access.Facts | Literal[True] | None = room().people.find(tid)
            if found is None and room().cluster is not None:
                found = await live_elsewhere(tid)
            if found is None or found is True:
                raise RoomError(f"no table {tid!r}")
            t = found
        except RoomError as exc:
            if await room().store.run(history_store.table_exists, room().store, tid):
                # a finished game leaves the live tables: its record is in the history
                return bad(f"table {tid} is finished: its record is /api/tables/{tid}/record", 404)
            return bad(str(exc), 404)
        pid, _ = await identity(request)
        why = room().people.not_seen_because(t, pid)
        if why is not None:
            return bad(why, 403)
        return JSONResponse(with_worker(request, t.summary(), tid))

    # ----- WebSockets ----------------------------------------------------------------
    async def admit(ws: WebSocket, who: Who, table: str | None = None) -> tuple[str, str | None] | None:
        """Count a new socket against its person's budget (by player, or by
        address for nobody yet; a guest's or nobody's against its address's
        too): the key and address to release it with, or None after refusing
        it (an error event, then a policy close)."""
        key = who.player or socket_person(ws, who)
        address = None if who.account else person_key(None, False, ws.client.host if ws.client else None)
        return (key, address) if await admit_socket(ws, sockets, key, table, address) else None

    async def ws_lobby(ws: WebSocket) -> None:
        await ws.accept()
        who = await sessions.who(ws)
        key = await admit(ws, who)
        if key is None:
            return
        conn = WsConnection(ws, who.player, who.name, who.session, socket_person(ws, who))
        sessions.track(who.session, conn)
        room().lobby.add(conn)
        try:
            await conn.send(room().lobby_event(who.player))
            async for _ in client_messages(ws, conn):
                pass  # the lobby is read-only; keep the socket open
        finally:
            room().lobby.discard(conn)
            sessions.untrack(who.session, conn)
            sockets.close(key[0], None, key[1])
            await conn.finish()

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        tid = ws.path_params["tid"]
        since_text = ws.query_params.get("since")
        since = since_param(since_text)
        try:
            table = await local_table(ws, tid)
        except RoomError as exc:
            if room().cluster is not None and await live_elsewhere(tid) is not None:
                # a proxy that can send a socket to a named worker says so
                # (deploy/nginx/trumps.conf): then the page is told the owner
                routing = ws.headers.get(ROUTING_HEADER) == "worker"
                await ws_relayed(ws, tid, since, routing)
                return
            await ws.send_text(wire.dumps(error_event(str(exc))))
            await ws.close(code=4404)
            return
        who = await sessions.who(ws)
        key = await admit(ws, who, tid)
        if key is None:
            return
        try:
            await table_socket(ws, who, table, since)
        finally:
            sockets.close(key[0], tid, key[1])

    async def table_socket(ws: WebSocket, who: Who, table: Table, since: int | None) -> None:
        conn = WsConnection(ws, who.player, who.name, who.session, socket_person(ws, who))
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
        sessions.track(who.session, conn)
        try:
            async for raw in client_messages(ws, conn, table.error):
                await handle(table, conn, raw)
        finally:
            sessions.untrack(who.session, conn)
            table.leave(conn)
            await conn.finish()

    async def local_table(ws: WebSocket, tid: str) -> Table:
        """The table, run here.  A socket sent to this worker by name
        (``?worker=``: the table's summary, a route, an heir named at a
        handover) for a table it does not run yet waits a moment for the
        table to arrive rather than being relayed."""
        c = room().cluster
        if c is not None and tid not in room().tables and ws.headers.get(ROUTING_HEADER) == "worker":
            name = routing_name(c.worker)
            if name is not None and ws.query_params.get("worker") == name:
                await c.arrival(tid)
        return room().get(tid)

    async def ws_relayed(ws: WebSocket, tid: str, since: int | None, routing: bool) -> None:
        """A socket for a table another worker runs (trumps.room.cluster.relay)."""
        c = room().cluster
        assert c is not None
        who = await sessions.who(ws)
        key = await admit(ws, who, tid)
        if key is None:
            return
        conn = WsConnection(ws, who.player, who.name, who.session, socket_person(ws, who))
        sessions.track(who.session, conn)
        try:
            await c.relay(conn, tid, since, client_messages(ws, conn), routing=routing)
        finally:
            sessions.untrack(who.session, conn)
            sockets.close(key[0], tid, key[1])
            await conn.finish()

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/table/{tid:tid}", table_page),
        Route("/join/{code}", join_page),
        Route("/api/games", api_games),
        Route("/api/settings", api_settings),
        Route("/api/join", api_join, methods=["POST"]),
        *account_routes.routes(room, sessions, body, unmetered=unmetered),
        *people_routes.routes(room, sessions, body, sockets),
        *play.routes(room, sessions, body),
        *profiles.routes(room, sessions),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{tid:tid}", api_table),
        *history.routes(room, identity, said),
        *competition.routes(room, identity),
        *rematch.routes(room, identity),
        *languages.routes(room, sessions),
        WebSocketRoute("/ws/lobby", ws_lobby),
        WebSocketRoute("/ws/table/{tid:tid}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Middleware(CrossSiteGuard, trusted_origins=trusted_origins)
    stopping = Stopping()
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        # TransportAccess first: it needs the server's own ``send`` (trumps.room.sockets)
        middleware=[
            Middleware(TransportAccess),
            Middleware(RefuseControlCharacters),
            Middleware(BodyLimit),
            Middleware(CloseWhenStopping, stopping=stopping),
            guard,
        ],
        exception_handlers={Exception: server_error, StoreUnavailable: store_unavailable},
    )

    async def hand_over() -> bool:
        """Before the server closes its sockets: give this worker's tables to
        the others (a rolling restart; nothing to do on one process).  True
        on a worker of several: it then answers every request with
        ``Connection: close``, and the server leaves its proxy's pooled
        connections for the proxy to close (trumps.room.stopping)."""
        r = state.room
        if r is None or r.cluster is None:
            return False
        stopping.now = True
        await r.cluster.hand_over()
        return True

    app.state.hand_over = hand_over
    app.state.current_room = lambda: state.room  # the running room, or None (tests, tools)
    return app
