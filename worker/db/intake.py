"""Intake from the old queue table `agent_messages` (what becomes of a message: worker/core/intake.py): every
message for an enabled bot becomes exactly one thing. A message that names an existing task ID joins that task's
log (an `antwoord` when the task waits for the owner, else a `notitie`); any other message becomes a new task
through the one way in. The message gets its task ID in the same transaction, so several daemons take each
message once. The daemon takes batches (`take`), the owner one message by its ID (`take_one`) or the skipped
backlog, all of it or narrowed (`take_backlog`, `leave_backlog`); `preview` and `backlog` change nothing.

The statements take the table's configured column names, quoted, in place of their `{...}` fields.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, astuple, dataclass, field, fields
from datetime import date, datetime
from typing import Any

import asyncpg
import structlog

from worker.core.catalogue import message
from worker.core.errors import InvalidInput, NotFound, Refused
from worker.core.intake import LEFT, SKIPPED, UNUSABLE, Decision, Message, Rules, decide, ids_said, in_backlog
from worker.core.model import OPDRACHT_MAX_CHARS, TASK_ID_IN_TEXT, Soort, Status
from worker.core.phrases import Phrase, phrase
from worker.core.terminal import is_blank
from worker.db.bots import all_bots, known_bot
from worker.db.ledger import Ledger, NewTask
from worker.db.sqlfiles import Connected, Executor, queries
from worker.db.store import Store
from worker.settings import Settings

log = structlog.get_logger("queue-worker")
BATCH = 50


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


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def statement(name: str, columns: Columns, table: Table) -> str:
    named = {field: quoted(column) for field, column in asdict(columns).items()}
    named["status"] = named["status"] + "::text" if columns.status and columns.status in table.columns else "null::text"
    return queries()[name].format(task_id="task_id::text" if "task_id" in table.columns else "null::text", **named)


async def table(db: Executor) -> Table:
    names = await db.fetchval(queries()["intake_tabel"])
    return Table(exists=names is not None, columns=frozenset(names or ()))


def columns_from(settings: Settings) -> Columns:
    return Columns(*(getattr(settings, f"intake_{column.name}_column") for column in fields(Columns)))


def cutoff_problem(rules: Rules, language: str) -> str | None:
    """A cut-off in the future would mark every message until then as skipped, for good: intake stays off."""
    if rules.cutoff > datetime.now(rules.cutoff.tzinfo):
        return message("intake_cutoff_future", language, cutoff=rules.cutoff.isoformat())
    return None


def _unusable(found: Table, columns: Columns, language: str) -> str | None:
    """Why intake cannot read the table, or None."""
    if not found.exists:
        return message("intake_no_table", language)
    # The status column may be switched off (TAAK_INTAKE_STATUS_COLUMN=""), never silently missed: a misspelled
    # one would let every message the old worker handled run again.
    if missing := [name for name in astuple(columns) if name and name not in found.columns]:
        return message("intake_missing_columns", language, columns=", ".join(missing))
    return None


async def prepare_table(pool: Executor, columns: Columns, language: str) -> Table | str:
    """The table, ready for intake (its columns added if it appeared later), or why intake is off."""
    found = await table(pool)
    if why := _unusable(found, columns, language):
        return why
    if "task_id" not in found.columns or "parent_id" not in found.columns:
        # The same columns the baseline migration adds, for a table that appeared later.
        await pool.execute(queries()["intake_kolommen"])
        found = await table(pool)
    return found


async def rules_from(db: Executor, settings: Settings, found: Table) -> Rules:
    cutoff = settings.intake_vanaf
    if cutoff is None:
        # When the baseline migration was applied: the cut-off when TAAK_INTAKE_VANAF gives none.
        stored = await db.fetchval(queries()["intake_vanaf"])
        cutoff = datetime.fromisoformat(stored) if stored else datetime.now(settings.zone)
    if cutoff.tzinfo is None:
        cutoff = cutoff.replace(tzinfo=settings.zone)
    has_status = bool(settings.intake_status_column) and settings.intake_status_column in found.columns
    opens = frozenset(status.lower() for status in settings.intake_open_status)
    return Rules(cutoff=cutoff, open_statuses=opens if has_status else None)


def message_from(record: asyncpg.Record) -> Message:
    text = record["tekst"]
    if "lengte" in record.keys():  # noqa: SIM118 (a Record's `in` looks at values) the preview counts in SQL instead of fetching every text
        characters, blank = int(record["lengte"] or 0), bool(record["leeg"])
    else:
        characters, blank = len(text or ""), is_blank(text or "")
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
        text=text,
        named_task=record["genoemde_taak"],
        named_status=record.get("genoemde_status"),
    )


async def _mark(
    db: Executor, columns: Columns, found: Table, message_id: str, task_id: str, parent: str | None
) -> None:
    """The message's task: the one it became or joined, or why it became none."""
    await db.execute(statement("intake_koppelen", columns, found), message_id, task_id, parent)


async def take(
    store: Store, bots: Sequence[str], columns: Columns, found: Table, rules: Rules, language: str = "en"
) -> int:
    """Convert or skip one batch of messages; returns how many were looked at. `language`: the log's."""
    if not bots:
        return 0
    decided: Counter[str] = Counter()
    try:
        async with store.transaction() as held:
            conn, ledger = held.conn, held.tasks
            # Messages for these bots that became nothing yet, locked (SKIP LOCKED) so that several daemons take
            # each once.
            records = list(await conn.fetch(statement("intake_berichten", columns, found), list(bots), BATCH))
            for record in records:
                decision = decide(message_from(record), rules)
                decided[decision.value] += 1
                task_id, parent = SKIPPED, None
                if decision not in (Decision.TOO_OLD, Decision.HANDLED):
                    try:
                        task_id, parent = (await _convert(conn, ledger, dict(record))).marks
                    except Unusable as unusable:
                        why = unusable.reason.said(language)
                        log.warning("intake_unusable", message=record["bericht_id"], reason=why)
                        task_id, parent = UNUSABLE, None
                await _mark(conn, columns, found, record["bericht_id"], task_id, parent)
    except asyncpg.DeadlockDetectedError:
        # Two daemons locked the same tasks in another order; Postgres undid one batch: take it again later.
        log.info("intake_deadlock_retry")
        return 0
    if records:
        log.info("intake", messages=len(records), **decided)
    return len(records)


async def take_one(
    store: Store, message_id: str, columns: Columns, found: Table, *, aan: str | None = None, new_bot: bool = False
) -> Taken:
    """The owner pulls in one message by its ID, whatever its age or status (one the owner left too); returns the
    task it became or joined. Its recipient (or `aan`) must be a bot the fleet knows, as with `taak nieuw --aan`."""
    message_id = message_id.strip()
    if not message_id:
        raise InvalidInput("empty", what="BERICHT_ID")
    async with store.transaction() as held:
        conn = held.conn
        found_record = await conn.fetchrow(statement("intake_bericht", columns, found), message_id)
        if found_record is None:
            raise NotFound("no_message", id=message_id)
        if found_record["task_id"] not in (None, SKIPPED, LEFT):
            raise Refused("message_taken", id=message_id, task=found_record["task_id"])
        recipient = aan if aan is not None else found_record["ontvanger"]
        if not recipient:
            raise Refused("message_no_recipient", id=message_id)
        record = {**dict(found_record), "ontvanger": await known_bot(conn, recipient, new=new_bot)}
        try:
            taken = await _convert(conn, held.tasks, record)
        except Unusable as unusable:
            raise Refused("message_unusable", id=message_id, reason=unusable.reason) from None
        await _mark(conn, columns, found, record["bericht_id"], *taken.marks)
    return taken


@dataclass(frozen=True)
class Taken:
    """A message taken in: the task it became, or the existing task whose log it joined (with that task's status
    then, and the kind of row it became there)."""

    message: str
    task: str
    joined: str | None = None  # the existing task's status; None: a new task
    soort: str | None = None

    @property
    def marks(self) -> tuple[str, str | None]:
        """The message's task_id and parent_id."""
        return self.task, self.task if self.joined is not None else None

    def said(self) -> Phrase:
        if self.joined is None:
            return phrase("message_taken_now", id=self.message, task=self.task)
        return phrase("message_joined", id=self.message, task=self.task, status=self.joined, soort=self.soort)


class Unusable(Exception):
    """A message that cannot become a task nor join one; found before anything of it is written."""

    def __init__(self, reason: Phrase) -> None:
        super().__init__(reason.said("en"))
        self.reason = reason


async def _convert(conn: Connected, ledger: Ledger, message: Mapping[str, Any]) -> Taken:
    text = (message["tekst"] or "").replace("\x00", "")
    sender = (message["afzender"] or "").strip() or "agent_messages"
    named = TASK_ID_IN_TEXT.search(text)
    # Locked: two daemons answering the same waiting task must not both see it waiting.
    existing = await ledger.db.fetchrow(queries()["taak_vergrendeld"], named.group(0)) if named is not None else None
    if existing is not None:
        soort = await _join(ledger, existing, text, sender, message["bericht_id"])
        return Taken(message["bericht_id"], existing["id"], joined=str(existing["status"]), soort=soort)
    try:
        async with conn.transaction():  # a savepoint: one odd message must not undo the batch
            task_id = await ledger.nieuw(
                NewTask(opdracht=text, opdrachtgever=sender, toegewezen_aan=message["ontvanger"] or None)
            )
    except InvalidInput as exc:  # the ledger's own rules: empty, too long, a sender too long for a name
        raise Unusable(phrase(exc.key, **exc.values)) from None
    except asyncpg.CheckViolationError as exc:
        raise Unusable(phrase("message_breaks_rule", rule=exc.constraint_name or "?")) from None
    return Taken(message["bericht_id"], task_id)


async def _join(ledger: Ledger, existing: asyncpg.Record, text: str, sender: str, message_id: str) -> str:
    """A message naming a task joins its log: the answer when the task waits for the owner, else a note.
    Returns the kind of row it became."""
    try:
        if existing["status"] == Status.WACHT_OP_MENS:
            await ledger.antwoord(existing["id"], text, wie=sender)
            return Soort.ANTWOORD.value
        await ledger.log(existing["id"], Soort.NOTITIE, text, bot=sender, meta={"agent_messages": message_id})
        return Soort.NOTITIE.value
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
    backlog: list[Message] = field(default_factory=list)  # the skipped backlog, its texts read
    known: frozenset[str] = frozenset()  # the bots the fleet knows

    def count(self, message: Message, decision: str) -> None:
        self.per_decision[decision] += 1
        self.per_sender[(message.sender or "-", decision)] += 1
        self.per_recipient[(message.recipient or "-", decision)] += 1
        if message.moment is not None:
            self.oldest = min(self.oldest or message.moment, message.moment)
            self.newest = max(self.newest or message.moment, message.moment)


async def preview(conn: Connected, settings: Settings, bot: str | None) -> Preview | str:
    """Every message (for one bot, or all) with what would become of it, and the skipped backlog, in a read-only
    transaction."""
    columns = columns_from(settings)
    found = await table(conn)
    if why := _unusable(found, columns, settings.language):
        return why
    seen = Preview(rules=await rules_from(conn, settings, found))
    async with conn.transaction(readonly=True):
        seen.known = await _known(conn)
        for record in await conn.fetch(statement("intake_voorbeeld", columns, found), bot):
            message = message_from(record)
            decision = decide(message, seen.rules).value
            if decision in (Decision.TASK, Decision.JOINS) and message.recipient not in seen.known and bot is None:
                decision = Decision.NO_BOT.value
            seen.count(message, decision)
        if bot is not None and not seen.per_decision and bot not in seen.known:
            # Neither a bot nor a recipient of the old queue: a typo, said as one rather than an empty preview.
            raise Refused("unknown_bot_here", value=bot, known=", ".join(sorted(seen.known)) or "-")
        seen.backlog = await _backlog(conn, columns, found, seen.rules, Selection(recipient=bot), settings.timezone)
    return seen


@dataclass(frozen=True)
class Selection:
    """Which messages of the backlog: each field None means any."""

    sender: str | None = None  # as core.intake.sender_key spells it
    recipient: str | None = None  # a bot, in its one spelling
    since: date | None = None  # the first day, in TAAK_TIMEZONE
    until: date | None = None  # the last day, taken in
    ids: tuple[str, ...] | None = None


async def _backlog(
    db: Executor, columns: Columns, found: Table, rules: Rules, selection: Selection, zone: str
) -> list[Message]:
    records = await db.fetch(
        statement("intake_achterstand", columns, found),
        rules.cutoff,
        selection.sender,
        selection.recipient,
        selection.since,
        selection.until,
        list(selection.ids) if selection.ids is not None else None,
        SKIPPED,
        zone,
    )
    return [m for m in map(message_from, records) if in_backlog(m, rules)]


@dataclass(frozen=True)
class Backlog:
    rules: Rules
    messages: list[Message]
    known: frozenset[str]

    def problem(self, message: Message) -> Phrase | None:
        """Why this message cannot be taken in as it is, as far as it shows before trying (else None)."""
        if not message.recipient:
            return phrase("backlog_no_recipient")
        if message.recipient not in self.known:
            return phrase("backlog_not_a_bot", bot=message.recipient)
        if message.names_task:
            return None  # it joins a task's log: its length is checked against a log line's when it is taken
        if message.blank or message.characters > OPDRACHT_MAX_CHARS:
            return phrase("backlog_unusable")
        return None

    def notes(self, messages: Sequence[Message]) -> list[Phrase]:
        """What a take-in of these messages would do apart from making a task of each: which cannot come in as
        they are, and why (they stay in the backlog), and which join an existing task's log instead."""
        cannot: dict[Phrase, list[str]] = {}
        joins: dict[tuple[str, str], list[str]] = {}
        for m in messages:
            if (problem := self.problem(m)) is not None:
                cannot.setdefault(problem, []).append(m.id)
            elif m.named_task is not None:
                joins.setdefault((m.named_task, m.named_status or "-"), []).append(m.id)
        joined = [
            phrase("backlog_joins", n=len(ids), ids=ids_said(ids), task=task, status=status)
            for (task, status), ids in sorted(joins.items())
        ]
        return [*cannot_lines(cannot, "backlog_cannot"), *joined]

    def can_come_in(self, messages: Sequence[Message]) -> list[Message]:
        return [m for m in messages if self.problem(m) is None]


def cannot_lines(cannot: Mapping[Phrase, list[str]], key: str) -> list[Phrase]:
    return [phrase(key, n=len(ids), ids=ids_said(ids), reason=why) for why, ids in cannot.items()]


async def backlog(conn: Connected, settings: Settings, selection: Selection) -> Backlog | str:
    """The backlog messages the selection names, read in a read-only transaction; or why intake is off."""
    columns = columns_from(settings)
    found = await table(conn)
    if why := _unusable(found, columns, settings.language):
        return why
    rules = await rules_from(conn, settings, found)
    if why := cutoff_problem(rules, settings.language):
        return why
    async with conn.transaction(readonly=True):
        known = await _known(conn)
        return Backlog(rules, await _backlog(conn, columns, found, rules, selection, settings.timezone), known)


@dataclass(frozen=True)
class Intake:
    """What a take-in of the backlog did: the messages taken in, and those that could not come in as they are,
    by why (they stay in the backlog, as they were)."""

    taken: list[Taken]
    stayed: dict[Phrase, list[str]]

    def lines(self) -> list[Phrase]:
        joined = sum(1 for t in self.taken if t.joined is not None)
        n, new = len(self.taken), len(self.taken) - joined
        # "0 joined an existing task" says nothing: the split only when one did.
        counted = phrase("backlog_taken", n=n)
        if joined:
            counted = phrase("backlog_taken_joined", n=n, new=new, joined=joined)
        return [*(t.said() for t in self.taken), *cannot_lines(self.stayed, "backlog_stayed"), counted]


async def take_backlog(store: Store, selection: Selection) -> Intake:
    """Every backlog message the selection names that can come in becomes a task (or joins the task it names),
    in one transaction; one that cannot as it is (for no bot the fleet knows, or for nobody, empty, too long)
    stays in the backlog, said with its reason: the same rule for the command line and the cockpit, and what the
    run without --ja shows beforehand. Each is taken once however many runs there are at the same time: the
    messages are locked in one order and read again. Nothing matching is NotFound; nothing that can come in is
    Refused, nothing changed."""
    async with store.transaction() as held:
        conn = held.conn
        columns, found, rules, chosen = await _chosen(held, selection)
        seen = Backlog(rules, chosen, await _known(conn))
        stayed: dict[Phrase, list[str]] = {}
        for m in chosen:
            if (problem := seen.problem(m)) is not None:
                stayed.setdefault(problem, []).append(m.id)
        taken = []
        for m in seen.can_come_in(chosen):
            record = {"tekst": m.text, "afzender": m.sender, "ontvanger": m.recipient, "bericht_id": m.id}
            try:
                async with conn.transaction():  # a savepoint: a message the ledger refuses stays, the rest comes in
                    done = await _convert(conn, held.tasks, record)
            except Unusable as unusable:
                stayed.setdefault(unusable.reason, []).append(m.id)
                continue
            await _mark(conn, columns, found, m.id, *done.marks)
            taken.append(done)
        if not taken:
            why, ids = next(iter(stayed.items()))
            raise Refused("backlog_none_can", n=len(chosen), ids=ids_said(ids), reason=why)
    return Intake(taken, stayed)


async def leave_backlog(store: Store, selection: Selection) -> list[str]:
    """The owner's decision to leave these backlog messages (`task_id = 'afgewezen'`): the backlog shows them no
    more and `take_backlog` never takes them; `take_one` still takes one by its ID. Returns their IDs."""
    async with store.transaction() as held:
        columns, found, _rules, chosen = await _chosen(held, selection)
        for m in chosen:
            await _mark(held.conn, columns, found, m.id, LEFT, None)
    return [m.id for m in chosen]


async def _known(conn: Connected) -> frozenset[str]:
    return frozenset(b.bot for b in await all_bots(conn))


async def _chosen(held: Store, selection: Selection) -> tuple[Columns, Table, Rules, list[Message]]:
    """The backlog messages the selection names, locked in one order and read again once locked (a run that waited
    finds what another took meanwhile taken); none is NotFound."""
    settings = held.settings
    conn = held.conn
    columns = columns_from(settings)
    found = await prepare_table(conn, columns, settings.language)
    if isinstance(found, str):
        raise Refused("intake_off", reason=found)
    rules = await rules_from(conn, settings, found)
    if why := cutoff_problem(rules, settings.language):
        raise Refused("intake_off", reason=why)
    matched = await _backlog(conn, columns, found, rules, selection, settings.timezone)
    still = {
        r["bericht_id"]
        for r in await conn.fetch(statement("intake_vastzetten", columns, found), [m.id for m in matched])
        if r["task_id"] in (None, SKIPPED)
    }
    chosen = [m for m in matched if m.id in still]
    named_ids = selection.ids if not chosen and selection.ids is not None else ()
    for message_id in named_ids:  # named by its ID and not in the backlog: said as `taak intake neem` says it
        named = await conn.fetchrow(statement("intake_bericht", columns, found), message_id)
        if named is None:
            raise NotFound("no_message", id=message_id)
        if named["task_id"] not in (None, SKIPPED):
            raise Refused("message_taken", id=message_id, task=named["task_id"])
    if not chosen:
        raise NotFound("backlog_nothing")
    return columns, found, rules, chosen
