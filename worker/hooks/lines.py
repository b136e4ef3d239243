"""The small texts hooks print, and the line each hook run leaves in hooks.log: importable without the settings
class, by every way a hook runs (the prompt hook's fast path, a queue session's, the owner's, a task's)."""

from __future__ import annotations

import errno
import json
import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from worker.core.catalogue import message, os_reason
from worker.core.folders import NotARegularFile, make_folder, open_private
from worker.core.terminal import clip, json_safe

HOOK_CONTEXT_LIMIT = 10_000  # above this Claude Code shows the model only a preview


class HookResult(NamedTuple):  # no dataclass: loading that module took longer than the rest of a hook
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0


class HookFailed(Exception):
    """A hook's failure already said in the run's language: shown as it is, without a class name."""


def additional_context(event: str, text: str) -> str:
    # Escaped the JSON way, as --json is: Claude Code reads back the same text, and a terminal that shows the
    # hook's output (`claude --debug`, a person trying the hook by hand) obeys no control character in it.
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json_safe(json.dumps(output, ensure_ascii=False))


def where_we_are(task_id: str, status: str, next_step: str | None, language: str) -> str:
    step = clip(" ".join((next_step or "-").split()), 300, " […]")
    return message("hook.where_we_are", "en" if language == "en" else "nl", id=task_id, status=status, step=step)


def hook_line(name: str, said: str) -> str:
    """What a hook says on stderr, named by the hook as every hook's line is (`taak hook NAME: ...`)."""
    prefix = f"taak hook {name}: "
    return said if not said or said.startswith(prefix) else prefix + said


def answered(name: str, result: HookResult, record: Callable[..., None]) -> int:
    """The hook's answer on stdout and its line on stderr, recorded by `record` (record_hook_run, all but the
    error and the exit code given)."""
    if result.stdout:
        try:  # flushed at once: a stdout that fails shows here, while it can be recorded
            sys.stdout.write(result.stdout if result.stdout.endswith("\n") else result.stdout + "\n")
            sys.stdout.flush()
        except OSError as exc:  # said by the command's guard (worker/cli/guard.py); recorded here as what it was
            record(error=f"taak hook {name}: stdout: {exc.strerror or exc}")
            raise
    said = hook_line(name, result.stderr)
    if said:
        print(said, file=sys.stderr)
    record(error=said or None, code=result.exit_code)
    return result.exit_code


def bug_line(exc: BaseException) -> str:
    """A failure that is none of ours, in one line: its class and its first line."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


def file_reason(exc: OSError, language: str) -> str:
    """Why a file could not be read, in the run's language, as every hook line says it. The reading itself is
    worker/core/folders.read_regular: regular files only, and never more of one than a hook can use."""
    if isinstance(exc.__cause__, OSError):  # said as what it was, not as what it was turned into
        exc = exc.__cause__
    if isinstance(exc, NotARegularFile):
        return message("file_not_regular", language)
    said = {errno.ENOENT: "file_missing", errno.EISDIR: "file_is_folder", errno.EACCES: "file_no_access"}
    key = said.get(exc.errno or 0)
    return message(key, language) if key else os_reason(exc, language)


def record_hook_run(
    data_dir: Path,
    name: str,
    task_id: str | None,
    bot: str | None,
    started: float,
    *,
    error: str | None = None,
    code: int = 0,
    stood_down: bool = False,
) -> None:
    """One JSON line per hook run in `hooks.log` under the data folder: what ops can tail. `stood_down`: a copy
    from ~/.claude in a queue session whose daemon's copy runs, which left the work to it."""
    try:
        make_folder(data_dir)
        record = {
            "ts": datetime.now(UTC).isoformat(),
            "hook": name,
            "task_id": task_id,
            "bot": bot,
            "ms": round((time.monotonic() - started) * 1000, 1),
            "exit_code": code,
            "error": error,
            "stood_down": stood_down,
        }
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")  # a lone surrogate
        descriptor = open_private(data_dir / "hooks.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # no symlink
        try:
            os.write(descriptor, line)
        finally:
            os.close(descriptor)
    except OSError:
        pass
