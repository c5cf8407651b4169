"""The ASGI app: pages, a small JSON API and two WebSockets (lobby, table).

Guests choose a display name; their identity is a player id in a signed
cookie (itsdangerous), so a client can only ever act for its own seat.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from itsdangerous import BadSignature, URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from trumps.room import competition, history, history_store
from trumps.room.messages import (
    Act,
    Chat,
    FillBots,
    Hello,
    Invite,
    Kick,
    MessageError,
    SetBot,
    Sit,
    Stand,
    Suggest,
    error_event,
    parse_client_message,
)
from trumps.room.room import KEEP_FINISHED, Room, game_catalogue
from trumps.room.settings import PRESET_PHRASES, settings_schema
from trumps.room.store import Store
from trumps.room.table import AccessDenied, RoomError, Table
from trumps.room.timers import Clock

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
COOKIE = "trumps_player"
log = logging.getLogger("trumps.room")


class GuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=24)


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=20)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=24)


class WsConnection:
    """A table or lobby client over a WebSocket."""

    def __init__(self, ws: WebSocket, player: str | None, name: str) -> None:
        self.ws = ws
        self.player = player
        self.name = name

    async def send(self, event: dict[str, Any]) -> None:
        await self.ws.send_text(json.dumps(event, separators=(",", ":")))

    async def close(self, code: int = 1000) -> None:
        await self.ws.close(code=code)


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
) -> Starlette:
    """The card room app, storing everything in ``db_url``; ``clock``
    drives timers and scheduled starts (a fake clock in tests);
    ``keep_finished``: seconds a finished table nobody is connected to
    stays live before its page becomes the replay.  With
    ``tune_gc`` (``trumps serve``) the garbage collector is set up for a
    long-running server once the room has started (:func:`server_gc`)."""
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(db_url)
        room = Room(store, bot_delay=bot_delay, grace=grace, clock=clock, keep_finished=keep_finished)
        state["store"] = store
        state["room"] = room
        state["signer"] = URLSafeSerializer(store.secret(), salt="trumps-player")
        await room.start()
        if tune_gc:
            server_gc()
        try:
            yield
        finally:
            await room.stop()
            store.close()

    def room() -> Room:
        r: Room = state["room"]
        return r

    async def identity(conn: HTTPConnection) -> tuple[str | None, str]:
        token = conn.cookies.get(COOKIE)
        if not token:
            return None, "guest"
        try:
            pid = state["signer"].loads(token)
        except BadSignature:
            return None, "guest"
        if not isinstance(pid, str):
            return None, "guest"
        name = await room().player_name(pid)
        return (pid, name) if name is not None else (None, "guest")

    def bad(reason: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": reason}, status_code=status)

    async def body(request: Request, model: type[BaseModel]) -> Any:
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

    async def table_page(request: Request) -> Response:
        tid = request.path_params["tid"]
        table = room().tables.get(tid)
        if table is None:
            # every unfinished table is live, so a stored table that is not is finished
            if await room().store.run(history_store.table_exists, room().store, tid):
                return RedirectResponse(f"/replay/{tid}", status_code=303)
            return Response("No such table", status_code=404, media_type="text/plain")
        pid, _ = await identity(request)
        if not table.may_see(pid):
            return Response(
                "This table is private: you need an invitation", status_code=403, media_type="text/plain"
            )
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
        return JSONResponse({"settings": settings_schema(), "phrases": list(PRESET_PHRASES)})

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

    async def api_me(request: Request) -> Response:
        pid, name = await identity(request)
        if pid is None:
            return JSONResponse({"player": None, "name": None})
        chips = await room().store.run(competition.chips, room().store, pid)
        return JSONResponse({"player": pid, "name": name, "chips": chips})

    async def api_guest(request: Request) -> Response:
        try:
            data = await body(request, GuestIn)
        except MessageError as exc:
            return bad(str(exc))
        name = " ".join(data.name.split())
        if not name:
            return bad("name: must not be blank")
        pid, _ = await identity(request)
        if pid is None:
            pid = await room().new_player(name)
        else:
            await room().store.run(room().store.rename_player, pid, name)
            room().names[pid] = name
        resp = JSONResponse({"player": pid, "name": name})
        resp.set_cookie(
            COOKIE, state["signer"].dumps(pid), httponly=True, samesite="lax", max_age=3600 * 24 * 365
        )
        return resp

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse(room().listing())
        pid, _ = await identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        try:
            data = await body(request, TableIn)
            table = await room().create_table(pid, data.game, data.preset, data.options, data.settings)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse(table.summary(), status_code=201)

    async def api_table(request: Request) -> Response:
        tid = request.path_params["tid"]
        try:
            t = room().get(tid)
        except RoomError as exc:
            if await room().store.run(history_store.table_exists, room().store, tid):
                # a finished game leaves the live tables: its record is in the history
                return bad(f"table {tid} is finished: its record is /api/tables/{tid}/record", 404)
            return bad(str(exc), 404)
        pid, _ = await identity(request)
        if not t.may_see(pid):
            return bad("this table is private: you need an invitation", 403)
        return JSONResponse(t.summary())

    # ----- WebSockets ----------------------------------------------------------------
    async def ws_lobby(ws: WebSocket) -> None:
        await ws.accept()
        pid, name = await identity(ws)
        conn = WsConnection(ws, pid, name)
        room().lobby.add(conn)
        try:
            await conn.send(room().lobby_event())
            while True:
                await ws.receive_text()  # the lobby is read-only; keep the socket open
        except WebSocketDisconnect:
            pass
        finally:
            room().lobby.discard(conn)

    async def ws_table(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = room().get(ws.path_params["tid"])
        except RoomError as exc:
            await ws.send_text(json.dumps(error_event(str(exc))))
            await ws.close(code=4404)
            return
        pid, name = await identity(ws)
        conn = WsConnection(ws, pid, name)
        since_text = ws.query_params.get("since")
        since = int(since_text) if since_text and since_text.isascii() and since_text.isdigit() else None
        try:
            await table.join(conn, since)
        except AccessDenied as exc:
            await ws.send_text(json.dumps(table.error(str(exc))))
            await ws.close(code=4403)
            return
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await handle(table, conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            table.leave(conn)

    async def handle(table: Table, conn: WsConnection, raw: str | bytes) -> None:
        try:
            msg = parse_client_message(raw)
            if isinstance(msg, Hello):
                await table.catch_up(conn, msg.since)
            elif isinstance(msg, Act):
                await table.act(conn, msg.action, expect_seq=msg.seq)
            elif isinstance(msg, Sit):
                await table.sit(conn, msg.seat)
            elif isinstance(msg, Stand):
                await table.stand(conn)
            elif isinstance(msg, SetBot):
                await table.set_bot(conn, msg.seat, msg.kind)
            elif isinstance(msg, FillBots):
                await table.fill_bots(conn, msg.kind)
            elif isinstance(msg, Chat):
                await table.say(conn, msg.text)
            elif isinstance(msg, Suggest):
                await table.set_suggestions(conn, msg.on)
            elif isinstance(msg, Kick):
                await table.remove_spectator(conn, msg.player)
            elif isinstance(msg, Invite):
                await table.revoke_invite(conn)
        except (MessageError, RoomError) as exc:
            await conn.send(table.error(str(exc)))
        except Exception:  # never let one message kill the connection or the table
            log.exception("unexpected error handling a message at table %s", table.id)
            await conn.send(table.error("the server could not handle that message"))

    routes = [
        Route("/", index),
        Route("/table/{tid}", table_page),
        Route("/join/{code}", join_page),
        Route("/api/games", api_games),
        Route("/api/settings", api_settings),
        Route("/api/join", api_join, methods=["POST"]),
        Route("/api/me", api_me),
        Route("/api/guest", api_guest, methods=["POST"]),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{tid}", api_table),
        *history.routes(room, identity),
        *competition.routes(room, identity),
        WebSocketRoute("/ws/lobby", ws_lobby),
        WebSocketRoute("/ws/table/{tid}", ws_table),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
