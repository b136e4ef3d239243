"""How many connections an idle daemon holds on the server: its listener and one (LISTEN), or one (poll mode)."""

from __future__ import annotations

from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.system.harness import InProcess, new_task, status_of, switch_on, wait_for, worker_env
from worker.daemon.worker import IDLE_CONNECTION_SECONDS

# The daemon's connections to the test's database (its pool's are named taak, its listener's taak-listen).
DAEMON_CONNECTIONS = (
    "select count(*) from pg_stat_activity "
    "where datname = current_database() and pid <> pg_backend_pid() and application_name like 'taak%'"
)


@pytest.mark.slow
@pytest.mark.parametrize(("listen", "most"), [("true", 2), ("false", 1)], ids=["listen", "poll"])
async def test_an_idle_daemon_holds_its_listener_and_one_connection_and_still_picks_up_a_task(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, listen: str, most: int
) -> None:
    await switch_on(conn, "paco")
    # The harness's heartbeat and reaper run every second: the duties, the claims and the schema watch meet often.
    env = worker_env(db_url, tmp_path, TAAK_LISTEN=listen, TAAK_POLL_SECONDS="1")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        mode = "listening" if listen == "true" else "listen_unavailable"
        await wait_for(lambda: _event(daemon, mode), what="the listener, or the poll-mode notice")
        # What the start opened beside its one closes once unused for IDLE_CONNECTION_SECONDS.
        await wait_for(lambda: _at_most(conn, most), timeout=IDLE_CONNECTION_SECONDS + 30, what="an idle daemon")
        counted = []
        for _ in range(40):  # four seconds: every duty has looked several times
            counted.append(await conn.fetchval(DAEMON_CONNECTIONS))
            await anyio.sleep(0.1)
        assert max(counted) <= most, counted
        task_id = await new_task(conn, "Na de stilte", toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn, task_id, "klaar"), timeout=30, what="klaar")
    finally:
        await daemon.stop()


async def _event(daemon: InProcess, name: str) -> bool:
    return daemon.has_event(name)


async def _at_most(conn: asyncpg.Connection, most: int) -> bool:
    return bool(await conn.fetchval(DAEMON_CONNECTIONS) <= most)


async def _status_is(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return await status_of(conn, task_id) == status
