"""Claude Code hook handlers: the hook's JSON on stdin, text for Claude Code on stdout.

A hook must never break a bot's session: every handler turns its own failures into one line on
stderr and exit 0. The one deliberate failure is a PreCompact report that would be empty while the
transcript holds conversation: that exits 1 (never 2, which would block the compaction).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker.core.briefing import Variant
from worker.core.messages import message
from worker.core.model import Soort
from worker.hooks.lines import additional_context, where_we_are
from worker.hooks.reports import (
    SUMMARY_INSTRUCTIONS_NL,
    SUMMARY_INSTRUCTIONS_NO_TASK,
    Report,
    briefing_from_file,
    strip_analysis,
    summary_path,
    trigger_of,
    write_report,
)
from worker.settings import Settings

if TYPE_CHECKING:
    import asyncpg

    from worker.db.ledger import Ledger

HOOK_CONNECT_TIMEOUT_SECONDS = 3
HOOK_CONTEXT_LIMIT = 10_000  # above this Claude Code shows the model only a preview
MEMORY_BUDGET = 6_000


@dataclass(frozen=True)
class HookResult:
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0


async def quick_connection(settings: Settings) -> asyncpg.Connection:
    """One attempt with a short timeout: a hook must not keep a session waiting on a database that is away."""
    import asyncpg

    if settings.database is None:
        from worker.db.connect import connect_one  # the embedded server: start or attach as usual

        return await connect_one(settings)
    options: dict[str, Any] = {
        "dsn": settings.database.url,
        "timeout": HOOK_CONNECT_TIMEOUT_SECONDS,
        "server_settings": {"application_name": "taak-hook"},
    }
    options["statement_cache_size"] = 0  # one connection, a few statements; safe behind any pooler
    return await asyncpg.connect(**options)


# --- SessionStart -------------------------------------------------------------------------------


async def session_start(payload: dict[str, Any], settings: Settings) -> HookResult:
    source = payload.get("source")
    if settings.id and source == "compact":  # on resume the context already holds it (see queue_session.py)
        text = await _compact_briefing(settings)
        return HookResult(stdout=additional_context("SessionStart", text))
    if not settings.id and source in ("startup", "clear"):
        from worker.memory import lll

        state = lll.render(
            lll.load(lll.lll_path(settings.data_dir)), datetime.now(UTC), settings.zone, settings.language
        )
        text = "\n\n".join(part for part in (state, memory_context(settings.memory_dir)) if part)
        if text:
            return HookResult(stdout=additional_context("SessionStart", text))
    return HookResult()


async def _compact_briefing(settings: Settings) -> str:
    assert settings.id is not None
    try:
        from worker.db.briefing import briefing_for
        from worker.db.ledger import Ledger

        conn = await quick_connection(settings)
        try:
            text = await briefing_for(Ledger(conn), settings.id, settings, Variant.COMPACT)
        finally:
            await conn.close()
    except Exception as exc:  # any failure: fall back to the file the daemon wrote
        from_file = briefing_from_file(settings.briefing_file)
        if from_file is None:
            raise RuntimeError(message("hook_no_briefing", settings.language, kind=exc.__class__.__name__)) from exc
        text = from_file
    return text[: HOOK_CONTEXT_LIMIT - 1]


# --- PreCompact ---------------------------------------------------------------------------------


async def pre_compact(payload: dict[str, Any], settings: Settings) -> HookResult:
    path_value = payload.get("transcript_path")
    if not isinstance(path_value, str) or not path_value:
        return HookResult(stderr=message("hook_no_transcript", settings.language))
    report = write_report(
        Path(path_value),
        settings.data_dir / "rapporten",
        session=payload.get("session_id"),
        language=settings.language,
    )
    if report.error:
        # Never a green tick on an empty report: say so loudly, but with exit 1, never 2.
        return HookResult(stdout=SUMMARY_INSTRUCTIONS_NO_TASK, stderr=report.error, exit_code=1)
    task = None
    if settings.id:
        try:
            task = await _log_and_read(settings, report, trigger_of(payload))
        except Exception as exc:  # the database step is best effort: the summariser is steered regardless
            steering = f"{SUMMARY_INSTRUCTIONS_NO_TASK}\nHet taak-ID is {settings.id}."
            reason = f"{type(exc).__name__}: {exc}"
            return HookResult(stdout=steering, stderr=message("hook_not_logged", settings.language, reason=reason))
    if task is None:
        return HookResult(stdout=SUMMARY_INSTRUCTIONS_NO_TASK)
    opdracht, stap = task
    return HookResult(stdout=SUMMARY_INSTRUCTIONS_NL.format(id=settings.id, opdracht=opdracht, stap=stap))


async def _log_and_read(settings: Settings, report: Report, trigger: str) -> tuple[str, str] | None:
    from worker.db.ledger import Ledger

    assert settings.id is not None
    conn = await quick_connection(settings)
    try:
        ledger = Ledger(conn, lease_seconds=settings.lease_seconds)
        if report.path is not None:
            text = f"verslag voor de compact: {report.path} ({report.lines} regels, {report.entries} berichten)"
            await _log_compact(ledger, settings, text, {"rapport": str(report.path), "trigger": trigger})
        task = await ledger.toon(settings.id)
    finally:
        await conn.close()
    return task.opdracht, task.volgende_stap or "-"


async def _log_compact(ledger: Ledger, settings: Settings, text: str, meta: dict[str, str]) -> None:
    assert settings.id is not None
    await ledger.log(
        settings.id,
        Soort.COMPACT,
        text,
        token=settings.token,
        bot=settings.bot,
        sessie=settings.sessie,
        meta=meta,
    )


# --- PostCompact --------------------------------------------------------------------------------


async def post_compact(payload: dict[str, Any], settings: Settings) -> HookResult:
    summary = payload.get("compact_summary")
    if not isinstance(summary, str) or not summary.strip():
        return HookResult(stderr=message("hook_no_summary", settings.language))
    text = strip_analysis(summary)
    folder = settings.data_dir / "samenvattingen"
    folder.mkdir(parents=True, exist_ok=True)
    session = payload.get("session_id") if isinstance(payload.get("session_id"), str) else "sessie"
    path = summary_path(folder, session)
    path.write_text(text + "\n", encoding="utf-8")
    if settings.id:
        from worker.db.ledger import Ledger

        conn = await quick_connection(settings)
        try:
            ledger = Ledger(conn, lease_seconds=settings.lease_seconds)
            await _log_compact(ledger, settings, text, {"samenvatting": str(path), "trigger": trigger_of(payload)})
        finally:
            await conn.close()
    return HookResult()


# --- UserPromptSubmit ---------------------------------------------------------------------------


async def prompt(payload: dict[str, Any], settings: Settings) -> HookResult:
    from worker.memory import lll

    state = lll.render(lll.load(lll.lll_path(settings.data_dir)), datetime.now(UTC), settings.zone, settings.language)
    line = await _task_line(settings) if settings.id else None
    text = "\n".join(part for part in (state, line) if part)
    return HookResult(stdout=additional_context("UserPromptSubmit", text)) if text else HookResult()


async def _task_line(settings: Settings) -> str | None:
    from worker.hooks.stand import read_stand

    assert settings.id is not None
    stand = read_stand(settings.data_dir, settings.id)
    if stand is None:  # not started by the daemon on this machine: ask the database
        conn = await quick_connection(settings)
        try:
            from worker.db.sqlfiles import queries

            row = await conn.fetchrow(queries()["taak"], settings.id)
        finally:
            await conn.close()
        if row is None:
            return None
        stand = {"status": row["status"], "volgende_stap": row["volgende_stap"]}
    return where_we_are(settings.id, stand["status"], stand.get("volgende_stap"), settings.language)


# --- memory at session start --------------------------------------------------------------------


def memory_context(folder: Path) -> str:
    index = folder / "MEMORY.md"
    if not index.is_file():
        return ""
    return memory_index(index.read_text(encoding="utf-8", errors="replace"), str(index), MEMORY_BUDGET)


def memory_index(text: str, where: str, budget: int) -> str:
    """The index within `budget`, whole lines only: every heading first, then the entries shared out across
    the sections one at a time, so a long first section cannot crowd out the others; ends by saying how
    many lines were left out and where to read them."""
    sections = _sections([line.rstrip() for line in text.splitlines() if index_line(line)])
    total = sum(len(entries) + (heading is not None) for heading, entries in sections)
    room = budget - len(_left_out(total, where)) - 1
    headings = _fitting_headings(sections, room)
    room -= sum(len(sections[i][0] or "") + 1 for i in headings)
    shown = dict.fromkeys(headings, 0)
    growing = True
    while growing:  # one more entry per section per round, while any fits
        growing = False
        for i in headings:
            entries = sections[i][1]
            if shown[i] < len(entries) and len(entries[shown[i]]) + 1 <= room:
                room -= len(entries[shown[i]]) + 1
                shown[i] += 1
                growing = True
    kept: list[str] = []
    for i in headings:
        heading, entries = sections[i]
        kept += ([heading] if heading is not None else []) + entries[: shown[i]]
    left = total - len(kept)
    return "\n".join([*kept, _left_out(left, where)] if left else kept)


def _sections(lines: list[str]) -> list[tuple[str | None, list[str]]]:
    sections: list[tuple[str | None, list[str]]] = []
    for line in lines:
        if line.lstrip().startswith("#"):
            sections.append((line, []))
        elif sections:
            sections[-1][1].append(line)
        else:
            sections.append((None, [line]))
    return sections


def _fitting_headings(sections: list[tuple[str | None, list[str]]], room: int) -> list[int]:
    chosen, used = [], 0
    for i, (heading, _entries) in enumerate(sections):
        cost = len(heading) + 1 if heading is not None else 0
        if used + cost <= room:
            chosen.append(i)
            used += cost
    return chosen


def _left_out(count: int, where: str) -> str:
    return f"(nog {count} regels van de index weggelaten; lees ze in {where})"


def index_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("#", "- ", "* ")) or bool(re.match(r"\d+\.\s", stripped))


HANDLERS: dict[str, Callable[[dict[str, Any], Settings], Awaitable[HookResult]]] = {
    "session-start": session_start,
    "pre-compact": pre_compact,
    "post-compact": post_compact,
    "prompt": prompt,
}
