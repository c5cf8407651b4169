"""Run the card room with uvicorn: ``trumps serve``."""

from __future__ import annotations

from trumps.core.errors import TrumpsError

__all__ = ["check_database", "serve"]


def check_database(db: str) -> None:
    """Open (and migrate) ``db`` once, so a bad URL or an unreachable server
    is one readable error before the server starts."""
    from trumps.room.store import Store

    try:
        Store(db).close()
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise TrumpsError(f"cannot open database {db!r}: {reason}") from None


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///trumps.db", bot_delay: float = 0.6
) -> None:
    """Serve the room until interrupted.  ``db`` is an SQLAlchemy URL
    (SQLite file by default; ``postgresql+psycopg://...`` works too)."""
    import uvicorn

    from trumps.room.app import create_app

    check_database(db)
    print(f"trumps card room on http://{host}:{port}/  (database {db})", flush=True)
    # no per-message deflate: table states are small, and its per-connection
    # state was two thirds of an idle table's memory (docs/benchmarks.md)
    uvicorn.run(
        create_app(db, bot_delay=bot_delay, tune_gc=True),
        host=host,
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
    )
