"""Claude Code hook handlers of a task outside a queue session (TAAK_ID set, the settings class read): the
hook's JSON on stdin, text for Claude Code on stdout. What a hook does without a task is in owner.py, which
these call for the same parts.

A hook must never break a bot's session: every handler turns its own failures into one line on
stderr and exit 0. The one deliberate failure is a PreCompact report that would be empty while the
transcript holds conversation: that exits 1 (never 2, which would block the compaction).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import fields
from typing import Any

from worker.core.briefing import Variant
from worker.core.catalogue import message
from worker.core.errors import NotFound
from worker.core.model import Soort, is_task_id
from worker.db.briefing import briefing_for
from worker.db.connect import connect_one
from worker.db.failures import failure_text
from worker.db.ledger import Ledger
from worker.db.store import Store
from worker.hooks import owner
from worker.hooks.lines import HOOK_CONTEXT_LIMIT, HookFailed, HookResult, additional_context, where_we_are
from worker.hooks.place import HookPlace
from worker.hooks.reports import briefing_from_file, save_summary, summary_for_the_log, summary_instructions, trigger_of
from worker.settings import Settings

HOOK_CONNECT_TIMEOUT_SECONDS = 3


def place_of(settings: Settings) -> HookPlace:
    """The settings the owner's hooks read (worker/hooks/owner.py), as the settings class has them."""
    return HookPlace(**{field.name: getattr(settings, field.name) for field in fields(HookPlace)})


@contextlib.asynccontextmanager
async def _ledger(settings: Settings) -> AsyncIterator[Ledger]:
    """One attempt with a short timeout: a hook must not keep a session waiting on a database that is away.
    Its failures are the commands' (`database niet bereikbaar op ... (verbinding geweigerd)`)."""
    if settings.database is None:
        conn = await connect_one(settings)
    else:
        update = {"connect_attempts": 1, "connect_timeout_seconds": HOOK_CONNECT_TIMEOUT_SECONDS}
        conn = await connect_one(settings.replaced(**update), application_name="taak-hook")
    try:
        yield Store(conn, settings).tasks
    finally:
        await conn.close()


async def session_start(payload: dict[str, Any], settings: Settings) -> HookResult:
    if settings.id and payload.get("source") == "compact":  # on resume the context already holds it (queue_session)
        try:
            async with _ledger(settings) as ledger:
                text = await briefing_for(
                    ledger, settings.id, settings, Variant.COMPACT, held=settings.token is not None
                )
        except Exception as exc:  # any failure: fall back to the file the daemon wrote
            if (from_file := briefing_from_file(settings.briefing_file)) is None:
                reason = failure_text(exc, settings)
                raise HookFailed(message("hook_no_briefing", settings.language, reason=reason)) from exc
            text = from_file
        return HookResult(stdout=additional_context("SessionStart", text[: HOOK_CONTEXT_LIMIT - 1]))
    return owner.session_start(payload, place_of(settings))  # startup, clear: what is open and the memory index


async def pre_compact(payload: dict[str, Any], settings: Settings) -> HookResult:
    report = owner.report_before_compaction(payload, place_of(settings))
    # No report (no transcript named, or one that cannot be read) is said as it is; with a task the summariser is
    # steered with it all the same (it was steered without it).
    said = report if isinstance(report, HookResult) else HookResult(stderr=report.note)
    if not settings.id:
        return said if isinstance(report, HookResult) else said._replace(stdout=summary_instructions(settings.language))
    try:
        async with _ledger(settings) as ledger:
            if not isinstance(report, HookResult) and report.path is not None:
                await _log_compact(ledger, settings, *report.row(trigger_of(payload)))
            task = await ledger.toon(settings.id)
    except Exception as exc:  # the database step is best effort: the summariser is steered regardless
        if not isinstance(report, HookResult):
            said = said._replace(
                stderr=message("hook_not_logged", settings.language, reason=failure_text(exc, settings))
            )
        return said._replace(stdout=summary_instructions(settings.language, settings.id))
    steering = summary_instructions(settings.language, settings.id, task.opdracht, task.volgende_stap or "-")
    return said._replace(stdout=steering)


async def _log_compact(ledger: Ledger, settings: Settings, text: str, meta: dict[str, object]) -> None:
    assert settings.id is not None
    if settings.token is None:  # the owner's own session on a task: the owner holds no lease
        await ledger.compact_by_owner(settings.id, text, bot=settings.bot, sessie=settings.sessie, meta=meta)
    else:
        await ledger.log(
            settings.id, Soort.COMPACT, text, token=settings.token, bot=settings.bot, sessie=settings.sessie, meta=meta
        )


async def post_compact(payload: dict[str, Any], settings: Settings) -> HookResult:
    saved = save_summary(payload, settings.data_dir, settings.language)
    if isinstance(saved, HookResult):
        return saved
    if settings.id:
        path, text = saved
        row, said = summary_for_the_log(text, path)
        async with _ledger(settings) as ledger:
            await _log_compact(
                ledger, settings, row, {"samenvatting": str(path), "trigger": trigger_of(payload), **said}
            )
    return HookResult()


async def prompt(payload: dict[str, Any], settings: Settings) -> HookResult:
    state = owner.where_we_are_now(place_of(settings))
    line, trouble = None, ""  # a TAAK_ID that names no task is said, not silently left out
    if settings.id and not is_task_id(settings.id):
        trouble = "TAAK_ID: " + message("bad_id", settings.language, value=settings.id)
    elif settings.id:
        try:
            if (line := await _task_line(settings)) is None:
                trouble = "TAAK_ID: " + message("not_found", settings.language, id=settings.id)
        except Exception as exc:  # the database away: what is open is this machine's own file, shown all the same
            trouble = failure_text(exc, settings)
    text = "\n".join(part for part in (state, line) if part)
    stdout = additional_context("UserPromptSubmit", text) if text else ""
    return HookResult(stdout=stdout, stderr=f"taak hook prompt: {trouble}" if trouble else "")


async def _task_line(settings: Settings) -> str | None:
    """The task's status and next step from the database. Outside a queue session nothing holds the task still:
    the owner may hand it back or cancel it from anywhere, so no file of this machine can stand in for the
    ledger (a queue session's own prompt hook reads its daemon's stand file: worker/hooks/stand.py)."""
    assert settings.id is not None
    try:
        async with _ledger(settings) as ledger:
            task = await ledger.toon(settings.id)
    except NotFound:
        return None
    return where_we_are(settings.id, task.status, task.volgende_stap, settings.language)


HANDLERS: dict[str, Callable[[dict[str, Any], Settings], Awaitable[HookResult]]] = {
    "session-start": session_start,
    "pre-compact": pre_compact,
    "post-compact": post_compact,
    "prompt": prompt,
}
