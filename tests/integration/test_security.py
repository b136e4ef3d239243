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

from tests.helpers import ledger_on
from worker.core.errors import Refused
from worker.core.model import Soort
from worker.db.ledger import NewTask
from worker.db.migrate import migrate

# What each test login is a member of: the product's three roles (migrations 010 and 026 make them) and Supabase's.
MEMBER_OF = {
    "daemon": "taak_daemon",
    "eigenaar": "taak_eigenaar",
    "sessie": "taak_sessie",
    "anon": "anon",
    "authenticated": "authenticated",
}
SUPABASE_ROLES = ("anon", "authenticated", "service_role")
# What Supabase's own set-up does to every new object in `public` (its default privileges).
SUPABASE_DEFAULT_PRIVILEGES = [
    f"alter default privileges in schema public grant all on {kind} to anon, authenticated, service_role"
    for kind in ("tables", "sequences", "functions")
]


def as_role(url: str, role: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, f"{role}@{host}", parts.path, parts.query, parts.fragment))


@pytest.fixture
async def supabase_anon(server_url: str) -> None:
    """Supabase's roles as Supabase has them (NOLOGIN); made only where the server has none.

    A role made here is left in place: it holds nothing, and another run on the same server may be using it.
    """
    admin = await asyncpg.connect(server_url)
    try:
        for role in SUPABASE_ROLES:
            if not await admin.fetchval("select 1 from pg_roles where rolname = $1", role):
                with contextlib.suppress(asyncpg.DuplicateObjectError):  # another run made it meanwhile
                    await admin.execute(f"create role {role} nologin")
    finally:
        await admin.close()


async def like_supabase(database_url: str) -> None:
    """Give a fresh database Supabase's default privileges, before anything of ours is made in it."""
    owner = await asyncpg.connect(database_url)
    try:
        for statement in SUPABASE_DEFAULT_PRIVILEGES:
            await owner.execute(statement)
    finally:
        await owner.close()


@pytest.fixture
async def db_url(empty_db_url: str, supabase_anon: None) -> str:
    """This module's database is set up like Supabase's and then migrated, not cloned from the template."""
    await like_supabase(empty_db_url)
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
    ledger = ledger_on(conn)
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
    ledger = ledger_on(daemon)
    task_id = await ledger.nieuw(NewTask("Doe het", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.log(task_id, Soort.STAP_KLAAR, "stap", token=claim.token)
    await ledger.klaar(task_id, "/tmp/bewijs", "af", token=claim.token)
    assert (await ledger.toon(task_id)).status == "klaar"
    assert await daemon.fetchval("select count(*) from taak_overzicht") >= 1


async def test_the_owners_role_reads_the_day_table_beside_an_old_queue_it_may_not_read(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection], db_url: str
) -> None:
    """`taak overzicht --per-dag` and the cockpit as the owner's role: the old queue is the owner's own table, and
    one this role may not read leaves its columns empty (not read, and said why) instead of failing the table."""
    from worker.core.phrases import phrase
    from worker.db.overview import per_day
    from worker.settings import Settings

    await conn.execute(
        "create table public.agent_messages (id serial primary key, content text, sender text, recipient text, "
        "created_at timestamptz default now(), status text default 'pending')"
    )
    await conn.execute("insert into agent_messages (content, recipient) values ('x', 'paco')")
    await conn.execute("insert into agent_bots (bot) values ('paco') on conflict do nothing")
    settings = Settings(_env_file=None, database_url=db_url)  # type: ignore[call-arg]
    found = await per_day(connect_as["eigenaar"], 2, settings)
    assert [(r["bot"], r["berichten"]) for r in found.rows] == [(None, None), (None, None)]  # not read, not none
    assert found.old_queue.unread == phrase("per_day.old_queue_no_right")
    owners = (await per_day(conn, 2, settings)).rows
    assert [(r["bot"], r["berichten"]) for r in owners][-2:] == [(None, 1), ("paco", 1)]


async def test_a_daemon_member_cannot_finish_a_task_write_as_another_bot_or_overwrite_a_lease_token(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]
) -> None:
    """The daemon's role reads the tables and writes them only through the functions that check the lease token
    (migration 026); before, it could update any task row and insert any log row."""
    task_id, token = await held_task(conn)
    daemon = connect_as["daemon"]
    for statement in (
        f"update agent_taken set status = 'klaar', bewijs = 'vals', lease_token = null, lease_tot = null "
        f"where id = '{task_id}'",
        f"insert into agent_taak_log (taak_id, bot, soort, tekst) values ('{task_id}', 'coco', 'stap_klaar', 'vals')",
        f"update agent_taken set lease_token = gen_random_uuid() where id = '{task_id}'",
        f"delete from agent_taken where id = '{task_id}'",
    ):
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await daemon.execute(statement)
    ledger = ledger_on(daemon)
    with pytest.raises(Refused, match="lease"):  # a token that is not the task's finishes nothing
        await ledger.klaar(task_id, "/tmp/vals", "vals", token=str(uuid.uuid4()))
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="lease token"):  # without a token: no klaar row
        await daemon.execute("select * from taak_log_zonder_token($1, 'coco', 'klaar', 'vals', null, '{}')", task_id)
    await ledger.log(task_id, Soort.STAP_KLAAR, "echt", token=token, bot="coco")  # the row is the holder's
    row = await conn.fetchrow("select bot, tekst from agent_taak_log where taak_id = $1 order by id desc", task_id)
    assert tuple(row) == ("paco", "echt")
    task = await ledger_on(conn).toon(task_id)
    assert (task.status, task.lease_token) == ("bezig", token)


async def test_the_owners_role_still_cancels_and_takes_back_what_the_daemons_role_may_not(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]
) -> None:
    held, _token = await held_task(conn)
    waiting = await ledger_on(conn).nieuw(NewTask("Wacht", "jamal", toegewezen_aan="paco"))
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await ledger_on(connect_as["daemon"]).terugnemen(held, "hangt", wie="jamal")
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await ledger_on(connect_as["daemon"]).annuleer(waiting, "niet meer nodig", wie="jamal")
    owner = ledger_on(connect_as["eigenaar"])
    await owner.terugnemen(held, "hangt", wie="jamal")
    await owner.annuleer(waiting, "niet meer nodig", wie="jamal")
    assert [(await owner.toon(t)).status for t in (held, waiting)] == ["wachtend", "geannuleerd"]


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


async def test_supabases_default_privileges_leave_anon_and_authenticated_nothing(conn: asyncpg.Connection) -> None:
    granted = await conn.fetch(
        """
        select r.rolname, c.relname as what, 'table' as kind
        from pg_class c cross join pg_roles r
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'v')
          and r.rolname in ('anon', 'authenticated')
          and (has_table_privilege(r.oid, c.oid, 'select,insert,update,delete,truncate,references,trigger'))
        union all
        select r.rolname, c.relname, 'sequence'
        from pg_class c cross join pg_roles r
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'S' and r.rolname in ('anon', 'authenticated')
          and has_sequence_privilege(r.oid, c.oid, 'usage,select,update')
        union all
        select r.rolname, p.proname, 'function'
        from pg_proc p cross join pg_roles r
        where p.pronamespace = 'public'::regnamespace and r.rolname in ('anon', 'authenticated')
          and has_function_privilege(r.oid, p.oid, 'execute')
        """
    )
    assert await conn.fetchval("select count(*) from pg_default_acl") == 3  # the database really is set up so
    assert [tuple(g) for g in granted] == []


async def test_anon_cannot_stall_the_log_nor_authenticated_empty_a_table(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]
) -> None:
    task_id, _token = await held_task(conn)
    attacks = {
        "anon": ["select setval('agent_taak_log_id_seq', 9223372036854775807)", "select taak_volgend_id()"],
        "authenticated": [
            "truncate agent_bots",
            "truncate taak_meldingen",
            "truncate machine_aliassen",
            "select taak_nieuw('inbraak', 'authenticated')",
        ],
    }
    for kind, statements in attacks.items():
        for statement in statements:
            with pytest.raises(asyncpg.InsufficientPrivilegeError):
                await connect_as[kind].execute(statement)
    await ledger_on(conn).log(task_id, Soort.NOTITIE, "de log schrijft nog")


async def test_a_daemon_member_cannot_stall_the_counter_forge_times_or_touch_the_migrations(
    conn: asyncpg.Connection, connect_as: dict[str, asyncpg.Connection]
) -> None:
    """Also: no burning of task numbers, no task without its creation note, no moving the intake's cut-off."""
    daemon = connect_as["daemon"]
    ledger = ledger_on(daemon)
    first = await ledger.nieuw(NewTask("Eerste", "jamal"))
    day, number = first.rsplit("-", 1)
    planted = f"{day}-{int(number) + 1:03d}"
    with pytest.raises(asyncpg.InsufficientPrivilegeError):  # a task comes in through taak_nieuw only
        await daemon.execute(
            "insert into agent_taken (id, titel, opdracht, opdrachtgever) values ($1, 'x', 'x', 'x')", planted
        )
    await conn.execute(  # planted by someone who may (the owner): the counter steps over it
        "insert into agent_taken (id, titel, opdracht, opdrachtgever) values ($1, 'x', 'x', 'x')", planted
    )
    after = [await ledger.nieuw(NewTask(f"Daarna {n}", "jamal")) for n in range(3)]
    assert planted not in after
    assert len(set(after)) == 3
    for statement in (
        "insert into agent_taak_teller (dag, laatste) values (current_date + 1, 2147483647)",
        "update agent_taak_teller set laatste = 2147483647",
        "delete from taak_migraties",
        "update taak_migraties set checksum = 'x'",
        "insert into taak_migraties (naam, checksum) values ('999_vals.sql', 'x')",
        "truncate agent_taak_log",
        "select taak_volgend_id()",
        "update taak_instellingen set waarde = '1970-01-01' where sleutel = 'intake_vanaf'",
        "insert into taak_instellingen (sleutel, waarde) values ('x', 'y')",
    ):
        with pytest.raises(asyncpg.InsufficientPrivilegeError):
            await daemon.execute(statement)
    assert await daemon.fetchval("select count(*) from taak_migraties") > 0  # it may read them
    forged = await connect_as["eigenaar"].fetchrow(  # the owner's role still appends to the log itself
        "insert into agent_taak_log (taak_id, soort, tekst, ts) values ($1, 'notitie', 'vals', '2001-01-01') "
        "returning ts, ts > now() - interval '1 minute' as nu",
        first,
    )
    assert forged["nu"], forged["ts"]


async def test_migrating_leaves_an_open_bot_heartbeats_as_the_owner_had_it(
    empty_db_url: str, supabase_anon: None, logins: Logins
) -> None:
    owner = await asyncpg.connect(empty_db_url)
    try:
        await owner.execute("create table bot_heartbeats (bot text primary key, seen timestamptz default now())")
        await owner.execute("grant all on bot_heartbeats to public")
        await migrate(owner)
        assert await owner.fetchval("select relrowsecurity from pg_class where relname = 'bot_heartbeats'") is False
    finally:
        await owner.close()
    names = await logins.make(empty_db_url)
    anon = await asyncpg.connect(as_role(empty_db_url, names["anon"]))
    try:
        await anon.execute("insert into bot_heartbeats (bot) values ('paco')")  # the bots with the public key
        assert await anon.fetchval("select count(*) from bot_heartbeats") == 1
    finally:
        await anon.close()
