"""The ASGI app: pages, a small JSON API and three WebSockets (lobby,
table, and each person's own channel), assembled from the areas' routes.

Who a request is comes from its session cookie (:mod:`trumps.room.web.accounts`),
so a client can only ever act for its own seat; cross-site requests are
refused (:mod:`trumps.room.web.csrf`).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from itsdangerous import URLSafeSerializer
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from trumps.room.limits import BodyLimit
from trumps.room.room import KEEP_FINISHED, Room
from trumps.room.storage.store import Store, StoreUnavailable
from trumps.room.tables.table import ABANDON_AFTER
from trumps.room.tables.timers import Clock
from trumps.room.validate import RefuseControlCharacters
from trumps.room.web.accounts import AccountRoutes
from trumps.room.web.compete import Compete
from trumps.room.web.csrf import CrossSiteGuard
from trumps.room.web.history import HistoryRoutes
from trumps.room.web.languages import Languages
from trumps.room.web.pages import Pages
from trumps.room.web.people import PeopleRoutes
from trumps.room.web.play import PlayRoutes
from trumps.room.web.profiles import Profiles
from trumps.room.web.shared import STATIC, Web
from trumps.room.web.socket_queue import TransportAccess
from trumps.room.web.sockets import Sockets
from trumps.room.web.stopping import CloseWhenStopping, Stopping
from trumps.room.web.tables import Tables
from trumps.room.web.tournaments import TournamentRoutes

__all__ = ["create_app", "server_gc"]

log = logging.getLogger("trumps.room")

GC_YOUNG = 5_000  # allocations between young collections (CPython's default: 700)


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
    """A write the database did not take (trumps.room.storage.db.StoreUnavailable):
    503 with the reason, nothing acknowledged (logged once where detected)."""
    return JSONResponse({"error": str(exc)}, status_code=503)


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


def routes(web: Web, pages: Pages) -> list[BaseRoute]:
    """Every area's routes, in the order they are matched."""
    room, sessions, body = web.room, web.sessions, web.body
    return [
        *pages.routes(),
        *Tables(web).routes(),
        *AccountRoutes(room, sessions, body, unmetered=web.unmetered).routes(),
        *PeopleRoutes(room, sessions, body, web.sockets, web.unmetered).routes(),
        *PlayRoutes(web).routes(),
        *Profiles(web).routes(),
        *HistoryRoutes(room, web.identity, pages.said).routes(),
        *Compete(web).routes(),
        *TournamentRoutes(web).routes(),
        *Languages(room, sessions).routes(),
        *Sockets(web).routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


@dataclass(frozen=True)
class Startup:
    """How :func:`create_app`'s room starts once the server runs (the store
    and the room exist only then): its database, its bots' pace and its
    clock, its garbage collection, one worker or one of several."""

    db_url: str
    bot_delay: float
    grace: float
    clock: Clock | None
    tune_gc: bool
    keep_finished: float
    abandon_after: float
    cluster: bool | None
    worker: str | None

    def lifespan(self, web: Web) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
        """The app's lifespan: the room started into ``web``, stopped after."""

        @contextlib.asynccontextmanager
        async def run(_app: Starlette) -> AsyncIterator[None]:
            store = Store(self.db_url)
            room = Room(
                store, bot_delay=self.bot_delay, grace=self.grace, clock=self.clock,
                keep_finished=self.keep_finished, abandon_after=self.abandon_after,
            )  # fmt: skip
            web.store, web.running = store, room
            web.signer_key = URLSafeSerializer(store.secret(), salt="trumps-player")
            on_postgres = store.engine.dialect.name == "postgresql"
            if self.cluster and not on_postgres:
                raise RuntimeError("several workers need PostgreSQL: SQLite serves one process")
            if (self.cluster is None and on_postgres) or self.cluster:
                room.use_cluster(self.db_url, self.worker)
            room.sessions = web.sessions
            await room.start()
            if self.tune_gc:
                server_gc()
            try:
                yield
            finally:
                await room.stop()
                store.close()

        return run


async def hand_over(web: Web, stopping: Stopping) -> bool:
    """Before the server closes its sockets: give this worker's tables to
    the others (a rolling restart; nothing to do on one process).  True
    on a worker of several: it then answers every request with
    ``Connection: close``, and the server leaves its proxy's pooled
    connections for the proxy to close (trumps.room.web.stopping)."""
    r = web.running
    if r is None or r.cluster is None:
        return False
    stopping.now = True
    await r.cluster.hand_over()
    return True


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
    web = Web(unmetered=unmetered)
    start = Startup(db_url, bot_delay, grace, clock, tune_gc, keep_finished, abandon_after, cluster, worker)
    stopping = Stopping()
    app = Starlette(
        routes=routes(web, Pages(web)),
        lifespan=start.lifespan(web),
        # TransportAccess first: it needs the server's own ``send`` (trumps.room.web.socket_queue)
        middleware=[
            Middleware(TransportAccess),
            Middleware(RefuseControlCharacters),
            Middleware(BodyLimit),
            Middleware(CloseWhenStopping, stopping=stopping),
            Middleware(CrossSiteGuard, trusted_origins=trusted_origins),
        ],
        exception_handlers={Exception: server_error, StoreUnavailable: store_unavailable},
    )

    app.state.hand_over = functools.partial(hand_over, web, stopping)
    app.state.current_room = lambda: web.running  # the running room, or None (tests, tools)
    app.state.web = web
    return app
