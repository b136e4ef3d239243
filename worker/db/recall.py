"""What `taak recall --taken` and `--vloot` read from the database: the task log searched in a time range."""

from __future__ import annotations

from datetime import datetime

import asyncpg

from worker.db.sqlfiles import Executor, queries


async def search(
    db: Executor, start: datetime, end: datetime, patterns: list[str], bot: str | None, taak: str | None, limit: int
) -> list[asyncpg.Record]:
    """The lines in the range, those with any of the patterns first, newest first."""
    return list(await db.fetch(queries()["log_zoeken"], start, end, patterns, bot, taak, limit))


async def counts(
    db: Executor, start: datetime, end: datetime, patterns: list[str], bot: str | None, taak: str | None, bound: int
) -> list[int]:
    """How many lines in the range hold each pattern, each counted up to `bound` ('%' counts every line)."""
    rows = await db.fetch(queries()["log_woorden"], start, end, patterns, bot, taak, bound)
    return [int(row["aantal"]) for row in rows]


async def name_known(db: Executor, name: str) -> bool:
    """Whether any line of the task log was written under this name."""
    return bool(await db.fetchval(queries()["log_naam_bekend"], name))


async def fleet_empty(db: Executor) -> bool:
    """No machine has copied a line to the shared archive."""
    return bool(await db.fetchval(queries()["vloot_leeg"]))
