"""The command's own output failing: a full disk, a closed stdout, a reader gone. Said as what it is, never as the
database (the connection's errors are OSErrors too), and never with a traceback. Real processes, a real stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import run_taak, session_run
from tests.system.test_session_gate import _busy_session

FULL = Path("/dev/full")  # every write fails with ENOSPC (Linux; macOS has none)
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def taak_into(
    stdout: str, env: dict[str, str], *args: str, stdin: str = "", program: str = "worker.cli.taak"
) -> subprocess.CompletedProcess[str]:
    """`taak ARGS > /dev/full`, `taak ARGS >&-` or `taak ARGS | true`, typed in a shell, as a user does."""
    command = " ".join([sys.executable, "-m", program, *(f"'{word}'" for word in args)])
    redirect = {"full": f"{command} > /dev/full", "closed": f"{command} >&-", "gone": f"{command} | true"}[stdout]
    if stdout == "gone":  # the reader exits before the command writes: wait for it, then report the command's code
        redirect = f"set -o pipefail; {{ sleep 0.3; {command}; }} | true"
    return session_run(["bash", "-c", redirect], env=env, input=stdin)  # as a session's tool call, where env is one


def said_once(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


@needs_dev_full
async def test_a_log_line_into_a_full_disk_is_kept_and_said_as_the_output_not_the_database(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    task_id = run_taak(cli_env, "nieuw", "Schrijf de blog").out.strip()
    done = taak_into("full", cli_env, "log", task_id, "notitie", "weggeschreven")
    line = said_once(done.stderr)
    assert done.returncode == 1  # not 4: a bot that retries an unreachable database would log it twice
    assert "output could not be written" in line
    assert "database" not in line
    rows = await conn.fetchval(
        "select count(*) from agent_taak_log where taak_id = $1 and tekst = 'weggeschreven'", task_id
    )
    assert rows == 1


@needs_dev_full
@pytest.mark.parametrize("words", [["lijst"], ["--help"], ["lijst", "--help"], ["recall", "budget"]])
async def test_a_read_or_help_into_a_full_disk_fails_with_one_line(cli_env: dict[str, str], words: list[str]) -> None:
    done = taak_into("full", {**cli_env, "TAAK_LANGUAGE": "nl"}, *words)
    assert done.returncode == 1
    assert "de uitvoer kon niet worden geschreven (de schijf is vol)" in said_once(done.stderr)


@needs_dev_full
async def test_help_into_a_full_disk_does_not_say_a_change_might_stand(cli_env: dict[str, str]) -> None:
    """Help changes nothing; its failed write said "any change the command made stands" (tester 20)."""
    for words in (["--help"], ["nieuw", "--help"]):
        done = taak_into("full", {**cli_env, "TAAK_LANGUAGE": "en"}, *words)
        assert said_once(done.stderr) == "taak: the output could not be written (no space left on device)"
    done = taak_into("full", {**cli_env, "TAAK_LANGUAGE": "en"}, "lijst")  # a read: the general line
    assert said_once(done.stderr).endswith("any change the command made stands")


async def test_a_closed_stdout_is_refused_before_anything_is_done(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    done = taak_into("closed", cli_env, "nieuw", "Een taak die niemand zou zien")
    assert done.returncode == 2
    assert said_once(done.stderr) == "taak: the output (stdout) is closed; nothing was done"
    assert await conn.fetchval("select count(*) from agent_taken") == 0


async def test_a_text_read_from_a_closed_stdin_is_refused_before_anything_is_done(
    cli_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    command = f"{sys.executable} -m worker.cli.taak nieuw - <&-"
    done = subprocess.run(["bash", "-c", command], env=cli_env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert (
        said_once(done.stderr) == "taak: the input (stdin) is closed: there is no text to read for -; nothing was done"
    )
    assert await conn.fetchval("select count(*) from agent_taken") == 0


async def test_queue_worker_refuses_a_closed_stdout_too(cli_env: dict[str, str]) -> None:
    done = taak_into("closed", cli_env, "--once", program="worker.cli.queue_worker")
    assert done.returncode == 2
    assert said_once(done.stderr) == "queue-worker: the output (stdout) is closed; nothing was done"


@pytest.mark.parametrize("stdout", ["gone", "closed", *(["full"] if FULL.exists() else [])])
@pytest.mark.parametrize("hook", ["prompt", "session-start"])
async def test_a_hook_whose_output_cannot_be_written_exits_0_without_a_traceback(
    cli_env: dict[str, str], stdout: str, hook: str
) -> None:
    task_id = run_taak(cli_env, "nieuw", "Schrijf de blog").out.strip()
    env = {**cli_env, "TAAK_ID": task_id}
    payload = json.dumps({"prompt": "verder", "source": "compact", "session_id": "s"})
    shown = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "hook", hook], env=env, input=payload, capture_output=True, text=True
    )
    assert task_id in shown.stdout  # the hook has something to say: its output is what fails below
    done = taak_into(stdout, env, "hook", hook, stdin=payload)
    assert done.returncode == 0
    if stdout == "full":
        assert said_once(done.stderr).startswith(f"taak hook {hook}: the output could not be written")
    else:
        assert done.stderr == ""
    last = json.loads((Path(env["TAAK_DATA_DIR"]) / "hooks.log").read_text().splitlines()[-1])
    if stdout == "closed":  # refilled with /dev/null at the start: its output went nowhere, without a failure
        assert last["error"] is None
    else:  # what ops tail shows the run as failed
        assert last["error"].startswith(f"taak hook {hook}: stdout: "), last


@pytest.mark.slow
@needs_dev_full
async def test_inside_a_queue_session_a_full_disk_is_said_and_the_step_is_kept(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    async with _busy_session(db_url, conn, tmp_path) as (task_id, _daemon, env):
        env = {**env, "TAAK_LANGUAGE": "en"}
        logged = taak_into("full", env, "log", "notitie", "via de daemon")
        hooked = taak_into("gone", env, "hook", "prompt", "--queue", stdin=json.dumps({"prompt": "x"}))
        rows = await conn.fetchval(
            "select count(*) from agent_taak_log where taak_id = $1 and tekst = 'via de daemon'", task_id
        )
    assert logged.returncode == 1
    assert "output could not be written" in said_once(logged.stderr)
    assert rows == 1
    assert (hooked.returncode, hooked.stderr) == (0, "")


@needs_dev_full
async def test_a_daemon_whose_log_cannot_be_written_says_so_once_on_stderr_and_does_its_work(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    from tests.system.harness import new_task, switch_on, worker_env

    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, TAAK_LANGUAGE="en")
    done = taak_into("full", env, "--once", program="worker.cli.queue_worker")
    assert done.returncode == 0, done.stderr
    assert said_once(done.stderr).startswith("queue-worker: the log cannot be written (no space left on device)")
    assert await conn.fetchval("select status from agent_taken where id = $1", task_id) == "klaar"


@needs_dev_full
def test_a_refusal_whose_line_cannot_be_written_still_exits_with_its_own_code(cli_env: dict[str, str]) -> None:
    command = f"{sys.executable} -m worker.cli.taak toon HV-20261203-999 2>/dev/full"
    done = subprocess.run(["bash", "-c", command], env=cli_env, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (3, "")  # not found, as with a stderr that works


@pytest.mark.parametrize(
    ("words", "code", "shown"),
    [
        (["lijst", "--foo"], 2, ""),
        (["toon", "HV-20200101-999"], 3, ""),
        (["nieuw", "de lamp", "--van", "jamal"], 0, "HV-"),
    ],
)
def test_a_closed_stderr_keeps_each_commands_own_exit_code_and_nothing_lands_on_stdout(
    cli_env: dict[str, str], words: list[str], code: int, shown: str
) -> None:
    """`taak ... 2>&-`: the refusal went nowhere and the flush at exit failed, so every command ended with 120;
    an error line could even reach stdout, which a script reads as the answer."""
    command = " ".join([sys.executable, "-m", "worker.cli.taak", *(f"'{word}'" for word in words)])
    done = subprocess.run(["bash", "-c", f"{command} 2>&-"], env=cli_env, capture_output=True, text=True, timeout=60)
    assert done.returncode == code
    assert done.stdout.startswith(shown)
    assert len(done.stdout.splitlines()) == (1 if shown else 0)
