"""Issue 41 end to end: the daemon runs a stand-in agent's session for paco, and `taak overzicht --per-dag` shows
today's task, session and cost beside yesterday's messages in the old queue, the day before paco's switch-on."""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg

from tests.helpers import run_taak
from tests.system.harness import InProcess, new_task, status_of, switch_on, wait_for, worker_env


async def test_the_day_table_shows_the_daemons_session_beside_the_old_queue_of_the_day_before(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await conn.execute(
        "create table public.agent_messages (id serial primary key, content text, sender text, recipient text, "
        "created_at timestamptz, status text)"
    )
    yesterday_noon = "(taak_dag(now()) - 1 + time '12:00') at time zone taak_tijdzone()"
    await conn.execute(
        "insert into agent_messages (content, sender, recipient, created_at, status) values "
        f"('zet de foto''s online', 'jamal', 'paco', {yesterday_noon}, 'done'), "
        f"('en de video', 'jamal', 'paco', {yesterday_noon}, 'pending')"
    )
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode finish --fake-cost 0.25")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _finished(conn, task_id), timeout=60, what="the task finished by its session")
    finally:
        await daemon.stop()
    result = run_taak(env, "overzicht", "--per-dag", "--dagen", "2", "--json")
    assert result.code == 0, result.err
    rows = {(r["dag"], r["bot"]): r for r in json.loads(result.out)["dagen"]}
    today, yesterday = sorted({day for day, _ in rows}, reverse=True)
    after, before = rows[today, "paco"], rows[yesterday, "paco"]
    figures = ("nieuw", "klaar", "sessies", "sessies_per_klare_taak", "sessies_zonder_stap", "kosten_usd")
    assert [after[name] for name in figures] == [1, 1, 1, 1.0, 0, 0.25]
    assert (after["voor_aanzetten"], after["aangezet"], after["berichten"]) == (False, today, None)
    assert (before["voor_aanzetten"], before["berichten"], before["afgehandeld"]) == (True, 2, 1)
    assert rows[yesterday, None]["berichten"] == 2  # the fleet's row of that day


async def _finished(conn: asyncpg.Connection, task_id: str) -> bool:
    return await status_of(conn, task_id) == "klaar"
