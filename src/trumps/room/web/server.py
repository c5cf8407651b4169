"""Run the card room with uvicorn: ``trumps serve``.

One process on SQLite (the default: nothing to set up), or any number of
workers on PostgreSQL (:mod:`trumps.room.cluster`): started by hand on any
hosts behind a proxy (``deploy/nginx``), or ``--workers N`` on one machine
behind one port (uvicorn's supervisor; the kernel spreads connections)."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from trumps.core.errors import TrumpsError

if TYPE_CHECKING:
    import socket

    import uvicorn
    from starlette.applications import Starlette

__all__ = ["WORKER_NAME", "check_database", "serve", "sqlite_path", "worker_app"]

# a worker name travels in a socket's URL (?worker=...) and in nginx's map
WORKER_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")

#: seconds a stopping worker may spend handing its tables over before its sockets close
HANDOVER_LIMIT = 30.0

_HELD: list[int] = []  # the SQLite database file stays open (and flock-ed) while serving


def shown(db: str) -> str:
    """``db`` as it may be printed or logged: without its password (a
    deployer's terminal, logs and bug reports are read by others).  Masked
    by text, not by parsing (a URL that does not parse is printed too, in
    its error): everything between the user name and the last ``@``, and
    every ``password=`` value (libpq's query parameters and key=value
    strings, ``sslpassword`` too)."""
    out = re.sub(r"(//[^/:@]*):.*@", r"\1:***@", db)
    return re.sub(r"(password\s*=\s*)[^&\s]*", r"\1***", out, flags=re.IGNORECASE)


def startup_line(host: str, port: int, db: str, workers: int) -> str:
    return f"trumps card room on http://{host}:{port}/  (database {shown(db)}, {workers} worker(s))"


def check_database(db: str) -> None:
    """Open (and migrate) ``db`` once, so a bad URL or an unreachable server
    is one readable error before the server starts."""
    from trumps.room.storage.store import Store

    try:
        Store(db).close()
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        url, db = db, shown(db)  # never the password
        reason = reason.replace(url, db)
        raise TrumpsError(f"cannot open database {db!r}: {reason}") from None


def sqlite_path(db: str) -> str | None:
    """The file of an SQLite URL (None for other databases or in memory)."""
    from trumps.room.storage.db import sqlite_file

    return sqlite_file(db)


def hold_sqlite(db: str) -> None:
    """SQLite serves one process: a second ``trumps serve`` on the same
    database would run the same tables twice (one player seated N there
    and E here).  So the server holds an exclusive ``flock`` on the
    database file itself for its whole life, taken before the database is
    opened or migrated: the lock belongs to the file (its inode), so a
    second server is refused however it names the file (``?timeout=5``, a
    symlink, a hard link, a relative path).  ``flock`` locks are apart from
    the POSIX locks SQLite takes on the same file (Linux; the lock does not
    stop SQLite in this process or any other, tests/room/attacks/test_store.py);
    the descriptor is never closed, so it cannot drop SQLite's locks either."""
    import fcntl

    path = sqlite_path(db)
    if path is None:
        return
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    try:  # created here if new: SQLite takes an empty file as an empty database
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise TrumpsError(f"cannot open database {shown(db)!r}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)  # no SQLite connection in this process yet: no lock of its to drop
        raise TrumpsError(
            f"another trumps serve is already using {path}: SQLite serves one process; "
            "for several workers use PostgreSQL (--db postgresql+psycopg://..., see docs/scaling.md)"
        ) from None
    _HELD.append(fd)


class UvicornLimits(TypedDict):
    """The settings :func:`uvicorn_limits` gives uvicorn."""

    ws_max_size: int
    proxy_headers: bool
    forwarded_allow_ips: list[str]


class _UvicornSettings(UvicornLimits):
    """Every setting :func:`serve` gives uvicorn's server."""

    host: str
    port: int
    log_level: str
    ws_per_message_deflate: bool


def worker_app() -> Starlette:
    """The app of one of ``--workers N`` (uvicorn imports it in each process)."""
    from trumps.room.web.app import create_app

    db = os.environ["TRUMPS_SERVE_DB"]
    delay = float(os.environ.get("TRUMPS_SERVE_BOT_DELAY", "0.6"))
    unmetered = tuple(a for a in os.environ.get("TRUMPS_SERVE_UNMETERED", "").split(",") if a)
    return create_app(db, bot_delay=delay, tune_gc=True, cluster=True, unmetered=unmetered)


def uvicorn_limits(trusted_proxies: tuple[str, ...] = ()) -> UvicornLimits:
    """uvicorn's settings for what a client may send and claim: WebSocket
    messages over :data:`~trumps.room.limits.WS_MAX_SIZE` close the socket
    (1009) as they arrive (uvicorn's default is 16 MB, read before the
    room's 4 KB check), and forwarded headers are believed only from
    ``trusted_proxies`` (uvicorn's default believes 127.0.0.1)."""
    from trumps.room.limits import WS_MAX_SIZE

    return {
        "ws_max_size": WS_MAX_SIZE,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": list(trusted_proxies) if trusted_proxies else [],
    }


def _handover_server() -> type[uvicorn.Server]:
    """uvicorn's Server with the handover first (made on call: uvicorn is imported only to serve)."""
    import asyncio
    import logging

    import uvicorn

    from trumps.room.web.stopping import wait_for_http_connections

    class HandoverServer(uvicorn.Server):
        """uvicorn's server, but a worker stopped normally hands its tables
        over *before* its sockets are closed: uvicorn closes every socket
        first and runs the app's shutdown after, so the tables would move
        only once their sockets had gone, and those sockets would come back
        through a worker that still ran them, to move again (a rolling
        restart's stall; docs/scaling.md).  Then, on a worker of several, it
        waits for its proxy to close the pooled HTTP connections rather than
        closing them under a request in flight (trumps.room.web.stopping)."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for server in self.servers:
                server.close()  # no new socket lands here while the tables move
            hand_over = getattr(getattr(self.config.app, "state", None), "hand_over", None)
            clustered = False
            if hand_over is not None and not self.force_exit:
                try:  # bounded: a database that hangs must not hold the stop for ever
                    clustered = await asyncio.wait_for(hand_over(), HANDOVER_LIMIT)
                except Exception:  # the normal shutdown still runs (and hands over what is left)
                    logging.getLogger("trumps.cluster").exception("handover failed")
                    clustered = True
            if clustered:  # let the proxy close its pooled connections (trumps.room.web.stopping)
                await wait_for_http_connections(
                    self.server_state.connections,
                    self.config.timeout_keep_alive + 1.0,
                    lambda: bool(self.force_exit),
                )
            await super().shutdown(sockets)

    return HandoverServer


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "sqlite:///trumps.db",
    bot_delay: float = 0.6,
    workers: int = 1,
    worker_name: str | None = None,
    trusted_proxies: tuple[str, ...] = (),
    unmetered: tuple[str, ...] = (),
) -> None:
    """Serve the room until interrupted.  ``db`` is an SQLAlchemy URL
    (SQLite file by default; ``postgresql+psycopg://...`` for several
    workers).  ``workers``: processes on this machine sharing the port.
    ``worker_name``: this worker's name, as the proxy's table-socket routing
    knows it (docs/scaling.md); random by default.  ``trusted_proxies``:
    the addresses whose ``X-Forwarded-For`` / ``-Proto`` headers are
    believed (none by default: uvicorn would believe any local peer, so
    any program on the machine could pass for any address and spend
    another's budgets).  ``unmetered``: client addresses the per-address
    budgets do not count (trumps.room.limits)."""
    import uvicorn

    from trumps.room.web.app import create_app

    if workers < 1:
        raise TrumpsError("--workers must be at least 1")
    if worker_name is not None:
        if not WORKER_NAME.fullmatch(worker_name):
            raise TrumpsError(f"--worker-name {worker_name!r}: use 1-40 letters, digits, '-' or '_'")
        if workers > 1:
            raise TrumpsError(
                "--worker-name names one worker: start named workers one by one, not with --workers"
            )
        if not db.startswith("postgresql"):
            raise TrumpsError("--worker-name is for one of several workers on PostgreSQL (docs/scaling.md)")
    if workers > 1 and not db.startswith("postgresql"):
        raise TrumpsError(
            "several workers need PostgreSQL (--db postgresql+psycopg://user@host/db): "
            "SQLite serves one process (docs/scaling.md)"
        )
    hold_sqlite(db)  # first: a second server must not even migrate the database
    check_database(db)
    print(startup_line(host, port, db, workers), flush=True)
    # no per-message deflate: table states are small, and its per-connection
    # state was two thirds of an idle table's memory (docs/benchmarks.md)
    common: _UvicornSettings = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "ws_per_message_deflate": False,
        **uvicorn_limits(trusted_proxies),
    }
    if workers == 1:
        app = create_app(db, bot_delay=bot_delay, tune_gc=True, worker=worker_name, unmetered=unmetered)
        server = _handover_server()(uvicorn.Config(app, **common))
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        if not server.started:  # as uvicorn.run: the reason was logged (a port in use...)
            raise TrumpsError(f"the room could not start on {host}:{port}")
        return
    os.environ["TRUMPS_SERVE_DB"] = db
    os.environ["TRUMPS_SERVE_UNMETERED"] = ",".join(unmetered)
    os.environ["TRUMPS_SERVE_BOT_DELAY"] = str(bot_delay)
    uvicorn.run("trumps.room.web.server:worker_app", factory=True, workers=workers, **common)
