"""The schema in two kinds of files, as Flyway's versioned and repeatable migrations.

`sql/migrations/NNN_*.sql` (tables, columns, indexes, constraints, data, grants) are applied once each, in order,
and recorded with a checksum: a changed one is refused. `sql/functions/*.sql` (one function or view each; a trigger
function's file makes its triggers too) are applied after them, in name order, whenever their text differs from the
one recorded. Then `taak_rechten()` sets every right. One transaction under an advisory lock does it all, so several
processes may migrate at once and nothing new is used before its functions and rights are right; the lock is
transaction-scoped, which works through Supabase's pooler too.
"""

from __future__ import annotations

import functools
import hashlib
import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg
import asyncpg.pool
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from worker import __version__, pip_install
from worker.core.catalogue import message
from worker.core.dsn import url_search_path
from worker.core.errors import Refused
from worker.db.sqlfiles import Executor, queries, sql_dir

Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy
_LOCK_KEY = 0x7461616B  # "taak"
VERSIONED, REPEATABLE = "versie", "herhaalbaar"  # the record's kinds; "opgevouwen" marks the folded migrations
# The 27 migrations of before the first release were folded into the baseline (the first versioned migration): a
# record that holds the last of them, and not the baseline, is of a database that has the baseline's schema.
LAST_FOLDED = "027_resultaat_met_token.sql"


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
    pending: list[str]  # versioned migrations not applied, and functions whose text changed
    newer: list[str]  # applied, but shipped only by a newer version of taak than this one


def load_migrations() -> list[Migration]:
    files = sorted((sql_dir() / "migrations").glob("[0-9][0-9][0-9]_*.sql"))
    return [Migration(path.name, path.read_text(encoding="utf-8")) for path in files]


def load_repeatables() -> list[Migration]:
    files = sorted((sql_dir() / "functions").glob("*.sql"))
    return [Migration(f"functions/{path.name}", path.read_text(encoding="utf-8")) for path in files]


Record = dict[str, tuple[str, str]]  # name: (checksum, kind)


async def _record(connection: Executor) -> Record:
    rows = await connection.fetch(queries()["migraties_toegepast"])
    return {row["naam"]: (row["checksum"], row["soort"]) for row in rows}


def _unfolded(record: Record, migrations: list[Migration]) -> bool:
    return record.get(LAST_FOLDED, ("", ""))[1] == VERSIONED and migrations[0].name not in record


def _versioned(record: Record, migrations: list[Migration]) -> dict[str, str]:
    """The versioned migrations a database has, by name and checksum; a record of the folded migrations that this
    code has not migrated yet has the baseline."""
    if _unfolded(record, migrations):
        return {migrations[0].name: migrations[0].checksum}
    return {name: checksum for name, (checksum, kind) in record.items() if kind == VERSIONED}


def _plan(record: Record, migrations: list[Migration]) -> tuple[dict[str, str], list[Migration], list[str]]:
    """The versioned migrations applied (refused when one changed since), what is pending, and what a newer version
    applied. Pending: the versioned migrations not applied, then the functions whose text differs from the one
    applied; no function on a schema a newer version migrated, whose functions may rest on what this one lacks."""
    applied = _versioned(record, migrations)
    for migration in migrations:
        if applied.get(migration.name, migration.checksum) != migration.checksum:
            raise Refused("tampered_migration", name=migration.name)
    newer = _newer(migrations, applied)
    changed = [] if newer else [r for r in load_repeatables() if record.get(r.name, ("", ""))[0] != r.checksum]
    return applied, [m for m in migrations if m.name not in applied] + changed, newer


def _newer(migrations: list[Migration], applied: dict[str, str]) -> list[str]:
    known = {m.name for m in migrations}
    return sorted(name for name in applied if name not in known)


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
    """Apply every pending migration and changed function, in the schema public; return the names applied.

    The advisory lock is the database's, but roles are the server's: two databases on one server migrating for the
    first time at once may both make `taak_daemon`. The one that loses finds it made when it tries again."""
    async for attempt in AsyncRetrying(
        retry=retry_if_exception_type((asyncpg.DuplicateObjectError, asyncpg.UniqueViolationError)),
        stop=stop_after_attempt(2),
        reraise=True,
    ):
        with attempt:
            async with in_public(connection), connection.transaction():
                return await _migrate(connection, migrations or load_migrations())
    raise AssertionError("unreachable: the last attempt returns or raises")


async def _migrate(connection: Connection, migrations: list[Migration]) -> list[str]:
    await connection.execute(queries()["migraties_slot"], _LOCK_KEY)
    await connection.execute(queries()["migraties_tabel"])
    record = await _record(connection)
    _applied, pending, _newer_ones = _plan(record, migrations)
    if _unfolded(record, migrations):
        await connection.execute(queries()["migraties_opvouwen"])
        await _note(connection, migrations[0], VERSIONED)
    for migration in pending:
        await connection.execute(migration.sql)
        await _note(connection, migration, VERSIONED if migration in migrations else REPEATABLE)
    if pending:  # what default privileges gave the new objects (Supabase's: all to anon) is taken back
        await connection.execute(queries()["rechten_zetten"])
    return [m.name for m in pending]


async def _note(connection: Connection, migration: Migration, kind: str) -> None:
    await connection.execute(queries()["migratie_vastleggen"], migration.name, migration.checksum, kind)


async def status(connection: Connection, migrations: list[Migration] | None = None) -> MigrationStatus:
    migrations = migrations or load_migrations()
    async with in_public(connection):
        exists = await connection.fetchval(queries()["migraties_bestaan"])
        record = await _record(connection) if exists else {}
    applied, pending, newer = _plan(record, migrations)
    return MigrationStatus([m.name for m in migrations if m.name in applied], [m.name for m in pending], newer)


async def newer_migrations(connection: Executor) -> list[str]:
    """The migrations a newer version of taak applied to this database (the daemon asks it now and then, on the
    connection's own search_path, where it finds the rest of taak's tables too)."""
    migrations = load_migrations()
    return _newer(migrations, _versioned(await _record(connection), migrations))


@functools.cache
def running_version() -> str:
    """What a daemon says it runs (its heartbeat, its start line): the installed package's version and the newest
    migration it ships, `0.1.0+004`, so that a daemon of an older checkout with the same version number is seen
    to be behind the newest one in the fleet."""
    from importlib import metadata  # start-up: 15 ms, for the daemon's version line only

    try:
        package = metadata.version("taak-worker")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        package = __version__
    return f"{package}+{load_migrations()[-1].name.split('_', 1)[0]}"


def schema_newer_line(newer: list[str], language: str) -> str:
    """What a daemon says of a newer schema, with the command that upgrades this installation."""
    return f"{schema_newer_said(newer, language)}: {upgrade_command()}"


def schema_newer_said(newer: list[str], language: str) -> str:
    return message("schema_newer", language, names=", ".join(newer))


def upgrade_command() -> str:
    """What brings this installation to the newest version: a clone installed with `pip install -e .` is pulled and
    installed again (worker.pip_install)."""
    pip, clone = pip_install()
    if clone is not None:
        return f"git -C {shlex.quote(clone)} pull && {pip} -e {shlex.quote(clone)}"
    return f"{pip} -U taak-worker"


async def set_timezone(connection: Connection, timezone: str) -> None:
    """The database makes task IDs, so it must know the household's time zone."""
    async with in_public(connection):
        await connection.execute(queries()["tijdzone_zetten"], timezone)


SCHEMA_MISSING = (asyncpg.UndefinedTableError, asyncpg.UndefinedFunctionError)


def schema_missing_line(url: str | None, language: str) -> str:
    """What to say when taak's tables or functions are not found: a database never migrated, or a URL whose
    search_path looks elsewhere (migrate makes them in public, not where such a session looks)."""
    path = url_search_path(url) if url else None
    if path is not None:
        return message("schema_missing_search_path", language, path=path)
    return message("schema_missing", language)
