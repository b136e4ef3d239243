"""What every command shares: settings, one database connection, errors shown as one line."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg

from worker.cli.args import fail, ignore_ctrl_c_from_now
from worker.cli.entry import OutputLost, output_lost_line
from worker.core.errors import ExitCode, TaakError
from worker.core.language import early_language, unreadable_dotenv
from worker.core.phrases import area_words, catalogue, file_error_line, filled, message
from worker.core.terminal import quoted
from worker.db.migrate import SCHEMA_MISSING, schema_missing_line
from worker.settings import Settings

T = TypeVar("T")


def settings_problem(error: Mapping[str, Any], language: str) -> str:
    """One of pydantic's errors as `TAAK_NAME: what is wrong`, in the run's language: our own rules by their
    message key (worker/settings._refused), pydantic's checks by their type; a type not in the table keeps
    pydantic's words."""
    name = "TAAK_" + "_".join(map(str, error["loc"])).upper()
    values = {key: _limit_said(value) for key, value in (error.get("ctx") or {}).items()}
    if error["type"] in catalogue():
        return f"{name}: {message(error['type'], language, **values)}"
    # pydantic's own checks in the project's words, by their error type: pydantic's English ("Input should be
    # greater than or equal to 10") read as another program's beside the Dutch.
    said = area_words("pydantic", "en" if language == "en" else "nl")
    if error["type"] in said:
        if "expected" in values and language == "nl":  # pydantic joins the choices with an English word
            values["expected"] = values["expected"].replace(" or ", " of ")
        return f"{name}: {filled(said[error['type']], **values)}"
    return f"{name}: {error['msg']}"


def _limit_said(value: object) -> str:
    """A limit as the setting is typed: `10`, not the `10.0` of a float field (tester 23)."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def unreadable_settings(exc: Exception, language: str) -> str | None:
    """`ongeldige instelling: TAAK_NAME: what is wrong` for a setting or a `.env` file that cannot be read; None
    for any other failure. The commands and the hooks say it alike."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        detail = "; ".join(settings_problem(e, language) for e in exc.errors())
    elif isinstance(exc, UnicodeDecodeError):  # the .env file in the working folder, read by pydantic-settings
        detail = f".env: {message('setting_not_utf8', language)}"
    else:
        return None
    return message("bad_settings", language, detail=detail)


def load_settings_or_exit(program: str = "taak") -> Settings:
    from pydantic import ValidationError

    if (said := unreadable_dotenv(".env")) is not None:
        fail(said, ExitCode.USAGE, program)
    try:
        return Settings()
    except TaakError as exc:
        fail(exc.render(early_language()), exc.exit_code, program)
    except (ValidationError, UnicodeDecodeError) as exc:
        fail(unreadable_settings(exc, early_language()) or str(exc), ExitCode.USAGE, program)


@asynccontextmanager
async def connection(settings: Settings) -> AsyncIterator[asyncpg.Connection]:
    from worker.db.connect import connect_one, resolve_database
    from worker.db.migrate import migrate, set_timezone

    database = await resolve_database(settings)
    conn = await connect_one(settings, database)
    try:
        if settings.database is None:
            # The embedded database is private to this machine: keep it migrated without asking.
            await migrate(conn)
            await set_timezone(conn, settings.timezone)
        yield conn
    finally:
        await conn.close()


def run(settings: Settings, work: Callable[[], Awaitable[T]], *, ends_with_ctrl_c: bool = False) -> T:
    """Run one command's async work; turn every expected failure into one line and its exit code. Ctrl-C is the
    way `taak tail` and the cockpit end (exit 0); any other command it interrupts did not happen (130), also
    while it waits for a database that is away: `ID=$(taak nieuw ...) || ...` must not see a success."""
    import anyio

    finished: list[T] = []

    async def done_when_returned() -> T:
        result = await work()
        finished.append(result)
        ignore_ctrl_c_from_now()  # said and done: the event loop's end and the interpreter's exit are no command
        return result

    try:
        return anyio.run(done_when_returned)
    except KeyboardInterrupt:
        if finished:
            # asyncio takes a Ctrl-C as a cancel at the command's next wait; a command that had none left (`lll`,
            # a file written) finished, said so, and was then reported cancelled: it is done, with its own code.
            return finished[0]
        # A connect cut short leaves asyncpg's future unread; asyncio would say so on stderr as the process ends.
        logging.getLogger("asyncio").disabled = True
        raise SystemExit(ExitCode.OK if ends_with_ctrl_c else ExitCode.INTERRUPTED) from None
    except (BrokenPipeError, OutputLost):  # stdout, not the database (`| head`, a full disk): the command's guard
        raise  # says it (worker/cli/entry.guarded)
    except Exception as exc:
        said = failure_line(exc, settings)
        if said is None:  # a bug: still one line for the user; the traceback is no help at a terminal
            detail = f"{type(exc).__name__}: {_first_line(exc)}"
            said = message("internal_error", settings.language, detail=detail), ExitCode.REFUSED
        fail(*said)


def failure_line(exc: BaseException, settings: Settings) -> tuple[str, ExitCode] | None:
    """An expected failure as one line in the run's language and its exit code; None for anything else (a bug).
    The owner's commands and the daemon's start say the same things the same way."""
    language = settings.language
    if isinstance(exc, TaakError):
        return exc.render(language), exc.exit_code
    if isinstance(exc, SCHEMA_MISSING):  # a database taak never migrated, or a URL that looks elsewhere for it
        return schema_missing_line(settings.database.url if settings.database else None, language), ExitCode.REFUSED
    rules = (
        asyncpg.IntegrityConstraintViolationError,
        asyncpg.RaiseError,
        asyncpg.CheckViolationError,
        asyncpg.DataError,
    )
    if isinstance(exc, rules):
        return message("database_rule", language, detail=quoted(str(exc).splitlines()[0])), ExitCode.REFUSED
    if isinstance(exc, OutputLost):
        return output_lost_line(exc, language), ExitCode.REFUSED
    if isinstance(exc, OSError):
        if line := file_error_line(exc, language):
            return line, ExitCode.REFUSED
        return _unreachable_line(settings, exc)
    if isinstance(exc, asyncpg.PostgresConnectionError):
        return _unreachable_line(settings, exc)
    if isinstance(exc, asyncpg.PostgresError):
        return message("database_rule", language, detail=quoted(_first_line(exc))), ExitCode.REFUSED
    if isinstance(exc, asyncpg.InterfaceError) and "connection is closed" in str(exc):
        return _unreachable_line(settings, exc)  # it closed under a command still using it (`taak tail`)
    if isinstance(exc, asyncpg.InternalClientError):
        return _unreachable_line(settings, exc)  # the server ended it between two statements (see known_reason)
    return None


def failure_text(exc: BaseException, settings: Settings) -> str:
    """failure_line's words; for anything else (a bug) the exception's class and first line."""
    said = failure_line(exc, settings)
    return said[0] if said is not None else f"{type(exc).__name__}: {_first_line(exc)}"


def _unreachable_line(settings: Settings, exc: BaseException) -> tuple[str, ExitCode]:
    reason = _said_reason(exc)
    if settings.database is None:
        return message("unreachable_embedded", settings.language, reason=reason), ExitCode.UNREACHABLE
    where = settings.database.where
    return message("unreachable", settings.language, where=where, reason=reason), ExitCode.UNREACHABLE


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _said_reason(exc: BaseException) -> Any:
    """A common cause in the run's language (worker/db/connect.known_reason), else its own first line."""
    from worker.db.connect import known_reason

    return known_reason(exc) or _first_line(exc)
