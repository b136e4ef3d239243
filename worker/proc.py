"""The POSIX-only process control, kept in one small place: process groups, signals, file locks, the
record of the session groups a daemon started, and the launcher that ties a session to its daemon's life
(`python -m worker.proc LIFELINE_FD STOP_BY UMASK -- ARGV...`, see `supervised_argv`). Below `db`, `memory` and
`daemon`: it imports only worker/core.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pwd
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from worker.core.folders import loads, make_folder, read_regular, write_private
from worker.core.launch import failed_line

PR_SET_DUMPABLE = 4
PEERCRED = getattr(socket, "SO_PEERCRED", 17)  # Linux
PEERCRED_SIZE = struct.calcsize("3i")
SOL_LOCAL, LOCAL_PEERPID = 0, 2  # macOS <sys/un.h>
PR_SET_CHILD_SUBREAPER = 36


def reader_gone(stream: IO[str]) -> bool:
    """Whether `stream` writes into a pipe nobody reads any more (`taak tail | head -3` after its three lines).
    A command that waits between writes learns it only here: the broken pipe would come with the next line,
    which may never come. poll() flags a pipe without a reader with POLLERR (Linux) or POLLHUP; where neither
    is given the command ends at its next write, as before."""
    try:
        descriptor = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(descriptor).st_mode):
            return False
        watch = select.poll()
        watch.register(descriptor, 0)  # no events asked for: the error and hang-up flags come regardless
        return any(flags & (select.POLLERR | select.POLLHUP) for _, flags in watch.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def signal_group(pid: int, sig: signal.Signals) -> bool:
    """Send `sig` to the process group led by `pid` (the session and every child it started)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class AlreadyRunning(Exception):
    pass


def default_lock_dir() -> Path:
    """One folder for every daemon of this user on this machine, whatever its environment: in the home folder the
    user database names (not `$HOME`), where nothing cleans up. The system's temporary folder followed `$TMPDIR`,
    so a shell with its own (pam_tmpdir) and a service without one took two locks for one bot and ran one task
    twice; and `/tmp` is emptied of files untouched for days (systemd-tmpfiles, macOS), lock files included."""
    return Path(pwd.getpwuid(os.getuid()).pw_dir) / ".local" / "state" / "taak" / "locks"


def bot_lock_path(bot: str, machine: str, folder: Path | None = None) -> Path:
    """Where the lock of one bot on this machine lives: one place for this user on this machine, whatever data
    folder a daemon was given, since a second daemon with another data folder (a `.env` of another folder) gave
    back the first one's running task as its own leftover and ran it beside it. `folder`: TAAK_LOCK_DIR."""
    folder = folder or default_lock_dir()
    make_folder(folder, mode=0o700)
    owner = folder.stat().st_uid
    if owner != os.getuid():  # made by someone else, who could then take or hold our locks
        raise AlreadyRunning(f"{folder} belongs to user {owner}")
    return folder / f"{bot}@{machine}.lock"


class InstanceLock:
    """An exclusive, non-blocking lock on a file; released by the kernel when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        make_folder(self.path.parent)
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            raise AlreadyRunning(holder or "another process") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None


@contextlib.contextmanager
def exclusive(path: Path) -> Iterator[None]:
    """Wait for an exclusive lock on a file and hold it for the block: one process at a time starts the
    embedded server, or writes the archive."""
    make_folder(path.parent)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# --- the session groups a daemon started ----------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """A claim a daemon holds and its session's process group: the task and the lease token it was claimed with,
    the group's leader (= the group id; 0 before the session starts) and when the leader started."""

    task: str
    token: str
    pgid: int = 0
    started: float = 0.0


def process_start_time(pid: int) -> float | None:
    """When a process started (seconds since the epoch), or None when it is gone: a pid alone can be reused."""
    import psutil

    try:
        return float(psutil.Process(pid).create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied, ProcessLookupError):
        return None


def write_groups(path: Path, groups: list[Group]) -> None:
    make_folder(path.parent)
    write_private(path, json.dumps([asdict(g) for g in groups]))


def read_groups(path: Path) -> list[Group]:
    """The record as written; ValueError for one that is not (damaged, another version's, a FIFO in its place)."""
    try:
        raw = loads(read_regular(path, 1 << 20)[0])
        return [Group(str(g["task"]), str(g["token"]), int(g["pgid"]), float(g["started"])) for g in raw]
    except (OSError, KeyError, TypeError) as exc:
        raise ValueError(str(exc)) from exc


def kill_group_of_a_previous_run(group: Group) -> int:
    """SIGKILL every process still in a recorded group that started no earlier than its leader (a reused
    pid or group id of someone else's process is older or in another group). Returns how many were killed."""
    import psutil

    killed = 0
    for process in psutil.process_iter(["pid", "create_time"]):
        try:
            if os.getpgid(process.pid) != group.pgid or process.info["create_time"] < group.started - 1:
                continue
            process.kill()
            killed += 1
        except (psutil.NoSuchProcess, psutil.AccessDenied, ProcessLookupError, PermissionError):
            continue
    return killed


def running_commands() -> list[tuple[int, str]]:
    """Every process of this machine with its command line (`ps`, the same on Linux and macOS)."""
    try:
        listed = subprocess.run(
            ["ps", "-axww", "-o", "pid=,args="], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    found = []
    for line in listed.stdout.splitlines():
        pid, _, args = line.strip().partition(" ")
        if pid.isdigit():
            found.append((int(pid), args.strip()))
    return found


def peer_pid(connection: socket.socket) -> int | None:
    """The pid of the process at the other end of a Unix socket, as the kernel says it: SO_PEERCRED on Linux,
    LOCAL_PEERPID on macOS; None elsewhere."""
    try:
        if sys.platform.startswith("linux"):
            pid, _uid, _gid = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, PEERCRED, PEERCRED_SIZE))
            return int(pid)
        if sys.platform == "darwin":
            return int(connection.getsockopt(SOL_LOCAL, LOCAL_PEERPID))
    except OSError:
        return None
    return None


def descends_from(pid: int, ancestor: int) -> bool:
    """`pid` is `ancestor` or runs below it. On Linux one read of /proc a generation: psutil's Process reads the
    same file twice and the boot time once for each (0.1 ms a generation, asked for every write of a session)."""
    if not sys.platform.startswith("linux"):
        return _descends_by_psutil(pid, ancestor)
    born = float("inf")
    try:
        while True:
            with open(f"/proc/{pid}/stat", "rb") as stat:  # `pid (name) state ppid ... starttime ...`
                values = stat.read().rpartition(b")")[2].split()
            parent, started = int(values[1]), int(values[19])
            if started > born:  # the child's parent died and its pid went to a younger process
                return False
            if pid == ancestor:
                return True
            if parent == 0:
                return False
            pid, born = parent, started
    except (OSError, ValueError, IndexError):
        return False


def _descends_by_psutil(pid: int, ancestor: int) -> bool:
    import psutil

    try:
        process: psutil.Process | None = psutil.Process(pid)
        while process is not None:
            if process.pid == ancestor:
                return True
            process = process.parent()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False
    return False


def make_undumpable() -> None:
    """Linux: no other process of this user can read the daemon's memory or /proc/<pid>/environ (which
    holds the database URL it was started with); a session runs as the same user. Root still can."""
    _prctl(PR_SET_DUMPABLE, 0)


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        import ctypes  # start-up: only the daemon and the launcher need it; every command that locks a file imports us

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


# --- the launcher: a session dies with its daemon, and stops before its lease can end ----------------


def lease_clock() -> float:
    """Seconds on a clock every process of this machine shares and that runs on while the machine sleeps (the
    database's clock does, and a lease ends by that one): CLOCK_BOOTTIME on Linux, CLOCK_MONOTONIC on macOS."""
    return time.clock_gettime(getattr(time, "CLOCK_BOOTTIME", time.CLOCK_MONOTONIC))


def supervised_argv(argv: list[str], lifeline: int, *, stop_by: float, umask: int) -> list[str]:
    """Start the session through a launcher that stays the leader of the session's process group and kills the
    session's whole tree the moment the daemon is gone, even by kill -9 (`lifeline` is the read end of a pipe
    whose write end only the daemon holds, so the kernel closes it when the daemon dies), or when the daemon has
    not confirmed the lease by `stop_by` (on lease_clock; the daemon sends each new time down the pipe, one per
    line): a daemon that is frozen (SIGSTOP, a stalled machine) must not leave its session running past its
    lease, beside the one another daemon starts. `umask`: the user's, for the agent (the daemon's own is 077)."""
    return [sys.executable, "-m", "worker.proc", str(lifeline), f"{stop_by:.3f}", f"{umask:03o}", "--", *argv]


def confirm_lease(held: int, stop_by: float) -> None:
    """Tell a session's launcher the new time by which it stops the session (see supervised_argv)."""
    with contextlib.suppress(OSError):  # the launcher is gone: the session has ended
        os.write(held, f"{stop_by:.3f}\n".encode())


def kill_session(leader: int) -> None:
    """SIGKILL a session's whole tree: its process group, and every process below its leader that left the group
    (the real Claude Code starts each tool call and hook in a process group of its own)."""
    kill_descendants(leader)  # first: the launcher itself may be the one killing, and dies with its group
    signal_group(leader, signal.SIGKILL)


def kill_descendants(pid: int) -> None:
    import psutil

    try:
        below = psutil.Process(pid).children(recursive=True)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return
    for child in below:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child.pid, signal.SIGKILL)


def _ignore(_signum: int, _frame: object) -> None:
    """The group's SIGTERM is meant for the agent; the launcher outlives it to report how the agent ended. A
    handler, unlike SIG_IGN, is not inherited by the agent."""


def _watch_lifeline(lifeline: int, stop_by: float) -> None:
    """Until the daemon is gone or late with its confirmation; then the whole session goes, this launcher too."""
    pending = b""
    while (left := stop_by - lease_clock()) > 0:
        try:
            ready, _, _ = select.select([lifeline], [], [], left)
            chunk = os.read(lifeline, 4096) if ready else None
        except InterruptedError:
            continue
        except OSError:
            break
        if chunk == b"":
            break  # the daemon is gone
        pending += chunk or b""
        *lines, pending = pending.split(b"\n")
        for line in lines:
            with contextlib.suppress(ValueError):
                stop_by = float(line)
    else:
        print("worker.proc: the daemon did not confirm the lease in time; session stopped", file=sys.stderr)
    kill_session(os.getpid())


def _launch(words: list[str]) -> None:
    lifeline, stop_by, umask, separator, *argv = words if len(words) >= 4 else ("", "", "", "")
    if separator != "--" or not argv or not lifeline.isdigit():
        sys.exit("usage: python -m worker.proc LIFELINE_FD STOP_BY UMASK -- ARGV...")
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _ignore)
    # Linux: what the session starts and then leaves (a tool call whose shell exited) stays below the launcher,
    # so kill_session still finds it, instead of going to init.
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    os.umask(int(umask, 8))
    # Watched before the agent starts: a daemon that died already is seen at once.
    threading.Thread(target=_watch_lifeline, args=(int(lifeline), float(stop_by)), daemon=True).start()
    try:
        agent = subprocess.Popen(argv)
    except OSError as exc:
        print(failed_line(exc.errno or 0, argv[0]), file=sys.stderr)  # the daemon says it in the run's language
        sys.exit(127)
    code = agent.wait()
    kill_descendants(os.getpid())  # what the session left running does not outlive it
    if code < 0:  # ended by a signal: end the same way, so the daemon reads the agent's own exit status
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        code = 128 - code  # a signal whose default is to carry on
    sys.exit(code)


if __name__ == "__main__":
    _launch(sys.argv[1:])
