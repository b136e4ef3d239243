"""Queue sessions in the lossless archive: their lines carry the task ID, and a session that left no Claude
Code transcript is archived from the daemon's own capture of its stdout."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from tests.fixtures import FIXTURES
from tests.helpers import run_taak
from tests.system.harness import InProcess, new_task, status_of, switch_on, wait_for, worker_env
from worker.memory.archive import (
    TIMES_DONE,
    TIMES_OPEN,
    Archive,
    Layout,
    QueueSession,
    bring_up_to_date,
    queue_sessions,
    write_session_record,
)

ZONE = ZoneInfo("Europe/Amsterdam")
FIXTURE_SESSION = "8122657c-fe54-4dc9-89a3-20049e8a84f7"  # the session id inside agentlogs__crud.jsonl


def archived(data_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for p in sorted((data_dir / "archief").glob("*/*.jsonl")) for line in p.open()]


async def test_a_queue_session_without_a_transcript_is_archived_from_its_capture_with_its_task(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    home = tmp_path / "home"  # no ~/.claude/projects here: the fake agent keeps no transcript
    home.mkdir()
    env = worker_env(db_url, tmp_path, HOME=str(home))
    daemon = InProcess(env, tmp_path / "worker.log")
    started = time.time()
    try:
        task_id = await new_task(conn, "Schrijf de blog over de veranda", toegewezen_aan="paco")

        async def done() -> bool:
            return await status_of(conn, task_id) == "klaar"

        await wait_for(done, what="klaar")
        (capture,) = queue_sessions(tmp_path / "data" / "sessies").values()
        assert (capture.task, capture.bot) == (task_id, "paco")
        await wait_for(_exists(capture.times_file(TIMES_DONE)), what="the session's times file to close")
    finally:
        await daemon.stop()
    first = run_taak(env, "archief", "bijwerken")
    assert first.code == 0, first.err
    lines = [r for r in archived(tmp_path / "data") if r["session"] == capture.session]
    assert [r["text"] for r in lines if r["type"] == "text"] == ["Ik begin.", "Stap een is gelogd."]
    assert {r["taak"] for r in lines} == {task_id}
    assert {r["actor"] for r in lines if r["role"] == "assistant"} == {"paco"}  # the bot speaks, not a model
    for record in lines:
        moment = datetime.fromisoformat(str(record["ts"]).replace("Z", "+00:00")).timestamp()
        assert started - 1 <= moment <= time.time()  # each line timed by its arrival
    assert run_taak(env, "archief", "bijwerken").out.startswith("0 nieuwe regels gearchiveerd")
    day = f"{datetime.fromtimestamp(started, ZONE):%Y-%m-%d}"
    found = json.loads(run_taak(env, "recall", f"{day} gelogd", "--taak", task_id, "--json").out)
    # One word hit in a range of two lines: the hit first, then the rest of the range, each line with its task.
    assert [(r["text"], r["taak"], r["bron"]) for r in found["regels"]] == [
        ("Stap een is gelogd.", task_id, "woorden"),
        ("Ik begin.", task_id, "bereik"),
    ]


async def test_the_daemon_brings_the_archive_up_to_date_when_it_starts(db_url: str, tmp_path: Path) -> None:
    projects = tmp_path / "home" / ".claude" / "projects" / "-srv-blog"
    projects.mkdir(parents=True)
    shutil.copy(FIXTURES / "agentlogs__crud.jsonl", projects / f"{FIXTURE_SESSION}.jsonl")
    env = worker_env(db_url, tmp_path, HOME=str(tmp_path / "home"))
    daemon = InProcess(env, tmp_path / "worker.log")
    try:

        async def updated() -> bool:
            return daemon.has_event("archive_updated")

        await wait_for(updated, what="the indexer's first run")
    finally:
        await daemon.stop()
    (event,) = [e for e in daemon.events() if e.get("event") == "archive_updated"]
    records = archived(tmp_path / "data")
    assert event["archived"] == event["indexed"] == len(records) > 0
    assert any("JOKE.md" in str(r["text"]) for r in records)


def _exists(path: Path) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return path.exists()

    return check


def test_a_transcript_of_a_queue_session_carries_its_task_id(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "data")
    folder = layout.sessions / "HV-20261129-004"
    folder.mkdir(parents=True)
    write_session_record(folder, f"1-{FIXTURE_SESSION}", session=FIXTURE_SESSION, task="HV-20261129-004", bot="kimi")
    other = FIXTURES / "agentlogs__compact.jsonl"
    bring_up_to_date(layout, ZONE, [FIXTURES / "agentlogs__crud.jsonl", other])
    records = archived(layout.data_dir)
    ours = [r for r in records if r["session"] == FIXTURE_SESSION]
    assert ours
    assert {r.get("taak") for r in ours} == {"HV-20261129-004"}
    assert {r["actor"] for r in ours if r["role"] == "assistant"} == {"kimi"}
    assert all("taak" not in r for r in records if r["session"] != FIXTURE_SESSION)


def _capture(folder: Path, session: str, *, finished: bool) -> QueueSession:
    stem = f"1-{session}"
    task_folder = folder / "HV-20261129-007"
    task_folder.mkdir(parents=True, exist_ok=True)
    write_session_record(task_folder, stem, session=session, task="HV-20261129-007", bot="coco")  # as the daemon
    path = task_folder / f"{stem}.jsonl"
    message = {"type": "assistant", "session_id": session, "message": {"role": "assistant", "content": "Hallo."}}
    path.write_text("not json\n" + json.dumps(message) + "\n")
    path.with_suffix(TIMES_DONE if finished else TIMES_OPEN).write_text("1764441000000\n1764441001500\n")
    return queue_sessions(folder)[session]


def test_a_capture_is_archived_only_when_its_session_is_over_and_left_no_transcript(tmp_path: Path) -> None:
    sessies = tmp_path / "sessies"
    running = _capture(sessies, "11111111-1111-1111-1111-111111111111", finished=False)
    over = _capture(sessies, "22222222-2222-2222-2222-222222222222", finished=True)
    assert not running.finished(time.time())
    assert over.finished(time.time())
    assert running.finished(time.time() + 2 * 24 * 3600)  # a daemon that died mid-session: over a day later
    archive = Archive(tmp_path / "archief", ZONE)
    assert archive.import_capture(over) == 1
    assert archive.import_capture(over) == 0
    (record,) = [json.loads(line) for p in archive.day_files() for line in p.open()]
    archive.close()
    assert (record["ts"], record["taak"], record["actor"], record["text"]) == (
        "2025-11-29T18:30:01.500Z",
        "HV-20261129-007",
        "coco",
        "Hallo.",
    )


def test_a_capture_whose_session_has_a_transcript_is_left_to_the_transcript(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout(tmp_path / "data")
    _capture(layout.sessions, FIXTURE_SESSION, finished=True)
    projects = tmp_path / "home" / ".claude" / "projects" / "x"
    projects.mkdir(parents=True)
    shutil.copy(FIXTURES / "agentlogs__crud.jsonl", projects / f"{FIXTURE_SESSION}.jsonl")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    bring_up_to_date(layout, ZONE)
    texts = [r["text"] for r in archived(layout.data_dir)]
    assert "Hallo." not in texts
    assert any("JOKE.md" in str(t) for t in texts)
    assert {r.get("taak") for r in archived(layout.data_dir)} == {"HV-20261129-007"}
