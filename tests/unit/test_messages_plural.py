"""Counted words agree with their number in both languages, also where a sentence goes on after the count."""

from __future__ import annotations

import pytest

from worker.core.catalogue import message


@pytest.mark.parametrize(
    ("language", "one", "many", "plural_verb"),
    [("nl", "1 regel ", "regels", " staan "), ("en", "1 line ", "lines", " are ")],
)
def test_one_line_still_in_the_journal_is_said_in_the_singular(
    language: str, one: str, many: str, plural_verb: str
) -> None:
    copy = message("briefing_from_copy", language, id="HV-20261203-001", made="10:00", age=3, waiting=1)
    assert one in copy
    assert many not in copy
    assert plural_verb not in copy  # "1 regel daarna staan", "1 line ... are": the verb agrees, or there is none


@pytest.mark.parametrize(("language", "one"), [("nl", "(1 taak getoond"), ("en", "(1 task shown")])
def test_a_list_cut_after_one_task_says_one_task(language: str, one: str) -> None:
    assert message("list_cut", language, limit=1).startswith(one)
