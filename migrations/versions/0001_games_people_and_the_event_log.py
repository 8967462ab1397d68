"""games, people and the event log

Revision ID: 0001
Revises:
Create Date: 2026-11-22 19:12:35.964664
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import server.models

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("status", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("created_at", server.models.UTCDateTime(), nullable=False),
        sa.Column("creation_key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("next_deadline", server.models.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("creation_key"),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_next_deadline"), ["next_deadline"], unique=False)

    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("token_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("code_hash", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("nonce", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("created_at", server.models.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code_hash"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_person_game_id"), ["game_id"], unique=False)

    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sqlmodel.sql.sqltypes.AutoString(length=24), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sqlmodel.sql.sqltypes.AutoString(length=12), nullable=False),
        sa.Column("at", server.models.UTCDateTime(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column("actor_name", sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("rolls", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("label", sa.JSON(), nullable=False),
        sa.Column("subjects", sa.JSON(), nullable=True),
        sa.Column("idem_key", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column("undoes", sa.Integer(), nullable=True),
        sa.Column("undone_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["person.id"],
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "idem_key", name="uq_event_game_idem"),
        sa.UniqueConstraint("game_id", "seq", name="uq_event_game_seq"),
    )


def downgrade() -> None:
    op.drop_table("event")
    with op.batch_alter_table("person", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_person_game_id"))

    op.drop_table("person")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_next_deadline"))

    op.drop_table("game")
