"""Duplicate tournaments against the bots (issue 34): the tournaments, their
entrants and each entrant's score on each deal.  New tables only: every
existing row is kept as it is.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("game", sa.String(20), nullable=False, index=True),
        sa.Column("plan", sa.Text(), nullable=False),
        sa.Column("opens_at", sa.Float(), nullable=False),
        sa.Column("closes_at", sa.Float(), nullable=True),
        sa.Column("target", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.Column("daily_key", sa.String(40), nullable=True, unique=True),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True, index=True),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("started", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "tournament_scores",
        sa.Column("tournament_id", sa.String(32), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("deal", sa.Integer(), primary_key=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("contract", sa.String(24), nullable=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_scores")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
