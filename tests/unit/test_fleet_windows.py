"""Fleet recall cuts an unscoped range into windows, newest first: pure, and without gaps or overlaps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from worker.memory.fleet import windows


def test_the_windows_cover_the_range_newest_first_each_four_times_the_last() -> None:
    start, end = datetime(1970, 1, 1, tzinfo=UTC), datetime(2026, 12, 1, tzinfo=UTC)
    found = windows(start, end)
    assert found[0] == (end - timedelta(days=1), end)
    assert found[-1][0] == start
    assert all(newer[0] == older[1] for newer, older in pairwise(found))  # no gap, no overlap
    sizes = [upper - lower for lower, upper in found[:-1]]
    assert sizes == [timedelta(days=4**n) for n in range(len(sizes))]


def test_a_range_shorter_than_a_day_is_one_window() -> None:
    end = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert windows(end - timedelta(hours=6), end) == [(end - timedelta(hours=6), end)]
