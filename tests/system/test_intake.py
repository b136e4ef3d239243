"""Intake from the old queue table: two daemons, 1,000 messages, each message taken exactly once."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on
from tests.system.harness import Daemon, wait_for, worker_env
from worker.db.ledger import NewTask

OLD_TABLE = """
create table agent_messages (
    id serial primary key, sender text, recipient text, content text, created_at timestamptz default now()
)
"""


@pytest.mark.slow
async def test_two_daemons_take_each_of_1000_messages_exactly_once(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    ledger = ledger_on(pool)
    waiting = await ledger.nieuw(NewTask("Kies een kleur", "jamal", toegewezen_aan="sjakie"))
    claim = await ledger.claim(["sjakie"])
    assert claim is not None
    await ledger.blokkeer(waiting, "rood of blauw?", token=claim.token)
    other = await ledger.nieuw(NewTask("Iets anders", "jamal", toegewezen_aan="sjakie"))
    await pool.execute(OLD_TABLE)
    messages = (
        [("kimi", "paco", f"nieuwe opdracht {n}") for n in range(900)]
        + [("jamal", "paco", f"{waiting}: blauw ({n})") for n in range(50)]
        + [("conductor", "paco", f"over {other}: nog iets ({n})") for n in range(50)]
        + [("kimi", "coco", "voor een bot die hier niet draait")]
    )
    await pool.executemany("insert into agent_messages (sender, recipient, content) values ($1, $2, $3)", messages)
    await pool.execute("insert into agent_bots (bot, actief) values ('paco', true)")
    daemons = [
        Daemon(
            worker_env(
                db_url,
                tmp_path / name,
                mode="hang",
                TAAK_MACHINE=name,
                TAAK_SILENCE_TIMEOUT_SECONDS="300",
                TAAK_SHUTDOWN_GRACE_SECONDS="0.2",
                TAAK_KILL_GRACE_SECONDS="1",
                TAAK_INTAKE_STATUS_COLUMN="",  # this old table has no status column
            ),
            tmp_path / f"{name}.log",
        )
        for name in ("mac-a", "mac-b")
    ]
    try:
        await wait_for(lambda: _taken(pool, 1000), timeout=120, what="1,000 messages taken")
    finally:
        for daemon in daemons:
            daemon.stop()
    assert await pool.fetchval("select count(*) from agent_messages where task_id is null") == 1  # coco's
    new_tasks = await pool.fetch("select id, opdracht, opdrachtgever from agent_taken where opdrachtgever = 'kimi'")
    assert len(new_tasks) == 900
    assert len({t["opdracht"] for t in new_tasks}) == 900
    kinds = await pool.fetch(
        "select soort, count(*) from agent_taak_log where taak_id = $1 and soort in "
        "('antwoord', 'notitie') and tekst like '%blauw (%' group by soort",
        waiting,
    )
    assert dict((r["soort"], r["count"]) for r in kinds) == {"antwoord": 1, "notitie": 49}
    assert (
        await pool.fetchval("select count(*) from agent_taak_log where taak_id = $1 and bot = 'conductor'", other) == 50
    )
    joined = await pool.fetchval("select count(*) from agent_messages where parent_id is not null")
    assert joined == 100
    assert all(d.has_event("worker_started") for d in daemons)
    assert sum(1 for d in daemons if d.has_event("intake")) == 2


async def test_without_the_old_table_intake_is_off_and_says_so_once(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    daemon = Daemon(worker_env(db_url, tmp_path, TAAK_POLL_SECONDS="0.2"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "intake_off"), what="the notice")
        import anyio

        await anyio.sleep(1)
    finally:
        daemon.stop()
    assert [e.get("event") for e in daemon.events()].count("intake_off") == 1


async def _taken(pool: asyncpg.Pool, count: int) -> bool:
    try:
        return await pool.fetchval("select count(*) from agent_messages where task_id is not null") >= count
    except asyncpg.UndefinedColumnError:  # the daemons add the column when they start
        return False


async def _event(daemon: Daemon, name: str) -> bool:
    return daemon.has_event(name)


async def test_a_message_whose_sender_is_too_long_for_a_name_is_unusable_and_makes_no_task(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    await conn.execute(OLD_TABLE)
    message_id = await conn.fetchval(
        "insert into agent_messages (sender, recipient, content) values ($1, 'paco', 'Vervang de lamp') returning id",
        "k" * 65,  # the ledger takes a name (--van) of 64 characters at most
    )
    refused = run_taak({**cli_env, "TAAK_INTAKE_STATUS_COLUMN": ""}, "intake", "neem", str(message_id))
    assert refused.code == 1, refused.err  # the intake's own word for it, with the ledger's reason
    assert f"{message_id}" in refused.err
    assert "--van" in refused.err
    assert await conn.fetchval("select count(*) from agent_taken") == 0


async def test_a_message_to_a_task_longer_than_any_text_is_unusable_and_adds_no_row(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    from tests.helpers import run_taak

    task_id = run_taak(cli_env, "nieuw", "Vervang de lamp", "--van", "jamal").out.strip()
    rows = await conn.fetchval("select count(*) from agent_taak_log")
    await conn.execute(OLD_TABLE)
    message_id = await conn.fetchval(
        "insert into agent_messages (sender, recipient, content) values ('jamal', 'paco', $1) returning id",
        f"{task_id}: " + "lang " * 20_001,  # past the 100,000 characters of a log line
    )
    refused = run_taak(
        {**cli_env, "TAAK_INTAKE_STATUS_COLUMN": "", "TAAK_LANGUAGE": "nl"}, "intake", "neem", str(message_id)
    )
    assert refused.code == 1, refused.err
    assert refused.err == (  # why, in the run's language, and nothing else
        f"taak: bericht {message_id} kan geen taak worden en bij geen taak horen: "
        "tekst heeft 100022 tekens; maximaal 100000\n"
    )
    assert await conn.fetchval("select count(*) from agent_taak_log") == rows


async def test_the_preview_judges_a_message_of_invisible_characters_blank_as_the_ledger_does(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    """A zero-width space and a soft hyphen draw nothing: the ledger refuses such an opdracht, so the preview
    must not count it as a task to be."""
    import json

    from tests.helpers import run_taak

    await conn.execute(OLD_TABLE)
    await conn.executemany(
        "insert into agent_messages (sender, recipient, content) values ('jamal', 'paco', $1)",
        [("Vervang de lamp",), ("\u200b\u00ad",), (" \u3000\n",), ("\ufeff\u2060",)],
    )
    env = {**cli_env, "TAAK_INTAKE_STATUS_COLUMN": "", "TAAK_INTAKE_VANAF": "2000-01-01T00:00:00+00:00"}
    shown = run_taak(env, "intake", "voorbeeld", "--json")
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["totaal"] == {"taak": 1, "onbruikbaar": 3}
    text = run_taak({**env, "TAAK_LANGUAGE": "en"}, "intake", "voorbeeld").out
    lines = text.splitlines()
    table = lines[lines.index("per recipient:") + 1 :]
    header, paco = table[0], table[1]
    # A header row whose numbers stand right-aligned under it, in the run's language around it.
    assert paco.split()[:3] == ["paco", "1", "0"]
    assert paco.index("1") + 1 == header.index("taak") + len("taak")
    assert "(nothing was changed" in text
