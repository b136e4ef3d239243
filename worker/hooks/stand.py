"""The queue session's prompt hook on its fast path: where the session stands, from the stand file the daemon
keeps (worker/core/session_files.py), with no settings and no database loaded."""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from worker.core.folders import loads, read_small_text
from worker.core.language import spoken_language
from worker.hooks.lines import additional_context, record_hook_run, where_we_are
from worker.memory import lll


def prompt_from_stand(path: str) -> int | None:
    """The prompt hook's fast path in a queue session: the daemon named the file on the command line, so
    nothing else (no settings, no database) is loaded. None when the file cannot be used."""
    started = time.monotonic()
    sys.stdin.read()  # the hook input is not needed, but Claude Code expects it to be read
    try:
        stand_file = Path(path)
        stand = loads(read_small_text(stand_file))  # a FIFO put in its place would hang the turn
        # The session's own language when it has one (the daemon gives it its own), as its commands say theirs.
        language = spoken_language(os.environ.get("TAAK_LANGUAGE")) or stand.get("taal", "nl")
        line = where_we_are(stand["id"], stand["status"], stand.get("volgende_stap"), language)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    data_dir = stand_file.parent.parent.parent  # <data>/sessies/<task>/stand.json
    state = _where_we_are_now(data_dir, stand.get("tijdzone", "Europe/Amsterdam"), language)
    print(additional_context("UserPromptSubmit", f"{state}\n{line}" if state else line))
    record_hook_run(data_dir, "prompt", stand["id"], os.environ.get("TAAK_BOT") or None, started)
    return 0


def _where_we_are_now(data_dir: Path, timezone: str, language: str) -> str:
    """The owner's open topics (worker/memory/lll.py); none when there are no events (most turns)."""
    if not (events := lll.load(lll.lll_path(data_dir))):
        return ""
    from zoneinfo import ZoneInfo  # start-up: the time zone only for topics to show

    return lll.render(events, datetime.now(UTC), ZoneInfo(timezone), language)
