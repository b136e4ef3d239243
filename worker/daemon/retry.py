"""Database operations through outages: retried with backoff and jitter, said once when the database goes
and once when it is back."""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import anyio
import structlog

from worker.core.errors import TaakError
from worker.core.outcome import backoff_seconds, with_jitter
from worker.core.phrases import Phrase
from worker.db.connect import CONNECTION_ERRORS, known_reason

log = structlog.get_logger("queue-worker")
T = TypeVar("T")


class DatabaseGone(Exception):
    """The database stayed away while the worker was being stopped."""


def backoff(failures: int, base: float, maximum: float) -> float:
    """Doubling with jitter, so eight daemons that lost one database do not come back in lockstep."""
    return with_jitter(backoff_seconds(failures, base, maximum), random.random())


def said_error(exc: BaseException, language: str) -> str:
    """A lost or refused connection as the log says it: a common cause in the run's language, else the driver's
    own first line with its type."""
    if isinstance(exc, TaakError):
        # `database unreachable at host (why)` from the connect: the why, as every later line of the log says it.
        reason = exc.values.get("reason") if exc.key == "unreachable" else None
        if isinstance(reason, Phrase):
            return reason.said(language)
        return str(reason) if isinstance(reason, str) else exc.render(language)
    if (known := known_reason(exc)) is not None:
        return known.said(language)
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


@dataclass
class Outages:
    give_up: anyio.Event  # set when the worker stops at once: then an outage is not waited out
    on_back: Callable[[], None] = lambda: None
    language: str = "en"
    ok: bool = field(default=True)
    back_at: float | None = None  # when the database last came back from an outage (time.monotonic)

    def came_back(self) -> None:
        self.back_at = time.monotonic()

    def settling(self, seconds: float) -> bool:
        """Still in an outage (the call now running may be the first to get through), or back from one less than
        `seconds` ago."""
        return not self.ok or (self.back_at is not None and time.monotonic() - self.back_at < seconds)

    async def run(
        self,
        what: str,
        operation: Callable[[], Awaitable[T]],
        *,
        abandon: anyio.Event | None = None,
        last_try_after: anyio.Event | None = None,
    ) -> T:
        """Run a database operation, retrying through an outage; logs once per change of state.

        Gives up (DatabaseGone) when the worker is being stopped and the database is still away. `abandon`:
        an operation not wanted any more once that is set (a claim after a stop) is neither started nor
        retried then. `last_try_after`: once that is set, a failure is final at once (a session's ending at a
        stop: what could not be written goes to the journal, the worker does not wait out the outage)."""
        failures = 0
        while True:
            if abandon is not None and abandon.is_set():
                raise DatabaseGone(what)
            try:
                value = await operation()
            except CONNECTION_ERRORS as exc:
                failures += 1
                self._away(what, exc, failures, last_try_after)
                with anyio.move_on_after(backoff(failures, 0.5, 15)):
                    await (abandon or last_try_after or self.give_up).wait()
                continue
            if not self.ok:
                self.ok = True
                self.came_back()
                log.info("database_back", during=what)
                self.on_back()
            return value

    def _away(self, what: str, exc: BaseException, failures: int, last_try_after: anyio.Event | None) -> None:
        """Said once when the database went away; DatabaseGone when it is time to give up."""
        if self.ok:
            self.ok = False
            log.error("database_unreachable", during=what, error=said_error(exc, self.language))
        patience_over = last_try_after is not None and last_try_after.is_set()
        if (self.give_up.is_set() and failures > 3) or patience_over:
            raise DatabaseGone(what) from exc
