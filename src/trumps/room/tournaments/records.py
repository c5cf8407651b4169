"""The tournaments' rows: made, entered, scored, read (synchronous; the room
runs these on the database thread, ``await store.run(fn, store, ...)``).

Every write is one transaction and idempotent, so a crash and a restart
never lose an acknowledged score nor store one twice: a deal's score has the
key (tournament, player, deal), and a daily tournament the unique key of its
game and day, so two workers that make it at once make it once.  Rankings
are not stored: :func:`scores` reads what the ranking is computed from.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from trumps.room.storage.db import DealScoreRow, EntryRow, TournamentRow
from trumps.room.storage.store import Store
from trumps.room.tables.errors import RoomError
from trumps.tournaments import TournamentPlan, scorings

__all__ = [
    "DAY",
    "Board",
    "Entry",
    "Start",
    "Tournament",
    "TournamentDeskError",
    "UnknownTournamentError",
    "board",
    "claim_table",
    "ensure_daily",
    "ensure_instant",
    "enter",
    "entries",
    "entries_of",
    "get",
    "listing",
    "record_score",
    "scores",
    "set_table",
    "set_table_write",
    "start_play",
]

DAY = 86_400.0


class TournamentDeskError(RoomError):
    """A tournament request refused with a message fit to show the player."""


class UnknownTournamentError(TournamentDeskError):
    """An id that names no tournament."""


@dataclass(frozen=True)
class Tournament:
    """A stored tournament, as the room reads it."""

    id: str
    kind: str  # daily, instant
    plan: TournamentPlan
    opens_at: float
    closes_at: float | None
    target: int | None
    closed_at: float | None

    def is_open(self, now: float) -> bool:
        if self.closed_at is not None or now < self.opens_at:
            return False
        return self.closes_at is None or now < self.closes_at


@dataclass(frozen=True)
class Entry:
    """One person's entry: their scores so far, by deal, and the table of the
    deal they are playing."""

    player: str
    ranked: bool
    finished: float | None
    table_id: str | None
    scores: dict[int, int]


@dataclass(frozen=True)
class Start:
    """What :func:`start_play` found: the tournament (None: no such id), the
    person's entry (None: not entered, the tournament being closed or
    theirs to enter only with an account), and whether this request now
    holds the making of their next deal's table."""

    tournament: Tournament | None
    entry: Entry | None
    claimed: bool


@dataclass(frozen=True)
class Board:
    """Everything a tournament's page is computed from, read at once: every
    entrant (ranked or not, and the table they are at) and every score."""

    tournament: Tournament
    entrants: dict[str, tuple[bool, str | None]]  # player -> (ranked, table of their current deal)
    results: list[tuple[str, int, int, str | None, str]]  # player, deal, score, contract, table

    def scores(self) -> dict[str, tuple[bool, dict[int, int]]]:
        """As :func:`scores`: every entrant's scores by deal, and whether ranked."""
        out: dict[str, tuple[bool, dict[int, int]]] = {p: (r, {}) for p, (r, _t) in self.entrants.items()}
        for p, d, v, _c, _t in self.results:
            if p in out:
                out[p][1][d] = v
        return out

    def deal_results(self, deal: int) -> list[tuple[str, int, str | None, str]]:
        """As :func:`deal_results`: (player, score, contract, table) on one deal."""
        return [(p, v, c, t) for p, d, v, c, t in self.results if d == deal]


def _row(t: TournamentRow) -> Tournament:
    return Tournament(
        t.id, t.kind, TournamentPlan.parse(t.plan), t.opens_at, t.closes_at, t.target, t.closed_at
    )


def ensure_daily(store: Store, now: float, games: list[str], bots: str) -> None:
    """Make today's daily tournament of each of ``games`` (UTC days) unless
    it exists: the key of its game and day is unique, so a worker that
    loses the race to make it finds it made (and plays the winner's plan:
    each worker draws its own secret seed)."""
    day = datetime.fromtimestamp(now, UTC).date()
    opens = datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()
    for game in games:
        key = f"{game}/{day.isoformat()}"
        with store.sessions() as s:
            if s.scalar(select(TournamentRow.id).where(TournamentRow.daily_key == key)) is not None:
                continue
        # a secret seed: a seed derived from the day would let anyone deal
        # the tournament's cards, the bots' hidden hands included, offline
        plan = TournamentPlan.daily(game, day, seed=secrets.randbelow(2**62), bots=bots)
        row = TournamentRow(
            id=secrets.token_urlsafe(9), kind="daily", game=plan.game, plan=str(plan),
            opens_at=opens, closes_at=opens + DAY, daily_key=key,
        )  # fmt: skip
        try:
            with store.sessions.begin() as s:
                s.add(row)
        except IntegrityError:  # another worker made it first
            continue


def make_instant(store: Store, plan: TournamentPlan, target: int, now: float) -> str:
    """A new instant tournament: open from ``now`` until ``target`` people
    have played every deal (a day at most)."""
    tid = secrets.token_urlsafe(9)
    with store.sessions.begin() as s:
        s.add(
            TournamentRow(
                id=tid, kind="instant", game=plan.game, plan=str(plan), opens_at=now,
                closes_at=now + DAY, target=target,
            )
        )  # fmt: skip
    return tid


def ensure_instant(store: Store, now: float, games: list[str], bots: str, deals: int, target: int) -> None:
    """An open instant tournament of each of ``games`` and each way the game's
    tournaments are scored (matchpoints, and cross-IMPs too where the game
    names them), with the daily one's rules, ``deals`` deals and a new
    seed: when one closes, the next request makes another.  Two workers may
    each make one at the same moment: two are open then, both played to
    the end."""
    with store.sessions() as s:
        have = {
            (game, TournamentPlan.parse(plan).scoring)
            for game, plan in s.execute(
                select(TournamentRow.game, TournamentRow.plan).where(
                    TournamentRow.kind == "instant",
                    TournamentRow.closed_at.is_(None),
                    TournamentRow.closes_at > now,
                )
            ).all()
        }
    for game in games:
        for scoring in scorings(game):
            if (game, scoring) in have:
                continue
            daily = TournamentPlan.daily(game, datetime.fromtimestamp(now, UTC).date(), bots=bots)
            plan = TournamentPlan(
                daily.game, min(deals, daily.deals), secrets.randbelow(2**62), daily.preset, (), scoring, bots
            )
            make_instant(store, plan, target, now)


def get(store: Store, tid: str) -> Tournament | None:
    with store.sessions() as s:
        row = s.get(TournamentRow, tid)
        return None if row is None else _row(row)


def listing(store: Store, now: float) -> list[tuple[Tournament, int, int]]:
    """The open tournaments, with their number of entrants and of those who
    finished, daily ones first, then by closing time."""
    with store.sessions() as s:
        rows = s.scalars(
            select(TournamentRow).where(
                TournamentRow.closed_at.is_(None),
                TournamentRow.opens_at <= now,
                TournamentRow.closes_at > now,
            )
        ).all()
        counts = dict(
            s.execute(
                select(EntryRow.tournament_id, func.count())
                .where(EntryRow.tournament_id.in_([r.id for r in rows]))
                .group_by(EntryRow.tournament_id)
            ).all()
        )
        done = dict(
            s.execute(
                select(EntryRow.tournament_id, func.count())
                .where(EntryRow.tournament_id.in_([r.id for r in rows]), EntryRow.finished.is_not(None))
                .group_by(EntryRow.tournament_id)
            ).all()
        )
    out = [(_row(r), int(counts.get(r.id, 0)), int(done.get(r.id, 0))) for r in rows]
    out.sort(key=lambda x: (x[0].kind != "daily", x[0].closes_at or 0.0, x[0].plan.game))
    return out


def entry(store: Store, tid: str, player: str) -> Entry | None:
    """``player``'s entry in tournament ``tid``, or None."""
    with store.sessions() as s:
        row = s.get(EntryRow, (tid, player))
        return None if row is None else _entry(s, tid, row)


def _entry(s: Session, tid: str, row: EntryRow) -> Entry:
    got = s.execute(
        select(DealScoreRow.deal, DealScoreRow.score).where(
            DealScoreRow.tournament_id == tid, DealScoreRow.player_id == row.player_id
        )
    ).all()
    return Entry(row.player_id, row.ranked, row.finished, row.table_id, {int(d): int(v) for d, v in got})


def start_play(
    store: Store, tid: str, player: str, account: bool, now: float, marker: str, stale_before: float
) -> Start:
    """The start of ``POST .../play`` in one transaction (a busy room's
    database thread has a queue, and every call waits in it): read the
    tournament, enter ``player`` if they may (an open tournament; a daily
    one with an account), read their entry, and reserve the making of their
    next deal's table as :func:`claim_table` does when they have no table
    and deals are left."""
    for _attempt in range(2):
        try:
            return _start_play(store, tid, player, account, now, marker, stale_before)
        except IntegrityError:  # entered at the same moment from another page: read it again
            continue
    return _start_play(store, tid, player, account, now, marker, stale_before)


def _start_play(
    store: Store, tid: str, player: str, account: bool, now: float, marker: str, stale_before: float
) -> Start:
    with store.sessions.begin() as s:
        trow = s.get(TournamentRow, tid)
        if trow is None:
            return Start(None, None, False)
        t = _row(trow)
        if not t.is_open(now) or (t.kind == "daily" and not account):
            return Start(t, None, False)
        row = s.get(EntryRow, (tid, player))
        if row is None:
            row = EntryRow(tournament_id=tid, player_id=player, ranked=account, started=now)
            s.add(row)
            s.flush()
        e = _entry(s, tid, row)
        current = e.table_id
        if not _free(current, stale_before) or len(e.scores) >= t.plan.deals:
            return Start(t, e, False)
        return Start(t, e, _reserve(s, tid, player, current, marker))


def board(store: Store, tid: str) -> Board | None:
    """A tournament with every entrant and score (None: no such id)."""
    with store.sessions() as s:
        trow = s.get(TournamentRow, tid)
        if trow is None:
            return None
        entrants = {
            p: (bool(r), t)
            for p, r, t in s.execute(
                select(EntryRow.player_id, EntryRow.ranked, EntryRow.table_id).where(
                    EntryRow.tournament_id == tid
                )
            ).all()
        }
        results = [
            (p, int(d), int(v), c, t)
            for p, d, v, c, t in s.execute(
                select(
                    DealScoreRow.player_id, DealScoreRow.deal, DealScoreRow.score, DealScoreRow.contract,
                    DealScoreRow.table_id,
                ).where(DealScoreRow.tournament_id == tid)
            ).all()
        ]  # fmt: skip
        return Board(_row(trow), entrants, results)


def entries(store: Store, tids: list[str], player: str) -> dict[str, Entry]:
    """``player``'s entries in the tournaments ``tids``, by tournament."""
    with store.sessions() as s:
        rows = s.scalars(
            select(EntryRow).where(EntryRow.player_id == player, EntryRow.tournament_id.in_(tids))
        ).all()
        got: dict[str, dict[int, int]] = {}
        for t, d, v in s.execute(
            select(DealScoreRow.tournament_id, DealScoreRow.deal, DealScoreRow.score).where(
                DealScoreRow.player_id == player, DealScoreRow.tournament_id.in_(tids)
            )
        ).all():
            got.setdefault(t, {})[int(d)] = int(v)
        return {
            r.tournament_id: Entry(player, r.ranked, r.finished, r.table_id, got.get(r.tournament_id, {}))
            for r in rows
        }


def enter(store: Store, tid: str, player: str, ranked: bool, now: float) -> None:
    """Enter ``player`` (once: entering again changes nothing)."""
    try:
        with store.sessions.begin() as s:
            if s.get(EntryRow, (tid, player)) is None:
                s.add(EntryRow(tournament_id=tid, player_id=player, ranked=ranked, started=now))
    except IntegrityError:  # entered at the same moment from another page
        pass


def set_table(store: Store, tid: str, player: str, table_id: str | None) -> None:
    """The table ``player`` plays their current deal at (None: between deals)."""
    with store.sessions.begin() as s:
        row = s.get(EntryRow, (tid, player))
        if row is not None:
            row.table_id = table_id


def set_table_write(conn: Connection, tid: str, player: str, table_id: str | None) -> None:
    """:func:`set_table` as a write of the room's group commit
    (``store.write``): committed with, and after, the new table's own rows."""
    conn.execute(
        update(EntryRow)
        .where(EntryRow.tournament_id == tid, EntryRow.player_id == player)
        .values(table_id=table_id)
    )


def claim_table(store: Store, tid: str, player: str, marker: str, stale_before: float) -> str | None:
    """Reserve the making of ``player``'s next table: their entry's table
    becomes ``marker`` (``pending:<time>``) if it has none, or only a
    reservation older than ``stale_before`` (a worker that died while making
    it).  None when reserved; else what holds the place (a table id, or
    another request's reservation).  One compare-and-set, so two requests at
    once, on two workers, never make two tables of one deal."""
    with store.sessions.begin() as s:
        row = s.get(EntryRow, (tid, player))
        if row is None:
            return "?"
        current = row.table_id
        if not _free(current, stale_before):
            assert current is not None
            return current
        return None if _reserve(s, tid, player, current, marker) else "?"


def _free(current: str | None, stale_before: float) -> bool:
    """Whether an entry's table place may be reserved: empty, or held only
    by a reservation older than ``stale_before`` (a worker that died)."""
    return current is None or (current.startswith("pending:") and float(current[8:]) < stale_before)


def _reserve(s: Session, tid: str, player: str, current: str | None, marker: str) -> bool:
    """The compare-and-set: the entry's table place becomes ``marker`` if it
    still holds ``current``."""
    result = s.execute(
        update(EntryRow)
        .where(
            EntryRow.tournament_id == tid,
            EntryRow.player_id == player,
            EntryRow.table_id.is_(None) if current is None else EntryRow.table_id == current,
        )
        .values(table_id=marker)
    )
    return getattr(result, "rowcount", 0) == 1


def record_score(
    store: Store,
    tid: str,
    player: str,
    deal: int,
    score: int,
    contract: str | None,
    table_id: str,
    now: float,
) -> bool:
    """Store ``player``'s score on ``deal`` (the first one stored stays: a
    deal is not played twice); their entry is finished once every deal has
    a score, and an instant tournament closes when its target of finished
    entrants is reached.  Whether this call stored it."""
    with store.sessions.begin() as s:
        t = s.get(TournamentRow, tid)
        e = s.get(EntryRow, (tid, player))
        if t is None or e is None:
            return False
        if s.get(DealScoreRow, (tid, player, deal)) is not None:
            return False
        s.add(
            DealScoreRow(
                tournament_id=tid, player_id=player, deal=deal, score=score, contract=contract,
                table_id=table_id, at=now,
            )
        )  # fmt: skip
        s.flush()
        played = s.scalar(
            select(func.count()).where(DealScoreRow.tournament_id == tid, DealScoreRow.player_id == player)
        )
        if e.table_id == table_id:
            e.table_id = None
        plan = TournamentPlan.parse(t.plan)
        if played is not None and played >= plan.deals and e.finished is None:
            e.finished = now
            s.flush()
            if t.target is not None and t.closed_at is None:
                finished = s.scalar(
                    select(func.count()).where(EntryRow.tournament_id == tid, EntryRow.finished.is_not(None))
                )
                if finished is not None and finished >= t.target:
                    t.closed_at = now
        return True


def scores(store: Store, tid: str) -> dict[str, tuple[bool, dict[int, int]]]:
    """Every entrant's scores by deal, with whether the entrant is ranked."""
    with store.sessions() as s:
        ranked = dict(
            s.execute(select(EntryRow.player_id, EntryRow.ranked).where(EntryRow.tournament_id == tid)).all()
        )
        out: dict[str, tuple[bool, dict[int, int]]] = {p: (bool(r), {}) for p, r in ranked.items()}
        for p, d, v in s.execute(
            select(DealScoreRow.player_id, DealScoreRow.deal, DealScoreRow.score).where(
                DealScoreRow.tournament_id == tid
            )
        ).all():
            if p in out:
                out[p][1][int(d)] = int(v)
        return out


def deal_results(store: Store, tid: str, deal: int) -> list[tuple[str, int, str | None, str]]:
    """Everyone's result on one deal: (player, score, contract, table)."""
    with store.sessions() as s:
        return [
            (p, int(v), c, t)
            for p, v, c, t in s.execute(
                select(
                    DealScoreRow.player_id, DealScoreRow.score, DealScoreRow.contract, DealScoreRow.table_id
                ).where(DealScoreRow.tournament_id == tid, DealScoreRow.deal == deal)
            ).all()
        ]


def entries_of(store: Store, player: str, limit: int = 20) -> list[tuple[Tournament, int, float | None]]:
    """``player``'s latest tournaments (the newest first): each with the deals
    they played and when they finished (None: not every deal)."""
    with store.sessions() as s:
        rows = s.execute(
            select(TournamentRow, EntryRow.finished)
            .join(EntryRow, EntryRow.tournament_id == TournamentRow.id)
            .where(EntryRow.player_id == player)
            .order_by(EntryRow.started.desc())
            .limit(limit)
        ).all()
        played = dict(
            s.execute(
                select(DealScoreRow.tournament_id, func.count())
                .where(
                    DealScoreRow.player_id == player, DealScoreRow.tournament_id.in_([t.id for t, _ in rows])
                )
                .group_by(DealScoreRow.tournament_id)
            ).all()
        )
        return [(_row(t), int(played.get(t.id, 0)), finished) for t, finished in rows]
