"""The fleet at a glance, as `taak overzicht` and the cockpit show it: the views of sql/functions/5*-6*."""

from __future__ import annotations

import asyncpg

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


async def per_day(db: Executor, days: int, settings: Settings, zone: str | None = None) -> list[asyncpg.Record]:
    """Per day of the last `days` (in `zone`, by default the household's as the database keeps it): the fleet's
    row (bot None) and each bot's, with the old queue's messages on the days before a bot's switch-on, read through
    the intake's column names (TAAK_INTAKE_*)."""
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as conn:
            return await per_day(conn, days, settings, zone)
    old_queue = (settings.intake_time_column, settings.intake_recipient_column, settings.intake_status_column)
    statuses = [s.strip().lower() for s in settings.intake_open_status]
    async with db.transaction():
        await db.execute(queries()["overzicht_per_dag_zonder_jit"])
        return list(await db.fetch(queries()["overzicht_per_dag"], days, *old_queue, statuses, zone))
