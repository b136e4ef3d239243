"""Each machine's daemon version, from its heartbeat, in `taak bot lijst` and `taak machine lijst`, flagged when it is
not the newest one seen in the fleet (issue 41)."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from tests.helpers import run_taak
from tests.system.harness import InProcess, switch_on, wait_for, worker_env
from worker.db.migrate import running_version


async def test_a_running_daemon_says_its_version_and_an_older_one_is_flagged(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    env = worker_env(db_url, tmp_path, TAAK_LANGUAGE="en")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:

        async def beating() -> bool:
            return await conn.fetchval("select versie from agent_bots where bot = 'paco'") == running_version()

        await wait_for(beating, what="the daemon's heartbeat with its version")
        # Not registered yet: listed from the heartbeat, with its bot (the outside try found "(no machines)").
        (machine,) = [line for line in run_taak(env, "machine", "lijst").out.splitlines() if "testbox" in line]
        assert "paco" in machine
        assert machine.endswith(running_version())
        assert run_taak(env, "machine", "zet", "testbox", "--alias", "veranda").code == 0
        (machine,) = [line for line in run_taak(env, "machine", "lijst").out.splitlines() if "testbox" in line]
        assert machine.endswith(running_version())
        # Another machine's daemon, newer: this one is now behind.
        await conn.execute(
            "insert into agent_bots (bot, machine, versie) values ('sjakie', 'mini', '99.0.0') "
            "on conflict (bot) do update set machine = excluded.machine, versie = excluded.versie"
        )
        (machine,) = [line for line in run_taak(env, "machine", "lijst").out.splitlines() if "testbox" in line]
        assert machine.endswith(f"{running_version()} (not the newest: 99.0.0)")
        (paco,) = [line for line in run_taak(env, "bot", "lijst").out.splitlines() if line.startswith("paco")]
        assert f"{running_version()} (not the newest: 99.0.0)" in paco
    finally:
        await daemon.stop()
