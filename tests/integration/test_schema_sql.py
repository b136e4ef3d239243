"""The schema readable in one place: sql/schema.sql is what migrating an empty database makes, every function and view
has a file of its own, and a database that applied the 27 migrations of before the first release ends with the same
schema as a fresh one."""

from __future__ import annotations

import difflib
import hashlib
import re
from pathlib import Path

import asyncpg

from tests.schema import REGENERATE, SCHEMA_SQL, describe
from worker.db.migrate import load_migrations, load_repeatables, migrate, status
from worker.db.sqlfiles import sql_dir

LEGACY = Path(__file__).resolve().parents[1] / "fixtures" / "legacy_migrations"
CREATES = re.compile(r"^create (?:or replace )?(function|view|trigger) (\w+)", re.MULTILINE | re.IGNORECASE)


def differences(expected: list[str], actual: list[str]) -> str:
    return "\n".join(difflib.unified_diff(expected, actual, "expected", "actual", lineterm="", n=0))


async def migrate_as_before_the_fold(conn: asyncpg.Connection) -> None:
    """What the migrator of before the first release did: each file in its own transaction, then taak_rechten()
    once it existed, recorded by name and checksum in a record without kinds."""
    await conn.execute(
        "create table taak_migraties (naam text primary key, checksum text not null,"
        " toegepast timestamptz not null default now())"
    )
    for path in sorted(LEGACY.glob("*.sql")):
        text = path.read_text(encoding="utf-8")
        async with conn.transaction():
            await conn.execute(text)
            if await conn.fetchval("select to_regprocedure('taak_rechten()') is not null"):
                await conn.execute("select taak_rechten()")
            await conn.execute(
                "insert into taak_migraties (naam, checksum) values ($1, $2)",
                path.name,
                hashlib.sha256(text.encode()).hexdigest(),
            )


async def test_schema_sql_is_the_schema_of_a_database_migrated_from_empty(
    conn: asyncpg.Connection, empty_db_url: str
) -> None:
    loaded = await asyncpg.connect(empty_db_url)
    try:
        await loaded.execute(SCHEMA_SQL.read_text(encoding="utf-8"))
        await loaded.execute("set search_path = public")
        diff = differences(await describe(conn), await describe(loaded))
    finally:
        await loaded.close()
    assert not diff, f"sql/schema.sql is not what migrating makes; regenerate it: {REGENERATE}\n{diff}"


async def test_a_database_of_the_folded_migrations_ends_with_the_schema_of_a_fresh_one(
    conn: asyncpg.Connection, empty_db_url: str
) -> None:
    legacy = await asyncpg.connect(empty_db_url)
    try:
        await migrate_as_before_the_fold(legacy)
        await migrate(legacy)
        diff = differences(await describe(conn), await describe(legacy))
    finally:
        await legacy.close()
    assert not diff, f"a database of tests/fixtures/legacy_migrations differs from a fresh one after migrating:\n{diff}"


async def test_a_database_of_the_folded_migrations_counts_the_baseline_as_applied_and_keeps_its_rows(
    empty_db_url: str,
) -> None:
    legacy = await asyncpg.connect(empty_db_url)
    try:
        await migrate_as_before_the_fold(legacy)
        task_id = await legacy.fetchval("select taak_nieuw('doe iets', 'jamal')")
        await legacy.execute(
            "update taak_instellingen set waarde = '2026-12-01 08:00+01' where sleutel = 'intake_vanaf'"
        )
        rows_before = await legacy.fetch("select * from agent_taak_log order by id")
        before_migrating = await status(legacy)

        applied = await migrate(legacy)

        assert (before_migrating.newer, before_migrating.applied) == ([], ["001_basis.sql"])
        later = [m.name for m in load_migrations() if m.name != "001_basis.sql"]
        # The baseline is not run (its tables are there); the migrations after it and the repeatables are.
        assert applied == later + [r.name for r in load_repeatables()]
        assert await legacy.fetch("select * from agent_taak_log order by id") == rows_before
        assert await legacy.fetchval("select opdracht from agent_taken where id = $1", task_id) == "doe iets"
        intake_vanaf = "select waarde from taak_instellingen where sleutel = 'intake_vanaf'"
        assert await legacy.fetchval(intake_vanaf) == "2026-12-01 08:00+01"
        kinds = dict(await legacy.fetch("select naam, soort from taak_migraties"))
        assert {kinds[path.name] for path in LEGACY.glob("*.sql")} == {"opgevouwen"}
        assert kinds["001_basis.sql"] == "versie"
        after = await status(legacy)
        assert (after.applied, after.pending, after.newer) == (["001_basis.sql", *later], [], [])
        assert await migrate(legacy) == []
    finally:
        await legacy.close()


async def test_the_schema_comparison_sees_a_changed_body_a_missing_index_and_a_right_taken_away(
    conn: asyncpg.Connection,
) -> None:
    fresh = await describe(conn)
    await conn.execute(
        "create or replace function taak_botnaam(naam text) returns text language sql as 'select upper(naam)'"
    )
    await conn.execute("drop index taak_archief_bestand")
    await conn.execute("revoke select on taak_bezig from taak_daemon")
    diff = differences(fresh, await describe(conn))
    assert "upper(naam)" in diff
    assert "taak_archief_bestand" in diff
    assert "taak_bezig" in diff


def test_versioned_migrations_make_no_function_view_or_trigger() -> None:
    for path in sorted((sql_dir() / "migrations").glob("*.sql")):
        assert not CREATES.findall(path.read_text(encoding="utf-8")), f"{path.name}: put it in sql/functions"


def test_each_function_file_makes_the_one_function_or_view_it_is_named_after() -> None:
    files = sorted((sql_dir() / "functions").glob("*.sql"))
    assert files
    for path in files:
        made = {name for kind, name in CREATES.findall(path.read_text(encoding="utf-8")) if kind != "trigger"}
        assert made == {path.stem.split("_", 1)[1]}, path.name


async def test_every_function_and_view_of_a_migrated_database_has_its_file(conn: asyncpg.Connection) -> None:
    made = await conn.fetch(
        "select proname from pg_proc where pronamespace = 'public'::regnamespace"
        " union all select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'v'"
    )
    files = [path.stem.split("_", 1)[1] for path in (sql_dir() / "functions").glob("*.sql")]
    assert sorted(row[0] for row in made) == sorted(files)
