"""The day table of `taak overzicht --per-dag` and the cockpit's before-and-after pictures, from rows made here."""

from __future__ import annotations

import math
import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from worker.cockpit import charts
from worker.core.daily import before_switch_on, bot_series, daily_table, fleet_switch_on, switch_on_line
from worker.core.table import month_names

D1, D2, D3 = date(2026, 12, 1), date(2026, 12, 2), date(2026, 12, 3)


def row(day: date, bot: str | None, **figures: Any) -> dict[str, Any]:
    empty = {
        "nieuw": 0,
        "klaar": 0,
        "mislukt": 0,
        "sessies": 0,
        "sessies_per_klare_taak": None,
        "sessies_zonder_stap": 0,
        "vragen": 0,
        "vraag_wacht_uren": None,
        "compacties": 0,
        "kosten_usd": Decimal("0"),
        "berichten": None,  # the old queue not read: after the switch-on
        "afgehandeld": None,
        "aangezet": D2,
        "voor_aanzetten": False,
    }
    return {"dag": day, "bot": bot, **empty, **figures}


ROWS = [
    row(D1, None, berichten=4, afgehandeld=1, voor_aanzetten=True),
    row(D1, "paco", berichten=4, afgehandeld=1, voor_aanzetten=True),
    row(D2, None, klaar=2, sessies=3, sessies_per_klare_taak=Decimal("1.50"), kosten_usd=Decimal("0.5")),
    row(D2, "paco", klaar=2, sessies=3, sessies_per_klare_taak=Decimal("1.50"), kosten_usd=Decimal("0.5")),
    row(D3, None, vragen=2, vraag_wacht_uren=Decimal("3.5")),
    row(D3, "paco", vragen=1, vraag_wacht_uren=Decimal("2.0")),
    row(
        D3,
        "sjakie",
        vragen=1,
        vraag_wacht_uren=Decimal("5.0"),
        aangezet=None,
        voor_aanzetten=True,
        berichten=0,
        afgehandeld=0,
    ),
]


def test_the_table_has_a_line_per_row_the_fleet_named_and_the_old_queue_only_before_the_switch_on() -> None:
    lines = daily_table(ROWS, "en").splitlines()
    assert lines[0].split() == [
        *("day", "bot", "new", "done", "failed", "sessions", "sess/done", "no", "step", "questions", "wait", "h"),
        *("comp", "cost", "messages", "handled"),
    ]
    assert lines[1].split() == ["1", "Dec", "fleet", "0", "0", "0", "0", "-", "0", "0", "-", "0", "$0.00", "4", "25%"]
    assert lines[4].split() == ["2", "Dec", "paco", "0", "2", "0", "3", "1.50", "0", "0", "-", "0", "$0.50", "-", "-"]
    assert lines[7].split()[2:] == ["sjakie", "0", "0", "0", "0", "-", "0", "1", "5.0", "0", "$0.00", "0", "-"]
    assert lines[-1] == (
        "(switched on at the first session: paco 2 Dec; a bot's days before its switch-on also count its messages in "
        "the old queue agent_messages; wait h: the median in hours)"
    )


def test_the_table_shows_the_old_queue_as_the_rows_give_it_the_fleets_after_its_first_switch_on_too() -> None:
    """The text hid the fleet's old queue from the fleet's switch-on (its first bot's) while --json gave it: in a
    rollout one bot at a time the other bots' messages are the fleet's before. The rows decide, for both."""
    rows = [row(D3, None, berichten=4, afgehandeld=3, voor_aanzetten=False)]
    assert daily_table(rows, "en").splitlines()[1].split()[-2:] == ["4", "75%"]
    unknown = [row(D3, None, berichten=4, afgehandeld=None)]  # no status column: the share unknown
    assert daily_table(unknown, "en").splitlines()[1].split()[-2:] == ["4", "-"]


def test_days_of_another_year_than_today_carry_their_year() -> None:
    """`--dagen 400` showed `5 dec` twice, a year apart. Today is the last row's day (the table ends today)."""
    rows = [row(date(2025, 12, 5), None, aangezet=date(2025, 12, 5)), row(date(2026, 12, 5), None)]
    lines = daily_table(rows, "nl").splitlines()
    assert lines[1].split()[:4] == ["5", "dec", "2025", "vloot"]
    assert lines[2].split()[:3] == ["5", "dec", "vloot"]
    with_bot = [row(date(2025, 12, 5), "paco", aangezet=date(2025, 12, 5)), row(date(2026, 1, 2), None)]
    assert "paco 5 dec 2025;" in switch_on_line(with_bot, "nl")


def test_the_table_says_so_when_no_bot_was_switched_on() -> None:
    assert switch_on_line([row(D1, None, aangezet=None)], "nl") == (
        "(nog geen bot aangezet (geen sessie): elke dag telt ook de berichten in de oude wachtrij agent_messages)"
    )


def test_sessions_per_finished_task_before_the_switch_on_are_the_old_queues_messages_per_handled_message() -> None:
    assert bot_series(ROWS, [D1, D2, D3], "sessies_per_klare_taak") == {"paco": [4.0, 1.5, None]}
    assert bot_series(ROWS, [D1, D2, D3], "vraag_wacht_uren") == {
        "paco": [None, None, 2.0],
        "sjakie": [None, None, 5.0],
    }
    assert before_switch_on(ROWS, [D1, D2, D3]) == {"paco": [True, False, False], "sjakie": [False, False, True]}
    assert fleet_switch_on(ROWS) == D2


def test_messages_per_handled_message_come_from_the_counts_and_none_handled_is_the_worst_not_nothing() -> None:
    """3 messages, 2 handled drew 1.49 (from the share rounded to 0.67); 1 message, none handled drew no bar."""
    rows = [
        row(D1, "paco", berichten=3, afgehandeld=2, voor_aanzetten=True),
        row(D2, "paco", berichten=1, afgehandeld=0, voor_aanzetten=True),
        row(D3, "paco", berichten=2, afgehandeld=None, voor_aanzetten=True),  # no status column: unknown
    ]
    assert bot_series(rows, [D1, D2, D3], "sessies_per_klare_taak") == {"paco": [1.5, math.inf, None]}


def test_none_handled_is_a_bar_to_the_top_with_a_dashed_outline_and_a_title_that_says_so() -> None:
    svg = charts.grouped(
        "sessions per finished task, before and after the switch-on",
        [D1, D2],
        {"paco": [math.inf, 1.5], "sjakie": [3.0, None]},
        month_names("en"),
        endless="no message handled",
    )
    shown = bars(svg)
    worst, sjakie = shown["paco 1 Dec: no message handled"], shown["sjakie 1 Dec: 3"]
    assert worst[3] == pytest.approx(charts.PLOT)  # as tall as the tallest figure can be
    assert sjakie[3] == pytest.approx(charts.PLOT)  # the scale is the figures', not infinity's
    assert shown["paco 2 Dec: 1.5"][3] == pytest.approx(charts.PLOT / 2)
    outlined = re.findall(r'<rect [^>]*stroke-dasharray="3 2"[^>]*><title>([^<]*)</title>', svg)
    assert outlined == ["paco 1 Dec: no message handled"]


def picture() -> str:
    series = {"paco": [4.0, 1.5, 2.0], "sjakie": [None, 3.0, 1.0]}
    before = {"paco": [True, False, False], "sjakie": [False, False, False]}
    return charts.grouped(
        "sessions per finished task, before and after the switch-on",
        [D1, D2, D3],
        series,
        month_names("en"),
        before=before,
        switch_on=(D2, "switched on"),
        note="lighter: old queue, messages per handled message",
    )


def bars(svg: str) -> dict[str, tuple[float, float, float, float, bool]]:
    """Each bar by its tip: x, y, width, height, and whether it is drawn lighter."""
    found = re.findall(
        r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"([^>]*)><title>([^<]*)</title>', svg
    )
    return {tip: (float(x), float(y), float(w), float(h), "fill-opacity" in rest) for x, y, w, h, rest, tip in found}


def test_the_bots_bars_of_a_day_stand_side_by_side_on_the_axis_never_stacked() -> None:
    shown = bars(picture())
    paco, sjakie = shown["paco 2 Dec: 1.5"], shown["sjakie 2 Dec: 3"]
    assert paco[0] + paco[2] <= sjakie[0]  # beside each other
    assert paco[1] + paco[3] == pytest.approx(sjakie[1] + sjakie[3])  # both on the axis
    assert sjakie[3] == pytest.approx(2 * paco[3], abs=0.2)  # heights in proportion to the figures
    assert shown["paco 1 Dec: 4"][4]  # the day before the switch-on drawn lighter
    assert not paco[4]
    assert "sjakie 1 Dec" not in " ".join(shown)  # no figure, no bar
    assert 'stroke-dasharray="4 3"' in picture()  # the switch-on's line
    assert ">switched on</text>" in picture()


def test_every_label_is_at_least_11_px_on_a_390_px_phone() -> None:
    """The page's paddings leave the picture at least 330 px of a 390 px screen (the board's one column)."""
    svg = picture()
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
    sizes = [float(size) for size in re.findall(r'<text [^>]*font-size="([\d.]+)"', svg)]
    assert len(sizes) == svg.count("<text ")  # every text has its size set, whatever the page's style says
    assert min(sizes) * 330 / width >= 11
    assert not re.search(r'class="chart-(axis|title)"', svg)  # the page's 10 px class would override the size
