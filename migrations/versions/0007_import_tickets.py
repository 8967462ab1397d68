"""import tickets: a server's one-time public key, to which another server seals a game in
progress (only this server opens it)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 06:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ticket",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("public_key", sa.String(length=64), nullable=False),
        sa.Column("private_key", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("ticket")
