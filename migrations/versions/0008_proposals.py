"""proposals: a command one side sent on another side's pieces, waiting for that side's consent
(platform.md, "Adversaries consent")

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 05:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("proposals", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("proposals")
