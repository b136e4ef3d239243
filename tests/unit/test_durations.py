"""One way to say how long, in every list, the cockpit, doctor and the ledger's result rows (issue 16: `306 s`,
`20s` and `1.1s` were three ways, and an English list said hours as `3u`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from worker.cli.doctor import _registry, clock_check
from worker.core.table import age
from worker.settings import Settings


@pytest.mark.parametrize(
    ("seconds", "language", "said"),
    [
        (None, "nl", "-"),
        (0, "en", "0s"),
        (0.005, "nl", "<0.1s"),  # a 5 ms session said `0s` (tester M)
        (0.05, "en", "<0.1s"),
        (0.1, "en", "0.1s"),
        (1.14, "nl", "1.1s"),
        (7.0, "nl", "7s"),
        (45, "en", "45s"),
        (306, "nl", "5m"),
        (3 * 3600 + 5, "nl", "3u"),
        (3 * 3600 + 5, "en", "3h"),
        (5 * 86400, "en", "5d"),
    ],
)
def test_a_duration_is_said_one_way_in_the_runs_language(seconds: float | None, language: str, said: str) -> None:
    assert age(seconds, language) == said


@pytest.mark.parametrize("seconds_old", [20, 306, 4 * 3600, 3 * 86400])
def test_doctor_says_the_registrys_age_as_the_lists_do_in_both_languages(tmp_path: Path, seconds_old: int) -> None:
    registry = tmp_path / "registry.json"
    registry.write_text("{}", encoding="utf-8")
    moment = time.time() - seconds_old
    os.utime(registry, (moment, moment))
    check = _registry(Settings(registry_file=registry, registry_seconds=300, database_url=None))
    english, dutch = check.line("en").split("  -> ")[0], check.line("nl").split("  -> ")[0]
    assert english.endswith((f"{age(seconds_old, 'en')} old", f"{age(seconds_old + 1, 'en')} old"))
    assert dutch.endswith(" oud")
    assert "old" not in dutch
    assert age(seconds_old, "nl") in dutch or age(seconds_old + 1, "nl") in dutch


@pytest.mark.parametrize("skew", [0.3, 4.0, 45.0, 600.0, 7300.0])
def test_doctors_clock_line_reads_in_dutch_whatever_the_skew(skew: float) -> None:
    dutch, english = (clock_check(skew).line(language).split("  -> ")[0] for language in ("nl", "en"))
    assert dutch.endswith(f"klok: {age(round(skew, 1), 'nl')} naast de klok van de database")
    assert english.endswith(f"clock: {age(round(skew, 1), 'en')} from the database's clock")
