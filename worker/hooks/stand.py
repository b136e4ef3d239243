"""Where a queue session stands (status and next step), kept in a small file beside its session files.

While a session holds its lease nobody else can change its task's status or next step (the owner's cancel
ends the session), so this file, written by the daemon at the claim and after each change the session makes
through it, is exact. It lets the queue session's prompt hook, which runs on every turn, answer without a
database connection. Outside a queue session nothing holds the task still, and the hook asks the database."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from worker.core.folders import loads, make_folder, write_private

STAND_FILE = "stand.json"


def stand_path(data_dir: Path, task_id: str) -> Path:
    return data_dir / "sessies" / task_id / STAND_FILE


def write_stand(
    data_dir: Path,
    task_id: str,
    *,
    status: str,
    volgende_stap: str | None,
    language: str = "nl",
    timezone: str = "Europe/Amsterdam",
) -> None:
    path = stand_path(data_dir, task_id)
    make_folder(path.parent)
    stand = {"id": task_id, "status": status, "volgende_stap": volgende_stap, "taal": language, "tijdzone": timezone}
    write_private(path, json.dumps(stand))


def read_stand(data_dir: Path, task_id: str) -> dict[str, Any] | None:
    from worker.core.folders import read_small_text

    try:
        data = loads(read_small_text(stand_path(data_dir, task_id)))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("status"), str) else None


def prompt_from_stand(path: str) -> int | None:
    """The prompt hook's fast path in a queue session: the daemon named the file on the command line, so
    nothing else (no settings, no database) is loaded. None when the file cannot be used."""
    import sys
    import time

    from worker.core.folders import read_small_text
    from worker.hooks.entry import record_hook_run
    from worker.hooks.lines import additional_context, where_we_are

    started = time.monotonic()
    sys.stdin.read()  # the hook input is not needed, but Claude Code expects it to be read
    try:
        stand_file = Path(path)
        stand = loads(read_small_text(stand_file))  # a FIFO put in its place would hang the turn
        # The session's own language when it has one (the daemon gives it its own), as its commands say theirs.
        from worker.core.language import spoken_language

        language = spoken_language(os.environ.get("TAAK_LANGUAGE")) or stand.get("taal", "nl")
        line = where_we_are(stand["id"], stand["status"], stand.get("volgende_stap"), language)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from worker.memory import lll

    data_dir = stand_file.parent.parent.parent  # <data>/sessies/<task>/stand.json
    zone = ZoneInfo(stand.get("tijdzone", "Europe/Amsterdam"))
    state = lll.render(lll.load(lll.lll_path(data_dir)), datetime.now(UTC), zone, language)
    print(additional_context("UserPromptSubmit", f"{state}\n{line}" if state else line))
    record_hook_run(data_dir, "prompt", stand["id"], os.environ.get("TAAK_BOT") or None, started)
    return 0
