"""`taak doctor` says a folder's size as a person reads it (the outside try: 50 kB of sessions said as 0.0 MB)."""

from __future__ import annotations

import pytest

from worker.cli.doctor import _size


@pytest.mark.parametrize(
    ("size", "said"),
    [
        (0, "0 kB"),
        (1, "1 kB"),
        (48_000, "48 kB"),
        (999_999, "1000 kB"),
        (1_200_000, "1.2 MB"),
        (3_400_000_000, "3.4 GB"),
    ],
)
def test_a_size_is_said_in_the_unit_that_shows_it(size: int, said: str) -> None:
    assert _size(size) == said
