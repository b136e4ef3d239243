"""A full disk under the daemon's data folder: every write the session heard "kept" reaches the database once,
across a kill -9; every write it heard "not kept" reaches it never. The disk is a small tmpfs the test mounts and
fills, with the database away, so that the journal is the only place a write can be."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.conftest import with_database
from tests.helpers import run_taak, session_env
from tests.system.harness import Daemon, new_task, records, switch_on, wait_for, worker_env
from worker.core.dsn import parse_database_url

pytestmark = pytest.mark.slow


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB filesystem of the test's own."""
    mount = tmp_path / "schijf"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0700", "tmpfs", str(mount)], check=False)
    if made.returncode != 0 or not sys.platform.startswith("linux"):
        pytest.skip("mounting a small tmpfs needs root on Linux")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Write until the filesystem is full; the file that filled it."""
    filler = disk / "vulsel"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while _wrote(fd):
            pass
    finally:
        os.close(fd)
    return filler


def _wrote(fd: int) -> bool:
    try:
        os.write(fd, b"\0" * 512)
    except OSError as exc:
        if exc.errno != errno.ENOSPC:
            raise
        return False
    return True


async def _refusing(db_url: str, refuse: bool) -> None:
    name = parse_database_url(db_url).database
    admin = await asyncpg.connect(with_database(db_url, "postgres"))
    try:
        await admin.execute(f'alter database "{name}" allow_connections {"false" if refuse else "true"}')
        if refuse:
            await admin.execute("select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1", name)
    finally:
        await admin.close()


async def test_a_full_disk_loses_no_acknowledged_write_and_writes_no_refused_one(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, small_disk: Path
) -> None:
    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="busy", TAAK_DATA_DIR=str(small_disk / "data"), TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    answers = {}
    try:
        (record,) = await wait_for(lambda: _records(tmp_path), timeout=60, what="the session")
        session = session_env(record)
        await conn.close()
        await _refusing(db_url, True)  # the database away: the journal is where every write waits

        def say(text: str) -> None:
            answers[text] = run_taak(session, "log", "stap_klaar", text)

        for n in range(5):
            say(f"voor {n}")
        filler = fill(small_disk)
        for n in range(30):  # more than the journal's last page holds
            say(f"vol {n}")
        filler.unlink()  # room again
        for n in range(5):
            say(f"na {n}")
        daemon.signal(signal.SIGKILL)
        daemon.wait()
    finally:
        await _refusing(db_url, False)
        daemon.stop()
    again = Daemon(env, tmp_path / "again.log")
    try:
        await wait_for(lambda: _said(again, "worker_started"), timeout=60, what="the restart")
        conn = await asyncpg.connect(db_url)
        rows = await conn.fetch(
            "select tekst from agent_taak_log where taak_id = $1 and soort = 'stap_klaar' order by id", task_id
        )
        await conn.close()
    finally:
        again.stop()
    kept = [text for text, answer in answers.items() if answer.code == 0]
    refused = {text: answer for text, answer in answers.items() if answer.code != 0}
    assert [r["tekst"] for r in rows] == kept  # each kept write once, in order
    # What fits in the journal's last page is still kept on a full tmpfs; once that is used, nothing is.
    assert refused, "the disk never filled"
    assert {text.split()[0] for text in refused} == {"vol"}
    for answer in refused.values():
        assert answer.code == 5, answer
        (line,) = answer.err.splitlines()
        assert line.startswith("taak: niet bewaard: "), line
        assert "de schijf is vol" in line, line


async def _records(folder: Path) -> list[dict[str, object]] | None:
    return records(folder) or None


async def _said(daemon: Daemon, event: str) -> bool:
    return daemon.has_event(event)


async def _given_back(conn: asyncpg.Connection, task_id: str) -> asyncpg.Record | None:
    row = await conn.fetchrow("select status, pogingen from agent_taken where id = $1", task_id)
    return row if row is not None and row["status"] != "bezig" else None


def test_the_small_disk_is_really_full(small_disk: Path) -> None:
    """The fixture's own check: a test that filled nothing would prove nothing."""
    fill(small_disk)
    with pytest.raises(OSError, match="No space left"):
        (small_disk / "nog een").write_bytes(os.urandom(8192))


async def test_a_full_disk_at_the_claim_gives_the_task_back_without_using_an_attempt(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, small_disk: Path
) -> None:
    """Its session's files could not be written: the task used up its attempts on an internal error, one after the
    other (tester of issue 38)."""
    await switch_on(conn, "paco")
    env = worker_env(db_url, tmp_path, mode="finish", TAAK_DATA_DIR=str(small_disk / "data"), TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _said(daemon, "worker_started"), timeout=60, what="the start")
        filler = fill(small_disk)
        task_id = await new_task(conn, toegewezen_aan="paco")
        await wait_for(lambda: _said(daemon, "worker_paused"), timeout=60, what="the pause")
        # Given back in the same turn the pause is said in; read once it is written (a loaded machine lags).
        row = await wait_for(lambda: _given_back(conn, task_id), timeout=30, what="the task given back")
        filler.unlink()
    finally:
        daemon.stop()
    assert (row["status"], row["pogingen"]) == ("wachtend", 0)
    (outcome,) = [e for e in daemon.events() if e.get("event") == "outcome"]
    assert "de schijf is vol" in outcome["reason"], outcome
    assert not [e for e in daemon.events() if e.get("event") == "task_runner_failed"]
