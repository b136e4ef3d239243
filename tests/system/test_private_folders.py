"""Every folder the daemon writes in is the user's own, and what it holds is the user's alone: a folder another
user made (or may rename things in) is refused at the start with one line, before a socket or a journal is put
there; files are written without following a planted symlink; the journal is a regular file or nothing."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.system.harness import new_task, switch_on, worker_env

NOBODY = 65534


def _start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _another_users_folder(path: Path, mode: int = 0o755) -> Path:
    if os.getuid() != 0:
        pytest.skip("making a folder of another user needs root")
    path.mkdir(mode=mode)
    os.chown(path, NOBODY, NOBODY)
    path.chmod(mode)
    return path


@pytest.mark.parametrize("setting", ["TAAK_SOCKET_DIR", "TAAK_DATA_DIR"])
def test_a_folder_another_user_made_beforehand_is_refused_at_the_start(
    db_url: str, tmp_path: Path, setting: str
) -> None:
    theirs = _another_users_folder(tmp_path / "van-een-ander", 0o777)
    done = _start(worker_env(db_url, tmp_path, **{setting: str(theirs)}))
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert str(theirs) in line, line
    assert "van een andere gebruiker" in line, line
    assert list(theirs.iterdir()) == []  # no socket, no journal put there


def test_a_folder_inside_one_where_others_may_rename_things_is_refused(db_url: str, tmp_path: Path) -> None:
    shared = tmp_path / "gedeeld"
    shared.mkdir()
    shared.chmod(0o777)  # writable by everyone and no sticky bit, unlike /tmp
    done = _start(worker_env(db_url, tmp_path, TAAK_SOCKET_DIR=str(shared / "run")))
    assert done.returncode == 1, done.stderr
    assert str(shared) in done.stderr
    assert "van een andere gebruiker" in done.stderr


def test_a_fifo_where_the_journal_belongs_stops_the_start_with_one_line(db_url: str, tmp_path: Path) -> None:
    env = worker_env(db_url, tmp_path)
    journal = Path(env["TAAK_DATA_DIR"]) / "journaal" / "paco@testbox.jsonl"
    journal.parent.mkdir(parents=True)
    os.mkfifo(journal)
    done = _start(env)
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    said = "is geen gewoon bestand (een apparaat, een pipe of een socket): niet gelezen"
    assert line.endswith(f"bestand {journal}: {said}"), line


@pytest.mark.slow
async def test_what_the_daemon_keeps_in_its_data_folder_is_the_users_alone(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    await new_task(conn, "Zet de foto's online", toegewezen_aan="paco")
    old = os.umask(0o022)  # a usual umask: the daemon's files must not follow it
    try:
        done = _start(worker_env(db_url, tmp_path, mode="finish"))
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    data = tmp_path / "data"
    wider = [
        f"{path.relative_to(data)} {stat.S_IMODE(path.lstat().st_mode):o}"
        for path in [data, *data.rglob("*")]
        if stat.S_IMODE(path.lstat().st_mode) & 0o077
    ]
    assert list(data.rglob("*.briefing.txt")), "no briefing was written: nothing was checked"
    assert wider == []


def test_a_planted_symlink_is_replaced_not_followed(tmp_path: Path) -> None:
    from worker.core.folders import write_private

    victim = tmp_path / "bashrc"
    victim.write_text("origineel\n")
    planted = tmp_path / "copy.txt"
    planted.symlink_to(victim)
    write_private(planted, "briefing\n")
    assert victim.read_text() == "origineel\n"
    assert not planted.is_symlink()
    assert planted.read_text() == "briefing\n"
    assert stat.S_IMODE(planted.stat().st_mode) == 0o600


def test_what_the_hooks_and_the_owners_commands_write_in_the_data_folder_is_the_users_alone(tmp_path: Path) -> None:
    """Reports, summaries, the archive, its index and hooks.log were 0644, and a data folder a hook made first was
    0755 (tester of issue 38): a folder made with its parents gets the umask, not the mode asked."""
    from tests.fixtures import FIXTURES

    data = tmp_path / "nieuw" / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(TAAK_DATA_DIR=str(data), HOME=str(tmp_path / "thuis"), TAAK_LANGUAGE="nl")
    transcript = tmp_path / "t.jsonl"
    transcript.write_bytes((FIXTURES / "agentlogs__compact.jsonl").read_bytes())
    taak = [sys.executable, "-m", "worker.cli.taak"]
    old = os.umask(0o022)
    try:
        payload = json.dumps({"trigger": "auto", "transcript_path": str(transcript), "session_id": "s"})
        subprocess.run([*taak, "hook", "pre-compact"], env=env, input=payload, text=True, check=True, timeout=60)
        summary = '{"trigger": "manual", "compact_summary": "Samenvatting", "session_id": "s"}'
        subprocess.run([*taak, "hook", "post-compact"], env=env, input=summary, text=True, check=True, timeout=60)
        subprocess.run([*taak, "recall", "budget"], env=env, capture_output=True, check=False, timeout=120)
    finally:
        os.umask(old)
    written = [path for path in data.rglob("*") if path.is_file()]
    assert any(path.name == "hooks.log" for path in written), "no hook ran: nothing was checked"
    wider = [
        f"{path.relative_to(tmp_path)} {stat.S_IMODE(path.lstat().st_mode):o}"
        for path in [data, data.parent, *data.rglob("*")]
        if stat.S_IMODE(path.lstat().st_mode) & 0o077
    ]
    assert wider == []


def test_a_registry_file_in_a_folder_another_user_may_write_in_is_refused_at_the_start(
    db_url: str, tmp_path: Path
) -> None:
    """That user planted a symlink at the registry's temporary file and the daemon, as root, overwrote the file it
    pointed at (tester of issue 38)."""
    theirs = _another_users_folder(tmp_path / "gedeeld", 0o777)
    victim = tmp_path / "slachtoffer"
    victim.write_text("origineel\n")
    (theirs / "machines.json.tmp").symlink_to(victim)
    done = _start(worker_env(db_url, tmp_path, TAAK_REGISTRY_FILE=str(theirs / "machines.json")))
    assert done.returncode == 1, done.stderr
    assert str(theirs) in done.stderr
    assert victim.read_text() == "origineel\n"
