"""The room's people: who is an account, friends and blocks, who is online
and where, invitations, and each person's own channel of notifications.

This is the :class:`~trumps.room.tables.table.Policy` the tables consult (may this
person see the table, sit, whose chat lines to hide) and what they tell
when a game ends (ratings).  Tables run games; this module knows people.

A person's own channel is the ``/ws/me`` socket every page of the room
opens: it carries live notifications (friend requests, invitations with
Accept / Decline) and the friends list with presence.  A person is online
while at least one of their pages has that socket open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, NotRequired, TypedDict

from sqlalchemy import select

from trumps.room.people import ratings
from trumps.room.people.accounts import PlayerInfo, find_account, player_info, player_infos
from trumps.room.people.friends import FriendError, Social, apply_change, load_social
from trumps.room.storage.db import InvitationRow, TableRow
from trumps.room.tables import access
from trumps.room.tables.messages import PROTOCOL_VERSION
from trumps.room.tables.table import LIVE, Connection, RoomError, Table

if TYPE_CHECKING:
    from trumps.room.cluster.node import Cluster, RemoteTable
    from trumps.room.storage.store import Store

__all__ = ["People"]

log = logging.getLogger("trumps.room")

#: The most people one invitation request may name.
MAX_INVITES = 12


class Whereabouts(TypedDict):
    """The live table a person sits at, as their friends see it."""

    id: str
    game: str
    status: str
    kind: str


class FriendEntry(TypedDict):
    """One person in a friends list (``online`` and ``table``: friends only)."""

    player: str
    name: str
    online: NotRequired[bool]
    table: NotRequired[Whereabouts | None]


class Invitee(TypedDict):
    player: str
    name: str


#: an invitation as its receiver sees it (``from`` is a keyword: the functional form)
Invitation = TypedDict(
    "Invitation", {"id": int, "table": str, "game": str, "preset": str | None, "kind": str, "from": str}
)


class FriendsView(TypedDict):
    """The ``me`` event's lists: friends, requests both ways, blocks, invitations."""

    friends: list[FriendEntry]
    incoming: list[FriendEntry]
    outgoing: list[FriendEntry]
    blocked: list[FriendEntry]
    invitations: list[Invitation]


class Accepted(TypedDict):
    """An accepted invitation: the table, and the seat taken there (or None)."""

    table: str
    seat: str | None


class People:
    """Accounts, friends, presence, invitations and personal channels."""

    def __init__(self, store: Store, tables: dict[str, Table], names: dict[str, str]) -> None:
        self.store = store
        self.tables = tables
        self.names = names  # player id -> display name (guests marked), shared with the room
        self.accounts: dict[str, bool] = {}  # player id -> is an account (cache)
        self.social = Social()
        self.channels: defaultdict[str, set[Connection]] = defaultdict(set)
        self.on_finished: list[Callable[[Table], Awaitable[None]]] = []  # e.g. ratings
        self._tasks: set[asyncio.Task[None]] = set()
        # on several workers (trumps.room.cluster): the tables others run, and the cluster
        self.remote: dict[str, RemoteTable] = {}
        self.cluster: Cluster | None = None

    def find(self, tid: str) -> access.Facts | None:
        """A live table by id, whichever worker runs it (None if none)."""
        return self.tables.get(tid) or self.remote.get(tid)

    async def reload_social(self) -> None:
        """Friendships changed on another worker."""
        self.social = await self.store.run(load_social, self.store)

    async def start(self) -> None:
        self.social = await self.store.run(load_social, self.store)

    # ----- who is who -----------------------------------------------------------------
    async def learn(self, pid: str) -> str | None:
        """The display name of ``pid`` (None if there is no such player),
        remembering whether it is an account."""
        if self._known(pid):
            return self.names[pid]
        info = await self.store.read(player_info, self.store, pid)
        if info is None:
            return None
        return self.remember(info)

    async def learn_many(self, pids: list[str]) -> dict[str, str]:
        """:meth:`learn` for several players, with one database call for
        those not known yet.  Unknown players are left out."""
        todo = [p for p in dict.fromkeys(pids) if not self._known(p)]
        if todo:
            for info in (await self.store.read(player_infos, self.store, todo)).values():
                self.remember(info)
        return {p: self.names[p] for p in pids if self._known(p)}

    def _known(self, pid: str) -> bool:
        """Whether ``pid``'s name and kind are remembered (no database call needed)."""
        return pid in self.names and pid in self.accounts

    def remember(self, info: PlayerInfo) -> str:
        """Keep what the room shows of a player read elsewhere; its name."""
        self.names[info.id] = info.name
        self.accounts[info.id] = info.is_account
        return info.name

    def is_account(self, pid: str | None) -> bool:
        return pid is not None and self.accounts.get(pid, False)

    async def renamed(self, pid: str, *, local: bool = False) -> None:
        """A guest became an account: its name changes everywhere it is live
        (on every worker unless ``local``)."""
        if not local and self.cluster is not None:
            self.cluster.renamed(pid)
        self.names.pop(pid, None)
        self.accounts.pop(pid, None)
        name = await self.learn(pid)
        for table in self.tables.values():
            for seat in table.seats:
                if seat.player == pid:
                    seat.name = name
            for conn in table.connections:
                if conn.player == pid and name is not None:
                    conn.name = name

    # ----- the tables' policy -----------------------------------------------------------
    def may_see(self, table: access.Facts, player: str | None) -> bool:
        return access.may_see(table, player, self.social)

    def not_seen_because(self, table: access.Facts, player: str | None) -> str | None:
        return access.not_seen_because(table, player, self.social)

    def listed(self, table: access.Facts, player: str | None) -> bool:
        return access.listed(table, player, self.social)

    def sit_refusal(self, table: Table, player: str) -> str | None:
        return access.sit_refusal(table, player, self.social, self.is_account)

    def hidden_from(self, viewer: str | None) -> set[str]:
        return self.social.blocks_of(viewer)

    async def finished(self, table: Table) -> None:
        for callback in list(self.on_finished):  # the unpaid notice (compete), ratings...
            await callback(table)
        await self.tell_unrated(table)

    def seats_of(self, table: Table) -> tuple[list[ratings.SeatEntry], set[str]]:
        """A finished table's seats as the pay-out and the rating read them,
        and which of its players are accounts (people)."""
        m = table.match
        seats: list[ratings.SeatEntry] = [
            {"player": s.player, "bot": s.bot, "team": m.team_of(i)} for i, s in enumerate(table.seats)
        ]
        accounts = {s["player"] for s in seats if s["player"] is not None and self.is_account(s["player"])}
        return seats, accounts

    async def tell_unrated(self, table: Table) -> None:
        """Say at the table why a finished game moved no rating (ratings
        move only in games between people: :func:`trumps.room.people.ratings.people_sides`).
        The rating decides the same way from the stored seats; this only
        says so.  (Why no chips moved is the competition's to say:
        :func:`trumps.room.compete.competition.tell_unpaid`.)"""
        if table.settings.kind == "tournament":  # a tournament's deal is not a rated game: nothing to explain
            return
        seats, accounts = self.seats_of(table)
        if accounts and ratings.people_sides(seats, accounts) < 2:
            await table.notify(ratings.NOT_RATED, kind="unrated")

    # ----- presence ------------------------------------------------------------------------
    def online(self, pid: str) -> bool:
        if self.channels.get(pid):
            return True
        return self.cluster is not None and bool(self.cluster.online.get(pid))

    def where(self, pid: str) -> Whereabouts | None:
        """The live table ``pid`` sits at (None if none, or if it is invitation-only)."""
        tables: list[access.Facts] = [*self.tables.values(), *self.remote.values()]
        for t in tables:
            if t.status in LIVE and t.seat_of(pid) is not None and not t.settings.private:
                return {"id": t.id, "game": t.game, "status": t.status, "kind": t.settings.kind}
        return None

    # ----- personal channels ------------------------------------------------------------
    async def attach(self, conn: Connection) -> None:
        assert conn.player is not None
        first = not self.channels.get(conn.player)
        self.channels[conn.player].add(conn)
        if first and self.cluster is not None:
            self.cluster.presence(conn.player, True)
        await conn.send(await self.me_event(conn.player))
        if first:
            await self.tell_friends(conn.player)

    async def detach(self, conn: Connection) -> None:
        if conn.player is None:
            return
        conns = self.channels.get(conn.player)
        if conns is None:
            return
        conns.discard(conn)
        if not conns:
            del self.channels[conn.player]
            if self.cluster is not None:
                self.cluster.presence(conn.player, False)
            # in a task of its own: the socket's handler may be cancelled as it closes
            task = asyncio.get_running_loop().create_task(self.tell_friends(conn.player))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def push(self, pid: str, event: Mapping[str, object], *, local: bool = False) -> None:
        """Send ``event`` to every personal channel of ``pid`` (on every worker)."""
        if not local and self.cluster is not None:
            self.cluster.push(pid, event)
        for conn in list(self.channels.get(pid, ())):
            try:
                await conn.send(event)
            except Exception:
                self.channels[pid].discard(conn)

    async def tell_friends(self, pid: str) -> None:
        """Presence changed: each online friend gets a fresh friends list."""
        for friend in list(self.social.friends.get(pid, ())):
            if self.online(friend):
                await self.push(friend, await self.me_event(friend))

    async def me_event(self, pid: str) -> dict[str, object]:
        return {"v": PROTOCOL_VERSION, "type": "me", **(await self.friends_view(pid))}

    # ----- friends -------------------------------------------------------------------------
    async def _entry(self, pid: str, presence: bool) -> FriendEntry:
        name = await self.learn(pid) or "?"
        entry: FriendEntry = {"player": pid, "name": name}
        if presence:
            entry["online"] = self.online(pid)
            entry["table"] = self.where(pid)
        return entry

    async def friends_view(self, pid: str) -> FriendsView:
        """Friends (with presence), requests both ways, blocked players and
        pending invitations of ``pid``."""
        s = self.social
        friends = [await self._entry(f, True) for f in s.friends.get(pid, ())]
        friends.sort(key=lambda e: (not e.get("online"), e["name"].lower()))
        return {
            "friends": friends,
            "incoming": [await self._entry(p, False) for p in s.incoming(pid)],
            "outgoing": [await self._entry(p, False) for p in s.outgoing(pid)],
            "blocked": [await self._entry(p, False) for p in sorted(s.blocks_of(pid))],
            "invitations": await self.invitations_of(pid),
        }

    async def change(self, pid: str, target: str, action: str) -> str:
        """A friends action by ``pid`` on ``target`` (a username or a player id)."""
        other = await self._resolve(target)
        result = await self.store.run(apply_change, self.store, self.social, pid, other, action)
        if self.cluster is not None:
            self.cluster.social_changed()
        for who in (pid, other):
            if self.online(who):
                await self.push(who, await self.me_event(who))
        if result == "requested":
            await self.push(
                other, {"v": PROTOCOL_VERSION, "type": "notice", "kind": "friend_request",
                        "from": self.names.get(pid, "?"), "player": pid},
            )  # fmt: skip
        return result

    async def _resolve(self, target: str) -> str:
        target = target.strip()
        if not target:
            raise FriendError("give a username")
        info = await self.store.run(find_account, self.store, target)
        if info is not None:
            return info.id
        if await self.learn(target) is not None and self.is_account(target):
            return target
        raise FriendError(f"no player is called {target!r}")

    # ----- invitations -------------------------------------------------------------------
    async def check_invitees(self, inviter: str, targets: list[str]) -> list[Invitee]:
        """The friends ``inviter`` may invite, or :class:`RoomError` naming
        the first who may not be (nobody is invited then)."""
        if not self.is_account(inviter):
            raise RoomError("register an account to invite friends (or share the table's link)")
        if len(targets) > MAX_INVITES:
            raise RoomError(f"invite at most {MAX_INVITES} people at once")
        invited: list[Invitee] = []
        for target in targets:
            other = await self._resolve(target)
            if self.social.blocked(inviter, other):
                raise RoomError("you cannot invite this player")
            if not self.social.are_friends(inviter, other):
                raise RoomError(
                    f"{self.names.get(other, target)} is not your friend: send a friend request, "
                    "or share the table's link"
                )
            if other not in {i["player"] for i in invited}:
                invited.append({"player": other, "name": self.names.get(other, "?")})
        return invited

    async def invite(self, table: access.Facts, inviter: str, targets: list[str]) -> list[Invitee]:
        """``inviter`` (a player of ``table``) invites friends; each gets a live
        notification and may then see the table.  Returns who was invited."""
        if inviter not in access.members(table):
            raise RoomError("only the players of a table can invite to it")
        if table.status not in LIVE:
            raise RoomError("the game is over")
        invited = await self.check_invitees(inviter, targets)
        ids = [i["player"] for i in invited]
        rows = await self.store.run(_store_invitations, self.store, table.id, inviter, ids, time.time())
        for entry, inv_id in zip(invited, rows, strict=True):
            await self.admit(table, entry["player"])
            invitation = await self._invitation(inv_id, table, inviter)
            await self.push(
                entry["player"], {"v": PROTOCOL_VERSION, "type": "invitation", "invitation": invitation}
            )
            await self.push(entry["player"], await self.me_event(entry["player"]))
        await self.tables_changed(table)
        return invited

    async def admit(self, table: access.Facts, player: str) -> None:
        """Let ``player`` see ``table``, asking its owner if another worker runs it."""
        here = self.tables.get(table.id)
        if here is not None:
            await here.admit(player)
            return
        assert self.cluster is not None
        try:
            answer = await self.cluster.ask(table.id, {"what": "admit", "player": player})
        except TimeoutError:
            raise RoomError("the table did not answer; try again") from None
        if not answer["ok"]:
            raise RoomError(answer["error"])

    async def tables_changed(self, table: access.Facts) -> None:
        """Who may see ``table`` changed: the lobby is told (by its owner)."""
        here = self.tables.get(table.id)  # (another worker's table: its owner tells)
        if here is not None and here.on_change is not None:
            await here.on_change(here)

    async def _invitation(self, inv_id: int, table: access.Facts, inviter: str) -> Invitation:
        return {
            "id": inv_id, "table": table.id, "game": table.game, "preset": table.preset,
            "kind": table.settings.kind, "from": await self.learn(inviter) or "?",
        }  # fmt: skip

    async def invitations_of(self, pid: str) -> list[Invitation]:
        """Pending invitations of ``pid`` to live tables, newest first."""
        rows = await self.store.run(_pending_invitations, self.store, pid)
        out = []
        for inv_id, tid, inviter in rows:
            table = self.find(tid)
            if table is None or table.status not in LIVE:
                continue
            out.append(await self._invitation(inv_id, table, inviter))
        return out

    async def answer(self, pid: str, inv_id: int, accept: bool) -> Accepted | None:
        """Accept (returns ``{"table": its id, "seat": the seat taken there
        or None}``) or decline an invitation of ``pid``."""
        row = await self.store.run(_answer_invitation, self.store, pid, inv_id, accept)
        if row is None:
            raise RoomError("no such invitation")
        tid, inviter = row
        await self.push(pid, await self.me_event(pid))
        table = self.find(tid)
        if accept:
            if table is None or table.status not in LIVE:
                raise RoomError("that table has closed")
            return {"table": tid, "seat": await self._sit_invited(table, pid, inviter)}
        await self.push(
            inviter,
            {"v": PROTOCOL_VERSION, "type": "notice", "kind": "declined", "from": self.names.get(pid, "?"),
             "text": f"{self.names.get(pid, '?')} declined your invitation"},
        )  # fmt: skip
        if table is not None and table.seat_of(pid) is None:
            await self.uninvite(table, pid)
        return None

    async def _sit_invited(self, table: access.Facts, pid: str, inviter: str) -> str | None:
        """Seat whoever accepted an invitation to a waiting table here: beside
        the inviter's side if a seat there is free (the partner's seat),
        else the first free seat.  The seat's name, or None (no free seat,
        a game under way, a table on another worker: the page sits down, or
        a refusal such as a Compete buy-in they cannot pay: the table shows it)."""
        if not self.may_see(table, pid):  # (a declined invitation answered again lets nobody in)
            return None
        here = self.tables.get(table.id)
        if here is None or here.status != "waiting" or here.seat_of(pid) is not None:
            seat = table.seat_of(pid)
            if seat is None:
                return None
            return here.match.seat_name(seat) if here is not None else table.summary()["seats"][seat]["seat"]
        table = here
        free = [i for i, s in enumerate(table.seats) if s.empty]
        if not free:
            return None
        host_seat = table.seat_of(inviter)
        side = (
            []
            if host_seat is None
            else [i for i in free if table.match.team_of(i) == table.match.team_of(host_seat)]
        )
        chosen = (side or free)[0]
        name = table.match.seat_name(chosen)
        try:
            await table.sit(SimpleNamespace(player=pid, name=await self.learn(pid) or "?"), name)
        except RoomError:
            return None
        return str(name)

    async def uninvite(self, table: access.Facts, player: str) -> None:
        """``player`` declined: they may no longer see ``table``, and that is
        stored (a restart rebuilds the table's access from storage), asking
        the table's owner if another worker runs it."""
        here = self.tables.get(table.id)
        if here is not None:
            if await access.uninvite(here, player):
                await self.tables_changed(here)
            return
        if self.cluster is None:
            return
        try:
            await self.cluster.ask(table.id, {"what": "uninvite", "player": player})
        except TimeoutError:
            log.warning("table %s did not answer an uninvitation of %s", table.id, player)

    async def close_all(self) -> None:
        for conns in list(self.channels.values()):
            for conn in list(conns):
                with contextlib.suppress(Exception):
                    await conn.close(1001)
        self.channels.clear()


# ----- storage (on the database thread) ------------------------------------------------------
def _store_invitations(store: Store, tid: str, inviter: str, players: list[str], now: float) -> list[int]:
    with store.sessions.begin() as s:
        rows = [
            InvitationRow(table_id=tid, from_id=inviter, to_id=p, status="pending", created=now)
            for p in players
        ]
        s.add_all(rows)
        s.flush()
        return [r.id for r in rows]


def _pending_invitations(store: Store, pid: str) -> list[tuple[int, str, str]]:
    with store.sessions() as s:
        q = (
            select(InvitationRow.id, InvitationRow.table_id, InvitationRow.from_id)
            .join(TableRow, TableRow.id == InvitationRow.table_id)
            .where(InvitationRow.to_id == pid, InvitationRow.status == "pending", TableRow.status.in_(LIVE))
            .order_by(InvitationRow.id.desc())
            .limit(50)
        )
        return [(i, t, f) for i, t, f in s.execute(q)]


def _answer_invitation(store: Store, pid: str, inv_id: int, accept: bool) -> tuple[str, str] | None:
    with store.sessions.begin() as s:
        row = s.get(InvitationRow, inv_id)
        if row is None or row.to_id != pid:
            return None
        row.status = "accepted" if accept else "declined"
        return row.table_id, row.from_id
