"""The idle daemon's one connection: the claim and the duties' statements take turns on it.

asyncpg's pool hands out the connection released last (a LIFO queue) and closes one left unused for a while. A
connection stays open only because two statements ran at the same moment: the duties all start together and their
timers (5, 10, 30 s) keep meeting, so an idle daemon kept two or three pooled connections beside its listener. In
the lane they run one after another, on the pool's newest connection, and the others close. A session's own
statements (its lease checks, what it says through the gate, its ending) stay out of the lane: a burst opens
connections and they close again once it is over. Nothing waits in the lane for anything but the database: a
channel's send steps out of it (`outside`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
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
            async with self._lock:
                self._holder = anyio.get_current_task().id
                try:
                    return await operation()
                finally:
                    self._holder = None

        return in_lane

    @asynccontextmanager
    async def outside(self) -> AsyncIterator[None]:
        """Wait on something other than the database (a message sent to a channel) without the others waiting for
        it; a caller outside the lane is not affected."""
        me = anyio.get_current_task().id
        if self._holder != me:
            yield
            return
        self._holder = None
        self._lock.release()
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):  # the lane's block releases what it took: it must hold it again
                await self._lock.acquire()
            self._holder = me
