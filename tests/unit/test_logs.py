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


def _one_line(capsys: pytest.CaptureFixture[str], fmt: str, language: str, **values: object) -> str:
    from zoneinfo import ZoneInfo

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging(fmt, zone=ZoneInfo("Pacific/Kiritimati"), language=language)  # type: ignore[arg-type]
    try:
        structlog.get_logger().info("session_end", **values)
    finally:
        root.handlers, root.level = handlers, level
        structlog.reset_defaults()
    (line,) = capsys.readouterr().out.splitlines()
    return line


@pytest.mark.parametrize(("language", "yes", "no"), [("nl", "ja", "nee"), ("en", "yes", "no")])
def test_a_persons_log_line_holds_no_python_values_nothing_and_yes_or_no_in_the_runs_language(
    capsys: pytest.CaptureFixture[str], language: str, yes: str, no: str
) -> None:
    """`session_end ... is_error=False stop=None` and `grace_seconds=30.0` on the console, the Quick start's own
    screen (found by tester L)."""
    line = _one_line(capsys, "console", language, is_error=False, reconnected=True, stop=None, grace_seconds=30.0)
    assert f" is_error={no} " in line
    assert f" reconnected={yes} " in line
    assert " stop=-" in line
    assert " grace_seconds=30 " in line
    assert not {"None", "False", "True"} & set(line.replace("=", " ").split())


def test_a_moment_in_a_persons_log_line_is_in_the_households_time_as_its_stamp_and_iso_in_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The intake's `cutoff=2026-12-03T19:55:18.057605+00:00` stood in UTC beside a line stamped in local time."""
    from datetime import UTC, datetime

    moment = datetime(2026, 12, 3, 19, 55, 18, 57605, tzinfo=UTC)
    assert " cutoff='2026-12-04 09:55:18'" in _one_line(capsys, "console", "en", cutoff=moment)  # Kiritimati: UTC+14
    assert json.loads(_one_line(capsys, "json", "en", cutoff=moment))["cutoff"] == "2026-12-03T19:55:18.057605+00:00"
