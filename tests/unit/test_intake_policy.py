"""What the intake makes of one old message: a pure decision on its age, status, text and named task."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from worker.core.errors import InvalidInput
from worker.core.intake import Decision, Message, Rules, day_bound, decide, groups, in_backlog

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


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"moment": CUTOFF - timedelta(days=30)}, True),  # a silent pending from before the cut-off
        ({"moment": None}, True),
        ({"moment": CUTOFF - timedelta(days=30), "task_id": "overgeslagen"}, True),  # the daemon skipped it
        ({"moment": CUTOFF - timedelta(days=30), "task_id": "afgewezen"}, False),  # the owner left it
        ({"moment": CUTOFF - timedelta(days=30), "task_id": "HV-20261201-001"}, False),
        ({"moment": CUTOFF - timedelta(days=30), "status": "done"}, False),  # the old worker handled it
        ({}, False),  # after the cut-off: the daemon's, not the backlog's
    ],
)
def test_the_backlog_is_what_the_old_worker_left_open_before_the_cut_off_and_nobody_decided_on(
    changes: dict[str, object], expected: bool
) -> None:
    assert in_backlog(message(**changes), RULES) is expected


ZONE = ZoneInfo("Europe/Amsterdam")


@pytest.mark.parametrize(
    ("text", "end", "expected"),
    [
        ("2026-07-14", False, datetime(2026, 7, 14, tzinfo=ZONE)),
        ("2026-07-14", True, datetime(2026, 7, 15, tzinfo=ZONE)),  # --tot takes the day in
        ("2026-07", False, datetime(2026, 7, 1, tzinfo=ZONE)),
        ("2026-07", True, datetime(2026, 8, 1, tzinfo=ZONE)),
        ("2026-12", True, datetime(2027, 1, 1, tzinfo=ZONE)),
        ("2026-12-31", True, datetime(2027, 1, 1, tzinfo=ZONE)),
        (" 2026-02 ", False, datetime(2026, 2, 1, tzinfo=ZONE)),
    ],
)
def test_a_day_or_a_month_is_a_bound_in_the_households_zone(text: str, end: bool, expected: datetime) -> None:
    assert day_bound(text, "--tot", ZONE, end=end) == expected


@pytest.mark.parametrize(
    "text", ["juli", "2026-13", "2026-02-30", "2026-7", "14-07-2026", "", "9999-12", "2026-07-14T08:00"]
)
def test_anything_else_is_refused_naming_the_option(text: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        day_bound(text, "--sinds", ZONE, end=True)
    assert refused.value.values == {"option": "--sinds", "value": text}


def test_the_backlog_is_grouped_by_sender_recipient_and_month_with_the_first_line_as_sample() -> None:
    old = CUTOFF - timedelta(days=200)
    found = groups(
        [
            message(id="1", sender="Conductor", moment=old, text="Zet de foto's\nonline"),
            message(id="2", sender="conductor ", moment=old + timedelta(days=1), text="Tweede"),
            message(id="3", sender="kimi", recipient="sjakie", moment=None, text="x" * 200),
            message(id="4", sender="conductor", moment=old + timedelta(days=40), text="Later"),
        ],
        ZONE,
    )
    assert [(g.sender, g.recipient, g.month, g.ids) for g in found] == [
        ("conductor", "paco", "2026-05", ("1", "2")),
        ("conductor", "paco", "2026-06", ("4",)),
        ("kimi", "sjakie", "-", ("3",)),
    ]
    assert found[0].sample == "Zet de foto's online"  # on one line
    assert found[2].sample == "x" * 79 + "…"
