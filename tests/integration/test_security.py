"""Row-level security and roles: every grant and every denial, by connecting as each role."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from worker.core.model import Soort
from worker.db.ledger import Ledger, NewTask
from worker.db.migrate import migrate

LOGINS = {"test_daemon": "taak_daemon", "test_sessie": "taak_sessie", "anon": None}


def as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{role}@{host}", parts.path, parts.query, parts.fragment))


@pytest.fixture
async def roles(conn: asyncpg.Connection) -> None:
    for login, member_of in LOGINS.items():
        exists = await conn.fetchval("select 1 from pg_roles where rolname = $1", login)
        if not exists:
            await conn.execute(f"create role {login} login")
        if member_of:
            await conn.execute(f"grant {member_of} to {login}")


@pytest.fixture
async def connect_as(db_url: str, roles: None) -> AsyncIterator[dict[str, asyncpg.Connection]]:
    connections = {role: await asyncpg.connect(as_role(db_url, role)) for role in LOGINS}
    yield connections
    for connection in connections.values():
        await connection.close()


async def held_task(conn: asyncpg.Connection) -> tuple[str, str]:
    ledger = Ledger(conn)
    task_id = await ledger.nieuw(NewTask("Doe het", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    return task_id, claim.token


async def test_row_level_security_is_on_for_every_table_of_ours(conn: asyncpg.Connection) -> None:
    tables = await conn.fetch(
        "select relname, relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace "
        "where n.nspname = 'public' and c.relkind = 'r'"
    )
    assert tables
    assert {t["relname"] for t in tables if not t["relrowsecurity"]} == set()


async def test_the_daemon_role_runs_the_whole_ledger(connect_as: dict[str, asyncpg.Connection]) -> None:
    daemon = connect_as["test_daemon"]
    ledger = Ledger(daemon)
    task_id = await ledger.nieuw(NewTask("Doe het", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.log(task_id, Soort.STAP_KLAAR, "stap", token=claim.token)
    await ledger.klaar(task_id, "/tmp/bewijs", "af", token=claim.token)
    assert (await ledger.toon(task_id)).status == "klaar"
    assert await daemon.fetchval("select count(*) from taak_overzicht") >= 1


async def test_a_session_can_only_use_the_fenced_functions_with_its_token(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]
) -> None:
    task_id, token = await held_task(conn)
    session = connect_as["test_sessie"]
    for statement in (
        "select * from agent_taken",
        "select * from agent_taak_log",
        f"insert into agent_taak_log (taak_id, soort) values ('{task_id}', 'notitie')",
        f"update agent_taken set volgende_stap = 'x' where id = '{task_id}'",
        "select taak_nieuw('nieuw', 'sessie')",
    ):
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await session.execute(statement)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="not current"):
        await session.execute("select taak_sessie_log($1, gen_random_uuid(), 'stap_klaar', 'vals')", task_id)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="cannot log"):
        await session.execute("select taak_sessie_log($1, $2::uuid, 'klaar', 'vals')", task_id, token)
    await session.execute("select taak_sessie_log($1, $2::uuid, 'stap_klaar', 'echt')", task_id, token)
    await session.execute("select taak_sessie_klaar($1, $2::uuid, '/tmp/bewijs', 'af')", task_id, token)
    rows = await conn.fetch("select soort, tekst from agent_taak_log where taak_id = $1 order by id", task_id)
    assert [tuple(r) for r in rows][-2:] == [("stap_klaar", "echt"), ("klaar", "af")]
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="not current"):
        await session.execute("select taak_sessie_blokkeer($1, $2::uuid, 'nog een vraag')", task_id, token)


async def test_anon_gets_nothing_at_all(conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]) -> None:
    task_id, token = await held_task(conn)
    anon = connect_as["anon"]
    for statement in (
        "select * from agent_taken",
        "select * from agent_bots",
        "select * from taak_overzicht",
        "select * from machines",
        "insert into agent_bots (bot) values ('inbreker')",
        "select taak_nieuw('inbraak', 'anon')",
        f"select taak_sessie_log('{task_id}', '{token}'::uuid, 'notitie', 'inbraak')",
    ):
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await anon.execute(statement)


async def test_an_existing_open_bot_heartbeats_table_is_closed_but_keeps_the_daemon_in(
    empty_db_url: str, roles: None
) -> None:
    owner = await asyncpg.connect(empty_db_url)
    try:
        await owner.execute("create table bot_heartbeats (bot text primary key, seen timestamptz default now())")
        await owner.execute("grant all on bot_heartbeats to public")
        await migrate(owner)
        assert await owner.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is True
    finally:
        await owner.close()
    daemon = await asyncpg.connect(as_role(empty_db_url, "test_daemon"))
    anon = await asyncpg.connect(as_role(empty_db_url, "anon"))
    try:
        await daemon.execute("insert into bot_heartbeats (bot) values ('paco')")
        assert await daemon.fetchval("select count(*) from bot_heartbeats") == 1
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await anon.execute("select * from bot_heartbeats")
    finally:
        await daemon.close()
        await anon.close()
