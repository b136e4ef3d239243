"""What every command shares: settings, one database connection, errors shown as one line."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TypeVar

from worker.cli.args import fail, ignore_ctrl_c_from_now
from worker.cli.entry import OutputLost
from worker.core.errors import ExitCode, TaakError
from worker.core.language import early_language, unreadable_dotenv
from worker.core.phrases import message
from worker.db.failures import failure_line, first_line
from worker.settings import Settings, unreadable_settings

if TYPE_CHECKING:
    from worker.db.store import Store

T = TypeVar("T")


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
async def store(settings: Settings) -> AsyncIterator[Store]:
    """The command's store, on one connection."""
    from worker.db.connect import connect_one, resolve_database
    from worker.db.migrate import migrate, set_timezone
    from worker.db.store import Store

    database = await resolve_database(settings)
    conn = await connect_one(settings, database)
    try:
        if settings.database is None:
            # The embedded database is private to this machine: keep it migrated without asking.
            await migrate(conn)
            await set_timezone(conn, settings.timezone)
        yield Store(conn, settings)
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
            detail = f"{type(exc).__name__}: {first_line(exc)}"
            said = message("internal_error", settings.language, detail=detail), ExitCode.REFUSED
        fail(*said)
