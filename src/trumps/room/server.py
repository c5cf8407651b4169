"""Run the card room with uvicorn: ``trumps serve``."""

from __future__ import annotations

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str = "sqlite:///trumps.db", bot_delay: float = 0.6
) -> None:
    """Serve the room until interrupted.  ``db`` is an SQLAlchemy URL
    (SQLite file by default; ``postgresql+psycopg://...`` works too)."""
    import uvicorn

    from trumps.room.app import create_app

    print(f"trumps card room on http://{host}:{port}/  (database {db})", flush=True)
    uvicorn.run(create_app(db, bot_delay=bot_delay), host=host, port=port, log_level="warning")
