"""Table connections that cross workers.

A browser's socket may land on any worker (the proxy is plain round
robin), but only the table's owner runs the table.  So:

- on the socket's worker, a :class:`Relay` forwards the client's messages
  to the owner and the owner's events to the socket, remembering the last
  state's ``seq``; when the owner changes (a takeover, a handover, a gap in
  the notifications) it opens again with ``since`` = that seq and the new
  owner replays what was missed from the stored log (a repair: not counted
  against the person's replay pace, ``Table.catch_up``); states lost on the
  way are asked for again the same way (:class:`Replay`);
- on the owner, a :class:`RemoteConnection` stands for that socket among
  the table's connections.  The table makes its events exactly as for a
  local socket (each recipient's own view, made by the owner), and the
  stand-in sends them to the socket's worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from trumps.room import wire

if TYPE_CHECKING:
    from trumps.room.cluster.bus import Bus
    from trumps.room.tables.table import Connection

__all__ = ["REPLAY_WAIT", "ROUTING_HEADER", "Relay", "RemoteConnection", "Replay", "routing_name"]

REPLAY_WAIT = 2.0  # seconds a relayed socket waits for a replay it asked for

# Sent by a proxy that can pass a table socket to a named worker
# (``/ws/table/{id}?worker=NAME``, deploy/nginx/trumps.conf): a relayed
# socket is then told its table's owner (a ``route`` event), and the page
# connects again there, so that the owner serves it without relaying.
ROUTING_HEADER = "x-trumps-routing"


def routing_name(worker: str) -> str | None:
    """The name the proxy knows a worker by (its ``--worker-name``), from its
    id among the workers (the name, ``_``, a part drawn at start); ``None``
    for a worker started without a name (the proxy cannot route to it)."""
    name, sep, _drawn = worker.rpartition("_")
    return name if sep else None


@dataclass(frozen=True)
class Replay:
    """In a stand-in's inbox: the socket's worker lost states on the way and
    asks for those after ``since`` again (a repair, not the client's ask)."""

    since: int


class RemoteConnection:
    """The owner's stand-in for a socket on another worker."""

    def __init__(
        self, bus: Bus, worker: str, cid: str, player: str | None, name: str, person: object = None
    ) -> None:
        self.bus = bus
        self.worker = worker
        self.cid = cid
        self.player = player
        self.name = name
        # whose budgets the socket spends (trumps.room.limits.person_key), as
        # the socket's worker knew it (None from a worker that did not say)
        self.person: str | None = person if isinstance(person, str) else None
        self.inbox: asyncio.Queue[str | Replay | None] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.confirmed = True  # false after a gap in the notifications until the socket opens again

    async def send(self, event: Mapping[str, object]) -> None:
        self.bus.send(self.worker, {"k": "ev", "c": self.cid, "e": event})

    async def close(self, code: int = 1000) -> None:
        self.bus.send(self.worker, {"k": "close", "c": self.cid, "code": code})


class Relay:
    """A local socket at a table another worker runs."""

    def __init__(
        self,
        cid: str,
        tid: str,
        conn: Connection,
        since: int | None,
        owner: str | None,
        routing: bool = False,
        home: str | None = None,
    ) -> None:
        self.cid = cid
        self.home = home  # the worker holding the socket
        self.routing = routing  # tell the socket its owner (the proxy can route to it)
        self.routed: str | None = None  # the owner it was last told
        self.tid = tid
        self.conn = conn
        self.last_seq = since  # the last state the socket has
        self.owner = owner  # None: not known (ask everyone)
        self.opened = asyncio.Event()
        self.closed = False
        self.replay_asked: int | None = None  # the seq a replay was last asked from, and when
        self.replay_since = 0.0
        # the last action the client sent at the current state, until a newer state comes
        self.unanswered: str | None = None
        self.unanswered_seq: int | None = None
        self.ask_replay: Callable[[Relay, int], None] | None = None
        # the next state is the owner's answer to an open (its replay from the
        # ``since`` sent, or only the present when it replays none): taken as it is
        self.answer_due = False
        self.held: tuple[int, Mapping[str, object]] | None = None  # the newest state held back (its seq)
        self._release: asyncio.TimerHandle | None = None
        self._releasing: asyncio.Task[None] | None = None

    def answer_next(self) -> None:
        """The owner opened the socket (``opened``): its first state answers
        the open, as a replay from the ``since`` it was sent or as the present
        alone (too far back, or another deal: the owner replays none)."""
        self.answer_due = True

    async def deliver(self, event: Mapping[str, object]) -> None:
        """Pass an owner's event to the socket.  After opening again, the
        owner replays from the ``since`` it was sent, and states the socket
        got meanwhile from the old stream may come again: a state older
        than the socket's last is dropped, so the socket never steps back.

        A state that skips some in the stream is held back while the owner
        replays the missing ones (asked for once, at most :data:`REPLAY_WAIT`
        seconds): they come in order, then the held one again.  If they do
        not (the owner sends the present alone), the held state is passed on
        when the wait is over, even if nothing comes after it: a socket whose
        player is to act in it would otherwise wait for ever, and the table
        with it."""
        seq = event.get("seq")
        if event.get("type") == "state" and isinstance(seq, int):
            answer, self.answer_due = self.answer_due, False
            if self.last_seq is not None and seq < self.last_seq:
                return
            if (
                not answer
                and self.last_seq is not None
                and seq > self.last_seq + 1
                and self._may_wait(self.last_seq)
            ):
                # states were lost on the way: ask the owner to replay from
                # the last one the socket has (the replay comes in order, on
                # the same stream); this one comes again with it
                self._hold(seq, event)
                return
        await self._pass(event)

    async def _pass(self, event: Mapping[str, object]) -> None:
        seq = event.get("seq")
        if event.get("type") == "state" and isinstance(seq, int):
            self.last_seq = seq
            if self.held is not None and self.held[0] <= seq:
                self._drop_held()  # (it came again, or a newer one did)
            if self.unanswered_seq is not None and seq > self.unanswered_seq:
                self.unanswered = self.unanswered_seq = (
                    None  # the table moved on: it was applied or overtaken
                )
        with contextlib.suppress(Exception):
            await self.conn.send(event)
        if self.routing and event.get("type") == "state":
            await self.tell_owner()

    def _hold(self, seq: int, event: Mapping[str, object]) -> None:
        """Keep the newest skipping state (number ``seq``) until the replay
        asked for comes or the wait is over (:meth:`_wait_over`)."""
        if self.held is None or seq >= self.held[0]:
            self.held = (seq, event)
        if self._release is None:
            delay = max(0.0, self.replay_since + REPLAY_WAIT - time.monotonic())
            self._release = asyncio.get_running_loop().call_later(delay, self._wait_over)

    def _drop_held(self) -> None:
        self.held = None
        if self._release is not None:
            self._release.cancel()
            self._release = None

    def _wait_over(self) -> None:
        self._release = None
        held, self.held = self.held, None
        if held is None or self.closed:
            return
        if self.last_seq is not None and held[0] <= self.last_seq:
            return  # (overtaken meanwhile)
        if self.replay_asked == self.last_seq and time.monotonic() - self.replay_since < REPLAY_WAIT:
            self._hold(*held)  # another replay was asked meanwhile: its own wait
            return
        # the replay did not come (or not all of it): the socket takes the jump
        self._releasing = asyncio.get_running_loop().create_task(self._take(held))

    async def _take(self, held: tuple[int, Mapping[str, object]]) -> None:
        if not self.closed and (self.last_seq is None or held[0] > self.last_seq):
            await self._pass(held[1])  # (unless a newer state came first)

    def close(self) -> None:
        """The socket is gone: nothing held is passed on."""
        self.closed = True
        self._drop_held()

    async def tell_owner(self) -> None:
        """Behind a routing proxy, tell the socket which worker runs its
        table (once per owner): the page reconnects with ``?worker=`` it.
        Called once the socket has a state from that owner, so only a socket
        the owner let in (its access rules) ever hears the worker's name.

        The owner may be the very worker holding the socket: the socket came
        here, named to it as a table's heir, a moment before the table did,
        and was relayed.  It is then told to come ``again`` (the page would
        ignore a route to the worker it is on): its new socket finds the
        table here, rather than staying relayed through this worker's own
        bus for the rest of the game."""
        if self.routing and self.owner is not None and self.owner != self.routed:
            self.routed = self.owner
            name = routing_name(self.owner)
            if name is not None:
                event: dict[str, object] = {"type": "route", "worker": name}
                if self.owner == self.home:
                    event["again"] = True
                with contextlib.suppress(Exception):
                    await self.conn.send(event)

    def note_sent(self, raw: str) -> None:
        """Remember an action (``act`` with the ``seq`` it answers) until
        the table moves past it, to send it again to a new owner."""
        if '"act"' not in raw:
            return
        try:
            msg = wire.loads(raw)
        except ValueError:
            return
        if isinstance(msg, dict) and msg.get("type") == "act" and isinstance(msg.get("seq"), int):
            self.unanswered, self.unanswered_seq = raw, msg["seq"]

    def _may_wait(self, last: int) -> bool:
        """Whether to hold back a state that skips some: yes while a replay
        from ``last`` is asked for and not overdue (a state is complete, so
        after :data:`REPLAY_WAIT` the socket takes the jump rather than stall;
        an owner too far behind to replay sends only the present)."""
        now = time.monotonic()
        if self.replay_asked != last:
            if self.ask_replay is None:
                return False
            self.replay_asked, self.replay_since = last, now
            self.ask_replay(self, last)
            return True
        return now - self.replay_since < REPLAY_WAIT
