"""The fleet's shared copy of every machine's archive lines (`taak_archief`), as worker/memory/fleet.py copies
to it and searches it: the statements `vloot_*` of sql/queries.sql."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import asyncpg

from worker.db.sqlfiles import Connected, Executor, queries


def _deleted(status: str) -> int:
    return int(status.split()[-1]) if status.startswith("DELETE") else 0


async def write(db: Executor, machine: str, lines: Sequence[tuple[Any, ...]]) -> None:
    """New lines, each (key, ts, actor, role, type, task, session, text, terms, day file); a key copied before
    is left as it is."""
    await db.execute(queries()["vloot_schrijven"], machine, *(list(column) for column in zip(*lines, strict=True)))


async def forget_file(db: Executor, machine: str, day_file: str) -> None:
    await db.execute(queries()["vloot_bestand_vergeten"], machine, day_file)


async def forget_machine(db: Executor, machine: str) -> int:
    """Every line of the machine; returns how many went."""
    return _deleted(await db.execute(queries()["vloot_machine_vergeten"], machine))


async def drop_older(db: Executor, keep_days: int) -> int:
    """What is older than the retention window; returns how many lines went."""
    return _deleted(await db.execute(queries()["vloot_opruimen"], keep_days))


async def count_window(
    db: Executor, lower: datetime, upper: datetime, query: str, bound: int, actor: str | None, taak: str | None
) -> int:
    return int(await db.fetchval(queries()["vloot_tellen"], lower, upper, query, bound, actor, taak))


async def search_window(
    db: Executor,
    lower: datetime,
    upper: datetime,
    query: str,
    limit: int,
    actor: str | None,
    taak: str | None,
    *,
    common: bool,
) -> list[asyncpg.Record]:
    """`common`: the words are common in the window (the time index finds them at once), else rare."""
    statement = "vloot_zoeken" if common else "vloot_zoeken_weinig"
    return list(await db.fetch(queries()[statement], lower, upper, query, limit, actor, taak))


async def whole_range(
    db: Executor, start: datetime, end: datetime, actor: str | None, taak: str | None, limit: int
) -> list[asyncpg.Record]:
    return list(await db.fetch(queries()["vloot_bereik"], start, end, actor, taak, limit))


async def plan_per_value(conn: Connected) -> None:
    """For the transaction: every statement planned for its values (a generic plan cannot tell a word in every
    line from a word in none, and the two want opposite plans)."""
    await conn.execute(queries()["vloot_plan_per_waarde"])
