"""The routes of :mod:`trumps.room.people.presence`: friends, invitations, personal
settings and the personal channel ``/ws/me``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from trumps.room.limits import SocketCount, person_key
from trumps.room.people.prefs import get_prefs, prefs_schema, set_prefs
from trumps.room.tables.messages import MessageError
from trumps.room.tables.table import RoomError
from trumps.room.validate import BodyReader, Line, parse_int
from trumps.room.web.accounts import Sessions
from trumps.room.web.shared import bad
from trumps.room.web.socket_queue import QueuedSocket, admit_socket, client_messages

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["MeSocket", "PeopleRoutes"]

FriendAction = Literal["request", "accept", "decline", "cancel", "remove", "block", "unblock"]


class FriendIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: Line = Field(min_length=1, max_length=64)  # a username, or a player id from a table
    action: FriendAction


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: list[Line] = Field(min_length=1, max_length=12)


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    answer: Literal["accept", "decline"]


class MeSocket(QueuedSocket):
    """A personal channel over a WebSocket (a bounded send queue: a client
    that does not read is dropped, trumps.room.web.socket_queue)."""

    def __init__(self, ws: WebSocket, player: str | None, name: str, person: str | None = None) -> None:
        super().__init__(ws)
        self.player = player
        self.name = name
        self.person = person


class PeopleRoutes:
    """Friends, invitations, personal settings and the personal channel;
    ``sockets`` counts the personal channels against each person's budget
    of open sockets (trumps.room.limits)."""

    def __init__(
        self,
        room: Callable[[], Room],
        sessions: Sessions,
        body: BodyReader,
        sockets: SocketCount | None = None,
        unmetered: tuple[str, ...] = (),
    ) -> None:
        self.room = room
        self.unmetered = unmetered  # addresses whose guests' sockets are not counted together
        self.sessions = sessions
        self.body = body
        self.sockets = SocketCount() if sockets is None else sockets

    async def api_friends(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        if who.player is None:
            return bad("choose a name first", 401)
        people = self.room().people
        if request.method == "GET":
            return JSONResponse(await people.friends_view(who.player))
        if not who.account:
            return bad("register an account to have friends", 403)
        try:
            data = await self.body(request, FriendIn)
            result = await people.change(who.player, data.player, data.action)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse({"result": result, **(await people.friends_view(who.player))})

    async def api_invite(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        if who.player is None:
            return bad("choose a name first", 401)
        try:
            table = self.room().people.find(request.path_params["tid"])  # on any worker
            if table is None or not self.room().people.may_see(table, who.player):
                return bad("no such table", 404)
            data = await self.body(request, InviteIn)
            invited = await self.room().people.invite(table, who.player, data.players)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse({"invited": invited})

    async def api_answer(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        if who.player is None:
            return bad("choose a name first", 401)
        iid = parse_int(request.path_params["iid"], 0, 10**12)
        if iid is None:
            return bad("no such invitation", 404)
        try:
            data = await self.body(request, AnswerIn)
            taken = await self.room().people.answer(who.player, iid, data.answer == "accept")
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse(taken or {"table": None})

    async def api_prefs(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        r = self.room()
        if request.method == "GET":
            values = await r.store.run(get_prefs, r.store, who.player) if who.account and who.player else None
            return JSONResponse({"schema": prefs_schema(), "values": values, "account": who.account})
        if not who.account or who.player is None:
            return bad("guests keep their settings in their browser", 403)
        try:
            raw = await request.body()
            if len(raw) > 4096:
                raise MessageError("request too large")
            changes = json.loads(raw or b"{}")
            if not isinstance(changes, dict):
                raise MessageError("send an object of settings")
            values = await r.store.run(set_prefs, r.store, who.player, changes)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep
            return bad("body: not JSON")
        except (MessageError, RoomError) as exc:
            return bad(str(exc))
        return JSONResponse({"values": values})

    async def ws_me(self, ws: WebSocket) -> None:
        await ws.accept()
        who = await self.sessions.who(ws)
        if who.player is None:
            await ws.send_text(json.dumps({"v": 1, "type": "me", "friends": [], "incoming": [], "outgoing": [],
                                           "blocked": [], "invitations": []}))  # fmt: skip
            await ws.close(1000)
            return
        address = ws.client.host if ws.client else None
        # a guest's sockets are counted by address too (but an unmetered one's)
        guests = None if who.account or address in self.unmetered else person_key(None, False, address)
        if not await admit_socket(ws, self.sockets, who.player, None, guests):
            return
        conn = MeSocket(ws, who.player, who.name, person_key(who.player, who.account, address))
        people = self.room().people
        self.sessions.track(who.session, conn)
        try:
            await people.attach(conn)
            async for _ in client_messages(ws, conn, shared=self.sockets.spender(who.player, guests)):
                pass  # nothing to say on this channel; keep it open
        finally:
            self.sessions.untrack(who.session, conn)
            await people.detach(conn)
            self.sockets.close(who.player, None, guests)
            await conn.finish()

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/friends", self.api_friends, methods=["GET", "POST"]),
            Route("/api/tables/{tid:tid}/invite", self.api_invite, methods=["POST"]),
            Route("/api/invitations/{iid}", self.api_answer, methods=["POST"]),
            Route("/api/prefs", self.api_prefs, methods=["GET", "POST"]),
            WebSocketRoute("/ws/me", self.ws_me),
        ]
