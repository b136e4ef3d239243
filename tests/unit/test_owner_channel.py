"""The owner's channel as decisions: urgent or digest, quiet hours, the digest's times, answers from the phone."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from worker.core.owner_channel import (
    Answer,
    NoText,
    NoTime,
    Quiet,
    Route,
    Unclear,
    digest_times,
    is_late,
    is_quiet,
    latest_slot,
    next_slot,
    over_the_limit,
    quiet_ends,
    quiet_hours,
    read_answer,
    route,
    split_for_telegram,
)

AMS = ZoneInfo("Europe/Amsterdam")


def at(text: str) -> datetime:
    """A moment in Amsterdam, `2026-12-05 08:00`."""
    return datetime.fromisoformat(text).replace(tzinfo=AMS)


@pytest.mark.parametrize(
    ("kind", "marked", "today", "quiet", "expected"),
    [
        ("mislukt", False, 0, False, Route.NOW),
        ("mislukt", False, 0, True, Route.NOW),  # a failure breaks the quiet hours
        ("rem", False, 0, False, Route.NOW),
        ("rem", False, 0, True, Route.HOLD),
        ("escalatie", False, 0, True, Route.HOLD),
        ("vraag", False, 0, False, Route.DIGEST),
        ("vraag", True, 0, False, Route.NOW),
        ("vraag", True, 2, False, Route.NOW),
        ("vraag", True, 3, False, Route.DIGEST),  # the bot's three urgent messages are used up
        ("vraag", True, 0, True, Route.HOLD),
        ("herinnering", True, 0, False, Route.DIGEST),  # only a question can be marked urgent
        ("uiterlijk", False, 0, False, Route.DIGEST),
    ],
)
def test_route(kind: str, marked: bool, today: int, quiet: bool, expected: Route) -> None:
    assert route(kind, marked_urgent=marked, urgent_today=today, urgent_limit=3, quiet=quiet) is expected


def test_without_digest_times_every_message_goes_as_it_comes() -> None:
    assert route("vraag", marked_urgent=False, urgent_today=0, urgent_limit=3, quiet=False, digest=False) is Route.NOW
    assert route("herinnering", marked_urgent=False, urgent_today=0, urgent_limit=3, quiet=True, digest=False) is (
        Route.HOLD
    )


def test_a_question_over_the_limit_is_said_to_be() -> None:
    assert over_the_limit("vraag", marked_urgent=True, urgent_today=3, urgent_limit=3)
    assert not over_the_limit("vraag", marked_urgent=True, urgent_today=2, urgent_limit=3)
    assert not over_the_limit("vraag", marked_urgent=False, urgent_today=9, urgent_limit=3)


def test_digest_times_sorted_and_distinct() -> None:
    assert digest_times("18:00, 8:00,08:00") == (time(8), time(18))
    assert digest_times("") == ()


@pytest.mark.parametrize("typed", ["25:00", "8", "08:60", "noon", "08:00;18:00", "08:00,,18:00", "08:00,"])
def test_a_time_that_does_not_parse(typed: str) -> None:
    with pytest.raises(NoTime):
        digest_times(typed)


@pytest.mark.parametrize("typed", ["22:00", "22:00-", "07:00-07:00", "22-07", "late-early"])
def test_quiet_hours_that_do_not_parse(typed: str) -> None:
    with pytest.raises(NoTime):
        quiet_hours(typed)


def test_quiet_hours_past_midnight() -> None:
    quiet = quiet_hours("22:00-07:00")
    assert quiet == Quiet(time(22), time(7))
    assert is_quiet(at("2026-12-05 23:30"), quiet, AMS)
    assert is_quiet(at("2026-12-05 06:59"), quiet, AMS)
    assert not is_quiet(at("2026-12-05 07:00"), quiet, AMS)
    assert not is_quiet(at("2026-12-05 12:00"), quiet, AMS)
    assert quiet_ends(at("2026-12-05 23:30"), quiet, AMS) == at("2026-12-06 07:00")
    assert quiet_ends(at("2026-12-06 03:00"), quiet, AMS) == at("2026-12-06 07:00")


def test_no_quiet_hours() -> None:
    assert quiet_hours(" ") is None
    assert not is_quiet(at("2026-12-05 03:00"), None, AMS)


def test_quiet_hours_within_one_day() -> None:
    quiet = quiet_hours("12:00-13:30")
    assert is_quiet(at("2026-12-05 12:15"), quiet, AMS)
    assert not is_quiet(at("2026-12-05 13:30"), quiet, AMS)


def test_the_slot_that_is_due_and_the_next() -> None:
    times = digest_times("08:00,18:00")
    assert latest_slot(at("2026-12-05 09:00"), times, AMS) == at("2026-12-05 08:00")
    assert latest_slot(at("2026-12-05 18:00"), times, AMS) == at("2026-12-05 18:00")
    assert latest_slot(at("2026-12-05 07:59"), times, AMS) == at("2026-12-04 18:00")
    assert next_slot(at("2026-12-05 09:00"), times, AMS) == at("2026-12-05 18:00")
    assert next_slot(at("2026-12-05 19:00"), times, AMS) == at("2026-12-06 08:00")
    assert latest_slot(at("2026-12-05 09:00"), (), AMS) is None


def test_slots_are_local_time_whatever_the_clock() -> None:
    utc_now = datetime(2026, 7, 1, 6, 30, tzinfo=UTC)  # 08:30 in Amsterdam in summer
    assert latest_slot(utc_now, digest_times("08:00"), AMS) == datetime(2026, 7, 1, 8, 0, tzinfo=AMS)


def test_a_digest_sent_long_after_its_time_is_late() -> None:
    assert not is_late(at("2026-12-05 08:00"), at("2026-12-05 08:01"))
    assert is_late(at("2026-12-05 08:00"), at("2026-12-05 09:30"))


WAITING = frozenset({"HV-20261205-001", "HV-20261205-002"})


def test_an_id_first_answers_that_task() -> None:
    assert read_answer("HV-20261205-002 ja, doe maar", None, WAITING) == Answer("HV-20261205-002", "ja, doe maar")
    assert read_answer("HV-20261205-001: nee", "HV-20261205-002 ...", WAITING) == Answer("HV-20261205-001", "nee")


def test_an_id_in_any_case_answers_that_task() -> None:
    assert read_answer("Hv-20261205-002 groen", None, WAITING) == Answer("HV-20261205-002", "groen")
    assert read_answer("hv-20261205-001\nja", None, WAITING) == Answer("HV-20261205-001", "ja")


def test_an_id_without_an_answer_says_so() -> None:
    assert read_answer("HV-20261205-002", None, WAITING) == NoText("HV-20261205-002")
    assert read_answer("HV-20261205-002 : ", None, WAITING) == NoText("HV-20261205-002")


def test_an_id_that_does_not_wait_is_unclear() -> None:
    assert read_answer("HV-20261205-009 ja", None, WAITING) == Unclear(("HV-20261205-009",))


def test_a_reply_to_a_message_that_names_one_waiting_task() -> None:
    question = "HV-20261205-001 (paco) vraagt: welk budget?"
    assert read_answer("200 euro", question, WAITING) == Answer("HV-20261205-001", "200 euro")


def test_a_reply_to_the_digest_naming_several_is_unclear() -> None:
    digest = "Wacht op jou:\nHV-20261205-001 ...\nHV-20261205-002 ..."
    assert read_answer("ja", digest, WAITING) == Unclear(("HV-20261205-001", "HV-20261205-002"))


def test_a_plain_message_is_unclear() -> None:
    assert read_answer("hoi", None, WAITING) == Unclear(())


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("", [""]),
        ("kort\n", ["kort"]),
        ("aaaa\nbbbb\ncc", ["aaaa\nbbbb", "cc"]),  # cut between lines, each part at most ten
        ("aaaa\nbbbbbbbbbbbbbbbbbbbbbbb\ncc", ["aaaa", "bbbbbbbbbb", "bbbbbbbbbb", "bbb\ncc"]),  # a long line cut
        ("aaaaaaaaaa\n", ["aaaaaaaaaa", "\n"]),  # its line end does not fit: a part of its own, shown as it is
    ],
)
def test_a_long_message_goes_to_telegram_in_parts(text: str, parts: list[str]) -> None:
    assert split_for_telegram(text, limit=10) == parts
