"""Running a real queue-worker process against a test database, and waiting for what it does."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import logging
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import asyncpg

from tests.forked import Forked

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "fake_claude.py"


def short_folder() -> str:
    """A folder with a short path, removed when the test run ends."""
    folder = tempfile.mkdtemp(prefix="taak-s-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def worker_env(db_url: str, folder: Path, *, mode: str = "finish", **overrides: str) -> dict[str, str]:
    records = folder / "records"
    records.mkdir(parents=True, exist_ok=True)
    # The bots' locks live in one folder of the user's (worker/proc.default_lock_dir): each test its own, so that
    # a test run beside another (a CI clone) never finds paco@testbox locked by it.
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_DATABASE_URL=db_url,
        TAAK_DATA_DIR=str(folder / "data"),
        TAAK_BOTS="paco",
        TAAK_MACHINE="testbox",
        TAAK_AGENT_CMD=f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE))}",
        TAAK_AGENT_ARGS=f"--fake-mode {mode}",
        TAAK_WORKDIR=str(folder),
        TAAK_POLL_SECONDS="5",
        TAAK_REAPER_SECONDS="1",
        # A test that stops its daemon mid-session need not wait the default 30 s for the session to end.
        TAAK_SHUTDOWN_GRACE_SECONDS="2",
        TAAK_HEARTBEAT_SECONDS="1",
        TAAK_LOG_FORMAT="json",
        TAAK_LANGUAGE="nl",
        TAAK_CONNECT_ATTEMPTS="3",
        # The indexer would embed the real ~/.claude transcripts on every daemon start: CPU the tests don't need.
        TAAK_SEMANTIC="false",
        FAKE_RECORD_DIR=str(records),
        TAAK_LOCK_DIR=str(folder / "locks"),
        # A socket path may have 103 bytes: pytest's own folders (pytest-163/test_..._0/<machine>-daemon/data/run)
        # went past it now and then, and the daemon refused to start.
        TAAK_SOCKET_DIR=short_folder(),
        # Every message to the owner at once, whatever the hour: the tests of the digest and the quiet hours set
        # their own (tests/integration/test_owner_channel.py).
        TAAK_DIGEST_TIMES="",
        TAAK_QUIET_HOURS="",
    )
    env.update(overrides)
    return env


class Daemon:
    """A queue-worker process; its JSON log lines are collected in a file."""

    def __init__(self, env: dict[str, str], log_path: Path, *args: str) -> None:
        self.log_path = log_path
        # Open here, forked or not: the file exists when this returns, so that a test that reads it at once finds it
        # (a forked daemon's own open comes a moment later).
        self._log = log_path.open("ab")
        self.process: subprocess.Popen[bytes] | Forked = Forked.start(
            "queue-worker", list(args), env, log=log_path
        ) or subprocess.Popen(
            [sys.executable, "-m", "worker.cli.queue_worker", *args],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )

    def events(self) -> list[dict[str, Any]]:
        events = []
        for line in self.log_path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
        return events

    def has_event(self, name: str) -> bool:
        return any(e.get("event") == name for e in self.events())

    def signal(self, sig: signal.Signals) -> None:
        self.process.send_signal(sig)

    def wait(self, timeout: float = 30) -> int:
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


async def wait_for(
    condition: Callable[[], Awaitable[Any]], *, timeout: float = 20, interval: float = 0.05, what: str = ""
) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = await condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or condition}")
        await anyio.sleep(interval)


async def switch_on(conn: asyncpg.Connection, *bots: str, brake: int | None = None) -> None:
    """Switch bots on. Without the daily brake (a bot starts with 50 sessions a day): the runs of 100 and 300
    tasks and the benchmarks need more; the brake's own tests set one."""
    for bot in bots:
        await conn.execute(
            "insert into agent_bots (bot, actief, max_sessies_per_dag) values ($1, true, $2) "
            "on conflict (bot) do update set actief = true, max_sessies_per_dag = $2",
            bot,
            brake,
        )


async def new_task(conn: asyncpg.Connection, opdracht: str = "Schrijf de blog", **columns: Any) -> str:
    names = ["opdracht", "opdrachtgever", *columns]
    values = [opdracht, "jamal", *columns.values()]
    placeholders = ", ".join(f"${n}" for n in range(1, len(values) + 1))
    task_id: str = await conn.fetchval(
        f"insert into agent_taken ({', '.join(names)}) values ({placeholders}) returning id", *values
    )
    return task_id


async def status_of(conn: asyncpg.Connection, task_id: str) -> str:
    status: str = await conn.fetchval("select status from agent_taken where id = $1", task_id)
    return status


async def kinds(conn: asyncpg.Connection, task_id: str) -> list[str]:
    rows = await conn.fetch("select soort from agent_taak_log where taak_id = $1 order by id", task_id)
    return [r["soort"] for r in rows]


def records(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((folder / "records").glob("*.json"))]


def pid_alive(pid: int) -> bool:
    """The process still runs. A zombie has ended: an agent runs under its launcher, so when both are killed
    its exit status waits for init to collect it, not for the daemon."""
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


class InProcess:
    """The daemon's `Worker` in the test's own event loop: what `queue-worker` runs, without its process.

    For the tests of the daemon's decisions (a session's outcome, the briefing, retries, routing, the digest): no
    interpreter to start and no imports to pay for each daemon. The agent it runs stays a real subprocess (the
    fake), the database the test's real one. What only a process shows stays with `Daemon`: a kill -9, a signal,
    two daemons' locks, the real command line and its exit codes. Its log lines are JSON in `log_path`, as a
    `Daemon`'s are, so the same `events()` and `has_event()` read them.

    Its settings are read from `env`, and its children (a session, the indexer, a notify command) are given `env`,
    as a `queue-worker` started with it would give them; the test's own environment is left as it is. Its logging
    is the process's, and is put back when it stops. `stop()` is what SIGTERM does: no more claims, running
    sessions finish within TAAK_SHUTDOWN_GRACE_SECONDS.
    """

    def __init__(self, env: dict[str, str], log_path: Path, *args: str) -> None:
        self.env, self.log_path, self.once = env, log_path, "--once" in args
        self.code: int | None = None  # the exit code `queue-worker` would give, once it has ended
        self._saved: tuple[dict[str, Any], list[logging.Handler], int] | None = None
        self._enter()
        try:
            from worker.db.connect import embedded_or_configured
            from worker.settings import Settings

            settings = Settings(_environ=self.env)
            self.worker = _unsignalled()(settings, embedded_or_configured(settings), once=self.once)
        except BaseException:
            self._leave()
            raise
        self._task = asyncio.get_running_loop().create_task(self._run(self.worker))

    async def _run(self, worker: Any) -> None:
        from worker.cli.queue_worker import _start_failure

        try:
            await worker.run()
            self.code = 0
        except BaseException as exc:
            said = _start_failure(exc, worker.settings)
            if said is None:
                self.code = 1
                raise
            with self.log_path.open("a", encoding="utf-8") as log:
                log.write(said[0] + "\n")  # as `queue-worker` says it on stderr, its one line
            self.code = said[1]

    async def wait(self, timeout: float = 30) -> int:
        """Until the daemon ends (with --once: after its one task); the exit code `queue-worker` would give. One
        that has not ended by then is cancelled (the test's environment given back) and the wait fails."""
        try:
            with anyio.fail_after(timeout):
                await asyncio.shield(self._task)
        except TimeoutError:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            raise
        finally:
            if self._task.done():
                self._leave()
        assert self.code is not None
        return self.code

    async def stop(self) -> None:
        """What SIGTERM does: no more claims; running sessions finish within TAAK_SHUTDOWN_GRACE_SECONDS."""
        if not self._task.done():
            self.worker.stopping.set()
            self.worker.wake.set()
        await self.wait()

    def events(self) -> list[dict[str, Any]]:
        return Daemon.events(self)  # type: ignore[arg-type]

    def has_event(self, name: str) -> bool:
        return any(e.get("event") == name for e in self.events())

    def _enter(self) -> None:
        import structlog

        from worker.logs import configure_logging

        root = logging.getLogger()
        self._saved = (structlog.get_config(), list(root.handlers), root.level)
        self._log = self.log_path.open("a", encoding="utf-8")
        with contextlib.redirect_stdout(self._log):
            configure_logging("json", language=self.env.get("TAAK_LANGUAGE", "nl"))

    def _leave(self) -> None:
        if self._saved is None:
            return
        import structlog

        config, handlers, level = self._saved
        self._saved = None
        structlog.configure(**config)
        root = logging.getLogger()
        root.handlers, root.level = handlers, level
        self._log.close()
        _dumpable()


def _dumpable() -> None:
    """The daemon makes its process undumpable (worker/proc.make_undumpable); the test's process is given back."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE, 1


def _unsignalled() -> type:
    from worker.daemon.worker import Worker

    class Unsignalled(Worker):
        """Without the signal handlers: the test's process is not the daemon's, and SIGTERM is `InProcess.stop`."""

        async def _signals(self, scope: anyio.CancelScope) -> None:
            await anyio.sleep_forever()

    return Unsignalled
