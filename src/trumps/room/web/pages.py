"""The pages: the lobby, a table's page, an invitation link, and the page
that says one thing (no such table, not for you) in the reader's language.

A table's page is served only to whoever may see the table, and never from
a cache (the access check runs on every visit); a finished table's page
sends the reader to its replay.
"""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.i18n import N_, translator
from trumps.room.history import queries
from trumps.room.history.replays import CLOSED_UNPLAYED
from trumps.room.web import languages
from trumps.room.web.message import message_page
from trumps.room.web.shared import STATIC, Web
from trumps.room.web.tables import live_elsewhere

__all__ = ["Pages"]


class Pages:
    """The room's HTML pages."""

    def __init__(self, web: Web) -> None:
        self.web = web

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", self.index),
            Route("/favicon.ico", self.favicon),
            Route("/table/{tid:tid}", self.table_page),
            Route("/join/{code}", self.join_page),
        ]

    async def index(self, _request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(self, _request: Request) -> Response:
        # browsers ask for /favicon.ico whatever the pages link to
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def said(self, request: Request, message: str, status: int) -> Response:
        """A page saying ``message`` (an English msgid) in the reader's language."""
        lang = await languages.language_of(request, self.web.room(), self.web.sessions)
        words = translator(lang)
        text = words.gettext(message)
        return message_page(words, text[:1].upper() + text[1:], status, lang)

    async def table_page(self, request: Request) -> Response:
        tid = request.path_params["tid"]
        room = self.web.room()
        table = room.people.find(tid)
        if table is None and room.cluster is not None:
            elsewhere = await live_elsewhere(self.web, tid)
            if elsewhere is True:  # live, but not yet in this worker's lobby: the socket checks access
                return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})
            table = elsewhere
        if table is None:
            # every unfinished table is live, so a stored table that is not is
            # finished (its replay), or was closed before it began
            status = await room.store.run(queries.table_status, room.store, tid)
            if status == "closed":
                return await self.said(request, CLOSED_UNPLAYED, 410)
            if status is not None:
                return RedirectResponse(f"/replay/{tid}", status_code=303)
            return await self.said(request, N_("No such table"), 404)
        pid, _ = await self.web.identity(request)
        why = room.people.not_seen_because(table, pid)
        if why is not None:
            return await self.said(request, why, 403)
        # never from a cache: the access check must run on every visit
        return FileResponse(STATIC / "table.html", headers={"Cache-Control": "no-store"})

    async def join_page(self, request: Request) -> Response:
        """An invitation link: the lobby takes the code (asking for a name first)."""
        code = request.path_params["code"]
        return RedirectResponse(f"/?join={quote(code, safe='')}", status_code=303)
