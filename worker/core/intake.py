"""What the intake makes of one message of the old queue table `agent_messages`, and the skipped backlog as the
owner reviews it: pure decisions, the same for the daemon, the preview, the bulk intake and the tests.

History is never run again. Only a message that arrived after the cut-off (TAAK_INTAKE_VANAF, else the moment
the baseline migration was applied) and that the old worker left open (its status is one of
TAAK_INTAKE_OPEN_STATUS) is converted; any other is marked skipped once (`task_id = 'overgeslagen'`).

The skipped backlog is what the old worker left open before the cut-off: such a message is, or will be, skipped,
and only the owner decides on it: `taak intake neem` takes it in, `taak intake sla-over` leaves it for good
(`task_id = 'afgewezen'`). A message the old worker handled is no part of it.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from zoneinfo import ZoneInfo

from worker.core.errors import InvalidInput
from worker.core.model import OPDRACHT_MAX_CHARS

UNUSABLE = "-"  # the task_id of a message that cannot become a task (empty, or too long to be an opdracht)
SKIPPED = "overgeslagen"  # the task_id of a message from before the cut-off, or handled by the old worker
LEFT = "afgewezen"  # the task_id of a message of the backlog the owner chose to leave (`taak intake sla-over`)
SAMPLE_CHARS = 80  # a group's sample line, cut


class Decision(StrEnum):
    TASK = "taak"  # becomes a new task
    JOINS = "log"  # names an existing task: a row in its log
    TOO_OLD = "te_oud"  # arrived before the cut-off
    HANDLED = "afgehandeld"  # the old worker handled it (its status is not an open one)
    UNUSABLE = "onbruikbaar"  # empty, or longer than an opdracht may be
    DONE = "al_verwerkt"  # became a task, joined one, or was skipped before
    NO_BOT = "geen_bot"  # addressed to no bot the fleet knows: no daemon takes it (the preview says so)


@dataclass(frozen=True)
class Rules:
    cutoff: datetime
    open_statuses: frozenset[str] | None  # None: the table has no status column, so no status filter


@dataclass(frozen=True)
class Message:
    id: str
    sender: str
    recipient: str
    moment: datetime | None
    status: str | None
    characters: int
    blank: bool
    names_task: bool  # its text names a task ID that exists
    task_id: str | None = None
    text: str | None = None  # read only where it is shown or taken in
    named_task: str | None = None  # the task its text names, where the backlog is read
    named_status: str | None = None  # that task's status


def decide(message: Message, rules: Rules) -> Decision:
    if message.task_id is not None:
        return Decision.DONE
    if message.moment is None or message.moment < rules.cutoff:
        return Decision.TOO_OLD
    if not is_open(message, rules):
        return Decision.HANDLED
    if message.names_task:
        return Decision.JOINS
    if message.blank or message.characters > OPDRACHT_MAX_CHARS:
        return Decision.UNUSABLE
    return Decision.TASK


def is_open(message: Message, rules: Rules) -> bool:
    return rules.open_statuses is None or (message.status or "").strip().lower() in rules.open_statuses


def in_backlog(message: Message, rules: Rules) -> bool:
    """Left open by the old worker before the cut-off, and not decided on yet: skipped, or to be skipped."""
    too_old = message.moment is None or message.moment < rules.cutoff
    return message.task_id in (None, SKIPPED) and too_old and is_open(message, rules)


@dataclass(frozen=True)
class Group:
    """The backlog's messages of one sender to one recipient in one month (`-`: no time), with a sample."""

    sender: str
    recipient: str
    month: str
    ids: tuple[str, ...]
    sample: str

    @property
    def count(self) -> int:
        return len(self.ids)


def groups(messages: Iterable[Message], zone: ZoneInfo) -> list[Group]:
    """By sender (as `--van` matches it: trimmed, lower case), recipient and month, in that order; the
    sample is the group's first message, on one line and cut."""
    found: dict[tuple[str, str, str], list[Message]] = {}
    for m in messages:
        month = m.moment.astimezone(zone).strftime("%Y-%m") if m.moment is not None else "-"
        found.setdefault((sender_key(m.sender), m.recipient or "-", month), []).append(m)
    return [
        Group(sender, recipient, month, tuple(m.id for m in members), sample_line(members[0].text or ""))
        for (sender, recipient, month), members in sorted(found.items())
    ]


def sender_key(sender: str) -> str:
    return sender.strip().lower() or "-"


def sample_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SAMPLE_CHARS else line[: SAMPLE_CHARS - 1] + "…"


_DAY_OR_MONTH = re.compile(r"^([0-9]{4})-([0-9]{2})(?:-([0-9]{2}))?$")


def day_bound(text: str, option: str, *, end: bool) -> date:
    """`2026-07-14` or a month, `2026-07`, as a day of the calendar: its first day (`--sinds`), or its last
    (`--tot`, which takes in the day or month it names). A day, not a moment: no bound is ever moved past the
    calendar (the first day of year 1, the last of 9999) by a time zone or a day after. Anything else is refused."""
    found = _DAY_OR_MONTH.match(text.strip())
    try:
        if found is None:
            raise ValueError
        year, month, day = int(found.group(1)), int(found.group(2)), found.group(3)
        if day:
            return date(year, month, int(day))
        return date(year, month, calendar.monthrange(year, month)[1] if end else 1)
    except ValueError:
        raise InvalidInput("bad_day", option=option, value=text) from None


def period(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    """`--sinds` and `--tot` as first and last day, each None for open; a period that ends before it starts is
    refused naming both, as bad input (it could match nothing)."""
    first = day_bound(since, "--sinds", end=False) if since is not None else None
    last = day_bound(until, "--tot", end=True) if until is not None else None
    if first is not None and last is not None and last < first:
        raise InvalidInput("backlog_backwards", since=since, until=until)
    return first, last


def id_order(message_id: str) -> tuple[int, int, str]:
    """Message IDs in the order a person reads them: numbers by their value (9 before 10), then any other."""
    digits = message_id.isdigit()
    return (0 if digits else 1, int(message_id) if digits else 0, message_id)


def ids_said(ids: Iterable[str], most: int = 5) -> str:
    """A few IDs, in order, for a line: `3, 9, 10, …`."""
    ordered = sorted(ids, key=id_order)
    return ", ".join(ordered[:most]) + (", …" if len(ordered) > most else "")
