"""The briefing: what a fresh session is told about its task. A pure function of stored state.

Layout (design section 6): the task ID and attempt, who asked and when, the opdracht verbatim and
complete, when it is done, the fixed facts, one line for everything older, the last few log rows
with their times, the owner's newest answer, the first action, how to log, and the task ID and the
first action again at the very end, where a model reads best. The size is capped whatever the log
holds: the opdracht is never cut; everything else is cut or dropped until the text fits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cache
from typing import Literal
from zoneinfo import ZoneInfo

from worker.core.catalogue import area_words, filled, message
from worker.core.language import LANGUAGES
from worker.core.model import FINAL, Soort, Status
from worker.core.row_phrases import said_row
from worker.core.rows import LogRow, OlderRows, Task
from worker.core.table import month_names, stamp
from worker.core.terminal import clip, one_line

COMPACT_LIMIT = 9_500
FULL_LIMIT = 16_000

Language = Literal["nl", "en"]


class Variant(StrEnum):
    FULL = "full"
    COMPACT = "compact"


@dataclass(frozen=True)
class Words:
    header: str
    compacted: str
    attempt: str
    asked_by: str
    opdracht: str
    done_when: str
    needs: str
    due: str
    late: str
    facts: str
    history: str
    nothing_yet: str
    older: str
    answer: str
    first_action: str
    default_action: str
    how_to_log: str
    how_to_finish: str
    how_to_block: str
    not_held: str
    again: str
    cut: str
    months: tuple[str, ...]


@cache
def briefing_words(language: str) -> Words:
    return Words(**area_words("briefing", language), months=month_names(language))


# Tried in order until the text fits: (cap per cut field or log line, log rows shown at most).
_SQUEEZE_STEPS: tuple[tuple[int, int], ...] = (
    (2000, 10),
    (600, 10),
    (300, 8),
    (160, 6),
    (100, 4),
    (60, 2),
    (40, 0),
)


@dataclass(frozen=True)
class BriefingInput:
    task: Task
    recent: Sequence[LogRow]
    older: OlderRows
    facts: Mapping[str, str]
    now: datetime
    zone: ZoneInfo
    language: Language = "nl"
    answer: LogRow | None = None
    line_cap: int = 300
    held: bool = True  # read by the session that holds the task's lease; else by someone who only names it


def build_briefing(source: BriefingInput, variant: Variant = Variant.FULL) -> str:
    limit = COMPACT_LIMIT if variant == Variant.COMPACT else FULL_LIMIT
    for field_cap, max_rows in _SQUEEZE_STEPS:
        text = _render(source, variant, min(field_cap, source.line_cap * 4), min(field_cap, source.line_cap), max_rows)
        if len(text) <= limit:
            return text
    return _render(source, variant, 40, 40, 0)[:limit]


def _render(source: BriefingInput, variant: Variant, field_cap: int, line_cap: int, max_rows: int) -> str:
    words = briefing_words(source.language)

    def when(moment: datetime) -> str:
        return stamp(moment, source.now, source.zone, words.months, always_date=True)

    head = _head(source, variant, words, when, field_cap)
    return "\n".join([*head, *_history(source, words, when, line_cap, max_rows), *_ask(source, words, when, field_cap)])


When = Callable[[datetime], str]


def _head(source: BriefingInput, variant: Variant, words: Words, when: When, field_cap: int) -> list[str]:
    """Who asked what and when, verbatim, with when it is done, when it is due and the facts known."""
    task, cut = source.task, words.cut
    # Held: the attempt that runs; waiting: the one a claim would start; finished: the last there was.
    attempt = task.pogingen if task.status == Status.BEZIG or task.status in FINAL else task.pogingen + 1
    lines = [
        f"=== {words.header} {task.id} ({words.attempt.format(p=max(attempt, 1), m=task.max_pogingen)}) ===",
        *([words.compacted] if variant == Variant.COMPACT else []),
        words.asked_by.format(who=clip(one_line(task.opdrachtgever), 80, cut), when=when(task.aangemaakt)),
        words.opdracht,
        f'"{task.opdracht}"',
    ]
    if task.klaar_wanneer:
        lines.append(words.done_when.format(text=clip(one_line(task.klaar_wanneer), field_cap, cut)))
    if task.nodig:
        lines.append(words.needs.format(skill=task.nodig))
    if task.uiterlijk is not None:
        late = words.late if task.uiterlijk < source.now else ""
        lines.append(words.due.format(when=when(task.uiterlijk), late=late))
    if source.facts:
        facts = "; ".join(f"{one_line(str(key))} = {one_line(str(value))}" for key, value in source.facts.items())
        lines.append(words.facts.format(text=clip(facts, field_cap, cut)))
    return lines


def _history(source: BriefingInput, words: Words, when: When, line_cap: int, max_rows: int) -> list[str]:
    """The last `max_rows` rows of the log, and one line that counts the ones before them."""
    shown = list(source.recent)[-max_rows:] if max_rows else []
    older = _add_rows(source.older, list(source.recent)[: len(source.recent) - len(shown)])
    rows = [log_line(row, source.now, source.zone, words.months, source.language) for row in shown]
    return [
        words.history,
        *([_older_line(older, words, when)] if older.total else []),
        *([words.nothing_yet] if not shown and not older.total else []),
        *(clip(row, line_cap, words.cut) for row in rows),
    ]


def _ask(source: BriefingInput, words: Words, when: When, field_cap: int) -> list[str]:
    """The owner's answer, if one came, the first action and how to log, finish and block."""
    task, cut, answer = source.task, words.cut, source.answer
    said = []
    if answer is not None:
        who, text = clip(one_line(answer.bot or "?"), 40, cut).upper(), clip(one_line(answer.tekst), field_cap, cut)
        said.append(words.answer.format(who=who, when=when(answer.ts), text=text))
    first_action = clip(one_line(task.volgende_stap or words.default_action), field_cap, cut)
    return [
        *said,
        words.first_action.format(text=first_action),
        *(
            line.format(id=task.id)
            for line in (
                (words.how_to_log, words.how_to_finish, words.how_to_block)
                if source.held
                else (words.not_held,)  # a step, a finish and a block need the lease: they would be refused
            )
        ),
        words.again.format(id=task.id, text=first_action),
    ]


def with_first_action(briefing: str, task_id: str, step: str) -> str:
    """A briefing made earlier, with the first action a later `taak stap` set: the daemon's copy during an
    outage said the step it was made with. Only the briefing's own two lines change: its last line, which says
    the briefing's language, and the last line before it that begins as the first action does (the opdracht
    above them may hold any words)."""
    action = one_line(step)  # whole, as the briefing says a step (VOLGENDE_STAP_MAX_CHARS)
    lines = briefing.split("\n")
    for language in LANGUAGES:
        words = briefing_words(language)
        again = words.again.format(id=task_id, text="")
        if not lines[-1].startswith(again):
            continue
        lines[-1] = again + action
        first = words.first_action.format(text="")
        at = next((n for n in range(len(lines) - 2, -1, -1) if lines[n].startswith(first)), None)
        if at is not None:
            lines[at] = first + action
        break
    return "\n".join(lines)


def counted_by_compaction(older: OlderRows, compactions: int) -> OlderRows:
    """The summary line counts compactions, not their rows: each writes two (the report before it, the summary
    after it), and "4x compact" after two was read as four. Compaction rows are never among the rows shown."""
    per_soort: dict[Soort, int] = {soort: n for soort, n in older.per_soort.items() if soort != Soort.COMPACT}
    if compactions:
        per_soort[Soort.COMPACT] = compactions
    return OlderRows(per_soort=per_soort, since=older.since if per_soort else None, rows=older.total)


def _add_rows(older: OlderRows, rows: Sequence[LogRow]) -> OlderRows:
    if not rows:
        return older
    per_soort = dict(older.per_soort)
    for row in rows:
        per_soort[row.soort] = per_soort.get(row.soort, 0) + 1
    first = min(row.ts for row in rows)
    since = first if older.since is None else min(first, older.since)
    return OlderRows(per_soort=per_soort, since=since, rows=older.total + len(rows))


def _older_line(older: OlderRows, words: Words, when: When) -> str:
    ranked = sorted(older.per_soort.items(), key=lambda item: (-item[1], item[0].value))
    kinds = ", ".join(f"{count}x {soort.value}" for soort, count in ranked)
    since = when(older.since) if older.since is not None else "?"
    return filled(words.older, n=older.total, since=since, kinds=kinds)


def log_line(row: LogRow, now: datetime, zone: ZoneInfo, months: Sequence[str], language: str) -> str:
    label = row.soort.value.replace("_", " ")
    text = one_line(said_row(row.tekst, row.meta, language))
    by = f" ({one_line(row.bot)})" if row.bot and row.soort in (Soort.ANTWOORD, Soort.NOTITIE) else ""
    body = f"{label}{by}, {text}" if text else f"{label}{by}"
    return f"{stamp(row.ts, now, zone, months)} {body}"


def system_prompt(task: Task, language: Language = "nl") -> str:
    """Re-sent with every request and kept through compaction: the task ID and the opdracht verbatim."""
    return message("system_prompt", language, id=task.id, opdracht=task.opdracht)
