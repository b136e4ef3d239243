"""The human loop and the knowledge sink: sent once, reminded once, retried on failure, never twice."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on
from tests.system.harness import InProcess, new_task, switch_on, wait_for, worker_env
from worker.db.ledger import NewTask

RECEIVER = """
import os, sys
text = sys.stdin.read()
folder = sys.argv[1]
flaky = os.path.join(folder, "flaky")
if os.path.exists(flaky) and not os.path.exists(flaky + ".done"):
    open(flaky + ".done", "w").close()
    print("telegram is down", file=sys.stderr)
    sys.exit(3)
with open(os.path.join(folder, os.environ["TAAK_MELDING"] + ".txt"), "a") as out:
    out.write(os.environ["TAAK_ID"] + "|" + text.replace("\\n", "\\\\n") + "\\n")
"""


def receiver(tmp_path: Path) -> str:
    script = tmp_path / "receiver.py"
    script.write_text(RECEIVER)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(tmp_path))}"


def lines(tmp_path: Path, kind: str) -> list[str]:
    path = tmp_path / f"{kind}.txt"
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.slow
async def test_a_question_is_sent_once_and_reminded_once(db_url: str, pool: asyncpg.Pool, tmp_path: Path) -> None:
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("Kies een kleur", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.blokkeer(task_id, "rood of blauw?", token=claim.token)
    env = worker_env(
        db_url,
        tmp_path,
        TAAK_NOTIFY_CMD=receiver(tmp_path),
        TAAK_OUTBOX_SECONDS="0.2",
        TAAK_REMIND_HOURS=str(2.5 / 3600),
    )
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _has(tmp_path, "vraag", 1), what="the question")
        await wait_for(lambda: _has(tmp_path, "herinnering", 1), timeout=15, what="the reminder")
        await ledger.antwoord(task_id, "blauw", wie="jamal")
        await _sleep(3.5)  # more than a reminder period: an answered question is not reminded again
    finally:
        await daemon.stop()
    assert lines(tmp_path, "vraag") == [f"{task_id}|{task_id}: rood of blauw?\\n"]
    assert len(lines(tmp_path, "herinnering")) == 1
    assert lines(tmp_path, "herinnering")[0].startswith(f"{task_id}|herinnering: {task_id}: rood of blauw?")


async def test_a_failed_send_is_logged_and_retried_not_lost(db_url: str, pool: asyncpg.Pool, tmp_path: Path) -> None:
    (tmp_path / "flaky").touch()
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("Kies", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.blokkeer(task_id, "welke?", token=claim.token)
    env = worker_env(db_url, tmp_path, TAAK_NOTIFY_CMD=receiver(tmp_path), TAAK_OUTBOX_SECONDS="0.2")
    await pool.execute("update taak_meldingen set volgende_poging = now()")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _failed_once(pool), what="the failed attempt")
        await pool.execute("update taak_bezorgingen set volgende_poging = now()")  # skip the 30 s backoff
        await wait_for(lambda: _has(tmp_path, "vraag", 1), what="the retry")
    finally:
        await daemon.stop()
    assert len(lines(tmp_path, "vraag")) == 1
    row = await pool.fetchrow("select pogingen, laatste_fout, verstuurd from taak_bezorgingen where kanaal = 'cmd'")
    assert row["pogingen"] == 2, (tmp_path / "worker.log").read_text()[-3000:]
    assert row["verstuurd"] is not None
    assert daemon.has_event("delivery_failed")
    assert "telegram is down" in (tmp_path / "worker.log").read_text()


async def test_the_sink_gets_one_summary_per_finished_task_across_a_restart(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "Schrijf de blog", toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="finish", TAAK_ON_KLAAR_CMD=receiver(tmp_path), TAAK_OUTBOX_SECONDS="0.2")
    first = InProcess(env, tmp_path / "first.log")
    try:
        await wait_for(lambda: _has(tmp_path, "klaar", 1), timeout=30, what="the summary")
    finally:
        await first.stop()
    second = InProcess(env, tmp_path / "second.log")
    try:
        await wait_for(lambda: _event(second, "worker_started"), what="the restart")
        await _sleep(1.5)
    finally:
        await second.stop()
    (summary,) = lines(tmp_path, "klaar")
    assert summary.startswith(f"{task_id}|Taak {task_id} is klaar")
    assert "Opdracht:\\nSchrijf de blog" in summary
    assert "Bewijs: /tmp/fake-bewijs" in summary
    assert "stap een" in summary
    assert "stap twee" in summary
    assert await conn.fetchval("select count(*) from taak_meldingen where verstuurd is not null") == 1


async def _has(folder: Path, kind: str, count: int) -> bool:
    return len(lines(folder, kind)) >= count


async def _failed_once(pool: asyncpg.Pool) -> bool:
    return bool(await pool.fetchval("select pogingen = 1 and laatste_fout is not null from taak_bezorgingen"))


async def _event(daemon: InProcess, name: str) -> bool:
    return daemon.has_event(name)


async def _sleep(seconds: float) -> None:
    import anyio

    await anyio.sleep(seconds)


async def test_an_english_daemon_sends_in_english_and_leaves_out_what_is_no_longer_true(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    """Tester 21: the failure went out in Dutch from an English daemon, and a question answered before any
    daemon ran was sent all the same, for a task already closed."""
    ledger = ledger_on(pool)
    asked = await ledger.nieuw(NewTask("Kies een kleur", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.blokkeer(asked, "rood of blauw?", token=claim.token)
    await ledger.antwoord(asked, "blauw", wie="jamal")  # answered before any daemon sent the question
    await ledger.annuleer(asked, "toch niet", wie="jamal")
    failed = await ledger.nieuw(NewTask("Vervang de lamp", "jamal", toegewezen_aan="paco", max_pogingen=1))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    assert claim.task.id == failed
    await ledger.vrijgeven(failed, claim.token, "geen toegang")
    env = worker_env(
        db_url, tmp_path, TAAK_NOTIFY_CMD=receiver(tmp_path), TAAK_OUTBOX_SECONDS="0.2", TAAK_LANGUAGE="en"
    )
    await pool.execute("update agent_bots set actief = false where bot = 'paco'")  # the daemon claims nothing
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _has(tmp_path, "mislukt", 1), what="the failure")
        await wait_for(lambda: _event(daemon, "message_outdated"), what="the question left out")
    finally:
        await daemon.stop()
    assert lines(tmp_path, "mislukt") == [f"{failed}|{failed}: failed after 1 of 1 attempts: Vervang de lamp\\n"]
    assert lines(tmp_path, "vraag") == []
    left_out = await pool.fetchrow("select verstuurd, laatste_fout from taak_meldingen where soort = 'vraag'")
    assert left_out["verstuurd"] is not None
    assert left_out["laatste_fout"].startswith("vervallen:")


async def test_a_notify_command_that_never_reads_its_message_is_sent_to_without_a_traceback(
    db_url: str, pool: asyncpg.Pool, tmp_path: Path
) -> None:
    """It broke the pipe its message came on, and every try ended in an ExceptionGroup traceback (tester of issue
    38). A command that sends a fixed text need not read the message: its exit code says it was sent."""
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask("Kies een kleur", "jamal", toegewezen_aan="paco"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.blokkeer(task_id, "rood of blauw? " * 6_000, token=claim.token)  # more than a pipe holds (64 KiB)
    sent = tmp_path / "verstuurd"
    command = f"sh -c {shlex.quote(f'echo $TAAK_ID >> {sent}')}"
    env = worker_env(db_url, tmp_path, TAAK_NOTIFY_CMD=command, TAAK_OUTBOX_SECONDS="0.2")
    daemon = InProcess(env, tmp_path / "w.log")
    try:
        await wait_for(lambda: _exists(sent), what="the message sent")
        await _sleep(1)
    finally:
        await daemon.stop()
    assert sent.read_text().splitlines() == [task_id]  # once
    assert "Traceback" not in (tmp_path / "w.log").read_text()


async def _exists(path: Path) -> bool:
    return path.exists()
