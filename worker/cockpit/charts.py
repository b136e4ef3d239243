"""Pictures for the cockpit, drawn here as SVG: no script, no CDN, and every label escaped.

Drawn narrow (WIDTH user units) so that a phone shows them near their own size: a label of 12 units stays at
least 11 px on a 390 px screen, and the page caps a picture's width on a wide one (`.chart` in pages.STYLE)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from html import escape

from worker.core.table import day_month

COLOURS = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b03a5b", "#7a5bb0", "#5b9ab0", "#a0a03a", "#6b6b6b")
WIDTH, HEIGHT, PAD = 360, 180, 12
LEGEND_COLUMN, LEGEND_ROW = 112, 18  # a legend entry's width and a legend line's height
DAY_LABEL = 46  # room a day's label (`12 dec`) needs on the axis


def bars(
    title: str,
    days: Sequence[date],
    series: Mapping[str, Sequence[float]],
    months: Sequence[str],
    *,
    money: bool = False,
    side_by_side: bool = False,
) -> str:
    """Bars per day, one colour per series (a bot), with a legend; `series[name][i]` is day i. Stacked when the
    series add up (tasks, dollars); `side_by_side` when they do not (a ratio per bot: 1 and 1.33 are not 2.33). A
    day is written as the lists write it (`1 dec`, the month's name in the run's language): `03-12` was March to
    some."""
    if side_by_side:
        top = float(max((v for values in series.values() for v in values), default=0) or 1)
    else:
        top = float(max((sum(values[i] for values in series.values()) for i in range(len(days))), default=0) or 1)
    slot = (WIDTH - 2 * PAD) / max(len(days), 1)
    per_line = max(1, (WIDTH - 2 * PAD) // LEGEND_COLUMN)
    legend_lines = -(-len(series) // per_line) or 1
    height = HEIGHT + 30 + legend_lines * LEGEND_ROW
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{PAD}" y="16" class="chart-title">{escape(title)}</text>',
        f'<text x="{WIDTH - PAD}" y="34" text-anchor="end" class="chart-axis">max {_label(top, money)}</text>',
    ]
    width = slot * 0.8 / (max(len(series), 1) if side_by_side else 1)
    for i, day in enumerate(days):
        base = float(HEIGHT)
        for n, (name, values) in enumerate(series.items()):
            tall = (HEIGHT - 48) * values[i] / top
            if tall <= 0:
                continue
            x = PAD + i * slot + slot * 0.1 + (n * width if side_by_side else 0)
            y = HEIGHT - tall if side_by_side else base - tall
            base = base if side_by_side else base - tall
            tip = escape(f"{name} {day_month(day, months)}: {_label(values[i], money)}")
            parts.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{tall:.1f}" '
                f'fill="{COLOURS[n % len(COLOURS)]}"><title>{tip}</title></rect>'
            )
        if i % max(1, -(-DAY_LABEL // int(slot or 1))) == 0:
            parts.append(
                f'<text x="{PAD + i * slot + slot / 2:.1f}" y="{HEIGHT + 16}" text-anchor="middle" '
                f'class="chart-axis">{day_month(day, months)}</text>'
            )
    for n, name in enumerate(series):
        x, y = PAD + (n % per_line) * LEGEND_COLUMN, HEIGHT + 30 + (n // per_line) * LEGEND_ROW
        parts.append(f'<rect x="{x}" y="{y}" width="10" height="10" fill="{COLOURS[n % len(COLOURS)]}"/>')
        parts.append(f'<text x="{x + 14}" y="{y + 10}" class="chart-axis">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _label(value: float, money: bool) -> str:
    return f"${value:.2f}" if money else f"{round(value, 2):g}"  # 1.33, as `taak overzicht` shows a ratio
