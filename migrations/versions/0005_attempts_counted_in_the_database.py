"""attempts counted in the database: join codes tried and games created, per address, shared by
every server process

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("bucket", sa.String(length=20), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_attempt_bucket_address_at", "attempt", ["bucket", "address", "at"])


def downgrade() -> None:
    op.drop_index("ix_attempt_bucket_address_at", table_name="attempt")
    op.drop_table("attempt")
