"""Finished games: replay pages, JSON/PBN export, a player's own game list.

(Being written: the routes are mounted by :func:`trumps.room.app.create_app`.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from starlette.requests import HTTPConnection
from starlette.routing import BaseRoute

if TYPE_CHECKING:
    from trumps.room.room import Room

__all__ = ["routes"]

Identity = Callable[[HTTPConnection], Awaitable[tuple[str | None, str]]]


def routes(room: Callable[[], Room], identity: Identity) -> list[BaseRoute]:
    """The history routes, given the live room and the cookie identity."""
    return []
