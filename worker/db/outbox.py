"""The outbox `taak_meldingen` as the daemon's sender reads and settles it (worker/daemon/outbox.py decides)."""

from __future__ import annotations

import asyncpg

from worker.db.sqlfiles import Executor, queries

RETRY_FIRST_SECONDS = 30.0  # a failed command is tried again after this, doubling up to the cap
RETRY_CAP_SECONDS = 3600.0


async def set_deliverers(db: Executor, holders: list[str], kinds: list[str]) -> None:
    await db.execute(queries()["bezorgers_zetten"], holders, kinds)


async def make_reminders(db: Executor, remind_seconds: float, decide_seconds: float) -> None:
    """Reminders of open questions, escalations past the decision deadline, and due dates passed."""
    await db.execute(queries()["herinneringen_maken"], remind_seconds)
    await db.execute(queries()["escalaties_maken"], decide_seconds)
    await db.execute(queries()["uiterlijk_meldingen_maken"])
    await db.execute(queries()["vaardigheid_meldingen_maken"])


async def take_due(db: Executor, kinds: list[str]) -> asyncpg.Record | None:
    """The oldest due message of these kinds, locked for the transaction."""
    return await db.fetchrow(queries()["melding_pakken"], kinds)


async def sent(db: Executor, message_id: int) -> None:
    await db.execute(queries()["melding_verstuurd"], message_id)


async def failed(db: Executor, message_id: int, error: str) -> None:
    await db.execute(queries()["melding_mislukt"], message_id, error, RETRY_FIRST_SECONDS, RETRY_CAP_SECONDS)


async def facts(db: Executor, task_id: str | None, question_row: int | None) -> asyncpg.Record | None:
    """Where the message's task (and question) stand now."""
    return await db.fetchrow(queries()["melding_stand"], task_id, question_row)


async def outdated(db: Executor, message_id: int, why: str) -> None:
    """Settled unsent: what it would say is no longer true."""
    await db.execute(queries()["melding_vervallen"], message_id, why)
