"""The owner's channel, decided: when a message goes out (at once, held through quiet hours, or in the digest),
when the digests are due, and which waiting task a message from the owner's phone answers.

Values in, values out: the daemon's duty (worker/daemon/channel.py) reads the clock and the database and acts on
what these functions say."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from worker.core.model import TASK_ID_IN_TEXT


class Route(enum.Enum):
    NOW = "nu"  # sent at once
    HOLD = "wacht"  # urgent, but quiet hours: sent when they end
    DIGEST = "dagbericht"  # waits for the next digest


# What cannot wait for the digest: a task that failed its last attempt, a bot at its daily brake, a question past
# its decision deadline. A question a bot marked urgent joins them while the bot is within its daily limit.
URGENT_KINDS = frozenset({"mislukt", "rem", "escalatie"})
# Urgent enough to break the quiet hours.
THROUGH_QUIET = frozenset({"mislukt"})


def route(
    kind: str, *, marked_urgent: bool, urgent_today: int, urgent_limit: int, quiet: bool, digest: bool = True
) -> Route:
    """Where one message to the owner goes. `urgent_today` counts the bot's urgent questions already sent today.
    Without digest times (`digest` false) every message is sent as it comes, outside the quiet hours."""
    urgent = kind in URGENT_KINDS or (kind == "vraag" and marked_urgent and urgent_today < urgent_limit)
    if not urgent and digest:
        return Route.DIGEST
    if quiet and kind not in THROUGH_QUIET:
        return Route.HOLD
    return Route.NOW


def over_the_limit(kind: str, *, marked_urgent: bool, urgent_today: int, urgent_limit: int) -> bool:
    """A question marked urgent that waits for the digest because its bot used up its urgent messages today: the
    digest says so."""
    return kind == "vraag" and marked_urgent and urgent_today >= urgent_limit


class NoTime(ValueError):
    """A clock time or a range that does not parse; its text is what was typed."""


_CLOCK = re.compile(r"([01]?\d|2[0-3])[:.]([0-5]\d)")


def clock_time(text: str) -> time:
    """`08:00`, `8:00`, `18.30` as a time of day; anything else (`25:00`, `8`, `noon`) is NoTime."""
    found = _CLOCK.fullmatch(text.strip())
    if found is None:
        raise NoTime(text.strip())
    return time(int(found.group(1)), int(found.group(2)))


def digest_times(text: str) -> tuple[time, ...]:
    """`08:00,18:00` as sorted, distinct times of day. Empty: no digest at all; an empty part (`08:00,,18:00`) is
    NoTime, as a typo may be."""
    if not text.strip():
        return ()
    return tuple(sorted({clock_time(part) for part in text.split(",")}))


@dataclass(frozen=True)
class Quiet:
    start: time
    end: time

    def holds(self, local: time) -> bool:
        """Whether a time of day falls in the quiet hours (a range past midnight, 22:00-07:00, included)."""
        if self.start <= self.end:
            return self.start <= local < self.end
        return local >= self.start or local < self.end


def quiet_hours(text: str) -> Quiet | None:
    """`22:00-07:00` as a range; empty: no quiet hours. A range of no length (`07:00-07:00`) is NoTime."""
    if not text.strip():
        return None
    start, dash, end = text.partition("-")
    if not dash:
        raise NoTime(text.strip())
    quiet = Quiet(clock_time(start), clock_time(end))
    if quiet.start == quiet.end:
        raise NoTime(text.strip())
    return quiet


def is_quiet(now: datetime, quiet: Quiet | None, zone: ZoneInfo) -> bool:
    return quiet is not None and quiet.holds(now.astimezone(zone).time())


def quiet_ends(now: datetime, quiet: Quiet, zone: ZoneInfo) -> datetime:
    """When quiet hours that hold at `now` end: the next moment at their end time."""
    return _next_at(now, quiet.end, zone)


def _at(day: datetime, clock: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day.date(), clock, tzinfo=zone)


def _next_at(now: datetime, clock: time, zone: ZoneInfo) -> datetime:
    local = now.astimezone(zone)
    today = _at(local, clock, zone)
    return today if today > now else _at(local + timedelta(days=1), clock, zone)


def latest_slot(now: datetime, times: tuple[time, ...], zone: ZoneInfo) -> datetime | None:
    """The digest that is due: the last set time at or before `now` (yesterday's last one early in the morning)."""
    if not times:
        return None
    local = now.astimezone(zone)
    candidates = [_at(local - timedelta(days=days), clock, zone) for days in (0, 1) for clock in times]
    return max(slot for slot in candidates if slot <= now)


def next_slot(now: datetime, times: tuple[time, ...], zone: ZoneInfo) -> datetime | None:
    if not times:
        return None
    return min(_next_at(now, clock, zone) for clock in times)


# A digest sent this long after its time says that it is late (a daemon was down when it was due).
LATE_AFTER = timedelta(minutes=10)


def is_late(slot: datetime, now: datetime) -> bool:
    return now - slot > LATE_AFTER


@dataclass(frozen=True)
class Answer:
    task_id: str
    text: str


@dataclass(frozen=True)
class NoText:
    """The owner named a waiting task and wrote nothing after it."""

    task_id: str


@dataclass(frozen=True)
class Unclear:
    """A message from the owner that names no waiting task, or several: the answer is which tasks wait."""

    named: tuple[str, ...]


# An ID first, in any case (a phone capitalises the first letter: `Hv-...`), then the answer.
_LEADING_ID = re.compile(r"\s*(HV-\d{8}-\d{3,})(?:[\s:,.-]+(.*))?", re.DOTALL | re.IGNORECASE)


def read_answer(text: str, replied_to: str | None, waiting: frozenset[str]) -> Answer | NoText | Unclear:
    """Which waiting task a message from the owner answers, and with what.

    `HV-20261129-001 ja, doe maar` anywhere in the chat answers that task; a reply to a message that names exactly
    one waiting task answers that one. Anything else is unclear: the owner hears which tasks wait."""
    leading = _LEADING_ID.fullmatch(text)
    if leading is not None:
        task_id, said = leading.group(1).upper(), (leading.group(2) or "").strip()
        if task_id not in waiting:
            return Unclear((task_id,))
        return Answer(task_id, said) if said else NoText(task_id)
    if replied_to is not None:
        named = tuple(dict.fromkeys(TASK_ID_IN_TEXT.findall(replied_to)))
        still_waiting = [task_id for task_id in named if task_id in waiting]
        if len(still_waiting) == 1 and text.strip():
            return Answer(still_waiting[0], text.strip())
        return Unclear(named)
    return Unclear(())


# Telegram refuses a message over 4,096 characters: a long digest goes as several, split between lines.
TELEGRAM_MAX_CHARS = 4096


def split_for_telegram(text: str, limit: int = TELEGRAM_MAX_CHARS) -> list[str]:
    """A text in parts of at most `limit` characters, cut between lines where it can be."""
    parts: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        for piece in (line[start : start + limit] for start in range(0, len(line), limit)):
            if len(current) + len(piece) > limit:
                parts.append(current)
                current = ""
            current += piece
    if current or not parts:
        parts.append(current)
    return [part.rstrip("\n") or part for part in parts]
