"""A task and its log as the owner reads them (`taak toon`, its JSON, a session's `taak toon`): values in, text out."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from decimal import Decimal
from typing import Any

from worker.core.catalogue import field_name
from worker.core.row_phrases import said_row
from worker.core.rows import LogRow, Task
from worker.core.table import month_names, stamp
from worker.core.terminal import hanging, inline, padded


def facts_from_context(context: dict[str, Any]) -> dict[str, str]:
    return {
        key: value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        for key, value in context.items()
    }


def task_json(task: Task) -> dict[str, Any]:
    return plain(asdict(task))


def json_value(value: object) -> object:
    """What json.dumps cannot write itself: an amount (Decimal, from numeric columns) as the number it is, not as
    text in whatever precision its column had ("0.12" beside "0.0120"); anything else as its text."""
    return float(value) if isinstance(value, Decimal) else str(value)


def plain(values: dict[str, Any]) -> dict[str, Any]:
    return {key: value.isoformat() if isinstance(value, datetime) else value for key, value in values.items()}


def show_task(task: Task, rows: list[LogRow], zone: Any, language: str) -> str:
    """`taak toon` as text: every field that has a value, then the whole log with dates."""
    months = month_names(language)
    now = datetime.now(zone)
    lines = []
    for column, value in asdict(task).items():
        if value in (None, {}, ""):
            continue
        # A Dutch run shows the column names, as the owner's SQL and `--json` have them; the values (a status, a
        # log kind) are domain words in both.
        key = field_name(column, "en") if language == "en" else column
        if isinstance(value, datetime):
            value = stamp(value, now, zone, months, always_date=True)
        elif isinstance(value, dict):  # the context: one `key = value` line each, below its name, as the briefing
            lines.append(key)
            lines += [f"  {inline(k)} = {inline(v)}" for k, v in facts_from_context(value).items()]
            continue
        elif hasattr(value, "value"):
            value = value.value
        # A text of several lines keeps them, indented under its first: whitespace is the owner's.
        lines.append(hanging(f"{key:15} ", str(value)))  # further lines behind a bar: never a field of their own
    lines.append("log:")
    for row in rows:
        when = stamp(row.ts, now, zone, months, always_date=True)
        said = said_row(row.tekst, row.meta, language)
        lines.append(hanging(f"  {when}  {row.soort.value:12} {padded(row.bot or '-', 10)} ", said))
    return "\n".join(lines)
