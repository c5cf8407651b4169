"""One table: its game, seats, connections and bots, with every change
serialised through one lock (the table's actor).

The path of one action: a client message → :meth:`Table.act` (seat, turn
and legality checks; a refused action changes nothing) → the action is
committed to storage (grouped with other tables' actions, see
:meth:`Store.write_action`) → ``match.apply`` → each connection gets a
``state`` event made by ``match.view(its seat)`` → bots to act are scheduled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

from sqlalchemy.exc import IntegrityError

import trumps
from trumps.core.cards import Card
from trumps.core.errors import TrumpsError
from trumps.core.protocol import Deal, Match
from trumps.i18n import N_
from trumps.room import timing
from trumps.room.storage.store import Store, StoredTable, StoreUnavailable
from trumps.room.tables.messages import PROTOCOL_VERSION, error_event
from trumps.room.tables.settings import (
    MAX_SPECTATORS,
    PHRASE_OF_TEXT,
    PRESET_PHRASES,
    TableSettings,
    bot_level,
)
from trumps.room.tables.thinking import think
from trumps.room.tables.timers import SLACK, Timers

__all__ = [
    "ABANDON_AFTER",
    "CHAT_BURST",
    "CHAT_WINDOW",
    "LIVE",
    "MAX_REPLAY",
    "REPLAY_PACE",
    "SUGGEST_SWITCHES",
    "AccessDenied",
    "Connection",
    "Policy",
    "RoomError",
    "Table",
    "TableClosed",
    "new_invite_code",
    "person_of",
    "spoken_action",
    "told_action",
]

log = logging.getLogger("trumps.room")

#: The notices of a move a timer made (per receiver: :meth:`Table._timeout_notice`),
#: translated by their templates where they are shown.
TIMEOUT_PLAYED = N_("{who} ran out of time: {action} was played automatically")
TIMEOUT_PASSED = N_("{who} ran out of time: {call} was made for them")
#: A seat whose player ran out of time this many times in a row is marked
#: away: a bot plays it at bot pace until the player says "I'm back" (or
#: acts), rather than every move waiting out the whole timer.
IDLE_AFTER = 2
#: The statuses of a table that runs (listed, resumed after a restart); after
#: them a table is "finished" (its game was played), "closed" (abandoned
#: before its start) or "broken" (set aside: trumps.room.room.Room.set_aside).
LIVE = ("waiting", "playing")
#: A waiting table that no person has been connected to for this many seconds
#: is closed (the room's ``on_abandoned``): it left people seated at a table
#: they had walked away from (their friends saw them still "at" it), and
#: the lobby full of tables nobody would start.
ABANDON_AFTER = 300.0
TIMEOUT_DISCARD = N_("{who} ran out of time: a card was discarded automatically")
TIMEOUT_MELDS = N_("{who} ran out of time: melds worth {points} were announced automatically")
NOT_INVITED = N_("this table is private: you need an invitation")
TIMEOUT_MOVE = N_("{who} ran out of time: a move was made automatically")
# A ``since`` replay sends only states of the current deal (a reconnect mostly
# misses part of one deal), at most this many; further behind, or asking again
# within REPLAY_PACE seconds of the same person's last replay, gets the current
# state only.  Only the last state of a replay carries the chat.
MAX_REPLAY = 120  # (a deal is 40-80 actions: the longest with a kitty exchange or a long auction)
REPLAY_PACE = 3.0
CHAT_BURST, CHAT_WINDOW = 5, 10.0  # at most 5 chat lines per player in any 10 seconds
# ... and ADDRESS_SHARE times that for all the guests of one address together
# (guests are free to make; a family at one table still has room to talk)
ADDRESS_SHARE = 3
# ``suggest on/off`` switches per person in any window of CHAT_WINDOW seconds
# (each one sends the person a state and may start a computation)
SUGGEST_SWITCHES = 6
SUGGESTION_LEVEL = "normal"  # the bot level whose choice a suggestion shows
TRICK_PAUSE = 2.5  # bot delays before a bot leads to the next trick: the last one stays visible
DEAL_PAUSE = 6.0  # bot delays before a bot's first call of a new deal: the result can be read


def person_of(conn: Connection) -> str:
    """Who a connection is for the per-person budgets (chat, suggestions,
    replays): the account or address the socket came from when the server
    knows it (``conn.person``), else the player, else the socket itself, so
    that a person cannot multiply the budgets with guest identities."""
    person = getattr(conn, "person", None)
    if isinstance(person, str) and person:
        return person
    return conn.player or f"socket:{id(conn)}"


def _cards_played(view: dict[str, Any]) -> list[str]:
    """Every card a view shows played this deal, in order."""
    out = [str(c) for t in view.get("tricks") or () for c in t.get("cards") or ()]
    return out + [str(p.get("card")) for p in view.get("trick") or ()]


_CARD_TEXT = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")
_SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_JOKERS = {"RJ": "the joker", "BJ": "the black joker"}


def spoken_action(match: Match[Deal], action: str) -> str:
    """An action as an English notice says it: the game's own label of a
    call (``Pass``, ``7♠``, ``Nullo``: its presentation) or ``7♣``, ``10♥``
    for a card, not the codes ``P``, ``7C``, ``TH`` (the page words it in
    its own language)."""
    label = match.presentation().get("labels", {}).get(action)
    if label:
        return str(label)
    m = _CARD_TEXT.match(action)
    if m:
        return ("10" if m.group(1) == "T" else m.group(1)) + _SUIT_SYMBOLS[m.group(2)]
    card, _, called = action.partition(":")  # a joker, maybe led calling a suit ("RJ:H")
    if card in _JOKERS:
        return _JOKERS[card] + (f" ({_SUIT_SYMBOLS[called]})" if called in _SUIT_SYMBOLS else "")
    return action


def told_action(before: dict[str, Any], after: dict[str, Any], action: str) -> bool:
    """Whether a receiver whose view was ``before`` and is ``after`` the
    action sees which action it was (so a notice may name it): a call that
    appears in the auction, the card that appears played (a joker's suit, a
    belote announcement with it), or the action that ended the deal (always
    a call or a card everyone sees).  Anything else (a card discarded face
    down, a meld declaration whose cards stay in the hand) is not told: the
    receiver learns only what the view after it shows."""
    if after.get("deal_number") != before.get("deal_number") or (
        after.get("over") and not before.get("over")
    ):
        return True
    calls = (after.get("auction") or [])[len(before.get("auction") or []) :]
    if len(calls) == 1 and str(calls[0].get("call")) == action:
        return True
    cards = _cards_played(after)[len(_cards_played(before)) :]
    bare = action.replace("+", ":").split(":", 1)[0]
    return len(cards) == 1 and cards[0] == bare


def new_invite_code() -> str:
    """An invitation code: 10 characters, 60 random bits (not guessable)."""
    return secrets.token_urlsafe(8)[:10]


class RoomError(ValueError):
    """A request the table refuses (wrong seat, not the host, table full...)."""


class AccessDenied(RoomError):
    """The connection may not be at this table at all (private, removed,
    no spectators); the connection is closed after the error event."""


class TableClosed(RoomError):
    """The table stopped running in this process (handed over to another
    worker) while a request waited for it: nothing was done; the socket is
    about to be sent where the table went."""


class _TableLock(asyncio.Lock):
    """A table's lock, refusing (:class:`TableClosed`) once the table is
    closed: a message that waited for the lock while the table was handed
    over must not be applied here, where the stored log would get an action
    the heir, which already loaded the table, does not know of (and the
    heir's next write would then collide with it)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self._table = table

    async def __aenter__(self) -> None:
        await self.acquire()
        if self._table.closed:
            self.release()
            raise TableClosed("this table has moved to another server; reconnecting")


class Connection(Protocol):
    """What a table needs of a client connection."""

    player: str | None
    name: str

    async def send(self, event: Mapping[str, object]) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


class ChipEntry(TypedDict):
    """One human seat's result at the end of a Compete game, as the table
    gives it to the ledger's ``pay_out``."""

    player: str
    seat: int
    won: bool
    score: int  # the side's final score
    deals: int


class Ledger(Protocol):
    """The chips of Compete tables: the balance a buy-in is checked
    against, the buy-ins charged at the start and the pay-out at the end
    (:mod:`trumps.room.compete.competition`, given by the room: the tables
    do not know the competition, they are given it, as they are given the
    people's :class:`Policy`)."""

    def chips(self, store: Store, player_id: str) -> int: ...

    def start_seated(
        self,
        store: Store,
        table_id: str,
        seats: list[tuple[int, str | None, str | None]],
        buy_in: int,
        started: float,
    ) -> list[int]: ...

    def pay_out(
        self,
        store: Store,
        table_id: str,
        game: str,
        buy_in: int,
        entries: list[ChipEntry],
        sides: int | None = None,
        draw: bool = False,
        at: float | None = None,
    ) -> str | None: ...


class Policy(Protocol):
    """The room's rules about people that a table consults (friends, blocks,
    accounts: :mod:`trumps.room.tables.access`), and what it tells the room when a
    game ends (ratings)."""

    def may_see(self, table: Table, player: str | None) -> bool: ...

    def sit_refusal(self, table: Table, player: str) -> str | None: ...

    def hidden_from(self, viewer: str | None) -> set[str]: ...

    async def finished(self, table: Table) -> None: ...


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


class Table:
    """A live table rebuilt from (and written through to) storage."""

    def __init__(
        self,
        stored: StoredTable,
        store: Store,
        names: dict[str, str],
        *,
        bot_delay: float = 0.6,
        grace: float = 30.0,
        on_change: Callable[[Table], Awaitable[None]] | None = None,
        timers: Timers | None = None,
        on_done: Callable[[Table], None] | None = None,
    ) -> None:
        self.id = stored.id
        self.game = stored.game
        self.preset = stored.preset
        self.options = stored.options
        self.seed = stored.seed
        self.host = stored.host
        self.status = stored.status
        self.created = stored.created
        self.settings = TableSettings.from_stored(stored.settings, stored.id)
        self.invite = stored.invite
        self.invited: set[str] = set(stored.access.get("invited", ()))
        self.banned: set[str] = set(stored.access.get("banned", ()))
        self.started = stored.started
        self.timers = timers or Timers()
        self.clock = self.timers.clock
        self.store = store
        self.bot_delay = bot_delay
        self.grace = grace
        self.on_change = on_change
        self.on_done = on_done  # told when the game is over and nobody is connected any more
        self.on_fenced: Callable[[Table], None] | None = None  # another worker wrote to our log
        # a waiting table nobody was connected to for ``abandon_after`` s: the room closes it
        self.on_abandoned: Callable[[Table], Awaitable[None]] | None = None
        self.abandon_after = ABANDON_AFTER
        self.rematch: str | None = stored.rematch  # finished: the table Play again went on to
        self.policy: Policy | None = None  # set by the room
        self.ledger: Ledger | None = None  # a Compete table's chips (the room gives it)
        self.match: Match[Deal] = trumps.new_game(self.game, options=self.options, seed=self.seed)
        # the rules in words for the lobby, and the game's name (the game's own metadata)
        self.rules_text = self.match.schema.summary(self.options, self.preset)
        # the Rules panel: the preset and every rule that differs from it (templates, terms)
        self.house_rules = self.match.schema.house_rules(self.options, self.preset)
        self.game_title = self.match.schema.title or self.game
        for seat, action, at, _auto in stored.actions:
            self.match.apply(action, seat, time=at)
        self.seats = [Seat() for _ in range(self.match.players)]
        for seat, (player, bot) in stored.seats.items():
            self.seats[seat] = Seat(player, names.get(player or ""), bot)
        self.chat = [{**line, "phrase": PHRASE_OF_TEXT.get(line["text"])} for line in stored.chat]
        self.timeouts: Counter[int] = Counter(stored.actions[seq - 1][0] for seq in stored.timeouts)
        # per seat, its moves made by the timer since its player's own last
        # move (from the stored log: a restart keeps an idle player idle)
        self._timed_out_in_a_row: Counter[int] = Counter()
        for seq, (seat, _action, _at, auto) in enumerate(stored.actions, start=1):
            if seq in stored.timeouts:
                self._timed_out_in_a_row[seat] += 1
            elif not auto:  # the player's own move (a bot's for an away player changes nothing)
                self._timed_out_in_a_row[seat] = 0
        # seats whose player let the timer move IDLE_AFTER times in a row
        self.idle: set[int] = {
            s
            for s, n in self._timed_out_in_a_row.items()
            if n >= IDLE_AFTER and self.seats[s].player is not None
        }
        self.suggesting: set[str] = set()  # players who switched suggestions on
        self._chat_times: dict[str, deque[float]] = {}  # per person (person_of)
        self._switch_times: dict[str, deque[float]] = {}  # suggest on/off, per person
        # the last suggestion made, by (seq, seat), and the one being computed:
        # one computation per state however often it is asked for
        self._suggestion: tuple[tuple[int, int], dict[str, Any]] | None = None
        self._suggesting_for: tuple[int, int] | None = None
        self._replayed: dict[str, float] = {}  # person -> (clock) time of their last since replay
        # seat -> the seq at which its present occupant took it (this process's
        # memory; a replay never goes back past it nor past the deal's start)
        self._seated_at: dict[int, int] = {}
        self.connections: set[Connection] = set()
        self.closed = False  # stopped running here (close): the lock refuses
        self.lock: asyncio.Lock = _TableLock(self)
        self._send_lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        # seats whose player left mid-game: after the grace period a bot plays for them
        self.away: dict[int, float] = {}
        # humans waiting to take over a bot's seat at the start of the next deal
        self.pending: dict[int, tuple[str, str]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._rng = random.Random(self.seed ^ 0x5EED)
        self._listed: TableSummary | None = None  # the summary the lobby was last told of
        self._deal_start: tuple[int, Match[Deal]] = (0, self.match)  # replaced below
        self._mark_deal_start()

    # ----- reading -------------------------------------------------------------
    @property
    def seq(self) -> int:
        """The number of actions applied: the version of the table state."""
        return len(self.match.log)

    def seat_of(self, player: str | None) -> int | None:
        if player is None:
            return None
        for i, s in enumerate(self.seats):
            if s.player == player:
                return i
        return None

    def summary(self) -> TableSummary:
        """The public description shown in the lobby and at the table."""
        name = self.match.seat_name
        return {
            "id": self.id,
            "game": self.game,
            "game_title": self.game_title,
            "preset": self.preset,
            "options": self.options,
            "rules_text": self.rules_text,
            "settings": self.settings.model_dump(),
            "status": self.status,
            "host": self.host,
            "seats": [
                {
                    "seat": name(i),
                    "name": s.name,
                    "bot": s.bot,
                    "empty": s.empty,
                    "away": i in self.away or i in self.idle,
                    "idle": i in self.idle,
                    "timeouts": self.timeouts[i],
                }
                for i, s in enumerate(self.seats)
            ],
            "free": sum(1 for s in self.seats if s.empty),
            "spectators": len(self.spectators()),
            "scores": self.match.scores,
            "created": self.created,
            "started": self.started,
            "rematch": self.rematch,
        }

    def _seat_summary(self, i: int, s: Seat, name: str) -> SeatSummary:
        return {
            "seat": name, "name": s.name, "bot": s.bot, "empty": s.empty,
            "away": i in self.away or i in self.idle, "idle": i in self.idle, "timeouts": self.timeouts[i],
        }  # fmt: skip

    def spectators(self) -> dict[str, str]:
        """Player id -> name of every connected person without a seat (the
        host, who may run a table without playing, aside)."""
        return {
            c.player or f"anon-{id(c)}": c.name
            for c in self.connections
            if c.player != self.host and self.seat_of(c.player) is None
        }

    def deadline(self) -> float | None:
        """When the seat to act runs out of time (clock time), if a timer runs."""
        return self.timers.deadline((self.id, "move"))

    def state_event(
        self,
        conn: Connection,
        match: Match[Deal] | None = None,
        *,
        summary: TableSummary | None = None,
        views: dict[int | None, dict[str, Any]] | None = None,
        chat: bool = True,
    ) -> dict[str, Any]:
        """The ``state`` event for ``conn``: the table and the engine's view
        of the connection's seat (a spectator's view when it has none).
        A broadcast passes the table's ``summary`` and a cache of ``views``
        per seat, so each is built once per state rather than once per
        connection.  Without ``chat`` the event has no ``chat`` key (the
        earlier states of a replay: the page keeps the chat it has, and a
        replay does not repeat up to 50 lines in every state)."""
        seat = self.seat_of(conn.player)
        m = self.match if match is None else match
        # before the start nobody sees a card, seated or not: the first deal is
        # dealt when the table is made, and a player who sat in each free seat
        # in turn would otherwise know every hand of it
        looks_from = seat if self.status != "waiting" else None
        cached = None if views is None else views.get(looks_from)
        view = m.view(looks_from) if cached is None else cached
        if views is not None and cached is None:
            views[looks_from] = view
        host = conn.player == self.host
        table = {
            **(self.summary() if summary is None else summary),
            "you": None if seat is None else self.match.seat_name(seat),
            "is_host": host,
            "suggesting": conn.player in self.suggesting,
            "deadline": self.deadline() if match is None else None,
            "now": self.clock.now(),
            "rules": self.house_rules,
        }
        if host:  # only the host sees the invitation and who is watching
            table["invite"] = self.invite
            table["watchers"] = [{"player": p, "name": n} for p, n in self.spectators().items()]
        event = {"v": PROTOCOL_VERSION, "type": "state", "seq": len(m.log), "table": table, "view": view}
        if chat:
            # players (and the host) never see the spectators' chat; spectators see both
            player_side = seat is not None or host
            lines = self._players_chat() if player_side else self.chat[-50:]
            hidden = self.policy.hidden_from(conn.player) if self.policy is not None else ()
            if hidden:  # the lines of players this person blocked
                lines = [line for line in lines if line.get("player") not in hidden]
            event["chat"] = lines
        return event

    def _players_chat(self) -> list[dict[str, Any]]:
        """The last 50 lines of the players' channel (read from the end: the
        chat only grows, and this runs for every state sent)."""
        out: list[dict[str, Any]] = []
        for line in reversed(self.chat):
            if line.get("channel") != "spectators":
                out.append(line)
                if len(out) == 50:
                    break
        out.reverse()
        return out

    # ----- access ---------------------------------------------------------------------
    def may_see(self, player: str | None) -> bool:
        """Whether ``player`` may see this table at all (lobby entry, page)."""
        if self.policy is not None:
            return self.policy.may_see(self, player)
        if player is not None and player in self.banned:
            return False
        if not self.settings.private:
            return True
        return player is not None and (
            player == self.host
            or player in self.invited
            or self.seat_of(player) is not None
            or player in {p for p, _ in self.pending.values()}
        )

    def check_entry(self, conn: Connection) -> None:
        """Raise :class:`AccessDenied` if ``conn`` may not be connected now."""
        player = conn.player
        if player is not None and player in self.banned:
            raise AccessDenied("you were removed from this table")
        if not self.may_see(player):
            why = getattr(self.policy, "not_seen_because", None)
            reason = why(self, player) if why is not None else None
            raise AccessDenied(reason or NOT_INVITED)
        if self.seat_of(player) is not None or player == self.host:
            return
        if player is not None and player in {p for p, _ in self.pending.values()}:
            return
        if self.status == "playing" and not self.settings.watching:
            raise AccessDenied("this table does not allow spectators")
        others = {p for p in self.spectators() if p != player}
        if len(others) >= MAX_SPECTATORS and player not in others:
            raise AccessDenied(f"this table already has {MAX_SPECTATORS} spectators")

    async def _enforce_access(self) -> None:
        """Close every connection that may no longer be here (revoked
        invitation, removed spectator, game started without spectators)."""
        for conn in list(self.connections):
            try:
                self.check_entry(conn)
            except AccessDenied as exc:
                self.connections.discard(conn)
                with contextlib.suppress(Exception):
                    await conn.send(self.error(str(exc)))
                    await conn.close(4403)

    async def _store_access(self) -> None:
        access = {"invited": sorted(self.invited), "banned": sorted(self.banned)}
        await self.store.run(self.store.set_access, self.id, self.invite, access)

    async def revoke_invite(self, conn: Connection) -> None:
        """Host only: a new invitation code; the old one and everyone let in
        by it (without a seat) lose access at once."""
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can change the invitation")
            if not self.settings.private:
                raise RoomError("this table is public: there is no invitation to revoke")
            self.invite = new_invite_code()
            self.invited.clear()
            await self._store_access()
            await self._enforce_access()
        await self.broadcast()

    async def admit(self, player: str) -> None:
        """``player`` used this table's invitation."""
        if player in self.banned:
            raise AccessDenied("you were removed from this table")
        if player not in self.invited:
            self.invited.add(player)
            await self._store_access()

    async def carry_access(self, invited: Iterable[str], banned: Iterable[str]) -> None:
        """A Play again copy (:mod:`trumps.room.tables.rematch`) keeps who was let
        in and who was removed at the finished table."""
        self.banned |= set(banned)
        self.invited |= set(invited) - self.banned
        await self._store_access()

    async def remove_spectator(self, conn: Connection, player: str) -> None:
        """Host only: remove a spectator, who cannot come back."""
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can remove a spectator")
            if player == self.host:
                raise RoomError("you cannot remove yourself")
            if self.seat_of(player) is not None:
                raise RoomError("that person has a seat at this table, not a spectator")
            if player not in self.spectators():
                raise RoomError("no such spectator at this table")
            self.banned.add(player)
            self.invited.discard(player)
            await self._store_access()
            await self._enforce_access()
        await self.broadcast()

    # ----- connections -------------------------------------------------------------
    async def join(self, conn: Connection, since: int | None = None, *, paced: bool = True) -> None:
        """Connect ``conn`` (or raise :class:`AccessDenied`).  With ``since``
        (the last event it saw), the events it missed are sent in order;
        otherwise the current state (``paced``: see :meth:`catch_up`).  A
        closed table (handed over while the socket arrived) raises
        :class:`TableClosed`: the socket goes to the table's new worker."""
        if self.closed:
            raise TableClosed("this table has moved to another server; reconnecting")
        self.check_entry(conn)
        self.connections.add(conn)
        self.watch_alone()
        await self.catch_up(conn, since, paced=paced)
        seat = self.seat_of(conn.player)
        if seat is not None and seat in self.away:
            del self.away[seat]
            self._arm_timer()
            await self.broadcast()
        elif seat is None:
            await self.broadcast(exclude=conn)  # one more spectator
        if seat is not None:
            await self._send_suggestion()

    async def catch_up(self, conn: Connection, since: int | None, *, paced: bool = True) -> None:
        """Send ``conn`` every state after ``since``, in order, or only the
        current state.

        A replay is what this connection may see *now*: its seat's view,
        and only of states after both the start of the current deal and the
        moment its person took that seat (the bot's hands of earlier deals,
        or the seat's cards before a person sat there, are never replayed;
        within the deal the seat's earlier cards are its present hand, its
        own discards and cards since played, all in its present view).  It
        is bounded (:data:`MAX_REPLAY` states, the chat in the last one
        only) and paced (one per person per :data:`REPLAY_PACE` seconds):
        anything else gets the current state, which is complete.

        ``paced`` False: not counted against the person's pace, for a
        worker repairing the notifications it lost itself (a relayed
        socket's stream, :mod:`trumps.room.cluster.relay`): the person did
        not ask, and several guests of one address relayed by that worker
        would otherwise share one replay and skip states.  Still bounded."""
        start_seq, start = self._deal_start
        seat = self.seat_of(conn.player)
        floor = max(start_seq, self._seated_at.get(seat, 0) if seat is not None else 0)
        if (
            since is None
            or since >= self.seq
            or since < floor
            or self.seq - since > MAX_REPLAY
            or (paced and not self._may_replay(conn))
        ):
            # a fresh page also learns how to draw this game (the same for every seat)
            event = self.state_event(conn)
            if since is None:
                event["presentation"] = self.match.presentation()
            await conn.send(event)
            return
        replay = start.clone()
        for act_seat, action, at in self.match.log[len(replay.log) :]:
            replay.apply(action, act_seat, time=at)
            if len(replay.log) == self.seq:  # the present: the live state, with its deadline
                await conn.send(self.state_event(conn))
            elif len(replay.log) > since:
                await conn.send(self.state_event(conn, replay, chat=False))

    def _may_replay(self, conn: Connection) -> bool:
        """Whether ``conn``'s person may have a replay now (one per person
        per :data:`REPLAY_PACE` seconds; the times kept are only the recent
        ones, so the memory stays bounded by the people asking)."""
        now = self.clock.now()
        person = person_of(conn)
        last = self._replayed.get(person)
        if last is not None and now - last < REPLAY_PACE:
            return False
        for who, at in list(self._replayed.items()):
            if now - at >= REPLAY_PACE:
                del self._replayed[who]
        self._replayed[person] = now
        return True

    def _mark_deal_start(self) -> None:
        self._deal_start = (self.seq, self.match.clone())

    def leave(self, conn: Connection) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        self._check_done()
        self.watch_alone()
        seat = self.seat_of(conn.player)
        if seat is not None and any(c.player == conn.player for c in self.connections):
            return
        if seat is not None and self.status == "playing":
            self.away[seat] = time.monotonic()
            asyncio.get_running_loop().call_later(self.grace, self._schedule_bot)
        elif seat is not None:
            return
        self._spawn(self.broadcast())  # the seat is away, or one spectator fewer

    def watch_alone(self) -> None:
        """Arm the abandonment timer of a waiting table that no person is
        connected to (from the moment the last one left, or the table was
        made or rebuilt), cancel it when one comes; :data:`ABANDON_AFTER`."""
        key = (self.id, "abandon")
        alone = not any(c.player is not None for c in self.connections)
        if self.closed or self.status != "waiting" or self.on_abandoned is None or not alone:
            self.timers.cancel(key)
        elif self.timers.deadline(key) is None:
            self.timers.arm(key, self.clock.now() + self.abandon_after, self._abandoned)

    async def _abandoned(self, _key: object) -> None:
        if self.on_abandoned is not None and self.status == "waiting" and not self.closed:
            await self.on_abandoned(self)

    def _check_done(self) -> None:
        """A finished table nobody is connected to is over for the room: its
        replay is read from storage from now on."""
        if self.status == "finished" and not self.connections and self.on_done is not None:
            self.on_done(self)

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _controller(self, seat: int) -> str | None:
        """The bot kind playing ``seat`` now, or ``None`` for a present human
        (or an empty seat: the game waits for someone to sit)."""
        s = self.seats[seat]
        if s.bot is not None:
            return s.bot
        if seat in self.idle:
            return "rules"
        since = self.away.get(seat)
        if since is not None and time.monotonic() - since >= self.grace:
            return "rules"
        return None

    async def broadcast(self, exclude: Connection | None = None) -> None:
        """Send every connection its state.  Under one lock, so each
        connection sees states in order (a later send never carries an
        older state); the same state may arrive twice."""
        self._arm_timer()  # so the deadline sent is the one for this state
        async with self._send_lock:
            # every event is made before the first send awaits: one consistent
            # state for all; an action made meanwhile goes out with the next broadcast
            summary = self.summary()
            views: dict[int | None, dict[str, Any]] = {}
            events = [
                (c, self.state_event(c, summary=summary, views=views))
                for c in list(self.connections)
                if c is not exclude
            ]
            for conn, event in events:
                try:
                    await conn.send(event)
                except Exception:  # a dead connection must not stop the others
                    self.connections.discard(conn)
        # the lobby shows the summary: tell it only when that changed
        if self.on_change is not None and summary != self._listed:
            self._listed = summary
            await self.on_change(self)

    async def notify(self, text: str, **extra: object) -> None:
        """A ``notice`` event to everyone at the table, the same for all: only
        for public facts (a buy-in not paid).  A notice about an action is
        made per receiver (:meth:`_timeout_notice`)."""
        event = {"v": PROTOCOL_VERSION, "type": "notice", "seq": self.seq, "text": text, **extra}
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.send(event)

    async def _timeout_notice(self, seat: int, action: str, before: Match[Deal]) -> None:
        """Tell everyone that a timer played ``action`` for ``seat``, each
        from their own view (``before`` is the match before the action): the
        seat itself (every connection of its player) is told the action; any
        other receiver is told it only if their view shows it
        (:func:`told_action`), else only what their view shows of it (a card
        discarded face down, a meld's announced value).  The ``action``
        extra is present only where the action is told."""
        who = self.seats[seat].name or self.match.seat_name(seat)
        name = self.match.seat_name(seat)
        base = {
            "v": PROTOCOL_VERSION,
            "type": "notice",
            "seq": self.seq,
            "seat": name,
            "who": who,
            "timeout": True,
        }
        # the page words the action itself in its reader's language ("kind"
        # and "action"); the text is the English for any other client
        if str(before.view(None).get("phase", "")).upper() == "AUCTION":
            text, kind = TIMEOUT_PASSED.format(who=who, call=spoken_action(before, action)), "call"
        else:
            text, kind = TIMEOUT_PLAYED.format(who=who, action=spoken_action(before, action)), "move"
        told = {**base, "text": text, "action": action, "kind": kind}
        events: dict[int | None, dict[str, Any]] = {seat: told}  # by the receiver's seat
        for conn in list(self.connections):
            looks_from = self.seat_of(conn.player)
            event = events.get(looks_from)
            if event is None:
                view_before, view_after = before.view(looks_from), self.match.view(looks_from)
                if told_action(view_before, view_after, action):
                    event = told
                else:
                    text = self._untold_move(who, name, view_before, view_after)
                    event = {**base, "text": text}
                events[looks_from] = event
            with contextlib.suppress(Exception):
                await conn.send(event)

    @staticmethod
    def _untold_move(who: str, name: str, before: dict[str, Any], after: dict[str, Any]) -> str:
        """The notice of a timed-out move that the receiver's view does not
        show, in the words of what it does show: the hand of ``name``
        (the seat) one card smaller with no card played (a discard), or a
        new announcement of that seat's melds (their value, not the cards)."""
        sizes_before, sizes_after = before.get("hand_sizes") or {}, after.get("hand_sizes") or {}
        if sizes_before.get(name, 0) - sizes_after.get(name, 0) == 1:
            return TIMEOUT_DISCARD.format(who=who)
        melds_before, melds_after = before.get("melds") or {}, after.get("melds") or {}
        old = melds_before.get("announcements") or []
        for a in (melds_after.get("announcements") or [])[len(old) :]:
            if a.get("seat") == name and a.get("value"):
                points = a["value"]
                return TIMEOUT_MELDS.format(who=who, points=points)
        return TIMEOUT_MOVE.format(who=who)

    # ----- seats ---------------------------------------------------------------------
    def _seat_index(self, text: str) -> int:
        try:
            return self.match.seat(text)
        except TrumpsError as exc:
            raise RoomError(str(exc)) from None

    async def sit(self, conn: Connection, seat_text: str) -> None:
        async with self.lock:
            if conn.player is None:
                raise RoomError("choose a name before taking a seat")
            seat = self._seat_index(seat_text)
            if self.seat_of(conn.player) is not None:
                raise RoomError("you already have a seat at this table")
            if self.status == "finished":
                raise RoomError("the game is over")
            refusal = self.policy.sit_refusal(self, conn.player) if self.policy is not None else None
            if refusal is not None:
                raise RoomError(refusal)
            current = self.seats[seat]
            if current.player is not None:
                raise RoomError(f"seat {seat_text} is taken")
            if self.settings.competition:
                if self.status == "playing":
                    raise RoomError("a competition game under way takes no new players")
                await self._check_chips(conn.player)
            if current.bot is not None and self.status == "playing":
                if conn.player in {p for p, _ in self.pending.values()}:
                    raise RoomError("you are already waiting for a seat")
                self.pending[seat] = (conn.player, conn.name)
            else:
                await self._seat_and_start([(seat, Seat(conn.player, conn.name, None))])
        await self.broadcast()
        self._after_change()

    def _chips(self) -> Ledger:
        """The ledger of a Compete table's chips (the room gives it)."""
        if self.ledger is None:
            raise RoomError("this room keeps no chips: Compete tables cannot be played here")
        return self.ledger

    async def _check_chips(self, player: str) -> None:
        competition = self._chips()
        buy_in = self.settings.buy_in
        have = await self.store.run(competition.chips, self.store, player)
        if have < buy_in:
            raise RoomError(f"the buy-in is {buy_in} chips and you have {have}")

    async def stand(self, conn: Connection) -> None:
        async with self.lock:
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError("you have no seat at this table")
            if self.status == "playing":
                raise RoomError("the game is under way: you cannot leave your seat now")
            await self.store.write(self.store.seat_write, self.id, seat, None, None)
            self.seats[seat] = Seat()
            self._seated_at.pop(seat, None)
        await self.broadcast()

    async def set_bot(self, conn: Connection, seat_text: str, kind: str | None) -> None:
        """Host only: seat a bot, or (``kind`` None) empty a bot's seat; mid-game
        the game then waits at that seat until someone sits there."""
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can seat bots")
            seat = self._seat_index(seat_text)
            current = self.seats[seat]
            if current.player is not None:
                raise RoomError(f"seat {seat_text} is held by {current.name}")
            if kind is None and self.status == "playing" and self.settings.competition:
                raise RoomError("a bot cannot leave a competition game under way")
            if self.status == "finished":
                raise RoomError("the game is over")
            if kind is None:
                self.pending.pop(seat, None)
            else:
                self._check_bot_level(kind, seat)
            await self._seat_and_start([(seat, Seat(None, None, kind))])
        await self.broadcast()
        self._after_change()

    async def fill_bots(self, conn: Connection, kind: str = "rules") -> None:
        async with self.lock:
            if conn.player != self.host:
                raise RoomError("only the host can seat bots")
            self._check_bot_level(kind)
            await self._seat_and_start(self._bots_for_empty(kind))
        await self.broadcast()
        self._after_change()

    async def seat_bots(self, bots: dict[int, str]) -> None:
        """Bots of the given kinds at the given empty seats (a Play again
        copy: the bots the finished table had), starting it if that fills it."""
        async with self.lock:
            changes = [(i, Seat(None, None, kind)) for i, kind in sorted(bots.items()) if self.seats[i].empty]
            for i, seat in changes:
                assert seat.bot is not None
                self._check_bot_level(seat.bot, i)
            await self._seat_and_start(changes)
        await self.broadcast()
        self._after_change()

    def _check_bot_level(self, kind: str, seat: int | None = None) -> None:
        """At a Compete table every bot plays at one level (chips move only
        then: trumps.room.compete.competition.unpaid_reason), so a bot of another
        level than those seated (other than at ``seat``) is refused up front,
        rather than the game being played for nothing."""
        if not self.settings.competition:
            return
        levels = {bot_level(s.bot) for i, s in enumerate(self.seats) if s.bot is not None and i != seat}
        if levels and bot_level(kind) not in levels:
            level = ", ".join(sorted(levels))
            raise RoomError(f"at a Compete table every bot plays at the same level: {level} here")

    def _bots_for_empty(self, kind: str = "rules") -> list[tuple[int, Seat]]:
        """A bot of ``kind`` for every empty seat (to give :meth:`_seat_and_start`)."""
        return [(i, Seat(None, None, kind)) for i, s in enumerate(self.seats) if s.empty]

    def _may_start(self, seats: list[Seat]) -> bool:
        """Whether a waiting table with ``seats`` starts now: every seat
        filled and, if scheduled, its time come."""
        if self.status != "waiting" or any(s.empty for s in seats):
            return False
        start_at = self.settings.start_at
        return start_at is None or self.clock.now() >= start_at - SLACK

    async def _seat_and_start(self, changes: list[tuple[int, Seat]]) -> None:
        """Store seat ``changes`` and, when they fill a waiting table that may
        start now, its start, in ONE transaction; then make them here.

        Committed apart (as they were), a crash between the last seat and
        the status left a table "waiting" with every seat taken that nobody
        could start or leave.  A Compete table's start charges every
        player in that transaction too (:func:`competition.start_seated`):
        a player who cannot pay any more (the chips went to another table
        starting at the same moment, a double booking) loses the seat in it
        instead, nobody is charged, and the table waits for another player.
        A refused transaction (an unknown player) changes nothing."""
        after = list(self.seats)
        for i, seat in changes:
            after[i] = seat
        writes = [(i, seat.player, seat.bot) for i, seat in changes]
        freed: list[int] = []
        started: float | None = None
        if not self._may_start(after):
            if writes:
                await self.store.write(self.store.seats_write, self.id, writes)
        elif self.settings.competition:
            competition = self._chips()
            started = self.clock.now()
            buy_in = self.settings.buy_in
            freed = await self.store.run(
                competition.start_seated, self.store, self.id, writes, buy_in, started
            )
        else:
            started = self.clock.now()
            await self.store.write(self.store.seats_write, self.id, writes, started)
        for i, seat in changes:
            self.seats[i] = seat
            if seat.player is not None:
                self._seated_at[i] = self.seq
            else:
                self._seated_at.pop(i, None)
        if freed:
            buy_in = self.settings.buy_in
            for i in freed:
                name = self.seats[i].name
                self.seats[i] = Seat()
                self._seated_at.pop(i, None)
                self._spawn(self.notify(f"{name} cannot pay the buy-in of {buy_in} chips any more"))
            return
        if started is not None:
            self.status = "playing"
            self.started = started
            self.timers.cancel((self.id, "start"))
            self.timers.cancel((self.id, "abandon"))
            await self._enforce_access()

    async def resume(self) -> None:
        """After a restart: finish a game whose last action was stored but
        not its end (a crash in between), start a table stored waiting with
        every seat taken (written by a version that stored the last seat
        and the start apart), re-arm the timers, wake the bots."""
        if self.status == "playing" and self.match.is_over:
            async with self.lock:
                await self._finish()
        if self._may_start(self.seats):
            try:
                async with self.lock:
                    await self._seat_and_start([])
            except Exception:  # (it waits, as before, for a seat change or its start time)
                log.exception("table %s could not start on resume", self.id)
        self.arm_start()
        self.watch_alone()
        self._after_change()
        self._check_done()

    def arm_start(self) -> None:
        """A scheduled table: start it at its time (also after a restart)."""
        if not self.closed and self.status == "waiting" and self.settings.start_at is not None:
            self.timers.arm((self.id, "start"), self.settings.start_at, self._scheduled_start)

    async def _scheduled_start(self, _key: object) -> None:
        try:
            async with self.lock:
                if self.status != "waiting":
                    return
                await self._seat_and_start(self._bots_for_empty())
        except TableClosed:
            return
        except Exception as exc:  # e.g. a player can no longer pay the buy-in
            log.exception("scheduled start of table %s failed", self.id)
            await self.notify(f"the game could not start: {exc}")
            return
        await self.broadcast()
        self._after_change()

    # ----- play -----------------------------------------------------------------------
    async def act(self, conn: Connection | None, action: str, *, seat: int | None = None,
                  expect_seq: int | None = None, auto: bool = False, timeout: bool = False) -> None:  # fmt: skip
        """Apply ``action`` for the connection's seat (or ``seat`` for a bot)."""
        t0 = time.perf_counter()
        async with self.lock:
            t1 = time.perf_counter()
            if conn is not None:
                seat = self.seat_of(conn.player)
                if seat is None:
                    raise RoomError("you have no seat at this table")
            assert seat is not None
            if conn is None and not timeout and self._controller(seat) is None:
                raise RoomError("no bot plays this seat now")  # removed, or its human came back
            if self.status != "playing":
                raise RoomError(
                    "the game has not started" if self.status == "waiting" else "the game is over"
                )
            if expect_seq is not None and expect_seq != self.seq:
                raise RoomError("the table has moved on since your last update; try again")
            to_act = self.match.to_act_index
            if to_act != seat:
                who = "nobody" if to_act is None else self.match.seat_name(to_act)
                raise RoomError(f"it is not your turn ({who} to act)")
            at = self.clock.now()
            try:
                parsed = self.match.parse_action(action)
            except TrumpsError as exc:
                raise RoomError(str(exc)) from None
            # the checks Match.apply makes (game not over, seat to act, legal
            # action), made first, so the action can be stored before it is
            # applied without copying the match: a refused action or a failed
            # write leaves the match as it was
            legal = self.match.legal_actions()
            if parsed not in legal:
                raise RoomError(self.match.explain_illegal(parsed, legal))
            # commit first: nothing is shown that is not stored
            try:
                await self.store.write_action(self.id, self.seq + 1, seat, str(parsed), at, auto, timeout)
            except IntegrityError:
                # the action log already has this seq: another worker runs the
                # table now (the log's key is the fence, trumps.room.cluster)
                if self.on_fenced is not None:
                    self.on_fenced(self)
                raise RoomError("this table has moved to another server; reconnecting") from None
            t2 = time.perf_counter()
            deal_number = self.match.deal_number
            before = self.match.clone() if timeout else None  # what each receiver saw (the notice)
            self.match.apply(parsed, seat, time=at)
            if timeout:
                self.timeouts[seat] += 1
                self._timed_out_in_a_row[seat] += 1
                if self._timed_out_in_a_row[seat] >= IDLE_AFTER and self.seats[seat].player is not None:
                    self.idle.add(seat)
            elif conn is not None:  # the player moved: back, if away
                self._timed_out_in_a_row[seat] = 0
                self.idle.discard(seat)
            new_deal = self.match.deal_number != deal_number
            if new_deal:
                self._mark_deal_start()
            if new_deal and self.pending:
                for s_i, (player, name) in self.pending.items():  # a human takes over a bot between deals
                    await self.store.write(self.store.seat_write, self.id, s_i, player, None)
                    self.seats[s_i] = Seat(player, name, None)
                    self._seated_at[s_i] = self.seq
                self.pending.clear()
            stored_end = await self._finish(defer=True) if self.match.is_over else None
        if before is not None:  # told before the state that shows the automatic action
            await self._timeout_notice(seat, str(parsed), before)
        t3 = time.perf_counter()
        await self.broadcast()
        if stored_end is not None:
            await stored_end
        if timing.ENABLED:  # lock wait, commit wait, apply, broadcast
            timing.record("act", t1 - t0, t2 - t1, t3 - t2, time.perf_counter() - t3)
        self._after_change()
        self._check_done()

    async def _finish(self, *, defer: bool = False) -> asyncio.Future[None] | None:
        """The game is over.  With ``defer``, the status write of an ordinary
        table is only queued and returned, to be awaited after the final
        state is sent: the action that ended the game is already stored, and
        a table stored as playing whose log ends the game is finished again
        at start-up (:meth:`resume`), so the end costs no second commit wait
        (it did for the last action of every game).  A competition's pay-out
        is always made before anything is shown."""
        self.status = "finished"
        if self.policy is not None:  # ratings: after the end is stored (they are idempotent)
            self._spawn(self._tell_finished())
        if self.settings.competition:
            competition = self._chips()
            winner = self.match.winner
            entries: list[ChipEntry] = [
                {
                    "player": s.player,
                    "seat": i,
                    "won": winner is not None and self.match.team_of(i) == winner,
                    "score": self.match.scores[self.match.team_of(i)],
                    "deals": len(self.match.results),
                }
                for i, s in enumerate(self.seats)
                if s.player is not None
            ]
            sides = len(self.match.teams)
            buy_in = self.settings.buy_in
            draw = winner is None
            await self.store.run(
                competition.pay_out, self.store, self.id, self.game, buy_in, entries, sides, draw
            )
            return None
        write = asyncio.ensure_future(self.store.write(self.store.status_write, self.id, "finished"))
        if defer:
            return write
        await write
        return None

    async def _tell_finished(self) -> None:
        # the end (and any pay-out) is stored by then; told even if the table
        # was closed meanwhile (a finished table is not handed over)
        await self.lock.acquire()
        self.lock.release()
        if self.policy is not None:
            try:
                await self.policy.finished(self)
            except Exception:
                log.exception("after the end of table %s", self.id)

    def _after_change(self) -> None:
        """After any change: bots to act, the move timer, suggestions (none
        once the table is closed: it runs elsewhere now)."""
        if self.closed:
            return
        self._schedule_bot()
        self._arm_timer()
        if self.suggesting and self.status == "playing":
            self._spawn(self._send_suggestion())

    # ----- chat ---------------------------------------------------------------------
    async def say(self, conn: Connection, text: str | None, *, phrase: str | None = None) -> None:
        """A chat line, typed (``text``) or a preset phrase by its key
        (``phrase``; stored as its English text, shown to each reader in
        their language).  Players and spectators have separate channels;
        while the game is played the table's chat setting applies to the
        players' channel (before and after the game it is always open)."""
        if conn.player is None:
            raise RoomError("choose a name before chatting")
        if phrase is not None:
            if phrase not in PRESET_PHRASES:
                raise RoomError(f"no such phrase: {phrase}")
            text = PRESET_PHRASES[phrase]
        clean = " ".join((text or "").split())[:300]
        if not clean:
            raise RoomError("empty message")
        # the host counts as a player (a host may run the table without a seat)
        seated = self.seat_of(conn.player) is not None or conn.player == self.host
        channel = "players" if seated else "spectators"
        if not seated and not self.settings.spectator_chat:
            raise RoomError("spectator chat is off at this table")
        if seated and self.status == "playing":
            if self.settings.chat == "none":
                raise RoomError("chat is off while the game is played")
            if self.settings.chat == "preset" and clean not in PHRASE_OF_TEXT:
                raise RoomError("only the preset phrases can be sent while the game is played")
        self._throttle(self._chat_times, conn, CHAT_BURST)
        at = self.clock.now()
        seq = await self.store.run(
            self.store.append_chat, self.id, conn.player, conn.name, clean, at, channel
        )
        self.chat.append(
            {
                "seq": seq,
                "player": conn.player,
                "name": conn.name,
                "text": clean,
                "phrase": PHRASE_OF_TEXT.get(clean),
                "at": at,
                "channel": channel,
            }
        )
        await self.broadcast()

    def _throttle(self, book: dict[str, deque[float]], conn: Connection, burst: int) -> None:
        """At most ``burst`` uses per player, and ``ADDRESS_SHARE`` times that
        per person (:func:`person_of`: an account or address; a guest
        identity costs nothing to make), in any :data:`CHAT_WINDOW` seconds.
        The book forgets keys idle that long, so it stays as small as the
        people using it."""
        keys = {person_of(conn): burst * ADDRESS_SHARE}
        keys[conn.player or person_of(conn)] = burst  # (an account: its own key, the player's burst)
        now = self.clock.now()
        for who, old in list(book.items()):
            while old and now - old[0] >= CHAT_WINDOW:
                old.popleft()
            if not old and who not in keys:
                del book[who]
        if any(len(book.get(key, ())) >= most for key, most in keys.items()):
            raise RoomError("you are sending messages too fast; wait a few seconds")
        for key in keys:
            book.setdefault(key, deque()).append(now)

    # ----- timers ---------------------------------------------------------------------
    def _card_turn(self) -> bool:
        """Whether the seat to act chooses a card (play time) rather than a
        call, exchange or declaration (bid time)."""
        legal = self.match.legal_actions()
        return bool(legal) and all(isinstance(getattr(a, "card", a), Card) for a in legal)

    def _arm_timer(self) -> None:
        """Arm (or cancel) the move timer of the seat to act.  The deadline
        is the time of the last stored action (or the start) plus the
        limit, so it is the same after a restart."""
        key = (self.id, "move")
        if self.closed:  # (the timers are shared by key: never touch the new owner's)
            return
        seat = self.match.to_act_index
        timed = self.settings.bid_time or self.settings.play_time
        if (
            not timed
            or self.status != "playing"
            or seat is None
            or self.seats[seat].empty
            or self._controller(seat)
        ):
            self.timers.cancel(key)
            return
        limit = self.settings.time_limit(self._card_turn())
        if not limit:
            self.timers.cancel(key)
            return
        since = self.match.log[-1][2] if self.match.log else (self.started or self.clock.now())
        deadline = float(since if since is not None else self.clock.now()) + limit
        if self.timers.deadline(key) != deadline:
            self.timers.arm(key, deadline, self._on_timeout)

    async def _on_timeout(self, _key: object) -> None:
        """Time is up: in an auction the seat passes (a timer never bids, so
        it never wins a contract for an absent player); otherwise the rule
        bot's choice is played (never a forfeit)."""
        seat = self.match.to_act_index
        if self.status != "playing" or seat is None:
            return
        seq = self.seq
        if self._in_auction():
            choice = str(self.match.default_action())  # the pass (Match.default_action)
        else:
            choice = await self._bot_choice(seat, "rules")
        with contextlib.suppress(RoomError):  # the seat acted meanwhile
            await self.act(None, choice, seat=seat, expect_seq=seq, auto=True, timeout=True)

    def _in_auction(self) -> bool:
        return str(self.match.view(None).get("phase", "")).upper() == "AUCTION"

    async def back(self, conn: Connection) -> None:
        """A player marked away after running out of time takes the seat
        back ("I'm back"): the timer waits for them again."""
        async with self.lock:
            seat = self.seat_of(conn.player)
            if seat is None:
                raise RoomError("you have no seat at this table")
            if seat not in self.idle:
                raise RoomError("you are not marked away")
            self.idle.discard(seat)
            self._timed_out_in_a_row[seat] = 0
        await self.broadcast()
        self._after_change()

    async def leave_seat(self, player: str) -> None:
        """``player`` goes to play elsewhere (Play pressed while seated here,
        :mod:`trumps.room.people.play`): a waiting table's seat is freed; in a game
        under way the seat is marked away, a bot plays it at bot pace (the
        game is not stopped for them), and "I'm back" takes it again."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None or self.status not in LIVE:
                return
            if self.status == "waiting":
                await self.store.write(self.store.seat_write, self.id, seat, None, None)
                self.seats[seat] = Seat()
                self._seated_at.pop(seat, None)
            else:
                self.idle.add(seat)
        await self.broadcast()
        self._after_change()

    # ----- suggestions -------------------------------------------------------------------
    async def set_suggestions(self, conn: Connection, on: bool) -> None:
        """A player switches the bot's suggestions on or off for themselves."""
        if conn.player is None or self.seat_of(conn.player) is None:
            raise RoomError("only a player with a seat can ask for suggestions")
        if on and not self.settings.suggestions:
            if self.settings.competition:
                raise RoomError("suggestions are off at this table (a competition game)")
            raise RoomError("suggestions are off at this table")
        self._throttle(self._switch_times, conn, SUGGEST_SWITCHES)
        if on:
            self.suggesting.add(conn.player)
        else:
            self.suggesting.discard(conn.player)
        for c in list(self.connections):
            if c.player == conn.player:
                with contextlib.suppress(Exception):
                    await c.send(self.state_event(c))
        await self._send_suggestion()

    async def _send_suggestion(self) -> None:
        """If the seat to act asked for suggestions: the bot's choice, from
        that seat's own view only, sent to that player alone.  Computed at
        most once per state (kept by seq and seat) and never twice at once:
        asking again, switching on and off, or a second socket gets the one
        already made, or the one under way sends it when done."""
        seat = self.match.to_act_index
        if seat is None or self.status != "playing" or not self.settings.suggestions:
            return
        player = self.seats[seat].player
        if player is None or player not in self.suggesting:
            return
        seq = self.seq
        key = (seq, seat)
        if self._suggestion is not None and self._suggestion[0] == key:
            suggestion = self._suggestion[1]
        elif self._suggesting_for == key:
            return  # under way: it is sent to every socket of the player when done
        else:
            self._suggesting_for = key
            try:
                suggestion = await self._suggest(seat)
            finally:
                if self._suggesting_for == key:
                    self._suggesting_for = None
            self._suggestion = (key, suggestion)
        if self.seq != seq or player not in self.suggesting:
            return
        event = {"v": PROTOCOL_VERSION, "type": "suggestion", "seq": seq, **suggestion}
        for c in list(self.connections):
            if c.player == player:
                with contextlib.suppress(Exception):
                    await c.send(event)

    async def _suggest(self, seat: int) -> dict[str, Any]:
        """The ``normal`` bot's choice for ``seat`` with its reasons (the value
        of each candidate over the sampled deals), from that seat's view."""
        from trumps.bots.suggest import suggest

        legal = [str(a) for a in self.match.legal_actions()]
        view = self.match.view(seat)
        rng = random.Random(self._rng.getrandbits(64))
        try:
            got = await think(None, suggest, self.game, view, legal, SUGGESTION_LEVEL, rng)
            if got.get("action") in legal:
                return {"action": got["action"], "reasons": got.get("reasons")}
            log.error("suggestion %r is not legal at table %s", got.get("action"), self.id)
        except Exception:
            log.exception("suggestion failed at table %s; the rule bot's choice instead", self.id)
        return {"action": await self._bot_choice(seat, "rules"), "reasons": None}

    # ----- bots ----------------------------------------------------------------------
    def _schedule_bot(self) -> None:
        """Start the bot loop if a bot is to act and none is running."""
        if self.closed or self.status != "playing" or self.match.to_act_index is None:
            return
        if self._controller(self.match.to_act_index) is None:
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_loop())

    async def _bot_choice(self, seat: int, kind: str) -> str:
        """What bot ``kind`` plays for ``seat`` now, from that seat's view.
        A bot that fails for any reason (an exception, say a solver error,
        or an illegal choice) is logged and replaced by the ``rules`` bot,
        which needs no solver; only if that fails too does the seat play the
        match's default action, so a broken bot never stalls the table."""
        from trumps.bots.registry import bot_for

        legal = [str(a) for a in self.match.legal_actions()]
        for attempt in dict.fromkeys((kind, "rules")):
            try:
                bot = bot_for(self.game, attempt)
                view = self.match.view(seat) if bot.needs_view else {}
                choice = await think(attempt, bot.choose, view, legal, self._rng)
            except Exception:
                log.exception("bot %s failed at table %s", attempt, self.id)
                continue
            if choice in legal:
                return str(choice)
            log.error("bot %s chose illegal %r at table %s", attempt, choice, self.id)
        log.error("no bot could choose at table %s; playing the default action", self.id)
        return str(self.match.default_action())

    def _pause_factor(self) -> float:
        """How many bot delays to wait before the next bot move.  People need
        a moment to see a completed trick before it is gathered, and a
        deal's result before the next deal's first call."""
        v = self.match.view(None)
        if v.get("tricks") and not v.get("trick"):
            return TRICK_PAUSE
        if v.get("results") and not v.get("auction") and not v.get("tricks"):
            return DEAL_PAUSE
        return 1.0

    async def _bot_loop(self) -> None:
        while not self.closed and self.status == "playing" and self.match.to_act_index is not None:
            seat = self.match.to_act_index
            kind = self._controller(seat)
            if kind is None:
                return
            seq = self.seq
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay * self._pause_factor())
            if self.seq != seq:
                continue
            if self.seats[seat].bot is None and self._in_auction():
                # a stand-in for a person away passes: it never bids for them
                choice = str(self.match.default_action())
            else:
                choice = await self._bot_choice(seat, kind)
            try:
                await self.act(None, choice, seat=seat, expect_seq=seq, auto=True)
            except (TableClosed, StoreUnavailable):  # the latter is logged where it is detected
                return
            except RoomError:
                continue

    async def close(self) -> None:
        """Stop running here (called with the lock held): timers, bots, and
        every request still waiting for the lock (:class:`TableClosed`)."""
        self.closed = True
        self.timers.cancel((self.id, "move"))
        self.timers.cancel((self.id, "start"))
        self.timers.cancel((self.id, "abandon"))
        if self._bot_task is not None:
            self._bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._bot_task

    def error(self, reason: str) -> dict[str, object]:
        return error_event(reason, self.seq)
