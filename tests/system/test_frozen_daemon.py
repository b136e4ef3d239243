"""A daemon that is frozen (SIGSTOP, a stalled machine) or suspended (Ctrl-Z) never leaves two sessions on one
task: its session stops before the lease can end at the database, so that when another daemon takes the task
over, the first session is gone. Real daemons, a real (short) lease, real signals."""

from __future__ import annotations

import signal
from pathlib import Path

import anyio
import asyncpg
import psutil
import pytest

from tests.system.harness import Daemon, kinds, new_task, records, switch_on, wait_for, worker_env

pytestmark = pytest.mark.slow

LEASE = {"TAAK_LEASE_SECONDS": "10", "TAAK_LEASE_EXTEND_SECONDS": "1", "TAAK_POLL_SECONDS": "1"}


def _last_said(folder: Path) -> float:
    """When a busy fake session last wrote a line (it writes one every 0.1 s while it runs)."""
    (out,) = (folder / "records").glob("*.out")
    return out.stat().st_mtime


def _first_said(folder: Path) -> float:
    (record,) = (folder / "records").glob("*.json")
    return record.stat().st_mtime


async def test_a_frozen_daemons_session_is_gone_before_another_daemon_starts_the_task(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    frozen = Daemon(worker_env(db_url, tmp_path / "a", mode="busy", **LEASE), tmp_path / "a.log")
    other = None
    try:
        await wait_for(lambda: _has_records(tmp_path / "a"), timeout=60, what="the first session")
        frozen.signal(signal.SIGSTOP)
        # Another machine's daemon for the same bot; its reaper takes the lease once it has run out.
        other = Daemon(
            worker_env(db_url, tmp_path / "b", mode="busy", TAAK_MACHINE="mac-b", TAAK_RETRY_BASE_SECONDS="0", **LEASE),
            tmp_path / "b.log",
        )
        await wait_for(lambda: _has_records(tmp_path / "b"), timeout=60, what="the second daemon's session")
        await anyio.sleep(1)  # a first session still running would have written ten lines by now
        first_ended, second_began = _last_said(tmp_path / "a"), _first_said(tmp_path / "b")
        frozen.signal(signal.SIGCONT)
        await wait_for(lambda: _said(frozen, "session_end"), timeout=30, what="the thawed daemon to see its end")
        first_session = records(tmp_path / "a")[0]["pid"]
    finally:
        frozen.stop()
        if other is not None:
            other.stop()
    assert first_ended < second_began, f"two sessions ran side by side for {first_ended - second_began:.1f} s"
    assert not psutil.pid_exists(first_session) or psutil.Process(first_session).status() == psutil.STATUS_ZOMBIE
    assert (await kinds(conn, task_id)).count("gestart") == 2
    (end,) = [e for e in frozen.events() if e.get("event") == "session_end"]
    assert end["stop"] == "unconfirmed"  # said as what happened, not as a crash of the agent


async def test_ctrl_z_gives_the_running_task_back_before_the_daemon_stops_and_fg_resumes_claiming(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy", TAAK_RETRY_BASE_SECONDS="0", **LEASE), tmp_path / "w.log")
    try:
        await wait_for(lambda: _has_records(tmp_path), timeout=60, what="the session")
        daemon.signal(signal.SIGTSTP)
        await wait_for(lambda: _stopped(daemon), timeout=30, what="the daemon to stop itself")
        status_while_stopped = await conn.fetchval("select status from agent_taken where id = $1", task_id)
        session = records(tmp_path)[0]["pid"]
        daemon.signal(signal.SIGCONT)
        await wait_for(lambda: _started_twice(conn, task_id), timeout=60, what="the task claimed again after fg")
    finally:
        daemon.stop()
    assert status_while_stopped == "wachtend"
    assert not psutil.pid_exists(session) or psutil.Process(session).status() == psutil.STATUS_ZOMBIE
    rows = await conn.fetch("select soort, meta from agent_taak_log where taak_id = $1 order by id", task_id)
    assert [r["soort"] for r in rows][:4] == ["gestart", "notitie", "vrijgegeven", "gestart"]
    names = [e.get("event") for e in daemon.events()]
    assert names.index("suspend_requested") < names.index("suspended") < names.index("resumed")


async def _has_records(folder: Path) -> bool:
    return bool(records(folder))


async def _said(daemon: Daemon, event: str) -> bool:
    return daemon.has_event(event)


async def _stopped(daemon: Daemon) -> bool:
    return bool(psutil.Process(daemon.process.pid).status() == psutil.STATUS_STOPPED)


async def _started_twice(conn: asyncpg.Connection, task_id: str) -> bool:
    return (await kinds(conn, task_id)).count("gestart") >= 2
