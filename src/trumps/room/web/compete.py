"""The routes of :mod:`trumps.room.compete.competition`: ``GET /leaderboard``
(the page), ``GET /api/leaderboard`` (JSON: ``{"players": rows, "prizes":
prize_rows()}``, ``?limit=`` and ``?game=``) and ``GET /api/me/chips``
(``{"chips": n}``; 401 without a player)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.room import STATIC
from trumps.room.compete.competition import MAX_LIMIT, CompetitionError, chips, leaderboard, prize_rows
from trumps.room.web.shared import Web, bad

__all__ = ["Compete"]


class Compete:
    """The chips leaderboard and a player's chips."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/leaderboard", self.page),
            Route("/api/leaderboard", self.api_leaderboard),
            Route("/api/me/chips", self.api_chips),
        ]

    async def page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "leaderboard.html")

    async def api_leaderboard(self, request: Request) -> Response:
        text = request.query_params.get("limit", "50")
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_LIMIT):
            return bad(f"limit: a whole number from 1 to {MAX_LIMIT}")
        game = request.query_params.get("game") or None
        store = self.web.room().store
        rows = await store.run(leaderboard, store, int(text), game)
        return JSONResponse({"players": rows, "prizes": prize_rows()})

    async def api_chips(self, request: Request) -> Response:
        pid, _ = await self.web.identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        store = self.web.room().store
        try:
            balance = await store.run(chips, store, pid)
        except CompetitionError:
            return bad("choose a name first", 401)
        return JSONResponse({"chips": balance})
