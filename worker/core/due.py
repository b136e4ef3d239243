"""A due date as the owner types it (`--uiterlijk`): pure, the clock and zone come in.

A date alone means the end of that day: "uiterlijk 5 december" is still in time at 23:00 on the 5th.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from worker.core.errors import InvalidInput

_END_OF_DAY = time(23, 59, 59)
# The last day a due date may be on, in the household's time zone: every zone can still show the end of it
# (Python's dates end with year 9999, and the zones lie between 12 hours behind UTC and 14 ahead).
LATEST_DUE_DAY = date(9998, 12, 31)
_DAYS = {"vandaag": 0, "today": 0, "morgen": 1, "tomorrow": 1, "overmorgen": 2}
_UNIT_HOURS = {"d": 24, "dag": 24, "dagen": 24, "w": 168, "week": 168, "weken": 168, "u": 1, "uur": 1, "h": 1}
_RELATIVE = re.compile(rf"^\+?([0-9]+)\s*({'|'.join(_UNIT_HOURS)})$")


def parse_due(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    """`2026-12-05`, `2026-12-05 17:00`, `morgen`, `+3d`, `2w`, `12u`: the moment, aware, in `zone`.
    A moment already past is refused: a due date is for work still to be done."""
    try:
        moment = _parse(text, now, zone)
        too_far = moment.astimezone(zone).date() > LATEST_DUE_DAY
    except OverflowError:
        too_far = True
    if too_far:
        raise InvalidInput("due_too_far", value=text, latest=LATEST_DUE_DAY.isoformat())
    if moment <= now:
        raise InvalidInput("due_past", value=text)
    return moment


def _parse(text: str, now: datetime, zone: ZoneInfo) -> datetime:
    word = text.strip().lower()
    local_now = now.astimezone(zone)
    if word in _DAYS:
        return _end_of(local_now.date() + timedelta(days=_DAYS[word]), zone)
    relative = _RELATIVE.match(word)
    if relative:
        if len(relative.group(1)) > 9:  # past any calendar (and int() refuses 4,300 digits): too far, not no date
            raise OverflowError
        hours = int(relative.group(1)) * _UNIT_HOURS[relative.group(2)]
        moment = local_now + timedelta(hours=hours)
        return moment if _UNIT_HOURS[relative.group(2)] == 1 else _end_of(moment.date(), zone)
    written = text.strip()
    try:
        if len(written) <= 10:
            return _end_of(date.fromisoformat(written), zone)
        parsed = datetime.fromisoformat(written.replace(" ", "T", 1))
    except ValueError:
        raise InvalidInput("bad_due", value=text) from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=zone)


def _end_of(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, _END_OF_DAY, tzinfo=zone)
