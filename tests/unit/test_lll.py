""" "Where are we now": opened and closed topics rendered in a few lines."""

from __future__ import annotations

import os
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.helpers import run_taak
from worker.memory.lll import Event, append, load, open_topics, render

ZONE = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 11, 29, 20, 0, tzinfo=ZONE)


def test_open_topics_oldest_first_and_closed_ones_of_the_last_day() -> None:
    events = [
        Event(NOW - timedelta(days=3), "open", "Verbouwing veranda"),
        Event(NOW - timedelta(hours=5), "open", "Budget 2027"),
        Event(NOW - timedelta(hours=4), "open", "Foto's zomer"),
        Event(NOW - timedelta(hours=1), "klaar", "foto's ZOMER"),
        Event(NOW - timedelta(days=2), "open", "oud"),
        Event(NOW - timedelta(days=2) + timedelta(hours=1), "klaar", "oud"),
    ]
    assert render(events, NOW, ZONE) == (
        "Waar we nu zijn (bijgehouden door de eigenaar):\n"
        "- Verbouwing veranda (sinds 26 nov 20:00)\n"
        "- Budget 2027 (sinds 29 nov 15:00)\n"
        "- afgerond: foto's ZOMER (29 nov 19:00)"
    )


def test_nothing_open_and_nothing_closed_renders_nothing() -> None:
    assert render([], NOW, ZONE) == ""


def test_a_topic_can_be_opened_again_after_closing() -> None:
    events = [Event(NOW, "open", "a"), Event(NOW, "klaar", "a"), Event(NOW, "open", "A")]
    assert list(open_topics(events)) == ["a"]


def test_the_rendering_stays_small_whatever_the_file_holds(tmp_path: Path) -> None:
    path = tmp_path / "lll.jsonl"
    for n in range(500):
        append(path, "open", f"onderwerp {n} " + "x" * 200, NOW)
    text = render(load(path), NOW, ZONE)
    assert len(text) <= 1500
    assert "onderwerp 499" in text or text.endswith("…")


def test_a_line_whose_time_has_no_zone_is_skipped_and_the_others_still_count(tmp_path: Path) -> None:
    path = tmp_path / "lll.jsonl"
    path.write_text(
        '{"ts": "2026-12-02T01:00:00", "soort": "open", "onderwerp": "zonder zone"}\n'
        '{"ts": "2026-12-02T01:00:00+00:00", "soort": "open", "onderwerp": "budget"}\n'
    )
    assert [e.onderwerp for e in load(path)] == ["budget"]


def owner_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "CLAUDECODE"}
    return {**env, "TAAK_DATA_DIR": str(tmp_path / "data"), "TAAK_LANGUAGE": "nl"}


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["klaar"], "taak: gebruik: taak lll klaar ONDERWERP\n"),
        (["toon", "extra"], "taak: gebruik: taak lll toon (onverwacht: extra)\n"),
    ],
)
def test_a_sub_word_without_its_topic_or_with_words_after_it_is_a_usage_error(
    tmp_path: Path, words: list[str], said: str
) -> None:
    refused = run_taak(owner_env(tmp_path), "lll", *words)
    assert (refused.code, refused.out, refused.err) == (2, "", said)
    assert not (tmp_path / "data" / "lll.jsonl").exists()  # no topic named "klaar" or "toon extra"


def test_a_topic_given_again_in_other_capitals_is_said_to_be_open_already(tmp_path: Path) -> None:
    env = owner_env(tmp_path)
    assert run_taak(env, "lll", "Budget 2027").out == "open: Budget 2027\n"
    again = run_taak(env, "lll", "budget 2027")
    assert (again.code, again.out) == (0, "al open: Budget 2027\n")
    assert [e.soort for e in load(tmp_path / "data" / "lll.jsonl")] == ["open"]  # nothing written twice
    assert run_taak(env, "lll", "toon", "de", "foto's").code == 2
    assert run_taak(env, "lll", "toon de foto's").out == "open: toon de foto's\n"  # quoted, one word: a topic


def test_a_topic_after_a_line_cut_short_starts_on_its_own_line_and_is_shown(tmp_path: Path) -> None:
    """A write that died half-way leaves a line without its end: the next topic was glued to it and lost."""
    env = owner_env(tmp_path)
    assert run_taak(env, "lll", "eerste").code == 0
    path = tmp_path / "data" / "lll.jsonl"
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"ts": "2026-12-03T10:00:00+00:00", "soort": "open", "onderw')
    assert run_taak(env, "lll", "na de afgebroken regel").code == 0
    shown = run_taak(env, "lll", "toon")
    assert "- na de afgebroken regel (sinds" in shown.out
    assert "- eerste (sinds" in shown.out


def test_a_topic_closed_in_other_capitals_is_closed_as_it_was_opened(tmp_path: Path) -> None:
    env = owner_env(tmp_path)
    run_taak(env, "lll", "Budget 2027")
    closed = run_taak(env, "lll", "klaar", "BUDGET 2027")
    assert closed.out == "klaar: Budget 2027\n"
    assert "- afgerond: Budget 2027 (" in run_taak(env, "lll", "toon").out


def test_a_list_the_owner_cannot_read_is_said_not_shown_as_empty(tmp_path: Path) -> None:
    env = owner_env(tmp_path)
    (tmp_path / "data" / "lll.jsonl").mkdir(parents=True)
    for words in (["toon"], ["nieuw onderwerp"]):
        refused = run_taak(env, "lll", *words)
        assert refused.code == 1, refused
        assert refused.out == ""
        assert refused.err == f"taak: bestand {tmp_path / 'data' / 'lll.jsonl'}: is een map\n"
