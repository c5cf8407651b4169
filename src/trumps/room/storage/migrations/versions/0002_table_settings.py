"""Table settings (timers, chat, watching, invitations, suggestions, start
time, competition buy-in), invitations and bans, chat channels, timeouts,
play chips and competition results.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    with op.batch_alter_table("tables") as t:
        t.add_column(sa.Column("settings", sa.JSON, nullable=True))
        t.add_column(sa.Column("invite", sa.String(24), nullable=True))
        t.add_column(sa.Column("access", sa.JSON, nullable=True))
        t.add_column(sa.Column("started", sa.Float, nullable=True))
    with op.batch_alter_table("players") as t:
        t.add_column(sa.Column("chips", sa.Integer, nullable=False, server_default="1000"))
    with op.batch_alter_table("actions") as t:
        t.add_column(sa.Column("timeout", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("chat") as t:
        t.add_column(sa.Column("channel", sa.String(12), nullable=False, server_default="players"))
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("buy_in", sa.Integer, nullable=False),
        sa.Column("prize", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_invite", "tables", ["invite"], unique=True)
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", "seats")
    op.drop_index("ix_tables_invite", "tables")
    op.drop_table("results")
    with op.batch_alter_table("chat") as t:
        t.drop_column("channel")
    with op.batch_alter_table("actions") as t:
        t.drop_column("timeout")
    with op.batch_alter_table("players") as t:
        t.drop_column("chips")
    with op.batch_alter_table("tables") as t:
        t.drop_column("started")
        t.drop_column("access")
        t.drop_column("invite")
        t.drop_column("settings")
