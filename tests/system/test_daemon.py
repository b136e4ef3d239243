"""The queue-worker with a fake agent that speaks Claude Code's stream-json: its decisions in the test's own event
loop (`InProcess`), what only a process shows (signals, kill -9, the locks, the command line) as a real process."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.helpers import ledger_on
from tests.system.harness import (
    Daemon,
    InProcess,
    kinds,
    new_task,
    pid_alive,
    records,
    status_of,
    switch_on,
    wait_for,
    worker_env,
)
from worker.core.briefing import system_prompt


@pytest.fixture
async def conn_on(conn: asyncpg.Connection) -> asyncpg.Connection:
    await switch_on(conn, "paco")
    return conn


async def test_a_new_task_is_run_with_its_briefing_and_finished(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    daemon = InProcess(worker_env(db_url, tmp_path), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _listening(daemon), what="the daemon to listen")
        created = time.monotonic()
        task_id = await new_task(conn, "Schrijf de blog over de veranda", toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn, task_id, "bezig", "klaar"), what="the claim")
        picked_up = time.monotonic() - created
        await wait_for(lambda: _status_is(conn, task_id, "klaar"), what="klaar")
    finally:
        await daemon.stop()
    assert picked_up < 1.0
    assert await kinds(conn, task_id) == ["gestart", "stap_klaar", "stap_klaar", "klaar", "notitie"]
    (record,) = records(tmp_path)
    task = await ledger_on(conn).toon(task_id)
    session_id = record["argv"][record["argv"].index("--session-id") + 1]
    assert record["argv"][-1].startswith(f"=== TAAK {task_id} (poging 1 van 3) ===")
    assert record["argv"][:7] == [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--session-id",
        session_id,
        "--append-system-prompt",
    ]
    assert record["argv"][7] == system_prompt(task, "nl")
    assert record["argv"][8] == "--settings"
    hooks = json.loads(record["argv"][9])["hooks"]
    assert set(hooks) == {"SessionStart", "PreCompact", "PostCompact", "UserPromptSubmit"}
    assert hooks["PreCompact"][0]["hooks"][0]["command"].endswith(" hook pre-compact --queue")
    stand = tmp_path / "data" / "sessies" / task_id / "stand.json"
    assert hooks["UserPromptSubmit"][0]["hooks"][0]["command"].endswith(f" hook prompt --stand {stand}")
    assert json.loads(stand.read_text())["status"] == "klaar"  # taak klaar inside the session kept it exact
    assert "--bare" not in record["argv"]
    assert record["stdin_is_closed"] is True
    env = record["env"]
    assert (env["TAAK_ID"], env["TAAK_BOT"], env["DISABLE_AUTOUPDATER"]) == (task_id, "paco", "1")
    assert env["TAAK_TOKEN"]
    # The session talks to its daemon over a socket only this user may open; it holds no database URL.
    assert "TAAK_DATABASE_URL" not in env
    assert db_url not in json.dumps(env)
    assert env["TAAK_SOCKET"].endswith(".sock")
    assert record["cwd"] == str(tmp_path)
    gestart = await conn.fetchrow("select sessie from agent_taak_log where taak_id = $1 and soort = 'gestart'", task_id)
    assert gestart["sessie"] == session_id
    result_row = await conn.fetchrow(
        "select tekst, meta from agent_taak_log where taak_id = $1 order by id desc limit 1", task_id
    )
    assert '"total_cost_usd": 0.0123' in result_row["meta"]
    raw = (tmp_path / "data" / "sessies" / task_id / f"1-{session_id}.jsonl").read_bytes()
    written = (tmp_path / "records" / f"{task_id}-{session_id}.out").read_bytes()
    assert raw == written
    assert raw.startswith(b"this line is not JSON\n")
    assert raw.splitlines()[-1].startswith(b'{"type": "result"')


@pytest.mark.slow
async def test_the_briefing_copy_shows_a_sessions_steps_while_it_still_runs(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    """The briefing file began as the prompt; the daemon makes it again after the session's writes, for the hooks
    to fall back on. A session that finished within the moment a burst of writes takes to end has no copy made
    again (its story is told): this one pauses a second after each step, as a working session does."""
    env = worker_env(db_url, tmp_path, mode="steps", TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 2")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _listening(daemon), what="the daemon to listen")
        task_id = await new_task(conn_on, "Schrijf de blog over de veranda", toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn_on, task_id, "klaar"), what="klaar")
    finally:
        await daemon.stop()
    (record,) = records(tmp_path)
    assert "stap 2" in Path(record["env"]["TAAK_BRIEFING_FILE"]).read_text(encoding="utf-8")


async def test_exit_0_without_klaar_is_a_used_attempt_with_backoff(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = InProcess(worker_env(db_url, tmp_path, mode="exit0"), tmp_path / "worker.log", "--once")
    assert await daemon.wait() == 0
    await daemon.stop()
    row = await conn.fetchrow(
        "select status, pogingen, niet_voor > now() as later from agent_taken where id = $1", task_id
    )
    assert (row["status"], row["pogingen"], row["later"]) == ("wachtend", 1, True)
    log = await conn.fetch("select soort, tekst from agent_taak_log where taak_id = $1 order by id", task_id)
    assert [r["soort"] for r in log] == ["gestart", "notitie", "fout", "notitie"]
    assert log[2]["tekst"] == "sessie eindigde zonder taak klaar"
    assert log[3]["tekst"] == "Ik heb nagedacht maar niets afgerond."


@pytest.mark.parametrize("cost", ["1e999", "NaN", "-3"])
async def test_a_result_line_whose_cost_is_no_cost_ends_the_attempt_as_any_other(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path, cost: str
) -> None:
    """`1e999` and `NaN` are JSON to Python but no number Postgres stores: the result row failed, the attempt was
    given back uncounted and the task ran again at once, dozens of times, until the bot's brake; `-3` lowered the
    day's cost."""
    task_id = await new_task(conn_on, toegewezen_aan="paco", max_pogingen=1)
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS=f"--fake-mode exit0 --fake-cost {cost}")
    daemon = InProcess(env, tmp_path / "worker.log", "--once")
    assert await daemon.wait() == 0
    await daemon.stop()
    assert await status_of(conn_on, task_id) == "mislukt"
    assert (await kinds(conn_on, task_id)).count("gestart") == 1
    meta = await conn_on.fetchval("select meta from agent_taak_log where taak_id = $1 and meta ? 'resultaat'", task_id)
    assert json.loads(meta)["total_cost_usd"] is None  # unknown, as when it is left out
    assert not daemon.has_event("task_runner_failed")


async def test_a_task_failure_logs_the_reason_and_stderr_and_fails_at_the_limit(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco", max_pogingen=1)
    daemon = InProcess(worker_env(db_url, tmp_path, mode="error"), tmp_path / "worker.log", "--once")
    assert await daemon.wait() == 0
    await daemon.stop()
    assert await status_of(conn, task_id) == "mislukt"
    fout = await conn.fetchval("select tekst from agent_taak_log where taak_id = $1 and soort = 'fout'", task_id)
    assert fout.startswith("mislukt (pogingen op): ")  # the row the owner reads says the task failed
    assert "Kon het bestand niet schrijven" in fout
    assert "permission denied on /srv/blog" in fout


async def test_an_infrastructure_failure_gives_the_attempt_back_and_pauses_the_worker(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    first = await new_task(conn, "eerste", toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="notloggedin", TAAK_INFRA_PAUSE_BASE_SECONDS="60")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _has_kind(conn, first, "vrijgegeven"), what="the attempt given back")
        second = await new_task(conn, "tweede", toegewezen_aan="paco")
        await wait_for(lambda: _event(daemon, "claim_skipped"), what="the paused worker to look and skip")
        assert await status_of(conn, second) == "wachtend"
    finally:
        await daemon.stop()
    row = await conn.fetchrow("select status, pogingen from agent_taken where id = $1", first)
    assert (row["status"], row["pogingen"]) == ("wachtend", 0)
    assert len(records(tmp_path)) == 1
    paused = [e for e in daemon.events() if e.get("event") == "worker_paused"]
    assert "Not logged in" in paused[0]["reason"]


async def test_a_missing_agent_command_is_an_infrastructure_failure(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, TAAK_AGENT_CMD="/nonexistent/claude", TAAK_LANGUAGE="en")
    daemon = InProcess(env, tmp_path / "worker.log", "--once")
    assert await daemon.wait() == 0
    await daemon.stop()
    row = await conn.fetchrow("select status, pogingen from agent_taken where id = $1", task_id)
    assert (row["status"], row["pogingen"]) == ("wachtend", 0)
    reason = await conn.fetchval("select tekst from agent_taak_log where soort = 'vrijgegeven'")
    # The system's reason in the ledger's Dutch, and in the daemon's log in the run's language (English here).
    assert reason == "infrastructuur: agent start niet (bestand /nonexistent/claude: bestaat niet)"
    (said,) = [e["reason"] for e in daemon.events() if e.get("event") == "outcome"]
    assert said == "infrastructure: the agent does not start (file /nonexistent/claude: no such file or directory)"


async def test_a_working_folder_that_is_gone_is_named_not_the_program(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    """A folder that is gone after the start (one missing at the start is refused then, with exit 2)."""
    conn = conn_on
    gone = tmp_path / "weg"
    gone.mkdir()
    daemon = InProcess(worker_env(db_url, tmp_path, TAAK_WORKDIR=str(gone), TAAK_POLL_SECONDS="1"), tmp_path / "w.log")
    try:
        await wait_for(lambda: _event(daemon, "worker_started"), what="the daemon")
        gone.rmdir()
        await new_task(conn, toegewezen_aan="paco")
        given_back = "select tekst from agent_taak_log where soort = 'vrijgegeven'"
        reason = await wait_for(lambda: conn.fetchval(given_back), timeout=60, what="the attempt given back")
    finally:
        await daemon.stop()
    assert reason == f"infrastructuur: agent start niet (bestand {gone}: bestaat niet)"  # was: python3 'bestaat niet'


async def test_a_silent_session_is_stopped_after_the_silence_timeout(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    # 3 s, not 1: the fake writes its record (its pid) as it starts, and a loaded CI machine once took longer than
    # 1 s to start it, so the session was stopped before it had said who it was.
    env = worker_env(db_url, tmp_path, mode="hang", TAAK_SILENCE_TIMEOUT_SECONDS="3", TAAK_KILL_GRACE_SECONDS="1")
    daemon = InProcess(env, tmp_path / "worker.log", "--once")
    assert await daemon.wait(timeout=30) == 0
    await daemon.stop()
    assert "te lang geen uitvoer" in await conn.fetchval(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'fout'", task_id
    )
    assert not pid_alive(records(tmp_path)[0]["pid"])


async def test_a_session_is_stopped_after_the_total_timeout(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="busy", TAAK_SESSION_TIMEOUT_SECONDS="1.5")
    daemon = InProcess(env, tmp_path / "worker.log", "--once")
    assert await daemon.wait(timeout=30) == 0
    await daemon.stop()
    assert "totale tijd" in await conn.fetchval(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'fout'", task_id
    )


async def test_a_lost_lease_kills_the_session_within_one_extension_interval(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="busy", TAAK_LEASE_EXTEND_SECONDS="1")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _records_exist(tmp_path), what="the session")
        pid = records(tmp_path)[0]["pid"]
        # Another worker took the task: its token is no longer the one this session holds.
        await conn.execute("update agent_taken set lease_token = gen_random_uuid() where id = $1", task_id)
        taken = time.monotonic()
        await wait_for(lambda: _dead(pid), timeout=10, what="the session to be killed")
        killed_after = time.monotonic() - taken
        await wait_for(lambda: _event(daemon, "lease_lost"), what="the log record")
    finally:
        await daemon.stop()
    assert killed_after <= 2.0
    assert await status_of(conn, task_id) == "bezig"  # the new holder's task is left alone


async def test_a_session_that_finishes_its_own_task_is_let_exit_and_its_result_row_is_written(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    # The session keeps talking for several lease checks after its `taak klaar`, as a real one does.
    env = worker_env(
        db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode klaar --fake-after-klaar 2", TAAK_LEASE_EXTEND_SECONDS="0.2"
    )
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _has_kind(conn, task_id, "notitie"), timeout=30, what="the result row")
        await wait_for(lambda: _event(daemon, "outcome"), what="the outcome")
    finally:
        await daemon.stop()
    (end,) = [e for e in daemon.events() if e.get("event") == "session_end"]
    assert (end["exit_code"], end["stop"]) == (0, None)
    assert not daemon.has_event("lease_lost")
    assert await kinds(conn, task_id) == ["gestart", "klaar", "notitie"]
    row = await conn.fetchrow(
        "select tekst, meta from agent_taak_log where taak_id = $1 and soort = 'notitie'", task_id
    )
    meta = json.loads(row["meta"])
    assert (meta["num_turns"], meta["exit_code"], meta["total_cost_usd"]) == (2, 0, 0.0123)
    assert ", $0.01: " in row["tekst"]  # in cents, as every list shows money; the exact figure is in meta


async def test_a_session_that_finished_its_task_but_does_not_exit_is_stopped_after_the_kill_grace(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(
        db_url,
        tmp_path,
        TAAK_AGENT_ARGS="--fake-mode klaar --fake-after-klaar 600",
        TAAK_LEASE_EXTEND_SECONDS="0.2",
        TAAK_KILL_GRACE_SECONDS="1",
    )
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "outcome"), timeout=30, what="the outcome")
    finally:
        await daemon.stop()
    (end,) = [e for e in daemon.events() if e.get("event") == "session_end"]
    assert end["stop"] == "lingered"
    assert not daemon.has_event("lease_lost")
    assert await status_of(conn, task_id) == "klaar"
    assert not pid_alive(records(tmp_path)[0]["pid"])


async def test_sigterm_drains_then_releases_the_task_and_exits_0(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, mode="busy", TAAK_SHUTDOWN_GRACE_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    await wait_for(lambda: _records_exist(tmp_path), what="the session")
    daemon.signal(signal.SIGTERM)
    assert daemon.wait(timeout=20) == 0
    daemon.stop()
    row = await conn.fetchrow("select status, pogingen, lease_token from agent_taken where id = $1", task_id)
    assert (row["status"], row["pogingen"], row["lease_token"]) == ("wachtend", 0, None)
    assert (await kinds(conn, task_id))[-1] == "vrijgegeven"


async def test_a_session_that_finishes_within_the_grace_is_not_interrupted(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(
        db_url,
        tmp_path,
        mode="busy",
        TAAK_AGENT_ARGS="--fake-mode busy --fake-seconds 1.5",
        TAAK_SHUTDOWN_GRACE_SECONDS="10",
    )
    daemon = Daemon(env, tmp_path / "worker.log")
    await wait_for(lambda: _records_exist(tmp_path), what="the session")
    daemon.signal(signal.SIGTERM)
    assert daemon.wait(timeout=20) == 0
    daemon.stop()
    assert "sessie eindigde zonder taak klaar" in await conn.fetchval(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'fout'", task_id
    )


@pytest.mark.slow
async def test_a_child_that_ignores_sigterm_is_killed(db_url: str, conn_on: asyncpg.Connection, tmp_path: Path) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    env = worker_env(
        db_url, tmp_path, mode="ignoreterm", TAAK_SHUTDOWN_GRACE_SECONDS="0.5", TAAK_KILL_GRACE_SECONDS="1"
    )
    daemon = Daemon(env, tmp_path / "worker.log")
    await wait_for(lambda: _records_exist(tmp_path), what="the session")
    pid = records(tmp_path)[0]["pid"]
    daemon.signal(signal.SIGTERM)
    assert daemon.wait(timeout=20) == 0
    daemon.stop()
    assert not pid_alive(pid)
    assert daemon.has_event("session_ignored_sigterm")
    assert await status_of(conn, task_id) == "wachtend"


async def test_a_switched_off_bot_claims_nothing_until_switched_on(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = InProcess(worker_env(db_url, tmp_path, TAAK_POLL_SECONDS="0.3"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "claim_skipped"), what="the worker to look and skip")
        assert await status_of(conn, task_id) == "wachtend"
        await switch_on(conn, "paco")
        await wait_for(lambda: _status_is(conn, task_id, "klaar"), what="klaar after switching on")
    finally:
        await daemon.stop()
    assert daemon.has_event("no_bot_active")


async def test_a_daemon_killed_mid_session_releases_at_once_on_restart_and_the_task_runs_once_more(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    busy = worker_env(db_url, tmp_path, mode="busy")
    first = Daemon(busy, tmp_path / "first.log")
    await wait_for(lambda: _records_exist(tmp_path), what="the session")
    first.process.kill()
    first.wait()
    first.stop()
    assert await status_of(conn, task_id) == "bezig"
    second = Daemon({**busy, "TAAK_AGENT_ARGS": "--fake-mode klaar"}, tmp_path / "second.log")
    try:
        started = time.monotonic()
        await wait_for(lambda: _status_is(conn, task_id, "klaar"), what="klaar after the restart")
        assert time.monotonic() - started < 10
    finally:
        second.stop()
    assert await kinds(conn, task_id) == ["gestart", "vrijgegeven", "gestart", "klaar", "notitie"]
    assert second.has_event("worker_started")
    assert [e["released"] for e in second.events() if e.get("event") == "worker_started"] == [[task_id]]


@pytest.mark.slow
@pytest.mark.parametrize("data", ["same", "another"])
async def test_a_second_daemon_for_the_same_bot_on_the_same_machine_refuses_to_start(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path, data: str
) -> None:
    """`another`: a second daemon with its own data folder (a `.env` in another folder) took the first one's
    running task for a leftover of its own, gave it back, claimed it and ran it beside the first."""
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 20")
    task_id = await new_task(conn_on, toegewezen_aan="paco")
    first = Daemon(env, tmp_path / "first.log")
    try:
        await wait_for(lambda: _event(first, "session_start"), what="the first daemon's session")
        elsewhere = {**env, "TAAK_DATA_DIR": str(tmp_path / "elders")} if data == "another" else env
        second = Daemon(elsewhere, tmp_path / "second.log")
        assert second.wait(timeout=20) == 1
        second.stop()
        assert "er draait al een queue-worker voor paco@testbox" in (tmp_path / "second.log").read_text()
        seen = await kinds(conn_on, task_id)
        assert (seen.count("gestart"), "vrijgegeven" in seen) == (1, False)  # still the first one's, and only its
    finally:
        first.stop()


@pytest.mark.slow
async def test_two_daemons_run_each_of_100_tasks_exactly_once(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    await conn.executemany(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) values ($1, 'jamal', 'paco')",
        [(f"taak {n}",) for n in range(100)],
    )
    daemons = [
        Daemon(
            worker_env(db_url, tmp_path / name, mode="klaar", TAAK_MACHINE=name, TAAK_CONCURRENCY="4"),
            tmp_path / f"{name}.log",
        )
        for name in ("mac-a", "mac-b")
    ]
    try:
        await wait_for(
            lambda: _count(conn, "select count(*) = 100 from agent_taken where status = 'klaar'"),
            timeout=120,
            what="100 tasks klaar",
        )
    finally:
        for daemon in daemons:
            daemon.stop()
    assert await conn.fetchval("select count(*) from agent_taak_log where soort = 'gestart'") == 100
    sessions = [r for name in ("mac-a", "mac-b") for r in records(tmp_path / name)]
    assert len(sessions) == 100
    assert len({s["env"]["TAAK_ID"] for s in sessions}) == 100
    assert {name for name in ("mac-a", "mac-b") if records(tmp_path / name)} == {"mac-a", "mac-b"}


@pytest.mark.slow
async def test_three_daemons_finish_300_tasks_with_the_briefings_finish_line_and_kill_no_session(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    await conn.executemany(
        "insert into agent_taken (opdracht, opdrachtgever, toegewezen_aan) values ($1, 'jamal', 'paco')",
        [(f"taak {n}",) for n in range(300)],
    )
    names = ("mac-a", "mac-b", "mac-c")
    daemons = [
        Daemon(
            worker_env(
                db_url,
                tmp_path / name,
                TAAK_AGENT_ARGS="--fake-mode klaar --fake-after-klaar 0.5",
                TAAK_MACHINE=name,
                TAAK_CONCURRENCY="4",
                TAAK_LEASE_EXTEND_SECONDS="0.2",
            ),
            tmp_path / f"{name}.log",
        )
        for name in names
    ]
    try:
        await wait_for(
            lambda: _count(conn, "select count(*) = 300 from agent_taak_log where meta ? 'num_turns'"),
            timeout=600,
            interval=0.5,
            what="300 result rows",
        )
    finally:
        for daemon in daemons:
            daemon.stop()
    assert await conn.fetchval("select count(*) from agent_taken where status = 'klaar'") == 300
    assert await conn.fetchval("select count(*) from agent_taak_log where soort = 'gestart'") == 300
    ends = [e for d in daemons for e in d.events() if e.get("event") == "session_end"]
    assert len(ends) == 300
    assert {(e["exit_code"], e["stop"]) for e in ends} == {(0, None)}
    assert not any(d.has_event("lease_lost") for d in daemons)


async def test_fifty_megabytes_of_output_are_kept_whole(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = InProcess(
        worker_env(db_url, tmp_path, mode="flood", TAAK_MAX_LINE_BYTES="1048576"),
        tmp_path / "worker.log",
        "--once",
    )
    assert await daemon.wait(timeout=120) == 0
    await daemon.stop()
    assert await status_of(conn, task_id) == "klaar"
    (raw,) = (tmp_path / "data" / "sessies" / task_id).glob("*.jsonl")
    assert raw.stat().st_size > 50_000_000
    (written,) = (tmp_path / "records").glob("*.out")
    assert raw.read_bytes() == written.read_bytes()


@pytest.mark.slow
async def test_the_heartbeat_says_who_serves_the_bot_and_on_what(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    task_id = await new_task(conn, toegewezen_aan="paco")
    daemon = InProcess(worker_env(db_url, tmp_path, mode="busy"), tmp_path / "worker.log")
    try:
        await wait_for(
            lambda: _count(conn, f"select huidige_taak = '{task_id}' from agent_bots where bot = 'paco'"),
            what="the heartbeat",
        )
        row = await conn.fetchrow(
            "select machine, pid, versie, laatst_gezien > now() - interval '5 seconds' as fresh "
            "from agent_bots where bot = 'paco'"
        )
    finally:
        await daemon.stop()
    assert (row["machine"], row["pid"], row["fresh"]) == ("testbox", os.getpid(), True)  # the daemon's process
    assert row["versie"]


# --- small conditions ---------------------------------------------------------------------------


async def _listening(daemon: Daemon | InProcess) -> bool:
    return daemon.has_event("listening")


async def _event(daemon: Daemon | InProcess, name: str) -> bool:
    return daemon.has_event(name)


async def _status_is(conn: asyncpg.Connection, task_id: str, *statuses: str) -> bool:
    return await status_of(conn, task_id) in statuses


async def _has_kind(conn: asyncpg.Connection, task_id: str, soort: str) -> bool:
    return soort in await kinds(conn, task_id)


async def _records_exist(folder: Path) -> bool:
    return bool(records(folder))


async def _dead(pid: int) -> bool:
    return not pid_alive(pid)


async def _count(conn: asyncpg.Connection, sql: str) -> bool:
    return bool(await conn.fetchval(sql))


async def test_a_dropped_listen_connection_is_restored(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    env = worker_env(db_url, tmp_path, mode="klaar", TAAK_POLL_SECONDS="30")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _listening(daemon), what="the daemon to listen")
        await conn.execute(
            "select pg_terminate_backend(pid) from pg_stat_activity "
            "where application_name = 'taak-listen' and datname = current_database()"
        )
        await wait_for(lambda: _count_events(daemon, "listening", 2), what="listening again")
        task_id = await new_task(conn, toegewezen_aan="paco")
        # Far sooner than the 30 s poll: the notification arrived on the restored connection.
        await wait_for(lambda: _status_is(conn, task_id, "bezig", "klaar"), timeout=5, what="the claim")
    finally:
        await daemon.stop()
    assert daemon.has_event("listen_lost")


async def test_without_listen_the_daemon_polls_and_says_so_once(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    env = worker_env(db_url, tmp_path, mode="klaar", TAAK_LISTEN="false", TAAK_POLL_SECONDS="0.5")
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "listen_unavailable"), what="the poll-mode notice")
        first = await new_task(conn, "eerste", toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn, first, "klaar"), timeout=10, what="klaar by polling")
        second = await new_task(conn, "tweede", toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn, second, "klaar"), timeout=10, what="klaar by polling")
    finally:
        await daemon.stop()
    names = [e.get("event") for e in daemon.events()]
    assert names.count("listen_unavailable") == 1
    assert "listening" not in names


async def _count_events(daemon: Daemon | InProcess, name: str, count: int) -> bool:
    return [e.get("event") for e in daemon.events()].count(name) >= count


async def test_a_daemon_on_an_unmigrated_database_refuses_to_start_with_one_line(
    empty_db_url: str, tmp_path: Path
) -> None:
    daemon = Daemon(worker_env(empty_db_url, tmp_path), tmp_path / "worker.log")
    assert daemon.wait(timeout=30) == 1
    daemon.stop()
    assert "`taak db migrate`" in (tmp_path / "worker.log").read_text()
    assert "Traceback" not in (tmp_path / "worker.log").read_text()


async def test_a_failing_background_duty_is_logged_and_the_daemon_keeps_working(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    conn = conn_on
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = worker_env(db_url, tmp_path, mode="klaar", TAAK_REGISTRY_FILE=str(blocker / "machines.json"))
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "duty_failed"), what="the logged failure")
        task_id = await new_task(conn, toegewezen_aan="paco")
        await wait_for(lambda: _status_is(conn, task_id, "klaar"), what="work going on")
    finally:
        await daemon.stop()
    failed = [e for e in daemon.events() if e.get("event") == "duty_failed"]
    assert failed[0]["duty"] == "registry_sync"


def test_a_data_folder_that_is_a_file_is_one_line_not_a_traceback(db_url: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    blocked = tmp_path / "een-bestand"
    blocked.write_text("")
    env = {**worker_env(db_url, tmp_path), "TAAK_DATA_DIR": str(blocked)}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2  # a setting that cannot be right, refused before anything starts
    assert "Traceback" not in done.stderr + done.stdout
    assert done.stderr == f"queue-worker: ongeldige instelling: TAAK_DATA_DIR: {blocked} is een bestand, geen map\n"


@pytest.mark.parametrize("folder", ["sessies", "locks"])
async def test_a_file_where_a_session_folder_belongs_refuses_the_start_and_uses_no_attempt(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path, folder: str
) -> None:
    """Found only at the first claim, it was an internal error that used up every task's attempts (tester 23)."""
    import subprocess
    import sys

    task_id = await new_task(conn_on, toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path)
    blocked = Path(env["TAAK_DATA_DIR"]) / folder
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("x")
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"queue-worker: bestand {blocked}: een deel van het pad is geen map\n"
    row = await conn_on.fetchrow("select status, pogingen from agent_taken where id = $1", task_id)
    assert (row["status"], row["pogingen"]) == ("wachtend", 0)


async def test_a_reader_that_stops_early_does_not_stop_the_daemon_or_its_task(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    """`queue-worker --once | head -1`: the log's reader is gone after the first line; the task is still done."""
    import subprocess
    import sys

    task_id = await new_task(conn_on, "Lees maar één regel", toegewezen_aan="paco")
    script = f"{sys.executable} -m worker.cli.queue_worker --once 2>{tmp_path / 'err'} | head -1 >/dev/null; " + (
        'exit "${PIPESTATUS[0]}"'
    )
    done = subprocess.run(["bash", "-c", script], env=worker_env(db_url, tmp_path), timeout=120)
    assert done.returncode == 0
    assert (tmp_path / "err").read_text() == ""
    assert await status_of(conn_on, task_id) == "klaar"


def test_the_console_log_is_written_for_a_person(db_url: str, tmp_path: Path) -> None:
    import re
    import subprocess
    import sys

    env = {**worker_env(db_url, tmp_path), "TAAK_LOG_FORMAT": "console"}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode in (0, 3), done.stderr
    started = next(line for line in done.stdout.splitlines() if "worker_started" in line)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[info", started), started  # local time, no T and Z
    assert " bots=paco " in started
    assert "['" not in done.stdout  # lists as words, not Python's


@pytest.mark.parametrize(
    ("change", "code", "said"),
    [
        ({"database": "er_is_geen_database_zo"}, 4, "database er_is_geen_database_zo bestaat niet"),
        ({"user": "er_is_geen_rol_zo"}, 4, "gebruiker er_is_geen_rol_zo bestaat niet"),
        ({"query": "search_path=elders"}, 1, "search_path=elders uit TAAK_DATABASE_URL"),
        ({"query": "options=-c%20lock_timeout%3Dlang"}, 1, 'invalid value for parameter "lock_timeout"'),
    ],
)
def test_a_daemon_set_up_with_a_database_it_can_never_use_says_so_in_one_line_as_taak_does(
    db_url: str, tmp_path: Path, change: dict[str, str], code: int, said: str
) -> None:
    """No waiting and no traceback for what only a changed setting mends: the same line and code as `taak`."""
    import subprocess
    import sys
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(db_url)
    netloc = parts.netloc if "user" not in change else f"{change['user']}@{parts.netloc.rpartition('@')[2]}"
    path = f"/{change['database']}" if "database" in change else parts.path
    # The change's query beside the URL's own (the embedded server's names its socket folder: `?host=/...`).
    query = "&".join(q for q in (parts.query, change.get("query", "")) if q)
    url = urlunsplit((parts.scheme, netloc, path, query, ""))
    env = {**worker_env(url, tmp_path), "TAAK_CONNECT_ATTEMPTS": "1"}
    daemon = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker"], env=env, capture_output=True, text=True, timeout=60
    )
    owner = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", "lijst"], env=env, capture_output=True, text=True, timeout=60
    )
    assert "Traceback" not in daemon.stdout + daemon.stderr
    assert daemon.stdout == ""  # nothing started, so no log line says something stopped
    assert (daemon.returncode, owner.returncode) == (code, code)
    (line,) = daemon.stderr.splitlines()
    assert said in line
    assert line.removeprefix("queue-worker: ") == owner.stderr.strip().removeprefix("taak: ")


@pytest.mark.parametrize("bots", ["", " , "])
def test_a_daemon_with_no_bots_set_is_refused_as_a_setting_with_exit_2(db_url: str, tmp_path: Path, bots: str) -> None:
    """As TAAK_BOTS=a/b is: a setting to mend, not a refusal of the database (exit 1 said the wrong thing)."""
    import subprocess
    import sys

    env = {**worker_env(db_url, tmp_path), "TAAK_BOTS": bots}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr == "queue-worker: TAAK_BOTS is leeg: noem de bots die deze machine bedient (TAAK_BOTS=paco)\n"


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ({"TAAK_WORKDIR": "/nergens/werk"}, "ongeldige instelling: TAAK_WORKDIR: /nergens/werk is geen bestaande map"),
        ({"TAAK_SOCKET_DIR": "/tmp/" + "d" * 110}, "de sessie-socket /tmp/ddd"),
    ],
)
def test_a_folder_the_daemon_cannot_use_is_refused_at_the_start_with_exit_2(
    db_url: str, tmp_path: Path, setting: dict[str, str], said: str
) -> None:
    """A work folder that does not exist was taken, and every session then failed to start, blamed on the
    agent (an infrastructure pause, again and again); a socket folder too long exited 1, not as a setting."""
    import subprocess
    import sys

    env = {**worker_env(db_url, tmp_path), **setting}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"queue-worker: {said}")
    assert len(done.stderr.splitlines()) == 1


async def test_a_registry_path_that_is_a_folder_is_said_as_that_path_and_leaves_no_file_beside_it(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    """The reason named `machines.json.tmp`, a file the daemon had left beside the folder (tester 23)."""
    folder = tmp_path / "machines.json"
    folder.mkdir()
    daemon = InProcess(worker_env(db_url, tmp_path, TAAK_REGISTRY_FILE=str(folder)), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "duty_failed"), what="the registry duty to fail")
    finally:
        await daemon.stop()
    (failed,) = [e for e in daemon.events() if e.get("event") == "duty_failed"]
    assert failed["reason"] == f"bestand {folder}: is een map"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("machines")) == ["machines.json"]


async def test_a_registry_file_that_cannot_be_written_is_one_line_in_the_log_not_a_traceback(
    db_url: str, conn_on: asyncpg.Connection, tmp_path: Path
) -> None:
    (tmp_path / "een-bestand").write_text("x")
    env = worker_env(
        db_url, tmp_path, TAAK_REGISTRY_FILE=str(tmp_path / "een-bestand" / "machines.json"), TAAK_POLL_SECONDS="1"
    )
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "duty_failed"), what="the registry duty to fail")
        await anyio.sleep(2.5)  # two more tries, each after TAAK_POLL_SECONDS: the same reason is not said again
    finally:
        await daemon.stop()
    failed = [e for e in daemon.events() if e.get("event") == "duty_failed"]
    assert len(failed) == 1
    # A file where the folder belongs is said as no folder; Python's own words were 'File exists' ('bestaat al').
    assert failed[0]["reason"] == f"bestand {tmp_path / 'een-bestand'}: een deel van het pad is geen map"
    assert "Traceback" not in (tmp_path / "worker.log").read_text()


async def _track_functions(conn: asyncpg.Connection) -> None:
    """The server counts each function's calls in this database (for the connections made from now on). The
    database by its own name, not the URL's last part: an embedded server's URL ends in its socket folder."""
    name = await conn.fetchval("select current_database()")
    await conn.execute(f"alter database \"{name}\" set track_functions = 'pl'")


@pytest.mark.slow  # the server's function counts reach pg_stat_user_functions up to 10 s after an idle backend ran
async def test_a_daemon_for_coco_claims_nothing_for_twenty_new_tasks_of_paco(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """Issue 42: every daemon woke for every new task and ran a claim (1,000 machines: 2,000 statements a task)."""
    await _track_functions(conn)
    await switch_on(conn, "paco", "coco")
    daemon = Daemon(worker_env(db_url, tmp_path, TAAK_BOTS="coco", TAAK_POLL_SECONDS="300"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _listening(daemon), what="the daemon to listen")
        for n in range(20):
            await new_task(conn, f"voor paco {n}", toegewezen_aan="paco")
            await anyio.sleep(0.1)  # each its own notice, none folded into another's wake
        own = await new_task(conn, "voor coco", toegewezen_aan="coco")
        await wait_for(lambda: _status_is(conn, own, "klaar"), what="coco's own task")
        await anyio.sleep(12)  # an idle backend's counts reach the statistics within 10 s
        counted = "select coalesce(sum(calls), 0) from pg_stat_user_functions where funcname = 'taak_claim'"
        claims = await conn.fetchval(counted)
    finally:
        daemon.stop()
    # The claims at the start and after listening, and two for its own task (the second finds nothing).
    assert 2 <= claims <= 6, claims
    assert await conn.fetchval("select count(*) from agent_taken where status = 'wachtend'") == 20


@pytest.mark.slow  # the server's function counts reach pg_stat_user_functions up to 10 s after an idle backend ran
async def test_a_daemon_whose_bot_is_switched_off_claims_nothing_for_twenty_new_tasks_of_its_bot(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """Outside try of issue 42: a daemon ran a claim for each new task of a bot switched off (or braked), which it
    could never win; it knew, and said so in its start-up line."""
    await _track_functions(conn)
    await switch_on(conn, "coco")
    await conn.execute("update agent_bots set actief = false where bot = 'coco'")
    daemon = Daemon(worker_env(db_url, tmp_path, TAAK_BOTS="coco", TAAK_POLL_SECONDS="300"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _listening(daemon), what="the daemon to listen")
        for n in range(20):
            await new_task(conn, f"voor coco {n}", toegewezen_aan="coco")
            await new_task(conn, f"voor iedereen {n}")
            await anyio.sleep(0.1)  # each its own notice, none folded into another's wake
        await anyio.sleep(12)  # an idle backend's counts reach the statistics within 10 s
        counted = "select coalesce(sum(calls), 0) from pg_stat_user_functions where funcname = 'taak_claim'"
        claims = await conn.fetchval(counted)
    finally:
        daemon.stop()
    assert 1 <= claims <= 2, claims  # the claims at the start and after listening
    assert await conn.fetchval("select count(*) from agent_taken where status = 'wachtend'") == 40
