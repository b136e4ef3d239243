"""Small helpers the tests share: running the real commands, snapshotting the tables."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import asyncpg


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_taak(
    env: dict[str, str], *args: str, stdin: bytes | None = None, timeout: float = 60, cwd: Path | None = None
) -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *args],
        env=env,
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


async def snapshot(conn: asyncpg.Connection) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Every task row and every log row, to compare before and after a refused command."""
    tasks = await conn.fetch("select * from agent_taken order by id")
    rows = await conn.fetch("select * from agent_taak_log order by id")
    return [dict(r) for r in tasks], [dict(r) for r in rows]


class SlowClosingProxy:
    """A TCP proxy in front of Postgres that passes every byte at once but holds a connection's close for
    `hold_seconds` after the server ended it: the client reads the server's last message (a FATAL when its
    backend is terminated) well before it sees the socket close, as a slow or congested network delivers them.
    The window between the two is where a pooled connection is idle, not yet closed, and no longer usable."""

    def __init__(self, host: str, port: int, hold_seconds: float) -> None:
        self.host, self.port, self.hold_seconds = host, port, hold_seconds
        self.listen_port = 0
        self._server: asyncio.Server | None = None
        self._passing: set[asyncio.Task[None]] = set()

    async def __aenter__(self) -> SlowClosingProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.listen_port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in self._passing:
            task.cancel()
        await asyncio.gather(*self._passing, return_exceptions=True)

    def url(self, url: str) -> str:
        """The same database URL, through this proxy."""
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        return urlunsplit(
            parts._replace(netloc=f"{user}@127.0.0.1:{self.listen_port}" if user else f"127.0.0.1:{self.listen_port}")
        )

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        try:
            server_in, server_out = await asyncio.open_connection(self.host, self.port)
        except OSError:
            client_out.close()
            return
        for task in (
            asyncio.create_task(self._pass(client_in, server_out, hold=0)),
            asyncio.create_task(self._pass(server_in, client_out, hold=self.hold_seconds)),
        ):
            self._passing.add(task)
            task.add_done_callback(self._passing.discard)

    @staticmethod
    async def _pass(source: asyncio.StreamReader, sink: asyncio.StreamWriter, *, hold: float) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except OSError:
            pass
        try:
            await asyncio.sleep(hold)
        finally:
            sink.close()
