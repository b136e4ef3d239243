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
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from worker.core.timephrase_needs import CLOCK_NEEDS, RULE_NEEDS


@dataclass(frozen=True)
class TimeRange:
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Parsed:
    range: TimeRange | None
    words: list[str]


def _words(text: str) -> list[str]:
    return text.split()


def _numbered(words: str, first: int) -> dict[str, int]:
    """Words in their order, numbered from `first` (the days of the week, the months, counts)."""
    return {word: first + n for n, word in enumerate(_words(words))}


# Parts of the day: (start hour, end hour), also as the adverb (`gisteren 's avonds`, `maandag 's ochtends`). A
# night runs 18:00 to 06:00 the next morning (`zaterdagnacht`, `saturday night`).
PARTS = {
    **dict.fromkeys(_words("ochtend morning ochtends morgens 朝 午前"), (6, 12)),
    **dict.fromkeys(_words("middag afternoon middags 午後"), (12, 18)),
    **dict.fromkeys(_words("avond evening avonds 夜"), (18, 24)),
    **dict.fromkeys(_words("nacht night nachts"), (18, 30)),
    "夕方": (16, 20),
}
WEEKDAYS = {
    **_numbered("maandag dinsdag woensdag donderdag vrijdag zaterdag zondag", 0),
    **_numbered("monday tuesday wednesday thursday friday saturday sunday", 0),
    **_numbered("月曜日 火曜日 水曜日 木曜日 金曜日 土曜日 日曜日", 0),
}
MONTHS = {
    **_numbered("januari februari maart april mei juni juli augustus september oktober november december", 1),
    **_numbered("january february march april may june july august september october november december", 1),
    **_numbered("jan feb mrt apr mei jun jul aug sep okt nov dec", 1),
    "mar": 3,
    "oct": 10,
}
UNITS = {
    **dict.fromkeys(_words("dag dagen day days 日"), "d"),
    **dict.fromkeys(_words("week weken weeks 週間"), "w"),
    **dict.fromkeys(_words("uur uren hour hours 時間"), "h"),
    **dict.fromkeys(_words("maand maanden month months ヶ月 か月"), "m"),
}

# Counts written as words, up to 31 (`twee weken geleden`, `three days ago`; in kanji, `二週間前`: kanji_number).
_NL_NUMBERS = _numbered(
    "een twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien vijftien zestien zeventien"
    " achttien negentien twintig",
    1,
)
_EN_NUMBERS = _numbered(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen"
    " eighteen nineteen twenty",
    1,
)
NUMBER_WORDS = {
    **_NL_NUMBERS,
    **_EN_NUMBERS,
    **{f"{u}{'ën' if u.endswith('e') else 'en'}twintig": 20 + n for u, n in _NL_NUMBERS.items() if n < 10},
    **{f"twenty{sep}{u}": 20 + n for u, n in _EN_NUMBERS.items() if n < 10 for sep in "- "},
    **{"één": 1, "dertig": 30, "eenendertig": 31, "thirty": 30, "thirty-one": 31},
}
_KANJI_DIGITS = {ch: n + 1 for n, ch in enumerate("一二三四五六七八九")}


def kanji_number(text: str) -> int:
    """一 to 九十九 (二十 is 20, 十五 is 15, 二十一 is 21)."""
    tens, _, units = text.partition("十")
    if "十" not in text:
        return _KANJI_DIGITS[text]
    return (_KANJI_DIGITS[tens] if tens else 1) * 10 + (_KANJI_DIGITS[units] if units else 0)


FULL_MONTHS = {name: n for name, n in MONTHS.items() if len(name) > 3 or name in ("mei", "may")}
# Small words that are never searched (`wat zei paco in september over het budget` searches paco and budget).
STOP_WORDS = frozenset(
    _words(
        "de het een in op om over van rond wat wie waar zei zegt had heeft is was en of te met voor bij naar er die dat"
        " aan ik je we hij zij ze the a an in on at of about around what who where did said say says was is and or to"
        " for with by from we i you he she it they that this の は が を に で と も"
    )
)


_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_PART = "|".join(sorted(PARTS, key=len, reverse=True))
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_UNIT = "|".join(sorted(UNITS, key=len, reverse=True))
_FULL_MONTH = "|".join(sorted(FULL_MONTHS, key=len, reverse=True))
_LATIN_NUMBER = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_KANJI_NUMBER = "[一二三四五六七八九]?十[一二三四五六七八九]?|[一二三四五六七八九]"


def database_bounds(found: TimeRange | None, now: datetime) -> tuple[datetime, datetime]:
    """The range a time phrase gave, or all time up to now: what the database's searches (the task log, the
    fleet's copy) take, where there is no open end."""
    if found is not None:
        return found.start, found.end
    return datetime(1970, 1, 1, tzinfo=now.tzinfo), now + timedelta(minutes=1)


def number(text: str) -> int:
    if text.isdigit():
        return int(text)
    if all(ch in "一二三四五六七八九十" for ch in text):
        return kanji_number(text)
    return NUMBER_WORDS[text.lower()]


def search_words(words: list[str]) -> list[str]:
    """The words of a query worth searching: small words (`in`, `de`, `the`, ...) never are."""
    return [w for w in words if w.lower() not in STOP_WORDS]


_ENGLISH_MARKERS = frozenset(_words("the what did said about yesterday ago last at on around this from between and"))
_DUTCH_MARKERS = frozenset(_words("de het wat zei over gisteren geleden vorige om rond deze van een tot tussen"))


def date_order(query: str, language: str) -> str:
    """How a numeric date such as 5/11 is read: day first in Dutch (and with a dash), month first in English
    and Japanese. The query's own words decide; the household's language when they do not."""
    if any("\u3040" <= ch <= "\u9fff" for ch in query):
        return "mdy"
    words = set(re.findall(r"[a-zà-ÿ]+", query.lower()))
    english = len(words & _ENGLISH_MARKERS)
    dutch = len(words & _DUTCH_MARKERS)
    if english != dutch:
        return "mdy" if english > dutch else "dmy"
    return "mdy" if language == "en" else "dmy"


def _day(day: date, zone: ZoneInfo, part: tuple[int, int] | None = None) -> TimeRange:
    start_hour, end_hour = part or (0, 24)
    start = datetime.combine(day, time(0), zone) + timedelta(hours=start_hour)
    return TimeRange(start, datetime.combine(day, time(0), zone) + timedelta(hours=end_hour))


def _days(first: date, last: date, zone: ZoneInfo) -> TimeRange:
    return TimeRange(_day(first, zone).start, _day(last, zone).end)


def _so_far(found: TimeRange, now: datetime) -> TimeRange:
    """A range that has begun ends at `now` at the latest: recall looks back."""
    return TimeRange(found.start, min(found.end, now)) if found.start <= now else found


def _last_weekday(today: date, weekday: int, *, strictly_before: bool) -> date:
    back = (today.weekday() - weekday) % 7 or (7 if strictly_before else 0)
    return today - timedelta(days=back)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _month_start(day: date, months_back: int = 0) -> date:
    month = day.month - months_back
    year = day.year + (month - 1) // 12
    return date(year, (month - 1) % 12 + 1, 1)


def _days_in(first: date) -> int:
    """The number of days of the month that begins on `first`."""
    return (_month_start(first, -1) - timedelta(days=1)).day


def _week(now: datetime, zone: ZoneInfo, weeks_back: int) -> TimeRange:
    monday = _monday(now.date()) - timedelta(weeks=weeks_back)
    return _days(monday, monday + timedelta(days=6), zone)


def _month(now: datetime, zone: ZoneInfo, months_back: int) -> TimeRange:
    start = _day(_month_start(now.date(), months_back), zone).start
    return TimeRange(start, _day(_month_start(now.date(), months_back - 1), zone).start)


def _past_date(today: date, month: int, day: int, year: int | None) -> date | None:
    """A date without a year is the latest one not in the future."""
    try:
        if year is not None:
            return date(year, month, day)
        candidate = date(today.year, month, day)
        return candidate if candidate <= today else date(today.year - 1, month, day)
    except ValueError:
        return None


Handler = Callable[[re.Match[str], datetime, ZoneInfo], TimeRange | None]
Rule = tuple[str, Handler | None]  # None: a numeric date, read in the query's order (_numeric)

# Parts of a month: the first, middle and last ten days.
MONTH_PARTS = {
    **dict.fromkeys(["begin", "begin van", "early", "beginning of", "start of", "初め", "はじめ", "上旬"], (1, 10)),
    **dict.fromkeys(
        ["half", "halverwege", "medio", "midden", "midden van", "mid", "middle of", "中旬", "半ば"], (11, 20)
    ),
    **dict.fromkeys(["eind", "einde", "eind van", "late", "end of", "下旬", "末", "終わり"], (21, 31)),
}
_MONTH_PART = (
    r"(?:the )?(?:" + "|".join(sorted((re.escape(k) for k in MONTH_PARTS if k.isascii()), key=len, reverse=True)) + ")"
)
_JA_MONTH_PART = "|".join(k for k in MONTH_PARTS if not k.isascii())


def _month_number(m: re.Match[str]) -> int:
    groups = m.groupdict()
    return int(groups["mnum"]) if groups.get("mnum") else MONTHS[groups["mname"].lower()]


def _year(text: str | None) -> int | None:
    if not text:
        return None
    return int(text) + 2000 if len(text) == 2 else int(text)


def _numeric(m: re.Match[str], now: datetime, zone: ZoneInfo, order: str) -> TimeRange | None:
    """27/11 and 27-11 (day first) in Dutch, 11/27 (month first) in English and Japanese; when the preferred
    reading is no date (27 is no month), the other one is tried."""
    first, second = int(m.group("a")), int(m.group("b"))
    day_first = order == "dmy" or m.group("sep") in "-."  # 27-11 and 24.11 are day first in every language
    readings = ((first, second), (second, first)) if day_first else ((second, first), (first, second))
    for day, month in readings:
        found = _past_date(now.date(), month, day, _year(m.group("year"))) if 1 <= month <= 12 else None
        if found is not None:
            return _day(found, zone)
    return None


def _month_part(now: datetime, zone: ZoneInfo, month: int, days: tuple[int, int], year: int | None) -> TimeRange:
    """Days of a month, the latest such month that has begun unless the year is given."""
    if year is None:
        year = now.year if month <= now.month else now.year - 1
    first = date(year, month, 1)
    return _so_far(_days(first.replace(day=days[0]), first.replace(day=min(days[1], _days_in(first))), zone), now)


def _rules() -> list[Rule]:
    def part_of(m: re.Match[str]) -> tuple[int, int] | None:
        """The part of the day the match names, if any."""
        name = m.groupdict().get("part")
        return PARTS[name.lower()] if name else None

    def weekday(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        """The latest such day (today counts), or with `vorige` the one before today."""
        previous = bool(m.groupdict().get("vorige"))
        day = _last_weekday(now.date(), WEEKDAYS[m.group("weekday").lower()], strictly_before=previous)
        return _day(day, zone, part_of(m))

    def previous_week_weekday(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        monday = _monday(now.date()) - timedelta(days=7)
        return _day(monday + timedelta(days=WEEKDAYS[m.group("weekday").lower()]), zone, part_of(m))

    def ago(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        """Hours: a two-hour window around then; days: that day; weeks and months: that whole week or month."""
        count = number(m.group("n")) if m.groupdict().get("n") else 1
        unit = UNITS[m.group("unit").lower()]
        if unit == "h":
            return TimeRange(now - timedelta(hours=count + 1), now - timedelta(hours=count - 1))
        if unit == "d":
            return _day(now.date() - timedelta(days=count), zone)
        return _week(now, zone, count) if unit == "w" else _month(now, zone, count)

    def day_of_month(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange | None:
        """`on the 3rd`, `op de 3e`: the latest such day that has begun, this month or the one before."""
        wanted = int(m.group("day") or m.group("nlday"))
        for months_back in (0, 1, 2):
            first = _month_start(now.date(), months_back)
            try:
                found = first.replace(day=wanted)
            except ValueError:
                continue
            if found <= now.date():
                return _day(found, zone)
        return None

    def absolute(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange | None:
        groups = m.groupdict()
        found = _past_date(now.date(), _month_number(m), int(groups["day"]), _year(groups.get("year")))
        return None if found is None else _day(found, zone, part_of(m))

    def fixed(days_back: int, part: tuple[int, int] | None = None) -> Handler:
        """A day `days_back` before today, or the part of it given here or in the match."""
        return lambda m, now, zone: _day(now.date() - timedelta(days=days_back), zone, part or part_of(m))

    def week(weeks_back: int) -> Handler:
        return lambda _m, now, zone: _so_far(_week(now, zone, weeks_back), now)

    def month(months_back: int) -> Handler:
        return lambda _m, now, zone: _so_far(_month(now, zone, months_back), now)

    def weekend(weeks_back: int) -> Handler:
        """Saturday 00:00 to Monday 00:00: of this week (up to now), or of a week before."""

        def rule(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
            saturday = _monday(now.date()) + timedelta(days=5) - timedelta(weeks=weeks_back)
            if saturday > now.date():  # `dit weekend` on a Tuesday: recall looks back, so the one just past
                saturday -= timedelta(weeks=1)
            return _so_far(_days(saturday, saturday + timedelta(days=1), zone), now)

        return rule

    def last_n(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        """`afgelopen 3 dagen`, `the last 2 weeks`, `the past hour`: from that long ago until now (months and years
        by the calendar)."""
        count = number(m.group("n")) if m.group("n") else 1
        word = (m.group("unit") or m.group("one")).lower()
        unit = UNITS.get(word, "y")
        if unit in ("m", "y"):
            first = _month_start(now.date(), count * (12 if unit == "y" else 1))
            return TimeRange(now.replace(year=first.year, month=first.month, day=min(now.day, _days_in(first))), now)
        return TimeRange(now - timedelta(hours=count * {"h": 1, "d": 24, "w": 168}[unit]), now)

    def some_ago(first: int, last: int, unit: str) -> Handler:
        """A vague count: from `last` units back to the end of `first` units back (days, or whole weeks)."""

        def rule(_m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
            if unit == "d":
                return _days(now.date() - timedelta(days=last), now.date() - timedelta(days=first), zone)
            monday = _monday(now.date())
            return _days(monday - timedelta(weeks=last), monday - timedelta(weeks=first - 1, days=1), zone)

        return rule

    def in_month(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        """A month, or a part of one (`begin maart`, `3月下旬`); a month alone is the latest one that has begun:
        `in september` in July is last September; with a year (`in maart 2025`, `2025年3月`) it is that one."""
        which = (m.groupdict().get("which") or "").lower().replace("the ", "").strip()
        days = MONTH_PARTS[which] if which else (1, 31)
        if m.groupdict().get("mnum") or m.groupdict().get("mname"):
            return _month_part(now, zone, _month_number(m), days, _year(m.groupdict().get("year")))
        last = _month_start(now.date(), 1)  # `eind vorige maand`
        return _month_part(now, zone, last.month, days, last.year)

    def whole_year(years_back: int) -> Handler:
        def rule(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
            year = int(m.group("year")) if m.groupdict().get("year") else now.year - years_back
            return _so_far(_days(date(year, 1, 1), date(year, 12, 31), zone), now)

        return rule

    def night_of(m: re.Match[str], now: datetime, zone: ZoneInfo) -> TimeRange:
        """`de nacht van zaterdag op zondag`: the latest such night that has begun before today."""
        day = _last_weekday(now.date() - timedelta(days=1), WEEKDAYS[m.group("weekday").lower()], strictly_before=False)
        return _day(day, zone, PARTS["nacht"])

    b = r"(?<![\w-])"  # a word starts here (Latin scripts)
    e = r"(?![\w-])"
    vorige = r"(?P<vorige>vorige |afgelopen |last |previous )?"
    few = r"(?:een paar|paar|enkele|a couple of|a couple|a few|several)"
    last_night = fixed(1, PARTS["nacht"])
    return [
        # Absolute dates first: they are the most specific.
        (rf"{b}(?P<year>\d{{4}})-(?P<mnum>\d{{1,2}})-(?P<day>\d{{1,2}}){e}", absolute),
        (r"(?:(?P<year>\d{4})年)?(?P<mnum>\d{1,2})月(?P<day>\d{1,2})日(?:の(?P<part>" + _PART + "))?", absolute),
        (rf"{b}(?P<day>\d{{1,2}}) (?P<mname>{_MONTH})(?: (?P<year>\d{{4}}))?{e}", absolute),
        (rf"{b}(?P<mname>{_MONTH}) (?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:,? (?P<year>\d{{4}}))?{e}", absolute),
        # Numeric dates in the query's own order (27/11, 27-11, 11/27), never inside a longer number or a time.
        (r"(?<![\d/:.-])(?P<a>\d{1,2})(?P<sep>[/-])(?P<b>\d{1,2})(?:(?P=sep)(?P<year>\d{4}|\d{2}))?(?![\d/:.-])", None),
        # With dots, day first (24.11, 3.11.2026); the month in two digits or a year, so 3.5 liter is no date.
        (
            r"(?<![\d/:.-])(?P<a>\d{1,2})(?P<sep>\.)(?P<b>\d{2}|\d(?=\.\d{4}))(?:\.(?P<year>\d{4}|\d{2}))?"
            r"(?![\d/:-]|\.\d)",
            None,
        ),
        # Parts of a month, and a month alone.
        (
            rf"{b}(?P<which>{_MONTH_PART})[ -](?:(?:de |the )?(?:vorige|afgelopen|last|previous) (?:maand|month)){e}",
            in_month,
        ),
        (rf"先月の?(?P<which>{_JA_MONTH_PART})", in_month),
        (rf"{b}(?P<which>{_MONTH_PART})[ -](?P<mname>{_FULL_MONTH})(?: (?P<year>(?:19|20)\d\d))?{e}", in_month),
        (rf"(?:(?P<year>\d{{4}})年)?(?P<mnum>\d{{1,2}})月の?(?P<which>{_JA_MONTH_PART})", in_month),
        (rf"{b}in (?P<mname>{_FULL_MONTH})(?: (?P<year>(?:19|20)\d\d))?{e}", in_month),
        (rf"{b}(?P<mname>{_FULL_MONTH}) (?P<year>(?:19|20)\d\d){e}", in_month),
        (r"(?P<year>\d{4})年(?P<mnum>\d{1,2})月(?![\d日])", in_month),
        (r"(?<![\d年])(?P<mnum>\d{1,2})月(?![\d日])", in_month),
        # Years.
        (rf"{b}(?:vorig jaar|verleden jaar|afgelopen jaar|last year){e}|去年|昨年", whole_year(1)),
        (rf"{b}(?:dit jaar|this year){e}|今年", whole_year(0)),
        (rf"{b}in (?P<year>(?:19|20)\d\d){e}", whole_year(0)),
        (r"(?P<year>\d{4})年(?![\d月])", whole_year(0)),
        # Japanese relative phrases.
        (r"先々週の?週末", weekend(2)),
        (r"先週の?週末|先週末", weekend(1)),
        (r"今週末", weekend(0)),
        (r"数日前", some_ago(2, 4, "d")),
        (r"先日|この間|このあいだ|この前|最近", some_ago(1, 7, "d")),
        (r"数週間前", some_ago(2, 3, "w")),
        (r"先々週", week(2)),
        (r"(?P<n>" + _KANJI_NUMBER + r")(?P<unit>日|週間|時間|ヶ月|か月)前", ago),
        (r"先週の(?P<weekday>" + _WEEKDAY + r")(?:の(?P<part>" + _PART + "))?", previous_week_weekday),
        (r"昨夜|昨晩|ゆうべ", last_night),
        (r"一昨日の(?P<part>" + _PART + ")", fixed(2)),
        (r"(?<!一)昨日の(?P<part>" + _PART + r")(?!\d|時)", fixed(1)),
        (r"今朝", fixed(0, PARTS["朝"])),
        (r"今夜|今晩", fixed(0, PARTS["avond"])),
        (r"一昨日|おととい", fixed(2)),
        (r"(?<!一)昨日|きのう", fixed(1)),
        (r"今日|きょう", fixed(0)),
        (r"先週", week(1)),
        (r"今週", week(0)),
        (r"先月", month(1)),
        (r"今月", month(0)),
        (r"(?P<n>\d+)(?P<unit>日|週間|時間|ヶ月|か月)前", ago),
        (
            r"(?P<weekday>" + "|".join(k for k in WEEKDAYS if k.endswith("曜日")) + r")(?:の(?P<part>" + _PART + "))?",
            weekday,
        ),
        # Dutch and English.
        (rf"{b}(?:the weekend before last|eervorig weekend|het weekend daarvoor){e}", weekend(2)),
        (rf"{b}(?:afgelopen|vorig|vorige|last|past) weekend{e}", weekend(1)),
        (rf"{b}(?:in )?de nacht van (?P<weekday>{_WEEKDAY}) op (?:{_WEEKDAY}){e}", night_of),
        (
            rf"{b}{few} (?:uur|uren|hours) (?:geleden|terug|ago){e}|数時間前",
            lambda _m, now, zone: TimeRange(now - timedelta(hours=5), now - timedelta(hours=1)),
        ),
        (
            rf"{b}een (?:dag|dagje) of (?P<n>\d+|{_LATIN_NUMBER}) (?:geleden|terug){e}",
            lambda m, now, zone: some_ago(max(number(m.group("n")) - 1, 1), number(m.group("n")) + 1, "d")(
                m, now, zone
            ),
        ),
        (rf"{b}on the (?P<day>\d{{1,2}})(?:st|nd|rd|th){e}|{b}op de (?P<nlday>\d{{1,2}})(?:e|ste|de){e}", day_of_month),
        (rf"{b}(?:dit|this) weekend{e}", weekend(0)),
        (rf"{b}(?:the week before last|eervorige week|de week voor vorige week){e}", week(2)),
        (rf"{b}{few} (?:dagen|days) (?:geleden|terug|ago){e}", some_ago(2, 4, "d")),
        (rf"{b}{few} (?:weken|weeks) (?:geleden|terug|ago){e}", some_ago(2, 3, "w")),
        (rf"{b}(?:the other day|recently|lately|onlangs|laatst|pas geleden|kort geleden){e}", some_ago(1, 7, "d")),
        (rf"{b}(?P<n>\d+|{_LATIN_NUMBER}) (?P<unit>{_UNIT}) (?:geleden|terug|ago){e}", ago),
        (rf"{b}(?:een|an?|one) (?P<unit>uur|hour|dag|day|week|maand|month) (?:geleden|ago){e}", ago),
        (rf"{b}vorige week (?P<weekday>{_WEEKDAY})(?P<part>{_PART})?{e}", previous_week_weekday),
        (
            rf"{b}(?:afgelopen|laatste|last|past) (?:(?P<n>\d+|{_LATIN_NUMBER}) "
            rf"(?P<unit>uur|uren|hours?|dagen|dag|days?|weken|weeks?|maanden|maand|months?|jaren|jaar|years?)"
            rf"|(?P<one>uur|hour|dag|day)){e}",
            last_n,
        ),
        (rf"{b}(?:vorige|afgelopen|last|previous) week{e}", week(1)),
        (rf"{b}(?:deze|this) week{e}", week(0)),
        (rf"{b}(?:vorige|afgelopen|last|previous) (?:maand|month){e}", month(1)),
        (rf"{b}(?:deze|this) (?:maand|month){e}", month(0)),
        (rf"{b}(?:afgelopen nacht|gister(?:en)?nacht){e}", last_night),
        (rf"{b}eergister(?:en)?(?P<part>ochtend|middag|avond){e}", fixed(2)),
        (rf"{b}eergister(?:en)?{e}|{b}the day before yesterday{e}", fixed(2)),
        (rf"{b}gister(?:en)?(?P<part>ochtend|middag|avond){e}", fixed(1)),
        (
            rf"{b}(?:gisteren|yesterday) (?:in the )?(?P<part>ochtend|middag|avond|morning|afternoon|evening){e}",
            fixed(1),
        ),
        (rf"{b}last night{e}|{b}vannacht{e}", last_night),
        (rf"{b}(?:tonight|vanavond){e}", fixed(0, PARTS["avond"])),
        (rf"{b}van(?P<part>ochtend|middag){e}", fixed(0)),
        (rf"{b}this (?P<part>morning|afternoon|evening){e}", fixed(0)),
        (rf"{b}{vorige}(?P<weekday>{_WEEKDAY})(?: ?(?P<part>{_PART}))?{e}", weekday),
        (rf"{b}(?:gisteren|gister|yesterday){e}", fixed(1)),
        (rf"{b}(?:vandaag|today){e}", fixed(0)),
    ]


# The patterns are compiled when a query may match them (re caches them): compiling all of them took longer
# than the rest of `taak recall` to start. A query of plain ASCII letters is tried only against the patterns
# one of whose needed strings it holds (NEEDS, derived from the patterns by tests/unit/test_timephrase.py).
RULES = _rules()


def _may_match(text: str) -> Callable[[tuple[str, ...] | None], bool]:
    """Whether `text` may match a pattern that needs one of these strings (None: needs none)."""
    if not text.isascii():  # IGNORECASE matches some letters beyond ASCII to ASCII ones: no shortcut
        return lambda _needs: True
    lowered = text.lower()
    return lambda needs: needs is None or any(n in lowered for n in needs)


def _without(text: str, found: re.Match[str]) -> str:
    return text[: found.start()] + " " + text[found.end() :]


# `sinds gisteren`, `since Monday`, `vanaf 1 december`: from the start of the phrase after it until now.
_SINCE = re.compile(r"(?<![\w-])(?:sinds|since|vanaf)(?: de| the)? *$", re.IGNORECASE)


def parse_time(query: str, now: datetime, zone: ZoneInfo, language: str = "nl") -> Parsed:
    """The first time phrase in `query` as a range in `zone`, and the words that are left. A day may be narrowed
    by a part of the day or a clock time beside it (`eergisteren ochtend`, `gisteren om 15:00`, `3日前の夜`);
    a clock time alone is its most recent past occurrence; `sinds` (since) before a phrase runs it on until now;
    two phrases joined by `tot` (until) are one range from the first to the second (`_two_ended`)."""
    local_now = now.astimezone(zone)
    order = date_order(query, language)
    if (two_ended := _two_ended(query, local_now, zone, order, language)) is not None:
        return two_ended
    may = _may_match(query)
    for (pattern, handler), needs in zip(RULES, RULE_NEEDS, strict=True):
        match = re.search(pattern, query, re.IGNORECASE) if may(needs) else None
        found = _read(match, handler, local_now, zone, order) if match is not None else None
        if match is None or found is None:
            continue
        text = _without(query, match)
        since = _SINCE.search(query, 0, match.start())
        if since is not None:
            text = text[: since.start()] + " " + text[since.end() :]
        found, rest = narrow(found, text, local_now, zone)
        return Parsed(TimeRange(min(found.start, local_now), local_now) if since else found, rest.split())
    return clock_alone(query, local_now, zone) or Parsed(None, query.split())


def _read(match: re.Match[str], handler: Handler | None, now: datetime, zone: ZoneInfo, order: str) -> TimeRange | None:
    try:
        return _numeric(match, now, zone, order) if handler is None else handler(match, now, zone)
    except (OverflowError, ValueError):  # a count that reaches past the calendar: no date, as 31 februari
        return None


# --- two ends: `van maandag tot woensdag`, `tussen 18:00 en 20:00`, `from Monday to Wednesday` ---------------

# The word between the ends; `en`/`and` joins two ends only after `tussen`/`between` (`maandag en vrijdag` is two
# days, not the week between them).
_UNTIL = re.compile(r" *- *| +(?:(?P<pair>en|and)|tot en met|t/m|tot|until|till|through|to) +", re.IGNORECASE)
_NOW = re.compile(r"(?:nu|now)(?![\w-])", re.IGNORECASE)
_OPENER = re.compile(r"(?<![\w-])(?P<word>van|vanaf|from|tussen|between)(?: de| the)? *$", re.IGNORECASE)


def _two_ended(query: str, now: datetime, zone: ZoneInfo, order: str, language: str) -> Parsed | None:
    """Two days (or two clock times) with `tot`, `t/m`, `to`, `until` or `-` between them, or `en`/`and` after
    `tussen`/`between`: from the start of the first to the end of the second (clock times: from one to the other,
    on the day the rest names, else their latest past). Two ends in either order: never a reversed range."""
    if _UNTIL.search(query) is None:  # start-up: no pattern is compiled for a query that joins nothing
        return None
    readers = _end_readers(query, now, zone, order)
    for until in _UNTIL.finditer(query):
        first = _end_before(query, until.start(), readers)
        last = _end_after(query, until.end(), now, readers) if first is not None else None
        if first is None or last is None:
            continue
        (one, begins), (other, ends) = first, last
        opener = _OPENER.search(query, 0, begins)
        if until.group("pair") and (opener is None or opener.group("word").lower() not in ("tussen", "between")):
            continue
        rest = query[: opener.start() if opener else begins] + " " + query[ends:]
        if isinstance(one, TimeRange) and isinstance(other, TimeRange):
            return Parsed(TimeRange(min(one.start, other.start), max(one.end, other.end)), rest.split())
        if isinstance(one, Clock) and isinstance(other, Clock):
            return _between_clocks(one, other, rest, now, zone, language)
    return None


EndReader = tuple[re.Pattern[str], Callable[[re.Match[str]], "TimeRange | Clock | None"]]


def _end_readers(query: str, now: datetime, zone: ZoneInfo, order: str) -> list[EndReader]:
    """What may be an end of a range in this query: the day phrases (RULES), then the clock times, each pattern
    with what reads its match."""
    may = _may_match(query)
    days: list[EndReader] = [
        (re.compile(pattern, re.IGNORECASE), partial(_read, handler=handler, now=now, zone=zone, order=order))
        for (pattern, handler), needs in zip(RULES, RULE_NEEDS, strict=True)
        if may(needs)
    ]
    clocks: list[EndReader] = [
        (re.compile(pattern, flags), _clock)
        for (pattern, flags), needs in zip(_CLOCK_PATTERNS, CLOCK_NEEDS, strict=True)
        if may(needs)
    ]
    return days + clocks


def _end_before(query: str, end: int, readers: list[EndReader]) -> tuple[TimeRange | Clock, int] | None:
    """A phrase or a clock time that ends at `end`, and where it starts."""
    for pattern, read in readers:
        for match in pattern.finditer(query, 0, end):
            if match.end() == end and (found := read(match)) is not None:
                return found, match.start()
    return None


def _end_after(query: str, start: int, now: datetime, readers: list[EndReader]) -> tuple[TimeRange | Clock, int] | None:
    """A phrase or a clock time that starts at `start`, and where it ends (`nu`, `now`: until now)."""
    if (now_said := _NOW.match(query, start)) is not None:
        return TimeRange(now, now), now_said.end()
    for pattern, read in readers:
        if (match := pattern.match(query, start)) is not None and (found := read(match)) is not None:
            return found, match.end()
    return None


def _between_clocks(first: Clock, last: Clock, rest: str, now: datetime, zone: ZoneInfo, language: str) -> Parsed:
    """From one clock time to the other on the day the rest of the query names (`gisteren tussen 18:00 en 20:00`),
    else on the latest day on which the first has passed."""
    day = parse_time(rest, now, zone, language)
    if day.range is not None:  # a week with two clock times is the week: the times are not searched as words
        long = day.range.end - day.range.start > timedelta(hours=25)
        return Parsed(day.range if long else _clock_span(day.range, first, last, zone), day.words)
    today = _clock_span(_day(now.date(), zone), first, last, zone)
    latest = today if today.start <= now else _clock_span(_day(now.date() - timedelta(days=1), zone), first, last, zone)
    return Parsed(latest, rest.split())


def _clock_span(day: TimeRange, first: Clock, last: Clock, zone: ZoneInfo) -> TimeRange:
    """From one clock time to the other on a day, past midnight when the second comes earlier (22:00 tot 02:00)."""
    start, end = (_moment(day, clock, zone) for clock in (first, last))
    return TimeRange(start, end if end > start else end + timedelta(days=1))


def _moment(day: TimeRange, clock: Clock, zone: ZoneInfo) -> datetime:
    """The one moment of a clock time inside a day or a night (`vannacht tussen 1:00 en 4:00` is this morning's
    1:00), else the hour the clock time means of that day's date."""
    dates = (day.start.date(), day.start.date() + timedelta(days=1))
    inside = [
        moment
        for on in dates
        for hour in clock.hours
        if day.start <= (moment := datetime.combine(on, time(hour, clock.minute), zone)) <= day.end
    ]
    if len(inside) == 1:
        return inside[0]
    return _at_clock(day, day.start.date(), clock, zone).start + _CLOCK_WINDOW


# --- narrowing a day: a part of the day or a clock time beside it -------------------------------------------

_CLOCK_WINDOW = timedelta(hours=1)  # a clock time means the hour either side of it
_PART_WORD = (
    r"(?<![\w-])(?:in de |'s |in the )?"
    r"(?P<part>ochtends|morgens|middags|avonds|nachts|ochtend|middag|avond|nacht|morning|afternoon|evening|night)"
    r"(?![\w-])"
    r"|の?(?P<jpart>朝|午前|午後|夜|夕方)(?!\d|[一二三四五六七八九十]|時)"
)
_HOUR = rf"\d{{1,2}}|{_LATIN_NUMBER}"
_NL_DAYPART = r"(?: (?P<daypart>'s (?:nachts|ochtends|morgens|middags|avonds)|in de (?:nacht|ochtend|middag|avond)))?"
_EN_DAYPART = r"(?: (?P<daypart>at night|in the (?:morning|afternoon|evening)))?"
# (source, flags), compiled when a query may match them, as RULES; in the order they are tried.
_CLOCK_PATTERNS = [
    (source, re.IGNORECASE)
    for source in (
        # 15:00, om 15:00, rond 15.30 uur, at 15:30, around 3:30 pm
        r"(?<![\w:.])(?:(?P<near>rond|omstreeks|around|about|ongeveer) |(?:om|at|tegen) )?"
        r"(?P<h>\d{1,2}):(?P<min>\d{2})(?: ?uur)?(?: ?(?P<ampm>am|pm|a\.m\.|p\.m\.))?(?![\w:])",
        # om 3 uur, rond drie uur, rond 3 uur 's nachts
        rf"(?<![\w-])(?:(?P<near>rond|omstreeks|ongeveer|tegen) |om )(?P<h>{_HOUR}) uur{_NL_DAYPART}(?![\w-])",
        # om half tien (9:30: Dutch counts half towards the next hour), kwart over drie, kwart voor drie
        rf"(?<![\w-])(?:(?P<near>rond|omstreeks|ongeveer|tegen) |om )?(?P<dutch>half|kwart over|kwart voor) "
        rf"(?P<h>{_HOUR})(?: uur)?{_NL_DAYPART}(?![\w-])",
        # at half past three, quarter past three, quarter to four
        rf"(?<![\w-])(?:(?P<near>around|about) |at )?(?P<english>half past|(?:a )?quarter past|(?:a )?quarter to) "
        rf"(?P<h>{_HOUR}){_EN_DAYPART}(?![\w-])",
        # om 17u, rond 9u
        r"(?<![\w-])(?:(?P<near>rond|omstreeks|ongeveer|tegen) |om )(?P<h>\d{1,2})u(?![\w-])",
        # at 3pm, around 3 pm, 3pm, around three o'clock, at three o'clock at night
        rf"(?<![\w-])(?:(?P<near>around|about) |at )?(?P<h>{_HOUR}) ?(?P<ampm>am|pm|a\.m\.|p\.m\.|o'clock)"
        rf"{_EN_DAYPART}(?![\w])",
        # noon, midnight, rond het middaguur
        r"(?<![\w-])(?:(?P<near>around|about|rond) |at |om )?(?:het )?(?P<word>noon|midday|midnight|middernacht|"
        r"middaguur)(?![\w-])",
        # 午後3時, 3時半, 15時ごろ, 正午 (no letters that have a case: IGNORECASE changes nothing)
        rf"の?(?:(?P<ampm>午前|午後)?(?P<h>\d{{1,2}}|{_KANJI_NUMBER})時(?:(?P<min>\d{{1,2}})分|(?P<half>半))?"
        r"(?P<near>ごろ|頃)?|(?P<word>正午)(?:ごろ|頃)?)",
        # around 3 (English, no o'clock): last, so that `at 3 o'clock` and `at 3pm` are read whole first
        r"(?<![\w-])(?P<near>around|about|at) (?P<h>\d{1,2})(?![\w:.-])",
    )
]
_NAMED_CLOCK = {"noon": 12, "midday": 12, "middaguur": 12, "正午": 12, "midnight": 0, "middernacht": 0}


@dataclass(frozen=True)
class Clock:
    hours: tuple[int, ...]  # the hours it may mean: 3 o'clock without am/pm is 3:00 or 15:00
    minute: int


# Hours back and the minute of a time said in words: half tien is 9:30, kwart voor drie 2:45, half past three 3:30,
# quarter to four 3:45.
_SPOKEN = {
    "half": (1, 30),
    "kwart over": (0, 15),
    "kwart voor": (1, 45),
    "half past": (0, 30),
    "quarter past": (0, 15),
    "quarter to": (1, 45),
}


def _clock(m: re.Match[str]) -> Clock | None:
    groups = m.groupdict()
    if groups.get("word"):
        return Clock((_NAMED_CLOCK[groups["word"].lower()],), 0)
    hour, minute = _hour_minute(groups)
    daypart = (groups.get("daypart") or "").lower()
    if daypart and hour <= 12:  # `3 uur 's nachts` is 03:00, `8 uur 's avonds` 20:00
        later = any(word in daypart for word in ("middag", "avond", "afternoon", "evening"))
        return Clock(((hour % 12) + 12 if later else hour % 12,), minute)
    if hour > 23 or minute > 59:
        return None
    return _hours(groups, hour, minute)


def _hour_minute(groups: dict[str, Any]) -> tuple[int, int]:
    hour = number(groups["h"])
    minute = int(groups["min"]) if groups.get("min") else 30 if groups.get("half") else 0
    spoken = (groups.get("dutch") or groups.get("english") or "").lower().removeprefix("a ")
    if not spoken:
        return hour, minute
    back, minute = _SPOKEN[spoken]
    return (hour - back) % 24, minute


def _hours(groups: dict[str, Any], hour: int, minute: int) -> Clock | None:
    """The hours a clock time may mean: am or pm as said, else one on a 24-hour clock (15:00, 09:30, 0 uur), else
    both."""
    ampm = (groups.get("ampm") or "").lower().replace(".", "")
    if ampm in ("am", "午前"):
        return Clock((0 if hour == 12 else hour,), minute) if hour <= 12 else None
    if ampm in ("pm", "午後") and hour < 12:
        return Clock((hour + 12,), minute)
    if (groups.get("min") and len(groups["h"]) == 2) or hour > 12 or hour == 0:
        return Clock((hour,), minute)
    return Clock((hour, (hour + 12) % 24), minute)  # drie uur: 3:00 or 15:00


def _window(day: date, hour: int, minute: int, zone: ZoneInfo) -> TimeRange:
    moment = datetime.combine(day, time(hour, minute), zone)
    return TimeRange(moment - _CLOCK_WINDOW, moment + _CLOCK_WINDOW)


def _find_clock(text: str) -> tuple[re.Match[str], Clock] | None:
    may = _may_match(text)
    for (pattern, flags), needs in zip(_CLOCK_PATTERNS, CLOCK_NEEDS, strict=True):
        for match in re.finditer(pattern, text, flags) if may(needs) else ():
            found = _clock(match)
            if found is not None:
                return match, found
    return None


def narrow(found: TimeRange, rest: str, now: datetime, zone: ZoneInfo) -> tuple[TimeRange, str]:
    """A day with a part of the day or a clock time beside it becomes that part, or the hour around that time.
    Only a range that is one day or part of one is narrowed."""
    length = found.end - found.start
    if length > timedelta(hours=25) or (found.start.hour >= 18 and length > timedelta(hours=7)):
        return found, rest
    day = found.start.date()
    clock = _find_clock(rest)
    if clock is not None:
        match, when = clock
        return _at_clock(found, day, when, zone), _without(rest, match)
    whole_day = found.start.hour == 0 and length >= timedelta(hours=23)
    part = re.search(_PART_WORD, rest, re.IGNORECASE) if whole_day else None
    if part is not None:
        name = (part.group("part") or part.group("jpart")).lower()
        return _day(day, zone, PARTS[name]), _without(rest, part)
    return found, rest


def _at_clock(found: TimeRange, day: date, when: Clock, zone: ZoneInfo) -> TimeRange:
    """The hour around a clock time on a day: the one of its hours inside the range found, else (1 to 7 without
    am/pm, said of a day, is the afternoon: gisteren om drie uur is 15:00) the later one, else the one."""
    windows = [_window(day, hour, when.minute, zone) for hour in when.hours]
    inside = [w for w in windows if found.start <= w.start + _CLOCK_WINDOW < found.end]
    if len(inside) == 1:
        return inside[0]
    return windows[-1] if len(windows) > 1 and when.hours[0] < 8 else windows[0]


def clock_alone(query: str, now: datetime, zone: ZoneInfo) -> Parsed | None:
    """A clock time with no day: its most recent past occurrence (`rond drie uur` at 10:00 is 03:00 today)."""
    clock = _find_clock(query)
    if clock is None:
        return None
    match, when = clock
    candidates = [
        _window(now.date() - timedelta(days=back), hour, when.minute, zone) for back in (0, 1) for hour in when.hours
    ]
    past = [c for c in candidates if c.start + _CLOCK_WINDOW <= now]
    return Parsed(max(past, key=lambda c: c.start), _without(query, match).split())
