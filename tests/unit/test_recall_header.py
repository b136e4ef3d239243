"""The recall header's count: lines shown against the lines of the range."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from worker.core.phrases import phrase
from worker.core.timephrase import TimeRange
from worker.memory.recall import Hit, Recall, render

ZONE = ZoneInfo("Europe/Amsterdam")
NOW = datetime(2026, 12, 3, 21, 0, tzinfo=UTC)
YESTERDAY = TimeRange(datetime(2026, 12, 1, 23, 0, tzinfo=UTC), datetime(2026, 12, 2, 23, 0, tzinfo=UTC))


def _hits(n: int) -> list[Hit]:
    at = int(datetime(2026, 11, 20, 12, 0, tzinfo=UTC).timestamp() * 1000)  # weeks before the range
    return [Hit(k, at + k, "paco", "assistant", "text", f"regel {k}", None, None, rank=k) for k in range(n)]


@pytest.mark.parametrize(
    ("language", "shown", "said"),
    [
        ("nl", 2, "2 regels getoond, waarvan 0 in het bereik"),
        ("en", 2, "2 lines shown, 0 of them in the range"),
        ("nl", 1, "1 regel getoond, van buiten het bereik"),
        ("en", 1, "1 line shown, from outside the range"),
    ],
)
def test_lines_from_beyond_an_empty_range_are_not_said_to_be_of_it(language: str, shown: int, said: str) -> None:
    """`2 regels getoond van 0 in het bereik` (tester L): the lines came from the fallback over all time."""
    result = Recall(NOW, YESTERDAY, phrase("recall_none"), _hits(shown), in_range=0)
    assert f"; {said}; " in render(result, ZONE, language=language).splitlines()[0]


def test_lines_of_the_range_are_counted_against_it() -> None:
    result = Recall(NOW, YESTERDAY, phrase("recall_none"), _hits(2), in_range=7)
    assert "; 2 regels getoond van 7 in het bereik; " in render(result, ZONE).splitlines()[0]
