"""Folders this program makes for its files."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def make_folder(path: Path, *, mode: int = 0o777) -> None:
    """Make a folder and its parents when missing. A file where the folder belongs is said as what it is, not a
    folder (ENOTDIR), where Python says `File exists` of a path the owner meant as a folder."""
    try:
        path.mkdir(parents=True, exist_ok=True, mode=mode)
    except FileExistsError as exc:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path)) from exc
