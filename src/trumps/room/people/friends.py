"""Friends, friend requests and blocks.

Friendship is between accounts (a guest has no username to be found by).
The database holds one row per pair (``friends``: who asked whom, accepted
or not) and one per block; :class:`Social` mirrors them in memory so that
the checks the room makes on every lobby push and table visit (are these
two friends? has one blocked the other?) cost no query.  Every change is
written first, then applied to the mirror.

A block is one-sided to make, and works both ways where it matters: a
blocked player cannot send a request, invite, chat to the blocker (their
lines are not shown to the blocker) or sit at a table where the blocker is;
blocking ends any friendship or request between the two.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import ColumnElement, delete, or_, select

from trumps.room.storage.db import BlockRow, FriendRow, Player
from trumps.room.tables.table import RoomError

if TYPE_CHECKING:
    from trumps.room.storage.store import Store

__all__ = ["FriendError", "Social", "apply_change", "load_social"]

#: The most friends (and pending requests) an account may have.
MAX_FRIENDS = 500


class FriendError(RoomError):
    """A friends request refused with a message fit to show."""


@dataclass
class Social:
    """The in-memory mirror of friendships, requests and blocks."""

    friends: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    requests: set[tuple[str, str]] = field(default_factory=set)  # (from, to), pending
    blocks: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # blocker -> blocked

    def are_friends(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and b in self.friends.get(a, ())

    def blocked(self, a: str | None, b: str | None) -> bool:
        """Whether either of the two has blocked the other."""
        if a is None or b is None:
            return False
        return b in self.blocks.get(a, ()) or a in self.blocks.get(b, ())

    def blocks_of(self, player: str | None) -> set[str]:
        """Whom ``player`` has blocked."""
        return set(self.blocks.get(player, ())) if player is not None else set()

    def incoming(self, player: str) -> list[str]:
        return sorted(a for a, b in self.requests if b == player)

    def outgoing(self, player: str) -> list[str]:
        return sorted(b for a, b in self.requests if a == player)

    # the mirror's side of each change (after the database write)
    def _befriend(self, a: str, b: str) -> None:
        self.requests.discard((a, b))
        self.requests.discard((b, a))
        self.friends[a].add(b)
        self.friends[b].add(a)

    def _unfriend(self, a: str, b: str) -> None:
        self.requests.discard((a, b))
        self.requests.discard((b, a))
        self.friends[a].discard(b)
        self.friends[b].discard(a)


def load_social(store: Store) -> Social:
    """Read every friendship, request and block (at start-up)."""
    social = Social()
    with store.sessions() as s:
        for row in s.scalars(select(FriendRow)):
            if row.accepted:
                social._befriend(row.player_id, row.friend_id)
            else:
                social.requests.add((row.player_id, row.friend_id))
        for b in s.scalars(select(BlockRow)):
            social.blocks[b.player_id].add(b.blocked_id)
    return social


def _pair(a: str, b: str) -> ColumnElement[bool]:
    return or_(
        (FriendRow.player_id == a) & (FriendRow.friend_id == b),
        (FriendRow.player_id == b) & (FriendRow.friend_id == a),
    )


def apply_change(store: Store, social: Social, me: str, other: str, action: str) -> str:
    """Make one change between account ``me`` and account ``other``:
    ``request`` (accepts at once if ``other`` already asked ``me``),
    ``accept``, ``decline``, ``cancel``, ``remove``, ``block``, ``unblock``.
    Writes to the database, then to the mirror; returns what happened
    (``requested``, ``friends``, ``declined``, ``removed``, ``blocked``,
    ``unblocked``).  Runs on the database thread."""
    if me == other:
        raise FriendError("that is you")
    with store.sessions.begin() as s:
        them = s.get(Player, other)
        if them is None or them.username_key is None:
            raise FriendError("no such player (friends are players with an account)")
        mine = s.get(Player, me)
        if mine is None or mine.username_key is None:
            raise FriendError("register an account to have friends")
        now = time.time()
        if action == "request":
            if social.blocked(me, other):
                raise FriendError("you cannot send this player a friend request")
            if social.are_friends(me, other):
                raise FriendError(f"{them.name} is already your friend")
            if (me, other) in social.requests:
                raise FriendError(f"you already asked {them.name}")
            if len(social.friends.get(me, ())) + len(social.outgoing(me)) >= MAX_FRIENDS:
                raise FriendError(f"you have reached the limit of {MAX_FRIENDS} friends and requests")
            if (other, me) in social.requests:  # they asked first: this is a yes
                row = s.get(FriendRow, (other, me))
                assert row is not None
                row.accepted = True
                result = "friends"
            else:
                s.add(FriendRow(player_id=me, friend_id=other, accepted=False, created=now))
                result = "requested"
        elif action == "accept":
            row = s.get(FriendRow, (other, me))
            if row is None or row.accepted:
                raise FriendError("there is no request from that player to accept")
            row.accepted = True
            result = "friends"
        elif action in ("decline", "cancel", "remove"):
            gone = s.execute(delete(FriendRow).where(_pair(me, other)))
            if not getattr(gone, "rowcount", 1):
                raise FriendError("there is no friendship or request with that player")
            result = {"decline": "declined", "cancel": "cancelled", "remove": "removed"}[action]
        elif action == "block":
            s.execute(delete(FriendRow).where(_pair(me, other)))
            if s.get(BlockRow, (me, other)) is None:
                s.add(BlockRow(player_id=me, blocked_id=other, created=now))
            result = "blocked"
        elif action == "unblock":
            s.execute(delete(BlockRow).where(BlockRow.player_id == me, BlockRow.blocked_id == other))
            result = "unblocked"
        else:
            raise FriendError(f"unknown action {action!r}")
    # the transaction committed: mirror it
    if result == "friends":
        social._befriend(me, other)
    elif result == "requested":
        social.requests.add((me, other))
    elif result in ("declined", "cancelled", "removed"):
        social._unfriend(me, other)
    elif result == "blocked":
        social._unfriend(me, other)
        social.blocks[me].add(other)
    elif result == "unblocked":
        social.blocks[me].discard(other)
    return result
