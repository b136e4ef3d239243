"""Human output in one shape: tables with a header row, one time format, one precision for money."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from worker.core.catalogue import area_words, message
from worker.core.terminal import columns, one_line, printable


def header_row(area: str, names: Sequence[str], language: str) -> tuple[str, ...]:
    return tuple(message(f"{area}.{name}", language) for name in names)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: Sequence[int] = ()) -> str:
    """Columns as wide as their widest cell, a header row on top; `right`: the columns of numbers. A cell is
    one line (a newline in it is shown as ⏎), and the last column is not padded (it is often free text)."""
    cells = [[_cell(value) for value in row] for row in [headers, *rows]]
    widths = [max(columns(row[n]) for row in cells) for n in range(len(headers))]
    lines = []
    for row in cells:
        shown = []
        for n, (value, width) in enumerate(zip(row, widths, strict=True)):
            pad = " " * (width - columns(value))
            shown.append(value if n == len(row) - 1 and n not in right else pad + value if n in right else value + pad)
        lines.append("  ".join(shown).rstrip())
    return "\n".join(lines)


def _cell(value: object) -> str:
    text = ("-" if value is None else str(value)).replace("\t", " ")  # a tab would move every column after it
    # Escaped here, as the terminal will show it (`\x1b` is four columns), so that the widths are what is seen.
    return printable(one_line(text) if "\n" in text else text)


def age(seconds: float | None, language: str) -> str:
    """How long, short, the one way every list, the cockpit, doctor and the log say it: `45s`, `12m`, `3u` (`3h`
    in English), `2d`; under ten seconds with its tenth when it has one (`1.1s`, a session's run)."""
    if seconds is None:
        return "-"
    if 0 < seconds < 0.1:  # a 5 ms session said `0s`, as one that never ran
        return "<0.1s"
    if seconds < 10 and seconds != int(seconds):
        return f"{seconds:.1f}s"
    whole = int(seconds)
    if whole < 120:
        return f"{whole}s"
    if whole < 7200:
        return f"{whole // 60}m"
    return f"{whole // 3600}{message('unit.hours', language)}" if whole < 172800 else f"{whole // 86400}d"


def dollars(value: Decimal | float | None) -> str:
    """Money with one precision everywhere (lists, the brake, the ledger's result rows): cents."""
    return "-" if value is None else f"${Decimal(str(value)):.2f}"


def when(moment: datetime | None, zone: ZoneInfo, language: str) -> str:
    """A moment in a list or a log, in the household's time zone: `1 dec 07:31` (the year when not this one)."""
    if moment is None:
        return "-"
    return stamp(moment, datetime.now(zone), zone, month_names(language), always_date=True)


def month_names(language: str) -> tuple[str, ...]:
    """The months as every list, log and picture writes a day (`1 dec`), in `language`."""
    said = area_words("month", language)
    return tuple(said[str(n)] for n in range(1, 13))


def stamp(moment: datetime, now: datetime, zone: ZoneInfo, months: Sequence[str], *, always_date: bool = False) -> str:
    """`10:41` for today, `1 aug 10:41` for any other day, in the household's time zone (a moment that zone
    cannot show, near the end of year 9999 as the owner's SQL may store it, as it is)."""
    try:
        local = moment.astimezone(zone)
    except OverflowError:
        local = moment
    clock = f"{local.hour:02d}:{local.minute:02d}"
    if not always_date and local.date() == now.astimezone(zone).date():
        return clock
    return f"{day_label(local.date(), now.astimezone(zone).year, months)} {clock}"


def day_month(day: date, months: Sequence[str]) -> str:
    """`1 dec`: a day as every list, log and picture writes it."""
    return f"{day.day} {months[day.month - 1]}"


def day_label(day: date, this_year: int | None, months: Sequence[str]) -> str:
    """`1 dec`, or `1 dec 2025` when the day is of another year than `this_year`: as `when` writes a moment."""
    return day_month(day, months) + ("" if day.year == this_year else f" {day.year}")
