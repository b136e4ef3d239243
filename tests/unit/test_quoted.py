"""A value an error line quotes: one line, visible, and not a screenful."""

from __future__ import annotations

from worker.core.terminal import QUOTED_MAX_CHARS, quoted


def test_a_tab_in_a_quoted_value_is_shown_not_obeyed() -> None:
    """A raw tab stretched the error line and hid itself (tester 22)."""
    assert quoted("tab\there") == "tab\\there"


def test_a_line_break_stays_on_the_line_and_a_long_value_is_cut_with_a_mark() -> None:
    assert quoted("jan\nklaas") == "jan ⏎ klaas"
    assert quoted("x" * 500) == "x" * QUOTED_MAX_CHARS + "…"
