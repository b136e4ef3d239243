"""Failures that reach a user: a message key, its values, and the exit code the commands document.

The text is looked up in the catalogue (`catalogue.json`) in the configured language when it is shown, so the code
that refuses something does not need to know who reads it.
"""

from __future__ import annotations

import os
from enum import IntEnum

from worker.core.terminal import quoted

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from worker.core.phrases import Phrase


class ExitCode(IntEnum):
    OK = 0
    REFUSED = 1
    USAGE = 2
    NOT_FOUND = 3
    UNREACHABLE = 4
    NOT_KEPT = 5  # a session's write the daemon could not make durable (a full disk): nothing happened, try again
    INTERRUPTED = 130  # Ctrl-C, as the shell says it (128 + SIGINT): never taken for success by a script


class TaakError(Exception):
    """An expected failure: one line for the user and an exit code."""

    exit_code: ExitCode = ExitCode.REFUSED

    def __init__(self, key: str, **values: Any) -> None:
        self.key = key
        self.values = values
        super().__init__(self.render("en"))

    def render(self, language: str) -> str:
        # start-up: the catalogue (about 20 ms) only when a failure is said; the settings load this module always
        from worker.core.catalogue import message

        return message(self.key, language, **self._shown())

    def as_phrase(self) -> Phrase:
        """The refusal, to be said later in either language (in an outcome that quotes it)."""
        from worker.core.phrases import Phrase  # start-up: as in render

        return Phrase(self.key, tuple(self._shown().items()))

    def _shown(self) -> dict[str, Any]:
        """Every text and path on one line, as typed (a path is anyone's text too: a tab or a line break in it)."""
        return {
            name: quoted(os.fspath(value)) if isinstance(value, (str, os.PathLike)) else value
            for name, value in self.values.items()
        }


class Refused(TaakError):
    """A rule said no: wrong status, stale token, no evidence, a tampered migration (TaakError's exit code)."""


class InvalidInput(TaakError):
    exit_code = ExitCode.USAGE


class NotFound(TaakError):
    exit_code = ExitCode.NOT_FOUND


class Unreachable(TaakError):
    exit_code = ExitCode.UNREACHABLE


class Misconfigured(Unreachable):
    """The server answered and said no to who we say we are or what we ask for (a database or role that does
    not exist, a wrong password): waiting will not mend it, the settings must change."""
