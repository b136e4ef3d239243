"""The queue-worker: one task group per machine that claims, runs, keeps leases, reaps and reports.

Wiring only: the decisions live in `worker.core` (briefing, outcome), the SQL in `sql/queries.sql`,
the subprocess in `session.py`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from functools import partial
from pathlib import Path

import anyio
import asyncpg
import structlog

from worker.core.briefing import BriefingInput, Variant, build_briefing, system_prompt
from worker.core.catalogue import file_error_line, message
from worker.core.dsn import DatabaseUrl
from worker.core.errors import ExitCode, InvalidInput, Misconfigured, TaakError
from worker.core.folders import check_private, make_folder, make_private_folder, said_of, write_private
from worker.core.model import EXTEND_SHARE, Lease
from worker.core.outcome import Action, Observed, Outcome, decide, infra_pause, launch_failure
from worker.core.phrases import Phrase, os_phrase, phrase
from worker.core.poll import next_poll_wait
from worker.core.row_phrases import duration, phrase_json
from worker.core.session_files import SessionFiles, stand_path, write_stand
from worker.core.session_plan import SessionPlan, build_argv, build_env, session_env
from worker.core.session_plan import settings_json as hook_settings_json
from worker.core.stream import Result
from worker.core.table import dollars
from worker.core.wake import could_win
from worker.daemon import outbox
from worker.daemon.channel import unknown_address
from worker.daemon.duties import Duties
from worker.daemon.gate import SOCKET_PATH_MAX_BYTES, Gate, Running, SocketPathTooLong, reason_fields
from worker.daemon.groups import SessionGroups
from worker.daemon.journal import Journal, NotKept
from worker.daemon.lane import Lane
from worker.daemon.retry import DatabaseGone, Outages, backoff, said_error
from worker.daemon.session import LeaseCheck, Limits, SessionReport, run_session
from worker.db import bots as bot_table
from worker.db.briefing import briefing_source
from worker.db.connect import CONNECTION_ERRORS, alive, connect_one, create_pool
from worker.db.ledger import Claim, Ledger
from worker.db.migrate import SCHEMA_MISSING, migrate, running_version, schema_missing_line
from worker.db.migrate import status as migration_status
from worker.db.pooler import resolve_pooler
from worker.db.sqlfiles import Executor
from worker.db.store import Store
from worker.memory.archive import write_session_record
from worker.memory.layout import Layout
from worker.proc import AlreadyRunning, Group, InstanceLock, bot_lock_path, lease_clock, make_undumpable
from worker.settings import Settings, renamed_in_use

log = structlog.get_logger("queue-worker")

FINISH_DEADLINE_SECONDS = 60
# A pooled connection unused this long closes: what a burst of sessions opened is given back a minute after it,
# while the lane's one (every claim and duty, at least every TAAK_HEARTBEAT_SECONDS) stays.
IDLE_CONNECTION_SECONDS = 60.0
GIVE_BACK_WAIT_SECONDS = 10  # then the journal keeps the give-back and writes it when the database is back


class StartRefused(Exception):
    """The daemon cannot start as it is set up: one line, and the exit code a command would give for it."""

    def __init__(self, text: str, exit_code: ExitCode = ExitCode.REFUSED) -> None:
        super().__init__(text)
        self.exit_code = exit_code


class Worker:
    def __init__(
        self, settings: Settings, database: DatabaseUrl, *, once: bool = False, only_task: str | None = None
    ) -> None:
        if not settings.bots:  # a setting to mend, as `TAAK_BOTS=a/b` is: exit 2
            raise StartRefused(message("taak_bots_empty", settings.language), ExitCode.USAGE)
        self.settings = settings
        self.database = database
        self.once = once
        self.only_task = only_task  # `queue-worker demo`: the task it made, for its one bot, and no other
        self.bots = list(dict.fromkeys(settings.bots))
        self.holders = [f"{bot}@{settings.machine}" for bot in self.bots]
        self.locks: list[InstanceLock] = []  # taken at the start (_lock_instances)
        self.groups = SessionGroups(settings.data_dir / "locks", self.holders)
        label = "+".join(sorted(self.holders))
        self.journal_path = settings.data_dir / "journaal" / f"{label}.jsonl"
        self.socket_path = settings.sessions_socket_dir / f"{hashlib.sha256(label.encode()).hexdigest()[:10]}.sock"
        # Settings to mend, refused at the start as every other (exit 2), not at the first session.
        if len(os.fsencode(self.socket_path)) > SOCKET_PATH_MAX_BYTES:
            raise StartRefused(SocketPathTooLong(self.socket_path).render(settings.language), ExitCode.USAGE)
        if settings.workdir is not None and not settings.workdir.is_dir():
            said = message("setting_workdir_missing", settings.language, path=settings.workdir)
            raise StartRefused(message("bad_settings", settings.language, detail=said), ExitCode.USAGE)
        if (unknown := unknown_address(settings)) is not None:
            said = f"TAAK_NOTIFY_URLS: {message('setting_notify_url', settings.language, value=repr(unknown))}"
            raise StartRefused(message("bad_settings", settings.language, detail=said), ExitCode.USAGE)
        self.wake = anyio.Event()
        self.stopping = anyio.Event()  # stop claiming; let sessions finish
        self.force_stop = anyio.Event()  # terminate the sessions now
        self.running: dict[str, Running] = {}
        self.session_ended = anyio.Event()
        self.infra_failures = 0
        self.paused_until = 0.0
        self.skipping: str | None = None
        # on_back reads self.wake when it is called: the event is renewed after every wake.
        self.outages = Outages(self.force_stop, on_back=lambda: self.wake.set(), language=settings.language)
        self.claimed_once = False
        self.braked: dict[str, date] = {}  # the day each bot was last said to be at its brake
        # The bots that could claim at the last look that took nothing (switched on, not at their brake); None: any.
        # A notice for a task only the others could take wakes nothing until a look finds them back.
        self.claimable: list[str] | None = None
        self.pool: asyncpg.Pool | None = None
        self._store: Store | None = None
        self.gate: Gate | None = None
        self.duties: Duties | None = None
        self.journal_replayed = 0
        self.started = False  # worker_started was said
        self.previous_claims: list[Group] = []  # what a run before this one held, given back at the start
        self.user_umask = 0o022  # the user's own, read at the start
        self.suspended = False  # Ctrl-Z: nothing is claimed until the process is continued
        self.lane = Lane()  # the claim and the duties take turns: an idle daemon holds one pooled connection
        self.poll_wait = 0.0  # the next wait between claims in poll mode (worker/core/poll.py), 0: not yet

    # --- life cycle -------------------------------------------------------------------------------

    async def run(self) -> None:
        make_undumpable()
        # What the daemon writes is the user's alone (briefings hold opdrachten verbatim); the agent gets the user's
        # own umask back from its launcher (worker/proc.py).
        self.user_umask = os.umask(0o077)
        try:
            await self._run()
        finally:
            os.umask(self.user_umask)

    async def _run(self) -> None:
        self._make_session_folders()
        self._lock_instances()
        try:
            journal = await anyio.to_thread.run_sync(Journal, self.journal_path)
        except OSError as exc:  # a FIFO or a folder where the journal belongs, a journal no one can read
            raise StartRefused(file_error_line(exc, self.settings.language) or str(exc)) from None
        self.journal_replayed = len(journal.pending())  # read now: the forwarder may write some before the start line
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(self._signals, group.cancel_scope)
                self.pool = await self._wait_for_database()
                if self.pool is None:  # stopped before the database came
                    group.cancel_scope.cancel()
                    return
                self._store = Store(self.pool, self.settings)
                self.gate = Gate(
                    self.running,
                    journal,
                    lambda: self.ledger,
                    self.outages.run,
                    self.settings.data_dir,
                    self.settings.timezone,
                    self.settings.language,
                    self._briefing_source,
                    database_up=lambda: self.outages.ok,
                    backoff=(self.settings.retry_base_seconds, self.settings.retry_max_seconds),
                )
                await group.start(self.gate.serve, self.socket_path)
                group.start_soon(self._keep_running, self.gate.forward)
                await self._start_up()
                await self._serve(group)
        finally:
            journal.close()
            if self.pool is not None:
                with anyio.move_on_after(5, shield=True):
                    await self.pool.close()
            for lock in self.locks:
                lock.release()
            with contextlib.suppress(OSError):
                self.socket_path.unlink()
            if self.started or self.stopping.is_set():  # a refusal at start is its one line on stderr alone
                log.info("worker_stopped")  # also when stopped before the database ever came

    async def _wait_for_database(self) -> asyncpg.Pool | None:
        """A daemon started while the database is down waits for it (said once) instead of exiting."""
        failures = 0
        while not self.stopping.is_set():
            try:
                pool = await self._connect_unless_stopped()
                if pool is None:
                    return None
            except (InvalidInput, Misconfigured) as exc:  # it can never connect as set up: waiting would not mend it
                raise StartRefused(exc.render(self.settings.language), exc.exit_code) from None
            except (TaakError, *CONNECTION_ERRORS) as exc:
                if self.once:  # a run that must end (cron, a test): one round of TAAK_CONNECT_ATTEMPTS, then exit 4
                    raise
                failures += 1
                if failures == 1:
                    log.error("database_unreachable", during="start", error=said_error(exc, self.settings.language))
                with anyio.move_on_after(backoff(failures, 1, 30)):
                    await self.stopping.wait()
                continue
            if failures:
                log.info("database_back", during="start")
                self.outages.came_back()  # leases ran out meanwhile: the reaper's grace holds
            return pool
        return None

    async def _connect_unless_stopped(self) -> asyncpg.Pool | None:
        """One round of connect attempts (with their own retries), ended at once by a stop: None then."""
        found: list[asyncpg.Pool] = []
        failed: list[Exception] = []

        async def connect(scope: anyio.CancelScope) -> None:
            try:
                self.database = await resolve_pooler(self.settings, self.database)
                pool = create_pool(
                    self.settings,
                    self.database,
                    min_size=1,
                    max_size=self.settings.concurrency + 4,
                    idle_seconds=IDLE_CONNECTION_SECONDS,
                )
                found.append(await pool)
            except Exception as exc:  # raised below, outside the task group: not as an exception group
                failed.append(exc)
            scope.cancel()

        async with anyio.create_task_group() as group:
            group.start_soon(connect, group.cancel_scope)
            await self.stopping.wait()
            group.cancel_scope.cancel()
        if failed:
            raise failed[0]
        return found[0] if found else None

    async def _serve(self, group: anyio.abc.TaskGroup) -> None:
        assert self.pool is not None
        grace = self.settings.reaper_grace_seconds
        duties = Duties(
            self.store,
            lambda what, operation: self.outages.run(what, self.lane(operation)),
            self.running,
            self.bots,
            just_back=lambda: self.outages.settling(grace),
            lane=self.lane,
        )
        self.duties = duties
        await duties.check_schema()  # before the first claim
        for duty in duties.all():
            group.start_soon(self._keep_running, duty)
        if not self.once:
            group.start_soon(self._keep_running, self._listen)
        await self._claim_loop(group)
        await self._drain()
        group.cancel_scope.cancel()

    async def _listen(self) -> None:
        """Hand each `NOTIFY taak_nieuw` notice to `_heard` (an empty one: look at once, one may have been missed) over
        a dedicated connection, restored when it drops; poll mode (said once) through the Supabase transaction pooler
        or with TAAK_LISTEN off."""
        s, pooler = self.settings, self.database.is_transaction_pooler
        if pooler or not s.listen:
            reason = message("listen_pooler" if pooler else "listen_off", s.language)
            log.warning("listen_unavailable", mode="poll", poll_seconds=s.poll_seconds, reason=reason)
            return
        failures = 0
        while not self.stopping.is_set():
            try:
                conn = await connect_one(s, self.database, application_name="taak-listen")
            except (TaakError, *CONNECTION_ERRORS) as exc:
                failures += 1
                if failures == 1:
                    log.warning("listen_lost", error=said_error(exc, s.language))
                await anyio.sleep(backoff(failures, 0.5, 5))
                continue
            failures = await self._listen_on(conn, reconnected=failures > 0)

    async def _listen_on(self, conn: asyncpg.Connection, *, reconnected: bool) -> int:
        """Listen on one connection until it is lost (returns 1: a failure, for the backoff) or the daemon stops (0)."""
        s, lost = self.settings, anyio.Event()
        try:
            conn.add_termination_listener(lambda _conn: lost.set())
            await conn.add_listener("taak_nieuw", lambda _conn, _pid, _channel, notice: self._heard(notice))
            log.info("listening", channel="taak_nieuw", reconnected=reconnected)
            self._heard("")  # after any (re)connect, look at once: a notification may have been missed
            while not lost.is_set() and not self.stopping.is_set():
                with anyio.move_on_after(s.poll_seconds):
                    await lost.wait()
                if not lost.is_set():
                    await alive(conn, s.connect_timeout_seconds)
            if lost.is_set():
                log.warning("listen_lost", error=message("connection_closed", s.language))
                return 1
        except CONNECTION_ERRORS as exc:
            log.warning("listen_lost", error=said_error(exc, s.language))
            return 1
        finally:
            with anyio.move_on_after(2, shield=True):
                conn.terminate() if lost.is_set() else await conn.close()
        return 0

    def _heard(self, notice: str) -> None:
        """A task became claimable: wake the claim loop if it could win it (self.wake is renewed after every wake)."""
        bots = self.bots if self.claimable is None else self.claimable
        if could_win(notice, bots, self.duties.skills if self.duties is not None else None):
            self.wake.set()

    def _make_session_folders(self) -> None:
        """The folders the daemon writes in, made at start and refused when another user could swap what is in
        them (a socket folder made beforehand in /tmp by someone else would let that user see every token): a
        file in the way of one was found only at the first claim, an internal error that used up every task's
        attempts one after the other (tester 23). The registry's folder is the owner's choice: checked, not
        narrowed."""
        s = self.settings
        ours = [s.data_dir, self.groups.folder, Layout(s.data_dir).sessions, self.journal_path.parent]
        try:
            for folder in [*ours, s.sessions_socket_dir]:
                make_private_folder(folder)
            if s.registry_path.parent.is_dir():  # else its duty makes it, or says in one line why it cannot
                check_private(s.registry_path.parent, narrow=False)
        except OSError as exc:
            raise StartRefused(file_error_line(exc, s.language) or str(exc)) from None

    def _lock_instances(self) -> None:
        for bot, holder in zip(self.bots, self.holders, strict=True):
            try:
                lock = InstanceLock(bot_lock_path(bot, self.settings.machine, self.settings.lock_dir))
                lock.acquire()
            except AlreadyRunning as exc:
                raise StartRefused(
                    message("already_running", self.settings.language, holder=holder, detail=exc)
                ) from None
            except OSError as exc:  # the lock folder cannot hold it (full, read-only)
                raise StartRefused(file_error_line(exc, self.settings.language) or str(exc)) from None
            self.locks.append(lock)
        # Only now, holding the locks, is every recorded session group of these bots an orphan, and every recorded
        # claim one to give back.
        self.previous_claims = self.groups.sweep_previous_runs()

    @property
    def store(self) -> Store:
        """The daemon's one way to the database, made once the pool is there."""
        assert self._store is not None
        return self._store

    @property
    def ledger(self) -> Ledger:
        return self.store.tasks

    async def _briefing_source(self, task_id: str) -> BriefingInput:
        # Its five reads (the task, its last rows, the counts, the newest answer, the machines named) on one
        # borrowed connection, not one borrow each.
        async with self.store.connection() as store:
            return await briefing_source(store.tasks, task_id, self.settings)

    async def _start_up(self) -> None:
        try:
            await self._start_up_on_migrated()
        except SCHEMA_MISSING:
            url = self.settings.database.url if self.settings.database else None
            raise StartRefused(schema_missing_line(url, self.settings.language)) from None

    async def _start_up_on_migrated(self) -> None:
        assert self.pool is not None
        async with self.pool.acquire() as conn:
            if self.settings.database is None:
                await migrate(conn)  # the embedded database is private to this machine: keep it migrated
            pending = (await migration_status(conn)).pending
        if pending:
            raise StartRefused(message("not_migrated", self.settings.language, pending=len(pending)))
        await bot_table.register(self.pool, self.bots)
        await outbox.register_deliveries(self.pool, self.settings, self.holders)
        assert self.gate is not None
        # What sessions of an earlier run said lands first, with the tokens it was said with.
        await self.gate.drained()
        released = await self.ledger.eigen_claims_vrijgeven(
            [(claim.task, claim.token) for claim in self.previous_claims],
            phrase("row_released_at_restart", machine=self.settings.machine),
        )
        active = await bot_table.active_bots(self.pool, self.bots)
        for old, new in renamed_in_use(self.settings.environ):
            log.warning(
                "setting_renamed",
                old=old,
                new=new,
                reason=message("doctor.setting_renamed", self.settings.language, old=old, new=new),
            )
        log.info(
            "worker_started",
            bots=self.bots,
            active=active,
            machine=self.settings.machine,
            database=self.database.redacted,
            concurrency=self.settings.concurrency,
            released=released,
            journal_replayed=self.journal_replayed,
            socket=str(self.socket_path),
            version=running_version(),
        )
        self.started = True
        if not active:
            log.warning("no_bot_active", hint=message("hint_bot_on", self.settings.language, bot=self.bots[0]))

    async def _keep_running(self, duty: Callable[[], Awaitable[None]]) -> None:
        """A background duty that fails (a full disk, a bug) is logged and started again, not fatal. A file that
        fails (a registry path that cannot be written, a full disk) is one line in the daemon's language, said
        again only when the reason changes; anything else is a bug, with its traceback."""
        said_before = None
        while True:
            try:
                await duty()
                return
            except DatabaseGone:  # stopping while the database is away: what is unwritten stays in the journal
                return
            except Exception as exc:
                # The owner channel's duties are functools.partial objects: named by the function they call.
                name = str(getattr(getattr(duty, "func", duty), "__name__", duty))
                if (said := file_error_line(exc, self.settings.language)) is None:
                    log.exception("duty_failed", duty=name)
                elif said != said_before:
                    log.error("duty_failed", duty=name, reason=said)
                    said_before = said
                await anyio.sleep(self.settings.poll_seconds)

    async def _signals(self, scope: anyio.CancelScope) -> None:
        with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGTSTP) as received:
            async for signum in received:
                if signum == signal.SIGTSTP:
                    await self._suspend()
                elif not self.stopping.is_set():
                    log.info(
                        "shutdown_requested",
                        signal=signal.Signals(signum).name,
                        grace_seconds=self.settings.shutdown_grace_seconds,
                        running=list(self.running),
                    )
                    self.stopping.set()
                    self.wake.set()
                else:
                    log.warning("shutdown_now", signal=signal.Signals(signum).name)
                    self.force_stop.set()

    async def _suspend(self) -> None:
        """Ctrl-Z in a terminal: the sessions stop and their tasks go back to the queue first, then the process
        stops; `fg` resumes claiming. Stopped as it is, the daemon would confirm no lease, and its sessions would run
        on unwatched until their launchers killed them with their tasks still claimed."""
        log.info("suspend_requested", running=list(self.running))
        self.suspended = True
        self.force_stop.set()
        await self._until_idle()
        self.force_stop = self.outages.give_up = anyio.Event()
        log.info("suspended")
        os.kill(os.getpid(), signal.SIGSTOP)
        self.suspended = False
        log.info("resumed")
        self.wake.set()

    async def _drain(self) -> None:
        """Let running sessions finish within the grace period, then stop them (their tasks are released)."""
        with anyio.move_on_after(self.settings.shutdown_grace_seconds):
            await self._until_idle()
        if self.running:
            log.info("terminating_sessions", tasks=list(self.running))
            self.force_stop.set()
            await self._until_idle()

    async def _until_idle(self) -> None:
        while self.running:
            await self.session_ended.wait()
            self.session_ended = anyio.Event()

    # --- claiming ---------------------------------------------------------------------------------

    async def _claim_loop(self, group: anyio.abc.TaskGroup) -> None:
        while not self.stopping.is_set():
            if self.once and self.claimed_once:
                await self._until_idle()
                return
            took = await self._claim_free_slots(group)
            if self.once and not self.claimed_once:
                log.info("nothing_to_claim", bots=self.bots)
                return
            with anyio.move_on_after(self._next_wait(took)):
                await self.wake.wait()
            self.wake = anyio.Event()

    def _next_wait(self, took: bool) -> float:
        """Until the next look: the pause's end; with LISTEN, TAAK_POLL_SECONDS (a notice wakes it sooner); in poll
        mode a wait that grows while nothing is found (worker/core/poll.py)."""
        pause = self.paused_until - time.monotonic()
        if pause > 0:
            return pause
        if self.settings.listen and not self.database.is_transaction_pooler:
            return self.settings.poll_seconds
        self.poll_wait = next_poll_wait(self.poll_wait, took, self.settings.poll_seconds)
        return self.poll_wait

    async def _claim_free_slots(self, group: anyio.abc.TaskGroup) -> bool:
        """Claim while a slot is free; whether a task was taken."""
        took = False
        if self.duties is not None and self.duties.newer_schema:  # said by the duty that found it
            return took
        if time.monotonic() < self.paused_until:
            self._skipping(message("claim_paused", self.settings.language))
        while self._may_claim():
            session_id = str(uuid.uuid4())
            try:
                claimed = await self.outages.run(
                    "claim", self.lane(partial(self._claim, session_id)), abandon=self.stopping
                )
            except DatabaseGone:  # stopped during an outage: nothing is claimed after a stop
                return took
            if claimed is None:
                return took
            claim, confirmed = claimed
            if self.stopping.is_set() or self.suspended:  # the stop came while the claim was on its way: back unstarted
                await self._vrijgeven(claim, session_id, phrase("outcome_shutdown"))
                said = message("outcome_shutdown", self.settings.language)
                log.info("claim_vrijgegeven", task_id=claim.task.id, reason=said)
                return took
            took = self.claimed_once = True
            self.groups.claimed(claim.task.id, claim.token)
            self.running[claim.task.id] = self._running(claim, session_id)
            group.start_soon(self._run_task, claim, session_id, confirmed)
        return took

    def _may_claim(self) -> bool:
        """A free slot, no stop, no suspension or pause, and (with --once) nothing claimed yet."""
        return (
            len(self.running) < self.settings.concurrency
            and not self.stopping.is_set()
            and not self.suspended
            and time.monotonic() >= self.paused_until
            and not (self.once and self.claimed_once)
        )

    def _running(self, claim: Claim, session_id: str) -> Running:
        task = claim.task
        files = SessionFiles.of(Layout(self.settings.data_dir).sessions, task.id, task.pogingen, session_id)
        return Running(claim, session_id, files.briefing, volgende_stap=task.volgende_stap)

    async def _claim(self, session_id: str) -> tuple[Claim, float] | None:
        """The claim, and the lease clock's time from which its lease runs at least lease_seconds."""
        assert self.pool is not None
        # One borrowed connection for the claim and, when it took nothing, the look at why.
        async with self.pool.acquire() as conn:
            if self.stopping.is_set():  # the stop came while a connection was made (a database just back)
                return None
            confirmed, ledger = lease_clock(), self.store.on(conn).tasks
            if self.only_task is not None:
                claim = await ledger.claim_id(self.only_task, self.bots[0], sessie=session_id)
                return None if claim is None else (claim, confirmed)
            # The switch and the brake are read by the claim itself: a bot turned off finishes what it runs and
            # takes nothing new, and a notification becomes a claimed task in one round trip.
            claim = await ledger.claim(
                self.bots, sessie=session_id, still_running=list(self.running), only_switched_on=True
            )
            if claim is None:
                await self._nothing_taken(conn)
                return None
            self.skipping = self.claimable = None
            return claim, confirmed

    async def _nothing_taken(self, conn: Executor) -> None:
        """Say why, once, tell the owner of a bot that reached its brake, and keep which bots may claim."""
        days = await bot_table.days(conn, self.bots, usage_of_all=False)
        self.claimable = [day.bot for day in days if day.may_claim]
        if not any(day.actief for day in days):
            self._skipping(message("claim_no_bot_on", self.settings.language))
            return
        for day in days:
            if day.actief and day.geremd:
                await self._braked(day)
        if not self.claimable:
            self._skipping(message("claim_all_braked", self.settings.language))
            return
        self.skipping = None  # a bot may claim: the queue is empty for it

    async def _braked(self, day: bot_table.BotDay) -> None:
        """A bot at its brake claims nothing until local midnight; said once per day, and the owner is told once."""
        today = datetime.now(self.settings.zone).date()
        if self.braked.get(day.bot) == today:
            return
        self.braked[day.bot] = today
        text = message(
            "brake_reached",
            self.settings.language,
            bot=day.bot,
            sessions=day.sessies_vandaag,
            cost=f"{day.kosten_vandaag:.2f}",
            limits=bot_table.brake_limits(day.max_sessies, day.max_kosten, self.settings.language),
            raise_it=bot_table.raise_brake_option(day),
        )
        log.warning(
            "bot_braked", bot=day.bot, sessions=day.sessies_vandaag, cost=dollars(day.kosten_vandaag), reason=text
        )
        assert self.pool is not None
        await bot_table.tell_braked(self.pool, day.bot, text)

    def _skipping(self, reason: str) -> None:
        """Say once why the worker looked and claimed nothing (ops, and tests, wait on this instead of a sleep)."""
        if self.skipping != reason:
            self.skipping = reason
            log.info("claim_skipped", reason=reason)

    # --- one task ---------------------------------------------------------------------------------

    async def _run_task(self, claim: Claim, session_id: str, confirmed: float) -> None:
        task = claim.task
        structlog.contextvars.bind_contextvars(task_id=task.id, bot=claim.bot)
        try:
            try:
                plan = await self._plan(claim, session_id)
            except OSError as exc:  # this machine's files (a full disk): not the task's fault, nor an attempt
                if exc.filename is None:
                    raise
                failed = phrase("file_error", path=exc.filename, reason=os_phrase(exc))
                why = phrase("outcome_session_files", why=failed)
                await self._apply(claim, session_id, Outcome(Action.VRIJGEVEN, why, infrastructure=True))
                return
            log.info("session_start", session_id=session_id, attempt=task.pogingen, argv0=plan.argv[0])
            report = await run_session(
                plan,
                self._limits(),
                self._lease_check(claim, confirmed),
                self.force_stop,
                self.groups.of(task.id),
                confirmed=confirmed,
                started=partial(self._session_started, task.id),
            )
            log.info(
                "session_end",
                exit_code=report.exit_code,
                stop=report.stop,
                lines=report.lines,
                is_error=report.result.is_error if report.result else None,
            )
            # A deadline even here: a shutdown must not hang on a database that stays away (what is not written
            # goes to the journal, and the next start writes it).
            with anyio.move_on_after(FINISH_DEADLINE_SECONDS, shield=True):
                await self._finish(claim, session_id, report)
        except DatabaseGone:  # stopped before the session ran, the database away: it goes back, at the next start
            await self._ending_to_journal(claim, session_id)
        except Exception:
            log.exception("task_runner_failed")
            # The attempt counts, with the task's backoff: given back at once, a failure that comes again at
            # every claim ran the task again and again until the bot's brake stopped it for the day.
            with anyio.CancelScope(shield=True):
                try:
                    await self._apply(claim, session_id, Outcome(Action.RETRY_OR_FAIL, phrase("outcome_internal")))
                except TaakError:
                    pass  # the task is no longer this attempt's: the session closed it, or it was taken back
                except Exception:
                    log.exception("task_runner_failed")  # the lease runs out, and the reaper ends the attempt
        finally:
            self.running.pop(task.id, None)
            self.groups.ended(task.id)
            structlog.contextvars.unbind_contextvars("task_id", "bot")
            self.session_ended.set()
            self.wake.set()

    async def _plan(self, claim: Claim, session_id: str) -> SessionPlan:
        task = claim.task
        source = await self.outages.run(
            "briefing", partial(self._briefing_source, task.id), last_try_after=self.stopping
        )
        briefing = build_briefing(source, Variant.FULL)
        files = SessionFiles.of(Layout(self.settings.data_dir).sessions, task.id, task.pogingen, session_id)
        await anyio.to_thread.run_sync(partial(self._write_session_files, claim, session_id, files, source))
        extra = session_env(
            task_id=task.id,
            token=claim.token,
            bot=claim.bot,
            session_id=session_id,
            files=files,
            socket=self.socket_path,
            data_dir=self.settings.data_dir,
            timezone=self.settings.timezone,
            language=self.settings.language,
            machine=self.settings.machine,
        )
        argv = build_argv(
            self.settings.agent_cmd,
            self.settings.agent_argv,
            session_id=session_id,
            system_prompt=system_prompt(task, self.settings.language),
            prompt=briefing,
            settings_json=hook_settings_json(stand=stand_path(self.settings.data_dir, task.id)),
        )
        return SessionPlan(
            argv=argv,
            env=build_env(self.settings.environ, extra, taak_dir=Path(sys.executable).parent),
            cwd=self.settings.workdir or Path.home(),
            raw_path=files.capture,
            stderr_path=files.stderr,
            session_id=session_id,
            umask=self.user_umask,
        )

    def _session_started(self, task_id: str, leader: int) -> None:
        if (running := self.running.get(task_id)) is not None:
            running.leader = leader  # the gate answers only the processes of this session's tree
            running.launched.set()

    def _write_session_files(self, claim: Claim, session_id: str, files: SessionFiles, source: BriefingInput) -> None:
        """What a session's hooks and the archive read, written before it starts (in a worker thread: the disk)."""
        task, s = claim.task, self.settings
        card = {"id": task.id, "opdracht": task.opdracht, "klaar_wanneer": task.klaar_wanneer}
        with said_of(files.folder):
            make_folder(files.folder)
            write_stand(
                s.data_dir,
                task.id,
                status=task.status,
                volgende_stap=task.volgende_stap,
                language=s.language,
                timezone=s.timezone,
            )
            # The archive tags the session's transcript lines from this record.
            write_session_record(files.folder, files.stem, session=session_id, task=task.id, bot=claim.bot)
            write_private(files.briefing, build_briefing(source, Variant.FULL) + "\n")
            write_private(files.task_card, json.dumps(card, ensure_ascii=False))
            # The hooks' fallback when the database is away after a compaction: the variant that fits.
            write_private(files.compact_briefing, build_briefing(source, Variant.COMPACT) + "\n")

    def _limits(self) -> Limits:
        s = self.settings
        return Limits(
            silence_seconds=s.silence_timeout_seconds,
            total_seconds=s.session_timeout_seconds,
            kill_grace_seconds=s.kill_grace_seconds,
            # Often enough to extend a lease well before the share at which a session is stopped.
            lease_check_seconds=min(s.token_check_seconds, s.lease_extend_seconds, s.lease_seconds / 8),
            max_line_bytes=s.max_line_bytes,
            lease_seconds=s.lease_seconds,
        )

    def _lease_check(self, claim: Claim, confirmed: float) -> LeaseCheck:
        """Extend the lease when the session was active (at most once per TAAK_LEASE_EXTEND_SECONDS) or when half
        of it has passed since it was last confirmed, else only confirm it is still ours (a read); a token that is
        no longer current was either closed by the session itself (it is finishing) or lost."""
        task_id, token = claim.task.id, claim.token
        outage = False
        was_active = False
        extended = confirmed

        async def check(active: bool) -> tuple[Lease, float | None]:
            nonlocal outage, was_active, extended
            running = self.running.get(task_id)
            if running is not None:
                if running.closed is not None:  # the gate saw the session's own klaar/blokkeer/vrijgeven
                    return Lease.CLOSED_BY_SESSION, None
                active, running.wrote = active or running.wrote, False
            was_active = was_active or active
            now = lease_clock()
            due = now - extended >= self.settings.lease_extend_seconds
            halfway = now - extended >= EXTEND_SHARE * self.settings.lease_seconds
            try:
                if ((was_active and due) or halfway) and await self.ledger.verleng(task_id, token) is not None:
                    lease, confirmed_now = Lease.HELD, now
                    was_active, extended = False, now
                else:
                    lease, confirmed_now = await self.ledger.lease_stand(task_id, token), None
            except CONNECTION_ERRORS as exc:
                # An outage is not a lost lease: the session goes on until its lease is too long unconfirmed.
                if not outage:
                    log.warning("lease_extension_failed", error=said_error(exc, self.settings.language))
                outage = True
                return Lease.HELD, None
            if outage:
                log.info("lease_extension_recovered")
                outage = False
            if lease in LEASE_GONE_EVENT:
                # A lost lease is the daemon's error; the owner's cancel or take-back is routine.
                said = log.error if lease == Lease.LOST else log.info
                said(LEASE_GONE_EVENT[lease], next=message("lease_lost_stop", self.settings.language))
            return lease, confirmed_now

        return check

    async def _finish(self, claim: Claim, session_id: str, report: SessionReport) -> None:
        """Every session gets its result row, then the outcome is decided from the task as it stands. The
        result row goes into the journal at once, after the session's own writes: held in memory until the
        database came back, a `kill -9` (or the finish's deadline) during an outage lost it, and with it the
        session's cost and turns. When the worker is stopping and the database is away, the give-back goes to
        the journal too instead of being waited for: the next start writes them, in order."""
        task_id = claim.task.id
        assert self.gate is not None
        result = _result_row(report, session_id)
        kept = await self._journal(claim, session_id, "resultaat", {"tekst": result[0], "meta": result[1]})
        try:
            await self.gate.drained(task_id, stop_waiting=self.stopping)
            if not kept:  # the journal's disk is full: straight to the database, after the session's own rows
                await self.outages.run(
                    "resultaat",
                    lambda: self.ledger.resultaat(task_id, claim.token, result[0], sessie=session_id, meta=result[1]),
                    last_try_after=self.stopping,
                )
            task_after = await self.outages.run(
                "task_after", lambda: self.ledger.toon(task_id), last_try_after=self.stopping
            )
            outcome = decide(
                Observed(
                    token=claim.token,
                    exit_code=report.exit_code,
                    result=report.result,
                    stop=report.stop,
                    task_after=task_after,
                    stderr_tail=report.stderr_tail,
                    spawn_error=report.spawn_error,
                    close_refused=running.close_refused if (running := self.running.get(task_id)) else None,
                )
            )
            await self._apply(claim, session_id, outcome)
        except DatabaseGone:
            await self._ending_to_journal(claim, session_id)

    async def _ending_to_journal(self, claim: Claim, session_id: str) -> None:
        """The worker stops while the database is away: the attempt given back waits in the journal (after the
        result row, already there). Unjudged, the attempt is not the task's to pay; a task the session closed
        itself (klaar, blokkeer) stays closed, as the give-back names a token that is no longer current."""
        reason = reason_fields(phrase("row_stopped_database_away"))
        await self._journal(claim, session_id, "vrijgeven_poging_terug", reason)
        log.warning("ending_kept_in_journal", reason=message("ending_kept", self.settings.language))

    async def _journal(self, claim: Claim, session_id: str, op: str, fields: dict[str, object]) -> bool:
        """One of the daemon's own endings into the journal; False (said in the log) when it could not be kept."""
        assert self.gate is not None
        try:
            await self.gate.journal.append(op, claim.task.id, claim.token, claim.bot, session_id, fields)
        except NotKept as exc:
            log.error("journal_not_kept", op=op, reason=exc.render(self.settings.language))
            return False
        self.gate.new_entry.set()
        return True

    async def _apply(self, claim: Claim, session_id: str, outcome: Outcome) -> None:
        task_id = claim.task.id
        s = self.settings
        said = outcome.said(s.language)  # the log's words; the ledger's row keeps the Dutch and the phrase
        log.info("outcome", action=outcome.action, reason=said.splitlines()[0])
        self.infra_failures, pause = infra_pause(
            self.infra_failures, outcome, s.infra_pause_base_seconds, s.infra_pause_max_seconds
        )
        if pause:
            self.paused_until = time.monotonic() + pause
            log.warning("worker_paused", seconds=pause, reason=said, failures=self.infra_failures)
        if outcome.action == Action.VRIJGEVEN:
            await self._vrijgeven(claim, session_id, outcome.reason_phrase)
        elif outcome.action == Action.RETRY_OR_FAIL:
            try:
                status = await self.outages.run(
                    "attempt_failed",
                    lambda: self.ledger.poging_mislukt(
                        task_id,
                        claim.token,
                        reden=outcome.reason_phrase,
                        notitie=outcome.note,
                        sessie=session_id,
                        meta={"sessie": session_id},
                        backoff_base=self.settings.retry_base_seconds,
                        backoff_max=self.settings.retry_max_seconds,
                    ),
                    last_try_after=self.stopping,
                )
            except DatabaseGone:  # judged, not written: the journal keeps the judgement for the next start
                fields = {**reason_fields(outcome.reason_phrase), "notitie": outcome.note}
                await self._journal(claim, session_id, "poging_mislukt", fields)
                log.warning("ending_kept_in_journal", reason=message("ending_kept", s.language))
                return
            log.info("task_returned", status=status)

    async def _vrijgeven(self, claim: Claim, session_id: str, reason: Phrase) -> None:
        """The attempt given back; when the database does not take it soon (or the worker is stopping while it
        is away), the journal keeps it and writes it when the database is back."""
        written = False
        with anyio.move_on_after(GIVE_BACK_WAIT_SECONDS), contextlib.suppress(DatabaseGone):
            await self.outages.run(
                "vrijgeven",
                lambda: self.ledger.vrijgeven_poging_terug(claim.task.id, claim.token, reden=reason, sessie=session_id),
                last_try_after=self.stopping,
            )
            written = True
        if not written:
            await self._journal(claim, session_id, "vrijgeven_poging_terug", reason_fields(reason))


# The daemon's log event for a lease that is gone at a token check.
LEASE_GONE_EVENT = {
    Lease.LOST: "lease_lost",
    Lease.GEANNULEERD: "task_geannuleerd",
    Lease.TERUGGENOMEN: "lease_teruggenomen",
}


def _result_row(report: SessionReport, session_id: str) -> tuple[str, dict[str, object]]:
    """Every session's result row: its text, and the meta the brake and the cockpit count from (with the
    row's words as a phrase, said in each reader's language)."""
    said = _result_phrase(report)
    meta: dict[str, object] = {"sessie": session_id, "exit_code": report.exit_code, "stop": report.stop}
    if report.result is not None:
        meta.update(report.result.as_meta())
    return str(said), {**meta, "zin": phrase_json(said)}


def _ended(exit_code: int | None) -> Phrase | str:
    """How a session's process ended: its exit code, or the signal that ended it (`-9` was Python's way of
    saying SIGKILL, shown as such in the owner's log)."""
    if exit_code is None:
        return phrase("row_not_started")
    if exit_code < 0:
        with contextlib.suppress(ValueError):
            return phrase("row_signal", name=signal.Signals(-exit_code).name)
        return phrase("row_signal", name=str(-exit_code))
    return f"exit {exit_code}"


def _no_result_phrase(report: SessionReport) -> Phrase:
    """A session without a result line: how it ended, and why when that is known."""
    why: Phrase | str | None = (
        launch_failure(report.spawn_error or "")
        or report.spawn_error
        or (phrase("row_stopped", how=phrase(f"stop_{report.stop}")) if report.stop else None)  # stop_silence ...
    )
    ended = _ended(report.exit_code)
    return phrase("row_result_none_why", ended=ended, why=why) if why else phrase("row_result_none", ended=ended)


def _figures(result: Result) -> dict[str, object]:
    return {
        "turns": result.num_turns if result.num_turns is not None else "?",
        "duration": duration(result.duration_ms / 1000) if result.duration_ms is not None else "?",
        "cost": dollars(result.total_cost_usd) if result.total_cost_usd is not None else "?",
    }


def _result_phrase(report: SessionReport) -> Phrase:
    result = report.result
    if result is None:
        return _no_result_phrase(report)
    text = (result.text or result.subtype or "").strip()
    figures = _figures(result)
    key = "row_result_error" if result.is_error else "row_result"
    if not text:  # a result line that says nothing: no `: ` with nothing after it
        return phrase("row_result_error_no_text" if result.is_error else "row_result_no_text", **figures)
    return phrase(key, **figures, text=text if len(text) <= 1000 else text[:999] + "…")
