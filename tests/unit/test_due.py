"""`--uiterlijk` as typed: pure, the clock and the zone come in."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from worker.core.due import parse_due
from worker.core.errors import InvalidInput
from worker.core.table import stamp

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
MONTHS = ("jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec")


def test_a_date_alone_is_the_end_of_that_day_in_the_households_zone() -> None:
    zone = ZoneInfo("Europe/Amsterdam")
    assert parse_due("2026-12-05", NOW, zone) == datetime(2026, 12, 5, 23, 59, 59, tzinfo=zone)


@pytest.mark.parametrize("zone", ["Europe/Amsterdam", "America/New_York", "Pacific/Kiritimati"])
@pytest.mark.parametrize("typed", ["9999-12-31", "9999-12-31 23:00", "9999-01-01"])
def test_a_due_date_no_zone_can_show_is_refused_as_too_far(zone: str, typed: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_due(typed, NOW, ZoneInfo(zone))
    assert refused.value.render("en") == f"--uiterlijk {typed} is too far ahead (at most 9998-12-31)"


def test_the_latest_due_date_is_shown_in_every_zone() -> None:
    latest = parse_due("9998-12-31", NOW, ZoneInfo("America/New_York"))  # 04:59 UTC on the next day
    shown = {
        zone: stamp(latest, NOW, ZoneInfo(zone), MONTHS, always_date=True)
        for zone in ("Pacific/Kiritimati", "Pacific/Pago_Pago")
    }
    assert shown == {"Pacific/Kiritimati": "1 jan 9999 18:59", "Pacific/Pago_Pago": "31 dec 9998 17:59"}


def test_a_stored_moment_a_zone_cannot_show_is_shown_as_it_is_instead_of_failing() -> None:
    stored = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)  # what the owner's SQL can still store
    assert stamp(stored, NOW, ZoneInfo("Pacific/Kiritimati"), MONTHS, always_date=True) == "31 dec 9999 23:00"


def test_a_count_of_days_is_not_limited_by_its_digits_but_by_the_calendar() -> None:
    zone = ZoneInfo("Europe/Amsterdam")
    assert parse_due("+99999d", NOW, zone).date().isoformat() == "2300-09-16"
    for typed in ("+3000000d", "+9999999999999d", "+" + "9" * 5000 + "w"):
        with pytest.raises(InvalidInput) as refused:
            parse_due(typed, NOW, zone)
        assert refused.value.key == "due_too_far", typed


def test_a_count_of_days_is_typed_in_keyboard_digits() -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_due("+\u0663d", NOW, ZoneInfo("Europe/Amsterdam"))  # Arabic-Indic 3: no date, as --prioriteit ٣
    assert refused.value.key == "bad_due"


@pytest.mark.parametrize("language", ["nl", "en"])
def test_every_example_a_refusal_gives_is_taken(language: str) -> None:
    """An English refusal gave the Dutch `morgen` and `12u` as examples (tester N); each example in either
    language is a due date the parser takes."""
    import re

    with pytest.raises(InvalidInput) as refused:
        parse_due("zzz", NOW, ZoneInfo("Europe/Amsterdam"))
    said = refused.value.render(language)
    examples = [e.strip().strip('"') for e in re.search(r"\((?:bijvoorbeeld|for example) (.*)\)$", said)[1].split(",")]
    assert len(examples) == 6
    for example in examples:
        parse_due(example, NOW, ZoneInfo("Europe/Amsterdam"))
    assert ("morgen" in examples) == (language == "nl")
