"""The owner's name for the fleet, end to end (issue 41): a task the owner gives on one machine, a bot's question
asked in a session the daemon runs on another, and the answer from a third all carry the one name the database
holds, whatever TAAK_OWNER each machine has."""

from __future__ import annotations

from pathlib import Path

import asyncpg

from tests.helpers import run_taak
from tests.system.harness import InProcess, status_of, switch_on, wait_for, worker_env


async def test_a_bots_question_answered_on_another_machine_carries_the_fleets_name(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    asks = 'taak blokkeer {id} "Welk album, Zomer of Winter?"'
    env = worker_env(db_url, tmp_path, mode="run", FAKE_RUN=asks, TAAK_OWNER="beheer-testbox")
    laptop = {**env, "TAAK_MACHINE": "laptop", "TAAK_OWNER": "jamal-laptop"}
    assert run_taak(laptop, "eigenaar", "zet", "Jamal").code == 0
    task_id = run_taak(laptop, "nieuw", "Zet de foto's online", "--aan", "paco").out.strip()
    daemon = InProcess(env, tmp_path / "worker.log")
    try:

        async def asked() -> bool:
            return await status_of(conn, task_id) == "wacht_op_mens"

        await wait_for(asked, timeout=30, what="the bot's question")
    finally:
        await daemon.stop()
    phone = {**env, "TAAK_MACHINE": "mini", "TAAK_OWNER": ""}  # the OS user here, were it not for the fleet's name
    answered = run_taak(phone, "antwoord", task_id, "album Zomer")
    assert answered.code == 0, answered.err
    row = await conn.fetchrow(
        "select bot, tekst from agent_taak_log where taak_id = $1 and soort = 'antwoord'", task_id
    )
    assert (row["bot"], row["tekst"]) == ("Jamal", "album Zomer")
    assert await conn.fetchval("select opdrachtgever from agent_taken where id = $1", task_id) == "Jamal"
    asker = await conn.fetchval("select bot from agent_taak_log where taak_id = $1 and soort = 'vraag'", task_id)
    assert asker == "paco"  # the session's own rows keep its bot
