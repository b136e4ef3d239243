"""Time phrases in Dutch, English and Japanese: the rule table, phrase by phrase.

"Now" is Wednesday 22 July 2026, 15:00 in Amsterdam; weeks run Monday to Sunday."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from worker.core.timephrase import TimeRange, parse_time, search_words

ZONE = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 7, 22, 15, 0, tzinfo=ZONE)
NOW_TEXT = "2026-07-22 15:00"


def day(d: str, start: str = "00:00", end: str = "24:00") -> tuple[str, str]:
    """A range on one day; 24:00 is the next day's midnight."""
    if end == "24:00":
        following = datetime.fromisoformat(d).toordinal() + 1
        return f"{d} {start}", f"{datetime.fromordinal(following):%Y-%m-%d} 00:00"
    return f"{d} {start}", f"{d} {end}"


def shown(found: TimeRange) -> tuple[str, str]:
    """A range as the tables below write it, in Amsterdam."""
    return f"{found.start.astimezone(ZONE):%Y-%m-%d %H:%M}", f"{found.end.astimezone(ZONE):%Y-%m-%d %H:%M}"


PHRASES: list[tuple[str, tuple[str, str]]] = [
    # Dutch
    ("vandaag", day("2026-07-22")),
    ("gisteren", day("2026-07-21")),
    ("eergisteren", day("2026-07-20")),
    ("gisteravond", day("2026-07-21", "18:00")),
    ("gisterochtend", day("2026-07-21", "06:00", "12:00")),
    ("gistermiddag", day("2026-07-21", "12:00", "18:00")),
    ("gisteren avond", day("2026-07-21", "18:00")),
    ("vanochtend", day("2026-07-22", "06:00", "12:00")),
    ("vanmiddag", day("2026-07-22", "12:00", "18:00")),
    ("vanavond", day("2026-07-22", "18:00")),
    ("vannacht", ("2026-07-21 18:00", "2026-07-22 06:00")),
    ("vorige week", ("2026-07-13 00:00", "2026-07-20 00:00")),
    ("afgelopen week", ("2026-07-13 00:00", "2026-07-20 00:00")),
    ("deze week", ("2026-07-20 00:00", NOW_TEXT)),
    ("vorige maand", ("2026-06-01 00:00", "2026-07-01 00:00")),
    ("deze maand", ("2026-07-01 00:00", NOW_TEXT)),
    ("3 dagen geleden", day("2026-07-19")),
    ("1 dag geleden", day("2026-07-21")),
    ("een dag geleden", day("2026-07-21")),
    ("2 weken geleden", ("2026-07-06 00:00", "2026-07-13 00:00")),
    ("2 uur geleden", ("2026-07-22 12:00", "2026-07-22 14:00")),
    ("een uur geleden", ("2026-07-22 13:00", "2026-07-22 15:00")),
    ("5 uur geleden", ("2026-07-22 09:00", "2026-07-22 11:00")),
    ("2 maanden geleden", ("2026-05-01 00:00", "2026-06-01 00:00")),
    ("dinsdag", day("2026-07-21")),
    ("woensdag", day("2026-07-22")),
    ("vorige woensdag", day("2026-07-15")),
    ("vorige dinsdag", day("2026-07-21")),
    ("afgelopen vrijdag", day("2026-07-17")),
    ("dinsdagavond", day("2026-07-21", "18:00")),
    ("vorige dinsdagavond", day("2026-07-21", "18:00")),
    ("maandagochtend", day("2026-07-20", "06:00", "12:00")),
    ("vrijdagmiddag", day("2026-07-17", "12:00", "18:00")),
    ("zondag", day("2026-07-19")),
    ("vorige week dinsdag", day("2026-07-14")),
    ("19 juli", day("2026-07-19")),
    ("19 juli 2025", day("2025-07-19")),
    ("1 augustus", day("2025-08-01")),
    ("3 mei", day("2026-05-03")),
    ("2026-07-19", day("2026-07-19")),
    ("12 mrt", day("2026-03-12")),
    # English
    ("today", day("2026-07-22")),
    ("yesterday", day("2026-07-21")),
    ("the day before yesterday", day("2026-07-20")),
    ("yesterday evening", day("2026-07-21", "18:00")),
    ("yesterday morning", day("2026-07-21", "06:00", "12:00")),
    ("yesterday afternoon", day("2026-07-21", "12:00", "18:00")),
    ("this morning", day("2026-07-22", "06:00", "12:00")),
    ("this afternoon", day("2026-07-22", "12:00", "18:00")),
    ("this evening", day("2026-07-22", "18:00")),
    ("tonight", day("2026-07-22", "18:00")),
    ("last night", ("2026-07-21 18:00", "2026-07-22 06:00")),
    ("last week", ("2026-07-13 00:00", "2026-07-20 00:00")),
    ("this week", ("2026-07-20 00:00", NOW_TEXT)),
    ("last month", ("2026-06-01 00:00", "2026-07-01 00:00")),
    ("this month", ("2026-07-01 00:00", NOW_TEXT)),
    ("3 days ago", day("2026-07-19")),
    ("2 hours ago", ("2026-07-22 12:00", "2026-07-22 14:00")),
    ("an hour ago", ("2026-07-22 13:00", "2026-07-22 15:00")),
    ("a day ago", day("2026-07-21")),
    ("2 weeks ago", ("2026-07-06 00:00", "2026-07-13 00:00")),
    ("3 months ago", ("2026-04-01 00:00", "2026-05-01 00:00")),
    ("last tuesday", day("2026-07-21")),
    ("last wednesday", day("2026-07-15")),
    ("tuesday", day("2026-07-21")),
    ("last Tuesday evening", day("2026-07-21", "18:00")),
    ("monday morning", day("2026-07-20", "06:00", "12:00")),
    ("Sunday afternoon", day("2026-07-19", "12:00", "18:00")),
    ("July 19", day("2026-07-19")),
    ("july 19, 2025", day("2025-07-19")),
    ("19 July", day("2026-07-19")),
    ("March 3rd", day("2026-03-03")),
    ("December 24", day("2025-12-24")),
    # Japanese
    ("今日", day("2026-07-22")),
    ("昨日", day("2026-07-21")),
    ("一昨日", day("2026-07-20")),
    ("昨夜", ("2026-07-21 18:00", "2026-07-22 06:00")),
    ("今朝", day("2026-07-22", "06:00", "12:00")),
    ("今夜", day("2026-07-22", "18:00")),
    ("先週", ("2026-07-13 00:00", "2026-07-20 00:00")),
    ("今週", ("2026-07-20 00:00", NOW_TEXT)),
    ("先月", ("2026-06-01 00:00", "2026-07-01 00:00")),
    ("3日前", day("2026-07-19")),
    ("2時間前", ("2026-07-22 12:00", "2026-07-22 14:00")),
    ("2週間前", ("2026-07-06 00:00", "2026-07-13 00:00")),
    ("火曜日", day("2026-07-21")),
    ("先週の火曜日", day("2026-07-14")),
    ("先週の金曜日の夜", day("2026-07-17", "18:00")),
    ("昨日の夜", day("2026-07-21", "18:00")),
    ("7月19日", day("2026-07-19")),
    ("2025年7月19日", day("2025-07-19")),
]


def test_the_table_has_at_least_80_phrases() -> None:
    assert len(PHRASES) >= 80


@pytest.mark.parametrize(("phrase", "expected"), PHRASES, ids=[p for p, _ in PHRASES])
def test_a_time_phrase_becomes_its_range_and_leaves_the_other_words(phrase: str, expected: tuple[str, str]) -> None:
    parsed = parse_time(f"{phrase} budget", NOW, ZONE)
    assert parsed.range is not None
    assert shown(parsed.range) == expected
    assert parsed.words == ["budget"]


@pytest.mark.parametrize(
    "sentence",
    [
        "may I ask about the budget",
        "march forward with the plan",
        "we discussed the budget",
        "version 2.5 release notes",
        "the 2 of us",
        "mei is een mooie maand",
        "de week van de bouw",
    ],
)
def test_words_that_only_look_like_dates_are_not_dates(sentence: str) -> None:
    parsed = parse_time(sentence, NOW, ZONE)
    assert parsed.range is None
    assert parsed.words == sentence.split()


def test_the_phrase_may_stand_anywhere_in_the_query() -> None:
    parsed = parse_time("budget van gisteravond voor de tuin", NOW, ZONE)
    assert parsed.range is not None
    assert parsed.range.start == datetime(2026, 7, 21, 18, 0, tzinfo=ZONE)
    assert parsed.words == ["budget", "van", "voor", "de", "tuin"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("sinds gisteren budget", ("2026-07-21 00:00", NOW_TEXT)),
        ("budget since Monday", ("2026-07-20 00:00", NOW_TEXT)),
        ("vanaf 1 juli budget", ("2026-07-01 00:00", NOW_TEXT)),
        ("afgelopen 3 dagen budget", ("2026-07-19 15:00", NOW_TEXT)),
        ("the last two weeks budget", ("2026-07-08 15:00", NOW_TEXT)),
        ("past 5 hours budget", ("2026-07-22 10:00", NOW_TEXT)),
        ("de laatste 3 maanden budget", ("2026-04-22 15:00", NOW_TEXT)),
        ("afgelopen 1 dag budget", ("2026-07-21 15:00", NOW_TEXT)),
        ("the past hour budget", ("2026-07-22 14:00", NOW_TEXT)),
        ("afgelopen 2 jaar budget", ("2024-07-22 15:00", NOW_TEXT)),
        ("since the last 3 days budget", ("2026-07-19 15:00", NOW_TEXT)),
        ("sinds 1 december 2030 budget", (NOW_TEXT, NOW_TEXT)),  # a start still to come: an empty range, never reversed
    ],
)
def test_since_a_moment_and_the_last_stretch_run_until_now(query: str, expected: tuple[str, str]) -> None:
    """`sinds gisteren` was yesterday alone, with `sinds` searched as a word; `afgelopen 3 dagen` was no time at all
    (outside tester 62)."""
    parsed = parse_time(query, NOW, ZONE)
    assert parsed.range is not None, query
    assert shown(parsed.range) == expected
    assert search_words(parsed.words) == ["budget"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("van maandag tot woensdag budget", ("2026-07-20 00:00", "2026-07-23 00:00")),
        ("budget tussen 1 juli en 3 juli", ("2026-07-01 00:00", "2026-07-04 00:00")),
        ("maandag t/m dinsdag budget", ("2026-07-20 00:00", "2026-07-22 00:00")),
        ("from 2026-07-01 until 2026-07-05 budget", ("2026-07-01 00:00", "2026-07-06 00:00")),
        ("between Monday and yesterday budget", ("2026-07-20 00:00", "2026-07-22 00:00")),
        ("3 juli - 5 juli budget", ("2026-07-03 00:00", "2026-07-06 00:00")),
        ("vanaf gisteren tot vandaag budget", ("2026-07-21 00:00", "2026-07-23 00:00")),  # not `sinds` alone
        ("van dinsdag tot maandag budget", ("2026-07-20 00:00", "2026-07-22 00:00")),  # either order, never reversed
        ("gisteren tussen 18:00 en 20:00 budget", ("2026-07-21 18:00", "2026-07-21 20:00")),
        ("budget van 9:00 tot 11:30 op 20 juli", ("2026-07-20 09:00", "2026-07-20 11:30")),
        ("tussen 10:00 en 12:00 budget", ("2026-07-22 10:00", "2026-07-22 12:00")),  # the latest that has begun
        ("tussen 16:00 en 18:00 budget", ("2026-07-21 16:00", "2026-07-21 18:00")),  # today's has not begun yet
        ("budget 22:00-02:00", ("2026-07-21 22:00", "2026-07-22 02:00")),  # past midnight
        ("vannacht tussen 1:00 en 4:00 budget", ("2026-07-22 01:00", "2026-07-22 04:00")),  # the night's morning
        ("van maandag tot nu budget", ("2026-07-20 00:00", NOW_TEXT)),
        ("vorige week tussen 18:00 en 20:00 budget", ("2026-07-13 00:00", "2026-07-20 00:00")),  # the week kept
        ("between 7/1 and 7/3 budget", ("2026-07-01 00:00", "2026-07-04 00:00")),  # English by its joining words
    ],
)
def test_two_ends_make_one_range_from_the_first_to_the_second(query: str, expected: tuple[str, str]) -> None:
    """`tussen 18:00 en 20:00` was the hour around 18:00 with `en 20:00` searched as words, and `van maandag tot
    woensdag` was Monday alone (outside tester 62)."""
    parsed = parse_time(query, NOW, ZONE)
    assert parsed.range is not None, query
    assert shown(parsed.range) == expected
    assert search_words(parsed.words) == ["budget"]


@pytest.mark.parametrize(
    ("query", "expected", "words"),
    [
        ("maandag en vrijdag budget", day("2026-07-20"), ["en", "vrijdag", "budget"]),  # two days, not the week between
        ("budget en offerte gisteren", day("2026-07-21"), ["budget", "en", "offerte"]),
        ("talk to paco yesterday", day("2026-07-21"), ["talk", "to", "paco"]),
    ],
)
def test_a_joining_word_without_a_phrase_on_both_sides_is_a_word(
    query: str, expected: tuple[str, str], words: list[str]
) -> None:
    parsed = parse_time(query, NOW, ZONE)
    assert parsed.range is not None
    assert (shown(parsed.range), parsed.words) == (expected, words)


def test_a_date_that_does_not_exist_is_not_a_date() -> None:
    assert parse_time("31 februari budget", NOW, ZONE).range is None


@pytest.mark.parametrize("query", ["99999999 dagen geleden", "afgelopen 99999999 dagen", "the last 99999 months"])
def test_a_count_past_the_calendar_is_no_date_not_a_crash(query: str) -> None:
    """It ended `taak recall` with an internal error (OverflowError: date value out of range)."""
    assert parse_time(f"{query} budget", NOW, ZONE).range is None


# Issue 15's categories, each in Dutch, English and Japanese. "Now" is Wednesday 22 July 2026, 15:00.
CATEGORIES: dict[str, dict[str, list[tuple[str, tuple[str, str]]]]] = {
    "weekend": {
        "nl": [
            ("afgelopen weekend", ("2026-07-18 00:00", "2026-07-20 00:00")),
            ("vorig weekend", ("2026-07-18 00:00", "2026-07-20 00:00")),
        ],
        "en": [("last weekend", ("2026-07-18 00:00", "2026-07-20 00:00"))],
        "ja": [("先週末", ("2026-07-18 00:00", "2026-07-20 00:00"))],
    },
    "number words": {
        "nl": [
            ("twee weken geleden", ("2026-07-06 00:00", "2026-07-13 00:00")),
            ("drie dagen geleden", day("2026-07-19")),
        ],
        "en": [("three days ago", day("2026-07-19")), ("two weeks ago", ("2026-07-06 00:00", "2026-07-13 00:00"))],
        "ja": [("二週間前", ("2026-07-06 00:00", "2026-07-13 00:00")), ("三日前", day("2026-07-19"))],
    },
    "vague counts": {
        "nl": [
            ("een paar dagen geleden", ("2026-07-18 00:00", "2026-07-21 00:00")),
            ("onlangs", ("2026-07-15 00:00", "2026-07-22 00:00")),
        ],
        "en": [
            ("a couple of days ago", ("2026-07-18 00:00", "2026-07-21 00:00")),
            ("the other day", ("2026-07-15 00:00", "2026-07-22 00:00")),
            ("a few weeks ago", ("2026-06-29 00:00", "2026-07-13 00:00")),
        ],
        "ja": [
            ("数日前", ("2026-07-18 00:00", "2026-07-21 00:00")),
            ("先日", ("2026-07-15 00:00", "2026-07-22 00:00")),
        ],
    },
    "weeks back": {
        "nl": [
            ("3 weken terug", ("2026-06-29 00:00", "2026-07-06 00:00")),
            ("twee weken terug", ("2026-07-06 00:00", "2026-07-13 00:00")),
            ("eervorige week", ("2026-07-06 00:00", "2026-07-13 00:00")),
        ],
        "en": [("the week before last", ("2026-07-06 00:00", "2026-07-13 00:00"))],
        "ja": [("先々週", ("2026-07-06 00:00", "2026-07-13 00:00"))],
    },
    "a month alone": {
        "nl": [("in september", ("2025-09-01 00:00", "2025-10-01 00:00")), ("in juli", ("2026-07-01 00:00", NOW_TEXT))],
        "en": [
            ("in October", ("2025-10-01 00:00", "2025-11-01 00:00")),
            ("in March", ("2026-03-01 00:00", "2026-04-01 00:00")),
        ],
        "ja": [("10月", ("2025-10-01 00:00", "2025-11-01 00:00"))],
    },
    "part of a month": {
        "nl": [
            ("begin november", ("2025-11-01 00:00", "2025-11-11 00:00")),
            ("half november", ("2025-11-11 00:00", "2025-11-21 00:00")),
            ("eind november", ("2025-11-21 00:00", "2025-12-01 00:00")),
        ],
        "en": [
            ("early October", ("2025-10-01 00:00", "2025-10-11 00:00")),
            ("mid-October", ("2025-10-11 00:00", "2025-10-21 00:00")),
            ("end of October", ("2025-10-21 00:00", "2025-11-01 00:00")),
            ("the end of june", ("2026-06-21 00:00", "2026-07-01 00:00")),
        ],
        "ja": [
            ("11月の初め", ("2025-11-01 00:00", "2025-11-11 00:00")),
            ("6月下旬", ("2026-06-21 00:00", "2026-07-01 00:00")),
        ],
    },
    "numeric dates": {
        "nl": [
            ("27/11", day("2025-11-27")),
            ("27-11", day("2025-11-27")),
            ("5/7", day("2026-07-05")),
            ("5-7-2026", day("2026-07-05")),
        ],
        "en": [("what about 11/27", day("2025-11-27")), ("on 7/5", day("2026-07-05"))],
        "ja": [("7/5の", day("2026-07-05"))],
    },
    "clock times": {
        "nl": [
            ("gisteren om 15:00", ("2026-07-21 14:00", "2026-07-21 16:00")),
            ("rond drie uur", ("2026-07-22 14:00", "2026-07-22 16:00")),
            ("maandag om 9 uur", ("2026-07-20 08:00", "2026-07-20 10:00")),
        ],
        "en": [
            ("yesterday at 3pm", ("2026-07-21 14:00", "2026-07-21 16:00")),
            ("around noon", ("2026-07-22 11:00", "2026-07-22 13:00")),
            ("yesterday around 9:30", ("2026-07-21 08:30", "2026-07-21 10:30")),
        ],
        "ja": [
            ("昨日の午後3時", ("2026-07-21 14:00", "2026-07-21 16:00")),
            ("昨日の正午", ("2026-07-21 11:00", "2026-07-21 13:00")),
        ],
    },
    "a day with a part of it": {
        "nl": [
            ("eergisteren ochtend", day("2026-07-20", "06:00", "12:00")),
            ("3 dagen geleden in de avond", day("2026-07-19", "18:00")),
        ],
        "en": [("two days ago in the morning", day("2026-07-20", "06:00", "12:00"))],
        "ja": [("3日前の夜", day("2026-07-19", "18:00")), ("一昨日の朝", day("2026-07-20", "06:00", "12:00"))],
    },
    "colloquial": {
        "nl": [
            ("gister", day("2026-07-21")),
            ("gisterenavond", day("2026-07-21", "18:00")),
            ("afgelopen nacht", ("2026-07-21 18:00", "2026-07-22 06:00")),
            ("eergisteravond", day("2026-07-20", "18:00")),
        ],
        "en": [("last night", ("2026-07-21 18:00", "2026-07-22 06:00"))],
        "ja": [("ゆうべ", ("2026-07-21 18:00", "2026-07-22 06:00"))],
    },
}
CATEGORIES.update(
    {
        # Found by a tester from outside (issue 15): a month with its year, years, the end of last month,
        # nights that run into the next morning, a clock with its part of the day, counts above twelve, and
        # "this weekend" on a weekday (recall looks back: the weekend just past).
        "a month with its year": {
            "nl": [
                ("in maart 2025", ("2025-03-01 00:00", "2025-04-01 00:00")),
                ("maart 2025", ("2025-03-01 00:00", "2025-04-01 00:00")),
            ],
            "en": [("in October 2024", ("2024-10-01 00:00", "2024-11-01 00:00"))],
            "ja": [("2025年3月", ("2025-03-01 00:00", "2025-04-01 00:00"))],
        },
        "years": {
            "nl": [
                ("vorig jaar", ("2025-01-01 00:00", "2026-01-01 00:00")),
                ("in 2024", ("2024-01-01 00:00", "2025-01-01 00:00")),
            ],
            "en": [
                ("last year", ("2025-01-01 00:00", "2026-01-01 00:00")),
                ("this year", ("2026-01-01 00:00", NOW_TEXT)),
            ],
            "ja": [
                ("去年", ("2025-01-01 00:00", "2026-01-01 00:00")),
                ("2024年", ("2024-01-01 00:00", "2025-01-01 00:00")),
            ],
        },
        "the end of last month": {
            "nl": [("eind vorige maand", ("2026-06-21 00:00", "2026-07-01 00:00"))],
            "en": [("end of last month", ("2026-06-21 00:00", "2026-07-01 00:00"))],
            "ja": [("先月末", ("2026-06-21 00:00", "2026-07-01 00:00"))],
        },
        "a night": {
            "nl": [("zaterdagnacht", ("2026-07-18 18:00", "2026-07-19 06:00"))],
            "en": [("saturday night", ("2026-07-18 18:00", "2026-07-19 06:00"))],
            "ja": [("土曜日の夜", day("2026-07-18", "18:00"))],  # 夜 is the evening, as 今夜 is
        },
        "a clock with its part of the day": {
            "nl": [
                ("rond 3 uur 's nachts", ("2026-07-22 02:00", "2026-07-22 04:00")),
                ("gisteren om 8 uur 's avonds", ("2026-07-21 19:00", "2026-07-21 21:00")),
                ("gisteren 's avonds", day("2026-07-21", "18:00")),
            ],
            "en": [("at 3 o'clock at night", ("2026-07-22 02:00", "2026-07-22 04:00"))],
            "ja": [("昨日の午前3時", ("2026-07-21 02:00", "2026-07-21 04:00"))],
        },
        "counts above twelve": {
            "nl": [("twintig dagen geleden", day("2026-07-02")), ("drieëntwintig dagen geleden", day("2026-06-29"))],
            "en": [("fifteen days ago", day("2026-07-07")), ("twenty-one days ago", day("2026-07-01"))],
            "ja": [("二十日前", day("2026-07-02")), ("十五日前", day("2026-07-07"))],
        },
        "more clock times": {
            "nl": [
                ("gisteren om half tien", ("2026-07-21 08:30", "2026-07-21 10:30")),  # Dutch half: 9:30
                ("gisteren om kwart over drie", ("2026-07-21 14:15", "2026-07-21 16:15")),
                ("gisteren om 17u", ("2026-07-21 16:00", "2026-07-21 18:00")),
            ],
            "en": [
                ("yesterday at half past three", ("2026-07-21 14:30", "2026-07-21 16:30")),
                ("yesterday around 3", ("2026-07-21 14:00", "2026-07-21 16:00")),
            ],
            "ja": [("昨日の3時半", ("2026-07-21 14:30", "2026-07-21 16:30"))],
        },
        "more vague counts": {
            "nl": [
                ("een dag of drie geleden", ("2026-07-18 00:00", "2026-07-21 00:00")),
                ("laatst", ("2026-07-15 00:00", "2026-07-22 00:00")),
                ("een paar uur geleden", ("2026-07-22 10:00", "2026-07-22 14:00")),
            ],
            "en": [
                ("recently", ("2026-07-15 00:00", "2026-07-22 00:00")),
                ("a couple of hours ago", ("2026-07-22 10:00", "2026-07-22 14:00")),
            ],
            "ja": [
                ("この前", ("2026-07-15 00:00", "2026-07-22 00:00")),
                ("数時間前", ("2026-07-22 10:00", "2026-07-22 14:00")),
            ],
        },
        "more dates": {
            "nl": [
                ("24.11", day("2025-11-24")),
                ("3.7.2026", day("2026-07-03")),
                ("halverwege oktober", ("2025-10-11 00:00", "2025-10-21 00:00")),
                ("in de nacht van zaterdag op zondag", ("2026-07-18 18:00", "2026-07-19 06:00")),
            ],
            "en": [
                ("on the 3rd", day("2026-07-03")),
                ("the weekend before last", ("2026-07-11 00:00", "2026-07-13 00:00")),
            ],
            "ja": [("先々週の週末", ("2026-07-11 00:00", "2026-07-13 00:00"))],
        },
        "a future year, a spoken clock at night": {
            "nl": [
                ("in 2027", ("2027-01-01 00:00", "2028-01-01 00:00")),
                ("kwart over drie 's nachts", ("2026-07-22 02:15", "2026-07-22 04:15")),
                ("om half vier 's nachts", ("2026-07-22 02:30", "2026-07-22 04:30")),
            ],
            "en": [("quarter past two at night", ("2026-07-22 01:15", "2026-07-22 03:15"))],
            "ja": [("2027年", ("2027-01-01 00:00", "2028-01-01 00:00"))],
        },
        "this weekend on a weekday": {
            "nl": [("dit weekend", ("2026-07-18 00:00", "2026-07-20 00:00"))],
            "en": [("this weekend", ("2026-07-18 00:00", "2026-07-20 00:00"))],
            "ja": [("今週末", ("2026-07-18 00:00", "2026-07-20 00:00"))],
        },
    }
)
CASES = [
    pytest.param(phrase, expected, id=f"{category}-{language}-{phrase}")
    for category, languages in CATEGORIES.items()
    for language, phrases in languages.items()
    for phrase, expected in phrases
]


def test_a_decimal_is_no_date() -> None:
    assert parse_time("het budget is 3.5 liter", NOW, ZONE).range is None
    assert parse_time("kost 2.50 euro", NOW, ZONE).range is None


def test_every_category_has_all_three_languages() -> None:
    assert all(set(languages) == {"nl", "en", "ja"} for languages in CATEGORIES.values())


@pytest.mark.parametrize(("phrase", "expected"), CASES)
def test_each_category_of_phrase_in_each_language(phrase: str, expected: tuple[str, str]) -> None:
    language = (
        "en" if phrase.isascii() and any(w in phrase for w in ("ago", "the", "at", "what", "on ", "in ")) else "nl"
    )
    parsed = parse_time(f"{phrase} budget", NOW, ZONE, language)
    assert parsed.range is not None, phrase
    assert shown(parsed.range) == expected
    assert search_words(parsed.words) == ["budget"]


@pytest.mark.parametrize(
    ("query", "searched"),
    [
        ("wat zei paco in september over het budget", ["paco", "budget"]),
        ("what did paco say about the budget in October", ["paco", "budget"]),
        ("de een het in over a the", []),
    ],
)
def test_small_words_are_never_searched(query: str, searched: list[str]) -> None:
    assert search_words(parse_time(query, NOW, ZONE).words) == searched


def test_a_numeric_date_is_read_in_the_querys_own_order() -> None:
    dutch = parse_time("wat zei paco op 5/7", NOW, ZONE, "en")
    english = parse_time("what did paco say on 5/7", NOW, ZONE, "nl")
    assert dutch.range is not None
    assert english.range is not None
    assert dutch.range.start == datetime(2026, 7, 5, tzinfo=ZONE)
    assert english.range.start == datetime(2026, 5, 7, tzinfo=ZONE)


@pytest.mark.parametrize("sentence", ["versie 1.2 release", "het 3e kwartaal", "chapter 10 about march forward"])
def test_numbers_that_are_no_dates_or_times_stay_words(sentence: str) -> None:
    # (A fraction such as 3/4 does read as a date: 3 April in Dutch. The README's numeric-dates row says so.)
    parsed = parse_time(sentence, NOW, ZONE)
    assert parsed.range is None
    assert parsed.words == sentence.split()


def _needs(items: Any) -> tuple[str, ...] | None:
    """Strings one of which every match of a parsed pattern holds (lowercased), or None when there are none."""
    from re import _constants as c

    best: tuple[str, ...] | None = None

    def better(found: tuple[str, ...] | None) -> None:
        nonlocal best
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found

    run = ""
    for op, av in [*items, (None, None)]:
        if op is c.LITERAL:
            run += chr(av).lower()
            continue
        better((run,) if run else None)
        run = ""
        if op is c.IN:
            chars: set[str] = set()
            for kind, value in av:
                if kind is c.LITERAL:
                    chars.add(chr(value).lower())
                elif kind is c.CATEGORY and value is c.CATEGORY_DIGIT:
                    chars.update("0123456789")
                else:
                    break
            else:
                better(tuple(sorted(chars)))
        elif op is c.SUBPATTERN:
            better(_needs(av[-1]))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            better(_needs(av[2]))
        elif op is c.BRANCH:
            each = [_needs(branch) for branch in av[1]]
            if all(each):
                better(tuple(sorted({n for found in each if found for n in found})))
    return best


def derived_needs() -> tuple[list[tuple[str, ...] | None], list[tuple[str, ...] | None]]:
    from re import _parser

    from worker.core import timephrase

    rules = [_needs(_parser.parse(pattern, re.IGNORECASE)) for pattern, _ in timephrase.RULES]
    clocks = [_needs(_parser.parse(pattern, flags)) for pattern, flags in timephrase._CLOCK_PATTERNS]
    return rules, clocks


def test_the_strings_a_time_pattern_needs_are_derived_from_the_patterns() -> None:
    """A query of ASCII letters is tried only against the patterns whose needed strings it holds
    (worker/core/timephrase_needs.py); after a change to the patterns: `python -m tests.unit.test_timephrase`."""
    from worker.core.timephrase_needs import CLOCK_NEEDS, RULE_NEEDS

    assert derived_needs() == (list(RULE_NEEDS), list(CLOCK_NEEDS))


if __name__ == "__main__":  # writes worker/core/timephrase_needs.py anew
    import pprint
    import textwrap
    from pathlib import Path

    def listed(name: str, needs: list[tuple[str, ...] | None]) -> str:
        """`NAME: Needs = (` and the values at the project's line width, one indent in."""
        inside = pprint.pformat(tuple(needs), width=92, compact=True)[1:-1].replace("\n ", "\n")
        return f"{name}: Needs = (\n{textwrap.indent(inside, '    ')},\n)\n"

    rules, clocks = derived_needs()
    Path("worker/core/timephrase_needs.py").write_text(
        '"""Written by `python -m tests.unit.test_timephrase`: per pattern of worker/core/timephrase.py (RULES,\n'
        'then the clock patterns), strings one of which every match holds, lowercased; None: none."""\n\n'
        "# fmt: off\n"
        "Needs = tuple[tuple[str, ...] | None, ...]\n"
        f"{listed('RULE_NEEDS', rules)}{listed('CLOCK_NEEDS', clocks)}",
        encoding="utf-8",
    )
