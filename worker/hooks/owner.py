"""The owner's hooks outside a task (no TAAK_ID): what is open ("where are we now"), the memory index, the
verbatim report before a compaction and the summary after it. Files only: no settings class, no database, no
event loop, so that a hook on every prompt of the owner's own sessions answers within the issue's 100 ms.
The hooks of a task (worker/hooks/handlers.py) call these for the same parts."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from worker.core.catalogue import message
from worker.core.terminal import printable, quoted
from worker.hooks.lines import HookResult, additional_context, file_reason
from worker.hooks.place import HookPlace
from worker.hooks.reports import Report, TranscriptUnreadable, save_summary, summary_instructions, write_report
from worker.memory import lll

MEMORY_BUDGET = 6_000


def where_we_are_now(place: HookPlace) -> str:
    return lll.render(lll.load(lll.lll_path(place.data_dir)), datetime.now(UTC), place.zone, place.language)


def session_start(payload: dict[str, Any], place: HookPlace) -> HookResult:
    if payload.get("source") not in ("startup", "clear"):
        return HookResult()
    state, index = where_we_are_now(place), place.memory_dir / "MEMORY.md"
    if index.is_file():
        memory = memory_index(
            index.read_text(encoding="utf-8", errors="replace"), str(index), MEMORY_BUDGET, place.language
        )
        state = "\n\n".join(part for part in (state, memory) if part)
    return HookResult(stdout=additional_context("SessionStart", state)) if state else HookResult()


def prompt(_payload: dict[str, Any], place: HookPlace) -> HookResult:
    state = where_we_are_now(place)
    return HookResult(stdout=additional_context("UserPromptSubmit", state)) if state else HookResult()


def report_before_compaction(payload: dict[str, Any], place: HookPlace) -> Report | HookResult:
    """The verbatim report, or what the hook must say instead: never a green tick on an empty report."""
    path_value = payload.get("transcript_path")
    if not isinstance(path_value, str) or not path_value:
        return HookResult(stderr=message("hook_no_transcript", place.language))
    if not _a_file_name(path_value):  # opening it raised no OSError: no report, and nothing steered the summary
        shown = printable(quoted(path_value))  # a lone surrogate: stderr and hooks.log write its escape
        return HookResult(stderr=message("hook_transcript_no_path", place.language, path=shown))
    folder = place.data_dir / "rapporten"
    try:
        report = write_report(
            Path(path_value), folder, session=payload.get("session_id"), language=place.language, zone=place.zone
        )
    except OSError as exc:  # the summariser is steered regardless
        reason = file_reason(exc, place.language)
        if isinstance(exc, TranscriptUnreadable):
            said = message("hook_transcript_unreadable", place.language, path=path_value, reason=reason)
        else:  # the report's own folder (a data folder that cannot be written): that one is named
            said = message("file_error", place.language, path=exc.filename or folder, reason=reason)
        return HookResult(stdout=summary_instructions(place.language), stderr=said)
    if report.error:  # said loudly, but with exit 1, never 2 (that would block the compaction)
        return HookResult(stdout=summary_instructions(place.language), stderr=report.error, exit_code=1)
    return report


def _a_file_name(path: str) -> bool:
    """Whether a file can have this name: no NUL, and nothing the file system cannot encode (a lone surrogate)."""
    try:
        return "\x00" not in path and bool(os.fsencode(path))
    except UnicodeError:
        return False


def pre_compact(payload: dict[str, Any], place: HookPlace) -> HookResult:
    report = report_before_compaction(payload, place)
    if isinstance(report, HookResult):
        return report
    return HookResult(stdout=summary_instructions(place.language), stderr=report.note)


def post_compact(payload: dict[str, Any], place: HookPlace) -> HookResult:
    saved = save_summary(payload, place.data_dir, place.language)
    return saved if isinstance(saved, HookResult) else HookResult()


def memory_index(text: str, where: str, budget: int, language: str = "nl") -> str:
    """The index within `budget`, whole lines only: every heading first, then the entries shared out across
    the sections one at a time, so a long first section cannot crowd out the others; ends by saying how
    many lines were left out and where to read them."""
    sections = _sections([line.rstrip() for line in text.splitlines() if index_line(line)])
    total = sum(len(entries) + (heading is not None) for heading, entries in sections)
    room = budget - len(_left_out(total, where, language)) - 1
    headings = _fitting_headings(sections, room)
    room -= sum(len(sections[i][0] or "") + 1 for i in headings)
    shown = _shared_out(sections, headings, room)
    kept: list[str] = []
    for i in headings:
        heading, entries = sections[i]
        kept += ([heading] if heading is not None else []) + entries[: shown[i]]
    left = total - len(kept)
    return "\n".join([*kept, _left_out(left, where, language)] if left else kept)


def _shared_out(sections: list[tuple[str | None, list[str]]], headings: list[int], room: int) -> dict[int, int]:
    """How many entries of each section fit in `room`: one more per section per round, while any fits."""
    shown = dict.fromkeys(headings, 0)
    growing = True
    while growing:
        growing = False
        for i in headings:
            entries = sections[i][1]
            if shown[i] < len(entries) and len(entries[shown[i]]) + 1 <= room:
                room -= len(entries[shown[i]]) + 1
                shown[i] += 1
                growing = True
    return shown


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


def _left_out(count: int, where: str, language: str) -> str:
    return message("memory_left_out", language, count=count, where=where)


def index_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(("#", "- ", "* ")) or bool(re.match(r"\d+\.\s", stripped))


OWNER_HANDLERS = {
    "session-start": session_start,
    "pre-compact": pre_compact,
    "post-compact": post_compact,
    "prompt": prompt,
}
