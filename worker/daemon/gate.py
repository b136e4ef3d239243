"""The boundary between a queue session and its daemon (design section 12).

A session holds no database credentials. `taak log / klaar / blokkeer / vrijgeven / stap / toon / brief`
and the hooks inside it send one JSON line over a Unix socket (mode 0600) and read one back. The gate
checks the task and its lease token against what this daemon runs, appends every write to the
journal (fsync) before it answers, and the forwarder takes the journal to Postgres in order, through
outages. So the daemon knows at once that a session finished, blocked or released its own task, and
a write that was accepted is never lost.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import stat
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import anyio
import structlog
from anyio.abc import SocketAttribute, SocketStream
from anyio.streams.buffered import BufferedByteReceiveStream

from worker.core.briefing import Variant, build_briefing, with_first_action
from worker.core.catalogue import file_error_line, message, written
from worker.core.errors import ExitCode, InvalidInput, Refused, TaakError, Unreachable
from worker.core.folders import make_folder, write_private
from worker.core.model import SESSION_KINDS, VOLGENDE_STAP_MAX_CHARS, Soort, Status, check_text
from worker.core.phrases import Phrase, phrase
from worker.core.row_phrases import kept_phrase, phrase_json
from worker.core.session_files import SessionFiles, write_stand
from worker.core.show import plain, show_task, task_json
from worker.core.stream import result_meta
from worker.core.table import age
from worker.core.terminal import is_blank
from worker.daemon.journal import Entry, Journal, NotKept, Outcome
from worker.daemon.retry import DatabaseGone
from worker.db.connect import CONNECTION_ERRORS
from worker.db.ledger import Claim, Ledger, Reason
from worker.proc import descends_from, peer_pid

log = structlog.get_logger("queue-worker")
T = TypeVar("T")

# Room for two texts of TEXT_MAX_CHARS (klaar's evidence and text) however JSON escapes them (6 bytes a character).
REQUEST_MAX_BYTES = 4 * 1_048_576
REQUEST_READ_SECONDS = 10  # a client that connects and says nothing does not hold a connection forever
LAUNCH_WAIT_SECONDS = 10  # a session that speaks before the daemon knows its launcher: it is waited for this long
ANSWER_WAIT_SECONDS = 0.5  # a write not in the database by then is answered "kept" (the journal holds it)
BURST_QUIET_SECONDS = 0.05  # no new write for this long: a burst of writes ended (its copies are made again)
BURST_MAX_SECONDS = 1.0  # a burst that goes on: its copies are made again at least this often
READ_TIMEOUT_SECONDS = 1.0  # a read for a hook: then the daemon's own copy answers
SOCKET_PATH_MAX_BYTES = 103  # sun_path is 104 bytes on macOS (108 on Linux), with its closing NUL
CLOSING_OPS = {"klaar": Status.KLAAR, "blokkeer": Status.WACHT_OP_MENS, "vrijgeven": Status.WACHTEND}


@dataclass
class Running:
    """A session this daemon runs, as the gate and the lease keeper see it."""

    claim: Claim
    session_id: str
    briefing_file: Path
    closed: str | None = None  # the verb with which the session closed its own task
    close_refused: Phrase | None = None  # why the database refused that close, written from the journal later
    wrote: bool = False  # a write since the last lease check: activity, like output
    volgende_stap: str | None = None
    leader: int | None = None  # the session's launcher, once it runs: its tree is the session
    # Set with the leader. The session can speak before the daemon's task that started it runs again (a loaded
    # machine: 2 s and more), and its `taak klaar` was refused as another's and its task run a second time.
    launched: anyio.Event = field(default_factory=anyio.Event)
    stand: tuple[str, str | None] | None = None  # the status and next step the gate last wrote to the stand file

    @property
    def task_id(self) -> str:
        return self.claim.task.id


@dataclass(frozen=True)
class Answer:
    code: int = 0
    out: str = ""
    err: str = ""

    def line(self) -> bytes:
        return json.dumps({"code": self.code, "out": self.out, "err": self.err}, ensure_ascii=False).encode() + b"\n"


Retry = Callable[[str, Callable[[], Awaitable[T]]], Awaitable[T]]
Settling = tuple[anyio.Event, list[TaakError | None]]


@dataclass
class Gate:
    running: dict[str, Running]
    journal: Journal
    ledger: Callable[[], Ledger]
    retry: Retry[Any]
    data_dir: Path
    timezone: str
    language: str
    briefing_source: Callable[[str], Awaitable[Any]]
    database_up: Callable[[], bool] = lambda: True
    backoff: tuple[float, float] = (60.0, 3600.0)  # a released task waits before it is claimed again
    new_entry: anyio.Event = field(default_factory=anyio.Event)
    # A write a session waits for: set when the journal settled it, with the refusal if it was refused.
    _settled: dict[int, Settling] = field(default_factory=dict)

    # --- the socket -------------------------------------------------------------------------------

    async def serve(self, path: Path, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        listener = await open_socket(path)
        task_status.started()
        async with listener:
            await listener.serve(self._connection)

    async def _connection(self, stream: SocketStream) -> None:
        """One request, one answer. Nothing a client does (garbage, a line nested 2,000 deep, hanging up
        before the answer) may end the daemon: every failure here stays with this connection."""
        async with stream:
            try:
                answer = await self._answer(stream, peer_pid(stream.extra(SocketAttribute.raw_socket)))
            except Exception as exc:
                log.warning("gate_request_failed", error=f"{type(exc).__name__}: {exc}"[:300])
                answer = Answer(int(ExitCode.USAGE), err=f"bad request: {type(exc).__name__}")
            with contextlib.suppress(Exception):  # the client may be gone; what it wrote is kept regardless
                await stream.send(answer.line())

    async def _answer(self, stream: SocketStream, peer: int | None) -> Answer:
        try:
            with anyio.fail_after(REQUEST_READ_SECONDS):
                raw = await BufferedByteReceiveStream(stream).receive_until(b"\n", REQUEST_MAX_BYTES)
            request = json.loads(raw)
            if not isinstance(request, dict):
                raise ValueError("not a JSON object")
        except (anyio.EndOfStream, anyio.IncompleteRead, anyio.DelimiterNotFound, ValueError, RecursionError) as exc:
            # Said in the daemon's language: a request that cannot be read names none.
            why = f"{type(exc).__name__}: {str(exc)[:200]}"
            return Answer(int(ExitCode.USAGE), err=message("socket_bad_request", self.language, why=why))
        asked = request.get("taal")
        language = asked if asked in ("nl", "en") else self.language  # a client that names none: the daemon's own
        try:
            return await self.handle(request, language, peer)
        except TaakError as exc:
            return Answer(int(exc.exit_code), err=exc.render(language))

    # --- one request ------------------------------------------------------------------------------

    async def handle(self, request: dict[str, Any], language: str, peer: int | None) -> Answer:
        op = str(request.get("op", ""))
        running = await self._own(request, peer)
        if op == "taak":
            task = running.claim.task
            shown = {"id": task.id, "opdracht": task.opdracht, "volgende_stap": running.volgende_stap}
            return Answer(out=json.dumps(shown, ensure_ascii=False))
        if op in ("brief", "toon"):
            return await self._read(op, running, request, language)
        if running.closed is not None:
            raise Refused("closed_by_this_session", id=running.task_id, verb=running.closed)
        fields = _checked_fields(op, request)
        if op in CLOSING_OPS:  # at once: a write that comes while this one is made durable is refused
            running.closed = op
        try:
            entry = await self.journal.append(
                op, running.task_id, running.claim.token, running.claim.bot, running.session_id, fields
            )
        except NotKept:
            running.closed = None if op in CLOSING_OPS else running.closed
            raise
        running.wrote = True
        # Expected before anything else can let the forwarder settle it.
        waiting: Settling = (anyio.Event(), [])
        self._settled[entry.seq] = waiting
        self.new_entry.set()
        await self._keep_stand(running, op, fields)
        return await self._answer_when_written(entry, waiting, language)

    async def _own(self, request: dict[str, Any], peer: int | None) -> Running:
        """Only the session's own task, with its current token, asked by a process of that session's own tree
        (the peer's pid, from the kernel): another session of the same user that read the token (in a
        sibling's environment, in the journal) can read or change nothing of it."""
        task_id = str(request.get("id") or "")
        running = self.running.get(task_id)
        if running is None or request.get("token") != running.claim.token:
            raise Refused("not_own_task", id=task_id or "-")
        # The asking process must run below the session's launcher. Where the kernel names no peer (neither Linux
        # nor macOS), the token alone decides, as before.
        if peer is not None:
            if not running.launched.is_set():
                with anyio.move_on_after(LAUNCH_WAIT_SECONDS):  # its launcher's pid, which the daemon learns at start
                    await running.launched.wait()
            if running.leader is None or not descends_from(peer, running.leader):
                raise Refused("not_own_task", id=task_id or "-")
        return running

    async def _keep_stand(self, running: Running, op: str, fields: dict[str, Any]) -> None:
        """After the write is kept: a stand file that cannot be written (a full disk) is the hooks' loss, said in the
        log, never a kept write reported as failed."""
        if op == "stap":
            running.volgende_stap = fields["tekst"]
        status = CLOSING_OPS.get(op, Status.BEZIG)
        if running.stand == (status, running.volgende_stap):
            return  # the file says so already: a `taak log` changes neither
        stand = partial(
            write_stand,
            self.data_dir,
            running.task_id,
            status=status,
            volgende_stap=running.volgende_stap,
            language=self.language,
            timezone=self.timezone,
        )
        try:
            await anyio.to_thread.run_sync(stand)
        except OSError as exc:
            log.warning("stand_not_written", task_id=running.task_id, reason=file_error_line(exc, self.language))
        else:
            running.stand = (status, running.volgende_stap)

    async def _answer_when_written(self, entry: Entry, waiting: Settling, language: str) -> Answer:
        done, outcome = waiting
        # While the database is away the journal is the answer at once; else wait briefly for the write.
        with anyio.move_on_after(ANSWER_WAIT_SECONDS if self.database_up() else 0):
            await done.wait()
        self._settled.pop(entry.seq, None)
        refusal = outcome[0] if outcome else None
        if refusal is not None:  # said in the session's language; the journal keeps the ledger's Dutch
            return Answer(int(refusal.exit_code), err=refusal.render(language))
        running = self.running.get(entry.task_id)
        # The ledger fails a task given back on its last attempt; the claim's own counts say so (the owner cannot
        # change them while a session holds the task).
        used_up = running is not None and running.claim.task.pogingen >= running.claim.task.max_pogingen
        said = written(entry.op, language, entry.task_id, entry.fields.get("soort"), used_up=used_up)
        if not outcome:  # done, only later: what it did, and that it waits for the database
            return Answer(out=message("kept_in_journal", language, said=said))
        return Answer(out=said)

    async def _read(self, op: str, running: Running, request: dict[str, Any], language: str) -> Answer:
        """From the database when it answers quickly, else (brief) the daemon's last copy, said honestly."""
        variant = Variant.COMPACT if request.get("compact") else Variant.FULL
        try:
            with anyio.fail_after(READ_TIMEOUT_SECONDS):
                if op == "toon":
                    shown = await self._toon(running.task_id, bool(request.get("json")), language)
                    waiting = [] if request.get("json") else self._waiting_lines(running, language)
                    return Answer(out=self._with_waiting(shown, waiting, language))
                # In the language the session asks in, as everything else it is told (the daemon passes its own).
                source = replace(await self.briefing_source(running.task_id), language=language)
                text = build_briefing(source, variant)
        except CONNECTION_ERRORS:
            if op == "toon":
                raise Unreachable("daemon_no_database", id=running.task_id) from None  # exit 4, as everywhere
            return Answer(out=await self._briefing_from_copy(running, variant, language))
        if waiting := self._waiting_lines(running, language):
            # The database is back and the journal not yet written to it (a few seconds): the database alone
            # told the session its steps of before the outage and its old first action. Not kept as the copy,
            # which would lack these lines once they are written.
            if running.volgende_stap:
                text = with_first_action(text, running.task_id, running.volgende_stap)
            return Answer(out=self._with_waiting(text, waiting, language))
        await self._keep_copy(_copy_path(running.briefing_file, variant), text)
        return Answer(out=text)

    def _waiting_lines(self, running: Running, language: str) -> list[str]:
        """The session's writes the journal holds and the database does not have yet, as the briefing's own log
        lines read (`10:41 stap klaar, ...`): the rows these will be, not the journal's operations."""
        zone = ZoneInfo(self.timezone)
        waiting = [e for e in self.journal.pending() if e.task_id == running.task_id]
        return [" ".join(f"{_local_time(e.gezegd, zone)} {_as_row(e, language)}".split()) for e in waiting]

    @staticmethod
    def _with_waiting(text: str, waiting: list[str], language: str) -> str:
        if not waiting:
            return text
        return "\n".join([message("journal_waiting", language, waiting=len(waiting)), *waiting, text])

    async def _toon(self, task_id: str, as_json: bool, language: str) -> str:
        ledger = self.ledger()
        task = await ledger.toon(task_id)
        rows = await ledger.log_rows(task_id)
        if not as_json:
            return show_task(task, rows, ZoneInfo(self.timezone), language)
        shown = task_json(task)
        shown["log"] = [plain(asdict(row)) for row in rows]
        return json.dumps(shown, ensure_ascii=False, indent=2)

    async def _briefing_from_copy(self, running: Running, variant: Variant, language: str) -> str:
        text, mtime = await anyio.to_thread.run_sync(_read_copy, _copy_path(running.briefing_file, variant))
        if running.volgende_stap:  # a step set since the copy was made (waiting or written) is the first action
            text = with_first_action(text, running.task_id, running.volgende_stap)
        zone = ZoneInfo(self.timezone)
        made = datetime.fromtimestamp(mtime, zone) if mtime is not None else None
        waiting = self._waiting_lines(running, language)
        note = message(
            "briefing_from_copy",
            language,
            id=running.task_id,
            waiting=len(waiting),
            made=f"{made:%H:%M}" if made else "?",
            age=age((datetime.now(zone) - made).total_seconds(), language) if made else "?",
        )
        return "\n".join([note, *waiting, text])

    # --- the journal to Postgres ------------------------------------------------------------------

    async def forward(self) -> None:
        """Every accepted write to the database, each task's in order, the tasks side by side (a lane each, on a
        connection of its own, so that their commits share the database's fsyncs); an entry of an earlier run is
        looked up first. A task's briefing copies are made again after a write that follows a quiet second, and
        after a burst of writes (nothing written for a moment, or each second of a long one), when the settle lines
        go to disk too: once a burst, not once a write."""
        state = _Forwarding({e.seq for e in self.journal.pending()})
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._bursts, state)
                while True:
                    for entry in _oldest_each(self.journal.pending(), state.on_way):
                        state.on_way.add(entry.task_id)
                        group.start_soon(self._lane, entry, state)
                    await self.new_entry.wait()
                    self.new_entry = anyio.Event()
        except* DatabaseGone:  # stopping while the database is away: what is unwritten stays in the journal
            raise DatabaseGone("journal") from None

    async def _lane(self, entry: Entry, state: _Forwarding) -> None:
        """A task's entries one after another, until none is left: a write that comes meanwhile needs no new lane."""
        task_id, following = entry.task_id, [entry]
        try:
            while following:
                await self._forward_one(following[0], state)
                following = [e for e in self.journal.pending() if e.task_id == task_id]
        finally:
            state.on_way.discard(task_id)

    async def _forward_one(self, entry: Entry, state: _Forwarding) -> None:
        attempts = _attempts(self.ledger, entry, entry.seq in state.earlier, self.backoff)
        result, refusal = await self.retry("journal", attempts)
        if refusal is None:
            self.journal.settled(entry)  # its line goes out with the next ones written
        else:  # the journal's words, as the ledger's, are Dutch
            await self.journal.settle(entry, result, refusal.render("nl"))
            self._refused(entry, refusal)
        waiting = self._settled.get(entry.seq)
        if waiting is not None:
            waiting[1].append(refusal)
            waiting[0].set()
        await self._copies_after_write(entry.task_id, state)  # a refused one too: the writes before it landed

    async def _copies_after_write(self, task_id: str, state: _Forwarding) -> None:
        """A write after a quiet second: its copies are made again at once (the database may go away next). One
        in a burst: when the burst ends, or each second of it."""
        now = anyio.current_time()
        if self.pending_for(task_id) or now - state.refreshed.get(task_id, -math.inf) < BURST_MAX_SECONDS:
            state.written.add(task_id)
            state.last = now
            if math.isinf(state.began):
                state.began = now
                state.burst.set()
            return
        state.refreshed[task_id] = now
        await self._refresh_copies(task_id)

    async def _bursts(self, state: _Forwarding) -> None:
        """The end of each burst: nothing written for a moment and nothing waiting, or a second of it gone by.
        Asleep between bursts, and no wake-up for each write in one."""
        while True:
            await state.burst.wait()
            await anyio.sleep(BURST_QUIET_SECONDS)
            now = anyio.current_time()
            quiet = now - state.last >= BURST_QUIET_SECONDS and not self.pending_for(None)
            if quiet or now - state.began >= BURST_MAX_SECONDS:
                await self._after_burst(state)
                if not state.written:
                    state.burst = anyio.Event()

    async def _after_burst(self, state: _Forwarding) -> None:
        await self.journal.flush()
        # A task with a write still waiting for the database keeps its copy: that write, once it lands, makes the
        # copy again (_copies_after_write). Kept here instead, it held the burst open through an outage.
        done = sorted(task_id for task_id in state.written if not self.pending_for(task_id))
        state.written.clear()
        for task_id in done:
            state.refreshed[task_id] = anyio.current_time()
            await self._refresh_copies(task_id)
        state.refreshed = {task_id: at for task_id, at in state.refreshed.items() if task_id in self.running}
        state.began = anyio.current_time() if state.written else math.inf  # writes that came during the copies

    def _refused(self, entry: Entry, refusal: TaakError) -> None:
        """The owner took the task back, or cancelled it: the ledger's rule at work, which the session was told,
        not a failure of the daemon's (an error each time the owner cancels reads as one)."""
        said = refusal.render(self.language)  # the log's words are the daemon's language
        where = {"task_id": entry.task_id, "bot": entry.bot, "op": entry.op, "seq": entry.seq}
        log.warning("journal_write_refused", **where, reason=said)
        running = self.running.get(entry.task_id)
        if entry.op in CLOSING_OPS and running is not None and running.claim.token == entry.token:
            running.close_refused = refusal.as_phrase()

    async def _refresh_copies(self, task_id: str) -> None:
        """After a session's writes reached the database, its briefing copies show them: the hooks' fallback
        when the database is away later is then the latest state, not the one at the claim."""
        running = self.running.get(task_id)
        if running is None or running.closed is not None:  # a closed task's story is told; nobody needs a copy
            return
        try:
            with anyio.fail_after(READ_TIMEOUT_SECONDS):
                source = await self.briefing_source(task_id)
        except CONNECTION_ERRORS:
            return  # the copy stays as it was; the next write tries again
        for variant in (Variant.FULL, Variant.COMPACT):
            await self._keep_copy(_copy_path(running.briefing_file, variant), build_briefing(source, variant))

    async def _keep_copy(self, path: Path, text: str) -> None:
        """A briefing copy is the hooks' fallback: one that cannot be written leaves the older one, said in the log."""
        try:
            await anyio.to_thread.run_sync(write_private, path, text + "\n")
        except OSError as exc:
            log.warning("briefing_copy_not_written", path=str(path), reason=file_error_line(exc, self.language))

    async def drained(self, task_id: str | None = None, *, stop_waiting: anyio.Event | None = None) -> None:
        """Wait until the accepted writes (of one task, or all: at start, the earlier run's) reached the
        database or were refused. DatabaseGone when `stop_waiting` is set while the database is away: the
        writes stay in the journal for the next start."""
        while self.pending_for(task_id):
            if stop_waiting is not None and stop_waiting.is_set() and not self.database_up():
                raise DatabaseGone("journal")
            self.new_entry.set()
            await anyio.sleep(0.05)

    def pending_for(self, task_id: str | None) -> int:
        return sum(1 for e in self.journal.pending() if task_id is None or e.task_id == task_id)


@dataclass
class _Forwarding:
    """What the forwarder keeps between entries."""

    earlier: set[int]  # the seqs of an earlier run: each may have reached the database before it died
    on_way: set[str] = field(default_factory=set)  # tasks with an entry on its way to the database
    written: set[str] = field(default_factory=set)  # tasks with writes in the database since their copies were made
    began: float = math.inf  # when the first write of this burst reached the database
    last: float = math.inf  # when the last write of this burst reached the database
    burst: anyio.Event = field(default_factory=anyio.Event)  # set while a burst goes on
    refreshed: dict[str, float] = field(default_factory=dict)  # when each task's copies were last made


def _oldest_each(pending: list[Entry], on_way: set[str]) -> list[Entry]:
    """The oldest pending entry of each task that has none on its way: a task's entries go one after another."""
    seen, oldest = set(on_way), []
    for entry in pending:
        if entry.task_id not in seen:
            seen.add(entry.task_id)
            oldest.append(entry)
    return oldest


def _attempts(
    ledger: Callable[[], Ledger], entry: Entry, from_earlier_run: bool, backoff: tuple[float, float]
) -> Callable[[], Awaitable[Any]]:
    tries = 0

    async def once() -> tuple[Outcome, TaakError | None]:
        nonlocal tries
        tries += 1
        # A retry after a lost connection, or an entry of a run that died, may have reached the database.
        if (from_earlier_run or tries > 1) and await ledger().journaal_bekend(entry.task_id, entry.sleutel):
            return "geschreven", None
        try:
            await apply(ledger(), entry, backoff)
        except TaakError as exc:
            return "geweigerd", exc
        except (KeyError, TypeError, ValueError):
            # An entry this version cannot read (damaged by hand, or written by another version): retried, it
            # held every later line back, and the start waited for it through any SIGTERM (tester 23). It stays
            # in the journal's file, settled as refused, with the traceback in the log.
            log.exception("journal_entry_unusable", task_id=entry.task_id, bot=entry.bot, op=entry.op, seq=entry.seq)
            return "geweigerd", InvalidInput("journal_entry_unusable", op=entry.op, seq=entry.seq)
        return "geschreven", None

    return once


def reason_fields(reden: Phrase) -> dict[str, Any]:
    """A reason of the system's own as the journal keeps it: its Dutch text and its phrase."""
    return {"reden": str(reden), "zin": phrase_json(reden)}


def _reason(fields: dict[str, Any]) -> Reason:
    """The reason a journal entry gives: the system's phrase when it kept one, else the text as typed."""
    return kept_phrase(fields["reden"], fields.get("zin")) or fields["reden"]


async def apply(ledger: Ledger, entry: Entry, backoff: tuple[float, float] = (60.0, 3600.0)) -> None:
    f, meta, (base, maximum) = entry.fields, entry.meta(), backoff
    kw: dict[str, Any] = {"token": entry.token}
    if entry.op == "log":
        await ledger.log(
            entry.task_id, Soort(f["soort"]), f["tekst"], sessie=entry.sessie, meta={**f["meta"], **meta}, **kw
        )
    elif entry.op == "klaar":
        await ledger.klaar(entry.task_id, f["bewijs"], f["tekst"], sessie=entry.sessie, meta=meta, **kw)
    elif entry.op == "blokkeer":
        urgent = {"dringend": True} if f.get("dringend") else {}
        await ledger.blokkeer(entry.task_id, f["vraag"], sessie=entry.sessie, meta={**meta, **urgent}, **kw)
    elif entry.op == "vrijgeven":
        await ledger.vrijgeven(
            entry.task_id, entry.token, _reason(f), meta=meta, backoff_base=base, backoff_max=maximum
        )
    elif entry.op == "stap":
        await ledger.stap(entry.task_id, f["tekst"], meta=meta, **kw)
    # The daemon's own endings, kept when it stopped while the database was away (never a session's: the
    # gate accepts only the verbs above from a session).
    elif entry.op == "resultaat":  # the session's result row: for its own claim, whoever holds the task by then
        checked = result_meta(f["meta"])  # the journal is a file the session's user can write
        await ledger.resultaat(entry.task_id, entry.token, f["tekst"], sessie=entry.sessie, meta={**checked, **meta})
    elif entry.op == "vrijgeven_poging_terug":
        await ledger.vrijgeven_poging_terug(entry.task_id, entry.token, reden=_reason(f), sessie=entry.sessie)
    elif entry.op == "poging_mislukt":
        await ledger.poging_mislukt(
            entry.task_id,
            entry.token,
            reden=_reason(f),
            notitie=f["notitie"],
            sessie=entry.sessie,
            meta={"sessie": entry.sessie, **meta},
            backoff_base=base,
            backoff_max=maximum,
        )
    else:
        raise InvalidInput("unknown_op", op=entry.op)


def _text_field(request: dict[str, Any], name: str, default: str = "") -> str:
    """A field the session sends as text: a number, a list or an object there is refused, never stored as its
    Python form (`{'a': 1}` as evidence)."""
    value = request.get(name)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise InvalidInput("not_text", what=name)
    return value


def _checked_fields(op: str, request: dict[str, Any]) -> dict[str, Any]:
    """The same rules the ledger applies, checked before the write is accepted into the journal."""
    text = _text_field(request, "tekst")
    if op == "log":
        soort = _text_field(request, "soort")
        if soort not in {s.value for s in SESSION_KINDS}:
            allowed = ", ".join(sorted(SESSION_KINDS))
            raise InvalidInput("unknown_soort", value=soort, allowed=allowed)
        return {"soort": soort, "tekst": check_text(text, "tekst"), "meta": _session_meta(soort, request.get("meta"))}
    if op == "klaar":
        bewijs = _text_field(request, "bewijs")
        if is_blank(bewijs):
            raise Refused("no_evidence", id=str(request.get("id")))
        return {"bewijs": check_text(bewijs, "bewijs"), "tekst": check_text(text, "tekst", required=False)}
    if op == "blokkeer":
        return {"vraag": check_text(text, "vraag"), **_urgent(request)}
    if op == "vrijgeven":
        if request.get("reden") in (None, ""):
            return reason_fields(phrase("row_released_by_session"))
        return {"reden": check_text(_text_field(request, "reden"), "reden")}
    if op == "stap":
        return {"tekst": check_text(text, "volgende stap", max_chars=VOLGENDE_STAP_MAX_CHARS)}
    raise InvalidInput("unknown_op", op=op)


def _urgent(request: dict[str, Any]) -> dict[str, Any]:
    """`--dringend`: the question goes to the owner at once (worker/core/owner_channel.py)."""
    if request.get("dringend") not in (None, True):
        raise InvalidInput("not_a_switch", what="dringend")
    return {"dringend": True} if request.get("dringend") else {}


# What a session may say beside a row: its compaction's files and trigger, and the phrase of a compaction row (its
# hooks write those). What the daemon derives (cost, result, times, the system's other phrases) never comes from a
# session: a cost of -99,999,999 in a session's meta defeated the daily brake.
SESSION_META_TEXTS = frozenset({"rapport", "samenvatting", "trigger"})
SESSION_PHRASES = frozenset({"row_compact_report", "row_summary_cut"})
SESSION_META_MAX_BYTES = 4096
TRIGGERS = frozenset({"auto", "manual", "onbekend"})  # as Claude Code names a compaction's (hooks/reports.trigger_of)


def _session_meta(soort: str, meta: object) -> dict[str, Any]:
    if meta is None:
        return {}
    allowed = ", ".join(sorted(SESSION_META_TEXTS))
    if not isinstance(meta, dict) or len(json.dumps(meta, ensure_ascii=False)) > SESSION_META_MAX_BYTES:
        raise InvalidInput("session_meta_refused", name="meta", allowed=allowed, limit=SESSION_META_MAX_BYTES)
    for key, value in meta.items():
        if not _meta_allowed(soort, key, value):
            raise InvalidInput("session_meta_refused", name=key, allowed=allowed, limit=SESSION_META_MAX_BYTES)
    return meta


def _meta_allowed(soort: str, key: str, value: object) -> bool:
    """A text a session may give (a trigger only as Claude Code names one), or a compaction's phrase."""
    text = key in SESSION_META_TEXTS and isinstance(value, str) and (key != "trigger" or value in TRIGGERS)
    phrased = isinstance(value, dict) and value.get("sleutel") in SESSION_PHRASES
    return text or (key == "zin" and soort == Soort.COMPACT and phrased)


def _local_time(iso: str, zone: Any) -> str:
    try:
        return f"{datetime.fromisoformat(iso).astimezone(zone):%H:%M}"
    except ValueError:
        return iso[11:16]


# The log kind each of a session's writes becomes in the ledger (`log` names its own).
ROW_OF_OP = {"klaar": "klaar", "blokkeer": "vraag", "vrijgeven": "vrijgegeven", "resultaat": "notitie"}


def _as_row(entry: Entry, language: str) -> str:
    """A journal entry as the briefing shows a log row: its kind in words, then what it says."""
    f = entry.fields
    if entry.op == "stap":
        return f"notitie, {phrase('row_next_step', step=f['tekst']).said(language)}"
    kind = str(f.get("soort") or ROW_OF_OP.get(entry.op, entry.op)).replace("_", " ")
    said = next((str(f[key]) for key in ("tekst", "vraag", "bewijs", "reden") if f.get(key)), "")
    if entry.op in ("vrijgeven", "resultaat"):
        kept = kept_phrase(said, f.get("zin") or f.get("meta", {}).get("zin"))
        said = kept.said(language) if kept is not None else said
    return f"{kind}, {said}" if said else kind


def _read_copy(copy: Path) -> tuple[str, float | None]:
    """A briefing copy's text and when it was made; nothing for one that is not there."""
    if not copy.is_file():
        return "", None
    return copy.read_text(encoding="utf-8").rstrip("\n"), copy.stat().st_mtime


def _copy_path(briefing_file: Path, variant: Variant) -> Path:
    files = SessionFiles.from_briefing(briefing_file)
    return files.compact_briefing if variant == Variant.COMPACT else files.briefing


async def open_socket(path: Path) -> Any:
    """A Unix socket only this user can open; a stale one of an earlier run (we hold its locks) is replaced."""
    _make_room_for(path)
    listener = await anyio.create_unix_listener(path)
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    return listener


def _make_room_for(path: Path) -> None:
    if len(os.fsencode(path)) > SOCKET_PATH_MAX_BYTES:
        raise SocketPathTooLong(path)
    make_folder(path.parent)
    os.chmod(path.parent, stat.S_IRWXU)
    path.unlink(missing_ok=True)


class SocketPathTooLong(Exception):
    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(self.render("en"))

    def render(self, language: str) -> str:
        length = len(os.fsencode(self.path))
        return message("socket_too_long", language, path=self.path, length=length, limit=SOCKET_PATH_MAX_BYTES)
