"""The daemon's log: one line per event, and what libraries say through `logging` in the same shape."""

from __future__ import annotations

import json
import logging

import pytest
import structlog

from worker.logs import configure_logging


def test_asyncpgs_reconnect_retries_are_left_to_the_daemons_own_outage_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging("json")
    try:
        pool = logging.getLogger("asyncpg.pool")
        pool.warning("Failed to restore the pool connection floor; retrying")
        pool.warning("a connection was not released")
    finally:  # the log set-up is the process's: later tests must not write to this test's captured stream
        root.handlers, root.level = handlers, level
        structlog.reset_defaults()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(line["logger"], line["event"]) for line in lines] == [("asyncpg.pool", "a connection was not released")]
