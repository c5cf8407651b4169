"""The shapes a table shares with the rest of the room: a client
connection as the table needs it, who a connection is for the budgets,
a seat, and the table's public summary (the lobby's entry, the head of
every state, what other workers mirror)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, TypedDict

#: The statuses of a table that runs (listed, resumed after a restart); after
#: them a table is "finished" (its game was played), "closed" (abandoned
#: before its start) or "broken" (set aside: trumps.room.room.Room.set_aside).
LIVE = ("waiting", "playing")


class Connection(Protocol):
    """What a table needs of a client connection."""

    player: str | None
    name: str

    async def send(self, event: Mapping[str, object]) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


def person_of(conn: Connection) -> str:
    """Who a connection is for the per-person budgets (chat, suggestions,
    replays): the account or address the socket came from when the server
    knows it (``conn.person``), else the player, else the socket itself, so
    that a person cannot multiply the budgets with guest identities."""
    person = getattr(conn, "person", None)
    if isinstance(person, str) and person:
        return person
    return conn.player or f"socket:{id(conn)}"


def new_invite_code() -> str:
    """An invitation code: 10 characters, 60 random bits (not guessable)."""
    return secrets.token_urlsafe(8)[:10]


@dataclass
class Seat:
    player: str | None = None
    name: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.player is None and self.bot is None


class SeatSummary(TypedDict):
    """One seat as the lobby and the table's header show it."""

    seat: str
    name: str | None
    bot: str | None
    empty: bool
    away: bool
    idle: bool
    timeouts: int


class TableSummary(TypedDict):
    """A table's public description (:meth:`Table.summary`): the lobby's
    entry, the head of every state, and what other workers mirror."""

    id: str
    game: str
    game_title: str
    preset: str | None
    options: dict[str, object]
    rules_text: str
    settings: dict[str, object]
    status: str
    host: str
    seats: list[SeatSummary]
    free: int
    spectators: int
    scores: list[int]
    created: float
    started: float | None
    rematch: str | None
