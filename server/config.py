"""Configuration, from the environment (and a `.env` file when present)."""

from __future__ import annotations

import secrets
import socket
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

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
    # PostgreSQL: the connections each process keeps open (its pool), and how many more it may
    # open at a peak; with several processes, their sum (and one listening connection each)
    # stays under the server's `max_connections` (docs/performance.md, the capacity model).
    db_pool_size: int = Field(default=20, ge=1)
    db_pool_overflow: int = Field(default=20, ge=0)
    # How long a thread may hold Python's interpreter before another waiting for it takes it, in
    # milliseconds (`sys.setswitchinterval`; None: 0.5 on PostgreSQL, Python's 5 on SQLite). On
    # PostgreSQL an action is a dozen round trips, each giving the interpreter up and waiting up
    # to this long to take it back from a render: at G = 200 with two processes, 0.5 took the
    # nudge p95 from 2.7 s to 0.38 s. On SQLite it did the opposite (the thread holding the
    # write turn set aside more often: 0.14 to 0.51 s became 6.1 s): docs/performance.md.
    switch_interval_ms: float | None = Field(default=None, gt=0, le=100)
    host: str = "127.0.0.1"
    port: int = 8000
    language: Literal["fr", "en"] = "fr"
    # Set when served over HTTPS: cookies are then sent over HTTPS only.
    secure_cookies: bool = False
    # The address printed links, QR codes and the API's `url` fields name (a hosted server's
    # "https://arbitre.example.org"); unset, the address the request came to (an allowed host).
    public_url: str = ""
    # The names this server answers to (comma-separated; "*" any): by default the loopback names,
    # this machine's network addresses found at start and PUBLIC_URL's host. Any other Host is
    # refused, so no link is ever printed with a name an attacker chose.
    allowed_hosts: str = ""
    # Budgets per client address, counted in the database (every server process counts the same
    # tries): join codes tried a minute; games created or imported a minute.
    join_attempts_per_minute: int = Field(default=10, ge=1)
    games_per_minute: int = Field(default=10, ge=1)
    # Live streams open at once in one server process, per client address and per game.
    streams_per_address: int = Field(default=64, ge=1)
    streams_per_game: int = Field(default=256, ge=1)
    # A game file brought from another server: its size, the entries of its logs, the games in
    # it (a league and its matches); checked before any work. People per role are the kind's.
    import_max_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    import_max_events: int = Field(default=20_000, ge=1)
    import_max_games: int = Field(default=100, ge=1)
    # The servers whose import tickets this one seals games in progress to, and whose files of
    # such games it imports: their keys (each server's home page shows its own), comma-separated.
    # A server always trusts itself.
    trusted_servers: str = ""
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

    def hosts(self) -> set[str]:
        """The names this server answers to (`allowed_hosts`), "*" for any."""
        named = {h.strip().lower() for h in self.allowed_hosts.split(",") if h.strip()}
        if not named:
            named = {"localhost", "127.0.0.1", "::1", *lan_addresses()}
            if self.host not in ("0.0.0.0", "::", ""):
                named.add(self.host.lower())
        public = urlsplit(self.public_url).hostname if self.public_url else None
        if public:
            named.add(public.lower())
        return named


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (a hotspot's, a club's), loopback aside.
    Found without sending anything: a UDP socket "connected" to a public address is given the
    outgoing interface's address; the host name's addresses add the others."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed nowhere, never sent to
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


@lru_cache
def get_settings() -> Settings:
    return Settings()
