"""Alembic environment: runs on the connection the room hands over."""

from __future__ import annotations

from alembic import context

from trumps.room.storage.db import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only when run from the alembic CLI
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///trumps.db"
    connection = create_engine(url).connect()
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
