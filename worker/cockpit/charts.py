"""Pictures for the cockpit, drawn here as SVG: no script, no CDN, and every label escaped.

Drawn narrow (WIDTH user units) so that a phone shows them near their own size: a label of 12 units stays at
least 11 px on a 390 px screen, and the page caps a picture's width on a wide one (`.chart` in templates/base.html)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
) -> str:
    """Bars per day, one colour per series (a bot), with a legend; `series[name][i]` is day i. Stacked: for series
    that add up (tasks, dollars; a ratio per bot is `grouped`, side by side). A day is written as the lists write
    it (`1 dec`, the month's name in the run's language): `03-12` was March to some."""
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
    for i, day in enumerate(days):
        parts.extend(_stacked(PAD + i * slot + slot * 0.1, slot * 0.8, top, day_month(day, months), series, i, money))
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


def _stacked(
    x: float, width: float, top: float, said_day: str, series: Mapping[str, Sequence[float]], day: int, money: bool
) -> list[str]:
    """One day's bars, each series on the one before it."""
    parts, base = [], float(HEIGHT)
    for n, (name, values) in enumerate(series.items()):
        tall = (HEIGHT - 48) * values[day] / top
        if tall <= 0:
            continue
        base -= tall
        tip = escape(f"{name} {said_day}: {_label(values[day], money)}")
        parts.append(
            f'<rect x="{x:.1f}" y="{base:.1f}" width="{width:.1f}" height="{tall:.1f}" '
            f'fill="{COLOURS[n % len(COLOURS)]}"><title>{tip}</title></rect>'
        )
    return parts


def _label(value: float, money: bool) -> str:
    return f"${value:.2f}" if money else f"{round(value, 2):g}"  # 1.33, as `taak overzicht` shows a ratio


# The before-and-after pictures are drawn for the phone: 360 units wide with 13-unit text, so that the page's
# 390 px (a chart of at least 305 px there) shows every label at 11 px or more; on a wide page they grow to 560 px.
NARROW, NARROW_TEXT, PLOT = 360, 13, 130


@dataclass(frozen=True)
class _Frame:
    """Where a grouped picture's bars stand: a day's slot, a bar's width, the axis (`base`) and the scale (`top`)."""

    slot: float
    width: float
    base: float
    top: float


def grouped(
    title: str,
    days: Sequence[date],
    series: Mapping[str, Sequence[float | None]],
    months: Sequence[str],
    *,
    before: Mapping[str, Sequence[bool]] | None = None,
    switch_on: tuple[date, str] | None = None,
    note: str = "",
    endless: str = "",
) -> str:
    """Bars per day side by side, one per series (a bot), never stacked: a ratio summed over bots means nothing.
    `before[name][i]` draws that bar lighter (a figure of the days before the switch-on); `switch_on`, a day and
    its label, draws a dashed line at that day's left edge; `note` says what the lighter bars are (a line each). An
    infinite figure (none handled of some messages: the worst day) is a bar to the top with a dashed outline, its
    title `endless`: never no bar, as if the day had nothing."""
    lines = _wrapped(title)
    plot_top = 14 + 17 * len(lines) + 6
    slot = (NARROW - 16) / max(len(days), 1)
    frame = _Frame(slot, slot * 0.8 / max(len(series), 1), plot_top + PLOT, _finite_top(series))
    parts = [
        *(_text(8, 16 + 17 * n, line, weight="600") for n, line in enumerate(lines)),
        _text(NARROW - 8, plot_top - 4, f"max {_label(frame.top, False)}", anchor="end", fill="#555"),
        f'<line x1="8" y1="{frame.base}" x2="{NARROW - 8}" y2="{frame.base}" stroke="#999"/>',
        *_side_by_side(frame, days, series, months, before or {}, endless),
    ]
    y = frame.base + 38
    if switch_on is not None and switch_on[0] in days:
        parts.extend(_switch_on(8 + days.index(switch_on[0]) * slot, plot_top, frame.base, y, switch_on[1]))
        y += 22
    legend, y = _legend(list(series), y)
    parts.extend(legend)
    for line in [line for part in note.splitlines() for line in _wrapped(part)]:
        y += 20
        parts.append(_text(8, y, line, fill="#555"))
    head = (
        f'<svg class="chart" viewBox="0 0 {NARROW} {y + 10}" role="img" aria-label="{escape(title)}" '
        'style="max-width: 560px" xmlns="http://www.w3.org/2000/svg">'
    )
    return head + "".join(parts) + "</svg>"


def _finite_top(series: Mapping[str, Sequence[float | None]]) -> float:
    """The picture's scale: its largest finite figure (an infinite one is drawn to the top, not scaled)."""
    finite = (v for values in series.values() for v in values if v is not None and not math.isinf(v))
    return max(finite, default=0.0) or 1.0


def _side_by_side(
    frame: _Frame,
    days: Sequence[date],
    series: Mapping[str, Sequence[float | None]],
    months: Sequence[str],
    before: Mapping[str, Sequence[bool]],
    endless: str,
) -> list[str]:
    """Each day's bars beside each other, and at most six day labels (`30 nov` at 13 units needs about 45)."""
    parts = []
    for i, day in enumerate(days):
        said_day = day_month(day, months)
        for n, (name, values) in enumerate(series.items()):
            faded = name in before and before[name][i]
            parts.extend(_bar(frame, i, n, values[i], faded=faded, tip=f"{name} {said_day}", endless=endless))
        if i % -(-len(days) // 6) == 0:
            middle = _inside(8 + i * frame.slot + frame.slot / 2, said_day)
            parts.append(_text(middle, frame.base + 16, said_day, anchor="middle"))
    return parts


def _bar(frame: _Frame, day: int, n: int, value: float | None, *, faded: bool, tip: str, endless: str) -> list[str]:
    """Series n's bar on day `day` (none for no figure or none above 0); an infinite figure reaches the top."""
    if value is None or value <= 0:
        return []
    capped = math.isinf(value)
    height = PLOT if capped else PLOT * value / frame.top
    x = 8 + day * frame.slot + frame.slot * 0.1 + n * frame.width
    lighter = ' fill-opacity="0.45"' if faded else ""
    outline = ' stroke="#222" stroke-dasharray="3 2"' if capped else ""
    said = escape(f"{tip}: {endless if capped else _label(value, False)}")
    return [
        f'<rect x="{x:.1f}" y="{frame.base - height:.1f}" width="{frame.width:.1f}" height="{height:.1f}" '
        f'fill="{COLOURS[n % len(COLOURS)]}"{lighter}{outline}><title>{said}</title></rect>'
    ]


def _switch_on(x: float, plot_top: float, base: float, y: float, label: str) -> list[str]:
    """A dashed line at the switch-on day's left edge down to the axis, its label under the days."""
    anchor = "start" if x < NARROW / 2 else "end"
    return [
        f'<line x1="{x:.1f}" y1="{plot_top}" x2="{x:.1f}" y2="{base}" stroke="#222" stroke-dasharray="4 3"/>',
        _text(x + (3 if anchor == "start" else -3), y, label, anchor=anchor),
    ]


def _legend(names: Sequence[str], y: float) -> tuple[list[str], float]:
    """A square and a name per series, wrapped to the width; returns the parts and the last line's y."""
    parts, x = [], 8.0
    for n, name in enumerate(names):
        room = 18 + 7.5 * len(name) + 10
        if x > 8 and x + room > NARROW - 8:
            x, y = 8.0, y + 20
        parts.append(f'<rect x="{x:.1f}" y="{y - 11}" width="12" height="12" fill="{COLOURS[n % len(COLOURS)]}"/>')
        parts.append(_text(x + 16, y, name))
        x += room
    return parts, y


def _inside(middle: float, said: str) -> float:
    """The middle of a label, moved in so that the whole label stands inside the picture."""
    half = 3.7 * len(said)
    return min(max(middle, 8 + half), NARROW - 8 - half)


def _wrapped(said: str) -> list[str]:
    """Lines that fit the narrow width (about 7 units a letter at 13 units)."""
    return textwrap.wrap(said, 44) or [""]


def _text(x: float, y: float, said: str, *, anchor: str = "start", weight: str = "400", fill: str = "#222") -> str:
    return (
        f'<text x="{x:.1f}" y="{y}" font-size="{NARROW_TEXT}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}">{escape(said)}</text>'
    )
