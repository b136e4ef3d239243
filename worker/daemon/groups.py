"""The process groups of the sessions this daemon runs, recorded so that none outlives the daemon.

A daemon killed with -9 cannot stop its sessions. The next daemon for the same bot@machine reads the
record of every earlier run that shared one of its bots (it holds those bots' locks, so that run is
dead) and kills the groups still alive before it gives the old claims back."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path

import structlog

from worker.proc import Group, kill_group_of_a_previous_run, process_start_time, read_groups, write_groups

log = structlog.get_logger("queue-worker")
SUFFIX = ".groups"


class SessionGroups:
    """Every claim these bots hold on this machine, with its lease token and its session's process group, kept in a
    file of the user's: the next start kills what a crashed run left alive and gives its claims back by their
    tokens (a daemon's role may give back only what it can name with a token)."""

    def __init__(self, folder: Path, holders: list[str]) -> None:
        self.folder = folder
        self.holders = holders
        self.path = folder / ("+".join(sorted(holders)) + SUFFIX)
        self.claims: dict[str, Group] = {}
        self.unwritten = False  # the last write failed (said once)

    def claimed(self, task_id: str, token: str) -> None:
        self.claims[task_id] = Group(task_id, token)
        self._write()

    def ended(self, task_id: str) -> None:
        """The claim's ending is written (or kept in the journal): nothing of it is left to give back."""
        if self.claims.pop(task_id, None) is not None:
            self._write()

    def of(self, task_id: str) -> TaskGroup:
        """What run_session records its session's group through."""
        return TaskGroup(self, task_id)

    def sweep_previous_runs(self) -> list[Group]:
        """Kill what earlier runs of these bots left alive; the claims they held, to give back."""
        held: list[Group] = []
        for record in sorted(self.folder.glob(f"*{SUFFIX}")):
            if not set(record.name.removesuffix(SUFFIX).split("+")) & set(self.holders):
                continue
            try:
                groups = read_groups(record)
            except ValueError as exc:  # no claim can be named from it: those wait for their leases to run out
                log.error("claims_record_unreadable", record=record.name, reason=str(exc)[:200])
                groups = []
            for group in groups:
                found = kill_group_of_a_previous_run(group) if group.pgid else 0
                if found:
                    log.warning("orphaned_session_killed", pgid=group.pgid, processes=found, record=record.name)
            held += groups
            with contextlib.suppress(OSError):
                record.unlink()
        return held

    def _write(self) -> None:
        """A record that cannot be written (a full disk) costs only the quick give-back after a crash: those claims
        then wait for their leases to run out. Said once, not a reason to stop."""
        try:
            write_groups(self.path, list(self.claims.values()))
        except OSError as exc:
            if not self.unwritten:
                log.warning("claims_record_not_written", path=str(self.path), reason=exc.strerror or str(exc))
            self.unwritten = True
        else:
            self.unwritten = False


@dataclass(frozen=True)
class TaskGroup:
    groups: SessionGroups
    task_id: str

    def add(self, pgid: int) -> None:
        claim = self.groups.claims.get(self.task_id)
        if claim is not None:
            self.groups.claims[self.task_id] = replace(claim, pgid=pgid, started=process_start_time(pgid) or 0.0)
            self.groups._write()

    def remove(self, pgid: int) -> None:
        """The group is gone; the claim stays recorded until its ending is written."""
        claim = self.groups.claims.get(self.task_id)
        if claim is not None and claim.pgid == pgid:
            self.groups.claims[self.task_id] = replace(claim, pgid=0, started=0.0)
            self.groups._write()
