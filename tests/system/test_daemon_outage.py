"""The database goes away under a running daemon: sessions go on, and the daemon comes back by itself."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.conftest import with_database
from tests.system.harness import Daemon, kinds, new_task, records, switch_on, wait_for, worker_env
from worker.db.embedded import ensure_embedded, stop_embedded
from worker.db.migrate import migrate

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"


async def test_the_daemon_recovers_when_its_database_restarts(tmp_path: Path) -> None:
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)  # a server this test owns
    try:
        admin = await asyncpg.connect(with_database(url, "postgres"))
        await admin.execute("create database outage")
        await admin.close()
        db_url = with_database(url, "outage")
        conn = await asyncpg.connect(db_url)
        await migrate(conn)
        await switch_on(conn, "paco")
        first = await new_task(conn, "eerste", toegewezen_aan="paco")
        await conn.close()

        env = worker_env(
            db_url,
            tmp_path,
            mode="busy",
            TAAK_AGENT_ARGS="--fake-mode busy --fake-seconds 4",
            TAAK_LEASE_EXTEND_SECONDS="0.5",
            TAAK_POLL_SECONDS="1",
        )
        daemon = Daemon(env, tmp_path / "worker.log")
        try:
            await wait_for(lambda: _has_records(tmp_path, 1), what="the first session")
            await anyio.to_thread.run_sync(stop_embedded, server)
            time.sleep(2)
            # Restarted from another process, as an operator would (pgserver caches its handle per process).
            restart = (
                "from pathlib import Path; from worker.db.embedded import ensure_embedded; "
                f"ensure_embedded(Path({str(server)!r}))"
            )
            await anyio.run_process([sys.executable, "-c", restart])
            conn = await asyncpg.connect(db_url)
            # The session ran through the outage and its outcome was written afterwards.
            await wait_for(lambda: _has_kind(conn, first, "fout"), timeout=30, what="the first outcome")
            second = await new_task(conn, "tweede", toegewezen_aan="paco")
            await wait_for(lambda: _has_kind(conn, second, "gestart"), timeout=15, what="claiming to resume")
            await conn.close()
            await wait_for(lambda: _listening_again(daemon), timeout=15, what="LISTEN restored")
        finally:
            daemon.stop()
        names = [e.get("event") for e in daemon.events()]
        # One line per change of state, not one per retry; the LISTEN connection was restored.
        assert names.count("database_unreachable") == 1
        assert names.count("database_back") == 1
        assert names.count("listen_lost") == 1
        assert names.count("listening") == 2
        assert records(tmp_path)[0]["env"]["TAAK_ID"] == first
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)


async def _listening_again(daemon: Daemon) -> bool:
    return [e.get("event") for e in daemon.events()].count("listening") >= 2


async def _has_records(folder: Path, count: int) -> bool:
    return len(records(folder)) >= count


async def _has_kind(conn: asyncpg.Connection, task_id: str, soort: str) -> bool:
    return soort in await kinds(conn, task_id)
