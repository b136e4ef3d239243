"""The POSIX-only process control, kept in one small place: process groups, signals, file locks."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import IO


def signal_group(pid: int, sig: signal.Signals) -> bool:
    """Send `sig` to the process group led by `pid` (the session and every child it started)."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


class AlreadyRunning(Exception):
    pass


class InstanceLock:
    """An exclusive, non-blocking lock on a file; released by the kernel when the process dies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
