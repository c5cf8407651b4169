"""The routes of :mod:`trumps.room.people.profiles` and the rating
leaderboards: ``/player/<username>`` and ``/settings`` (pages),
``/api/players/<username>`` and ``/api/ratings``.

A person the owner has blocked finds no profile at all (the same 404 as
for no such player, as on lichess): it would show them the blocker's
presence and friends."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

import trumps
from trumps.room import STATIC
from trumps.room.people import ratings
from trumps.room.people.profiles import profile
from trumps.room.validate import parse_int
from trumps.room.web.shared import Web, bad

__all__ = ["Profiles"]


class Profiles:
    """Profiles and rating leaderboards."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/player/{name:name}", self.page),
            Route("/settings", self.settings_page),
            Route("/api/players/{name:name}", self.api_profile),
            Route("/api/ratings", self.api_ratings),
        ]

    async def page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "profile.html")

    async def settings_page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "settings.html")

    async def api_profile(self, request: Request) -> Response:
        name = request.path_params["name"]
        if len(name) > 24:
            return bad("no such player", 404)
        r = self.web.room()
        data = await r.store.run(profile, r.store, name)
        if data is None:
            return bad("no such player", 404)
        who = await self.web.sessions.who(request)
        social = r.people.social
        if who.player in social.blocks_of(data["player"]):
            # blocked by the owner: no profile (no presence, no friends), as for no such player
            return bad("no such player", 404)
        data["tournaments"] = await r.tournaments.history(data["player"])
        data["online"] = r.people.online(data["player"])
        data["you"] = who.player == data["player"]
        data["friend"] = social.are_friends(who.player, data["player"])
        data["requested"] = who.player is not None and (who.player, data["player"]) in social.requests
        return JSONResponse(data)

    async def api_ratings(self, request: Request) -> Response:
        game = request.query_params.get("game") or trumps.games()[0]
        if game not in trumps.games():
            return bad(f"unknown game {game!r} (known: {', '.join(trumps.games())})")
        limit = parse_int(request.query_params.get("limit", "50"), 1, ratings.MAX_LIMIT)
        if limit is None:
            return bad(f"limit: a whole number from 1 to {ratings.MAX_LIMIT}")
        r = self.web.room()
        rows = await r.store.run(ratings.leaderboard, r.store, game, limit)
        return JSONResponse({"game": game, "players": rows})
