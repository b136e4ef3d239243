"""Before and after, per day (`taak overzicht --per-dag`, issue 41): the rows of the statement overzicht_per_dag
as the terminal shows them, and the two series the cockpit draws from them. Values in, values out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from worker.core.phrases import message
from worker.core.table import day_month, dollars, header_row, month_names, table

Row = Mapping[str, Any]

COLUMNS = (
    *("day", "bot", "new", "done", "failed", "sessions", "sessions_per_done", "no_step"),
    *("questions", "wait_hours", "compactions", "cost", "messages", "handled"),
)


def daily_table(rows: Sequence[Row], language: str) -> str:
    """One line per day for the fleet and one per bot that did anything that day, the old queue's messages and
    the share handled on the days before the switch-on, then one line that says when each bot was switched on."""
    months = month_names(language)
    fleet = message("per_day.fleet", language)
    lines = [
        (
            day_month(r["dag"], months),
            fleet if r["bot"] is None else r["bot"],
            r["nieuw"],
            r["klaar"],
            r["mislukt"],
            r["sessies"],
            r["sessies_per_klare_taak"],
            r["sessies_zonder_stap"],
            r["vragen"],
            r["vraag_wacht_uren"],
            r["compacties"],
            dollars(r["kosten_usd"]),
            r["berichten"] if r["voor_aanzetten"] else None,
            _share(r["aandeel_afgehandeld"]) if r["voor_aanzetten"] else None,
        )
        for r in rows
    ]
    headers = header_row("per_day", COLUMNS, language)
    return table(headers, lines, right=range(2, len(COLUMNS))) + "\n" + switch_on_line(rows, language)


def switch_on_line(rows: Sequence[Row], language: str) -> str:
    """The line under the table: each bot's switch-on (its first session), or that none was switched on yet."""
    months = month_names(language)
    switched = {r["bot"]: r["aangezet"] for r in rows if r["bot"] is not None and r["aangezet"] is not None}
    if not switched:
        return f"({message('per_day.not_switched_on', language)})"
    bots = ", ".join(f"{bot} {day_month(day, months)}" for bot, day in sorted(switched.items()))
    return f"({message('per_day.switched_on', language, bots=bots)})"


def _share(value: Decimal | float | None) -> str | None:
    return None if value is None else f"{round(float(value) * 100)}%"


def bot_series(rows: Sequence[Row], days: Sequence[date], figure: str) -> dict[str, list[float | None]]:
    """Per bot that has one, the figure of each day (None where it has none): a picture's bars, side by side.
    `sessies_per_klare_taak` reads, on the days before a bot's switch-on, the old queue's messages per handled
    message: every message there started one session, and only a handled one did its work."""
    position = {day: n for n, day in enumerate(days)}
    series: dict[str, list[float | None]] = {}
    for r in rows:
        if r["bot"] is None or (n := position.get(r["dag"])) is None:
            continue
        value = r[figure]
        if figure == "sessies_per_klare_taak" and r["voor_aanzetten"]:
            value = 1 / r["aandeel_afgehandeld"] if r["aandeel_afgehandeld"] else None
        if value is not None:
            series.setdefault(r["bot"], [None] * len(days))[n] = float(value)
    return dict(sorted(series.items()))


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
