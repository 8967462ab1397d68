"""seats claimed: the first phone that opens a personal link takes the seat, and the link opens
nothing for anyone else (issue 51)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28 16:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every seat starts untaken: a browser that opened a link before this held no seat of its
    # own, only the link (its session no longer opens the seat: it opens the link again).
    with op.batch_alter_table("person") as batch:
        batch.add_column(sa.Column("claimed_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("ticket_hash", sa.String(length=64), nullable=True))
        batch.create_index("ix_person_ticket_hash", ["ticket_hash"])


def downgrade() -> None:
    with op.batch_alter_table("person") as batch:
        batch.drop_index("ix_person_ticket_hash")
        batch.drop_column("ticket_hash")
        batch.drop_column("claimed_at")
