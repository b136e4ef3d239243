"""The daemon's session folders do not grow without end (issue 41): the folder in `sessies/` of a finished task,
quiet for TAAK_SESSIONS_DAYS days, is removed once the archive holds its lines; the archive stays whole, and `taak
doctor` says how much the folders hold."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import asyncpg

from tests.helpers import run_taak
from tests.system.harness import InProcess, new_task, status_of, switch_on, wait_for, worker_env


def age(folder: Path, days: float) -> None:
    """Every file of a folder, and the folder, last written `days` days ago."""
    moment = time.time() - days * 86400
    for path in [*folder.rglob("*"), folder]:
        os.utime(path, (moment, moment))


def archived_texts(data_dir: Path) -> list[str]:
    return [
        json.loads(line)["text"] for path in sorted((data_dir / "archief").glob("*/*.jsonl")) for line in path.open()
    ]


async def test_a_finished_tasks_quiet_folder_goes_after_its_lines_are_archived_and_no_other(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    home = tmp_path / "home"  # no transcripts: the session's lines reach the archive from the daemon's capture
    home.mkdir()
    env = worker_env(db_url, tmp_path, HOME=str(home), TAAK_SESSIONS_DAYS="30")
    sessions = tmp_path / "data" / "sessies"
    first = InProcess(env, tmp_path / "first.log")
    try:
        finished = await new_task(conn, "Schrijf de blog over de veranda", toegewezen_aan="paco")

        async def done() -> bool:
            return await status_of(conn, finished) == "klaar" and any((sessions / finished).glob("*.tijden"))

        await wait_for(done, what="the session to finish and its capture to close")
    finally:
        await first.stop()
    waiting = await new_task(conn, "Nog niet gedaan", toegewezen_aan="sjakie")  # sjakie is off: it waits
    recent = await new_task(conn, "Net klaar")
    await conn.execute("update agent_taken set status = 'geannuleerd' where id = $1", recent)
    for task_id in (waiting, recent):
        (sessions / task_id).mkdir()
        (sessions / task_id / "1-s.jsonl").write_text("{}\n")
    (sessions / "notities").mkdir()  # not a task's folder: never touched
    for folder, days in ((finished, 40), (waiting, 40), (recent, 2), ("notities", 400)):
        age(sessions / folder, days)
    # The first daemon's indexer ran at its start, as a rule before the session ended: its lines are archived by
    # the second daemon, which removes the folder only after that run (on a loaded machine the first run can come
    # after the session's end and archive them already; the folder still waits for the second daemon's run).
    before = run_taak(env, "doctor")
    (line,) = [x for x in before.out.splitlines() if "sessiemappen:" in x]
    assert " in 4 taakmappen (" in line, line
    assert "na 30 stille dagen" in line, line

    second = InProcess(env, tmp_path / "second.log")
    try:

        async def pruned() -> bool:
            return second.has_event("sessions_pruned")

        await wait_for(pruned, timeout=60, what="the daemon to prune")
    finally:
        await second.stop()
    (event,) = [e for e in second.events() if e.get("event") == "sessions_pruned"]
    assert event["folders"] == 1
    assert event["bytes"] > 0
    assert sorted(p.name for p in sessions.iterdir()) == sorted([waiting, recent, "notities"])
    texts = archived_texts(tmp_path / "data")
    assert "Ik begin." in texts  # the archive kept the removed folder's lines
    assert "Stap een is gelogd." in texts


def test_a_sessions_days_that_is_no_whole_number_of_days_is_refused_in_one_line(cli_env: dict[str, str]) -> None:
    for value in ("-1", "0", "abc", "1.5"):
        refused = run_taak({**cli_env, "TAAK_SESSIONS_DAYS": value}, "doctor")
        assert refused.code == 2, (value, refused)
        (line,) = refused.err.strip().splitlines()
        assert "TAAK_SESSIONS_DAYS" in line, line
