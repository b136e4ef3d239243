"""Connecting to Postgres: one pool, retried with backoff, failing with one clear line."""

from __future__ import annotations

import asyncio
import os
import re
import socket
from typing import Any

import anyio
import asyncpg
from tenacity import (
    AsyncRetrying,
    RetryError,
    retry_if_exception_type,
    stop_after_attempt,
    stop_after_delay,
    wait_exponential,
)

from worker.core.dsn import DatabaseUrl, certificate_files, parse_database_url, redact, url_parameter
from worker.core.errors import InvalidInput, Misconfigured, Unreachable
from worker.core.phrases import OsReason, Phrase, phrase
from worker.db.sqlfiles import queries
from worker.settings import Settings

# Failures worth another try: the server is starting, restarting or briefly unreachable.
_TRANSIENT = (
    OSError,
    asyncio.TimeoutError,
    socket.gaierror,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.ConnectionDoesNotExistError,
)


# What a lost or refused connection looks like from asyncpg and the OS, to everything that waits one out or
# says it (the daemon's retries, the session gate's reads, the cockpit's pages). InternalClientError: a pooled
# connection whose server ended it while it was idle has read the server's FATAL but not yet the socket's
# close; a statement in that moment finds it mid-error ("cannot switch to state ..."). The close follows, and
# the pool replaces the connection on the next try.
CONNECTION_ERRORS = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
)


class DatabaseRefusesConnections(ConnectionRefusedError):
    """The server answers, but this database takes no connections now (SQLSTATE 55000): its own words say why."""


async def open_connection(*args: Any, **options: Any) -> asyncpg.Connection:
    """asyncpg.connect, with a database that refuses connections (`ALTER DATABASE ... ALLOW_CONNECTIONS false`,
    or one being dropped or restored: SQLSTATE 55000) reported as what it is to us, a refused connection, so
    that every caller waits for it as for a server that is down instead of failing on a rule; and a URL that
    can never connect as it is (a parameter Postgres does not know, a certificate it names that is not there)
    as bad input, in one line without its password."""
    given = str(options.get("dsn") or (args[0] if args else ""))  # the pool passes the URL as `dsn`
    try:
        connection: asyncpg.Connection = await asyncpg.connect(*args, **options)
    except asyncpg.ObjectNotInPrerequisiteStateError as exc:
        if exc.sqlstate != "55000":
            raise
        raise DatabaseRefusesConnections(str(exc).splitlines()[0]) from exc
    except asyncpg.UndefinedObjectError as exc:  # asyncpg sends a URL parameter it does not know as a setting
        raise _unknown_parameter(exc, given) from None
    except asyncpg.ClientConfigurationError as exc:  # sslmode=verify-ca/verify-full without the root certificate
        raise InvalidInput("url_unusable", url=redact(given), reason=_client_configuration(exc)) from None
    except FileNotFoundError:  # asyncpg does not say which file; a certificate the URL names that is not there
        missing = missing_certificate(given)
        if missing is None:
            raise
        raise InvalidInput("url_missing_file", url=redact(given), name=missing[0], path=missing[1]) from None
    return connection


def _unknown_parameter(exc: Exception, given: str) -> InvalidInput:
    """The parameter the server does not know, said as a setting where the URL's `options` gave it as one."""
    named = re.search(r'"([^"]*)"', str(exc))
    name = named[1] if named else "?"
    in_options = re.search(rf"(?:-c\s*|--){re.escape(name)}=", url_parameter(given, "options") or "")
    key = "url_unknown_setting" if in_options else "url_unknown_parameter"
    return InvalidInput(key, url=redact(given), name=name)


def missing_certificate(url: str) -> tuple[str, str] | None:
    """The first of the URL's certificate and key files that does not exist: (parameter, path)."""
    missing = (found for found in certificate_files(url) if not os.path.exists(os.path.expanduser(found[1])))
    return next(missing, None)


def embedded_or_configured(settings: Settings) -> DatabaseUrl:
    """The configured database, or the embedded one under the data folder (started when it is not running: this
    blocks; an event loop calls resolve_database)."""
    if settings.database is not None:
        return settings.database
    from worker.db.embedded import ensure_embedded  # start-up: a configured database needs no server of its own

    return parse_database_url(ensure_embedded(settings.embedded_dir))


async def resolve_database(settings: Settings) -> DatabaseUrl:
    """The configured database, or the embedded one, started in a worker thread when it must be."""
    if settings.database is not None:
        return settings.database
    return await anyio.to_thread.run_sync(embedded_or_configured, settings)


def connection_options(settings: Settings, database: DatabaseUrl) -> dict[str, Any]:
    options: dict[str, Any] = {
        "dsn": database.url,
        "timeout": settings.connect_timeout_seconds,
        # Measured on the client: a frozen server cannot enforce a timeout of its own. A statement past it raises
        # TimeoutError, a lost connection to every waiter (CONNECTION_ERRORS), and asyncpg cancels it.
        "command_timeout": settings.statement_timeout_seconds,
        "server_settings": {"application_name": "taak"},
    }
    if database.is_transaction_pooler:
        options["statement_cache_size"] = 0
    return options


async def _retrying(settings: Settings, database: DatabaseUrl, make: Any) -> Any:
    try:
        async for attempt in AsyncRetrying(
            # A server that refuses (a restart) is asked again at once; one that accepts and never answers (frozen)
            # cost a whole connect timeout per attempt: 28 s before a command said so. The attempts end with it.
            stop=stop_after_attempt(settings.connect_attempts) | stop_after_delay(settings.connect_timeout_seconds),
            wait=wait_exponential(multiplier=0.2, max=3),
            retry=retry_if_exception_type(_TRANSIENT),
        ):
            with attempt:
                return await make()
    except RetryError as exc:
        raise unreachable(database, exc.last_attempt.exception()) from None
    except asyncpg.InvalidPasswordError:  # before its parent class below
        key = "bad_password" if database.password_given else "no_password"
        raise Misconfigured(key, where=database.where) from None
    except (asyncpg.InvalidCatalogNameError, asyncpg.InvalidAuthorizationSpecificationError) as exc:
        raise Misconfigured("unreachable", where=database.where, reason=_reason(database, exc)) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _client_configuration(exc: Exception) -> str | Phrase:
    missing = re.search(r'root certificate file "([^"]*)" does not exist', str(exc))
    return phrase("reason_no_root_certificate", path=missing[1]) if missing else str(exc).splitlines()[0]


def unreachable(database: DatabaseUrl, cause: BaseException | None) -> Unreachable:
    """The database is away, and why, as every command and the daemon say it."""
    return Unreachable("unreachable", where=database.where, reason=_reason(database, cause))


def _reason(database: DatabaseUrl, cause: BaseException | None) -> str | Phrase:
    """The cause in one line, in the run's language where it is a common one; else the system's or the server's
    own words, with the URL (and so its password) replaced by its redacted form."""
    if cause is None:
        return phrase("reason_timeout")
    ssl_mode = database.parameter("sslmode") or os.environ.get("PGSSLMODE") or "prefer"  # asyncpg's default
    if "rejected SSL upgrade" in str(cause) and ssl_mode in ("disable", "allow", "prefer"):
        # SSL was only offered: a Postgres server's "no" is taken as plain text, so this answer was no Postgres
        # server's at all (a web server, another service on the port).
        return phrase("reason_not_postgres")
    if known := known_reason(cause):
        return known
    text = str(cause).strip()
    if not text:
        return type(cause).__name__
    return text.replace(database.url, database.redacted).splitlines()[0]


# A cause's common kinds, said in the run's language: the first that fits.
_KNOWN: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...] = (
    (socket.gaierror, "reason_no_such_host"),
    (DatabaseRefusesConnections, "reason_database_refuses"),  # ALLOW_CONNECTIONS false, a restore, a drop
    (ConnectionRefusedError, "reason_refused"),
    ((TimeoutError, asyncio.TimeoutError), "reason_timeout"),
    (FileNotFoundError, "reason_no_postgres_socket"),  # a Unix socket's folder without Postgres's socket in it
    # It went away under a command still using it (`taak tail` while the server stops, a backend killed);
    # InternalClientError: the server's FATAL was read, the socket's close not yet (CONNECTION_ERRORS).
    ((ConnectionError, asyncpg.ConnectionDoesNotExistError, asyncpg.InternalClientError), "connection_closed"),
)
_NAMED = (
    (asyncpg.InvalidCatalogNameError, "reason_no_database"),
    (asyncpg.InvalidAuthorizationSpecificationError, "reason_no_role"),
)


def known_reason(cause: BaseException) -> Phrase | None:
    text = str(cause)
    if "rejected SSL upgrade" in text:  # a ConnectionError of asyncpg's
        return phrase("reason_no_ssl")
    for kinds, key in _KNOWN:
        if isinstance(cause, kinds):
            return phrase(key)
    if isinstance(cause, asyncpg.InterfaceError) and "connection is closed" in text:
        return phrase("connection_closed")
    if isinstance(cause, OSError) and cause.errno:
        return OsReason("os", (("errno", cause.errno), ("strerror", cause.strerror)))
    return _named_reason(cause, text)


def _named_reason(cause: BaseException, text: str) -> Phrase | None:
    """A database or role the server says does not exist, by its name."""
    named = re.search(r'"([^"]*)" does not exist', text)
    for kinds, key in _NAMED:
        if named and isinstance(cause, kinds):
            return phrase(key, name=named.group(1))
    return None


async def connect_one(
    settings: Settings, database: DatabaseUrl | None = None, *, application_name: str = "taak"
) -> asyncpg.Connection:
    database = database or await resolve_database(settings)
    options = connection_options(settings, database)
    options["server_settings"] = {**options["server_settings"], "application_name": application_name}
    # One connection for one command: a statement cache buys nothing there, and a transaction pooler on a
    # port we do not recognise would break its named statements.
    options["statement_cache_size"] = 0
    connection: asyncpg.Connection = await _retrying(settings, database, lambda: open_connection(**options))
    return connection


async def alive(conn: asyncpg.Connection, seconds: float) -> None:
    """A health check of a connection that otherwise only listens: raises when it is gone or silent `seconds` long.
    Sent as a simple query: the connection keeps no statement cache, so a prepared one cost the server two
    transactions and two round trips each time (1,000 idle daemons: 200 statements a second more)."""
    await conn.execute(queries()["leeft"], timeout=seconds)


async def _nothing_left_to_reset(_connection: asyncpg.Connection) -> None:
    """What a pooled connection needs when it goes back: asyncpg itself rolls back a transaction left open and
    drops its listeners before it calls this. Our statements leave no other session state on a pooled
    connection (no SET but SET LOCAL, only transaction-scoped advisory locks, LISTEN on its own connection),
    so asyncpg's default reset query (`RESET ALL`, `UNLISTEN *`, ...) would be one more round trip per borrow
    for nothing: the daemon borrows for every statement."""


async def create_pool(
    settings: Settings,
    database: DatabaseUrl | None = None,
    *,
    min_size: int = 1,
    max_size: int = 10,
    idle_seconds: float = 300.0,
) -> asyncpg.Pool:
    """A pool that closes a connection left unused `idle_seconds` long (the pool hands out the one released last,
    so a connection in steady use stays, and those a burst opened close)."""
    database = database or await resolve_database(settings)
    options = connection_options(settings, database)
    pool: asyncpg.Pool = await _retrying(
        settings,
        database,
        lambda: asyncpg.create_pool(
            min_size=min_size,
            max_size=max_size,
            max_inactive_connection_lifetime=idle_seconds,
            connect=open_connection,
            reset=_nothing_left_to_reset,
            **options,
        ),
    )
    return pool
