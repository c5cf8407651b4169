"""Accounts, sessions, login throttling, friends, blocks, invitations,
results of every finished game, and ratings.  Existing players stay as guests with their chips and games; they
are marked as having had their starting chips, so turning one into an
account grants nothing twice.  New guests start with no chips.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    _accounts()
    _people()
    _results()


def _accounts() -> None:
    """The account columns of ``players``, sessions and login throttling."""
    # plain ALTER TABLE ... ADD COLUMN (no batch): SQLite must not copy "players", which
    # every other table points at
    op.add_column("players", sa.Column("username_key", sa.String(24), nullable=True))
    op.add_column("players", sa.Column("password_hash", sa.String(255), nullable=True))
    op.add_column("players", sa.Column("registered", sa.Float, nullable=True))
    op.add_column(
        "players", sa.Column("chips_granted", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("players", sa.Column("prefs", sa.JSON, nullable=True))
    # a unique index, not a constraint: SQLite adds it without copying the table (a copy of
    # "players" under foreign keys would fail with rows pointing at it).  New guests get
    # no chips from the model's default; the column's server default stays as it was.
    op.create_index("uq_players_username_key", "players", ["username_key"], unique=True)
    op.execute(sa.text("UPDATE players SET chips_granted = :yes").bindparams(yes=True))
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("revoked", sa.Float, nullable=True),
        sa.Column("agent", sa.String(200), nullable=False, server_default=""),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("last", sa.Float, nullable=False),
    )


def _people() -> None:
    """Friends, blocks and invitations."""
    op.create_table(
        "friends",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("friend_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("accepted", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_friends_friend_id", "friends", ["friend_id"])
    op.create_table(
        "blocks",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("blocked_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("from_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("to_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_invitations_table_id", "invitations", ["table_id"])
    op.create_index("ix_invitations_to_id", "invitations", ["to_id"])


def _results() -> None:
    """The result of every finished game, and ratings with their history."""
    op.create_table(
        "game_results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("contracts", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_game_results_player_id", "game_results", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("ix_game_results_player_id", "game_results")
    op.drop_table("game_results")
    op.drop_index("ix_invitations_to_id", "invitations")
    op.drop_index("ix_invitations_table_id", "invitations")
    op.drop_table("invitations")
    op.drop_table("blocks")
    op.drop_index("ix_friends_friend_id", "friends")
    op.drop_table("friends")
    op.drop_table("login_failures")
    op.drop_index("ix_sessions_player_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("uq_players_username_key", "players")
    with op.batch_alter_table("players") as t:
        t.drop_column("prefs")
        t.drop_column("chips_granted")
        t.drop_column("registered")
        t.drop_column("password_hash")
        t.drop_column("username_key")
