"""Folders and files this program makes: the user's alone (0700, 0600), never written through a symlink, never a
FIFO or a device where a file is read (a read of either waits forever or never ends)."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PRIVATE_FILE = 0o600


def make_folder(path: Path, *, mode: int = 0o700) -> None:
    """Make a folder and its parents when missing. A file where the folder belongs is said as what it is, not a
    folder (ENOTDIR), where Python says `File exists` of a path the owner meant as a folder."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=mode)
    except FileExistsError as exc:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path)) from exc


class NotARegularFile(OSError):
    """A FIFO, a device or a folder where a regular file belongs."""

    reason_key = "file_not_regular"  # said by worker.core.catalogue.os_reason

    def __init__(self, path: Path | str) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


class NotPrivate(OSError):
    """A folder another user owns or may write in: that user could swap what the program writes there."""

    reason_key = "reason_not_private"

    def __init__(self, path: Path | str) -> None:
        super().__init__(errno.EPERM, "owned or writable by another user", str(path))


def open_private(path: Path, flags: int) -> int:
    """A regular file opened without following a symlink and without waiting on a FIFO; one this user made wider
    before is narrowed to the user alone."""
    fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(path)
        if flags & (os.O_WRONLY | os.O_RDWR) and stat.S_IMODE(status.st_mode) & 0o077:
            os.fchmod(fd, PRIVATE_FILE)
    except BaseException:
        os.close(fd)
        raise
    return fd


CHUNK = 1 << 20


def write_all(fd: int, data: bytes) -> None:
    """All of `data`, however many writes it takes; a write that takes nothing is a full disk."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


def read_regular(path: Path, limit: int, *, start: int = 0) -> tuple[bytes, int]:
    """At most `limit` bytes of the regular file at `path` from byte `start`, and the file's size. Opened without
    waiting (a FIFO with no writer would block the open itself), then refused unless it is a regular file: a FIFO
    waited for a writer for ever, and `/dev/zero` grew a hook to 4 GB in 15 seconds."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFile(path)
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
    """A small file this program wrote (a stand file, a task card, a briefing copy), as text."""
    return read_regular(path, limit)[0].decode("utf-8")


def loads(text: str | bytes) -> Any:
    """json.loads, with a text nested too deep for the parser said as what it is, JSON that cannot be read (a
    ValueError), not a RecursionError that ended whoever read it."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deep") from None


@contextlib.contextmanager
def said_of(path: Path) -> Iterator[None]:
    """An OSError that names no file (a write or an fsync on a full disk) named as one of `path`'s, so that it is
    said as the file it is (`bestand ...: de schijf is vol`), not as an internal error."""
    try:
        yield
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc


def write_private(path: Path, data: bytes | str) -> None:
    """The whole file at once: written to a new temporary file beside it (never an existing one, never a link)
    and renamed over the path, so a reader never sees half of it and a planted symlink is replaced, not
    followed."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    with said_of(path):
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(raw)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise


def make_private_folder(path: Path) -> None:
    """Make the folder when missing, and check it as check_private does (narrowed to 0700)."""
    make_folder(path)
    check_private(path)


def check_private(path: Path, *, narrow: bool = True) -> None:
    """Refuse a folder another user could swap things in: it must be this user's, and every folder above it this
    user's or root's, where no one else may rename it (writable by others only with the sticky bit, as /tmp; by
    the group only when the folder is this user's own, as a home folder of a user private group). A folder of ours
    that others may read or write is narrowed to 0700; one the user chose for a file of theirs (`narrow=False`:
    the registry's) is left as it is, unless others may write in it."""
    me = os.getuid()
    own = os.stat(path)
    if own.st_uid != me or (not narrow and own.st_mode & stat.S_IWOTH):
        raise NotPrivate(path)
    swappable = next((above for above in path.parents if _others_may_rename_in(os.stat(above), me)), None)
    if swappable is not None:
        raise NotPrivate(swappable)
    if narrow and stat.S_IMODE(own.st_mode) & 0o077:
        os.chmod(path, 0o700)


def _others_may_rename_in(status: os.stat_result, me: int) -> bool:
    """Someone else may rename what this folder holds: it is another user's (not root's), others may write in it
    without the sticky bit, or its group may write in it and it is not this user's."""
    others_may = status.st_mode & stat.S_IWOTH and not status.st_mode & stat.S_ISVTX
    group_may = status.st_mode & stat.S_IWGRP and status.st_uid != me
    return bool(status.st_uid not in (me, 0) or others_may or group_may)
