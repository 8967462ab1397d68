"""one name per game: Killpower Ball's kinds are `killpower_league` and `killpower_match`

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 17:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RENAMED = {"kpb_league": "killpower_league", "kpb_match": "killpower_match"}


def rename(names: dict[str, str]) -> None:
    game = sa.table("game", sa.column("kind", sa.String))
    for old, new in names.items():
        op.execute(game.update().where(game.c.kind == old).values(kind=new))


def upgrade() -> None:
    rename(RENAMED)


def downgrade() -> None:
    rename({new: old for old, new in RENAMED.items()})
