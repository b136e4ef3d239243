"""A session that speaks before its daemon knows the session's launcher (a loaded machine: the task that started
it had not run again for 2 s) was refused as another's: its `taak klaar` failed and its task ran a second time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import anyio.lowlevel
import asyncpg

from tests.helpers import ledger_on
from tests.system.harness import short_folder
from worker.daemon.gate import Gate, Running
from worker.daemon.journal import Journal
from worker.db.ledger import NewTask

ASK = """
import json, sys
from worker.client import exchange
print(json.dumps(exchange(sys.argv[1], json.loads(sys.argv[2]))))
"""


async def test_a_session_that_speaks_before_its_launcher_is_known_is_answered_once_it_is(
    conn: asyncpg.Connection, tmp_path: Path
) -> None:
    ledger = ledger_on(conn)
    task_id = await ledger.nieuw(NewTask("Schrijf de blog", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    running = Running(claim, "s-een", tmp_path / "briefing.md")  # its launcher not known yet
    gate = Gate(
        {task_id: running},
        Journal(tmp_path / "journal.jsonl"),
        lambda: ledger,
        lambda _what, operation: operation(),
        tmp_path,
        "Europe/Amsterdam",
        "nl",
        lambda _task_id: anyio.lowlevel.checkpoint(),
    )
    socket_path = Path(short_folder()) / "gate.sock"
    request = json.dumps({"op": "taak", "id": task_id, "token": claim.token})
    async with anyio.create_task_group() as group:
        await group.start(gate.serve, socket_path)
        # A process of this test's own tree asks at once; the launcher (this test's process) is known a second on.
        asking = subprocess.Popen(
            [sys.executable, "-c", ASK, str(socket_path), request], stdout=subprocess.PIPE, text=True
        )
        await anyio.sleep(1)
        running.leader = os.getpid()
        running.launched.set()
        out, _ = await anyio.to_thread.run_sync(lambda: asking.communicate(timeout=30))
        group.cancel_scope.cancel()
    answer = json.loads(out)
    assert answer["code"] == 0, answer
    assert json.loads(answer["out"])["id"] == task_id
