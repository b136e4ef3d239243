"""A real queue-worker that logs in as a member of taak_daemon, the role that since migration 026 reads the tasks
and their log but writes them only through the functions that check the lease token."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from tests.integration.test_security import Logins, as_role
from tests.system.harness import InProcess, kinds, new_task, status_of, switch_on, wait_for, worker_env


@pytest.fixture
async def daemon_url(db_url: str, server_url: str) -> AsyncIterator[str]:
    """The test database, reached by a login of the test's own that is a member of taak_daemon and nothing else."""
    logins = Logins(server_url)
    try:
        names = await logins.make(db_url)
        yield as_role(db_url, names["daemon"])
    finally:
        await logins.drop()


async def test_a_daemon_logged_in_as_the_daemon_role_claims_logs_finishes_gives_back_and_reaps(
    daemon_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    finished = await new_task(conn, "Schrijf de blog", toegewezen_aan="paco")
    # A lease of another machine's that ran out: the reaper takes it back (coco is no bot of this daemon).
    expired = await new_task(conn, "Van een andere machine", toegewezen_aan="coco")
    await conn.execute(
        "update agent_taken set status = 'bezig', lease_token = gen_random_uuid(), pogingen = 1, "
        "lease_tot = now() - interval '1 minute', geclaimd_door = 'coco@elders' where id = $1",
        expired,
    )
    daemon = InProcess(worker_env(daemon_url, tmp_path / "een"), tmp_path / "een.log")
    try:
        await wait_for(lambda: _status_is(conn, finished, "klaar"), timeout=60, what="klaar")
        await wait_for(lambda: _status_is(conn, expired, "wachtend"), timeout=30, what="the expired lease reaped")
        await wait_for(lambda: _rows(conn, finished, 5), what="the session's result row")
    finally:
        await daemon.stop()
    rows = await conn.fetch("select soort, bot from agent_taak_log where taak_id = $1 order by id", finished)
    assert [(r["soort"], r["bot"]) for r in rows] == [
        ("gestart", "paco"),
        ("stap_klaar", "paco"),
        ("stap_klaar", "paco"),
        ("klaar", "paco"),
        ("notitie", "paco"),
    ]
    assert (await kinds(conn, expired))[-1] == "verlopen"

    given_back = await new_task(conn, "Nog een", toegewezen_aan="paco")
    second = InProcess(worker_env(daemon_url, tmp_path / "twee", mode="notloggedin"), tmp_path / "twee.log", "--once")
    try:
        assert await second.wait(60) == 0
    finally:
        await second.stop()
    row = await conn.fetchrow("select status, pogingen from agent_taken where id = $1", given_back)
    assert (row["status"], row["pogingen"]) == ("wachtend", 0)
    assert await kinds(conn, given_back) == ["gestart", "notitie", "vrijgegeven"]

    # The same login may not write a task itself: all of the above went through the functions.
    as_daemon = await asyncpg.connect(daemon_url)
    try:
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await as_daemon.execute("update agent_taken set status = 'klaar', bewijs = 'x' where id = $1", given_back)
    finally:
        await as_daemon.close()


async def _status_is(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return await status_of(conn, task_id) == status


async def _rows(conn: asyncpg.Connection, task_id: str, count: int) -> bool:
    return len(await kinds(conn, task_id)) >= count
