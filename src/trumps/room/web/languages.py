"""Which language a request gets, and the pages' catalogues.

The order the room follows: the account's own setting (unless "auto"),
else the choice made in a page header (the ``trumps_lang`` cookie, kept by
the browser), else the browser's ``Accept-Language``, else English.  The
pages load ``/i18n/catalog.js`` (that person's language, as a script so the
text is there before the page draws) or ``/i18n/{lang}.json`` (any one
language's catalogue).  Server messages stay English on the wire; each
page translates them with its catalogue (:func:`trumps.i18n.Translator.message`
in JavaScript), so a message made on one worker reads right on another.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.i18n import LANGUAGES, PSEUDO, catalog, catalog_script, negotiate, pick
from trumps.room.people.prefs import get_prefs

if TYPE_CHECKING:
    from trumps.room.room import Room
    from trumps.room.web.accounts import Sessions

__all__ = ["COOKIE", "Languages", "language_of"]

COOKIE = "trumps_lang"


async def language_of(conn: HTTPConnection, room: Room, sessions: Sessions) -> str:
    """The language of this request's person (see the module doc for the order)."""
    setting = None
    who = await sessions.who(conn)
    if who.account and who.player:
        prefs = await room.store.run(get_prefs, room.store, who.player)
        chosen = prefs.get("language")
        setting = chosen if isinstance(chosen, str) else None
    return pick(
        setting if setting != "auto" else None,
        conn.cookies.get(COOKIE),
        negotiate(conn.headers.get("accept-language")),
    )


@lru_cache(maxsize=8)
def _script(lang: str) -> tuple[bytes, str]:
    body = catalog_script(lang).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


class Languages:
    """The pages' catalogues: ``/i18n/catalog.js`` in the request's
    language, ``/i18n/<lang>.json`` in the one named."""

    def __init__(self, room: Callable[[], Room], sessions: Sessions) -> None:
        self.room = room
        self.sessions = sessions

    def routes(self) -> list[BaseRoute]:
        return [Route("/i18n/catalog.js", self.catalog_js), Route("/i18n/{lang}.json", self.catalog_json)]

    async def catalog_js(self, request: Request) -> Response:
        lang = await language_of(request, self.room(), self.sessions)
        body, etag = _script(lang)
        headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Cookie, Accept-Language"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)

    async def catalog_json(self, request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES and lang != PSEUDO:
            known = ", ".join(LANGUAGES)
            return JSONResponse({"error": f"unknown language {lang} (known: {known})"}, status_code=404)
        return Response(
            json.dumps(catalog(lang), ensure_ascii=False), media_type="application/json",
            headers={"Cache-Control": "public, max-age=300"},
        )  # fmt: skip
