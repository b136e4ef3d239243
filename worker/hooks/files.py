"""Why a file a hook wanted could not be read, said as every hook line says it. The reading itself is
worker/core/folders.read_regular: regular files only, and never more of one than a hook can use."""

from __future__ import annotations

import errno

from worker.core.folders import NotARegularFile
from worker.core.phrases import message, os_reason


def file_reason(exc: OSError, language: str) -> str:
    """Why a file could not be read, in the run's language, as every hook line says it."""
    if isinstance(exc.__cause__, OSError):  # said as what it was, not as what it was turned into
        exc = exc.__cause__
    if isinstance(exc, NotARegularFile):
        return message("file_not_regular", language)
    said = {errno.ENOENT: "file_missing", errno.EISDIR: "file_is_folder", errno.EACCES: "file_no_access"}
    key = said.get(exc.errno or 0)
    return message(key, language) if key else os_reason(exc, language)
