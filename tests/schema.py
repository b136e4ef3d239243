"""A database's schema as lines of text, from its catalog, and `sql/schema.sql` written from a migrated database.

`describe` names every object of the schema public with what makes it what it is (columns and their types, defaults,
constraints, indexes, triggers, functions with their bodies, views, policies, rights, comments), one line each,
sorted, so that two databases compare as two lists and a difference reads as a diff.

Regenerate sql/schema.sql after changing a migration or a file of sql/functions (pg_dump on PATH, or PG_DUMP):

    TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres .venv/bin/python -m tests.schema
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import asyncpg

from tests.conftest import with_database
from worker.db.migrate import migrate

SCHEMA_SQL = Path(__file__).resolve().parents[1] / "sql" / "schema.sql"
REGENERATE = "TEST_DATABASE_URL=<a Postgres server> .venv/bin/python -m tests.schema"

_PUBLIC = "'public'::regnamespace"


def _acl(rights: str, kind: str, owner: str) -> str:
    """Rights in any order, and none recorded as the owner's default ones (pg_dump writes nothing for those)."""
    return f'array(select a::text from unnest(coalesce({rights}, acldefault({kind}::"char", {owner}))) a order by 1)'


CATALOG = [
    f"""select format('relation %s kind=%s owner=%s options=%s rls=%s forced=%s acl=%s comment=%s', c.relname,
              c.relkind, pg_get_userbyid(c.relowner), c.reloptions, c.relrowsecurity, c.relforcerowsecurity,
              {_acl("c.relacl", "case c.relkind when 'S' then 's' else 'r' end", "c.relowner")},
              obj_description(c.oid, 'pg_class'))
       from pg_class c where c.relnamespace = {_PUBLIC} and c.relkind <> 'i'""",
    f"""select format('column %s.%s #%s %s notnull=%s default=%s identity=%s generated=%s collation=%s acl=%s
              comment=%s', c.relname, a.attname, rank() over (partition by c.oid order by a.attnum),
              format_type(a.atttypid, a.atttypmod), a.attnotnull, pg_get_expr(d.adbin, d.adrelid), a.attidentity,
              a.attgenerated, a.attcollation::regcollation, {_acl("a.attacl", "'c'", "c.relowner")},
              col_description(c.oid, a.attnum))
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where c.relnamespace = {_PUBLIC} and c.relkind <> 'i' and a.attnum > 0 and not a.attisdropped""",
    f"""select format('constraint %s.%s %s valid=%s deferrable=%s', c.conrelid::regclass, c.conname,
              pg_get_constraintdef(c.oid), c.convalidated, c.condeferrable)
       from pg_constraint c where c.connamespace = {_PUBLIC}""",
    f"""select format('index %s', pg_get_indexdef(i.indexrelid))
       from pg_index i join pg_class c on c.oid = i.indexrelid where c.relnamespace = {_PUBLIC}""",
    f"""select format('trigger %s enabled=%s', pg_get_triggerdef(t.oid), t.tgenabled)
       from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where c.relnamespace = {_PUBLIC} and not t.tgisinternal""",
    f"""select format('function %s owner=%s acl=%s comment=%s %s', p.oid::regprocedure, pg_get_userbyid(p.proowner),
              {_acl("p.proacl", "'f'", "p.proowner")}, obj_description(p.oid, 'pg_proc'), pg_get_functiondef(p.oid))
       from pg_proc p where p.pronamespace = {_PUBLIC}""",
    f"""select format('view %s %s', c.relname, pg_get_viewdef(c.oid))
       from pg_class c where c.relnamespace = {_PUBLIC} and c.relkind in ('v', 'm')""",
    """select format('policy %s.%s %s %s roles=%s using=%s check=%s', tablename, policyname, permissive, cmd,
              array(select r::text from unnest(roles) r order by 1), qual, with_check)
       from pg_policies where schemaname = 'public'""",
    """select format('sequence %s %s start=%s step=%s min=%s max=%s cache=%s cycle=%s', sequencename, data_type,
              start_value, increment_by, min_value, max_value, cache_size, cycle)
       from pg_sequences where schemaname = 'public'""",
    f"""select format('schema public owner=%s acl=%s comment=%s', pg_get_userbyid(n.nspowner),
              {_acl("n.nspacl", "'n'", "n.nspowner")}, obj_description(n.oid, 'pg_namespace'))
       from pg_namespace n where n.oid = {_PUBLIC}""",
    f"""select format('type %s %s', t.typname, t.typtype) from pg_type t
       where t.typnamespace = {_PUBLIC} and t.typrelid = 0 and t.typcategory <> 'A'""",
    "select format('extension %s %s', extname, extversion) from pg_extension",
]


async def describe(conn: asyncpg.Connection) -> list[str]:
    """Every object of the schema public, one sorted line each (a function's or view's over several lines)."""
    lines = [row[0] for query in CATALOG for row in await conn.fetch(query)]
    return sorted(lines)


def _normalised(dump: str) -> str:
    """pg_dump's text without what differs between runs and versions of the same schema: its version lines and the
    `\\restrict` keys of newer pg_dumps (psql commands, which no other client runs)."""
    skipped = ("-- Dumped from database version", "-- Dumped by pg_dump version", "\\restrict", "\\unrestrict")
    kept = [line for line in dump.splitlines() if not line.startswith(skipped)]
    header = [
        "-- The schema of a database migrated from empty (sql/migrations, then sql/functions), as pg_dump writes it.",
        f"-- Generated; do not edit. After a change of a migration or a function: {REGENERATE}",
    ]
    return "\n".join([*header, *kept]).rstrip() + "\n"


async def _write_schema_sql(server_url: str) -> None:
    name = f"taak_schema_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    await admin.execute(f'create database "{name}"')
    try:
        url = with_database(server_url, name)
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
        finally:
            await conn.close()
        pg_dump = os.environ.get("PG_DUMP", "pg_dump")
        dump = subprocess.run(
            [pg_dump, "--schema-only", "--no-owner", f"--dbname={url}"], capture_output=True, text=True, check=True
        )
        SCHEMA_SQL.write_text(_normalised(dump.stdout), encoding="utf-8")
    finally:
        await admin.execute(f'drop database "{name}"')
        await admin.close()


if __name__ == "__main__":
    server = os.environ.get("TEST_DATABASE_URL")
    if not server:
        sys.exit(f"set TEST_DATABASE_URL to a Postgres server: {REGENERATE}")
    asyncio.run(_write_schema_sql(server))
    print(f"wrote {SCHEMA_SQL}")
