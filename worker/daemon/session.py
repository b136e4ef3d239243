"""One Claude Code session as a subprocess: started in its own process group, its stdout kept byte for
byte, its stderr drained, watched for silence, total time, a lost lease and a shutdown."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import structlog
from anyio.abc import ByteReceiveStream, Process

from worker.core.folders import make_folder, open_private, write_all
from worker.core.launch import failed_line
from worker.core.model import DAEMON_STOP_SHARE, LAUNCHER_STOP_SHARE, Lease
from worker.core.outcome import STOP_OF_LEASE_GONE, Stop
from worker.core.session_plan import SessionPlan
from worker.core.stream import Result, parse_line
from worker.daemon.groups import TaskGroup
from worker.memory.archive import TIMES_DONE, TIMES_OPEN
from worker.proc import confirm_lease, kill_session, lease_clock, signal_group, supervised_argv

log = structlog.get_logger(__name__)

STDERR_KEEP = 8192
PIPE_DRAIN_SECONDS = 2
READ_CHUNK = 65536


@dataclass(frozen=True)
class Limits:
    silence_seconds: float
    total_seconds: float
    kill_grace_seconds: float
    lease_check_seconds: float
    max_line_bytes: int
    lease_seconds: float


@dataclass
class SessionReport:
    exit_code: int | None = None
    result: Result | None = None
    stop: Stop | None = None
    stderr_tail: str = ""
    spawn_error: str | None = None
    lines: int = 0


LeaseCheck = Callable[[bool], Awaitable[tuple[Lease, float | None]]]
"""Called every lease interval with "was there activity since the last call"; says where the lease stands and,
when the lease was extended, the lease clock's time from which it was (read before the extension was sent)."""


@dataclass
class _Live:
    """A session as its readers and its watcher see it while it runs."""

    limits: Limits
    lease_check: LeaseCheck
    shutdown: anyio.Event
    report: SessionReport
    held: int  # the lifeline's write end
    confirmed: float  # lease clock: the lease runs at least lease_seconds from here
    started: float = field(default_factory=time.monotonic)
    last_activity: float = field(default_factory=time.monotonic)
    active_since_check: bool = False
    closed_at: float | None = None  # when the session was seen to have closed its own task
    stop: Stop | None = None
    stderr: bytearray = field(default_factory=bytearray)

    def unconfirmed_too_long(self) -> bool:
        return lease_clock() > self.confirmed + DAEMON_STOP_SHARE * self.limits.lease_seconds


async def run_session(
    plan: SessionPlan,
    limits: Limits,
    lease_check: LeaseCheck,
    shutdown: anyio.Event,
    groups: TaskGroup,
    *,
    confirmed: float,
    started: Callable[[int], None] = lambda _pid: None,
) -> SessionReport:
    """`confirmed`: the lease clock's time from which the claim's lease runs; `started` is told the launcher's pid
    (the leader of the session's tree) once it runs."""
    report = SessionReport()
    make_folder(plan.raw_path.parent)
    # The session's lifeline: this process alone holds the write end, so its death, however it comes, closes
    # the pipe and the launcher kills the session; each confirmed lease goes down it too (worker/proc.py).
    lifeline, held = os.pipe()
    live = _Live(limits, lease_check, shutdown, report, held, confirmed)
    stop_by = confirmed + LAUNCHER_STOP_SHARE * limits.lease_seconds
    try:
        try:
            process = await anyio.open_process(
                supervised_argv(plan.argv, lifeline, stop_by=stop_by, umask=plan.umask),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=plan.cwd,
                env=plan.env,
                start_new_session=True,
                pass_fds=(lifeline,),
            )
        except OSError as exc:
            # Python names the working folder when it is what failed (TAAK_WORKDIR gone), else the program.
            failed = os.fspath(exc.filename) if exc.filename is not None else plan.argv[0]
            report.spawn_error = failed_line(exc.errno or 0, failed)  # said by outcome.launch_failure
            return report
        finally:
            os.close(lifeline)
        groups.add(process.pid)
        started(process.pid)
        try:
            await _supervise(process, plan, live)
        finally:
            # Every way out of here (an error, a cancelled daemon) takes the session's whole tree with it.
            with anyio.CancelScope(shield=True):
                kill_session(process.pid)
                with anyio.move_on_after(5):
                    await process.wait()
                groups.remove(process.pid)
    finally:
        os.close(held)
    return report


async def _supervise(process: Process, plan: SessionPlan, live: _Live) -> None:
    times_path = plan.raw_path.with_suffix(TIMES_OPEN)
    sinks = await anyio.to_thread.run_sync(lambda: [Sink(p) for p in (plan.raw_path, times_path, plan.stderr_path)])
    raw, times, err_file = sinks
    with raw, times, err_file:
        async with anyio.create_task_group() as watchers:
            watchers.start_soon(_watch, process, live)
            async with anyio.create_task_group() as readers:
                assert process.stdout is not None
                assert process.stderr is not None
                readers.start_soon(_read_stdout, process.stdout, raw, times, live)
                readers.start_soon(_drain_stderr, process.stderr, err_file, live)
                live.report.exit_code = await process.wait()
                # Whatever the session left running goes with it, so the pipes close. A process that left its
                # tree (a double fork) may still hold them open: read on briefly, then stop waiting.
                kill_session(process.pid)
                readers.cancel_scope.deadline = anyio.current_time() + PIPE_DRAIN_SECONDS
            watchers.cancel_scope.cancel()
    # The capture is complete: the archive may take it (when Claude Code kept no transcript of it).
    times_path.replace(plan.raw_path.with_suffix(TIMES_DONE))
    if live.stop is None and live.unconfirmed_too_long():
        live.stop = Stop.UNCONFIRMED  # its launcher stopped it while this daemon was frozen
    live.report.stop = live.stop
    live.report.stderr_tail = live.stderr.decode("utf-8", errors="replace")


class Sink:
    """A file of the session's output, appended to as it comes. A write that fails (a full disk) is said once and
    ends this file's copy, never the session: a copy with a gap in it would read as something else. The writes go to
    the page cache and are never fsynced (the archive reads the file when the session is over), so they stay on the
    event loop; opening the files is done in a worker thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def write(self, data: bytes) -> None:
        if self._fd is None:
            return
        try:
            write_all(self._fd, data)
        except OSError as exc:
            log.error("session_output_not_kept", path=str(self.path), reason=f"{exc.strerror or exc}")
            self.close()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Sink:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


async def _read_stdout(stream: ByteReceiveStream, raw: Sink, times: Sink, live: _Live) -> None:
    """Every byte to the raw file as it comes; beside it, when each line arrived (stream-json has no times)."""
    report = live.report
    pending = bytearray()
    overlong = False
    while True:
        try:
            chunk = await stream.receive(READ_CHUNK)
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            break
        raw.write(chunk)
        *ended, rest = chunk.split(b"\n")
        if ended:
            times.write(f"{time.time_ns() // 1_000_000}\n".encode() * len(ended))
        live.last_activity = time.monotonic()
        live.active_since_check = True
        for line in ended:
            if not overlong:
                _take_line(bytes(pending + line), report)
            pending.clear()
            overlong = False
        if not overlong:
            pending += rest
            if len(pending) > live.limits.max_line_bytes:
                # A line this long is kept in the raw file but not parsed.
                pending.clear()
                overlong = True
                report.lines += 1
    if pending and not overlong:
        _take_line(bytes(pending), report)


def _take_line(line: bytes, report: SessionReport) -> None:
    report.lines += 1
    if isinstance(event := parse_line(line), Result):
        report.result = event


async def _drain_stderr(stream: ByteReceiveStream, err_file: Sink, live: _Live) -> None:
    while True:
        try:
            chunk = await stream.receive(READ_CHUNK)
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError):
            return
        err_file.write(chunk)
        live.stderr += chunk
        del live.stderr[:-STDERR_KEEP]


def _stop_by_the_clock(live: _Live, now: float) -> Stop | None:
    """Why the session stops now, by the daemon's stop and the session's clocks; None: it goes on."""
    limits = live.limits
    if live.shutdown.is_set():
        return Stop.SHUTDOWN
    if live.closed_at is not None:
        # Its task is finished, blocked or released: the session is winding down; let it exit and print its
        # result line, within the kill grace.
        return Stop.LINGERED if now - live.closed_at > limits.kill_grace_seconds else None
    if now - live.last_activity > limits.silence_seconds:
        return Stop.SILENCE
    if now - live.started > limits.total_seconds:
        return Stop.TOTAL
    return Stop.UNCONFIRMED if live.unconfirmed_too_long() else None


async def _check_lease(process: Process, live: _Live, now: float) -> None:
    active, live.active_since_check = live.active_since_check, False
    lease, confirmed = await live.lease_check(active)
    if confirmed is not None:
        live.confirmed = confirmed
        confirm_lease(live.held, confirmed + LAUNCHER_STOP_SHARE * live.limits.lease_seconds)
    if lease in STOP_OF_LEASE_GONE:
        live.stop = STOP_OF_LEASE_GONE[lease]
    elif lease == Lease.CLOSED_BY_SESSION:
        log.info("task_closed_by_session", pid=process.pid)
        live.closed_at = now


async def _watch(process: Process, live: _Live) -> None:
    limits = live.limits
    tick = max(0.05, min(1.0, limits.silence_seconds / 4, limits.lease_check_seconds / 4))
    next_lease_check = time.monotonic() + limits.lease_check_seconds
    while live.stop is None:
        await anyio.sleep(tick)
        now = time.monotonic()
        live.stop = _stop_by_the_clock(live, now)
        if live.stop is None and live.closed_at is None and now >= next_lease_check:
            next_lease_check = now + limits.lease_check_seconds
            await _check_lease(process, live, now)
    log.info("session_stopping", stop=str(live.stop), pid=process.pid)
    if live.stop in (*STOP_OF_LEASE_GONE.values(), Stop.UNCONFIRMED):  # not one more step may happen
        kill_session(process.pid)
        return
    signal_group(process.pid, signal.SIGTERM)
    with anyio.move_on_after(limits.kill_grace_seconds):
        await process.wait()
        return
    log.warning("session_ignored_sigterm", pid=process.pid)
    kill_session(process.pid)
