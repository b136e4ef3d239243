"""Small helpers the tests share: running the real commands, snapshotting the tables."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import asyncpg


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def run_taak(
    env: dict[str, str], *args: str, stdin: bytes | None = None, timeout: float = 60, cwd: Path | None = None
) -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *args],
        env=env,
        cwd=cwd,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


async def snapshot(conn: asyncpg.Connection) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Every task row and every log row, to compare before and after a refused command."""
    tasks = await conn.fetch("select * from agent_taken order by id")
    rows = await conn.fetch("select * from agent_taak_log order by id")
    return [dict(r) for r in tasks], [dict(r) for r in rows]
