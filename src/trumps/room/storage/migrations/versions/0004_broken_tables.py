"""Broken tables: a table whose stored actions cannot be replayed at a
start-up is set aside with status ``broken``, when and why (issue 29: one
bad record must not stop the room from starting, nor crash it in a loop).
Existing tables keep every value; the new columns are empty.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    # plain ALTER TABLE ... ADD COLUMN (no batch): SQLite must not copy "tables", which
    # seats, actions and chat point at
    op.add_column("tables", sa.Column("broken_at", sa.Float, nullable=True))
    op.add_column("tables", sa.Column("broken_reason", sa.String(500), nullable=True))


def downgrade() -> None:
    # a broken table goes back to being resumed at each start (its mark is lost)
    op.execute(sa.text("UPDATE tables SET status = 'playing' WHERE status = 'broken'"))
    with op.batch_alter_table("tables") as t:
        t.drop_column("broken_reason")
        t.drop_column("broken_at")
