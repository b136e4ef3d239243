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


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "America/Adak"])  # UTC+14 and UTC-10: never the machine's
def test_a_persons_log_lines_are_stamped_in_the_households_time_zone_as_taak_shows_times(
    capsys: pytest.CaptureFixture[str], zone: str
) -> None:
    from datetime import datetime, timedelta
    from zoneinfo import ZoneInfo

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging("console", zone=ZoneInfo(zone))
    try:
        before = datetime.now(ZoneInfo(zone)).replace(microsecond=0, tzinfo=None)
        structlog.get_logger().info("worker_started")
    finally:
        root.handlers, root.level = handlers, level
        structlog.reset_defaults()
    (line,) = capsys.readouterr().out.splitlines()
    stamped = datetime.strptime(line[:19], "%Y-%m-%d %H:%M:%S")
    assert timedelta(0) <= stamped - before <= timedelta(seconds=5), line
