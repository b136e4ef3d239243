"""What `taak doctor` and the cockpit's start ask the database about itself."""

from __future__ import annotations

from datetime import datetime

from worker.db.sqlfiles import Executor, queries


async def tables_visible(db: Executor) -> bool:
    """Whether the connection's own search_path sees taak's tables."""
    return bool(await db.fetchval(queries()["taken_zichtbaar"]))


async def clock(db: Executor) -> datetime:
    """The database's clock, beside this machine's."""
    now: datetime = await db.fetchval(queries()["database_klok"])
    return now


async def answers(db: Executor) -> None:
    """The database answers with taak's tables (the query fails when it does not)."""
    await db.fetchval(queries()["bots_leesbaar"])
