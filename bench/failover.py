"""A server process killed while it holds streams (issue 55): the phones on it move to the other
process within seconds, and nothing acknowledged is lost.

PostgreSQL (`--database-url`, an account that may create databases), two server processes
serving the same games, and in front of them Caddy with compose.yaml's load balancing (`caddy`
on the PATH: Debian's package; the upstreams given by port instead of Docker's DNS), or without
it a proxy of ours that does the same (each new connection to the next process, one that does
not answer skipped at once, as `lb_try_duration` retries): G games of the `bench.run` mix (32
phones each, G = 20 by default: 640 phones), every phone's page and stream opened through the
proxy, the actors playing. After 10 s of play, the process holding the most phones' streams (each
says how many, `/healthz`) is killed (SIGKILL: no goodbye, its streams cut). Printed: the streams
each process held then, the time from the kill until the
last of the cut phones said hello again on the other process (p50, p95), the phones not back
within the target, the errors (an answer 500, a phone that gave up) and the actions acknowledged
before the kill that the log no longer has; "nothing lost" when there are none.

    python -m bench.failover --database-url postgresql://USER:PASS@HOST/postgres [--games 20]
                             [--proxy caddy|ours]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import shutil
import subprocess
import tempfile
import time
from contextlib import suppress
from pathlib import Path

import httpx

from bench.crowd import ROOMY, crowd
from bench.run import bench_database, pct, set_up
from tests.server_process import Server, free_port

TARGET_S = 5.0  # the cut phones live again on the other process within 5 s of the kill


class Proxy:
    """A TCP proxy on loopback over several upstream ports: each connection to the next, an
    upstream that refuses skipped (Caddy's round robin with retries)."""

    def __init__(self, ports: list[int]) -> None:
        self.ports, self.port = ports, free_port()
        self.turn = 0
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", self.port, backlog=4096)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(len(self.ports)):
            index = self.turn % len(self.ports)
            self.turn += 1
            try:
                up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.ports[index])
            except OSError:
                continue  # that process is gone: the next one
            self.writers |= {writer, up_writer}
            try:
                await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
            finally:
                self.writers -= {writer, up_writer}
            return
        writer.close()

    async def stop(self) -> None:
        """Every connection closed, its pipes ended (no task left to cancel)."""
        if self.server:
            self.server.close()
        for writer in list(self.writers):
            writer.close()
        while self.writers:
            await asyncio.sleep(0.05)


# As compose.yaml's Caddyfile: a game's requests to one process, by its id hashed.
ROUTE_BY_GAME = (
    "  map {path} {arbitre_game} {\n"
    '    ~^/(?:g|api/v1/games)/([^/]+) "${1}"\n'
    '    default ""\n'
    "  }\n"
    "  request_header X-Arbitre-Game {arbitre_game}\n"
)


class Caddy:
    """Caddy in front of the processes, as compose.yaml sets it (a game's requests to one
    process, a dead upstream skipped for 30 s after 3 failures, 5 s to find a live one)."""

    def __init__(self, ports: list[int], folder: str) -> None:
        self.port = free_port()
        upstreams = " ".join(f"127.0.0.1:{p}" for p in ports)
        self.config = Path(folder) / "Caddyfile"
        self.config.write_text(
            "{\n  admin off\n  auto_https off\n}\n"
            f":{self.port} {{\n{ROUTE_BY_GAME}  reverse_proxy {upstreams} {{\n"
            "    lb_policy header X-Arbitre-Game\n"
            "    lb_try_duration 5s\n    fail_duration 30s\n    max_fails 3\n  }\n}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        argv = ["caddy", "run", "--config", str(self.config), "--adapter", "caddyfile"]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                try:
                    if (await client.get(f"http://127.0.0.1:{self.port}/healthz")).is_success:
                        return
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
        raise RuntimeError("Caddy did not start")

    async def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)


async def streams_held(server: Server) -> int:
    """How many phones' streams a process holds now, as it says (`/healthz`)."""
    async with httpx.AsyncClient() as client:
        return int((await client.get(f"{server.url}/healthz", timeout=5)).json()["streams"])


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with suppress(ConnectionError, OSError, RuntimeError):
            writer.close()


async def main(count: int, db_url: str, use_caddy: bool) -> None:
    with tempfile.TemporaryDirectory() as folder, bench_database(db_url, folder) as url:
        games = set_up(url, count)
        servers = [Server(url, extra_env=ROOMY) for _ in range(2)]
        for server in servers:
            server.start()
        ports = [s.port for s in servers]
        proxy: Proxy | Caddy = Caddy(ports, folder) if use_caddy else Proxy(ports)
        await proxy.start()
        print(f"in front: {'Caddy' if use_caddy else 'a proxy of ours (no caddy on the PATH)'}")
        try:
            async with crowd(f"http://127.0.0.1:{proxy.port}", games) as people:
                took = await people.live()
                print(
                    f"{people.count:,} phones of {len(games)} games live through the proxy in"
                    f" {took:.1f} s ({people.phones.errors} errors)"
                )
                people.play()
                await asyncio.sleep(10)  # the steady state, then the kill
                # Each process says how many phones' streams it holds (`/healthz`): the one
                # holding the most is killed (a proxy may have put all of them on one).
                held = [await streams_held(server) for server in servers]
                victim = max(range(len(servers)), key=lambda i: held[i])
                people.mark()
                kill = time.monotonic()
                servers[victim].kill()
                # The cut phones: those whose stream broke after the kill; each back when its
                # stream says hello again, or late (never back counts as late).
                await asyncio.sleep(TARGET_S * 3)
                cut = [n for n, t in people.phones.broken.items() if t > kill]
                moved = [people.phones.hellos.get(n, 0) - kill for n in cut]
                moved = [t if t > 0 else math.inf for t in moved]
                lost = await people.lost(via=servers[1 - victim].url)
                errors, down, failures = people.failures()
        finally:
            await proxy.stop()
            for server in servers:
                server.stop()  # the killed one is gone already
    late = sum(t > TARGET_S for t in moved)
    print(
        "failover: " + f"the killed process held {held[victim]:,} phones' streams, the other"
        f" {sum(held) - held[victim]:,}; "
        + f"{len(moved):,} phones' streams cut, {sum(t < math.inf for t in moved):,} live again"
        " on the other process, the last"
        f" {max(moved, default=float('nan')):.1f} s after the kill (p50 {pct(moved, 50):.1f} s,"
        f" p95 {pct(moved, 95):.1f} s); {late} later than {TARGET_S:g} s; errors {errors};"
        f" requests cut by the kill {down}; acknowledged actions lost: {lost}"
        + (" (nothing lost)" if lost == 0 else "")
    )
    met = late == 0 and not errors and lost == 0 and moved
    if not moved:
        print(
            "the kill cut no phone's stream: "
            + (
                "no process held any when it came (the crowd never went live?)"
                if not held[victim]
                else "the streams it held were not seen breaking (read the proxy's log)"
            )
        )
    print(
        f"target (the cut phones live again within {TARGET_S:g} s, nothing lost, no error):"
        f" {'met' if met else 'NOT met'}"
    )
    if errors:
        print(f"errors: {dict(failures)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--proxy", choices=("caddy", "ours"), default=None)
    args = parser.parse_args()
    caddy = args.proxy == "caddy" or (args.proxy is None and shutil.which("caddy") is not None)
    asyncio.run(main(args.games, args.database_url, caddy))
