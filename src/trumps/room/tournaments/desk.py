"""The room's duplicate tournaments: listing them, playing their deals at
tables of one person and three bots, and storing each deal's score as the
deal ends.

A deal is played at a table like any other (the table's page, its socket,
its record and replay), made by the room with the plan's options and the
deal's seed: kind ``tournament``, invitation-only, nobody watching, no chat
and no suggestions, the person at South and the plan's bots elsewhere,
whose decisions depend only on the deal and its history
(:mod:`trumps.tournaments.robots`).  The plan itself, whose seed deals every
hand, stays in the room: a table knows its tournament and deal number only.

What is stored, and when (:mod:`~trumps.room.tournaments.records`): the
entry when the person first plays, the table of the deal they are playing
(they come back to it), and the score as the deal ends.  If the worker dies
between the deal's last card and its score, the score is made again from
the table's stored record the next time anyone asks about the tournament
(:meth:`TournamentDesk.repair`), so a finished deal is never lost.

What an entrant sees of a deal (:meth:`TournamentDesk.detail`): nothing
about a deal before they have finished it (not its results, not its
contracts), then every result on it, and anyone's replay once the
tournament has closed; before that only their own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from trumps.core import registry
from trumps.room.tables.wire import Seat
from trumps.room.tournaments import records
from trumps.room.tournaments.records import Tournament, TournamentDeskError, UnknownTournamentError
from trumps.tournaments import PLAYER_SEAT, TournamentPlan, deal_values, frequency_table, scorings, standings

if TYPE_CHECKING:
    from trumps.room.room import Room
    from trumps.room.storage.store import Store
    from trumps.room.tables.table import Table

__all__ = ["DAILY_BOTS", "TournamentDesk"]

log = logging.getLogger("trumps.room")

#: the bots of the daily tournaments
DAILY_BOTS = "normal"
#: the instant tournaments always open, one per game: deals, and players who finish it before it closes
INSTANT_DEALS = 4
INSTANT_TARGET = 12
#: seconds a tournament's page waits for a deal's par still being worked out
PAR_WAIT = 1.0
#: seconds after which a reservation to make a table is taken for a dead worker's
PENDING_STALE = 60.0


class TournamentDesk:
    """The tournaments of one room (one worker's share of them)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.plans: dict[str, TournamentPlan] = {}  # tournament id -> plan (the tables' bots read it)
        self.pars: dict[tuple[str, int], dict[str, object] | None] = {}  # (tournament, deal) -> its par
        self._par_work: dict[tuple[str, int], asyncio.Future[dict[str, object] | None]] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self.closes: dict[str, float | None] = {}  # tournament id -> when it closes at the latest

    @property
    def store(self) -> Store:
        return self.room.store

    def _now(self) -> float:
        return self.room.clock.now()

    async def daily_games(self) -> list[str]:
        return [s.name for s in registry.specs() if s.daily_tournament is not None]

    async def plan_of(self, tid: str) -> TournamentPlan | None:
        """The plan of a tournament (for its tables' bots), or None."""
        if tid not in self.plans:
            t = await self.store.run(records.get, self.store, tid)
            if t is None:
                return None
            self._know(t)
        return self.plans[tid]

    def _know(self, t: Tournament) -> None:
        """Keep what the tables of ``t`` need: its plan and closing time."""
        self.plans[t.id] = t.plan
        self.closes[t.id] = t.closes_at

    def close_with_tournament(self, table: Table) -> None:
        """A tournament's table still unfinished when its tournament closes
        is closed then (its deal can no longer count), so that a deal left
        half way does not stay live, nor come back at every restart, for
        ever.  Armed when the table is made or resumed; let go as the deal
        ends (the timer holds the table's id only)."""
        tid = table.settings.tournament
        closes = None if tid is None else self.closes.get(tid)
        if closes is None or table.status not in ("waiting", "playing"):
            return
        table_id = table.id

        async def close(_key: object) -> None:
            live = self.room.tables.get(table_id)
            if live is not None and live.status in ("waiting", "playing"):
                await self.room.close_waiting(live, force=True, playing=True)

        self.room.timers.arm((table_id, "tournament-close"), closes, close)

    # ----- reading ----------------------------------------------------------------
    async def listing(self, player: str | None) -> list[dict[str, object]]:
        """The open tournaments (today's daily ones made first if missing):
        ``GET /api/tournaments``."""
        now = self._now()
        games = await self.daily_games()
        rows = await self.store.read(records.listing, self.store, now)
        dailies = {t.plan.game for t, _n, _f in rows if t.kind == "daily"}
        instants = {(t.plan.game, t.plan.scoring) for t, _n, _f in rows if t.kind == "instant"}
        wanted = {(g, sc) for g in games for sc in scorings(g)}
        if not dailies >= set(games) or not instants >= wanted:
            await self.store.run(records.ensure_daily, self.store, now, games, DAILY_BOTS)
            await self.store.run(
                records.ensure_instant, self.store, now, games, DAILY_BOTS, INSTANT_DEALS, INSTANT_TARGET
            )
            rows = await self.store.read(records.listing, self.store, now)
        entries = (
            {}
            if player is None
            else await self.store.read(records.entries, self.store, [t.id for t, _n, _f in rows], player)
        )
        out = []
        for t, entrants, finished in rows:
            item = _describe(t, entrants, finished)
            if player is not None:
                e = entries.get(t.id)
                item["me"] = None if e is None else await self._mine(t, player, e)
            out.append(item)
        return out

    async def _mine(self, t: Tournament, player: str, e: records.Entry) -> dict[str, object]:
        mine: dict[str, object] = {
            "played": len(e.scores),
            "finished": e.finished is not None,
            "ranked": e.ranked,
            "in_deal": e.table_id is not None,  # a deal begun: Continue takes them back to it
        }
        if e.scores and e.ranked:
            field = await self._field(t.id)
            rows = standings(field, t.plan.deals, t.plan.scoring, complete_only=False)
            for r in rows:
                if r.entrant == player:
                    mine.update(position=r.position, of=len(rows), score=round(r.score, 2))
        return mine

    async def _field(self, tid: str) -> dict[str, dict[int, int]]:
        """The ranked entrants' scores (a guest's do not count)."""
        got = await self.store.read(records.scores, self.store, tid)
        return {p: s for p, (ranked, s) in got.items() if ranked}

    async def history(self, player: str) -> list[dict[str, object]]:
        """``player``'s latest tournaments for their profile: each with its
        deals played and their place (final once closed, so far before)."""
        now = self._now()
        out = []
        for t, played, finished in await self.store.run(records.entries_of, self.store, player):
            item: dict[str, object] = {
                "id": t.id, "kind": t.kind, "game": t.plan.game, "deals": t.plan.deals, "scoring": t.plan.scoring,
                "opens_at": t.opens_at, "played": played, "finished": finished is not None, "open": t.is_open(now),
            }  # fmt: skip
            field = await self._field(t.id)
            if player in field:
                closed = not t.is_open(now)
                rows = standings(field, t.plan.deals, t.plan.scoring, complete_only=closed)
                for r in rows:
                    if r.entrant == player:
                        item.update(position=r.position, of=len(rows), score=round(r.score, 2))
            out.append(item)
        return out

    async def detail(self, tid: str, player: str | None) -> dict[str, object]:
        """One tournament for ``player``: its description, the ranking, and
        per deal either nothing (not played yet) or the travelling sheet.
        Computed from one read of every entrant and score (the page asks
        after every deal, so this stays one storage call)."""
        b = await self.store.read(records.board, self.store, tid)
        if b is None:
            raise UnknownTournamentError("no such tournament")
        t = b.tournament
        self._know(t)
        now = self._now()
        at = b.entrants.get(player or "", (False, None))[1]
        if player is not None and at is not None:
            mine_now = {d: v for p, d, v, _c, _t in b.results if p == player}
            if await self.repair(t, player, at, mine_now):
                b = await self.store.read(records.board, self.store, tid)
                assert b is not None
        got = b.scores()
        field = {p: s for p, (ranked, s) in got.items() if ranked}
        closed = not t.is_open(now)
        mine = got.get(player or "", (False, {}))[1]
        names = await self.room.people.learn_many(list(got))
        ranking = [
            {"position": r.position, "name": names.get(r.entrant, "?"), "score": round(r.score, 2), "deals": r.deals,
             "me": r.entrant == player}
            for r in standings(field, t.plan.deals, t.plan.scoring, complete_only=closed)
        ]  # fmt: skip
        deals: list[dict[str, object]] = []
        for k in range(t.plan.deals):
            if k not in mine and not closed:
                deals.append({"deal": k + 1, "played": False})
                continue
            deals.append(await self._traveller(t, k, player, closed, names, field, b.deal_results(k)))
        entrants = len(got)
        item = _describe(t, entrants, sum(1 for _r, s in got.values() if len(s) >= t.plan.deals))
        item.update(open=not closed, ranking=ranking, sheets=deals, played=len(mine))
        return item

    async def _traveller(
        self, t: Tournament, k: int, player: str | None, closed: bool, names: dict[str, str],
        field: dict[str, dict[int, int]], results: list[tuple[str, int, str | None, str]],
    ) -> dict[str, object]:  # fmt: skip
        on_deal = {p: s[k] for p, s in field.items() if k in s}
        mine = next((r for r in results if r[0] == player), None)
        on_deal_with_me = dict(on_deal)
        if mine is not None:  # a guest is compared with the field, not counted in it
            on_deal_with_me[mine[0]] = mine[1]
        values = deal_values(on_deal_with_me, t.plan.scoring) if on_deal_with_me else {}
        rows = []
        for p, score, contract, table in sorted(results, key=lambda r: -r[1]):
            if p not in on_deal_with_me:
                continue
            rows.append(
                {"name": names.get(p, "?"), "score": score, "contract": contract,
                 "value": round(values.get(p, 0.0), 2), "me": p == player,
                 "replay": f"/replay/{table}" if closed or p == player else None}
            )  # fmt: skip
        out: dict[str, object] = {
            "deal": k + 1,
            "played": mine is not None,
            "results": rows,
            "sheet": [
                {"score": f.score, "count": f.count, "value": round(f.value, 2)}
                for f in frequency_table(on_deal_with_me, t.plan.scoring)
            ]
            if on_deal_with_me
            else [],
        }
        if mine is not None:
            out["score"] = mine[1]
            out["value"] = round(values.get(player or "", 0.0), 2)
        par = await self._par(t, k)
        if par is not None:
            out["par"] = par
        return out

    async def _par(self, t: Tournament, k: int) -> dict[str, object] | None:
        """The deal's double-dummy par for South's side, where the game has
        one, or None when not known within :data:`PAR_WAIT` seconds (the
        sheet is not held for it: it shows at the next reading)."""
        key = (t.id, k)
        if key in self.pars:
            return self.pars[key]
        try:
            return await asyncio.wait_for(asyncio.shield(self._par_task(t, k)), PAR_WAIT)
        except TimeoutError:
            return None

    def stop(self) -> None:
        """The room stops: no par is waited for any more."""
        for task in list(self._par_work.values()):
            task.cancel()

    def _par_task(self, t: Tournament, k: int) -> asyncio.Future[dict[str, object] | None]:
        """The working out of a deal's par: the same deal for everyone, so
        once, whoever asks meanwhile (off the event loop: a par takes from
        a fraction of a second to a few seconds, by game).  Started as the deal's first table is made, so that it is
        known when its player finishes the deal."""
        key = (t.id, k)
        task = self._par_work.get(key)
        if task is None:
            task = asyncio.ensure_future(self._work_out_par(t, k))
            self._par_work[key] = task
            task.add_done_callback(lambda _done: self._par_work.pop(key, None))
        return task

    async def _work_out_par(self, t: Tournament, k: int) -> dict[str, object] | None:
        key = (t.id, k)
        fn = registry.spec(t.plan.game).hook("deal_par")
        if fn is None:
            self.pars[key] = None
            return None
        match = t.plan.new_deal(k)
        try:
            got = await asyncio.to_thread(fn, match)
        except Exception:  # (no par is shown; the sheet is; tried again at the next reading)
            log.exception("the par of deal %d of tournament %s", k, t.id)
            return None
        if got is None:  # (the game gives none for this deal)
            self.pars[key] = None
            return None
        scores = got["scores"]
        assert isinstance(scores, list)
        self.pars[key] = {"score": scores[match.team_of(PLAYER_SEAT)], "contracts": got["contracts"]}
        return self.pars[key]

    # ----- playing ----------------------------------------------------------------
    async def play(self, tid: str, player: str) -> str:
        """The table of ``player``'s next deal of tournament ``tid``: the one
        they left, or a new one (``POST /api/tournaments/{id}/play``).

        One storage call on the quiet path (:func:`records.start_play`
        enters them and reserves the next deal's table), then the table's
        own writes: under a full room's load every call waits its turn on
        the database thread (``docs/benchmarks.md``, tournaments)."""
        lock = self._locks.setdefault((tid, player), asyncio.Lock())
        async with lock:
            now = self._now()
            account = self.room.people.is_account(player)
            got = await self.store.run(
                records.start_play,
                self.store,
                tid,
                player,
                account,
                now,
                f"pending:{now}",
                now - PENDING_STALE,
            )
            t = got.tournament
            if t is None:
                raise UnknownTournamentError("no such tournament")
            self._know(t)
            if not t.is_open(now):
                raise TournamentDeskError("this tournament is closed")
            e = got.entry
            if e is None:
                raise TournamentDeskError("daily tournaments are for accounts: register (free) to play")
            if got.claimed:
                return await self._make(t, _next_deal(t, e), player)
            if e.table_id is not None and not e.table_id.startswith("pending:"):
                # the deal they left, wherever it runs (another worker's table too): never a
                # second table for a deal begun, whose cards the person has seen
                status = await self._status(e.table_id)
                if status in ("waiting", "playing"):
                    return e.table_id
                if await self.repair(t, player, e.table_id, e.scores):
                    e = await self.store.run(records.entry, self.store, tid, player)
                    assert e is not None
            if _next_deal(t, e) is None:
                raise TournamentDeskError("you have played every deal of this tournament")
            return await self._claim_and_make(t, player)

    async def _claim_and_make(self, t: Tournament, player: str) -> str:
        """Make the table of the next deal once: reserved first in the entry, so a
        second request at the same moment (another tab, another worker) gets
        the same table, never a second one of a deal whose cards were seen."""
        for _ in range(50):
            now = self._now()
            held = await self.store.run(
                records.claim_table, self.store, t.id, player, f"pending:{now}", now - PENDING_STALE
            )
            if held is None:
                break
            if not held.startswith("pending:") and held != "?":
                return held
            await asyncio.sleep(0.1)  # another request is making it
        else:
            raise TournamentDeskError("your table is being made: try again in a moment")
        e = await self.store.run(records.entry, self.store, t.id, player)
        k = None if e is None else _next_deal(t, e)
        if k is None:  # (finished meanwhile, in another tab)
            await self.store.run(records.set_table, self.store, t.id, player, None)
            raise TournamentDeskError("you have played every deal of this tournament")
        return await self._make(t, k, player)

    async def _make(self, t: Tournament, k: int | None, player: str) -> str:
        """Make the table of deal ``k``, whose making this request holds."""
        try:
            if k is None:
                raise TournamentDeskError("you have played every deal of this tournament")
            table = await self._new_table(t, k, player)
        except BaseException:
            await self.store.run(records.set_table, self.store, t.id, player, None)
            raise
        # in the group commit that stores the table and its seats, after them
        await self.store.write(records.set_table_write, t.id, player, table.id)
        return table.id

    async def _status(self, table_id: str) -> str | None:
        """A table's status: the live one's here, else the stored one's."""
        live = self.room.tables.get(table_id)
        return live.status if live is not None else await self._stored_status(table_id)

    async def _stored_status(self, table_id: str) -> str | None:
        st = await self.store.run(self.store.load_table, table_id)
        return None if st is None else st.status

    async def _new_table(self, t: Tournament, k: int, player: str) -> Table:
        plan = t.plan
        deal = plan.new_deal(k)  # the deal's options: the plan's, made one deal
        settings = {"kind": "tournament", "tournament": t.id, "tournament_deal": k}
        table = await self.room.create_table(
            player, plan.game, plan.preset, deal.options.to_dict(), settings, seed=plan.deal_seed(k),
            by_room=True,
        )  # fmt: skip
        table.tournament_plan = plan
        name = await self.room.player_name(player) or "?"
        seats = [(i, Seat(None, None, plan.bots)) for i in range(table.match.players) if i != PLAYER_SEAT]
        await table.seat_and_start([(PLAYER_SEAT, Seat(player, name, None)), *seats])
        await table.changed()
        self.close_with_tournament(table)
        if (t.id, k) not in self.pars:
            self._par_task(t, k)  # known by the time the deal is over
        return table

    async def replay_is_public(self, settings: Mapping[str, object] | None) -> bool:
        """Whether a finished table's replay is open to anyone: a tournament's
        deal once its tournament has closed (before, only its player's)."""
        tid = (settings or {}).get("tournament")
        if settings is None or settings.get("kind") != "tournament" or not isinstance(tid, str):
            return False
        t = await self.store.run(records.get, self.store, tid)
        return t is not None and not t.is_open(self._now())

    # ----- the end of a deal ----------------------------------------------------------
    async def deal_over(self, table: Table) -> None:
        """A tournament table's game ended: store the score of its deal."""
        s = table.settings
        if s.kind != "tournament" or s.tournament is None or s.tournament_deal is None:
            return
        self.room.timers.cancel((table.id, "tournament-close"))
        player = table.seats[PLAYER_SEAT].player
        if player is None:
            return
        await self._store_score(s.tournament, player, s.tournament_deal, table.id, table.match)

    async def _store_score(self, tid: str, player: str, k: int, table_id: str, match: Any) -> None:
        plan = await self.plan_of(tid)
        if plan is None or not plan.deal_over(match):
            return
        contract = match.results[0].get("contract")
        await self.store.run(
            records.record_score, self.store, tid, player, k, plan.side_score(match),
            None if contract is None else str(contract), table_id, self._now(),
        )  # fmt: skip

    async def repair(self, t: Tournament, player: str, table_id: str, scores: Mapping[int, int]) -> bool:
        """Store the score of a deal whose table finished but whose score was
        not stored (the worker died in between), from the table's record:
        ``player``'s entry is at ``table_id`` with ``scores``.  Whether it
        changed the entry (a score stored, or the finished table let go)."""
        if table_id.startswith("pending:"):
            return False
        if table_id in self.room.tables and self.room.tables[table_id].status != "finished":
            return False
        st = await self.store.run(self.store.load_table, table_id)
        if st is None or st.status != "finished":
            return False
        settings = st.settings or {}
        k = settings.get("tournament_deal")
        if not isinstance(k, int) or k in scores:
            await self.store.run(records.set_table, self.store, t.id, player, None)
            return True
        await self._store_score(t.id, player, k, st.id, st.replayed())
        return True


def _next_deal(t: Tournament, e: records.Entry) -> int | None:
    """The first deal of ``t`` without a score in entry ``e``."""
    return next((k for k in range(t.plan.deals) if k not in e.scores), None)


def _describe(t: Tournament, entrants: int, finished: int) -> dict[str, object]:
    p = t.plan
    return {
        "id": t.id,
        "kind": t.kind,
        "game": p.game,
        "preset": p.preset,
        "deals": p.deals,
        "scoring": p.scoring,
        "bots": p.bots,
        "opens_at": t.opens_at,
        "closes_at": t.closes_at,
        "target": t.target,
        "entrants": entrants,
        "finished": finished,
    }
