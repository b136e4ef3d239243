"""Migrations: in order, once, from several processes at once, and never over a changed file; a function file
whenever its text changed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.conftest import with_database
from tests.helpers import run_taak
from tests.system.harness import wait_for
from worker.core.errors import Refused
from worker.db.migrate import Migration, load_migrations, load_repeatables, migrate, status


def every_file() -> list[str]:
    return [m.name for m in [*load_migrations(), *load_repeatables()]]


async def tables(conn: asyncpg.Connection) -> set[str]:
    rows = await conn.fetch("select tablename from pg_tables where schemaname = 'public'")
    return {r["tablename"] for r in rows}


async def test_migrate_creates_the_schema_on_an_empty_database(empty_db_url: str) -> None:
    conn = await asyncpg.connect(empty_db_url)
    try:
        applied = await migrate(conn)
        assert applied == every_file()
        assert {"agent_taken", "agent_taak_log", "taak_migraties"} <= await tables(conn)
    finally:
        await conn.close()


async def test_a_second_migrate_changes_nothing(empty_db_url: str) -> None:
    conn = await asyncpg.connect(empty_db_url)
    try:
        await migrate(conn)
        recorded = await conn.fetch("select * from taak_migraties order by naam")
        assert await migrate(conn) == []
        assert await conn.fetch("select * from taak_migraties order by naam") == recorded
        assert (await status(conn)).pending == []
    finally:
        await conn.close()


async def test_the_command_migrates_and_then_says_up_to_date(empty_db_url: str, cli_env: dict[str, str]) -> None:
    cli_env["TAAK_DATABASE_URL"] = empty_db_url
    first = run_taak(cli_env, "db", "migrate")
    second = run_taak(cli_env, "db", "migrate")
    assert first.code == 0, first.err
    assert "applied 001_basis.sql" in first.out
    assert "applied functions/40_taak_claim.sql" in first.out
    assert second.code == 0
    assert second.out.strip() == "up to date"
    listing = run_taak(cli_env, "db", "status")
    assert "applied  001_basis.sql" in listing.out
    assert "pending" not in listing.out


async def test_two_processes_migrating_at_once_apply_each_file_once(empty_db_url: str, cli_env: dict[str, str]) -> None:
    cli_env["TAAK_DATABASE_URL"] = empty_db_url
    command = [sys.executable, "-m", "worker.cli.taak", "db", "migrate"]
    processes = [
        subprocess.Popen(command, env=cli_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)
    ]
    outputs = [p.communicate(timeout=60) for p in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    applied_lines = [line for out, _ in outputs for line in out.decode().splitlines() if line.startswith("applied")]
    assert sorted(applied_lines) == sorted(f"applied {name}" for name in every_file())
    conn = await asyncpg.connect(empty_db_url)
    try:
        assert await conn.fetchval("select count(*) from taak_migraties") == len(every_file())
    finally:
        await conn.close()


async def test_a_changed_migration_is_refused_by_name_and_nothing_is_applied(empty_db_url: str) -> None:
    conn = await asyncpg.connect(empty_db_url)
    try:
        originals = load_migrations()
        await migrate(conn, originals)
        recorded = await conn.fetch("select * from taak_migraties order by naam")
        tampered = [Migration(originals[0].name, originals[0].sql + "\n-- changed"), *originals[1:]]
        with pytest.raises(Refused) as refused:
            await migrate(conn, [*tampered, Migration("999_later.sql", "create table later (id int)")])
        assert originals[0].name in refused.value.render("en")
        assert await conn.fetch("select * from taak_migraties order by naam") == recorded
        assert "later" not in await tables(conn)
    finally:
        await conn.close()


async def test_a_migration_that_fails_leaves_nothing_of_the_run_behind(empty_db_url: str) -> None:
    conn = await asyncpg.connect(empty_db_url)
    try:
        broken = Migration("999_kapot.sql", "alter table bestaat_niet add column x int")
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate(conn, [*load_migrations(), broken])
        assert await tables(conn) == set()
    finally:
        await conn.close()


async def test_a_function_whose_file_changed_since_it_was_applied_is_pending_and_applied_again(
    conn: asyncpg.Connection,
) -> None:
    name = "functions/10_taak_botnaam.sql"
    await conn.execute("create or replace function taak_botnaam(naam text) returns text language sql as 'select naam'")
    await conn.execute("update taak_migraties set checksum = 'an earlier text' where naam = $1", name)
    others = await conn.fetch("select * from taak_migraties where naam <> $1 order by naam", name)
    assert (await status(conn)).pending == [name]
    assert await migrate(conn) == [name]
    assert await conn.fetchval("select taak_botnaam(' Paco ')") == "paco"
    assert await conn.fetch("select * from taak_migraties where naam <> $1 order by naam", name) == others
    assert (await status(conn)).pending == []


async def test_no_function_is_applied_on_a_schema_a_newer_version_migrated(conn: asyncpg.Connection) -> None:
    """Its functions may rest on what this version does not know: an older text put back would break them."""
    name = "functions/10_taak_botnaam.sql"
    await conn.execute("create or replace function taak_botnaam(naam text) returns text language sql as 'select naam'")
    await conn.execute("update taak_migraties set checksum = 'a newer text' where naam = $1", name)
    await conn.execute("insert into taak_migraties (naam, checksum) values ('999_later.sql', 'later')")
    assert await migrate(conn) == []
    assert await conn.fetchval("select taak_botnaam(' Paco ')") == " Paco "
    assert (await status(conn)).pending == []


async def test_the_command_exits_1_naming_a_tampered_file(db_url: str, cli_env: dict[str, str]) -> None:
    conn = await asyncpg.connect(db_url)
    try:
        # A recorded checksum that no longer matches the file is what an edited file looks like.
        await conn.execute("update taak_migraties set checksum = 'edited' where naam = '001_basis.sql'")
        await conn.execute("delete from taak_migraties where naam = 'functions/10_taak_backoff.sql'")
        result = run_taak(cli_env, "db", "migrate")
        assert result.code == 1
        assert "001_basis.sql" in result.err
        assert len(result.err.strip().splitlines()) == 1
        assert (
            await conn.fetchval("select count(*) from taak_migraties where naam = 'functions/10_taak_backoff.sql'") == 0
        )
    finally:
        await conn.close()


async def test_the_old_agent_tasks_table_is_archived_with_every_row(empty_db_url: str) -> None:
    conn = await asyncpg.connect(empty_db_url)
    try:
        await conn.execute("create table agent_tasks (id serial primary key, task text, status text)")
        await conn.executemany(
            "insert into agent_tasks (task, status) values ($1, 'pending')",
            [(f"oud {n}",) for n in range(37)],
        )
        await migrate(conn)
        assert "agent_tasks" not in await tables(conn)
        assert await conn.fetchval("select count(*) from agent_tasks_archief") == 37
        assert await conn.fetchval("select task from agent_tasks_archief where id = 37") == "oud 36"
    finally:
        await conn.close()


@pytest.mark.slow
async def test_migrations_ship_inside_the_built_wheel(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parents[2]
    built = await asyncio.to_thread(
        subprocess.run,
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path),
            str(repo),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("*.whl")
    unpacked = tmp_path / "unpacked"
    import zipfile

    zipfile.ZipFile(wheel).extractall(unpacked)
    assert (unpacked / "worker" / "sql" / "migrations" / "001_basis.sql").is_file()
    assert (unpacked / "worker" / "sql" / "functions" / "40_taak_claim.sql").is_file()
    assert (unpacked / "worker" / "deploy" / "systemd" / "queue-worker@.service").is_file()
    # The installed package finds its own copy, not the checkout's.
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "from worker.db.sqlfiles import sql_dir, queries; print(sql_dir()); print(len(queries()))",
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(unpacked)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[0] == str(unpacked / "worker" / "sql")
    assert int(probe.stdout.splitlines()[1]) > 10


@pytest.mark.slow  # a server of its own: roles are the server's, and the shared one has taak's already
async def test_two_databases_of_one_server_migrating_at_once_for_the_first_time_both_succeed(tmp_path: Path) -> None:
    from worker.db.embedded import ensure_embedded, stop_embedded

    server = await asyncio.to_thread(ensure_embedded, tmp_path / "pg")
    try:
        admin = await asyncpg.connect(server)
        for name in ("eerste", "tweede"):
            await admin.execute(f"create database {name}")
        await admin.close()
        first = await asyncpg.connect(with_database(server, "eerste"))
        second = await asyncpg.connect(with_database(server, "tweede"))
        # The first database's migration holds the role it made, not yet committed, when the second makes it too.
        making = first.transaction()
        await making.start()
        await first.execute("create role taak_daemon nologin")
        migrating = asyncio.create_task(migrate(second))
        waiting = "select exists (select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock')"
        await wait_for(lambda: first.fetchval(waiting, second.get_server_pid()), what="the second migration to wait")
        await making.commit()
        assert await migrating == every_file()
        assert await second.fetchval("select count(*) from agent_taken") == 0
        await first.close()
        await second.close()
    finally:
        await asyncio.to_thread(stop_embedded, tmp_path / "pg")


async def test_the_words_of_skills_move_to_one_row_a_word_kept_by_the_skill_that_decided_it(
    empty_db_url: str,
) -> None:
    # Migration 005: a word implies one skill; before it a shared word went to the first skill by name.
    conn = await asyncpg.connect(empty_db_url)
    try:
        await migrate(conn, [m for m in load_migrations() if m.name < "005"])
        await conn.execute(
            "insert into taak_vaardigheden (vaardigheid, woorden) values "
            "('beeld', '{foto,\uff36\uff29\uff24\uff25\uff2f,b}'), ('aaa2', '{foto,geen}')"
        )
        await migrate(conn)
        words = await conn.fetch("select woord, vaardigheid from taak_vaardigheid_woorden order by woord")
        assert [tuple(r) for r in words] == [("foto", "aaa2"), ("video", "beeld")]
    finally:
        await conn.close()
