"""The process groups of the sessions this daemon runs, recorded so that none outlives the daemon.

A daemon killed with -9 cannot stop its sessions. The next daemon for the same bot@machine reads the
record of every earlier run that shared one of its bots (it holds those bots' locks, so that run is
dead) and kills the groups still alive before it gives the old claims back."""

from __future__ import annotations

from pathlib import Path

import structlog

from worker.proc import Group, kill_group_of_a_previous_run, process_start_time, read_groups, write_groups

log = structlog.get_logger("queue-worker")
SUFFIX = ".groups"


class SessionGroups:
    def __init__(self, folder: Path, holders: list[str]) -> None:
        self.folder = folder
        self.holders = holders
        self.path = folder / ("+".join(sorted(holders)) + SUFFIX)
        self.groups: dict[int, Group] = {}

    def add(self, pgid: int) -> None:
        self.groups[pgid] = Group(pgid, process_start_time(pgid) or 0.0)
        write_groups(self.path, list(self.groups.values()))

    def remove(self, pgid: int) -> None:
        self.groups.pop(pgid, None)
        write_groups(self.path, list(self.groups.values()))

    def sweep_previous_runs(self) -> int:
        """Kill what earlier runs of these bots left alive; returns how many processes were killed."""
        killed = 0
        for record in sorted(self.folder.glob(f"*{SUFFIX}")):
            if not set(record.name.removesuffix(SUFFIX).split("+")) & set(self.holders):
                continue
            for group in read_groups(record):
                found = kill_group_of_a_previous_run(group)
                if found:
                    log.warning("orphaned_session_killed", pgid=group.pgid, processes=found, record=record.name)
                killed += found
            record.unlink(missing_ok=True)
        return killed
