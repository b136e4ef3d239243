"""Intake from the old queue table `agent_messages`: every message for an enabled bot becomes exactly one
thing. A message that names an existing task ID joins that task's log (an `antwoord` when the task waits
for the owner, else a `notitie`); any other message becomes a new task through the one way in. The
message gets its task ID in the same transaction, so several daemons take each message once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg
import structlog

from worker.core.model import OPDRACHT_MAX_CHARS, TASK_ID_IN_TEXT, Soort, Status
from worker.db.ledger import Ledger, NewTask
from worker.db.sqlfiles import queries
from worker.settings import Settings

log = structlog.get_logger("queue-worker")
BATCH = 50
UNUSABLE = "-"  # the task_id of a message that cannot become a task (empty, or too long to be an opdracht)


@dataclass(frozen=True)
class Columns:
    id: str
    text: str
    sender: str
    recipient: str


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def statement(name: str, columns: Columns) -> str:
    return queries()[name].format(
        id=quoted(columns.id),
        text=quoted(columns.text),
        sender=quoted(columns.sender),
        recipient=quoted(columns.recipient),
    )


def columns_from(settings: Settings) -> Columns:
    return Columns(
        settings.intake_id_column,
        settings.intake_text_column,
        settings.intake_sender_column,
        settings.intake_recipient_column,
    )


async def prepare(pool: asyncpg.Pool) -> bool:
    """True when there is a table to take messages from (its columns added if it appeared later)."""
    state = await pool.fetchrow(queries()["intake_tabel"])
    if state is None or not state["bestaat"]:
        return False
    if not state["heeft_task_id"]:
        await pool.execute(queries()["intake_kolommen"])
    return True


async def take(pool: asyncpg.Pool, bots: Sequence[str], columns: Columns) -> int:
    """Convert one batch of messages; returns how many were taken."""
    if not bots:
        return 0
    try:
        return await _take(pool, bots, columns)
    except asyncpg.DeadlockDetectedError:
        # Two daemons locked the same tasks in another order; Postgres undid one batch: take it again later.
        log.info("intake_deadlock_retry")
        return 0


async def _take(pool: asyncpg.Pool, bots: Sequence[str], columns: Columns) -> int:
    async with pool.acquire() as conn, conn.transaction():
        messages = await conn.fetch(statement("intake_berichten", columns), list(bots), BATCH)
        ledger = Ledger(conn)
        for message in messages:
            task_id, parent = await _convert(ledger, message)
            await conn.execute(statement("intake_koppelen", columns), message["bericht_id"], task_id, parent)
    if messages:
        log.info("intake", messages=len(messages))
    return len(messages)


async def _convert(ledger: Ledger, message: asyncpg.Record) -> tuple[str, str | None]:
    text = (message["tekst"] or "").replace("\x00", "")
    sender = (message["afzender"] or "").strip() or "agent_messages"
    named = TASK_ID_IN_TEXT.search(text)
    if named is not None:
        # Locked: two daemons answering the same waiting task must not both see it waiting.
        existing = await ledger.db.fetchrow(queries()["taak_vergrendeld"], named.group(0))
        if existing is not None:
            if existing["status"] == Status.WACHT_OP_MENS:
                await ledger.antwoord(existing["id"], text, wie=sender)
            else:
                await ledger.log(
                    existing["id"], Soort.NOTITIE, text, bot=sender, meta={"agent_messages": message["bericht_id"]}
                )
            return existing["id"], existing["id"]
    if not text.strip() or len(text) > OPDRACHT_MAX_CHARS:
        log.warning("intake_unusable", message=message["bericht_id"], characters=len(text))
        return UNUSABLE, None
    task_id = await ledger.nieuw(NewTask(opdracht=text, opdrachtgever=sender, toegewezen_aan=message["ontvanger"]))
    return task_id, None
