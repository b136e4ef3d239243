"""A row's phrase (`zin` in its meta): kept as JSON, said again in the reader's language, and never put in
place of a text it does not say."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from worker.core.catalogue import catalogue
from worker.core.launch import failed_line
from worker.core.outcome import launch_failure
from worker.core.phrases import phrase
from worker.core.row_phrases import duration, kept_phrase, phrase_from_json, phrase_json, said_row

SQL = Path(__file__).resolve().parents[2] / "sql"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_a_phrase_survives_the_database_with_its_nested_phrases() -> None:
    failed = launch_failure(failed_line(2, "/nergens/claude"))
    assert failed is not None
    said = phrase("row_result_none_why", ended=phrase("row_not_started"), why=failed)
    stored = json.loads(json.dumps(phrase_json(said)))  # as jsonb gives it back
    again = phrase_from_json(stored)
    assert again is not None
    assert (
        again.said("nl")
        == said.said("nl")
        == "sessie-resultaat: geen resultaatregel (niet gestart, bestand /nergens/claude: bestaat niet)"
    )
    assert (
        again.said("en")
        == "session result: no result line (not started, file /nergens/claude: no such file or directory)"
    )


@pytest.mark.parametrize(("language", "said"), [("nl", "3u"), ("en", "3h")])
def test_a_duration_is_said_as_the_lists_say_it_in_each_language(language: str, said: str) -> None:
    again = phrase_from_json(json.loads(json.dumps(phrase_json(duration(3 * 3600 + 5)))))
    assert again is not None
    assert again.said(language) == said


def test_a_persons_row_is_shown_as_written_in_every_language() -> None:
    assert said_row("lamp vervangen", {}, "en") == "lamp vervangen"
    assert said_row("lamp vervangen", {"zin": "lamp vervangen"}, "en") == "lamp vervangen"  # a text, no phrase


@pytest.mark.parametrize(
    "zin",
    [
        {"sleutel": "row_of_a_later_version", "waarden": {}},  # a key this version does not know
        {"sleutel": "row_created", "waarden": {}},  # its value missing
        {"sleutel": "row_created", "waarden": {"who": {"sleutel": "nope"}}},  # a nested phrase not known
        {"sleutel": "row_created", "waarden": ["jamal"]},
        {"waarden": {"who": "jamal"}},
        ["row_created"],
    ],
)
def test_a_phrase_that_cannot_be_said_leaves_the_row_as_written(zin: object) -> None:
    assert said_row("aangemaakt door jamal", {"zin": zin}, "en") == "aangemaakt door jamal"


def test_a_phrase_that_says_another_text_than_the_row_leaves_the_row_as_written() -> None:
    zin = phrase_json(phrase("row_created", who="jamal"))
    assert said_row("aangemaakt door jamal", {"zin": zin}, "en") == "created by jamal"
    assert said_row("aangemaakt door jamal (met de hand aangepast)", {"zin": zin}, "en") == (
        "aangemaakt door jamal (met de hand aangepast)"
    )
    assert kept_phrase("aangemaakt door paco", zin) is None


def test_every_phrase_the_sql_names_is_in_the_catalogue_with_the_same_values_in_both_languages() -> None:
    named = set()
    for path in sorted(SQL.rglob("*.sql")):
        named |= set(re.findall(r"'(row_[a-z_]+)'", path.read_text()))
    assert {"row_created", "row_started", "row_expired", "row_cancelled", "row_taken_back"} <= named
    for key in sorted(named):
        assert key in catalogue(), key
        assert placeholders(catalogue()[key]["nl"]) == placeholders(catalogue()[key]["en"]), key


def test_every_row_message_has_the_same_values_in_both_languages() -> None:
    for key, texts in catalogue().items():
        if key.startswith(("row_", "stop_")) or key == "with_stderr":
            assert placeholders(texts["nl"]) == placeholders(texts["en"]), key


def test_a_cut_summary_keeps_its_words_and_says_where_the_whole_is_in_the_readers_language() -> None:
    """The summary is the session's words, in whatever language it wrote them; only the row's ending is the
    system's, and an English run read it in Dutch: `[…] (de hele samenvatting: ...)`."""
    from worker.hooks.reports import summary_for_the_log

    summary = "Het budget is 4000 euro. " * 5000
    row, said = summary_for_the_log(summary, Path("/data/samenvattingen/s.txt"))
    stored = json.loads(json.dumps(said))  # as the row's jsonb gives it back
    assert row.endswith("\n[…] (de hele samenvatting: /data/samenvattingen/s.txt)")
    assert said_row(row, stored, "nl") == row
    english = said_row(row, stored, "en")
    start = row.removesuffix("\n[…] (de hele samenvatting: /data/samenvattingen/s.txt)")
    assert english == start + "\n[…] (the whole summary: /data/samenvattingen/s.txt)"
    assert "samenvatting:" not in english


def test_a_summary_that_fits_is_its_own_words_with_no_phrase() -> None:
    from worker.hooks.reports import summary_for_the_log

    assert summary_for_the_log("kort", Path("/s.txt")) == ("kort", {})


def test_an_ending_phrase_that_does_not_end_the_row_is_not_put_in() -> None:
    from worker.core.row_phrases import ending_json

    ending = ending_json(phrase("row_summary_cut", path="/s.txt"))
    assert said_row("een tekst die zelf anders eindigt", {"zin": ending}, "en") == "een tekst die zelf anders eindigt"
    assert said_row("x", {"zin": {**ending, "waarden": {}}}, "en") == "x"  # its value is missing
