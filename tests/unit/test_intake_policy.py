"""What the intake makes of one old message: a pure decision on its age, status, text and named task."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from worker.core.errors import InvalidInput
from worker.core.intake import Decision, Message, Rules, day_bound, decide, groups, ids_said, in_backlog, period

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
        ("2026-07-14", False, date(2026, 7, 14)),
        ("2026-07-14", True, date(2026, 7, 14)),  # --tot takes the day in
        ("2026-07", False, date(2026, 7, 1)),
        ("2026-07", True, date(2026, 7, 31)),
        ("2026-02", True, date(2026, 2, 28)),
        ("2028-02", True, date(2028, 2, 29)),
        (" 2026-02 ", False, date(2026, 2, 1)),
        ("0001-01", False, date(1, 1, 1)),  # the calendar's first and last days are days like any
        ("9999-12", True, date(9999, 12, 31)),
        ("9999-12-31", True, date(9999, 12, 31)),
    ],
)
def test_a_day_or_a_month_is_its_first_or_its_last_day(text: str, end: bool, expected: date) -> None:
    assert day_bound(text, "--tot", end=end) == expected


@pytest.mark.parametrize(
    "text", ["juli", "2026-13", "2026-02-30", "2026-7", "14-07-2026", "", "0000-01", "10000-01", "2026-07-14T08:00"]
)
def test_anything_else_is_refused_naming_the_option(text: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        day_bound(text, "--sinds", end=True)
    assert refused.value.values == {"option": "--sinds", "value": text}


def test_a_period_that_ends_before_it_starts_is_refused_naming_both_options() -> None:
    assert period("2026-07-15", "2026-07") == (date(2026, 7, 15), date(2026, 7, 31))
    assert period(None, "2026-07") == (None, date(2026, 7, 31))
    with pytest.raises(InvalidInput) as refused:
        period("2026-11", "2026-09")
    assert refused.value.key == "backlog_backwards"
    assert refused.value.values == {"since": "2026-11", "until": "2026-09"}


def test_message_ids_are_said_in_the_order_of_their_numbers() -> None:
    assert ids_said(["10", "9", "abc", "100", "2"]) == "2, 9, 10, 100, abc"
    assert ids_said([str(n) for n in range(20, 0, -1)]) == "1, 2, 3, 4, 5, …"


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
