"""idempotency keys scoped to their caller, with the fingerprint of the request

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Keys stored before this revision were the clients' own: they no longer match any scoped
    # key, so a retry across the upgrade is applied as a new request (no replay of another's).
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("idem_fingerprint", sa.String(64), nullable=True))
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("creation_fingerprint", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.drop_column("idem_fingerprint")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("creation_fingerprint")
