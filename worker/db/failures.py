"""A failure as the owner, the daemon and the hooks say it: one line in the run's language and the exit code the
commands document; None for anything else (a bug)."""

from __future__ import annotations

from typing import Any

import asyncpg

from worker.core.catalogue import file_error_line, message
from worker.core.errors import ExitCode, TaakError
from worker.core.terminal import quoted
from worker.db.connect import known_reason
from worker.db.migrate import SCHEMA_MISSING, schema_missing_line
from worker.settings import Settings


def failure_line(exc: BaseException, settings: Settings) -> tuple[str, ExitCode] | None:
    """An expected failure as one line in the run's language and its exit code; None for anything else (a bug).
    The owner's commands and the daemon's start say the same things the same way."""
    language = settings.language
    if isinstance(exc, TaakError):
        return exc.render(language), exc.exit_code
    if isinstance(exc, SCHEMA_MISSING):  # a database taak never migrated, or a URL that looks elsewhere for it
        return schema_missing_line(settings.database.url if settings.database else None, language), ExitCode.REFUSED
    if isinstance(exc, OSError) and (line := file_error_line(exc, language)):
        return line, ExitCode.REFUSED
    if _away(exc):
        return _unreachable_line(settings, exc)
    if isinstance(exc, asyncpg.PostgresError):  # a rule of the schema said no (a check, a trigger's RAISE ...)
        return message("database_rule", language, detail=quoted(first_line(exc))), ExitCode.REFUSED
    return None


def _away(exc: BaseException) -> bool:
    """The server cannot be reached, or it closed the connection under a command still using it (`taak tail`);
    InternalClientError: it ended it between two statements (see known_reason)."""
    if isinstance(exc, asyncpg.InterfaceError) and "connection is closed" in str(exc):
        return True
    return isinstance(exc, OSError | asyncpg.PostgresConnectionError | asyncpg.InternalClientError)


def failure_text(exc: BaseException, settings: Settings) -> str:
    """failure_line's words; for anything else (a bug) the exception's class and first line."""
    said = failure_line(exc, settings)
    return said[0] if said is not None else f"{type(exc).__name__}: {first_line(exc)}"


def _unreachable_line(settings: Settings, exc: BaseException) -> tuple[str, ExitCode]:
    reason: Any = known_reason(exc) or first_line(exc)  # a common cause in the run's language, else its own words
    if settings.database is None:
        return message("unreachable_embedded", settings.language, reason=reason), ExitCode.UNREACHABLE
    where = settings.database.where
    return message("unreachable", settings.language, where=where, reason=reason), ExitCode.UNREACHABLE


def first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
