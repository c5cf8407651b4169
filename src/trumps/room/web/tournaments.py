"""The routes of the duplicate tournaments (:mod:`trumps.room.tournaments`):
``GET /api/tournaments`` (the open ones, for any visitor, with the
visitor's own place once they have played), ``GET /api/tournaments/{id}``
(one tournament: the ranking and, per deal in ``sheets``, what the visitor may see of
it) and ``POST /api/tournaments/{id}/play`` (the table of the visitor's
next deal: ``{"table": id}``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.room import STATIC
from trumps.room.tables.table import RoomError
from trumps.room.tournaments.records import TournamentDeskError, UnknownTournamentError
from trumps.room.web.shared import Web, bad

__all__ = ["TournamentRoutes"]

_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def _tid(request: Request) -> str | None:
    tid = str(request.path_params.get("tid", ""))
    return tid if 1 <= len(tid) <= 32 and set(tid) <= _ID_CHARS else None


class TournamentRoutes:
    """``/api/tournaments``: the list, one tournament, and playing its next deal."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/tournament/{tid}", self.page),
            Route("/api/tournaments", self.api_list),
            Route("/api/tournaments/{tid}", self.api_detail),
            Route("/api/tournaments/{tid}/play", self.api_play, methods=["POST"]),
        ]

    async def page(self, request: Request) -> Response:
        if _tid(request) is None:
            return bad("no such tournament", 404)
        return FileResponse(STATIC / "tournament.html", headers={"Cache-Control": "no-store"})

    async def api_list(self, request: Request) -> Response:
        pid, _ = await self.web.identity(request)
        rows = await self.web.room().tournaments.listing(pid)
        return JSONResponse({"tournaments": rows})

    async def api_detail(self, request: Request) -> Response:
        tid = _tid(request)
        if tid is None:
            return bad("no such tournament", 404)
        pid, _ = await self.web.identity(request)
        try:
            detail = await self.web.room().tournaments.detail(tid, pid)
        except TournamentDeskError as exc:
            return bad(str(exc), 404)
        return JSONResponse(detail)

    async def api_play(self, request: Request) -> Response:
        tid = _tid(request)
        if tid is None:
            return bad("no such tournament", 404)
        who = await self.web.sessions.who(request)
        if who.player is None:
            return bad("choose a name first", 401)
        try:
            table = await self.web.room().tournaments.play(tid, who.player)
        except UnknownTournamentError as exc:
            return bad(str(exc), 404)
        except TournamentDeskError as exc:
            return bad(str(exc), 409)
        except RoomError as exc:
            return bad(str(exc))
        return JSONResponse({"table": table})
