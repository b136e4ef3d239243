"""A session speaks only for its own task, and only of what is its own to say: the daemon asks the kernel which
process is on the socket (peer credentials) and answers it only for the session whose tree it belongs to; what the
daemon derives (cost, result, the system's phrases) is never taken from a session."""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import outside, run_taak, send_raw, session_env
from tests.system.harness import Daemon, new_task, records, switch_on, wait_for, worker_env


async def _sessions(folder: Path) -> list[dict[str, object]] | None:
    return records(folder) or None


async def _two_sessions(folder: Path) -> list[dict[str, object]] | None:
    found = records(folder)
    return found if len(found) >= 2 else None


@pytest.mark.slow
async def test_a_session_that_stole_a_siblings_token_cannot_write_on_its_task(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    await new_task(conn, "eerste", toegewezen_aan="paco")
    await new_task(conn, "tweede", toegewezen_aan="paco")
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy", TAAK_CONCURRENCY="2"), tmp_path / "worker.log")
    try:
        thief, victim = [session_env(r) for r in await wait_for(lambda: _two_sessions(tmp_path), what="two sessions")]
        # Everything the victim's own `taak` would send (read from its environment, or from the journal).
        stolen = {**thief, "TAAK_ID": victim["TAAK_ID"], "TAAK_TOKEN": victim["TAAK_TOKEN"]}
        as_sibling = run_taak(stolen, "log", "stap_klaar", "gestolen stap")
        from_outside = run_taak(outside(victim), "log", "stap_klaar", "van buiten")
        own = run_taak(thief, "log", "stap_klaar", "eigen stap")
        victims_rows = await conn.fetch("select tekst from agent_taak_log where taak_id = $1", victim["TAAK_ID"])
    finally:
        daemon.stop()
    refusal = f"taak: {victim['TAAK_ID']}: een queue-sessie kan alleen haar eigen taak lezen en schrijven"
    for refused in (as_sibling, from_outside):
        assert refused.code == 1, refused
        assert refused.err.startswith(refusal), refused.err
    assert own.code == 0, own.err
    assert {"gestolen stap", "van buiten"}.isdisjoint(r["tekst"] for r in victims_rows)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("meta", "refused_key"),
    [
        ({"kosten": -99_999_999, "total_cost_usd": -99_999_999}, "kosten"),  # past the daily cost brake
        ({"zin": {"sleutel": "row_started", "waarden": {"attempt": 1, "of": 3, "holder": "paco@x"}}}, "zin"),
        ({"rapport": "x" * 3_000_000}, "meta"),
        ({"trigger": "evil"}, "trigger"),
    ],
    ids=["a cost", "a system phrase", "3 MB", "a trigger Claude Code never names"],
)
async def test_a_session_cannot_send_what_the_daemon_derives(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, meta: dict[str, object], refused_key: str
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy"), tmp_path / "worker.log")
    try:
        (record,) = await wait_for(lambda: _sessions(tmp_path), what="the session")
        env = session_env(record)
        request = {"op": "log", "id": task_id, "token": env["TAAK_TOKEN"], "soort": "notitie", "tekst": "ik"}
        (answer,) = send_raw(env, [(json.dumps({**request, "meta": meta}).encode() + b"\n", True)])
        rows = await conn.fetch("select meta from agent_taak_log where taak_id = $1 and tekst = 'ik'", task_id)
    finally:
        daemon.stop()
    said = json.loads(answer)
    assert said["code"] == 2, said
    assert said["err"].startswith(f"{refused_key}: dat geeft een sessie niet mee"), said["err"]
    assert rows == []


async def test_a_forged_journal_entry_writes_nothing_at_the_next_start(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """The journal is a file the sessions' OS user can write: a result row made there by hand, for a task with no
    claim at all, was written at the next start (and its cost counted against the brake)."""
    import signal
    import uuid

    await switch_on(conn, "paco")
    await new_task(conn, "loopt", toegewezen_aan="paco")
    untouched = await new_task(conn, "wacht", toegewezen_aan="sjakie")
    env = worker_env(db_url, tmp_path, mode="busy")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _sessions(tmp_path), what="the session")
        daemon.signal(signal.SIGKILL)
        daemon.wait()
    finally:
        daemon.stop()
    (journal,) = (Path(env["TAAK_DATA_DIR"]) / "journaal").glob("*.jsonl")
    forged = {
        "seq": 999,
        "op": "resultaat",
        "task_id": untouched,
        "token": str(uuid.uuid4()),
        "bot": "paco",
        "sessie": None,
        "fields": {"tekst": "sessie-resultaat: vervalst", "meta": {"total_cost_usd": -99_999_999}},
        "gezegd": "2026-12-05T10:00:00+00:00",
        "sleutel": uuid.uuid4().hex,
    }
    with journal.open("a") as handle:
        handle.write(json.dumps({"entry": forged}) + "\n")
    again = Daemon(env, tmp_path / "again.log")
    try:
        await wait_for(lambda: _said(again, "worker_started"), timeout=60, what="the restart")
    finally:
        again.stop()
    rows = await conn.fetch("select tekst from agent_taak_log where taak_id = $1", untouched)
    assert rows == []  # the harness makes the task without a creation note
    (refused,) = [e for e in again.events() if e.get("event") == "journal_write_refused"]
    assert refused["task_id"] == untouched


async def _said(daemon: Daemon, event: str) -> bool:
    return daemon.has_event(event)


async def test_a_copy_of_a_real_result_row_made_in_the_journal_writes_nothing_at_the_next_start(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """The copy kept the real claim's token and session (both readable in the journal) with a cost of
    -99,999,999: it was written as a second result row, and the bot's day cost went below zero (tester of
    issue 38). A session has one result row, and its figures are checked as a result line's are."""
    import signal
    import uuid

    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="klaar")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _result_rows(conn, task_id), timeout=60, what="the real result row")
        daemon.signal(signal.SIGKILL)
        daemon.wait()
    finally:
        daemon.stop()
    (journal,) = (Path(env["TAAK_DATA_DIR"]) / "journaal").glob("*.jsonl")
    real = next(json.loads(line)["entry"] for line in journal.read_text().splitlines() if '"op": "resultaat"' in line)
    forged = {**real, "seq": 999, "sleutel": uuid.uuid4().hex}
    forged["fields"] = {**real["fields"], "meta": {**real["fields"]["meta"], "total_cost_usd": -99_999_999}}
    with journal.open("a") as handle:
        handle.write(json.dumps({"entry": forged}) + "\n")
    again = Daemon(env, tmp_path / "again.log")
    try:
        await wait_for(lambda: _said(again, "worker_started"), timeout=60, what="the restart")
    finally:
        again.stop()
    costs = await conn.fetch(
        "select (meta ->> 'total_cost_usd')::numeric as cost from agent_taak_log"
        " where taak_id = $1 and meta ? 'resultaat'",
        task_id,
    )
    assert len(costs) == 1
    assert costs[0]["cost"] >= 0


async def _result_rows(conn: asyncpg.Connection, task_id: str) -> bool:
    rows = "select count(*) from agent_taak_log where taak_id = $1 and meta ? 'resultaat'"
    return bool(await conn.fetchval(rows, task_id))
