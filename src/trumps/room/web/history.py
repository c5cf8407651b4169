"""Finished games: replay pages, JSON/PBN export, a player's own game list.

Routes (mounted by :func:`trumps.room.web.app.create_app`):

* ``GET /replay/{tid}`` and ``GET /games``: the pages (static HTML + JS);
* ``GET /api/tables/{tid}/replay``: every step of a finished game (each call
  and card with the state after it, all hands shown) and its score sheet;
* ``GET /api/tables/{tid}/record``: the project's JSON record
  (:meth:`Match.to_json`), as a download; ``?format=pbn`` gives it as PBN
  2.1 for a game that has a PBN format;
* ``GET /api/tables/{tid}/review?deal=N``: the post-game analysis of deal
  ``N``: every card played with its double-dummy cost (see
  :func:`review_deal`), computed in a worker process with a time limit;
* ``GET /api/me/games``: the caller's own tables (seated or hosted).

Hidden information: the replay and the exports show every hand, so they are
only ever made for a game whose table is *finished*.  A table still waiting
or being played gets ``409`` and nothing of its state, whoever asks (the
host and the seated players included: a player must not see the others'
cards through the export).  A finished table that was private (or admitted
no spectators) is replayed only by its host, players and invited players
(``403`` for anyone else).  A finished table is immutable, so what is built
for it (the rebuilt match, the replay JSON) is cached.

Finished tables are not kept live after a restart: everything here reads
them from storage, and rebuilds the game by replaying the stored actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from trumps.core.errors import TrumpsError
from trumps.core.protocol import Deal, Match
from trumps.core.seats import seat_name
from trumps.i18n import N_
from trumps.room import STATIC
from trumps.room.history import review
from trumps.room.history.queries import PlayerGame, player_games, table_exists
from trumps.room.history.replays import (
    CLOSED,
    NotFinished,
    Outcome,
    build_replay,
    exports,
    game_outcome,
    may_replay,
    pbn_export,
    pbn_module,
    rebuild,
)
from trumps.room.history.review import (
    Review,
    ReviewFailed,
    ReviewJob,
    review_summary,
    run_review,
)
from trumps.room.storage.store import StoredTable
from trumps.room.validate import parse_int
from trumps.room.web.message import bad

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["CACHE_SIZE", "GAMES_LIMIT", "STATIC", "HistoryRoutes"]

_Key = TypeVar("_Key", bound=Hashable)
_Value = TypeVar("_Value")
Identity = Callable[[HTTPConnection], Awaitable[tuple[str | None, str]]]
CACHE_SIZE = 64  # finished tables kept built (match + replay JSON)
GAMES_LIMIT = 200  # most tables listed in a player's game list


@dataclass
class _Finished:
    """A finished table, built once (finished tables never change)."""

    stored: StoredTable
    names: dict[str, str]
    match: Match[Deal]
    replay_gz: bytes | None = None  # the replay JSON, gzipped (a tenth of its size)


def _replay_bytes(entry: _Finished) -> bytes:
    """The replay JSON of a finished table, gzipped: it is kept for every
    cached table, and a long game's replay is a few hundred kilobytes."""
    data = build_replay(entry.stored, entry.names)
    return gzip.compress(json.dumps(data, separators=(",", ":")).encode(), compresslevel=6)


class HistoryRoutes:
    """The history routes, given the live room and the cookie identity;
    ``said`` makes the page of a message (a replay that does not exist).
    Finished tables never change, so what is built for them is cached."""

    def __init__(
        self,
        room: Callable[[], Room],
        identity: Identity,
        said: Callable[[Request, str, int], Awaitable[Response]],
    ) -> None:
        self.room = room
        self.identity = identity
        self.said = said
        self.cache: OrderedDict[str, _Finished] = OrderedDict()
        self.outcomes: OrderedDict[str, Outcome] = OrderedDict()
        self.reviews: OrderedDict[tuple[str, int], Review] = OrderedDict()
        self.reviewing: dict[tuple[str, int], asyncio.Future[Review]] = {}
        self.workers: list[asyncio.Semaphore] = []  # made on first use, in the server's loop

    @staticmethod
    def remember(store: OrderedDict[_Key, _Value], key: _Key, value: _Value, size: int) -> None:
        store[key] = value
        store.move_to_end(key)
        while len(store) > size:
            store.popitem(last=False)

    async def exists(self, tid: str) -> bool:
        if tid in self.room().tables:
            return True
        return await self.room().store.run(table_exists, self.room().store, tid)

    async def load(self, tid: str) -> _Finished | None:
        """The finished table ``tid`` built from storage, ``None`` if there is
        no such table; raises :class:`NotFinished` if its game is not over."""
        live = self.room().tables.get(tid)
        if live is not None and live.status != "finished":
            raise NotFinished(live.status)  # known without touching the database
        store = self.room().store
        stored = await store.run(store.load_table, tid)
        if stored is None:
            return None
        if stored.status != "finished":
            raise NotFinished(stored.status)
        names: dict[str, str] = {}
        for player, _bot in stored.seats.values():
            if player is not None:
                names[player] = await self.room().player_name(player) or "?"
        match = await asyncio.to_thread(rebuild, stored)
        self.remember(self.outcomes, tid, game_outcome(match), CACHE_SIZE * 16)
        return _Finished(stored, names, match)

    async def finished(self, tid: str) -> _Finished | None:
        """:func:`load`, through the cache of finished tables."""
        hit = self.cache.get(tid)
        if hit is not None:
            self.cache.move_to_end(tid)
            return hit
        entry = await self.load(tid)
        if entry is not None:
            self.remember(self.cache, tid, entry, CACHE_SIZE)
        return entry

    async def lookup(self, request: Request) -> _Finished | Response:
        """The finished table of the request, or the error response."""
        tid = request.path_params["tid"]
        try:
            entry = await self.finished(tid)
        except NotFinished as exc:
            return bad(str(exc), 409)
        except TrumpsError as exc:
            return bad(f"table {tid!r} could not be rebuilt from its stored actions: {exc}", 500)
        if entry is None:
            return bad(f"no table {tid!r}", 404)
        # (a tournament's deal is anyone's to replay once the tournament has closed)
        if not may_replay(entry.stored, (await self.identity(request))[0]) and not (
            await self.room().tournaments.replay_is_public(entry.stored.settings)
        ):
            return bad(CLOSED, 403)
        return entry

    # ----- pages -----------------------------------------------------------------
    async def replay_page(self, request: Request) -> Response:
        # the page holds no game data: it loads the replay through the API,
        # which refuses unfinished games (the page then says so)
        if not await self.exists(request.path_params["tid"]):
            return await self.said(request, N_("No such table"), 404)
        return FileResponse(STATIC / "replay.html")

    async def games_page(self, _request: Request) -> Response:
        return FileResponse(STATIC / "games.html")

    # ----- API -------------------------------------------------------------------------
    async def api_replay(self, request: Request) -> Response:
        entry = await self.lookup(request)
        if isinstance(entry, Response):
            return entry
        if entry.replay_gz is None:
            entry.replay_gz = await asyncio.to_thread(_replay_bytes, entry)
        headers = {"Vary": "Accept-Encoding", "Cache-Control": "private, max-age=3600"}
        if "gzip" in request.headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            return Response(entry.replay_gz, media_type="application/json", headers=headers)
        body = await asyncio.to_thread(gzip.decompress, entry.replay_gz)  # rare: browsers take gzip
        return Response(body, media_type="application/json", headers=headers)

    async def api_record(self, request: Request) -> Response:
        fmt = request.query_params.get("format", "json")
        if fmt not in ("json", "pbn"):
            return bad(f"unknown format {fmt!r} (json or pbn)", 400)
        entry = await self.lookup(request)
        if isinstance(entry, Response):
            return entry
        st = entry.stored
        stem = f"trumps-{st.game}-{st.id}"
        if fmt == "pbn":
            if pbn_module(st.game) is None:
                return bad(f"{st.game} games have no PBN export (only JSON)", 400)
            text = pbn_export(entry.match, st, entry.names)
            return Response(
                text.encode(),
                media_type="application/vnd.pbn; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{stem}.pbn"'},
            )
        return JSONResponse(
            entry.match.to_json(), headers={"Content-Disposition": f'attachment; filename="{stem}.json"'}
        )

    async def analyse(self, entry: _Finished, deal: int) -> Review:
        """Deal ``deal``'s analysis, made once (in a worker process, at most
        :data:`review.REVIEW_WORKERS` at a time) and kept."""
        key = (entry.stored.id, deal)
        if not self.workers:
            self.workers.append(asyncio.Semaphore(review.REVIEW_WORKERS))
        async with self.workers[0]:
            hit = self.reviews.get(key)
            if hit is not None:
                return hit
            st, match = entry.stored, entry.match
            job: ReviewJob = {
                "game": st.game, "options": st.options, "seed": st.seed, "deal": deal,
                "actions": [(seat, action) for seat, action, _at, _auto in st.actions],
            }  # fmt: skip
            ran = await run_review(job, review.REVIEW_SECONDS)
        seats = [match.seat_name(s) for s in range(match.players)]
        summary = review_summary(ran["cards"], seats)
        result: Review = {
            "table": st.id,
            "deal": deal,
            "deals": len(match.deal_records),
            "unit": summary["unit"],
            "totals": summary["totals"],
            "complete": ran["complete"],
            "cards": ran["cards"],
            "seconds": ran["seconds"],
            "limit": review.REVIEW_SECONDS,
        }
        self.remember(self.reviews, key, result, review.REVIEW_CACHE)
        return result

    async def api_review(self, request: Request) -> Response:
        entry = await self.lookup(request)
        if isinstance(entry, Response):
            return entry
        count = len(entry.match.deal_records)
        deal = parse_int(request.query_params.get("deal"), 1, count)
        if deal is None:
            return bad(f"give the deal to analyse: ?deal=N with N from 1 to {count}", 400)
        key = (entry.stored.id, deal)
        result = self.reviews.get(key)
        if result is None:
            task = self.reviewing.get(key)
            if task is None:  # one analysis per deal, whoever asks meanwhile
                task = asyncio.ensure_future(self.analyse(entry, deal))
                self.reviewing[key] = task
                task.add_done_callback(lambda _t: self.reviewing.pop(key, None))
            try:
                result = await asyncio.shield(task)
            except ReviewFailed as exc:
                return bad(f"the double-dummy analysis of deal {deal} failed: {exc}", 503)
        self.reviews.move_to_end(key)
        return JSONResponse(result, headers={"Cache-Control": "private, max-age=3600"})

    async def api_my_games(self, request: Request) -> Response:
        pid, name = await self.identity(request)
        if pid is None:
            return bad("choose a name first", 401)
        store = self.room().store
        rows = await store.run(player_games, store, pid, GAMES_LIMIT)
        out = []
        for row in rows:
            out.append(await self.describe(row, pid))
        return JSONResponse({"player": pid, "name": name, "games": out})

    async def describe(self, row: PlayerGame, pid: str) -> dict[str, object]:
        """One entry of a game list: public facts only (seats, status,
        scores), never a card, whatever the table's status."""
        players = len(row.seats)
        seats = [{"seat": seat_name(s.seat, players), "name": s.name, "bot": s.bot} for s in row.seats]
        mine = next((seat_name(s.seat, players) for s in row.seats if s.player == pid), None)
        outcome: Outcome | None = None
        status = row.status
        live = self.room().tables.get(row.id)
        if live is not None and live.status != "finished":
            status = live.status
            outcome = game_outcome(live.match)
            outcome["winner"] = None
        elif status == "finished":
            outcome = self.outcomes.get(row.id)
            if outcome is None:  # built once, without filling the cache of whole tables
                with contextlib.suppress(NotFinished, TrumpsError):
                    await self.load(row.id)
                outcome = self.outcomes.get(row.id)
        result = None
        if status == "finished" and outcome is not None and mine is not None:
            win = outcome["winner"]
            result = "drawn" if win is None else "won" if mine in outcome["teams"][win] else "lost"
        over = status == "finished"
        return {
            "id": row.id,
            "game": row.game,
            "preset": row.preset,
            "options": row.options,
            "status": status,
            "created": row.created,
            "finished": row.last_action if over else None,
            "actions": row.actions,
            "host": row.host == pid,
            "seat": mine,
            "seats": seats,
            "scores": None if outcome is None else outcome["scores"],
            "teams": None if outcome is None else outcome["teams"],
            "winner": None if outcome is None or not over else outcome["winner"],
            "result": result,
            "links": {
                "table": None if over else f"/table/{row.id}",
                "replay": f"/replay/{row.id}" if over else None,
                **({"json": None, "pbn": None} if not over else exports(row.id, row.game)),
            },
        }

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/replay/{tid:tid}", self.replay_page),
            Route("/games", self.games_page),
            Route("/api/tables/{tid:tid}/replay", self.api_replay),
            Route("/api/tables/{tid:tid}/record", self.api_record),
            Route("/api/tables/{tid:tid}/review", self.api_review),
            Route("/api/me/games", self.api_my_games),
        ]
