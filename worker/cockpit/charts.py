"""Pictures for the cockpit, drawn here as SVG: no script, no CDN, and every label escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from html import escape

from worker.core.table import day_month

COLOURS = ("#2f6fb0", "#d9822b", "#3a9a5b", "#b03a5b", "#7a5bb0", "#5b9ab0", "#a0a03a", "#6b6b6b")
WIDTH, HEIGHT, PAD = 640, 200, 28


def bars(
    title: str,
    days: Sequence[date],
    series: Mapping[str, Sequence[float]],
    months: Sequence[str],
    *,
    money: bool = False,
) -> str:
    """Stacked bars per day, one colour per series (a bot), with a legend; `series[name][i]` is day i. A day is
    written as the lists write it (`1 dec`, the month's name in the run's language): `03-12` was March to some."""
    totals = [sum(values[i] for values in series.values()) for i in range(len(days))]
    top = float(max(totals, default=0) or 1)
    slot = (WIDTH - 2 * PAD) / max(len(days), 1)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT + 40}" role="img" aria-label="{escape(title)}" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<text x="{PAD}" y="16" class="chart-title">{escape(title)}</text>',
        f'<text x="{WIDTH - PAD}" y="16" text-anchor="end" class="chart-axis">max {_label(top, money)}</text>',
    ]
    for i, day in enumerate(days):
        base = float(HEIGHT)
        for n, (name, values) in enumerate(series.items()):
            height = (HEIGHT - 2 * PAD) * values[i] / top
            if height <= 0:
                continue
            base -= height
            x = PAD + i * slot + slot * 0.15
            tip = escape(f"{name} {day_month(day, months)}: {_label(values[i], money)}")
            parts.append(
                f'<rect x="{x:.1f}" y="{base:.1f}" width="{slot * 0.7:.1f}" height="{height:.1f}" '
                f'fill="{COLOURS[n % len(COLOURS)]}"><title>{tip}</title></rect>'
            )
        if i % max(1, len(days) // 7) == 0:
            parts.append(
                f'<text x="{PAD + i * slot + slot / 2:.1f}" y="{HEIGHT + 14}" text-anchor="middle" '
                f'class="chart-axis">{day_month(day, months)}</text>'
            )
    for n, name in enumerate(series):
        x = PAD + n * 110
        parts.append(f'<rect x="{x}" y="{HEIGHT + 24}" width="10" height="10" fill="{COLOURS[n % len(COLOURS)]}"/>')
        parts.append(f'<text x="{x + 14}" y="{HEIGHT + 33}" class="chart-axis">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _label(value: float, money: bool) -> str:
    return f"${value:.2f}" if money else f"{round(value, 2):g}"  # 1.33, as `taak overzicht` shows a ratio
