"""What the cockpit's pages read beyond the ledger and the fleet overview: the board's tasks and its pictures per
day (a task's live log reads as `taak tail` does, worker/db/tail.py)."""

from __future__ import annotations

import asyncpg

from worker.core.rows import Task
from worker.db.ledger import task_from_record
from worker.db.sqlfiles import Executor, queries

BOARD_TASKS = 200


async def board_tasks(db: Executor) -> list[Task]:
    """Every open task and those finished in the last day, the owner's to answer first."""
    return [task_from_record(r) for r in await db.fetch(queries()["cockpit_taken"], BOARD_TASKS)]


async def per_day(db: Executor, days: int, timezone: str) -> list[asyncpg.Record]:
    """Per day and bot: tasks finished, and the cost of the day's sessions."""
    return list(await db.fetch(queries()["cockpit_per_dag"], days, timezone))


async def failed_per_day(db: Executor, days: int, timezone: str) -> list[asyncpg.Record]:
    return list(await db.fetch(queries()["cockpit_mislukt_per_dag"], days, timezone))
