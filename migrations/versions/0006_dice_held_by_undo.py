"""dice held by undo: an undone action's dice, rolled again by the next action that asks for the
same ones (undo never re-rolls a secret)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 05:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("held_dice", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("held_dice")
