"""The tables' JSON API: the games and settings a form offers, the lobby's
list, making a table (with friends invited at once), joining by an
invitation code, one table's summary, and Play again at a finished table.

On several workers a table may run elsewhere: its summary comes from the
lobby's mirror, and names the worker that runs it to a proxy that routes
table sockets by worker (:func:`with_worker`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.core import registry
from trumps.room.cluster.relay import ROUTING_HEADER, routing_name
from trumps.room.history import queries
from trumps.room.tables import access
from trumps.room.tables.messages import MessageError
from trumps.room.tables.rematch import play_again
from trumps.room.tables.settings import PRESET_PHRASES, settings_schema
from trumps.room.tables.table import RoomError
from trumps.room.validate import Line
from trumps.room.web.shared import Web, bad

__all__ = ["JoinIn", "TableIn", "Tables", "live_elsewhere"]


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Line = Field(min_length=1, max_length=20)
    preset: Line | None = Field(default=None, max_length=40)
    options: dict[str, object] = Field(default_factory=dict)
    settings: dict[str, object] = Field(default_factory=dict)
    invite: list[Line] = Field(default_factory=list, max_length=12)  # friends to invite at once


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: Line = Field(min_length=1, max_length=24)


async def live_elsewhere(web: Web, tid: str) -> access.Facts | Literal[True] | None:
    """On several workers: the table as the lobby knows it, waiting a
    moment for a table made just now on another worker (True: stored
    as live, not yet announced; None: not live)."""
    room = web.room()
    c = room.cluster
    assert c is not None
    status = await room.store.run(queries.table_status, room.store, tid)
    if status not in ("waiting", "playing"):
        return None
    for _ in range(20):
        if tid in c.remote or tid in room.tables:
            return room.people.find(tid)
        await asyncio.sleep(0.05)
    return True


class Tables:
    """``/api/games``, ``/api/settings``, ``/api/join``, ``/api/tables``,
    Play again."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/games", self.api_games),
            Route("/api/settings", self.api_settings),
            Route("/api/join", self.api_join, methods=["POST"]),
            Route("/api/tables", self.api_tables, methods=["GET", "POST"]),
            Route("/api/tables/{tid:tid}", self.api_table),
            Route("/api/tables/{tid:tid}/again", self.api_again, methods=["POST"]),
        ]

    async def api_games(self, _request: Request) -> Response:
        return JSONResponse(registry.catalogue())

    async def api_settings(self, _request: Request) -> Response:
        return JSONResponse(
            {
                "settings": settings_schema(),
                "phrases": [{"key": k, "text": v} for k, v in PRESET_PHRASES.items()],
            }
        )

    async def api_join(self, request: Request) -> Response:
        pid, _ = await self.web.identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        try:
            data = await self.web.body(request, JoinIn)
            table = await self.web.room().join_by_code(pid, data.code)
        except (MessageError, RoomError) as exc:
            return bad(str(exc), 404 if isinstance(exc, RoomError) else 400)
        return JSONResponse({"table": table.id})

    async def api_tables(self, request: Request) -> Response:
        pid, _ = await self.web.identity(request)
        room = self.web.room()
        if request.method == "GET":
            return JSONResponse(room.lobby.listing(pid))
        if pid is None:
            return bad("choose a name first", 401)
        try:
            data = await self.web.body(request, TableIn)
            if data.invite:  # checked before anything is made
                await room.people.check_invitees(pid, data.invite)
            table = await room.create_table(pid, data.game, data.preset, data.options, data.settings)
            if data.invite:
                await room.people.invite(table, pid, data.invite)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse(self.with_worker(request, table.summary(), table.id), status_code=201)

    def with_worker(self, request: Request, summary: Mapping[str, object], tid: str) -> Mapping[str, object]:
        """Behind a proxy that routes table sockets (the ROUTING_HEADER), a
        table's summary names the worker that runs it, so that the page's
        first socket goes there (``/ws/table/{id}?worker=``)."""
        room = self.web.room()
        c = room.cluster
        if c is None or request.headers.get(ROUTING_HEADER) != "worker":
            return summary
        worker = c.worker if tid in room.tables else getattr(c.remote.get(tid), "worker", None)
        name = None if worker is None else routing_name(worker)
        return summary if name is None else {**summary, "worker": name}

    async def api_table(self, request: Request) -> Response:
        tid = request.path_params["tid"]
        room = self.web.room()
        try:
            found: access.Facts | Literal[True] | None = room.people.find(tid)
            if found is None and room.cluster is not None:
                found = await live_elsewhere(self.web, tid)
            if found is None or found is True:
                raise RoomError(f"no table {tid!r}")
            t = found
        except RoomError as exc:
            if await room.store.run(queries.table_exists, room.store, tid):
                # a finished game leaves the live tables: its record is in the history
                return bad(f"table {tid} is finished: its record is /api/tables/{tid}/record", 404)
            return bad(str(exc), 404)
        pid, _ = await self.web.identity(request)
        why = room.people.not_seen_because(t, pid)
        if why is not None:
            return bad(why, 403)
        return JSONResponse(self.with_worker(request, t.summary(), tid))

    async def api_again(self, request: Request) -> Response:
        """Play again (:func:`~trumps.room.tables.rematch.play_again`): 201
        with ``{"table", "seat"}``; 400 with ``{"error"}``, 401 without a name."""
        pid, _ = await self.web.identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        try:
            out = await play_again(self.web.room(), pid, request.path_params["tid"])
        except RoomError as exc:
            return bad(str(exc))
        return JSONResponse(out, status_code=201)
