"""The task ledger: every operation on `agent_taken` and `agent_taak_log`.

Each state change and its log row are one statement from `sql/queries.sql`. A write that names a
task by its lease token is fenced: when the token is no longer current nothing changes, and the
caller is told why (the task is gone, has another status, or was claimed again). A fenced write goes through a
function of migration 026 (a daemon's role may not write the tables itself), and its row is the holder's: the
bot of `geclaimd_door`, whatever `bot` a caller names; `bot` names the writer only of a row without a token.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

import asyncpg

from worker.core.errors import InvalidInput, NotFound, Refused
from worker.core.model import (
    CONTEXT_MAX_CHARS,
    FINAL,
    KLAAR_WANNEER_MAX_CHARS,
    NAME_MAX_CHARS,
    OPDRACHT_MAX_CHARS,
    OWNER_KINDS,
    SESSION_KINDS,
    TITEL_MAX_CHARS,
    VOLGENDE_STAP_MAX_CHARS,
    Lease,
    Soort,
    Status,
    check_task_id,
    check_text,
)
from worker.core.phrases import Phrase
from worker.core.row_phrases import phrase_json
from worker.core.rows import LogRow, OlderRows, Task
from worker.core.terminal import is_blank, printable
from worker.db.sqlfiles import Executor, queries


@dataclass(frozen=True)
class NewTask:
    opdracht: str
    opdrachtgever: str
    toegewezen_aan: str | None = None
    klaar_wanneer: str | None = None
    context: dict[str, Any] | None = None
    volgende_stap: str | None = None
    titel: str | None = None
    prioriteit: int = 0
    max_pogingen: int = 3
    niet_voor: datetime | None = None
    uiterlijk: datetime | None = None
    nodig: str | None = None  # a known skill in its one spelling; None: implied by a skill's words, or none


@dataclass(frozen=True)
class Claim:
    task: Task
    bot: str

    @property
    def token(self) -> str:
        assert self.task.lease_token is not None
        return self.task.lease_token


@dataclass(frozen=True)
class Written:
    id: int
    ts: datetime

    @classmethod
    def of(cls, record: asyncpg.Record) -> Written:
        return Written(id=record["id"], ts=record["ts"])


@dataclass(frozen=True)
class Released(Written):
    mislukt: bool  # the attempts were used up: the task failed instead of going back to the queue


@dataclass(frozen=True)
class Answered(Written):
    heropend: bool  # the task waited for this answer and is back in the queue


@dataclass(frozen=True)
class Verlopen:
    id: str
    status: Status
    niet_voor: datetime | None
    bot: str  # whose lease ran out (of `geclaimd_door`, bot@machine)


@dataclass(frozen=True)
class BriefingState:
    """What a briefing is built from: the task, its newest rows (oldest first) and the rest counted."""

    task: Task
    recent: list[LogRow]
    older: OlderRows
    answer: LogRow | None


def task_from_record(record: asyncpg.Record) -> Task:
    values = dict(record)
    values["status"] = Status(values["status"])
    values["context"] = json_object(values["context"])
    token = values["lease_token"]
    values["lease_token"] = str(token) if token is not None else None
    return Task(**values)


def log_row_from_record(record: asyncpg.Record) -> LogRow:
    values = dict(record)
    values["soort"] = Soort(values["soort"])
    values["meta"] = json_object(values["meta"])
    return LogRow(**values)


def json_object(value: Any) -> dict[str, Any]:
    """A jsonb column as asyncpg gives it (its text) or as a row already read (a dict), as a dict."""
    if isinstance(value, str):
        loaded: dict[str, Any] = json.loads(value)
        return loaded
    return dict(value or {})


def _meta_json(meta: dict[str, Any] | None) -> str:
    return json.dumps(meta or {}, ensure_ascii=False)


# A reason given to a row the system writes: the system's own words as a phrase (said in each reader's
# language), or a person's text as typed.
Reason = str | Phrase


def _reason_value(reden: Reason) -> str:
    """The reason as the JSON value a row's phrase names it by: a phrase, or the person's text itself."""
    return json.dumps(phrase_json(reden) if isinstance(reden, Phrase) else reden, ensure_ascii=False)


def _phrase_or_null(reden: Reason) -> str | None:
    """The row's phrase when the whole row is the reason; NULL for a person's text, which needs none."""
    return json.dumps(phrase_json(reden), ensure_ascii=False) if isinstance(reden, Phrase) else None


LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _check_length(value: str | None, what: str, limit: int) -> None:
    """A text within its limit; a new task's texts are named by the option that gives them (the intake's too)."""
    if value is not None and len(value) > limit:
        raise InvalidInput("too_long", what=what, length=len(value), limit=limit)


def check_token(token: str) -> str:
    try:
        return str(uuid.UUID(token))
    except ValueError:
        raise InvalidInput("bad_token") from None


class Ledger:
    """The task ledger's statements. Built by the process's store (worker/db/store.py) from the settings: no
    default of its own for the lease or the machine."""

    def __init__(self, db: Executor, *, lease_seconds: int, machine: str) -> None:
        self.db = db
        self.lease_seconds = lease_seconds
        self.machine = machine

    async def nieuw(self, new: NewTask) -> str:
        check_text(new.opdracht, "opdracht", max_chars=OPDRACHT_MAX_CHARS)
        _check_length(new.opdrachtgever, "--van", NAME_MAX_CHARS)  # a name, like a bot's
        check_text(new.opdrachtgever, "--van")  # named by the option that gives it, as its length is
        if any(ch in new.opdrachtgever for ch in LINE_BREAKS):  # a name: it stands in a column and after `Van:`
            raise InvalidInput("not_one_line", what="--van")
        # Frozen for good, and it stands in columns: no escapes and no tab, as TAAK_OWNER (an error line shows a
        # tab as `\t`).
        if printable(new.opdrachtgever) != new.opdrachtgever or "\t" in new.opdrachtgever:
            raise InvalidInput("name_unseen_characters", what="--van", value=printable(new.opdrachtgever))
        # Each option's own limit first: a text past every limit is named by the option that gives it.
        _check_length(new.titel, "--titel", TITEL_MAX_CHARS)
        _check_length(new.klaar_wanneer, "--klaar-wanneer", KLAAR_WANNEER_MAX_CHARS)
        _check_length(new.volgende_stap, "--volgende-stap", VOLGENDE_STAP_MAX_CHARS)
        for what, value in (  # named by their options, in either language, as the limits above name them
            ("--aan", new.toegewezen_aan),
            ("--klaar-wanneer", new.klaar_wanneer),
            ("--volgende-stap", new.volgende_stap),
            ("--titel", new.titel),
        ):
            if value is not None:  # left out is None; given, it must say something
                check_text(value, what)
        if new.max_pogingen < 1:
            raise InvalidInput("bad_number", what="--max-pogingen", minimum=1)
        context_json = json.dumps(new.context or {}, ensure_ascii=False)
        _check_length(context_json, "--context (JSON)", CONTEXT_MAX_CHARS)  # counted as it is stored
        check_text(context_json, "context", required=False)
        # The statement takes the fields in their order, the context as it is stored.
        task_id: str = await self.db.fetchval(queries()["nieuw"], *{**vars(new), "context": context_json}.values())
        return task_id

    async def claim(
        self,
        bots: Sequence[str],
        *,
        sessie: str | None = None,
        still_running: Sequence[str] = (),
        only_switched_on: bool = False,
    ) -> Claim | None:
        """The best waiting task for one of `bots`; with `only_switched_on` (the daemon) only for the bots that
        are on and not at their brake, decided in the same statement."""
        if not bots:
            raise InvalidInput("no_bots")
        record = await self.db.fetchrow(
            queries()["claim"],
            list(bots),
            self.lease_seconds,
            self.machine,
            sessie,
            list(still_running),
            only_switched_on,
        )
        if record is None:
            return None
        task = task_from_record(record)
        return Claim(task=task, bot=(task.geclaimd_door or "").split("@", 1)[0])

    async def claim_id(self, task_id: str, bot: str, *, sessie: str | None = None) -> Claim | None:
        """This one task, claimed for `bot` as `claim` claims, or nothing: taken, not waiting, not for this bot,
        or the bot is off or at its brake."""
        record = await self.db.fetchrow(
            queries()["claim_id"], check_task_id(task_id), bot, self.lease_seconds, self.machine, sessie
        )
        return Claim(task=task_from_record(record), bot=bot) if record is not None else None

    async def log(
        self,
        task_id: str,
        soort: Soort,
        tekst: str,
        *,
        token: str | None = None,
        bot: str | None = None,
        sessie: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Written:
        check_task_id(task_id)
        check_text(tekst, "tekst")
        meta_json = _meta_json(meta)
        if token is not None:
            if soort not in SESSION_KINDS:
                raise Refused("soort_own_command", soort=soort)
            values = (soort.value, tekst, sessie, meta_json, self.lease_seconds)
            return Written.of(await self._fenced("log_fenced", task_id, token, *values))
        if soort == Soort.ANTWOORD:
            return await self.antwoord(task_id, tekst, wie=bot or "eigenaar")
        if soort not in OWNER_KINDS:
            raise Refused("soort_needs_token", allowed=", ".join(sorted(OWNER_KINDS)), soort=soort)
        record = await self.db.fetchrow(queries()["log_open"], task_id, bot, soort.value, tekst, sessie, meta_json)
        if record is None:
            raise NotFound("not_found", id=task_id)  # a task of any status takes an owner's row
        return Written.of(record)

    async def compact_by_owner(
        self, task_id: str, tekst: str, *, bot: str | None, sessie: str | None, meta: dict[str, Any]
    ) -> Written:
        """A compaction of the owner's own Claude session that works on a task (TAAK_ID set, no lease token): the
        hooks record it as a session's hooks do, although `taak log` leaves `compact` to sessions."""
        check_task_id(task_id)
        check_text(tekst, "tekst")
        record = await self.db.fetchrow(
            queries()["log_open"], task_id, bot, Soort.COMPACT.value, tekst, sessie, _meta_json(meta)
        )
        if record is None:
            raise NotFound("not_found", id=task_id)
        return Written.of(record)

    async def resultaat(
        self, task_id: str, token: str, tekst: str, *, sessie: str | None, meta: dict[str, Any]
    ) -> Written:
        """A session's result row, written only for the claim that had this token and session: whoever holds the
        task by now, and whatever the journal's file was made to say of another task."""
        record = await self.db.fetchrow(
            queries()["resultaat"],
            check_task_id(task_id),
            check_token(token),
            check_text(tekst, "tekst"),
            sessie,
            _meta_json(meta),
        )
        if record is None:
            raise Refused("no_such_claim", id=task_id)
        return Written.of(record)

    async def verleng(self, task_id: str, token: str) -> datetime | None:
        """Extend a held lease; None means the lease is lost (another holder, or the task moved on)."""
        lease_tot: datetime | None = await self.db.fetchval(
            queries()["verleng"], task_id, check_token(token), self.lease_seconds
        )
        return lease_tot

    async def klaar(
        self,
        task_id: str,
        bewijs: str,
        tekst: str,
        *,
        token: str,
        sessie: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Written:
        check_task_id(task_id)
        if is_blank(bewijs):
            raise Refused("no_evidence", id=task_id)
        check_text(bewijs, "bewijs")
        tekst = check_text(tekst, "tekst", required=False)
        return Written.of(await self._fenced("klaar", task_id, token, bewijs, tekst, sessie, _meta_json(meta)))

    async def blokkeer(
        self,
        task_id: str,
        vraag: str,
        *,
        token: str,
        sessie: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Written:
        check_task_id(task_id)
        check_text(vraag, "vraag")
        return Written.of(await self._fenced("blokkeer", task_id, token, vraag, sessie, _meta_json(meta)))

    async def antwoord(self, task_id: str, tekst: str, *, wie: str = "eigenaar") -> Answered:
        check_task_id(task_id)
        check_text(tekst, "antwoord")
        record = await self.db.fetchrow(queries()["antwoord"], task_id, wie, tekst)
        if record is None:
            await self._refuse("answer_to_finished", task_id)
        return Answered(id=record["id"], ts=record["ts"], heropend=record["heropend"])

    async def vrijgeven(
        self,
        task_id: str,
        token: str,
        reden: Reason,
        *,
        niet_voor: datetime | None = None,
        meta: dict[str, Any] | None = None,
        backoff_base: float = 60,
        backoff_max: float = 3600,
    ) -> Released:
        check_task_id(task_id)
        check_text(str(reden), "reden")
        values = (str(reden), niet_voor, _meta_json(meta), backoff_base, backoff_max, _reason_value(reden))
        record = await self._fenced("vrijgeven", task_id, token, *values)
        return Released(id=record["id"], ts=record["ts"], mislukt=record["mislukt"])

    async def annuleer(self, task_id: str, reden: Reason, *, wie: str) -> Written:
        """The owner cancels a task that is not finished; a session holding it is stopped by its daemon."""
        return await self._by_owner("annuleren", "already_final", task_id, reden, wie)

    async def terugnemen(self, task_id: str, reden: Reason, *, wie: str, wait_seconds: float = 30) -> Written:
        """The owner takes a held lease back by hand: the attempt given back, claimable again after
        `wait_seconds` (by then the daemon that ran it has stopped its session: one task never runs twice)."""
        return await self._by_owner("terugnemen", "not_bezig", task_id, reden, wie, wait_seconds)

    async def _by_owner(self, name: str, refusal: str, task_id: str, reden: Reason, wie: str, *values: Any) -> Written:
        """The owner's statement `name` with its reason; when it changed nothing, `refusal` with the task's status."""
        check_task_id(task_id)
        check_text(str(reden), "reden")
        record = await self.db.fetchrow(queries()[name], task_id, wie, str(reden), *values, _reason_value(reden))
        if record is None:
            await self._refuse(refusal, task_id)
        return Written.of(record)

    async def stap(
        self,
        task_id: str,
        tekst: str,
        *,
        token: str | None = None,
        bot: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Written:
        check_task_id(task_id)
        check_text(tekst, "volgende stap", max_chars=VOLGENDE_STAP_MAX_CHARS)
        if token is None:
            record = await self.db.fetchrow(queries()["stap_open"], task_id, bot or "eigenaar", tekst)
            if record is None:
                task = await self.toon(task_id)  # a missing task is NotFound, not "held"
                if task.status in FINAL:
                    raise Refused("step_to_finished", id=task_id, status=task.status)
                raise Refused("held_by_session", id=task_id)
            return Written.of(record)
        values = (tekst, self.lease_seconds, _meta_json(meta))
        return Written.of(await self._fenced("stap_fenced", task_id, token, *values))

    async def journaal_bekend(self, task_id: str, sleutel: str) -> bool:
        known: bool = await self.db.fetchval(queries()["journaal_bekend"], task_id, sleutel)
        return known

    async def lease_stand(self, task_id: str, token: str) -> Lease:
        record = await self.db.fetchrow(queries()["lease_stand"], task_id, check_token(token))
        assert record is not None
        if record["geldig"]:
            return Lease.HELD
        if record["zelf_afgesloten"]:
            return Lease.CLOSED_BY_SESSION
        if record["geannuleerd"]:
            return Lease.GEANNULEERD
        return Lease.TERUGGENOMEN if record["teruggenomen"] else Lease.LOST

    async def poging_mislukt(
        self,
        task_id: str,
        token: str,
        *,
        reden: Reason,
        notitie: str | None,
        sessie: str | None,
        meta: dict[str, Any],
        backoff_base: float,
        backoff_max: float,
    ) -> Status | None:
        """A failed attempt: `fout` (and `notitie`) rows, then backoff or mislukt. None: not ours any more."""
        status = await self.db.fetchval(
            queries()["poging_mislukt"],
            task_id,
            check_token(token),
            str(reden),
            notitie,
            sessie,
            _meta_json(meta),
            backoff_base,
            backoff_max,
            _phrase_or_null(reden),
        )
        return Status(status) if status is not None else None

    async def vrijgeven_poging_terug(self, task_id: str, token: str, *, reden: Reason, sessie: str | None) -> bool:
        """Give the attempt back (not the task's fault); False when the task is not ours any more."""
        record = await self.db.fetchrow(
            queries()["vrijgeven_poging_terug"],
            task_id,
            check_token(token),
            str(reden),
            sessie,
            _phrase_or_null(reden),
        )
        return record is not None

    async def eigen_claims_vrijgeven(self, claims: Sequence[tuple[str, str]], reden: Reason) -> list[str]:
        """Give back what a run before this one held on this machine, each claim named by its task and its token."""
        tasks = [task for task, _token in claims]
        tokens = [check_token(token) for _task, token in claims]
        records = await self.db.fetch(
            queries()["eigen_claims_vrijgeven"], tasks, tokens, str(reden), _reason_value(reden)
        )
        return [r["id"] for r in records]

    async def verlopen(
        self,
        *,
        backoff_base: float = 30,
        backoff_max: float = 3600,
        limit: int = 100,
        own: Sequence[str] = (),
        grace_seconds: float = 0,
    ) -> list[Verlopen]:
        """Return expired leases to the queue (or to mislukt); safe with several reapers at once. `own`: the
        tasks the calling daemon runs, never reaped by it; `grace_seconds`: none after the server's start."""
        records = await self.db.fetch(queries()["verlopen"], backoff_base, backoff_max, limit, list(own), grace_seconds)
        return [
            Verlopen(
                id=r["id"],
                status=Status(r["status"]),
                niet_voor=r["niet_voor"],
                bot=(r["geclaimd_door"] or "").split("@", 1)[0],
            )
            for r in records
        ]

    async def toon(self, task_id: str) -> Task:
        check_task_id(task_id)
        record = await self.db.fetchrow(queries()["taak"], task_id)
        if record is None:
            raise NotFound("not_found", id=task_id)
        return task_from_record(record)

    async def log_rows(self, task_id: str) -> list[LogRow]:
        return [log_row_from_record(r) for r in await self.db.fetch(queries()["alle_regels"], task_id)]

    async def lijst(
        self,
        *,
        status: Status | None = None,
        toegewezen_aan: str | None = None,
        limit: int = 50,
        nodig: str | None = None,
    ) -> list[Task]:
        records = await self.db.fetch(
            queries()["lijst"], status.value if status else None, toegewezen_aan, limit, nodig
        )
        return [task_from_record(r) for r in records]

    async def briefing_state(self, task_id: str, rows: int) -> BriefingState:
        """The task, its last rows, a count of the rest and the newest answer: index look-ups only."""
        task = await self.toon(task_id)
        newest_first = [log_row_from_record(r) for r in await self.db.fetch(queries()["laatste_regels"], task_id, rows)]
        counts = await self.db.fetch(queries()["telling"], task_id)
        answer = await self.db.fetchrow(queries()["laatste_antwoord"], task_id)
        return BriefingState(
            task=task,
            recent=newest_first[::-1],
            older=older_rows(counts, newest_first),
            answer=log_row_from_record(answer) if answer is not None else None,
        )

    async def _fenced(self, name: str, task_id: str, token: str, *values: Any) -> asyncpg.Record:
        """The row the statement `name` wrote for the lease `token` holds; refused, saying why, when it wrote none."""
        record = await self.db.fetchrow(queries()[name], task_id, check_token(token), *values)
        if record is None:
            task = await self.toon(task_id)
            if task.status != Status.BEZIG:
                raise Refused("not_bezig", id=task_id, status=task.status)
            raise Refused("stale_token", id=task_id)
        return record

    async def _refuse(self, key: str, task_id: str) -> NoReturn:
        """Refused with the task's status; an unknown ID is NotFound."""
        task = await self.toon(task_id)
        raise Refused(key, id=task_id, status=task.status)


def older_rows(counts: Sequence[asyncpg.Record], recent: Sequence[LogRow]) -> OlderRows:
    """Totals per kind minus the rows the briefing shows; `since` is the first row of the log."""
    per_soort = {Soort(r["soort"]): int(r["aantal"]) for r in counts}
    for row in recent:
        per_soort[row.soort] = per_soort.get(row.soort, 0) - 1
    shown_or_none = {soort: n for soort, n in per_soort.items() if n > 0}
    since = min((r["eerste"] for r in counts), default=None) if shown_or_none else None
    return OlderRows(per_soort=shown_or_none, since=since)
