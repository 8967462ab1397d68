"""Configuration, from the environment (and a `.env` file when present)."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(default=f"sqlite:///{DATA_DIR / 'arbitre.db'}")
    # Signs session cookies. When unset, one is generated once and kept in data/secret_key so
    # that links opened yesterday still work after a restart.
    secret_key: str = ""
    # SQLite's durability: FULL (an acknowledged action survives a power cut) or NORMAL (faster,
    # may lose the last actions on a power cut; never corrupts). `make bench` measures both.
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    host: str = "127.0.0.1"
    port: int = 8000
    language: Literal["fr", "en"] = "fr"
    # Set when served over HTTPS: cookies are then sent over HTTPS only.
    secure_cookies: bool = False
    # Join codes: attempts allowed per client address and minute.
    join_attempts_per_minute: int = 10
    # The proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated
    # addresses, or "*"): none by default, so a client cannot choose the address the join-code
    # limit counts. Behind a reverse proxy, name it (e.g. "127.0.0.1" or the proxy's address).
    forwarded_allow_ips: str = ""
    # How often the timer scheduler looks for deadlines that fell due, in seconds.
    scheduler_interval: float = 1.0
    sse_ping_seconds: float = 15.0
    # PostgreSQL: how often each process re-reads the games its phones watch, to catch up a live
    # note lost between processes (see server.platform.relay).
    live_resync_seconds: float = 5.0
    # Threads that render phones' live parts at once, apart from the actions' pool: the work is
    # Python's (one processor's worth a process), so a few are enough; more wait on the database.
    live_threads: int = Field(default=2, ge=1)
    # On SQLite, a snapshot of the database every so many minutes in `backups/` beside it (0:
    # none), the newest kept (`python -m server db backup` makes one at any time).
    backup_minutes: float = Field(default=10, ge=0)
    backup_keep: int = Field(default=12, ge=1)

    def resolved_secret_key(self) -> str:
        if self.secret_key:
            return self.secret_key
        path = DATA_DIR / "secret_key"
        if not path.exists():
            DATA_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip()

    def proxy_options(self) -> dict[str, Any]:
        """uvicorn's options for forwarded headers: believed from the named proxies only."""
        trusted = self.forwarded_allow_ips.strip()
        return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or None}

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
