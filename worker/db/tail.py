"""What `taak tail` reads: the newest rows of the task log, then each row after the last one shown."""

from __future__ import annotations

import asyncpg

from worker.db.sqlfiles import Executor, queries


async def newest(db: Executor, taak: str | None, bot: str | None, limit: int) -> list[asyncpg.Record]:
    """The newest rows to start from, newest first."""
    return list(await db.fetch(queries()["tail_start"], taak, bot, limit))


async def last_id(db: Executor) -> int:
    return int(await db.fetchval(queries()["log_laatste_id"]) or 0)


async def after(db: Executor, row_id: int, taak: str | None, bot: str | None) -> list[asyncpg.Record]:
    """The rows after `row_id`, oldest first."""
    return list(await db.fetch(queries()["tail_na"], row_id, taak, bot))
