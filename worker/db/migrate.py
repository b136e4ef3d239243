"""Numbered `.sql` migrations: applied in order, each in its own transaction, recorded with a checksum.

Safe when several processes migrate at once: every transaction takes the same advisory lock and
re-reads what is applied under it. Transaction-scoped locks work through Supabase's pooler too.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import asyncpg.pool

from worker.core.errors import Refused
from worker.db.sqlfiles import Executor, queries, sql_dir

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
_LOCK_KEY = 0x7461616B  # "taak"

# Migrations revised after release, with the checksums they had before. A database that applied an earlier
# version keeps what that version did; its record is brought up to the current checksum, and nothing else
# counts as unchanged. 010 stopped switching on row-level security on the owner's bot_heartbeats (issue 14).
REVISED = {
    "010_beveiliging.sql": frozenset({"05c6239ff257fb89be936ab77113871211e586ad80c9319843b2b601a1d63eb5"}),
}


@dataclass(frozen=True)
class Migration:
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class MigrationStatus:
    applied: list[str]
    pending: list[str]
    newer: list[str]  # applied, but shipped only by a newer version of taak than this one


def load_migrations(directory: Path | None = None) -> list[Migration]:
    folder = directory or sql_dir() / "migrations"
    files = sorted(folder.glob("[0-9][0-9][0-9]_*.sql"))
    return [Migration(path.name, path.read_text(encoding="utf-8")) for path in files]


async def _applied(connection: Executor) -> dict[str, str]:
    rows = await connection.fetch(queries()["migraties_toegepast"])
    return {row["naam"]: row["checksum"] for row in rows}


def _check_unchanged(migrations: list[Migration], applied: dict[str, str]) -> None:
    for migration in migrations:
        recorded = applied.get(migration.name)
        if recorded is not None and recorded != migration.checksum and recorded not in REVISED.get(migration.name, ()):
            raise Refused("tampered_migration", name=migration.name)


async def _record_revisions(connection: Connection, migrations: list[Migration], applied: dict[str, str]) -> None:
    for migration in migrations:
        if applied.get(migration.name, migration.checksum) != migration.checksum:
            await connection.execute(queries()["migratie_herzien"], migration.name, migration.checksum)


async def _ensure_table(connection: Connection) -> None:
    async with connection.transaction():
        await connection.execute(queries()["migraties_slot"], _LOCK_KEY)
        await connection.execute(queries()["migraties_tabel"])


@asynccontextmanager
async def in_public(connection: Connection) -> AsyncIterator[None]:
    """taak's objects live in the schema public (the migrations name it, as Supabase has its tables there): a
    `search_path` in the URL (`?search_path=taak`, `options=-c search_path=...`) must not send them elsewhere, or
    leave them nowhere ("no schema has been selected to create in"). The connection's own path comes back
    afterwards."""
    own = await connection.fetchval(queries()["zoekpad_lezen"])
    await connection.execute(queries()["zoekpad_zetten"], "public")
    try:
        yield
    finally:
        await connection.execute(queries()["zoekpad_zetten"], own)


async def migrate(connection: Connection, migrations: list[Migration] | None = None) -> list[str]:
    """Apply every pending migration, in the schema public; return the names applied by this call."""
    async with in_public(connection):
        return await _migrate(connection, migrations)


async def _migrate(connection: Connection, migrations: list[Migration] | None) -> list[str]:
    migrations = load_migrations() if migrations is None else migrations
    await _ensure_table(connection)
    _check_unchanged(migrations, await _applied(connection))
    done: list[str] = []
    for migration in migrations:
        async with connection.transaction():
            await connection.execute(queries()["migraties_slot"], _LOCK_KEY)
            applied = await _applied(connection)
            _check_unchanged(migrations, applied)
            await _record_revisions(connection, migrations, applied)
            if migration.name in applied:
                continue
            await connection.execute(migration.sql)
            await _lock_down(connection)
            await connection.execute(queries()["migratie_vastleggen"], migration.name, migration.checksum)
        done.append(migration.name)
    return done


async def _lock_down(connection: Connection) -> None:
    """Take back what default privileges (Supabase grants everything to anon and authenticated) gave the
    objects a migration just made: `taak_rechten()` (migration 013) sets every right of ours. In the
    migration's own transaction, so nobody uses the new objects before their rights are right."""
    if await connection.fetchval(queries()["rechten_bestaan"]):
        await connection.execute(queries()["rechten_zetten"])


async def status(connection: Connection, migrations: list[Migration] | None = None) -> MigrationStatus:
    migrations = load_migrations() if migrations is None else migrations
    async with in_public(connection):
        exists = await connection.fetchval(queries()["migraties_bestaan"])
        applied = await _applied(connection) if exists else {}
    _check_unchanged(migrations, applied)
    return MigrationStatus(
        applied=[m.name for m in migrations if m.name in applied],
        pending=[m.name for m in migrations if m.name not in applied],
        newer=_newer(migrations, applied),
    )


def _newer(migrations: list[Migration], applied: dict[str, str]) -> list[str]:
    known = {m.name for m in migrations}
    return sorted(name for name in applied if name not in known)


async def newer_migrations(connection: Executor) -> list[str]:
    """The migrations a newer version of taak applied to this database (the daemon asks it now and then, on the
    connection's own search_path, where it finds the rest of taak's tables too)."""
    return _newer(load_migrations(), await _applied(connection))


def schema_newer_line(newer: list[str], language: str) -> str:
    """What a daemon says of a newer schema, with the command that upgrades this installation."""
    return f"{schema_newer_said(newer, language)}: {upgrade_command()}"


def schema_newer_said(newer: list[str], language: str) -> str:
    from worker.core.phrases import message

    return message("schema_newer", language, names=", ".join(newer))


def upgrade_command() -> str:
    """What brings this installation to the newest version, to be typed as shown: this interpreter's pip (a bare
    `pip` may be another environment's); a clone installed with `pip install -e .`, as the README installs it, is
    pulled and installed again (the package's name is on no index the owner's machine may reach)."""
    import json
    import shlex
    import sys
    from importlib import metadata
    from urllib.parse import unquote, urlsplit

    pip = f"{shlex.quote(sys.executable)} -m pip install"
    try:
        origin = json.loads(metadata.distribution("taak-worker").read_text("direct_url.json") or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        origin = {}
    url = origin.get("url", "") if isinstance(origin, dict) else ""
    if url.startswith("file://") and (origin.get("dir_info") or {}).get("editable"):
        clone = shlex.quote(unquote(urlsplit(url).path))
        return f"git -C {clone} pull && {pip} -e {clone}"
    return f"{pip} -U taak-worker"


async def set_timezone(connection: Connection, timezone: str) -> None:
    """The database makes task IDs, so it must know the household's time zone."""
    async with in_public(connection):
        await connection.execute(queries()["tijdzone_zetten"], timezone)


SCHEMA_MISSING = (asyncpg.UndefinedTableError, asyncpg.UndefinedFunctionError)


def schema_missing_line(url: str | None, language: str) -> str:
    """What to say when taak's tables or functions are not found: a database never migrated, or a URL whose
    search_path looks elsewhere (migrate makes them in public, not where such a session looks)."""
    from worker.core.dsn import url_search_path
    from worker.core.phrases import message

    path = url_search_path(url) if url else None
    if path is not None:
        return message("schema_missing_search_path", language, path=path)
    return message("schema_missing", language)
