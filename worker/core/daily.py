"""Before and after, per day (`taak overzicht --per-dag`, issue 41): the rows of the statement overzicht_per_dag
as the terminal shows them, and the two series the cockpit draws from them. Values in, values out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from worker.core.catalogue import message
from worker.core.phrases import Phrase
from worker.core.table import day_label, dollars, header_row, month_names, table

Row = Mapping[str, Any]

COLUMNS = (
    *("day", "bot", "new", "done", "failed", "sessions", "sessions_per_done", "no_step"),
    *("questions", "wait_hours", "compactions", "cost", "messages", "handled"),
)
# The rows' figures of the columns "new" to "compactions", shown as they are.
_COUNTS = (
    *("nieuw", "klaar", "mislukt", "sessies", "sessies_per_klare_taak", "sessies_zonder_stap", "vragen"),
    *("vraag_wacht_uren", "compacties"),
)


@dataclass(frozen=True)
class OldQueue:
    """What of the old queue could not be read: all of it (`unread`, why), or whether a message was handled
    (`share_unknown`, why: a status column the table does not have)."""

    unread: Phrase | None = None
    share_unknown: Phrase | None = None

    @property
    def read(self) -> bool:
        return self.unread is None


def daily_table(rows: Sequence[Row], language: str, old_queue: OldQueue = OldQueue()) -> str:
    """One line per day for the fleet and one per bot that did anything that day, the old queue's messages and
    the share handled where the rows read it (as --json gives them: the rows decide, never the table), then one
    line that says when each bot was switched on and what of the old queue was read. A day of another year than
    the last row's (today) carries its year."""
    months, year = month_names(language), _this_year(rows)
    fleet = message("per_day.fleet", language)
    lines = [
        (
            day_label(r["dag"], year, months),
            fleet if r["bot"] is None else r["bot"],
            *(r[key] for key in _COUNTS),
            dollars(r["kosten_usd"]),
            r["berichten"],
            _share(r["afgehandeld"], r["berichten"]),
        )
        for r in rows
    ]
    headers = header_row("per_day", COLUMNS, language)
    return table(headers, lines, right=range(2, len(COLUMNS))) + "\n" + switch_on_line(rows, language, old_queue)


def switch_on_line(rows: Sequence[Row], language: str, old_queue: OldQueue = OldQueue()) -> str:
    """The line under the table: each bot's switch-on (its first session), or that none was switched on yet, and
    which days count the old queue, or why it was not read."""
    months, year = month_names(language), _this_year(rows)
    switched = {r["bot"]: r["aangezet"] for r in rows if r["bot"] is not None and r["aangezet"] is not None}
    if old_queue.unread is not None:
        said = message("per_day.old_queue_unread", language, why=old_queue.unread)
    else:
        said = message("per_day.old_queue_before" if switched else "per_day.old_queue_every_day", language)
    if old_queue.share_unknown is not None:
        said += "; " + message("per_day.share_unknown", language, why=old_queue.share_unknown)
    if not switched:
        return f"({message('per_day.not_switched_on', language, old_queue=said)})"
    bots = ", ".join(f"{bot} {day_label(day, year, months)}" for bot, day in sorted(switched.items()))
    return f"({message('per_day.switched_on', language, bots=bots, old_queue=said)})"


def _this_year(rows: Sequence[Row]) -> int | None:
    """The year of the table's last day, today in the zone of its days."""
    return rows[-1]["dag"].year if rows else None


def _share(handled: int | None, messages: int | None) -> str | None:
    return None if handled is None or not messages else f"{round(100 * handled / messages)}%"


def bot_series(rows: Sequence[Row], days: Sequence[date], figure: str) -> dict[str, list[float | None]]:
    """Per bot that has one, the figure of each day (None where it has none): a picture's bars, side by side.
    `sessies_per_klare_taak` reads, on the days before a bot's switch-on, the old queue's messages per handled
    message, from the counts: every message there started one session, and only a handled one did its work; none
    handled of some is infinite (math.inf), the worst day, never no bar."""
    position = {day: n for n, day in enumerate(days)}
    series: dict[str, list[float | None]] = {}
    for r in rows:
        if r["bot"] is None or (n := position.get(r["dag"])) is None:
            continue
        value = r[figure]
        if figure == "sessies_per_klare_taak" and r["voor_aanzetten"]:
            value = per_handled(r["berichten"], r["afgehandeld"])
        if value is not None:
            series.setdefault(r["bot"], [None] * len(days))[n] = float(value)
    return dict(sorted(series.items()))


def per_handled(messages: int | None, handled: int | None) -> float | None:
    """The old queue's messages per handled message: None without messages or where handled is unknown."""
    if not messages or handled is None:
        return None
    return messages / handled if handled else math.inf


def before_switch_on(rows: Sequence[Row], days: Sequence[date]) -> dict[str, list[bool]]:
    """Per bot, whether each day is before its switch-on: the days a picture draws lighter."""
    position = {day: n for n, day in enumerate(days)}
    before: dict[str, list[bool]] = {}
    for r in rows:
        if r["bot"] is not None and (n := position.get(r["dag"])) is not None:
            before.setdefault(r["bot"], [False] * len(days))[n] = bool(r["voor_aanzetten"])
    return before


def fleet_switch_on(rows: Sequence[Row]) -> date | None:
    """The fleet's switch-on: the day of its first session (the fleet's rows carry it)."""
    return next((r["aangezet"] for r in rows if r["bot"] is None and r["aangezet"] is not None), None)
