"""The files a hook reads: regular files only, and never more of one than it can use. A hook runs inside a
session and must never hang or break it: a FIFO named as the transcript (or as the stand file) waited for a
writer for ever, and `/dev/zero` grew the hook to 4 GB in 15 seconds. Reading needs the standard library only."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

CHUNK = 1 << 20


class NotARegularFile(OSError):
    """A device, a FIFO or a socket where a file was named: never read."""


def read_regular(path: Path, limit: int, *, start: int = 0) -> tuple[bytes, int]:
    """At most `limit` bytes of the regular file at `path` from byte `start`, and the file's size. Opened without
    waiting (a FIFO with no writer would block the open itself), then refused unless it is a regular file."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(errno.EINVAL, "not a regular file", str(path))
        os.lseek(descriptor, start, os.SEEK_SET)
        chunks: list[bytes] = []
        left = limit
        while left > 0 and (chunk := os.read(descriptor, min(left, CHUNK))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks), info.st_size
    finally:
        os.close(descriptor)


def read_small_text(path: Path, limit: int = 1 << 20) -> str:
    """A small file the daemon wrote for the hooks (stand, task card, briefing copy), as text."""
    return read_regular(path, limit)[0].decode("utf-8")


def file_reason(exc: OSError, language: str) -> str:
    """Why a file could not be read, in the run's language, as every hook line says it."""
    from worker.core.phrases import message, os_reason  # not on the prompt hook's fast path, which reads only

    if isinstance(exc.__cause__, OSError):  # said as what it was, not as what it was turned into
        exc = exc.__cause__
    if isinstance(exc, NotARegularFile):
        return message("file_not_regular", language)
    said = {errno.ENOENT: "file_missing", errno.EISDIR: "file_is_folder", errno.EACCES: "file_no_access"}
    key = said.get(exc.errno or 0)
    return message(key, language) if key else os_reason(exc, language)
