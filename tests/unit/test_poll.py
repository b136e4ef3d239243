"""The wait between claims in poll mode: doubling while the queue is empty, back to the start after a claim."""

from __future__ import annotations

import pytest

from worker.core.poll import next_poll_wait


@pytest.mark.parametrize(
    ("previous", "took", "most", "expected"),
    [
        (0.0, False, 5.0, 1.0),  # the first wait after the start
        (1.0, False, 5.0, 2.0),  # nothing found: doubled
        (2.0, False, 5.0, 4.0),
        (4.0, False, 5.0, 5.0),  # never past TAAK_POLL_SECONDS
        (5.0, False, 5.0, 5.0),
        (5.0, True, 5.0, 1.0),  # a claim that took a task: from the start again
        (0.0, True, 5.0, 1.0),
        (16.0, False, 60.0, 32.0),
        (32.0, False, 60.0, 60.0),
        (0.0, False, 0.2, 0.2),  # TAAK_POLL_SECONDS under a second: that, always
        (0.2, False, 0.2, 0.2),
        (0.2, True, 0.2, 0.2),
        (10.0, False, 5.0, 5.0),  # TAAK_POLL_SECONDS lowered under a running wait: the new ceiling
    ],
)
def test_the_wait_doubles_while_nothing_is_found_and_starts_again_after_a_claim(
    previous: float, took: bool, most: float, expected: float
) -> None:
    assert next_poll_wait(previous, took, most) == expected
