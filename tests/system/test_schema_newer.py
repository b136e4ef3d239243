"""A daemon of an earlier version on a schema a newer version migrated: it says so, with the upgrade, and claims
nothing; the sessions it runs go on. `taak doctor` says the same. (An older schema is refused at start, as
before: tests/system/test_daemon.py.)"""

from __future__ import annotations

import shlex
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import run_taak
from tests.system.harness import InProcess, kinds, new_task, status_of, switch_on, wait_for, worker_env

LATER = "999_van_een_latere_versie.sql"  # a migration this code does not ship


async def newer_version_migrates(conn: asyncpg.Connection) -> None:
    await conn.execute("insert into taak_migraties (naam, checksum) values ($1, 'later')", LATER)


def said_newer(daemon: InProcess) -> list[str]:
    return [e["reason"] for e in daemon.events() if e.get("event") == "schema_newer"]


async def test_a_daemon_started_on_a_newer_schema_claims_nothing_and_says_why_with_the_upgrade(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    await newer_version_migrates(conn)
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = InProcess(worker_env(db_url, tmp_path), tmp_path / "worker.log", "--once")
    try:
        assert await daemon.wait(60) == 0
    finally:
        await daemon.stop()
    assert await status_of(conn, task_id) == "wachtend"
    (reason,) = said_newer(daemon)
    assert LATER in reason
    assert "-m pip install" in reason  # the upgrade, as this installation is upgraded


@pytest.mark.slow
async def test_a_running_daemon_sees_a_newer_schema_at_its_next_beat_and_keeps_its_session(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    running = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="steps", TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 4")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _has(conn, running, "stap_klaar"), timeout=30, what="the session's first step")
        await newer_version_migrates(conn)
        await wait_for(lambda: _true(bool(said_newer(daemon))), timeout=10, what="schema_newer")
        waiting = await new_task(conn, toegewezen_aan="paco")
        await wait_for(lambda: _is(conn, running, "klaar"), timeout=30, what="the running session's klaar")
        assert await status_of(conn, waiting) == "wachtend"
    finally:
        await daemon.stop()
    assert (await kinds(conn, running)).count("stap_klaar") == 4
    assert await status_of(conn, waiting) == "wachtend"
    assert len(said_newer(daemon)) == 1  # said once, not at every beat


async def test_doctor_says_the_database_is_newer_and_how_to_upgrade(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    await newer_version_migrates(conn)
    result = run_taak(cli_env, "doctor")
    (line,) = [line for line in result.out.splitlines() if line.split()[1] == "schema:"]
    assert line.startswith("fail  schema: ")
    assert LATER in line
    fix = line.split("  -> ", 1)[1]
    assert shlex.split(fix.split(" && ")[-1])[1:4] == ["-m", "pip", "install"]
    assert result.code == 1


async def _has(conn: asyncpg.Connection, task_id: str, soort: str) -> bool:
    return soort in await kinds(conn, task_id)


async def _is(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return await status_of(conn, task_id) == status


async def _true(value: bool) -> bool:
    return value
