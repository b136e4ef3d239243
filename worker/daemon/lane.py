"""The idle daemon's one connection: the claim and the duties' statements take turns on it.

asyncpg's pool hands out the connection released last (a LIFO queue) and closes one left unused for a while. A
connection stays open only because two statements ran at the same moment: the duties all start together and their
timers (5, 10, 30 s) keep meeting, so an idle daemon kept two or three pooled connections beside its listener. In
the lane they run one after another, on the pool's newest connection, and the others close. A session's own
statements (its lease checks, what it says through the gate, its ending) stay out of the lane: a burst opens
connections and they close again once it is over. Nothing waits in the lane for anything but the database: a
channel's send, and the record that it was sent, leave it (`leave`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio

T = TypeVar("T")


class Lane:
    def __init__(self) -> None:
        self._lock = anyio.Lock()
        self._holder: int | None = None  # the task in the lane

    def __call__(self, operation: Callable[[], Awaitable[T]]) -> Callable[[], Awaitable[T]]:
        """The operation, run in the lane (each try of a retried one takes its turn again)."""

        async def in_lane() -> T:
            await self._lock.acquire()
            self._holder = anyio.get_current_task().id
            try:
                return await operation()
            finally:
                self.leave()  # not again when it left the lane

        return in_lane

    def leave(self) -> None:
        """The rest of the operation runs outside the lane: it waits on something other than the database (a
        message sent to a channel), and what it then records must not wait for the lane again (a kill in that
        wait would send the message twice). Outside the lane it is nothing."""
        if self._holder == anyio.get_current_task().id:
            self._holder = None
            self._lock.release()
