"""Claude Code's stream-json output, one line at a time: what the daemon needs from it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from worker.core.folders import loads


@dataclass(frozen=True)
class Init:
    session_id: str | None
    model: str | None
    version: str | None


@dataclass(frozen=True)
class Result:
    is_error: bool
    subtype: str | None
    text: str | None
    num_turns: int | None
    duration_ms: int | None
    total_cost_usd: float | None
    terminal_reason: str | None

    def as_meta(self) -> dict[str, Any]:
        """Every field but the text, marked as a result."""
        return {"resultaat": True, **{name: value for name, value in asdict(self).items() if name != "text"}}


Event = Init | Result | None


def parse_line(line: bytes) -> Event:
    """The event a stream line carries; None for any other line, including lines that are not JSON."""
    try:
        data = loads(line)
    except ValueError:  # not JSON, or nested too deep to read
        return None
    if not isinstance(data, dict):
        return None
    kind = data.get("type")
    if kind == "system" and data.get("subtype") == "init":
        return Init(
            session_id=_str(data.get("session_id")),
            model=_str(data.get("model")),
            version=_str(data.get("claude_code_version")),
        )
    if kind == "result":
        # What the agent says is checked as any input is: a cost of `1e999` or `NaN` (valid JSON to Python) could not
        # be stored and failed the task's ending again at every claim; a negative one lowered the day's brake.
        return Result(
            is_error=data.get("is_error") is True,
            subtype=_str(data.get("subtype")),
            text=_str(data.get("result")),
            num_turns=_int(data.get("num_turns")),
            duration_ms=_int(data.get("duration_ms")),
            total_cost_usd=_float(data.get("total_cost_usd")),
            terminal_reason=_str(data.get("terminal_reason")),
        )
    return None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


BIGINT_MAX = 2**63 - 1


def _int(value: object) -> int | None:
    """A count or a duration: a whole number from 0 to Postgres's bigint; None for anything else."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= BIGINT_MAX:
        return value
    return None


def _float(value: object) -> float | None:
    """A cost: a finite number from 0; None for anything else (unknown, as when it is left out)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    return None


RESULT_PHRASES = frozenset(
    {
        "row_result",
        "row_result_error",
        "row_result_no_text",
        "row_result_error_no_text",
        "row_result_none",
        "row_result_none_why",
    }
)
RESULT_FIGURES: dict[str, Callable[[object], object]] = {
    "num_turns": _int,
    "duration_ms": _int,
    "total_cost_usd": _float,
    "subtype": _str,
    "terminal_reason": _str,
    "stop": _str,
    "sessie": _str,
    "is_error": lambda v: v is True,
    "resultaat": lambda v: v is True,
    "exit_code": lambda v: v if isinstance(v, int) and not isinstance(v, bool) and abs(v) < 1 << 31 else None,
}


def result_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A session's result row's meta as a journal entry holds it, checked again before it is written: only what the
    daemon writes there, each figure as a result line's is checked, and the phrase only if it is a result's. The
    journal is a file the session's user can write: a cost of -99,999,999 made there passed the daily brake."""
    kept = {name: check(meta[name]) for name, check in RESULT_FIGURES.items() if name in meta}
    zin = meta.get("zin")
    if isinstance(zin, dict) and zin.get("sleutel") in RESULT_PHRASES:
        kept["zin"] = zin
    return kept
