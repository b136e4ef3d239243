"""What the intake makes of one old message: a pure decision on its age, status, text and named task."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from worker.core.intake import Decision, Message, Rules, decide

CUTOFF = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
RULES = Rules(cutoff=CUTOFF, open_statuses=frozenset({"pending"}))


def message(**changes: object) -> Message:
    values: dict[str, object] = {
        "id": "1",
        "sender": "jamal",
        "recipient": "paco",
        "moment": CUTOFF + timedelta(minutes=5),
        "status": "pending",
        "characters": 20,
        "blank": False,
        "names_task": False,
        "task_id": None,
    }
    values.update(changes)
    return Message(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, Decision.TASK),
        ({"names_task": True}, Decision.JOINS),
        ({"moment": CUTOFF - timedelta(seconds=1)}, Decision.TOO_OLD),
        ({"moment": None}, Decision.TOO_OLD),  # no time: it cannot be shown to be new
        ({"status": "done"}, Decision.HANDLED),
        ({"status": None}, Decision.HANDLED),
        ({"status": "done", "moment": CUTOFF - timedelta(days=90)}, Decision.TOO_OLD),
        ({"blank": True}, Decision.UNUSABLE),
        ({"characters": 8001}, Decision.UNUSABLE),
        ({"task_id": "overgeslagen"}, Decision.DONE),
        ({"task_id": "HV-20261201-001", "moment": CUTOFF - timedelta(days=1)}, Decision.DONE),
    ],
)
def test_each_message_gets_one_decision(changes: dict[str, object], expected: Decision) -> None:
    assert decide(message(**changes), RULES) == expected


def test_without_a_status_column_only_the_time_decides() -> None:
    rules = Rules(cutoff=CUTOFF, open_statuses=None)
    assert decide(message(status=None), rules) == Decision.TASK
    assert decide(message(status="done"), rules) == Decision.TASK
