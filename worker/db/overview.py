"""The fleet at a glance, as `taak overzicht` and the cockpit show it: the views of sql/functions/5*-6*."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg

from worker.core.daily import OldQueue
from worker.core.phrases import phrase
from worker.db.sqlfiles import Executor, queries
from worker.settings import Settings


async def per_bot(db: Executor) -> list[asyncpg.Record]:
    """Per bot: what is held, waiting, waiting for the owner, done and failed today, sessions, cost, heartbeat."""
    return list(await db.fetch(queries()["overzicht"]))


async def held_tasks(db: Executor) -> list[asyncpg.Record]:
    """The tasks held now, with their lease left, the one to end first first."""
    return list(await db.fetch(queries()["overzicht_bezig"]))


async def late_per_bot(db: Executor) -> dict[str, int]:
    """Per bot: open tasks past their due date."""
    return {r["bot"]: int(r["over_tijd"]) for r in await db.fetch(queries()["over_tijd"])}


@dataclass(frozen=True)
class PerDay:
    """The rows of `taak overzicht --per-dag`, and what of the old queue could not be read."""

    rows: list[asyncpg.Record]
    old_queue: OldQueue


async def per_day(db: Executor, days: int, settings: Settings) -> PerDay:
    """Per day of the last `days`, in the run's TAAK_TIMEZONE (as `taak toon` writes times and the cockpit's other
    pictures count days, so that the command and the cockpit show one day table): the fleet's row (bot None) and
    each bot's, with the old queue's messages on the days before a bot's switch-on, read through the intake's column
    names (TAAK_INTAKE_*)."""
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as conn:
            return await per_day(conn, days, settings)
    state = await db.fetchrow(queries()["oude_wachtrij_staat"])
    assert state is not None  # one row, always
    columns = set(state["kolommen"])
    time, recipient = settings.intake_time_column, settings.intake_recipient_column
    status = settings.intake_status_column if settings.intake_status_column in columns else ""
    found = OldQueue()
    if not state["bestaat"]:
        found = OldQueue(unread=phrase("intake_no_table"))
    elif not state["mag_lezen"]:
        found = OldQueue(unread=phrase("per_day.old_queue_no_right"))
    elif missing := [name for name in (time, recipient) if name not in columns]:
        found = OldQueue(unread=phrase("intake_missing_columns", columns=", ".join(missing)))
    elif settings.intake_status_column and not status:  # switched off ("") is no news; misspelled is
        found = OldQueue(share_unknown=phrase("intake_missing_columns", columns=settings.intake_status_column))
    statuses = [s.strip().lower() for s in settings.intake_open_status]
    async with db.transaction():
        await db.execute(queries()["overzicht_per_dag_zonder_jit"])
        rows = await db.fetch(
            queries()["overzicht_per_dag"], days, time, recipient, status, statuses, settings.timezone, found.read
        )
    return PerDay(list(rows), found)
