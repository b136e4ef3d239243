"""Wall time of the hooks as Claude Code runs them: a process, start to exit."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

from worker.db.ledger import Ledger, NewTask
from worker.hooks.stand import stand_path, write_stand


def _time(command: list[str], env: dict[str, str], stdin: bytes, repeats: int) -> float:
    timings = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, env=env, input=stdin, capture_output=True, check=True)
        timings.append(time.perf_counter() - started)
    return statistics.median(timings) * 1000


async def hooks_table(url: str, *, repeats: int) -> str:
    conn = await asyncpg.connect(url)
    try:
        ledger = Ledger(conn)
        task_id = await ledger.nieuw(NewTask("Meet de hooks", "bench", toegewezen_aan="bench", volgende_stap="meten"))
        claim = await ledger.claim(["bench"])
        assert claim is not None
    finally:
        await conn.close()
    with tempfile.TemporaryDirectory() as folder:
        # As on the bots' machines, Python may cache compiled modules (this workplace sets
        # PYTHONDONTWRITEBYTECODE, which makes every start compile the package again).
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            TAAK_DATABASE_URL=url,
            TAAK_DATA_DIR=str(Path(folder) / "data"),
            TAAK_ID=task_id,
            TAAK_TOKEN=claim.token,
            TAAK_BOT="bench",
        )
        taak = [sys.executable, "-m", "worker.cli.taak", "hook"]
        _time([*taak, "session-start"], env, b"{}", 1)  # fills the bytecode cache
        bare = _time([sys.executable, "-c", "pass"], env, b"", repeats)
        start = _time([*taak, "session-start"], env, json.dumps({"source": "compact"}).encode(), repeats)
        turn = json.dumps({"prompt": "ga door"}).encode()
        prompt_db = _time([*taak, "prompt"], env, turn, repeats)
        # What the daemon leaves for a queue session: the prompt hook then needs no database.
        write_stand(Path(folder) / "data", task_id, status="bezig", volgende_stap="meten")
        stand = str(stand_path(Path(folder) / "data", task_id))
        prompt = _time([*taak, "prompt", "--stand", stand], env, turn, repeats)
    return "\n".join(
        [
            f"### Hooks, wall time as a process (median of {repeats}; with the database; bytecode cached)",
            "",
            "| hook | median ms | goal | bare `python -c pass` ms |",
            "|---|---:|---|---:|",
            f"| session-start (compact) | {start:.0f} | <= 250 | {bare:.0f} |",
            f"| prompt (queue session) | {prompt:.0f} | <= 150 | {bare:.0f} |",
            f"| prompt (no session file: the database) | {prompt_db:.0f} | | {bare:.0f} |",
        ]
    )
