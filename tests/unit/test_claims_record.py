"""The record of a daemon's claims and their session groups: what the next start kills and gives back. A damaged
record, or a FIFO in its place, never stops that start."""

from __future__ import annotations

import os
from pathlib import Path

from structlog.testing import capture_logs

from worker.daemon.groups import SessionGroups


def test_each_claim_is_recorded_with_its_token_until_its_ending_is_written(tmp_path: Path) -> None:
    groups = SessionGroups(tmp_path, ["paco@keuken"])
    groups.claimed("HV-20261205-001", "token-1")
    groups.claimed("HV-20261205-002", "token-2")
    groups.of("HV-20261205-001").add(os.getpid())
    groups.of("HV-20261205-001").remove(os.getpid())  # the session ended; its outcome is not written yet
    groups.ended("HV-20261205-002")
    held = SessionGroups(tmp_path, ["paco@keuken"]).sweep_previous_runs()
    assert [(g.task, g.token, g.pgid) for g in held] == [("HV-20261205-001", "token-1", 0)]


def test_a_record_nested_too_deep_or_a_fifo_in_its_place_is_said_and_passed_over(tmp_path: Path) -> None:
    (tmp_path / "paco@keuken.groups").write_text("[" * 3000 + "]" * 3000)
    os.mkfifo(tmp_path / "coco@keuken.groups")
    with capture_logs() as logged:
        held = SessionGroups(tmp_path, ["paco@keuken", "coco@keuken"]).sweep_previous_runs()
    assert held == []
    assert [e["event"] for e in logged] == ["claims_record_unreadable", "claims_record_unreadable"]
    assert list(tmp_path.iterdir()) == []  # not read again at the next start
