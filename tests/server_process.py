"""The real server in its own process on loopback, for the load and fault tests and the benchmarks:
it can be killed for real (SIGKILL) and its memory read."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from server.config import ROOT

SECRET = "load-test-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`python -m server serve` in its own process, so that it can be killed for real."""

    def __init__(
        self, db_url: str, extra_env: dict[str, str] | None = None, log: Path | None = None
    ) -> None:
        self.db_url, self.port = db_url, free_port()
        self.extra_env = extra_env or {}
        self.log = log  # where the server's own output goes (its access log among it)
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": self.db_url, "SECRET_KEY": SECRET, **self.extra_env}
        output = self.log.open("ab") if self.log else subprocess.DEVNULL
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server", "serve", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        if not isinstance(output, int):
            output.close()  # the server process holds its own copy
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def cpu_seconds(self) -> float:
        """The processor time the server has used so far (user and system), from /proc."""
        assert self.process is not None
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mib(self) -> float:
        """The server's resident memory, from /proc."""
        assert self.process is not None
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0


class Cable:
    """A TCP relay to a server on loopback, cut and mended at will: a field's hotspot going out
    of a phone's range, with nothing of the browser's own offline emulation (which a page being
    torn down escapes: a reload or a closed tab may still send what it held)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.up = True
        self.lock = threading.Lock()
        self.open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        """Out of range: every connection dropped, every new one closed at once."""
        with self.lock:
            self.up = False
            for sock in self.open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.open.clear()

    def mend(self) -> None:
        with self.lock:
            self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                if not self.up:
                    phone.close()
                    continue
                try:
                    server = socket.create_connection(("127.0.0.1", self.target))
                except OSError:
                    phone.close()
                    continue
                self.open.update((phone, server))
            for a, b in ((phone, server), (server, phone)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
