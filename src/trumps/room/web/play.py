"""The Play button's routes: ``POST /api/play`` (press: the answer is the
table made, or 409 when the person sits at another live table), ``DELETE``
(cancel) and ``GET`` (how many wait for each game and rule set).  The desk
that seats the groups is :mod:`trumps.room.people.play`'s.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.room.people.matchmaking import RULE_SETS
from trumps.room.people.play import PlayCancelled
from trumps.room.tables import access
from trumps.room.tables.messages import MessageError
from trumps.room.tables.table import LIVE, RoomError
from trumps.room.validate import Line
from trumps.room.web.shared import Web, bad

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["SEATED_ELSEWHERE", "PlayRoutes", "seated_at"]


class PlayIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Line = Field(min_length=1, max_length=20)
    rules: Line = Field(min_length=1, max_length=40)
    # the player, told they sit at another table, chose to leave it (else 409)
    leave: bool = False


#: The refusal of Play to a player seated at another live table: the page asks
#: whether to go back there or to leave it (``leave``) and look for a game.
SEATED_ELSEWHERE = "you are seated at another table"


def seated_at(room: Room, pid: str) -> access.Facts | None:
    """The live table (here or on another worker) where ``pid`` holds a
    seat they have not left, or None.  A seat marked away (the player left
    it for another game, or ran out of time twice) does not hold them."""
    tables: list[access.Facts] = [
        *room.tables.values(),
        *(room.cluster.remote.values() if room.cluster else ()),
    ]
    for t in tables:
        seat = t.seat_of(pid)
        if t.status in LIVE and seat is not None and seat not in getattr(t, "idle", ()):
            return t
    return None


class PlayRoutes:
    """``/api/play``: press, cancel, and how many wait."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/play", self.api_play, methods=["GET", "POST", "DELETE"])]

    async def waiting(self) -> dict[str, int]:
        cluster = self.web.room().cluster
        if cluster is not None and not cluster.leader:  # the matchmaker's worker knows
            with contextlib.suppress(TimeoutError, KeyError):
                answer = await cluster.ask(None, {"what": "waiting"}, timeout=1.0)
                return dict(answer["waiting"])
        return self.web.room().play.waiting()

    async def api_play(self, request: Request) -> Response:
        desk = self.web.room().play
        if request.method == "GET":
            return JSONResponse(
                {
                    "rule_sets": {
                        game: [{"key": r.key, "label": r.label} for r in sets]
                        for game, sets in RULE_SETS.items()
                    },
                    "waiting": await self.waiting(),
                }
            )
        who = await self.web.sessions.who(request)
        if who.player is None:
            return bad("choose a name first", 401)
        if request.method == "DELETE":
            return JSONResponse({"cancelled": desk.cancel(who.player)})
        try:
            data = await self.web.body(request, PlayIn)
            there = seated_at(self.web.room(), who.player)
            if there is not None and not data.leave:
                seated = {"table": there.id, "game": there.game, "status": there.status}
                return JSONResponse({"error": SEATED_ELSEWHERE, "seated": seated}, status_code=409)
            if there is not None:
                if (
                    there.id not in self.web.room().tables
                ):  # (its worker frees the seat: the page leaves there)
                    return bad("leave that table from its page first", 409)
                await self.web.room().tables[there.id].leave_seat(who.player)
            tid = await desk.press(who.player, data.game, data.rules)
        except PlayCancelled:
            return bad("cancelled", 409)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        except TimeoutError:
            desk.cancel(who.player)
            return bad("no table could be made in time; press Play again", 503)
        return JSONResponse({"table": tid})
