"""The fleet at a glance, as `taak overzicht` and the cockpit show it: the views of sql/functions/5*-6*."""

from __future__ import annotations

import asyncpg

from worker.db.sqlfiles import Executor, queries


async def per_bot(db: Executor) -> list[asyncpg.Record]:
    """Per bot: what is held, waiting, waiting for the owner, done and failed today, sessions, cost, heartbeat."""
    return list(await db.fetch(queries()["overzicht"]))


async def held_tasks(db: Executor) -> list[asyncpg.Record]:
    """The tasks held now, with their lease left, the one to end first first."""
    return list(await db.fetch(queries()["overzicht_bezig"]))


async def late_per_bot(db: Executor) -> dict[str, int]:
    """Per bot: open tasks past their due date."""
    return {r["bot"]: int(r["over_tijd"]) for r in await db.fetch(queries()["over_tijd"])}
