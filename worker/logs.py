"""structlog set-up: JSON lines when not on a terminal (launchd and journald keep them), readable
lines on a terminal. Task-scoped context (`task_id`, `bot`) is bound with contextvars."""

from __future__ import annotations

import logging
import sys
from typing import Literal

import structlog


def configure_logging(fmt: Literal["auto", "json", "console"] = "auto", *, level: int = logging.INFO) -> None:
    as_json = fmt == "json" or (fmt == "auto" and not sys.stdout.isatty())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if as_json else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stdout),
        cache_logger_on_first_use=False,
    )
