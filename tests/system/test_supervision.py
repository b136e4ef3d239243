"""A session never outlives its daemon: kill -9 of the daemon leaves no agent running beside the next one."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import asyncpg
import pytest

from tests.system.harness import Daemon, new_task, pid_alive, switch_on, wait_for, worker_env

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"

KILLS = 5


async def test_five_kill_9s_of_the_daemon_leave_no_agent_of_an_earlier_run_and_the_task_finishes_once(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco", max_pogingen=KILLS + 3)
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS=f"--fake-mode toolcall --fake-until {KILLS + 1}")
    log = tmp_path / "worker.log"
    slowest = 0.0
    for run in range(1, KILLS + 2):
        daemon = Daemon(env, log)
        try:
            if run > 1:
                started = time.monotonic()
                earlier = [pid for pair in await _agents(tmp_path, run - 1) or [] for pid in pair]
                assert len(earlier) == 2 * (run - 1)
                await wait_for(lambda e=earlier: _none_alive(e), timeout=5, what="every earlier agent and child gone")
                slowest = max(slowest, time.monotonic() - started)
            if run <= KILLS:
                await wait_for(lambda run=run: _agents(tmp_path, run), timeout=30, what=f"agent {run} in its tool call")
                daemon.signal(signal.SIGKILL)
                daemon.wait(timeout=10)
            else:
                await wait_for(lambda: _status(conn, task_id, "klaar"), timeout=30, what="klaar")
        finally:
            daemon.stop()
    assert slowest <= 5
    counts = await conn.fetchrow(
        "select count(*) filter (where soort = 'klaar') as klaar, count(*) filter (where soort = 'gestart') as gestart "
        "from agent_taak_log where taak_id = $1",
        task_id,
    )
    assert (counts["klaar"], counts["gestart"]) == (1, KILLS + 1)


async def _agents(folder: Path, count: int) -> list[tuple[int, int]] | None:
    """(agent pid, its tool call's pid) of each session that reached its tool call, once there are `count`."""
    import json

    found = []
    for child in sorted((folder / "records").glob("*.child")):
        record = json.loads(child.with_suffix(".json").read_text())
        found.append((int(record["pid"]), int(child.read_text())))
    return found if len(found) >= count else None


async def _none_alive(pids: list[int]) -> bool:
    return not any(pid_alive(pid) for pid in pids)


async def _status(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return bool(await conn.fetchval("select status = $2 from agent_taken where id = $1", task_id, status))


async def test_kill_9_of_the_daemon_ends_its_agent_and_the_agents_tool_call_without_waiting_for_a_restart(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode toolcall")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        pairs = await wait_for(lambda: _agents(tmp_path, 1), timeout=30, what="the agent in its tool call")
        pids = [pid for pair in pairs for pid in pair]
        assert not await _none_alive(pids)
        daemon.signal(signal.SIGKILL)
        daemon.wait(timeout=10)
        await wait_for(lambda: _none_alive(pids), timeout=5, what="the agent and its tool call gone with their daemon")
    finally:
        daemon.stop()
