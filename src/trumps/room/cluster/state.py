"""What the parts of one worker's place in the cluster share (:class:`Shared`).

:class:`~trumps.room.cluster.node.Cluster` is made of collaborators, each
with a job of its own (the lobby mirror, taking and letting go of tables,
the handover, relayed sockets and their stand-ins, people, asks and the
matchmaker).  They all read the same few things: the room, this worker's
id, the bus and the locks, what this worker knows of the others (their
tables, their beats, which are leaving), whether it is stopping, and the
scan's wake-up.  Those are kept here, one object every part is given,
rather than each part reaching into another's; whatever a part keeps for
its own job stays in that part.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trumps.room.cluster.bus import Bus
    from trumps.room.cluster.lobby import RemoteTable
    from trumps.room.cluster.ownership import Ownership
    from trumps.room.room import Room

__all__ = ["BEAT_INTERVAL", "DEAD_AFTER", "Shared"]

BEAT_INTERVAL = 1.0  # seconds between a worker's heartbeats
DEAD_AFTER = 4.0  # a worker silent this long is gone


class Shared:
    """The state every part of this worker's :class:`Cluster` reads: kept
    in one place so that the parts need not reach into each other for it
    (tests swap :attr:`bus` and :attr:`owner` for stand-ins here)."""

    def __init__(self, room: Room, worker: str, bus: Bus, owner: Ownership) -> None:
        self.room = room
        self.worker = worker  # this process's id among the workers (see Cluster)
        self.bus = bus
        self.owner = owner  # the table locks (and the matchmaker's)
        self.remote: dict[str, RemoteTable] = {}  # the tables other workers run, as their lobby entries
        self.beats: dict[str, float] = {}  # worker -> when it was last heard
        self.leaving: set[str] = set()  # workers handing their tables over
        self.stopping = False  # this worker is handing its tables over (it takes none)
        self.wake = asyncio.Event()  # set: scan now, not at the next scan
        self.tasks: set[asyncio.Task[None]] = set()  # work started in the background, kept until done

    def live_others(self, within: float) -> set[str]:
        """The other workers heard from within ``within`` seconds and not leaving."""
        recent = time.monotonic() - within
        return {w for w, seen in self.beats.items() if w not in self.leaving and seen > recent}

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` in a task of its own, kept (in :attr:`tasks`) until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task
