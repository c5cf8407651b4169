"""Who may see a table, who finds it in the lobby, and who may sit at it.

The seed room's rule (its 500 help page, docs/rules/README.md §4: "Must be invited"): *Yes* hides the game
from other players until they are explicitly invited; *No* lets all
**friends** of the players in the game see it.  So:

- **Listed in the lobby** (:func:`listed`): a Join or Play table for its
  players, those invited and the friends of its players; an open Compete
  table for everyone (any account may buy in); an invitation-only table for
  its players and those invited only.  Nobody else finds it.
- **Reachable** (:func:`may_see`: the page, the socket, the API): an
  invitation-only table by its players and those invited (by a friend's
  invitation, a link or a code) and nobody else; any other table by whoever
  holds its address, as a game link on lichess or BBO is (the address holds
  an unguessable id: sharing it is inviting).

Everywhere: a player removed by the host never sees the table again, and a
player who blocked, or was blocked by, the host never sees it.  Sitting
also needs no block between the newcomer and anyone at the table, and a
Compete seat needs an account (chips belong to accounts).

A declined invitation takes the table away again (:func:`uninvite`), and
for good: the change is stored with the table's access, which a restart
reads back (it used to be made in memory only, so a restart gave the
table back to whoever had declined).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from trumps.i18n import N_

if TYPE_CHECKING:
    from trumps.room.tables.settings import TableSettings
    from trumps.room.tables.table import Seat, Table, TableSummary


class Social(Protocol):
    """Who is whose friend and who blocked whom, as the rules read it (the
    people's :class:`~trumps.room.people.friends.Social`: the tables do not
    know the people, they are told)."""

    def are_friends(self, a: str | None, b: str | None) -> bool: ...

    def blocked(self, a: str | None, b: str | None) -> bool: ...


class Facts(Protocol):
    """What the rules read of a table: a :class:`~trumps.room.tables.table.Table`
    run here, or the mirror of one another worker runs
    (:class:`~trumps.room.cluster.node.RemoteTable`), judged alike."""

    id: str
    host: str
    status: str
    game: str
    preset: str | None
    settings: TableSettings
    seats: list[Seat]
    pending: dict[int, tuple[str, str]]
    invited: set[str]
    banned: set[str]
    invite: str | None
    created: float

    def seat_of(self, player: str | None) -> int | None: ...

    def summary(self) -> TableSummary: ...


__all__ = [
    "BLOCKED",
    "PRIVATE",
    "REMOVED",
    "Facts",
    "may_see",
    "members",
    "not_seen_because",
    "sit_refusal",
    "uninvite",
]

#: Why a table is not open to someone, said as it is (a blocked person used to
#: be told the table was private, which it was not).
REMOVED = N_("you were removed from this table")
BLOCKED = N_("this table is not open to you")
PRIVATE = N_("this table is private: you need an invitation")


def members(table: Facts) -> set[str]:
    """The people of a table: its host, seated humans and those waiting to
    take over a bot's seat."""
    out = {table.host}
    out.update(s.player for s in table.seats if s.player is not None)
    out.update(p for p, _ in table.pending.values())
    return out


def may_see(table: Facts, player: str | None, social: Social) -> bool:
    """Whether ``player`` (None: someone without a name yet) may open ``table``."""
    return not_seen_because(table, player, social) is None


def not_seen_because(table: Facts, player: str | None, social: Social) -> str | None:
    """Why ``player`` may not open ``table`` (None: they may): removed by the
    host, a block between them and the host (said without saying who
    blocked whom), or an invitation-only table."""
    if player is not None and player in table.banned:
        return REMOVED
    if social.blocked(player, table.host):
        return BLOCKED
    if not table.settings.private:
        return None
    if player is not None and (player in members(table) or player in table.invited):
        return None
    return PRIVATE


def listed(table: Facts, player: str | None, social: Social) -> bool:
    """Whether ``table`` appears in ``player``'s lobby."""
    if not may_see(table, player, social):
        return False
    people = members(table)
    if player is not None and (player in people or player in table.invited):
        return True
    if table.settings.private:
        return False
    if table.settings.kind == "compete":
        return True
    return player is not None and any(social.are_friends(player, p) for p in people)


def sit_refusal(table: Facts, player: str, social: Social, is_account: Callable[[str], bool]) -> str | None:
    """Why ``player`` may not take a seat at ``table`` (None: they may)."""
    if table.settings.competition and not is_account(player):
        return "Compete games are for accounts: register (free) to play for chips"
    if any(social.blocked(player, p) for p in members(table) if p != player):
        return "you cannot sit at this table"
    return None


async def uninvite(table: Table, player: str) -> bool:
    """``player`` declined the invitation to ``table`` (run by this worker):
    unless they hold a seat, they lose access, stored at once.  Whether
    anything changed."""
    if player not in table.invited or table.seat_of(player) is not None:
        return False
    table.invited.discard(player)
    await table._store_access()
    return True
