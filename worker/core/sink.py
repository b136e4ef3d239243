"""What the knowledge sink receives when a task is klaar: built from the log, no model involved."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from worker.core.model import Soort
from worker.core.rows import LogRow, Task
from worker.core.table import month_names, stamp
from worker.core.terminal import one_line

MAX_STEPS = 50


def klaar_summary(task: Task, rows: Sequence[LogRow], zone: ZoneInfo, now: datetime) -> str:
    months = month_names("nl")
    steps = [row for row in rows if row.soort == Soort.STAP_KLAAR]
    lines = [
        f"Taak {task.id} is klaar ({stamp(task.afgerond or now, now, zone, months, always_date=True)})",
        f"Van: {task.opdrachtgever}" + (f", gedaan door {task.toegewezen_aan}" if task.toegewezen_aan else ""),
        "Opdracht:",
        task.opdracht,
        f"Bewijs: {task.bewijs or '-'}",
        "Stappen:",
    ]
    shown = steps[-MAX_STEPS:]
    if len(steps) > len(shown):
        lines.append(f"- ({len(steps) - len(shown)} eerdere stappen weggelaten)")
    lines += [f"- {stamp(row.ts, now, zone, months, always_date=True)} {one_line(row.tekst)}" for row in shown]
    if not steps:
        lines.append("- (geen stappen gelogd)")
    return "\n".join(lines) + "\n"
