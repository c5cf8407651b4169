"""Asking another worker, and the matchmaker's worker (:class:`Asks`, :class:`Matchmaker`).

Some requests only the worker running a table can answer (admit by an
invitation, a declined invitation): they are asked of it over the bus and
answered there (:class:`Asks`).  The Play button too: one worker (whoever
holds the matchmaker's lock; another takes it when it dies) runs the
matchmaker (:class:`Matchmaker`); the others forward Play requests to it,
so players on any worker are matched together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING

from trumps.room.cluster.state import DEAD_AFTER
from trumps.room.people.play import MatchmakerMoved, PlayCancelled
from trumps.room.tables import access

if TYPE_CHECKING:
    from trumps.room.cluster.messages import Answer, AnswerMessage, Ask, AskMessage, AskRequest, BusMessage
    from trumps.room.cluster.state import Shared
    from trumps.room.tables.table import Table

__all__ = ["MATCHMAKER", "Asks", "Matchmaker"]

log = logging.getLogger("trumps.cluster")

MATCHMAKER = "trumps:matchmaker"  # the advisory lock of the worker that runs the matchmaker


class Matchmaker:
    """Whether this worker runs the room's matchmaker (the Play button):
    it claims the lock when it is free, gives it up when the lock
    connection is lost, hands it on at once when it leaves, and takes it
    back when nobody else is left to run it."""

    def __init__(self, state: Shared) -> None:
        self.state = state
        self.leader = False  # this worker runs the matchmaker (the Play button) for the room
        self.passing = False  # let go of its lock (leaving): its queue goes on until a next one says so

    async def claim(self) -> bool:
        """Run the matchmaker if its lock is free.  False: the handover began
        as it claimed it (it is let go again, and the scan stops there)."""
        s = self.state
        if self.leader or not await s.owner.claim(MATCHMAKER):
            return True
        if s.stopping:  # (the handover began while this scan claimed it)
            with contextlib.suppress(Exception):
                await s.owner.release(MATCHMAKER)
            return False
        s.room.play.take_up()
        self.leader = True  # one matchmaker for the room, so players on any worker meet
        log.info("cluster: worker %s runs the matchmaker", s.worker)
        s.bus.send(None, {"k": "leader"})  # (Play requests left without one come here)
        return True

    def lost(self) -> None:
        """The lock connection is gone, and the matchmaker's lock with it:
        whoever claims it next gets the players."""
        if self.leader:
            self.leader = False
            self.state.room.play.give_up()

    async def give_up(self) -> None:
        """A leaving worker that runs the matchmaker lets another run it at
        once: it lets go of the lock and takes no new Play request; when the
        next one says ``leader``, the players still waiting here are queued
        again there (their Play requests, here or relayed from other
        workers, go to it by themselves), instead of waiting for a table
        this worker will not make.  Until then its queue goes on here, and
        with no other live worker (a room of one, or all stopping at once)
        it keeps the matchmaker: nobody else would answer."""
        s = self.state
        if not self.leader or not s.live_others(DEAD_AFTER):
            return
        self.leader = False
        self.passing = True
        with contextlib.suppress(Exception):
            await s.owner.release(MATCHMAKER)
        s.bus.send(None, {"k": "leaderless"})

    async def take_back(self) -> None:
        """A leaving worker that let the matchmaker go, when nobody took it
        and no other worker is left to (the others started leaving too, or
        went silent), runs it again: its own queue never stopped, and its
        ``leader`` brings back the Play requests sent meanwhile, which
        otherwise waited for a matchmaker nobody would run until they timed
        out (35 s, then a 503)."""
        s = self.state
        if not self.passing or self.leader or s.live_others(DEAD_AFTER):
            return
        if not await s.owner.claim(MATCHMAKER):
            return  # (another took it after all: its ``leader`` moves the queue)
        self.passing = False
        self.leader = True
        log.info("cluster: worker %s runs the matchmaker again (every other worker is leaving)", s.worker)
        s.bus.send(None, {"k": "leader"})

    def leader_is(self, worker: str) -> None:
        """``worker`` runs the matchmaker now: a leaving worker's queue goes to it."""
        if worker != self.state.worker and self.passing:
            self.passing = False
            self.state.room.play.give_up()

    async def on_leaderless(self, m: BusMessage) -> None:
        if m["from"] != self.state.worker:
            self.state.wake.set()  # claim the matchmaker now, not at the next scan


class Asks:
    """Requests another worker answers, and their answers: the owner of a
    table, or the matchmaker's worker.  An ask for the matchmaker is kept
    until it is answered, and sent again to each worker that says it runs
    the matchmaker now."""

    def __init__(self, state: Shared, matchmaker: Matchmaker) -> None:
        self.state = state
        self.matchmaker = matchmaker  # (only the matchmaker's worker answers the asks for it)
        self._replies: dict[str, asyncio.Future[Answer]] = {}
        self._to_leader: dict[str, Ask] = {}  # asks for the matchmaker not answered yet
        self._answering: set[str] = set()  # asks being answered here (one sent twice is answered once)

    async def ask(self, tid: str | None, request: AskRequest, timeout: float = 5.0) -> Answer:
        """A request the table's owner answers (e.g. admit by invitation);
        ``tid`` None: the matchmaker's worker (the Play button)."""
        entry = self.state.remote.get(tid) if tid is not None else None
        rid = secrets.token_hex(6)
        fut: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._replies[rid] = fut
        msg: Ask = {"k": "ask", "t": tid, "id": rid, "q": request}
        if tid is None:
            # kept until answered: sent again to the next matchmaker if this
            # one leaves first; a cancel also stops the player's Play asks
            if request.get("what") == "cancel":
                for other, sent in list(self._to_leader.items()):
                    if sent["q"].get("what") == "play" and sent["q"].get("player") == request.get("player"):
                        del self._to_leader[other]
                        waiting = self._replies.get(other)
                        if waiting is not None and not waiting.done():
                            waiting.set_result({"ok": False, "cancelled": True})
            self._to_leader[rid] = msg
        try:
            self.state.bus.send(entry.worker if entry else None, msg)
            return await asyncio.wait_for(fut, timeout)
        finally:
            self._replies.pop(rid, None)
            self._to_leader.pop(rid, None)

    def leader_is(self, worker: str) -> None:
        """``worker`` runs the matchmaker now: the asks for it not answered
        yet (the last one left with them) go to it."""
        for msg in list(self._to_leader.values()):
            self.state.bus.send(worker, msg)

    async def on_ask(self, m: AskMessage) -> None:
        room = self.state.room
        if m["t"] is None and not self.matchmaker.leader:
            return  # for the matchmaker's worker
        table = room.tables.get(m["t"]) if m["t"] is not None else None
        if m["t"] is not None and table is None:
            return
        rid: str = m["id"]
        if rid in self._answering:  # (sent again to a new matchmaker that had it already)
            return
        self._answering.add(rid)
        # answered in a task: a Play request waits until its table is made
        task = self.state.spawn(self._answer(m, table))
        task.add_done_callback(lambda _t: self._answering.discard(rid))

    async def _answer(self, m: AskMessage, table: Table | None) -> None:
        room = self.state.room
        q = m["q"]
        answer: Answer = {"ok": True}
        try:
            what = q.get("what")
            if what == "admit" and table is not None:
                await table.admit(q["player"])
                await room._changed(table)  # who may see it changed: every lobby is told
            elif what == "uninvite" and table is not None:  # a declined invitation (people.uninvite)
                if await access.uninvite(table, q["player"]):
                    await room._changed(table)
            elif what == "play":
                since = q.get("since")
                answer["table"] = await room.play.press(
                    q["player"], q["game"], q["rules"], here=True,
                    since=float(since) if isinstance(since, (int, float)) else None,
                )  # fmt: skip
            elif what == "cancel":
                answer["cancelled"] = room.play.cancel(q["player"], here=True)
            elif what == "waiting":
                answer["waiting"] = room.play.waiting()
        except MatchmakerMoved:
            return  # this worker left the matchmaker: the asker asks the next one
        except PlayCancelled:
            answer = {"ok": False, "cancelled": True}
        except TimeoutError:
            answer = {"ok": False, "timeout": True}
        except Exception as exc:
            answer = {"ok": False, "error": str(exc)}
        self.state.bus.send(m["from"], {"k": "answer", "id": m["id"], "a": answer})

    async def on_answer(self, m: AnswerMessage) -> None:
        fut = self._replies.get(m["id"])
        if fut is not None and not fut.done():
            fut.set_result(m["a"])
