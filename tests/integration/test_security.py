"""Row-level security and roles: every grant and every denial, by connecting as each role.

The server may be Supabase's or sit beside it, with its own `anon` (NOLOGIN, as Supabase makes it): the
tests never log in as a shared role. Each test makes login roles of its own, `taak_t_<hex>_<kind>`, members of
`taak_daemon`, `taak_sessie` and `anon`, connects as those, and drops them afterwards, pass or fail.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from worker.core.model import Soort
from worker.db.ledger import Ledger, NewTask
from worker.db.migrate import migrate

# What each test login is a member of: the product's two roles (migration 010 makes them) and Supabase's anon.
MEMBER_OF = {"daemon": "taak_daemon", "sessie": "taak_sessie", "anon": "anon"}


def as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{role}@{host}", parts.path, parts.query, parts.fragment))


@pytest.fixture
async def supabase_anon(server_url: str) -> None:
    """Supabase's `anon` role, as Supabase has it (NOLOGIN); made only where the server has none.

    Migration 010 revokes from `anon` only when it exists, so this comes before a database is migrated. A role
    made here is left in place: it holds nothing, and another run on the same server may be using it.
    """
    admin = await asyncpg.connect(server_url)
    try:
        if not await admin.fetchval("select 1 from pg_roles where rolname = 'anon'"):
            with contextlib.suppress(asyncpg.DuplicateObjectError):  # another run made it meanwhile
                await admin.execute("create role anon nologin")
    finally:
        await admin.close()


@pytest.fixture
async def db_url(empty_db_url: str, supabase_anon: None) -> str:
    """This module's database is migrated after `anon` exists, not cloned from the run's template."""
    owner = await asyncpg.connect(empty_db_url)
    try:
        await migrate(owner)
    finally:
        await owner.close()
    return empty_db_url


class Logins:
    """Login roles of one test's own, made on demand and dropped at the end of the test."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        tag = uuid.uuid4().hex[:8]
        self.names = {kind: f"taak_t_{tag}_{kind}" for kind in MEMBER_OF}
        self.made: list[str] = []
        self.databases: set[str] = set()

    async def make(self, database_url: str) -> dict[str, str]:
        """Create the logins (the roles they join must exist by now) and return them by kind."""
        self.databases.add(database_url)
        admin = await asyncpg.connect(self.server_url)
        try:
            for kind, member_of in MEMBER_OF.items():
                name = self.names[kind]
                if name not in self.made:
                    await admin.execute(f'create role "{name}" login')
                    self.made.append(name)
                    await admin.execute(f'grant "{member_of}" to "{name}"')
        finally:
            await admin.close()
        return self.names

    async def drop(self) -> None:
        if not self.made:
            return
        quoted = ", ".join(f'"{name}"' for name in self.made)
        for database_url in self.databases:
            try:
                conn = await asyncpg.connect(database_url)
            except (asyncpg.InvalidCatalogNameError, OSError):
                continue  # that database is gone, and with it whatever the roles had there
            try:
                await conn.execute(f"drop owned by {quoted}")
            finally:
                await conn.close()
        admin = await asyncpg.connect(self.server_url)
        try:
            for name in self.made:
                await admin.execute(f'drop role if exists "{name}"')
        finally:
            await admin.close()


@pytest.fixture
async def logins(server_url: str) -> AsyncIterator[Logins]:
    made = Logins(server_url)
    try:
        yield made
    finally:
        await made.drop()


@pytest.fixture
async def connect_as(db_url: str, logins: Logins) -> AsyncIterator[dict[str, asyncpg.Connection]]:
    names = await logins.make(db_url)
    connections: dict[str, asyncpg.Connection] = {}
    try:
        for kind, name in names.items():
            connections[kind] = await asyncpg.connect(as_role(db_url, name))
        yield connections
    finally:
        for connection in connections.values():
            await connection.close()


async def test_each_login_is_the_tests_own_and_a_member_of_its_role(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection], logins: Logins
) -> None:
    for kind, member_of in MEMBER_OF.items():
        who = await connect_as[kind].fetchval("select current_user")
        assert who == logins.names[kind]
        assert who.startswith("taak_t_")
        assert await conn.fetchval("select pg_has_role($1, $2, 'usage')", who, member_of)  # inherits its rights


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
    daemon = connect_as["daemon"]
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
    session = connect_as["sessie"]
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
    empty_db_url: str, supabase_anon: None, logins: Logins
) -> None:
    owner = await asyncpg.connect(empty_db_url)
    try:
        await owner.execute("create table bot_heartbeats (bot text primary key, seen timestamptz default now())")
        await owner.execute("grant all on bot_heartbeats to public")
        await migrate(owner)
        assert await owner.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is True
    finally:
        await owner.close()
    names = await logins.make(empty_db_url)
    daemon = await asyncpg.connect(as_role(empty_db_url, names["daemon"]))
    anon = await asyncpg.connect(as_role(empty_db_url, names["anon"]))
    try:
        await daemon.execute("insert into bot_heartbeats (bot) values ('paco')")
        assert await daemon.fetchval("select count(*) from bot_heartbeats") == 1
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await anon.execute("select * from bot_heartbeats")
    finally:
        await daemon.close()
        await anon.close()
