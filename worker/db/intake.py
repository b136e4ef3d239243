"""The old queue table `agent_messages` as intake reads and marks it (worker/daemon/intake.py decides): its
statements take the table's configured column names, quoted, in place of their `{...}` fields."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from worker.db.sqlfiles import Executor, queries


@dataclass(frozen=True)
class Columns:
    id: str
    text: str
    sender: str
    recipient: str
    time: str
    status: str


@dataclass(frozen=True)
class Table:
    """The old table as it is: which configured columns it has."""

    exists: bool
    columns: frozenset[str] = frozenset()

    def missing(self, columns: Columns) -> list[str]:
        # The status column may be switched off (TAAK_INTAKE_STATUS_COLUMN=""), never silently missed: a
        # misspelled one would let every message the old worker handled run again.
        needed = (columns.id, columns.text, columns.sender, columns.recipient, columns.time, columns.status)
        return [name for name in needed if name and name not in self.columns]


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def statement(name: str, columns: Columns, table: Table) -> str:
    status = quoted(columns.status) + "::text" if columns.status and columns.status in table.columns else "null::text"
    return queries()[name].format(
        task_id="task_id::text" if "task_id" in table.columns else "null::text",
        id=quoted(columns.id),
        text=quoted(columns.text),
        sender=quoted(columns.sender),
        recipient=quoted(columns.recipient),
        time=quoted(columns.time),
        status=status,
    )


async def table(db: Executor) -> Table:
    names = await db.fetchval(queries()["intake_tabel"])
    return Table(exists=names is not None, columns=frozenset(names or ()))


async def add_columns(db: Executor) -> None:
    """The columns intake marks a message with (`task_id`, `parent_id`), for a table that appeared later."""
    await db.execute(queries()["intake_kolommen"])


async def stored_cutoff(db: Executor) -> str | None:
    """When migration 013 was applied: the cut-off when TAAK_INTAKE_VANAF gives none."""
    stored: str | None = await db.fetchval(queries()["intake_vanaf"])
    return stored


async def messages(
    db: Executor, columns: Columns, found: Table, bots: Sequence[str], limit: int
) -> list[asyncpg.Record]:
    """A batch of unmarked messages for these bots, locked for the transaction."""
    return list(await db.fetch(statement("intake_berichten", columns, found), list(bots), limit))


async def message(db: Executor, columns: Columns, found: Table, message_id: str) -> asyncpg.Record | None:
    return await db.fetchrow(statement("intake_bericht", columns, found), message_id)


async def all_messages(db: Executor, columns: Columns, found: Table, bot: str | None) -> list[asyncpg.Record]:
    """Every message (for one bot, or all), as the preview counts them."""
    return list(await db.fetch(statement("intake_voorbeeld", columns, found), bot))


async def mark(
    db: Executor, columns: Columns, found: Table, message_id: str, task_id: str, parent: str | None
) -> None:
    """The message's task: the one it became or joined, or why it became none."""
    await db.execute(statement("intake_koppelen", columns, found), message_id, task_id, parent)


async def locked_task(db: Executor, task_id: str) -> asyncpg.Record | None:
    """The task a message names, locked: two daemons answering the same waiting task must not both see it waiting."""
    return await db.fetchrow(queries()["taak_vergrendeld"], task_id)
