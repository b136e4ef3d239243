"""structlog set-up: JSON lines when not on a terminal (launchd and journald keep them), readable
lines on a terminal. Task-scoped context (`task_id`, `bot`) is bound with contextvars."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sys
from datetime import datetime, tzinfo
from typing import Literal, TextIO, cast

import structlog

from worker.core.catalogue import message, os_reason


def _stamped_in(zone: tzinfo | None) -> structlog.typing.Processor:
    def stamp(_logger: object, _name: str, event: structlog.typing.EventDict) -> structlog.typing.EventDict:
        event["timestamp"] = datetime.now(zone).strftime("%Y-%m-%d %H:%M:%S")  # no zone: the machine's
        return event

    return stamp


def configure_logging(
    fmt: Literal["auto", "json", "console"] = "auto",
    *,
    level: int = logging.INFO,
    zone: tzinfo | None = None,
    language: str = "nl",
) -> None:
    """`zone`: the household's time zone (TAAK_TIMEZONE), in which a person's lines are stamped, as `taak` shows
    times; without it the machine's own."""
    as_json = fmt == "json" or (fmt == "auto" and not sys.stdout.isatty())
    stream = cast(TextIO, NeverFails(sys.stdout, language))
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer(colors=False)
    )
    # JSON lines for machines (UTC, values as they are); on a terminal a person's: local time, lists as words.
    stamp = structlog.processors.TimeStamper(fmt="iso", utc=True) if as_json else _stamped_in(zone)
    readable: list[structlog.typing.Processor] = [_iso_moments] if as_json else [readable_values(zone, language)]
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            stamp,
            structlog.processors.format_exc_info,
            *readable,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=False,
    )
    # What libraries say through the standard logging module (asyncpg's pool, retrying in the background while
    # the database is away) becomes one line of the same kind, its exception in one line, never a traceback.
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[
                structlog.stdlib.add_log_level,
                structlog.stdlib.add_logger_name,
                stamp,
                _exception_in_one_line,
                *readable,
            ],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(logging.WARNING)
    quiet_pool_retries()


def quiet_pool_retries() -> None:
    """asyncpg's pool says every failed reconnect while the database is away, in English, with a traceback and up
    to once a minute: the daemon says the outage itself, once when it starts and once when it ends, and the
    cockpit on the page that could not be served, both in the run's language."""
    logging.getLogger("asyncpg.pool").addFilter(_not_a_pool_retry)  # the same filter once, however often called


def _not_a_pool_retry(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith("Failed to restore the pool connection")


def _iso_moments(_logger: object, _name: str, event: structlog.typing.EventDict) -> structlog.typing.EventDict:
    """A moment as ISO 8601 with its offset, as JSON's readers parse it (its repr would be Python's)."""
    for key, value in event.items():
        if isinstance(value, datetime):
            event[key] = value.isoformat()
    return event


def readable_values(zone: tzinfo | None, language: str) -> structlog.typing.Processor:
    """A person's values: a list as its items with commas (`bots=paco,sjakie`, not `['paco', 'sjakie']`), a
    mapping as key=value, nothing as `-`, a yes or no in the run's language, a moment in the household's time as
    the line's own stamp, a whole number of seconds without its `.0`."""
    yes, no = message("log.yes", language), message("log.no", language)

    def readable(value: object) -> object:
        if value is None:
            return "-"
        if isinstance(value, bool):
            return yes if value else no
        if isinstance(value, datetime):
            return value.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, (list, tuple)):
            return ",".join(str(readable(item)) for item in value) or "-"
        if isinstance(value, dict):
            return " ".join(f"{k}={readable(v)}" for k, v in value.items()) or "-"
        return value

    def processor(_logger: object, _name: str, event: structlog.typing.EventDict) -> structlog.typing.EventDict:
        for key, value in event.items():
            if key != "event":
                event[key] = readable(value)
        return event

    return processor


def _exception_in_one_line(
    _logger: object, _name: str, event: structlog.typing.EventDict
) -> structlog.typing.EventDict:
    exc_info = event.pop("exc_info", None)
    if isinstance(exc_info, tuple) and exc_info[1] is not None:
        error = exc_info[1]
        said = str(error).strip().splitlines()
        event["error"] = f"{type(error).__name__}: {said[0]}" if said else type(error).__name__
    return event


class NeverFails:
    """The log's stream: a line that cannot be written never stops the daemon or its task. A reader that went
    away (`queue-worker | head -1`) ended the daemon with a traceback and left its claimed task for the reaper;
    from then on lines go nowhere, the interpreter's own flush at exit too. Any other failure to write (a full
    disk) loses that line only."""

    def __init__(self, stream: TextIO, language: str = "nl") -> None:
        self._stream = stream
        self._language = language
        self._said = False

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._failed(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._failed(exc)

    def _failed(self, exc: OSError) -> None:
        if exc.errno == errno.EPIPE:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        elif not self._said:  # once, where ops will look: a daemon whose log is lost must not seem silent and well
            self._said = True
            said = message("log_lost", self._language, reason=os_reason(exc, self._language))
            with contextlib.suppress(OSError, ValueError):
                print(f"queue-worker: {said}", file=sys.stderr, flush=True)
