"""Which worker runs which table: PostgreSQL advisory locks.

A worker owns a live table while it holds the table's session-level
advisory lock on its own dedicated connection.  When the worker dies (even
``kill -9``) the server closes that connection and every lock it held is
free at once; the other workers find such tables on their next scan
(:meth:`Ownership.orphans`, once a second) and take them.  No lease has to
expire, so a takeover is as fast as the scan.

A lock is not a fence: a worker cut off from the database might still
believe it owns a table.  The action log's primary key ``(table_id, seq)``
is the last guard: a stale owner's next action collides with the new
owner's and is refused by the database, and the stale worker drops every
table as soon as its lock connection fails (:meth:`Ownership.check`).
"""

from __future__ import annotations

import asyncio

import psycopg
from psycopg.rows import TupleRow

from trumps.room.cluster.bus import conninfo

__all__ = ["Ownership"]

# the table's lock key: a 64-bit hash of its id (collisions are harmless: a
# worker's locks are re-entrant, and the orphan scan ignores this worker's own)
_KEY = "hashtextextended(%s, 0)"

ORPHANS = """
SELECT t.id FROM tables t
WHERE t.status IN ('waiting', 'playing')
  AND NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND l.pid <> pg_backend_pid()
      AND l.classid::bigint = ((hashtextextended(t.id, 0) >> 32) & 4294967295)
      AND l.objid::bigint = (hashtextextended(t.id, 0) & 4294967295))
ORDER BY t.created
LIMIT %s
"""


class Ownership:
    """The advisory locks of one worker, on one connection kept for them."""

    def __init__(self, url: str) -> None:
        self.dsn = conninfo(url)
        self._conn: psycopg.AsyncConnection[TupleRow] | None = None
        self._lock = asyncio.Lock()  # one statement at a time on the connection

    async def start(self) -> None:
        self._conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)

    async def stop(self) -> None:
        """Close the connection: every lock this worker still holds is freed."""
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _one(self, sql: str, *args: object) -> object:
        assert self._conn is not None, "ownership not started"
        async with self._lock:
            cur = await self._conn.execute(sql, args)
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def claim(self, tid: str) -> bool:
        """Take the table if nobody holds it (never waits)."""
        return bool(await self._one(f"SELECT pg_try_advisory_lock({_KEY})", tid))

    async def release(self, tid: str) -> None:
        await self._one(f"SELECT pg_advisory_unlock({_KEY})", tid)

    async def orphans(self, limit: int = 500) -> list[str]:
        """Unfinished tables nobody else holds (this worker's own included:
        the caller skips those it runs)."""
        assert self._conn is not None, "ownership not started"
        async with self._lock:
            cur = await self._conn.execute(ORPHANS, (limit,))
            rows = await cur.fetchall()
        return [r[0] for r in rows]

    async def held(self) -> int:
        """How many table locks this worker's connection holds; raises if
        the connection is gone (the locks with it)."""
        n = await self._one(
            "SELECT count(*) FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'"
        )
        assert isinstance(n, int), n  # count(*) is a bigint
        return n

    async def check(self) -> bool:
        """Whether the lock connection (and so every lock) is still there."""
        try:
            await self._one("SELECT 1")
            return True
        except psycopg.Error:
            return False
