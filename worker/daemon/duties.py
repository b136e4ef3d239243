"""The daemon's background duties: reaper, heartbeat, schema watch, intake, outbox, indexer and registry.

Each runs forever under the worker's supervisor (a failing duty is logged and started again) and
reaches the database only through `Outages.run`, so an outage is waited out and said once."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import anyio
import structlog

from worker.core.catalogue import message
from worker.core.folders import make_folder, write_private
from worker.core.machines import registry_json
from worker.daemon import outbox
from worker.daemon.channel import OwnerChannel, channels_of
from worker.daemon.gate import Running
from worker.daemon.lane import Lane
from worker.db import bots as bot_table
from worker.db import intake
from worker.db.ledger import Verlopen
from worker.db.machines import all_machines
from worker.db.migrate import newer_migrations, running_version, schema_newer_line
from worker.db.session_folders import finished_tasks
from worker.db.store import Store
from worker.memory.archive import prune_task_folders, quiet_task_folders
from worker.memory.fleet import copy_new
from worker.memory.layout import Layout

log = structlog.get_logger("queue-worker")
REAP_AT_ONCE = 100  # expired leases taken back per reaper turn


def _said_update(done: subprocess.CompletedProcess[bytes], files_skipped: list[str]) -> list[str]:
    """A run of `taak archief bijwerken` in the log; returns the found files it could not read (said when they
    change, not every few minutes)."""
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        log.error("archive_update_failed", exit_code=done.returncode, error=said[-1] if said else "")
        return files_skipped
    update = json.loads(done.stdout)
    unreadable = update.pop("unreadable", [])
    skipped_now = [path for path, _why in update.pop("files_skipped", [])]
    if skipped_now != files_skipped and skipped_now:
        log.warning("archive_files_skipped", files=skipped_now)
    if any(update.values()):
        # Lines that could not be read are skipped and counted, never fatal (`taak doctor` lists them).
        log.info("archive_updated", **update, unreadable=len(unreadable))
    return skipped_now


@dataclass
class Duties:
    store: Store
    db: Callable[[str, Callable[[], Awaitable[Any]]], Awaitable[Any]]
    running: dict[str, Running]
    bots: list[str]
    just_back: Callable[[], bool] = lambda: False  # the database came back from an outage within the reaper's grace
    # Migrations a newer version of taak applied: while there are any, the worker claims nothing.
    newer_schema: list[str] = field(default_factory=list)
    skills: frozenset[str] | None = None  # what the bots can do, as the last heartbeat read it (None: not yet)
    lane: Lane = field(default_factory=Lane)  # the one `db` runs each operation in (worker/daemon/lane.py)

    @cached_property
    def owner_channel(self) -> OwnerChannel:
        s = self.store.settings
        return OwnerChannel(self.store, self.db, channels_of(s), holder=f"{s.machine}:{os.getpid()}", lane=self.lane)

    def all(self) -> tuple[Callable[[], Awaitable[None]], ...]:
        return (
            self.reaper,
            self.heartbeat,
            self.schema_watch,
            self.registry_sync,
            self.outbox,
            self.intake,
            self.indexer,
            *self.owner_channel.duties(),
        )

    async def check_schema(self) -> None:
        """A newer version may migrate the database under a running daemon, which would then write what the newer
        schema no longer means: said once, with the upgrade, and no more claims (running sessions go on)."""
        newer = await self.db("schema", partial(newer_migrations, self.store.db))
        if newer and newer != self.newer_schema:
            log.error("schema_newer", reason=schema_newer_line(newer, self.store.settings.language))
        self.newer_schema = newer

    async def schema_watch(self) -> None:
        while True:  # the worker checked once before its first claim
            await anyio.sleep(self.store.settings.heartbeat_seconds)
            await self.check_schema()

    async def reaper(self) -> None:
        s = self.store.settings
        while True:

            async def extend_then_reap() -> list[Verlopen]:
                # Our own sessions are alive (we run them): their leases are extended first and never reaped
                # here, also right after an outage longer than the lease. One operation, so that its retry after
                # an outage always asks the database something: extending the leases of sessions that ended
                # meanwhile is no call at all, and must not pass for "the database is back".
                await self.extend_own_leases()
                # Every daemon that lost the database with us could not extend its leases either; they need a
                # moment to extend them and to write what their sessions said meanwhile (a `klaar` in a
                # journal). A restart is seen by the server's start time too; a database that refused
                # connections, or a network that was away, only here. The statement still runs (limit 0):
                # its answer is what says the database is back.
                return await self.store.tasks.verlopen(
                    backoff_base=s.retry_base_seconds,
                    backoff_max=s.retry_max_seconds,
                    limit=0 if self.just_back() else REAP_AT_ONCE,
                    own=list(self.running),
                    grace_seconds=s.reaper_grace_seconds,
                )

            verlopen_taken = await self.db("verlopen", extend_then_reap)
            for task in verlopen_taken:
                log.info("lease_verlopen", task_id=task.id, bot=task.bot, status=task.status)
            await anyio.sleep(s.reaper_seconds)

    async def extend_own_leases(self) -> None:
        for running in list(self.running.values()):
            if running.closed is None:
                await self.store.tasks.verleng(running.task_id, running.claim.token)

    async def heartbeat(self) -> None:
        while True:
            current = {r.claim.bot: task_id for task_id, r in self.running.items()}
            beat = partial(
                bot_table.heartbeat,
                self.store.db,
                self.bots,
                [current.get(bot) for bot in self.bots],
                machine=self.store.settings.machine,
                pid=os.getpid(),
                version=running_version(),
            )
            self.skills = await self.db("heartbeat", beat)
            await anyio.sleep(self.store.settings.heartbeat_seconds)

    async def intake(self) -> None:
        """Messages from the old queue table become tasks or log rows; off, said once, when it cannot run."""
        settings = self.store.settings
        columns = intake.columns_from(settings)
        found = await self.db("intake", partial(intake.prepare_table, self.store.db, columns, settings.language))
        if isinstance(found, str):
            log.info("intake_off", reason=found)
            return
        rules = await self.db("intake", partial(intake.rules_from, self.store.db, self.store.settings, found))
        if problem := intake.cutoff_problem(rules, self.store.settings.language):
            log.warning("intake_off", reason=problem)
            return
        log.info("intake_on", cutoff=rules.cutoff, open_statuses=sorted(rules.open_statuses or []))
        while True:
            active = await self.db("intake", partial(bot_table.active_bots, self.store.db, self.bots))
            take = partial(intake.take, self.store, active, columns, found, rules, self.store.settings.language)
            while await self.db("intake", take) == intake.BATCH:
                pass
            await anyio.sleep(self.store.settings.poll_seconds)

    async def outbox(self) -> None:
        """The knowledge sink (the owner's messages are the owner channel's duties); said once at start when there
        is neither."""
        s = self.store.settings
        if not outbox.kinds_to_send(s):
            if not self.owner_channel.channels:
                log.info("outbox_off", reason=message("outbox_off", s.language))
            return
        while True:
            await self.db("outbox", partial(outbox.send_due, self.store, s))
            await anyio.sleep(s.outbox_seconds)

    async def indexer(self) -> None:
        """Every few minutes: new lines into the lossless archive and its indexes, by `taak archief bijwerken`
        in a child process, so the embedding model (native code, ~100 MB) never lives in the daemon and a
        run's memory is given back when it ends."""
        command = [sys.executable, "-m", "worker.cli.taak", "archief", "bijwerken", "--json"]
        embed = [sys.executable, "-m", "worker.cli.taak", "archief", "vectoren", "--json"]
        s = self.store.settings
        env = {
            **s.environ,
            "TAAK_DATA_DIR": str(s.data_dir),
            "TAAK_TIMEZONE": s.timezone,
            "TAAK_SEMANTIC": str(s.semantic).lower(),
            "TAAK_SEMANTIC_ROWS": str(s.semantic_rows),
        }
        files_skipped: list[str] = []
        while True:
            done = await anyio.run_process(command, env=env, check=False)
            files_skipped = _said_update(done, files_skipped)
            if done.returncode == 0:  # every finished session's lines are in the archive now: its files may go
                await self.prune_sessions(files_skipped)
            if s.fleet_archive:
                await self.db("fleet archive", self._copy_to_fleet)
            if s.semantic:  # in a run of its own: new lines are searchable by word before they have a vector
                embedded = await anyio.run_process(embed, env=env, check=False)
                counts = json.loads(embedded.stdout) if embedded.returncode == 0 else {}
                if counts.get("embedded"):
                    log.info("archive_embedded", embedded=counts["embedded"], still=counts["to_embed"])
            await anyio.sleep(s.index_seconds)

    async def prune_sessions(self, files_skipped: list[str]) -> None:
        """The folders in `sessies/` of finished tasks, quiet for TAAK_SESSIONS_DAYS days, removed after an archive
        update that read them (one with a file the update could not read is kept, to be read later)."""
        s = self.store.settings
        layout = Layout(s.data_dir)
        now = time.time()
        quiet = await anyio.to_thread.run_sync(quiet_task_folders, layout, s.sessions_days, now)
        if not quiet:
            return
        finished = await self.db("sessions", partial(finished_tasks, self.store.db, quiet))
        going = [t for t in finished if not any(p.startswith(f"{layout.sessions / t}{os.sep}") for p in files_skipped)]
        removed, freed = await anyio.to_thread.run_sync(prune_task_folders, layout, going, s.sessions_days, now)
        if removed:
            log.info("sessions_pruned", folders=removed, bytes=freed, days=s.sessions_days)

    async def _copy_to_fleet(self) -> None:
        s = self.store.settings
        copied = await copy_new(self.store.db, Layout(s.data_dir).index, s.machine, keep_days=s.fleet_days)
        if copied.lines or copied.removed:
            log.info("fleet_archive_copied", lines=copied.lines, removed=copied.removed)

    async def registry_sync(self) -> None:
        """The registry as JSON in a local file, at start and every few minutes: the sync to every bot."""
        while True:
            found = await self.db("registry", partial(all_machines, self.store.db))
            text = json.dumps(registry_json(found), ensure_ascii=False, indent=2) + "\n"
            await anyio.to_thread.run_sync(_write_registry, self.store.settings.registry_path, text)
            await anyio.sleep(self.store.settings.registry_seconds)


def _write_registry(path: Path, text: str) -> None:
    make_folder(path.parent)
    if path.is_dir():  # said of the path the owner gave, not of a temporary file beside it
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    write_private(path, text)  # a new temporary file renamed over it: a planted symlink is replaced, not followed
