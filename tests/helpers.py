"""Small helpers the tests share: running the real commands, snapshotting the tables."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from tests import forked
from worker.db.ledger import Ledger


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_taak(
    env: dict[str, str], *args: str, stdin: bytes | None = None, timeout: float = 60, cwd: Path | None = None
) -> Result:
    if INBOX in env:
        return in_session(env, [sys.executable, "-m", "worker.cli.taak", *args], stdin=stdin, timeout=timeout)
    if (done_forked := forked.run(list(args), env, cwd, stdin or b"", timeout)) is not None:
        return Result(*done_forked)
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


# A queue session's environment as a test holds it: the session's own, and where its fake agent takes the commands
# it runs as tool calls (tests/fakes/fake_claude.py, mode busy). The daemon answers only a session's own tree.
INBOX = "FAKE_INBOX"


def session_run(
    argv: list[str], *, env: dict[str, str], input: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """subprocess.run as the tests call it, run as a tool call of the fake session when `env` is a session's."""
    if INBOX not in env:
        return subprocess.run(argv, env=env, input=input, capture_output=True, text=True, timeout=timeout, check=False)
    done = in_session(env, argv, stdin=(input or "").encode(), timeout=timeout)
    return subprocess.CompletedProcess(argv, done.code, done.out, done.err)


def session_env(record: dict[str, object]) -> dict[str, str]:
    """The environment of a running fake session (its record), for commands run as its tool calls."""
    env = record["env"]
    assert isinstance(env, dict)
    return {**env, INBOX: str(record["inbox"])}


# A client that hangs up before its answer stays alive a moment after: the daemon answers only the processes of the
# session's tree, and one that is gone before the daemon reads its line can no longer be told apart from a stranger.
SEND_RAW = """
import base64, json, socket, sys, time
answers = []
sends = json.loads(sys.stdin.read())
for raw, read in sends:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(sys.argv[1])
        client.sendall(base64.b64decode(raw))
        answers.append(base64.b64encode(client.recv(65536) if read else b"").decode())
if not all(read for _, read in sends):
    time.sleep(3)
print(json.dumps(answers))
"""


def send_raw(env: dict[str, str], sends: list[tuple[bytes, bool]]) -> list[bytes]:
    """Raw requests on the session's socket, each on a connection of its own, sent by a process of the session
    when `env` is a session's (else by this test's own): what each got back (nothing where `read` is False)."""
    import base64
    import json

    given = json.dumps([(base64.b64encode(raw).decode(), read) for raw, read in sends])
    done = session_run([sys.executable, "-c", SEND_RAW, env["TAAK_SOCKET"]], env=env, input=given)
    assert done.returncode == 0, done.stderr
    return [base64.b64decode(answer) for answer in json.loads(done.stdout)]


def outside(env: dict[str, str]) -> dict[str, str]:
    """A session's environment used by a process that is no part of the session (or after it ended)."""
    return {k: v for k, v in env.items() if k != INBOX}


def in_session(env: dict[str, str], argv: list[str], *, stdin: bytes | None = None, timeout: float = 60) -> Result:
    """Run a command as a tool call of the running fake session whose environment (with INBOX) `env` is."""
    import json
    import time
    import uuid

    inbox = Path(env[INBOX])
    inbox.mkdir(exist_ok=True)
    name = uuid.uuid4().hex
    given = stdin.decode() if stdin is not None else ""
    asked = {"argv": argv, "env": {k: v for k, v in env.items() if k != INBOX}, "input": given}
    (inbox / f"{name}.tmp").write_text(json.dumps(asked), encoding="utf-8")
    (inbox / f"{name}.tmp").rename(inbox / f"{name}.json")
    done = inbox / f"{name}.done"
    deadline = time.monotonic() + timeout
    while not done.exists():
        if time.monotonic() > deadline:
            raise subprocess.TimeoutExpired(argv, timeout)
        time.sleep(0.02)
    answer = json.loads(done.read_text(encoding="utf-8"))
    return Result(answer["code"], answer["out"], answer["err"])


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

    @classmethod
    def in_front_of(cls, url: str, hold_seconds: float) -> SlowClosingProxy:
        """In front of the server a database URL names: a host and port, or a socket folder (the embedded server's
        `?host=/folder`) and the port its socket file is named by."""
        from urllib.parse import parse_qs, urlsplit

        parts = urlsplit(url)
        query = parse_qs(parts.query)
        host = parts.hostname or query.get("host", ["127.0.0.1"])[0]
        return cls(host, parts.port or int(query.get("port", ["5432"])[0]), hold_seconds)

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
        from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k not in ("host", "port")])
        return urlunsplit(
            parts._replace(
                netloc=f"{user}@127.0.0.1:{self.listen_port}" if user else f"127.0.0.1:{self.listen_port}", query=query
            )
        )

    async def _serve(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        try:
            if self.host.startswith("/"):  # a socket folder
                server_in, server_out = await asyncio.open_unix_connection(f"{self.host}/.s.PGSQL.{self.port}")
            else:
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


def ledger_on(db: Any, *, lease_seconds: int = 1200, machine: str = "testmachine") -> Ledger:
    """The ledger on a test's database, with the test's lease and machine named here once."""
    return Ledger(db, lease_seconds=lease_seconds, machine=machine)
