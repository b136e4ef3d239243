"""The hooks of a queue session (TAAK_SOCKET set): they ask the session's daemon, never the database.

Standard library only: a hook runs on every prompt. A hook never breaks the session: when the daemon
does not answer, it says what it can from the files the daemon wrote (the compact briefing), logs the
failure in hooks.log, and exits 0.
"""

from __future__ import annotations

import os
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker.core.catalogue import message
from worker.core.folders import loads, read_small_text
from worker.core.language import early_language
from worker.core.session_files import SessionFiles, read_stand
from worker.hooks.lines import (
    HOOK_CONTEXT_LIMIT,
    HookResult,
    additional_context,
    answered,
    bug_line,
    file_reason,
    record_hook_run,
    where_we_are,
)
from worker.hooks.reports import (
    briefing_from_file,
    save_summary,
    summary_for_the_log,
    summary_instructions,
    trigger_of,
    write_report,
)

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

HOOK_ANSWER_SECONDS = 2  # a hook waits this long for its daemon, then says what its own files know


class NoAnswer(Exception):
    pass


def run(name: str, payload: dict[str, Any], *, unreadable_input: str | None = None) -> int:
    """`unreadable_input`: what was wrong with the hook's input, said in place of the handler's complaint (the
    handler runs on an empty input: pre-compact steers the summary whatever it was given)."""
    started = time.monotonic()
    try:
        result = HANDLERS[name](payload)
    except NoAnswer as exc:  # its words are the daemon's or say why it could not be asked
        result = HookResult(stderr=f"taak hook {name}: {exc}")
    except Exception as exc:  # a hook never breaks a session
        result = HookResult(stderr=f"taak hook {name}: {bug_line(exc)}")
    if unreadable_input is not None:
        result = HookResult(result.stdout, f"taak hook {name}: {unreadable_input}")
    task, bot = os.environ.get("TAAK_ID"), os.environ.get("TAAK_BOT")
    return answered(
        name, result, partial(record_hook_run, _data_dir(), name, task, bot, started, code=result.exit_code)
    )


def ask(op: str, **fields: Any) -> dict[str, Any]:
    """One request to the daemon for the session's own task; raises NoAnswer when it cannot be had."""
    from worker.client import exchange, no_daemon  # start-up: the socket only for a hook that asks the daemon

    request = {"op": op, "id": os.environ.get("TAAK_ID"), "token": os.environ.get("TAAK_TOKEN"), **fields}
    request["taal"] = early_language()
    socket_path = os.environ.get("TAAK_SOCKET", "")
    try:
        answer = exchange(socket_path, request, timeout=HOOK_ANSWER_SECONDS)
    except (OSError, ValueError) as exc:
        raise NoAnswer(no_daemon(socket_path, exc, early_language())) from exc
    if not isinstance(answer, dict) or answer.get("code") != 0:
        raise NoAnswer(str(answer.get("err") if isinstance(answer, dict) else answer))
    return answer


def session_start(payload: dict[str, Any]) -> HookResult:
    if payload.get("source") != "compact":
        # startup: the briefing is the prompt. resume: the resumed conversation already holds the briefing or
        # the block injected after its last compaction (another copy would stack), and the prompt hook says
        # where the task stands every turn.
        return HookResult()
    try:
        text, problem = str(ask("brief", compact=True)["out"]), ""
    except NoAnswer as exc:
        text, problem = _copy_said_as_such(), message("hook_briefing_from_file", early_language(), reason=exc)
    return HookResult(additional_context("SessionStart", text[: HOOK_CONTEXT_LIMIT - 1]), problem)


def pre_compact(payload: dict[str, Any]) -> HookResult:
    task_id, language = os.environ.get("TAAK_ID", ""), early_language()
    steering = _steering(task_id, language)  # first: the summary is steered even when everything below fails
    path_value = payload.get("transcript_path")
    if not isinstance(path_value, str) or not path_value:
        return HookResult(steering, message("hook_no_transcript", language))
    session, zone = payload.get("session_id"), _zone()
    try:
        report = write_report(
            Path(path_value), _data_dir() / "rapporten", session=session, language=language, zone=zone
        )
    except OSError as exc:  # a transcript that is gone, a folder or a FIFO: said as a file's failure, steered still
        said = message("file_error", language, path=exc.filename or path_value, reason=file_reason(exc, language))
        return HookResult(steering, said)  # as outside a queue session: said, and the session goes on
    if report.error:
        return HookResult(steering, report.error, 1)  # never 2: that would block the compaction
    if report.path is not None:
        text, meta = report.row(trigger_of(payload))
        try:
            ask("log", soort="compact", tekst=text, meta=meta)
        except NoAnswer as exc:
            return HookResult(steering, message("hook_report_not_logged", language, path=report.path, reason=exc))
    return HookResult(steering, report.note)


def _zone() -> ZoneInfo | None:
    """The household's time zone, which the daemon passes its session: report times as recall shows them."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # start-up: only for a report

    try:
        return ZoneInfo(os.environ.get("TAAK_TIMEZONE") or "Europe/Amsterdam")
    except (ValueError, ZoneInfoNotFoundError):
        return None


def post_compact(payload: dict[str, Any]) -> HookResult:
    saved = save_summary(payload, _data_dir(), early_language())
    if isinstance(saved, HookResult):
        return saved
    path, text = saved
    row, said = summary_for_the_log(text, path)
    ask("log", soort="compact", tekst=row, meta={"samenvatting": str(path), "trigger": trigger_of(payload), **said})
    return HookResult()


def prompt(payload: dict[str, Any]) -> HookResult:
    task_id = os.environ.get("TAAK_ID", "")
    if not (stand := read_stand(_data_dir(), task_id) or {}):
        return HookResult()
    line = where_we_are(task_id, stand["status"], stand.get("volgende_stap"), early_language())
    return HookResult(additional_context("UserPromptSubmit", line))


def _steering(task_id: str, language: str) -> str:
    """From the session's own files (the task card and stand the daemon wrote): no socket, no database."""
    files = _files()
    try:
        opdracht = (loads(read_small_text(files.task_card)) if files else {})["opdracht"]
    except (OSError, ValueError, KeyError, TypeError):
        return summary_instructions(language, task_id or None)
    stap = (read_stand(_data_dir(), task_id) or {}).get("volgende_stap") or "-"
    return summary_instructions(language, task_id, opdracht, stap)


def _files() -> SessionFiles | None:
    briefing = os.environ.get("TAAK_BRIEFING_FILE")
    return SessionFiles.from_briefing(Path(briefing)) if briefing else None


def _copy_said_as_such() -> str:
    """The daemon's last copy, with where it came from and how old it is (the daemon did not answer)."""
    briefing, files = os.environ.get("TAAK_BRIEFING_FILE"), _files()
    text = briefing_from_file(Path(briefing) if briefing else None) or ""
    if not text or files is None:
        return text
    copy = files.compact_briefing if files.compact_briefing.is_file() else files.briefing
    minutes = max(0, round((time.time() - copy.stat().st_mtime) / 60))
    return f"{message('hook.last_briefing_copy', early_language(), minutes=minutes)}\n{text}"


def _data_dir() -> Path:
    return Path(os.environ.get("TAAK_DATA_DIR") or ".")


HANDLERS = {"session-start": session_start, "pre-compact": pre_compact, "post-compact": post_compact, "prompt": prompt}
