"""The HTTP side of identity: the session cookie, who a request is, and
the account routes (guest, register, log in, log out, log out everywhere,
change password, me).

The cookie ``trumps_session`` holds a random token (HttpOnly, SameSite=Lax,
Secure over HTTPS); the server keeps its SHA-256 (:mod:`trumps.room.people.accounts`).
Looking a session up costs a query, so live sessions are cached for
:data:`CACHE_SECONDS`; a revocation made here drops the cache entry and
closes every WebSocket opened with that session at once.

Guests made before sessions existed carry the signed ``trumps_player``
cookie; it still identifies its guest (never an account: once the guest
registers, only a session does), and ``/api/me`` swaps it for a session.
"""

from __future__ import annotations

import contextlib
import time
import unicodedata
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from itsdangerous import BadSignature, URLSafeSerializer
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.room.compete import competition
from trumps.room.limits import GUEST_BURST, GUEST_RATE, PASSWORD_BURST, PASSWORD_RATE, Budget
from trumps.room.people import accounts
from trumps.room.people.accounts import Busy, Hashing, Throttled
from trumps.room.people.prefs import get_prefs
from trumps.room.tables.messages import MessageError
from trumps.room.tables.table import Connection, RoomError
from trumps.room.validate import BodyReader, Line
from trumps.room.web.message import bad

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["COOKIE", "LEGACY_COOKIE", "AccountRoutes", "Sessions", "Who"]

COOKIE = "trumps_session"
LEGACY_COOKIE = "trumps_player"
CACHE_SECONDS = 60.0


@dataclass(frozen=True)
class Who:
    """Who sent a request: a player (guest or account) or nobody yet."""

    player: str | None
    name: str
    session: str | None = None  # the session id (hash of the cookie's token)
    account: bool = False


NOBODY = Who(None, "guest")


class Sessions:
    """Resolves requests to players, and ends sessions (with their sockets)."""

    def __init__(self, room: Callable[[], Room], signer: Callable[[], URLSafeSerializer]) -> None:
        self.room = room
        self.signer = signer
        self.cache: dict[str, tuple[str, float]] = {}
        self.sockets: defaultdict[str, set[Connection]] = defaultdict(set)
        # counts the calls to ended(): a lookup that ran while a session was
        # revoked (reads run beside the database thread) is made again
        self.endings = 0

    async def who(self, conn: HTTPConnection) -> Who:
        room = self.room()
        token = conn.cookies.get(COOKIE)
        if token:
            sid = accounts.token_id(token)
            hit = self.cache.get(sid)
            now = time.monotonic()
            if hit is not None and now - hit[1] < CACHE_SECONDS:
                pid: str | None = hit[0]
            else:  # the session and its player in one trip to the database
                for _ in range(3):
                    endings = self.endings
                    info = await room.store.read(accounts.session_player_info, room.store, sid)
                    stable = self.endings == endings  # no session ended meanwhile: the answer stands
                    if stable:
                        break
                if info is None:
                    pid = None
                    self.cache.pop(sid, None)
                else:
                    pid = info.id
                    room.people.remember(info)
                    if stable:
                        self.cache[sid] = (pid, now)
            if pid is not None:
                name = await room.player_name(pid)
                if name is not None:
                    return Who(pid, name, sid, room.people.is_account(pid))
            return NOBODY
        legacy = conn.cookies.get(LEGACY_COOKIE)
        if legacy:
            try:
                pid = self.signer().loads(legacy)
            except BadSignature:
                return NOBODY
            if isinstance(pid, str):
                name = await room.player_name(pid)
                if name is not None and not room.people.is_account(pid):
                    return Who(pid, name)
        return NOBODY

    async def identity(self, conn: HTTPConnection) -> tuple[str | None, str]:
        """(player id, name): the shape the history and competition routes use."""
        w = await self.who(conn)
        return w.player, w.name

    def track(self, sid: str | None, conn: Connection) -> None:
        if sid is not None:
            self.sockets[sid].add(conn)

    def untrack(self, sid: str | None, conn: Connection) -> None:
        if sid is not None and sid in self.sockets:
            self.sockets[sid].discard(conn)
            if not self.sockets[sid]:
                del self.sockets[sid]

    async def ended(self, sids: list[str], *, local: bool = False) -> None:
        """Sessions were revoked: forget them and close their sockets (on
        every worker of the room unless ``local``)."""
        cluster = self.room().cluster
        if cluster is not None and not local and sids:
            cluster.sessions_ended(list(sids))
        self.endings += 1
        for sid in sids:
            self.cache.pop(sid, None)
            for conn in list(self.sockets.pop(sid, ())):
                with contextlib.suppress(Exception):
                    await conn.send({"v": 1, "type": "error", "reason": "you were logged out"})
                    await conn.close(4401)


#: The one invisible formatting character a name keeps: the joiner inside emoji (👩‍💻).
_ZWJ = "\u200d"


def hidden_characters(name: str) -> bool:
    """Whether ``name`` holds a control character or an invisible
    formatting one (Unicode Cc, Cf): a right-to-left override would show
    "Ann" for "\u202ennA" and make a guest look like someone else, a
    zero-width space two names look alike."""
    return any(unicodedata.category(c) in ("Cc", "Cf") and c != _ZWJ for c in name)


class GuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # (not Line: the route refuses every control and invisible formatting
    # character itself, and says so in a guest's words)
    name: str = Field(min_length=1, max_length=24)


class RegisterIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Line = Field(max_length=64)
    password: str = Field(max_length=256)


class LoginIn(RegisterIn):
    pass


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=256)
    new: str = Field(max_length=256)


def set_session(request: Request, resp: Response, token: str, account: bool) -> None:
    days = accounts.SESSION_DAYS if account else accounts.GUEST_SESSION_DAYS
    resp.set_cookie(
        COOKIE, token, httponly=True, samesite="lax", secure=request.url.scheme == "https",
        max_age=days * 86400, path="/",
    )  # fmt: skip
    resp.delete_cookie(LEGACY_COOKIE, path="/")


class AccountRoutes:
    """The account routes; ``body(request, Model)`` parses a JSON body.

    Per address (trumps.room.limits; none for the ``unmetered`` addresses):
    a budget of new guests, and one of password attempts (sign-ups and
    logins, each counted before any hashing, whatever its outcome: a
    sign-up with a taken name costs a hash too).  Hashing runs on threads
    of its own (:class:`~trumps.room.people.accounts.Hashing`), never on the
    database thread."""

    def __init__(
        self,
        room: Callable[[], Room],
        sessions: Sessions,
        body: BodyReader,
        *,
        unmetered: tuple[str, ...] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room = room
        self.sessions = sessions
        self.body = body
        self.unmetered = unmetered
        self.guests = Budget(GUEST_RATE, GUEST_BURST, clock)
        self.passwords = Budget(PASSWORD_RATE, PASSWORD_BURST, clock)
        self.hashing = Hashing()
        self.handlers: dict[str, Callable[[Request], Awaitable[Response]]] = {
            "/api/me": self.api_me,
            "/api/guest": self.api_guest,
            "/api/register": self.api_register,
            "/api/login": self.api_login,
            "/api/logout": self.api_logout,
            "/api/logout-all": self.api_logout_all,
            "/api/password": self.api_password,
        }

    def address_of(self, request: Request) -> str:
        return request.client.host if request.client else "?"

    def over_budget(self, request: Request, budget: Budget, what: str) -> JSONResponse | None:
        """A 429 if the request's address has spent ``budget`` (None: go on)."""
        address = self.address_of(request)
        if address in self.unmetered:
            return None
        wait = budget.take(f"ip:{address}")
        if wait <= 0:
            return None
        retry = Throttled(wait, what)
        return bad(str(retry), 429, **{"Retry-After": str(retry.retry_after)})

    def agent(self, request: Request) -> str:
        return request.headers.get("user-agent", "")[:200]

    async def me_payload(self, who: Who) -> dict[str, object]:
        r = self.room()
        if who.player is None:
            return {"player": None, "name": None, "account": False, "chips": 0}
        chips = await r.store.run(competition.chips, r.store, who.player) if who.account else 0
        prefs = await r.store.run(get_prefs, r.store, who.player) if who.account else None
        return {
            "player": who.player, "name": who.name, "account": who.account, "chips": chips,
            "username": who.name if who.account else None, "prefs": prefs,
        }  # fmt: skip

    async def api_me(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        resp = JSONResponse(await self.me_payload(who))
        if who.player is not None and who.session is None:  # an old signed guest cookie: swap it
            r = self.room()
            token = await r.store.run(accounts.new_session, r.store, who.player, self.agent(request), False)
            set_session(request, resp, token, False)
        return resp

    async def api_guest(self, request: Request) -> Response:
        data = await self.body(request, GuestIn)
        name = " ".join(data.name.split())
        if not name:
            return bad("name: must not be blank")
        if hidden_characters(name):
            return bad("name: no control or invisible formatting characters")
        r = self.room()
        who = await self.sessions.who(request)
        if who.account:
            return bad("you are logged in: your name is your username", 409)
        if who.player is None:
            refused = self.over_budget(request, self.guests, "new guests from this address")
            if refused is not None:
                return refused
            pid = await r.new_player(name)
            token = await r.store.run(accounts.new_session, r.store, pid, self.agent(request), False)
            resp = JSONResponse({"player": pid, "name": await r.player_name(pid)})
            set_session(request, resp, token, False)
            return resp
        await r.store.run(r.store.rename_player, who.player, name)
        await r.people.renamed(who.player)
        resp = JSONResponse({"player": who.player, "name": await r.player_name(who.player)})
        if who.session is None:
            token = await r.store.run(accounts.new_session, r.store, who.player, self.agent(request), False)
            set_session(request, resp, token, False)
        return resp

    async def api_register(self, request: Request) -> Response:
        data = await self.body(request, RegisterIn)
        r = self.room()
        who = await self.sessions.who(request)
        if who.account:
            return bad("you already have an account: log out first", 409)
        username = data.username.strip()
        accounts.check_signup(username, data.password)  # a bad form costs no budget
        refused = self.over_budget(request, self.passwords, "password attempts from this address")
        if refused is not None:
            return refused
        try:
            pid = await accounts.register_async(
                r.store, self.hashing, username, data.password, who.player, self.address_of(request)
            )
        except Throttled as exc:
            return bad(str(exc), 429, **{"Retry-After": str(exc.retry_after)})
        except Busy as exc:
            return bad(str(exc), 503, **{"Retry-After": "1"})
        if who.session is not None:  # the guest's session becomes an account's: a new token
            await r.store.run(accounts.revoke_session, r.store, who.session)
            await self.sessions.ended([who.session])
        await r.people.renamed(pid)
        token = await r.store.run(accounts.new_session, r.store, pid, self.agent(request), True)
        resp = JSONResponse(
            await self.me_payload(Who(pid, await r.player_name(pid) or "?", None, True)), status_code=201
        )
        set_session(request, resp, token, True)
        return resp

    async def api_login(self, request: Request) -> Response:
        data = await self.body(request, LoginIn)
        r = self.room()
        refused = self.over_budget(request, self.passwords, "password attempts from this address")
        if refused is not None:
            return refused
        try:
            pid = await accounts.login_async(
                r.store, self.hashing, data.username, data.password, self.address_of(request)
            )
        except Throttled as exc:
            return bad(str(exc), 429, **{"Retry-After": str(exc.retry_after)})
        except Busy as exc:
            return bad(str(exc), 503, **{"Retry-After": "1"})
        await r.people.learn(pid)
        token = await r.store.run(accounts.new_session, r.store, pid, self.agent(request), True)
        resp = JSONResponse(await self.me_payload(Who(pid, await r.player_name(pid) or "?", None, True)))
        set_session(request, resp, token, True)
        return resp

    async def api_logout(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        r = self.room()
        if who.session is not None:
            await r.store.run(accounts.revoke_session, r.store, who.session)
            await self.sessions.ended([who.session])
        resp = JSONResponse({"ok": True})
        resp.delete_cookie(COOKIE, path="/")
        resp.delete_cookie(LEGACY_COOKIE, path="/")
        return resp

    async def api_logout_all(self, request: Request) -> Response:
        who = await self.sessions.who(request)
        if not who.account or who.player is None:
            return bad("log in first", 401)
        r = self.room()
        ended = await r.store.run(accounts.revoke_all, r.store, who.player, None)
        await self.sessions.ended(ended)
        resp = JSONResponse({"ok": True, "ended": len(ended)})
        resp.delete_cookie(COOKIE, path="/")
        return resp

    async def api_password(self, request: Request) -> Response:
        data = await self.body(request, PasswordIn)
        who = await self.sessions.who(request)
        if not who.account or who.player is None:
            return bad("log in first", 401)
        r = self.room()
        refused = self.over_budget(request, self.passwords, "password attempts from this address")
        if refused is not None:
            return refused
        try:
            ended = await accounts.change_password_async(
                r.store, self.hashing, who.player, data.old, data.new, who.session
            )
        except Busy as exc:
            return bad(str(exc), 503, **{"Retry-After": "1"})
        await self.sessions.ended(ended)
        return JSONResponse({"ok": True, "ended": len(ended)})

    async def guarded(self, request: Request) -> Response:
        handler = self.handlers[request.url.path]
        try:
            return await handler(request)
        except (MessageError, RoomError) as exc:
            return bad(str(exc))

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/me", self.guarded),
            *(Route(path, self.guarded, methods=["POST"]) for path in self.handlers if path != "/api/me"),
        ]
