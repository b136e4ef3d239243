"""The LISTEN connection that wakes the claim loop when a task becomes claimable."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import anyio
import asyncpg
import structlog

from worker.core.dsn import DatabaseUrl
from worker.core.errors import TaakError
from worker.core.phrases import message
from worker.daemon.retry import backoff, said_error
from worker.db.connect import CONNECTION_ERRORS, alive, connect_one
from worker.settings import Settings

log = structlog.get_logger("queue-worker")


def _set_event(event: anyio.Event, *_args: object) -> None:
    event.set()


async def listen(
    settings: Settings, database: DatabaseUrl, heard: Callable[[str], None], stopping: anyio.Event
) -> None:
    """Hand each `NOTIFY taak_nieuw` notice to `heard` (an empty one: look at once, one may have been missed) over a
    dedicated connection, restored when it drops; poll mode (said once) through the Supabase transaction pooler or
    with TAAK_LISTEN off."""
    if database.is_transaction_pooler or not settings.listen:
        reason = message("listen_pooler" if database.is_transaction_pooler else "listen_off", settings.language)
        log.warning("listen_unavailable", mode="poll", poll_seconds=settings.poll_seconds, reason=reason)
        return
    failures = 0
    while not stopping.is_set():
        try:
            conn = await connect_one(settings, database, application_name="taak-listen")
        except (TaakError, *CONNECTION_ERRORS) as exc:
            failures += 1
            if failures == 1:
                log.warning("listen_lost", error=said_error(exc, settings.language))
            await anyio.sleep(backoff(failures, 0.5, 5))
            continue
        failures = await _listen_on(conn, settings, heard, stopping, reconnected=failures > 0)


async def _listen_on(
    conn: asyncpg.Connection,
    settings: Settings,
    heard: Callable[[str], None],
    stopping: anyio.Event,
    *,
    reconnected: bool,
) -> int:
    """Listen on one connection until it is lost (returns 1: a failure, for the backoff) or the daemon stops (0)."""
    lost = anyio.Event()
    try:
        conn.add_termination_listener(partial(_set_event, lost))
        await conn.add_listener("taak_nieuw", lambda _conn, _pid, _channel, notice: heard(notice))
        log.info("listening", channel="taak_nieuw", reconnected=reconnected)
        heard("")  # after any (re)connect, look at once: a notification may have been missed
        while not lost.is_set() and not stopping.is_set():
            with anyio.move_on_after(settings.poll_seconds):
                await lost.wait()
            if not lost.is_set():
                await alive(conn, settings.connect_timeout_seconds)
        if lost.is_set():
            log.warning("listen_lost", error=message("connection_closed", settings.language))
            return 1
    except CONNECTION_ERRORS as exc:
        log.warning("listen_lost", error=said_error(exc, settings.language))
        return 1
    finally:
        with anyio.CancelScope(shield=True), anyio.move_on_after(2):
            conn.terminate() if lost.is_set() else await conn.close()
    return 0
