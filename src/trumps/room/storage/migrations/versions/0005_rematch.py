"""Play again: a finished table names the table its players went on to
(``rematch``), so that every player who presses Play again reaches the same
new table, in their own seat, on any worker and after a restart (issue 30).
Existing tables keep every value; the new column is empty.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    # plain ADD COLUMN (no batch): SQLite must not copy "tables", which seats,
    # actions and chat point at
    op.add_column("tables", sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as t:
        t.drop_column("rematch")
