"""Time phrases in a recall query, in Dutch, English and Japanese: a small rule table, not a guesser.

`parse_time("gisteravond budget", now, zone)` gives the range of yesterday evening and the words left
("budget"). Each rule is a pattern and a function of the match and "now" that returns a range [start, end)
in the household's time zone. The most specific rules come first; one phrase per query. Month names count
as dates only next to a day number, so "may", "march" or "we" inside a sentence are never dates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class TimeRange:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Parsed:
    range: TimeRange | None
    words: list[str]


# Parts of the day: (start hour, end hour); night runs from 00:00 to 06:00.
PARTS = {
    "ochtend": (6, 12),
    "middag": (12, 18),
    "avond": (18, 24),
    "nacht": (0, 6),
    "morning": (6, 12),
    "afternoon": (12, 18),
    "evening": (18, 24),
    "night": (0, 6),
    "朝": (6, 12),
    "午前": (6, 12),
    "午後": (12, 18),
    "夜": (18, 24),
    "夕方": (16, 20),
}
WEEKDAYS = {
    **{
        name: n
        for n, name in enumerate(["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag"])
    },
    **{
        name: n for n, name in enumerate(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
    },
    **{name: n for n, name in enumerate(["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日"])},
}
MONTHS = {
    **{
        name: n + 1
        for n, name in enumerate(
            [
                "januari",
                "februari",
                "maart",
                "april",
                "mei",
                "juni",
                "juli",
                "augustus",
                "september",
                "oktober",
                "november",
                "december",
            ]
        )
    },
    **{
        name: n + 1
        for n, name in enumerate(
            [
                "january",
                "february",
                "march",
                "april",
                "may",
                "june",
                "july",
                "august",
                "september",
                "october",
                "november",
                "december",
            ]
        )
    },
    **{
        name: n + 1
        for n, name in enumerate(["jan", "feb", "mrt", "apr", "jun", "jul", "aug", "sep", "okt", "oct", "nov", "dec"])
        if name not in ("mei",)
    },
}
MONTHS.update({"jun": 6, "jul": 7, "aug": 8, "sep": 9, "okt": 10, "oct": 10, "nov": 11, "dec": 12, "mar": 3})
UNITS = {
    "dag": "d",
    "dagen": "d",
    "day": "d",
    "days": "d",
    "日": "d",
    "week": "w",
    "weken": "w",
    "weeks": "w",
    "週間": "w",
    "uur": "h",
    "uren": "h",
    "hour": "h",
    "hours": "h",
    "時間": "h",
    "maand": "m",
    "maanden": "m",
    "month": "m",
    "months": "m",
    "ヶ月": "m",
    "か月": "m",
}

_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_PART = "|".join(sorted(PARTS, key=len, reverse=True))
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_UNIT = "|".join(sorted(UNITS, key=len, reverse=True))


def _day(day: date, zone: ZoneInfo, part: tuple[int, int] | None = None) -> TimeRange:
    start_hour, end_hour = part or (0, 24)
    start = datetime.combine(day, time(0), zone) + timedelta(hours=start_hour)
    return TimeRange(start, datetime.combine(day, time(0), zone) + timedelta(hours=end_hour))


def _days(first: date, last: date, zone: ZoneInfo) -> TimeRange:
    return TimeRange(_day(first, zone).start, _day(last, zone).end)


def _last_weekday(today: date, weekday: int, *, strictly_before: bool) -> date:
    back = (today.weekday() - weekday) % 7
    if back == 0 and strictly_before:
        back = 7
    return today - timedelta(days=back)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _month_start(day: date, months_back: int = 0) -> date:
    month = day.month - months_back
    year = day.year + (month - 1) // 12
    return date(year, (month - 1) % 12 + 1, 1)


def _past_date(today: date, month: int, day: int, year: int | None) -> date | None:
    """A date without a year is the latest one not in the future."""
    try:
        if year is not None:
            return date(year, month, day)
        candidate = date(today.year, month, day)
        return candidate if candidate <= today else date(today.year - 1, month, day)
    except ValueError:
        return None


Rule = tuple[re.Pattern[str], Callable[[re.Match[str], datetime, ZoneInfo], TimeRange | None]]


def _rules() -> list[Rule]:
    def today(now: datetime) -> date:
        return now.date()

    def part_of(name: str) -> tuple[int, int]:
        return PARTS[name.lower()]

    def night_before(day: date, zone: ZoneInfo) -> TimeRange:
        """The evening and night from `day` 18:00 to the next morning 06:00."""
        return TimeRange(_day(day, zone, (18, 24)).start, _day(day + timedelta(days=1), zone, (0, 6)).end)

    def weekday_rule(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        previous = bool(m.group("vorige"))
        weekday = WEEKDAYS[m.group("weekday").lower()]
        day = _last_weekday(today(now), weekday, strictly_before=previous)
        part = part_of(m.group("part")) if m.group("part") else None
        return _day(day, zone, part)

    def previous_week_weekday(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        monday = _monday(today(now)) - timedelta(days=7)
        day = monday + timedelta(days=WEEKDAYS[m.group("weekday").lower()])
        return _day(day, zone, part_of(m.group("part")) if m.group("part") else None)

    def ago(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return ago_count(int(m.group("n")), UNITS[m.group("unit").lower()], now, zone)

    def one_ago(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return ago_count(1, UNITS[m.group("unit").lower()], now, zone)

    def ago_count(count: int, unit: str, now: datetime, zone: ZoneInfo) -> TimeRange:
        """Hours: a two-hour window around then; days: that day; weeks and months: that whole week or month."""
        if unit == "h":
            return TimeRange(now - timedelta(hours=count + 1), now - timedelta(hours=count - 1))
        if unit == "d":
            return _day(today(now) - timedelta(days=count), zone)
        if unit == "w":
            monday = _monday(today(now)) - timedelta(weeks=count)
            return _days(monday, monday + timedelta(days=6), zone)
        first = _month_start(today(now), count)
        return TimeRange(_day(first, zone).start, _day(_month_start(today(now), count - 1), zone).start)

    def absolute(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange | None:
        groups = m.groupdict()
        month = int(groups["mnum"]) if groups.get("mnum") else MONTHS[groups["mname"].lower()]
        year = int(groups["year"]) if groups.get("year") else None
        found = _past_date(today(now), month, int(groups["day"]), year)
        if found is None:
            return None
        part = part_of(groups["part"]) if groups.get("part") else None
        return _day(found, zone, part)

    def fixed(offset_days: int, part: tuple[int, int] | None = None) -> Callable[..., TimeRange]:
        return lambda _m, now, zone: _day(today(now) - timedelta(days=offset_days), zone, part)

    def week(weeks_back: int) -> Callable[..., TimeRange]:
        def rule(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
            monday = _monday(today(now)) - timedelta(weeks=weeks_back)
            end = _day(monday + timedelta(days=6), zone).end if weeks_back else now
            return TimeRange(_day(monday, zone).start, end)

        return rule

    def month(months_back: int) -> Callable[..., TimeRange]:
        def rule(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
            start = _day(_month_start(today(now), months_back), zone).start
            end = _day(_month_start(today(now), months_back - 1), zone).start if months_back else now
            return TimeRange(start, end)

        return rule

    def tonight(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return _day(today(now), zone, (18, 24))

    def last_night(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return night_before(today(now) - timedelta(days=1), zone)

    def this_part(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return _day(today(now), zone, part_of(m.group("part")))

    def yesterday_part(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        return _day(today(now) - timedelta(days=1), zone, part_of(m.group("part")))

    b = r"(?<![\w-])"  # a word starts here (Latin scripts)
    e = r"(?![\w-])"
    vorige = r"(?P<vorige>vorige |afgelopen |last |previous )?"
    rules: list[tuple[str, Callable[..., TimeRange | None]]] = [
        # Absolute dates first: they are the most specific.
        (rf"{b}(?P<year>\d{{4}})-(?P<mnum>\d{{1,2}})-(?P<day>\d{{1,2}}){e}", absolute),
        (r"(?:(?P<year>\d{4})年)?(?P<mnum>\d{1,2})月(?P<day>\d{1,2})日(?:の(?P<part>" + _PART + "))?", absolute),
        (rf"{b}(?P<day>\d{{1,2}}) (?P<mname>{_MONTH})(?: (?P<year>\d{{4}}))?{e}", absolute),
        (rf"{b}(?P<mname>{_MONTH}) (?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<year>\d{{4}}))?{e}", absolute),
        # Japanese relative phrases.
        (r"先週の(?P<weekday>" + _WEEKDAY + r")(?:の(?P<part>" + _PART + "))?", previous_week_weekday),
        (r"昨夜|昨晩|ゆうべ", last_night),
        (r"昨日の(?P<part>" + _PART + ")", yesterday_part),
        (r"今朝", lambda m, now, zone: _day(today(now), zone, (6, 12))),
        (r"今夜|今晩", tonight),
        (r"一昨日|おととい", fixed(2)),
        (r"昨日|きのう", fixed(1)),
        (r"今日|きょう", fixed(0)),
        (r"先週", week(1)),
        (r"今週", week(0)),
        (r"先月", month(1)),
        (r"今月", month(0)),
        (r"(?P<n>\d+)(?P<unit>日|週間|時間|ヶ月|か月)前", ago),
        (
            r"(?P<weekday>" + "|".join(k for k in WEEKDAYS if k.endswith("曜日")) + r")(?:の(?P<part>" + _PART + "))?",
            lambda m, now, zone: _day(
                _last_weekday(today(now), WEEKDAYS[m.group("weekday")], strictly_before=False),
                zone,
                part_of(m.group("part")) if m.group("part") else None,
            ),
        ),
        # Dutch and English.
        (rf"{b}(?P<n>\d+) (?P<unit>{_UNIT}) (?:geleden|ago){e}", ago),
        (rf"{b}(?:een|an?|one) (?P<unit>uur|hour|dag|day|week|maand|month) (?:geleden|ago){e}", one_ago),
        (rf"{b}vorige week (?P<weekday>{_WEEKDAY})(?P<part>{_PART})?{e}", previous_week_weekday),
        (rf"{b}(?:vorige|afgelopen|last|previous) week{e}", week(1)),
        (rf"{b}(?:deze|this) week{e}", week(0)),
        (rf"{b}(?:vorige|afgelopen|last|previous) (?:maand|month){e}", month(1)),
        (rf"{b}(?:deze|this) (?:maand|month){e}", month(0)),
        (rf"{b}eergisteren{e}|{b}the day before yesterday{e}", fixed(2)),
        (rf"{b}gister(?P<part>ochtend|middag|avond|nacht){e}", yesterday_part),
        (
            rf"{b}(?:gisteren|yesterday) (?:in the )?(?P<part>ochtend|middag|avond|morning|afternoon|evening){e}",
            yesterday_part,
        ),
        (rf"{b}last night{e}|{b}vannacht{e}", last_night),
        (rf"{b}(?:tonight|vanavond){e}", tonight),
        (rf"{b}van(?P<part>ochtend|middag){e}", this_part),
        (rf"{b}this (?P<part>morning|afternoon|evening){e}", this_part),
        (rf"{b}{vorige}(?P<weekday>{_WEEKDAY})(?: ?(?P<part>{_PART}))?{e}", weekday_rule),
        (rf"{b}(?:gisteren|yesterday){e}", fixed(1)),
        (rf"{b}(?:vandaag|today){e}", fixed(0)),
    ]
    return [(re.compile(pattern, re.IGNORECASE), handler) for pattern, handler in rules]


RULES = _rules()


def parse_time(query: str, now: datetime, zone: ZoneInfo) -> Parsed:
    """The first time phrase in `query` as a range in `zone`, and the words that are left."""
    local_now = now.astimezone(zone)
    for pattern, handler in RULES:
        match = pattern.search(query)
        if match is None:
            continue
        found = handler(match, local_now, zone)
        if found is None:
            continue
        rest = (query[: match.start()] + " " + query[match.end() :]).split()
        return Parsed(found, rest)
    return Parsed(None, query.split())
