"""The bots at a table: what a bot plays, how long it waits, and the one
loop that plays every bot-controlled turn.

Apart from the actor because choosing is slow and can fail: a bot thinks
on the room's pools (:mod:`trumps.room.tables.thinking`), a failing bot is
replaced by the rule bot and then by the default action, so a broken bot
never stalls the table; the actor only applies what comes back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING

from trumps.core.json_types import JSONObject
from trumps.core.protocol import Deal, Match
from trumps.room.storage.store import StoreUnavailable
from trumps.room.tables.errors import RoomError, TableClosed
from trumps.room.tables.thinking import think

if TYPE_CHECKING:
    from trumps.room.tables.table import Table
    from trumps.tournaments import TournamentPlan

log = logging.getLogger("trumps.room")

TRICK_PAUSE = 2.5  # bot delays before a bot leads to the next trick: the last one stays visible
DEAL_PAUSE = 6.0  # bot delays before a bot's first call of a new deal: the result can be read


def _searches(bot: object, view: JSONObject, legal: list[str]) -> bool:
    """Whether ``bot``'s decision goes to the search pool (a bot that
    cannot say, a duck-typed one, is taken to search)."""
    ask = getattr(bot, "searches", None)
    return bool(ask(view, legal)) if callable(ask) else True


async def bot_choice(
    game: str, match: Match[Deal], seat: int, kind: str, rng: random.Random, table_id: str
) -> str:
    """What bot ``kind`` plays for ``seat`` now, from that seat's view.
    A bot that fails for any reason (an exception, say a solver error,
    or an illegal choice) is logged and replaced by the ``rules`` bot,
    which needs no solver; only if that fails too does the seat play the
    match's default action, so a broken bot never stalls the table."""
    from trumps.bots.registry import bot_for

    legal = [str(a) for a in match.legal_actions()]
    for attempt in dict.fromkeys((kind, "rules")):
        try:
            bot = bot_for(game, attempt)
            view = match.view(seat) if bot.needs_view else {}
            choice = await think(not _searches(bot, view, legal), bot.choose, view, legal, rng)
        except Exception:
            log.exception("bot %s failed at table %s", attempt, table_id)
            continue
        if choice in legal:
            return str(choice)
        log.error("bot %s chose illegal %r at table %s", attempt, choice, table_id)
    log.error("no bot could choose at table %s; playing the default action", table_id)
    return str(match.default_action())


async def tournament_choice(
    game: str, match: Match[Deal], seat: int, plan: TournamentPlan, deal: int, table_id: str
) -> str:
    """A tournament bot's choice: a pure function of the plan, the deal and
    its history (:mod:`trumps.tournaments.robots`), so every entrant who
    plays the same cards meets the same play.  A failing bot falls back as
    any bot does (:func:`bot_choice`), logged: that entrant's deal is then
    not the others'."""
    from trumps.tournaments.robots import decision_rng, tournament_bot

    legal = [str(a) for a in match.legal_actions()]
    try:
        bot = tournament_bot(game, plan.bots)
        view = match.view(seat) if bot.needs_view else {}
        rng = decision_rng(plan, deal, len(match.log))
        choice = await think(not _searches(bot, view, legal), bot.choose, view, legal, rng)
        if choice in legal:
            return str(choice)
        log.error("tournament bot chose illegal %r at table %s", choice, table_id)
    except Exception:
        log.exception("tournament bot failed at table %s", table_id)
    return await bot_choice(game, match, seat, "rules", random.Random(len(match.log)), table_id)


def pause_factor(match: Match[Deal]) -> float:
    """How many bot delays to wait before the next bot move.  People need
    a moment to see a completed trick before it is gathered, and a
    deal's result before the next deal's first call."""
    v = match.view(None)
    if v.get("tricks") and not v.get("trick"):
        return TRICK_PAUSE
    if v.get("results") and not v.get("auction") and not v.get("tricks"):
        return DEAL_PAUSE
    return 1.0


def in_auction(match: Match[Deal]) -> bool:
    return str(match.view(None).get("phase", "")).upper() == "AUCTION"


class Bots:
    """The bot loop of one table: at most one runs, started when a bot (or
    a stand-in for an away player) is to act, ended when nobody is."""

    def __init__(self, table: Table, delay: float) -> None:
        self.table = table
        self.delay = delay
        self.task: asyncio.Task[None] | None = None

    async def choice(self, seat: int, kind: str) -> str:
        t = self.table
        plan = t.tournament_plan
        if plan is not None and t.seats[seat].bot is not None and t.settings.tournament_deal is not None:
            return await tournament_choice(t.game, t.match, seat, plan, t.settings.tournament_deal, t.id)
        return await bot_choice(t.game, t.match, seat, kind, t.rng, t.id)

    def schedule(self) -> None:
        """Start the bot loop if a bot is to act and none is running."""
        t = self.table
        if t.closed or t.status != "playing" or t.match.to_act_index is None:
            return
        if t.away.controller(t.match.to_act_index) is None:
            return
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.get_running_loop().create_task(self._loop())

    async def _loop(self) -> None:
        t = self.table
        while not t.closed and t.status == "playing" and t.match.to_act_index is not None:
            seat = t.match.to_act_index
            kind = t.away.controller(seat)
            if kind is None:
                return
            seq = t.seq
            if self.delay:
                await asyncio.sleep(self.delay * pause_factor(t.match))
            if t.seq != seq:
                continue
            if t.seats[seat].bot is None and in_auction(t.match):
                # a stand-in for a person away passes: it never bids for them
                choice = str(t.match.default_action())
            else:
                choice = await self.choice(seat, kind)
            try:
                await t.act(None, choice, seat=seat, expect_seq=seq, auto=True)
            except (TableClosed, StoreUnavailable):  # the latter is logged where it is detected
                return
            except RoomError:
                continue

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
