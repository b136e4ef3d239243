"""Intake from the old queue table `agent_messages`: every message for an enabled bot becomes exactly one
thing. A message that names an existing task ID joins that task's log (an `antwoord` when the task waits
for the owner, else a `notitie`); any other message becomes a new task through the one way in. The
message gets its task ID in the same transaction, so several daemons take each message once.

History is never run again. Only a message that arrived after the cut-off (TAAK_INTAKE_VANAF, else the
moment migration 013 was applied) and that the old worker left open (its status is one of
TAAK_INTAKE_OPEN_STATUS) is converted; any other is marked skipped once (`task_id = 'overgeslagen'`) and
can be pulled in by hand (`taak intake neem ID`). `taak intake voorbeeld` shows all this and changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import asyncpg
import structlog

from worker.core.errors import InvalidInput, NotFound, Refused
from worker.core.model import OPDRACHT_MAX_CHARS, TASK_ID_IN_TEXT, Soort, Status
from worker.core.phrases import Phrase, message, phrase
from worker.core.terminal import is_blank
from worker.db import intake as db_intake
from worker.db.bots import all_bots, known_bot
from worker.db.intake import Columns, Table
from worker.db.ledger import Ledger, NewTask
from worker.db.sqlfiles import Connected, Executor
from worker.db.store import Store
from worker.settings import Settings

log = structlog.get_logger("queue-worker")
BATCH = 50
UNUSABLE = "-"  # the task_id of a message that cannot become a task (empty, or too long to be an opdracht)
SKIPPED = "overgeslagen"  # the task_id of a message from before the cut-off, or handled by the old worker


class Decision(StrEnum):
    TASK = "taak"  # becomes a new task
    JOINS = "log"  # names an existing task: a row in its log
    TOO_OLD = "te_oud"  # arrived before the cut-off
    HANDLED = "afgehandeld"  # the old worker handled it (its status is not an open one)
    UNUSABLE = "onbruikbaar"  # empty, or longer than an opdracht may be
    DONE = "al_verwerkt"  # became a task, joined one, or was skipped before
    NO_BOT = "geen_bot"  # addressed to no bot the fleet knows: no daemon takes it (the preview says so)


@dataclass(frozen=True)
class Rules:
    cutoff: datetime
    open_statuses: frozenset[str] | None  # None: the table has no status column, so no status filter


@dataclass(frozen=True)
class Message:
    id: str
    sender: str
    recipient: str
    moment: datetime | None
    status: str | None
    characters: int
    blank: bool
    names_task: bool  # its text names a task ID that exists
    task_id: str | None = None


def decide(message: Message, rules: Rules) -> Decision:
    """What one message becomes. Pure: the same rules for the daemon, the preview and the tests."""
    if message.task_id is not None:
        return Decision.DONE
    if message.moment is None or message.moment < rules.cutoff:
        return Decision.TOO_OLD
    if rules.open_statuses is not None and (message.status or "").strip().lower() not in rules.open_statuses:
        return Decision.HANDLED
    if message.names_task:
        return Decision.JOINS
    if message.blank or message.characters > OPDRACHT_MAX_CHARS:
        return Decision.UNUSABLE
    return Decision.TASK


def columns_from(settings: Settings) -> Columns:
    return Columns(
        settings.intake_id_column,
        settings.intake_text_column,
        settings.intake_sender_column,
        settings.intake_recipient_column,
        settings.intake_time_column,
        settings.intake_status_column,
    )


def cutoff_problem(rules: Rules, language: str) -> str | None:
    """A cut-off in the future would mark every message until then as skipped, for good: intake stays off."""
    if rules.cutoff > datetime.now(rules.cutoff.tzinfo):
        return message("intake_cutoff_future", language, cutoff=rules.cutoff.isoformat())
    return None


def _unusable(found: Table, columns: Columns, language: str) -> str | None:
    """Why intake cannot read the table, or None."""
    if not found.exists:
        return message("intake_no_table", language)
    if missing := found.missing(columns):
        return message("intake_missing_columns", language, columns=", ".join(missing))
    return None


async def prepare_table(pool: Executor, columns: Columns, language: str) -> Table | str:
    """The table, ready for intake (its columns added if it appeared later), or why intake is off."""
    found = await db_intake.table(pool)
    if why := _unusable(found, columns, language):
        return why
    if "task_id" not in found.columns or "parent_id" not in found.columns:
        await db_intake.add_columns(pool)
        found = await db_intake.table(pool)
    return found


async def rules_from(db: Executor, settings: Settings, found: Table) -> Rules:
    cutoff = settings.intake_vanaf
    if cutoff is None:
        stored = await db_intake.stored_cutoff(db)
        cutoff = datetime.fromisoformat(stored) if stored else datetime.now(settings.zone)
    if cutoff.tzinfo is None:
        cutoff = cutoff.replace(tzinfo=settings.zone)
    has_status = bool(settings.intake_status_column) and settings.intake_status_column in found.columns
    opens = frozenset(status.lower() for status in settings.intake_open_status)
    return Rules(cutoff=cutoff, open_statuses=opens if has_status else None)


def message_from(record: asyncpg.Record) -> Message:
    text = record["tekst"] or ""
    if "lengte" in record.keys():  # noqa: SIM118 (a Record's `in` looks at values) the preview counts in SQL instead of fetching every text
        characters, blank = int(record["lengte"] or 0), bool(record["leeg"])
    else:
        characters, blank = len(text), is_blank(text)
    return Message(
        id=record["bericht_id"],
        sender=(record["afzender"] or "").strip(),
        recipient=record["ontvanger"] or "",
        moment=record["moment"],
        status=record["status"],
        characters=characters,
        blank=blank,
        names_task=record["genoemde_taak"] is not None,
        task_id=record["task_id"],
    )


async def take(
    store: Store, bots: Sequence[str], columns: Columns, found: Table, rules: Rules, language: str = "en"
) -> int:
    """Convert or skip one batch of messages; returns how many were looked at. `language`: the log's."""
    if not bots:
        return 0
    try:
        return await _take(store, bots, columns, found, rules, language)
    except asyncpg.DeadlockDetectedError:
        # Two daemons locked the same tasks in another order; Postgres undid one batch: take it again later.
        log.info("intake_deadlock_retry")
        return 0


async def _take(
    store: Store, bots: Sequence[str], columns: Columns, found: Table, rules: Rules, language: str
) -> int:
    decided: Counter[str] = Counter()
    async with store.transaction() as held:
        conn, ledger = held.conn, held.tasks
        records = await db_intake.messages(conn, columns, found, bots, BATCH)
        for record in records:
            decision = decide(message_from(record), rules)
            decided[decision.value] += 1
            if decision in (Decision.TOO_OLD, Decision.HANDLED):
                task_id, parent = SKIPPED, None
            else:
                try:
                    task_id, parent = await _convert(conn, ledger, dict(record))
                except Unusable as unusable:
                    log.warning("intake_unusable", message=record["bericht_id"], reason=unusable.reason.said(language))
                    task_id, parent = UNUSABLE, None
            await db_intake.mark(conn, columns, found, record["bericht_id"], task_id, parent)
    if records:
        log.info("intake", messages=len(records), **decided)
    return len(records)


async def take_one(
    store: Store, message_id: str, columns: Columns, found: Table, *, aan: str | None = None, new_bot: bool = False
) -> str:
    """The owner pulls in one message by its ID, whatever its age or status; returns the task it became or joined.
    Its recipient (or `aan`) must be a bot the fleet knows, as with `taak nieuw --aan`."""
    message_id = message_id.strip()
    if not message_id:
        raise InvalidInput("empty", what="BERICHT_ID")
    async with store.transaction() as held:
        conn = held.conn
        found_record = await db_intake.message(conn, columns, found, message_id)
        if found_record is None:
            raise NotFound("no_message", id=message_id)
        if found_record["task_id"] not in (None, SKIPPED):
            raise Refused("message_taken", id=message_id, task=found_record["task_id"])
        recipient = aan if aan is not None else found_record["ontvanger"]
        if not recipient:
            raise Refused("message_no_recipient", id=message_id)
        record = {**dict(found_record), "ontvanger": await known_bot(conn, recipient, new=new_bot)}
        try:
            task_id, parent = await _convert(conn, held.tasks, record)
        except Unusable as unusable:
            raise Refused("message_unusable", id=message_id, reason=unusable.reason) from None
        await db_intake.mark(conn, columns, found, record["bericht_id"], task_id, parent)
    return task_id


class Unusable(Exception):
    """A message that cannot become a task nor join one; found before anything of it is written."""

    def __init__(self, reason: Phrase) -> None:
        super().__init__(reason.said("en"))
        self.reason = reason


async def _convert(conn: Connected, ledger: Ledger, message: Mapping[str, Any]) -> tuple[str, str | None]:
    text = (message["tekst"] or "").replace("\x00", "")
    sender = (message["afzender"] or "").strip() or "agent_messages"
    named = TASK_ID_IN_TEXT.search(text)
    # Locked: two daemons answering the same waiting task must not both see it waiting.
    existing = await db_intake.locked_task(ledger.db, named.group(0)) if named is not None else None
    if existing is not None:
        await _join(ledger, existing, text, sender, message["bericht_id"])
        return existing["id"], existing["id"]
    try:
        async with conn.transaction():  # a savepoint: one odd message must not undo the batch
            task_id = await ledger.nieuw(
                NewTask(opdracht=text, opdrachtgever=sender, toegewezen_aan=message["ontvanger"] or None)
            )
    except InvalidInput as exc:  # the ledger's own rules: empty, too long, a sender too long for a name
        raise Unusable(phrase(exc.key, **exc.values)) from None
    except asyncpg.CheckViolationError as exc:
        raise Unusable(phrase("message_breaks_rule", rule=exc.constraint_name or "?")) from None
    return task_id, None


async def _join(ledger: Ledger, existing: asyncpg.Record, text: str, sender: str, message_id: str) -> None:
    """A message naming a task joins its log: the answer when the task waits for the owner, else a note."""
    try:
        if existing["status"] == Status.WACHT_OP_MENS:
            await ledger.antwoord(existing["id"], text, wie=sender)
        else:
            await ledger.log(existing["id"], Soort.NOTITIE, text, bot=sender, meta={"agent_messages": message_id})
    except InvalidInput as exc:  # checked before anything is written: a text past TEXT_MAX_CHARS
        raise Unusable(phrase(exc.key, **exc.values)) from None


@dataclass
class Preview:
    """What the intake would do with every message, counted; built without changing anything."""

    rules: Rules
    per_decision: Counter[str] = field(default_factory=Counter)
    per_sender: Counter[tuple[str, str]] = field(default_factory=Counter)  # (sender, decision)
    per_recipient: Counter[tuple[str, str]] = field(default_factory=Counter)
    oldest: datetime | None = None
    newest: datetime | None = None

    def count(self, message: Message, decision: str) -> None:
        self.per_decision[decision] += 1
        self.per_sender[(message.sender or "-", decision)] += 1
        self.per_recipient[(message.recipient or "-", decision)] += 1
        if message.moment is not None:
            self.oldest = min(self.oldest or message.moment, message.moment)
            self.newest = max(self.newest or message.moment, message.moment)


async def preview(conn: Connected, settings: Settings, bot: str | None) -> Preview | str:
    """Every message (for one bot, or all) with what would become of it, in a read-only transaction."""
    columns = columns_from(settings)
    found = await db_intake.table(conn)
    if why := _unusable(found, columns, settings.language):
        return why
    seen = Preview(rules=await rules_from(conn, settings, found))
    async with conn.transaction(readonly=True):
        known = {b.bot for b in await all_bots(conn)}
        for record in await db_intake.all_messages(conn, columns, found, bot):
            message = message_from(record)
            decision = decide(message, seen.rules).value
            if decision in (Decision.TASK, Decision.JOINS) and message.recipient not in known and bot is None:
                decision = Decision.NO_BOT.value
            seen.count(message, decision)
    return seen
