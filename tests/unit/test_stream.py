"""Claude Code's stream-json as the daemon reads it: what the agent says is checked as any input is."""

from __future__ import annotations

import pytest

from worker.core.stream import Result, parse_line


@pytest.mark.parametrize(
    ("fields", "seen"),
    [
        ('"total_cost_usd": 1e999', ("total_cost_usd", None)),
        ('"total_cost_usd": NaN', ("total_cost_usd", None)),
        ('"total_cost_usd": -Infinity', ("total_cost_usd", None)),
        ('"total_cost_usd": -3', ("total_cost_usd", None)),
        ('"total_cost_usd": 0.42', ("total_cost_usd", 0.42)),
        ('"duration_ms": -5', ("duration_ms", None)),
        ('"num_turns": 99999999999999999999999', ("num_turns", None)),
        ('"is_error": "false"', ("is_error", False)),
        ('"is_error": "yes"', ("is_error", False)),
        ('"is_error": true', ("is_error", True)),
    ],
)
def test_a_result_lines_figures_are_taken_only_when_they_are_what_they_claim(
    fields: str, seen: tuple[str, object]
) -> None:
    """A cost Postgres cannot store failed the task's ending; a negative one lowered the day's brake; the string
    "false" read as an error."""
    event = parse_line(f'{{"type": "result", "result": "x", {fields}}}'.encode())
    assert isinstance(event, Result)
    name, value = seen
    assert getattr(event, name) == value
