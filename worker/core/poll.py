"""How long the claim loop waits before it looks again in poll mode, where no notice wakes it.

While the queue is empty the wait doubles from one second up to TAAK_POLL_SECONDS: a fleet of idle daemons
costs the server one claim per daemon per TAAK_POLL_SECONDS, and a task that comes still waits at most that
long. A claim that took a task starts again from one second: where one came, more may follow.
"""

from __future__ import annotations

FIRST_WAIT_SECONDS = 1.0


def next_poll_wait(previous: float, took: bool, most: float) -> float:
    """The wait after a claim, given the wait before it (0: none yet) and whether it took a task; never more than
    `most` (TAAK_POLL_SECONDS), nor less than the first wait unless `most` is less."""
    first = min(FIRST_WAIT_SECONDS, most)
    if took or previous <= 0:
        return first
    return min(max(previous * 2, first), most)
