"""The database goes away under a running daemon: sessions go on, and the daemon comes back by itself."""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.conftest import with_database
from tests.helpers import ledger_on
from tests.system.harness import Daemon, kinds, new_task, records, status_of, switch_on, wait_for, worker_env
from worker.core.dsn import parse_database_url
from worker.db.embedded import ensure_embedded, stop_embedded
from worker.db.migrate import migrate

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"


async def test_the_daemon_recovers_when_its_database_restarts(tmp_path: Path) -> None:
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)  # a server this test owns
    try:
        db_url, conn = await _migrated_database(url, "outage")
        await switch_on(conn, "paco")
        first = await new_task(conn, "eerste", toegewezen_aan="paco")
        await conn.close()

        env = worker_env(
            db_url,
            tmp_path,
            mode="busy",
            TAAK_AGENT_ARGS="--fake-mode busy --fake-seconds 4",
            TAAK_LEASE_EXTEND_SECONDS="0.5",
            TAAK_POLL_SECONDS="1",
        )
        daemon = Daemon(env, tmp_path / "worker.log")
        try:
            await wait_for(lambda: _has_records(tmp_path, 1), what="the first session")
            await anyio.to_thread.run_sync(stop_embedded, server)
            time.sleep(2)
            # Restarted from another process, as an operator would (pgserver caches its handle per process).
            restart = (
                "from pathlib import Path; from worker.db.embedded import ensure_embedded; "
                f"ensure_embedded(Path({str(server)!r}))"
            )
            await anyio.run_process([sys.executable, "-c", restart])
            conn = await asyncpg.connect(db_url)
            # The session ran through the outage and its outcome was written afterwards.
            await wait_for(lambda: _has_kind(conn, first, "fout"), timeout=30, what="the first outcome")
            second = await new_task(conn, "tweede", toegewezen_aan="paco")
            await wait_for(lambda: _has_kind(conn, second, "gestart"), timeout=15, what="claiming to resume")
            await conn.close()
            await wait_for(lambda: _listening_again(daemon), timeout=15, what="LISTEN restored")
        finally:
            daemon.stop()
        names = [e.get("event") for e in daemon.events()]
        # One line per change of state, not one per retry; the LISTEN connection was restored.
        assert names.count("database_unreachable") == 1
        assert names.count("database_back") == 1
        assert names.count("listen_lost") == 1
        assert names.count("listening") == 2
        assert records(tmp_path)[0]["env"]["TAAK_ID"] == first
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)


async def _listening_again(daemon: Daemon) -> bool:
    return [e.get("event") for e in daemon.events()].count("listening") >= 2


async def _has_records(folder: Path, count: int) -> bool:
    return len(records(folder)) >= count


async def _has_kind(conn: asyncpg.Connection, task_id: str, soort: str) -> bool:
    return soort in await kinds(conn, task_id)


async def _refusing(admin: asyncpg.Connection, name: str, refuse: bool) -> None:
    await admin.execute(f'alter database "{name}" allow_connections {"false" if refuse else "true"}')
    if refuse:
        await admin.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", name)


async def test_a_database_that_refuses_connections_is_waited_for_like_one_that_is_down(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """`ALTER DATABASE ... ALLOW_CONNECTIONS false` (a restore, a maintenance window) answers every connect
    with SQLSTATE 55000: the daemon waits and comes back, the owner's command says "unreachable" (exit 4)."""
    from tests.helpers import run_taak

    name = parse_database_url(db_url).database
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "wacht op de database", toegewezen_aan="paco")
    await conn.close()
    admin = await asyncpg.connect(server_url)
    await _refusing(admin, name, True)
    daemon = Daemon(worker_env(db_url, tmp_path, mode="klaar", TAAK_POLL_SECONDS="1"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _said(daemon, "database_unreachable"), timeout=30, what="the daemon to say so")
        await anyio.sleep(2)
        assert daemon.process.poll() is None  # waiting, not crashed
        env = {**worker_env(db_url, tmp_path / "owner", mode="klaar"), "TAAK_CONNECT_ATTEMPTS": "1"}
        refused = run_taak(env, "lijst")
        assert refused.code == 4, refused.err
        assert len(refused.err.strip().splitlines()) == 1
        assert "(de database neemt nu geen verbindingen aan (onderhoud of een herstel?))" in refused.err  # nl, whole
        (gone,) = [e for e in daemon.events() if e.get("event") == "database_unreachable"]
        # the cause alone, as every later line of the log says it (the start said a whole sentence; tester 23)
        assert gone["error"] == "de database neemt nu geen verbindingen aan (onderhoud of een herstel?)"
        assert "DatabaseRefusesConnections" not in gone["error"]
        await _refusing(admin, name, False)
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _klaar(conn, task_id), timeout=60, what="klaar once connections are allowed")
        await conn.close()
        await _refusing(admin, name, True)  # and again while it runs: every duty meets it
        await anyio.sleep(4)
        assert daemon.process.poll() is None
        await _refusing(admin, name, False)
        conn = await asyncpg.connect(db_url)
        second = await new_task(conn, "daarna", toegewezen_aan="paco")
        await wait_for(lambda: _klaar(conn, second), timeout=60, what="the next task after the second refusal")
        await conn.close()
    finally:
        await _refusing(admin, name, False)
        await admin.close()
        daemon.stop()
    assert "Traceback" not in (tmp_path / "worker.log").read_text()


async def test_connections_the_server_ended_while_idle_are_replaced_and_the_daemon_goes_on(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """The server ends every idle connection of the daemon (a failover, `pg_terminate_backend`), and the
    network delivers each FATAL seconds before the close: the statements of those seconds find their pooled
    connection mid-error. The daemon waits that out like any outage and runs the next task; it crashed."""
    from tests.helpers import SlowClosingProxy

    name = parse_database_url(db_url).database
    admin = await asyncpg.connect(server_url)
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    async with SlowClosingProxy.in_front_of(db_url, hold_seconds=3) as proxy:
        env = worker_env(proxy.url(db_url), tmp_path, mode="klaar", TAAK_POLL_SECONDS="1")
        daemon = Daemon(env, tmp_path / "worker.log")
        try:
            await wait_for(lambda: _said(daemon, "listening"), timeout=30, what="the daemon to listen")
            ended = await admin.fetchval(
                "select count(pg_terminate_backend(pid, 5000)) from pg_stat_activity where datname = $1 and pid <> $2",
                name,
                conn.get_server_pid(),
            )
            assert ended >= 2  # its pool and its LISTEN connection
            task_id = await new_task(conn, "na de onderbreking", toegewezen_aan="paco")
            await wait_for(lambda: _klaar(conn, task_id), timeout=60, what="the task after the connections ended")
            assert daemon.process.poll() is None
        finally:
            await anyio.to_thread.run_sync(daemon.stop)  # the proxy runs on this loop: it must go on passing bytes
            await conn.close()
            await admin.close()
    assert "Traceback" not in (tmp_path / "worker.log").read_text()


async def test_a_reaper_back_from_an_outage_leaves_the_other_daemons_their_grace_first(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """Every daemon lost the database (it refused connections; the server did not restart, so its start time
    says nothing), and a lease held on another machine ran out meanwhile. The reaper that got back first took
    it at once, before its holder could extend it or write the `klaar` its journal kept: the work ran twice.
    Now a reaper back from an outage takes nothing for TAAK_REAPER_GRACE_SECONDS; then it does."""

    name = parse_database_url(db_url).database
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "bezig op een andere machine", toegewezen_aan="paco")
    admin = await asyncpg.connect(server_url)
    env = worker_env(db_url, tmp_path, TAAK_BOTS="sjakie", TAAK_REAPER_SECONDS="1", TAAK_REAPER_GRACE_SECONDS="20")
    reaper = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _said(reaper, "listening"), timeout=30, what="the daemon to listen")
        claim = await ledger_on(conn, lease_seconds=4, machine="elders").claim(["paco"])
        assert claim is not None
        assert claim.task.id == task_id
        await conn.close()
        await _refusing(admin, name, True)
        await anyio.sleep(7)  # the lease ran out while nobody could reach the database
        await _refusing(admin, name, False)
        back = time.monotonic()
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _status_is_not(conn, task_id, "bezig"), timeout=60, what="the reaper to take it")
        reaped_after = time.monotonic() - back
        await conn.close()
    finally:
        await _refusing(admin, name, False)
        await admin.close()
        reaper.stop()
    assert reaped_after >= 18, reaped_after  # the grace is counted from when this daemon was back
    assert _said_now(reaper, "lease_verlopen")
    # every record about a task carries its bot too (the reaper's said only the task: tester N)
    assert [e["bot"] for e in reaper.events() if e.get("event") == "lease_verlopen"] == ["paco"]


def _said_now(daemon: Daemon, name: str) -> bool:
    return daemon.has_event(name)


async def _status_is_not(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return bool(await conn.fetchval("select status <> $2 from agent_taken where id = $1", task_id, status))


async def test_a_daemon_stopped_during_an_outage_claims_nothing_when_the_database_comes_back(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """SIGTERM while the claim waits out an outage: the daemon stops without the database, and a task that
    became claimable meanwhile is still waiting afterwards (it was claimed and run once the database was back)."""
    name = parse_database_url(db_url).database
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    daemon = Daemon(worker_env(db_url, tmp_path, mode="klaar", TAAK_POLL_SECONDS="1"), tmp_path / "worker.log")
    admin = await asyncpg.connect(server_url)
    try:
        await wait_for(lambda: _said(daemon, "listening"), timeout=30, what="the daemon to listen")
        later = datetime.now(UTC) + timedelta(seconds=3)  # claimable during the outage, not before it
        task_id = await new_task(conn, "pas na de storing", toegewezen_aan="paco", niet_voor=later)
        await conn.close()
        await _refusing(admin, name, True)
        await wait_for(lambda: _said(daemon, "database_unreachable"), timeout=30, what="the outage to be seen")
        await anyio.sleep(1.5)  # the claim loop has met it too (it looks every second)
        daemon.signal(signal.SIGTERM)
        await wait_for(lambda: _said(daemon, "shutdown_requested"), timeout=10, what="the stop to be heard")
        await anyio.sleep(3)  # the task is claimable now, and the database still away
        await _refusing(admin, name, False)
        exit_code = await anyio.to_thread.run_sync(daemon.wait, 30)
    finally:
        await _refusing(admin, name, False)
        await admin.close()
        daemon.stop()
    assert exit_code == 0
    conn = await asyncpg.connect(db_url)
    assert await status_of(conn, task_id) == "wachtend"
    assert await kinds(conn, task_id) == []
    await conn.close()
    assert records(tmp_path) == []


async def test_the_daemon_says_the_database_is_back_only_once_it_answers(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """A session that closes its task during an outage leaves no lease to extend: the reaper's next try must
    still ask the database before the daemon says it is back."""
    name = parse_database_url(db_url).database
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "klaar tijdens de storing", toegewezen_aan="paco")
    await conn.close()
    closing = f"sleep 3\n{shlex.quote(sys.executable)} -m worker.cli.taak klaar {{id}} --bewijs /tmp/bewijs klaar"
    env = worker_env(db_url, tmp_path, mode="run", FAKE_RUN=closing, TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    admin = await asyncpg.connect(server_url)
    try:
        await wait_for(lambda: _said(daemon, "session_start"), timeout=30, what="the session")
        await _refusing(admin, name, True)
        await wait_for(lambda: _said(daemon, "session_end"), timeout=30, what="the session to close its task")
        await anyio.sleep(3)  # three turns of the reaper, the database still away
        assert not daemon.has_event("database_back")
        await _refusing(admin, name, False)
        await wait_for(lambda: _said(daemon, "database_back"), timeout=30, what="the database to be back")
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _klaar(conn, task_id), timeout=30, what="the journaled klaar to arrive")
        await conn.close()
    finally:
        await _refusing(admin, name, False)
        await admin.close()
        daemon.stop()
    # The session was told its klaar is kept, as a success (stdout), not as an error line.
    (ran,) = (tmp_path / "records").glob("*.ran")
    (klaar,) = [c for c in json.loads(ran.read_text()) if " klaar " in c["command"]]
    assert (klaar["code"], klaar["err"]) == (0, "")
    # what it did, and that it waits for the database (it said only the second; tester 21)
    assert klaar["out"].startswith(f"{task_id}: klaar, met bewijs (bewaard in het journaal van de daemon")


async def _migrated_database(server_url: str, name: str) -> tuple[str, asyncpg.Connection]:
    """A new database on the test's own server, migrated; its URL and a connection to it."""
    admin = await asyncpg.connect(with_database(server_url, "postgres"))
    await admin.execute(f'create database "{name}"')
    await admin.close()
    db_url = with_database(server_url, name)
    conn = await asyncpg.connect(db_url)
    await migrate(conn)
    return db_url, conn


async def _said(daemon: Daemon, name: str) -> bool:
    return daemon.has_event(name)


async def _klaar(conn: asyncpg.Connection, task_id: str) -> bool:
    return bool(await conn.fetchval("select status = 'klaar' from agent_taken where id = $1", task_id))


async def test_tail_says_once_that_the_database_went_away_and_waits_for_it(tmp_path: Path) -> None:
    """It ended with exit 4 (the owner's live view died while the daemons rode through the outage): now one line
    that says so, no more while the database stays away, and Ctrl-C still ends it as its way to stop."""
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)  # a server this test owns, and stops
    try:
        db_url, conn = await _migrated_database(url, "volgen")
        task_id = await new_task(conn, "volg mij")
        row = "insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', 'eerste')"
        await conn.execute(row, task_id)
        await conn.close()
        env = {**worker_env(db_url, tmp_path / "owner", mode="klaar"), "TAAK_LANGUAGE": "nl"}
        tail = subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "tail", "-n", "1"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert tail.stdout is not None
        first = await anyio.to_thread.run_sync(tail.stdout.readline)  # following: its one row is shown
        assert "eerste" in first
        await anyio.to_thread.run_sync(stop_embedded, server)
        await anyio.sleep(12)  # several looks and connect attempts while it is away
        still_following = tail.poll() is None
        tail.send_signal(signal.SIGINT)
        code = await anyio.to_thread.run_sync(lambda: tail.wait(timeout=30))
        err = tail.stderr.read() if tail.stderr else ""
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)
    assert (still_following, code) == (True, 0), err
    (line,) = err.strip().splitlines()
    where = parse_database_url(db_url).where
    assert line == (
        f"taak: database niet bereikbaar op {where} (de verbinding is gesloten); "
        "tail wacht en gaat verder zodra de database terug is (Ctrl-C stopt)"
    )


async def test_tail_whose_connection_the_server_ended_says_so_and_goes_on(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """The server ends `taak tail`'s connection and the network delivers the FATAL before the close: the
    next look finds the connection mid-error. That is the same lost connection, said the same way; the server
    is still there, so tail connects again and goes on."""
    from tests.helpers import SlowClosingProxy

    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, "volg mij")
    await conn.execute("insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', 'eerste')", task_id)
    admin = await asyncpg.connect(server_url)
    async with SlowClosingProxy.in_front_of(db_url, hold_seconds=5) as proxy:
        tail_url = proxy.url(db_url)
        env = {**worker_env(tail_url, tmp_path / "owner", mode="klaar"), "TAAK_LANGUAGE": "nl"}
        tail = await anyio.open_process([sys.executable, "-m", "worker.cli.taak", "tail", "-n", "1"], env=env)
        try:
            assert tail.stdout is not None
            assert tail.stderr is not None
            first = await tail.stdout.receive()
            assert b"eerste" in first
            await admin.execute(
                "select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1 and pid <> $2",
                parse_database_url(db_url).database,
                conn.get_server_pid(),
            )
            err = b""
            with anyio.fail_after(30):
                while b"tail gaat verder" not in err:
                    err += await tail.stderr.receive()
            await conn.execute(
                "insert into agent_taak_log (taak_id, soort, tekst) values ($1, 'notitie', 'daarna')", task_id
            )
            with anyio.fail_after(15):
                shown = b""
                while b"daarna" not in shown:
                    shown += await tail.stdout.receive()
            tail.send_signal(signal.SIGINT)
            code = await tail.wait()
        finally:
            if tail.returncode is None:
                tail.kill()
                await tail.wait()
            await conn.close()
            await admin.close()
    assert code == 0, err
    where = parse_database_url(tail_url).where
    assert err.decode().strip().splitlines() == [
        f"taak: database niet bereikbaar op {where} (de verbinding is gesloten); "
        "tail wacht en gaat verder zodra de database terug is (Ctrl-C stopt)",
        "taak: de database is terug; tail gaat verder waar het was",
    ]


async def _ending_rows(conn: asyncpg.Connection, task_id: str) -> list[tuple[str, str]]:
    rows = await conn.fetch("select soort, tekst from agent_taak_log where taak_id = $1 order by id", task_id)
    return [(r["soort"], r["tekst"]) for r in rows]


async def _task_for_paco(db_url: str, opdracht: str) -> str:
    conn = await asyncpg.connect(db_url)
    await switch_on(conn, "paco")
    task_id = await new_task(conn, opdracht, toegewezen_aan="paco")
    await conn.close()
    return task_id


async def _stopped_during_an_outage(daemon: Daemon, db_url: str, server_url: str, *, after: str | None = None) -> int:
    """Once the session started, the database refuses connections; SIGTERM (after the event `after`, if named)
    while it still does. The daemon's exit code; connections are allowed again afterwards."""
    name = parse_database_url(db_url).database
    admin = await asyncpg.connect(server_url)
    try:
        await wait_for(lambda: _said(daemon, "session_start"), timeout=30, what="the session")
        await _refusing(admin, name, True)
        if after is not None:
            await wait_for(lambda: _said(daemon, after), timeout=30, what=after)
        daemon.signal(signal.SIGTERM)
        return await anyio.to_thread.run_sync(daemon.wait, 40)
    finally:
        await _refusing(admin, name, False)
        await admin.close()
        daemon.stop()


async def _restart_to_replay(db_url: str, tmp_path: Path) -> tuple[int, Daemon]:
    """The next start with the bot switched off: it writes what its journal kept and claims nothing."""
    conn = await asyncpg.connect(db_url)
    await conn.execute("update agent_bots set actief = false where bot = 'paco'")
    await conn.close()
    again = Daemon(worker_env(db_url, tmp_path, mode="klaar"), tmp_path / "again.log", "--once")
    return await anyio.to_thread.run_sync(again.wait, 60), again


async def test_a_daemon_stopped_during_an_outage_keeps_a_running_sessions_ending_for_its_next_start(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """SIGTERM while a session runs and the database is away: the session is stopped after the grace, the
    daemon exits 0 without a traceback, and the next start writes the session's result row and gives the
    attempt back (the stop was not the task's fault)."""
    task_id = await _task_for_paco(db_url, "loopt tijdens de storing")
    env = worker_env(db_url, tmp_path, mode="busy", TAAK_AGENT_ARGS="--fake-mode busy --fake-seconds 60")
    daemon = Daemon(env, tmp_path / "worker.log")
    exit_code = await _stopped_during_an_outage(daemon, db_url, server_url)
    log_text = (tmp_path / "worker.log").read_text()
    assert exit_code == 0
    assert "Traceback" not in log_text
    assert daemon.has_event("ending_kept_in_journal")
    assert not daemon.has_event("duty_failed")
    replayed, again = await _restart_to_replay(db_url, tmp_path)
    assert replayed == 0
    (started,) = [e for e in again.events() if e.get("event") == "worker_started"]
    assert started["journal_replayed"] == 2  # the result row and the give-back
    conn = await asyncpg.connect(db_url)
    rows = await _ending_rows(conn, task_id)
    task = await conn.fetchrow("select status, pogingen from agent_taken where id = $1", task_id)
    await conn.close()
    assert [soort for soort, _ in rows] == ["gestart", "notitie", "vrijgegeven"]
    assert rows[1][1].startswith("sessie-resultaat: geen resultaatregel")
    assert "database weg was" in rows[2][1]
    assert (task["status"], task["pogingen"]) == ("wachtend", 0)


async def test_a_daemon_stopped_during_an_outage_does_not_wait_its_grace_for_a_session_that_ended(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """The session ended while the database was away; then SIGTERM. Nothing runs any more, so the daemon
    stops at once instead of retrying the ending for the whole grace period, and the next start writes it."""
    task_id = await _task_for_paco(db_url, "eindigt tijdens de storing")
    env = worker_env(db_url, tmp_path, mode="run", FAKE_RUN="sleep 2", TAAK_SHUTDOWN_GRACE_SECONDS="120")
    daemon = Daemon(env, tmp_path / "worker.log")
    # Within 40 s, though the grace is 120 s: the daemon does not wait for a session that already ended.
    exit_code = await _stopped_during_an_outage(daemon, db_url, server_url, after="session_end")
    assert exit_code == 0
    assert "Traceback" not in (tmp_path / "worker.log").read_text()
    replayed, _ = await _restart_to_replay(db_url, tmp_path)
    assert replayed == 0
    conn = await asyncpg.connect(db_url)
    rows = await _ending_rows(conn, task_id)
    pogingen = await conn.fetchval("select pogingen from agent_taken where id = $1", task_id)
    await conn.close()
    assert [soort for soort, _ in rows] == ["gestart", "notitie", "vrijgegeven"]
    assert rows[1][1].startswith("sessie-resultaat")
    assert pogingen == 0


async def test_a_close_the_database_refuses_after_an_outage_is_not_told_as_the_sessions_own(
    db_url: str, server_url: str, tmp_path: Path
) -> None:
    """The session said `klaar` while the database was away (the journal took it), and meanwhile the owner took
    the lease back: when the journal wrote the klaar it was refused. The daemon's outcome said "the session
    closed the task itself" all the same; now it says that the close was refused, and why."""

    name = parse_database_url(db_url).database
    conn = await asyncpg.connect(db_url)  # kept through the outage: the owner's hand on the task
    await switch_on(conn, "paco")
    task_id = await new_task(conn, "klaar in het donker", toegewezen_aan="paco")
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 4", TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    admin = await asyncpg.connect(server_url)
    try:
        await wait_for(lambda: _said(daemon, "session_start"), timeout=60, what="the session")
        await admin.execute(f'alter database "{name}" allow_connections false')
        mine = await conn.fetchval("select pg_backend_pid()")
        gone = "select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1 and pid <> $2"
        await admin.execute(gone, name, mine)
        await ledger_on(conn).terugnemen(task_id, "hangt", wie="jamal", wait_seconds=600)
        await wait_for(lambda: _said(daemon, "session_end"), timeout=60, what="the session to end in the outage")
        await admin.execute(f'alter database "{name}" allow_connections true')
        await wait_for(lambda: _said(daemon, "outcome"), timeout=90, what="the outcome")
        status = await conn.fetchval("select status from agent_taken where id = $1", task_id)
    finally:
        await admin.execute(f'alter database "{name}" allow_connections true')
        await admin.close()
        await conn.close()
        daemon.stop()
    (outcome,) = [e for e in daemon.events() if e.get("event") == "outcome"]
    assert status == "wachtend"
    assert outcome["reason"].startswith("de sessie sloot de taak af, maar de database weigerde dat later (")
    assert outcome["reason"].endswith("; de taak is nu wachtend")
    assert any(e.get("event") == "journal_write_refused" and e.get("op") == "klaar" for e in daemon.events())


async def test_tail_waits_through_a_database_restart_and_misses_no_row(tmp_path: Path) -> None:
    """`taak tail` ended with exit 4 when the database restarted, while the daemons rode through it (tester M):
    the owner's live view now says the outage once, waits, and shows every row written around it, once."""
    import os
    import threading

    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)
    try:
        db_url, conn = await _migrated_database(url, "tail")
        task_id = await conn.fetchval("select taak_nieuw('volg mij', 'jamal', null, null, '{}'::jsonb)")
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
        env.update(TAAK_DATABASE_URL=db_url, TAAK_DATA_DIR=str(tmp_path / "data"), TAAK_LANGUAGE="nl")
        env.update(TAAK_CONNECT_ATTEMPTS="1")
        await conn.close()
        tail = subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "tail", task_id],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(tail.stdout or []), daemon=True)
        reader.start()
        try:
            await wait_for(lambda: _anyio_true(len(lines) >= 1), what="tail's first row")
            await anyio.to_thread.run_sync(stop_embedded, server)
            await anyio.sleep(4)  # longer than tail's look every second and its connect attempt
            restart = (
                "from pathlib import Path; from worker.db.embedded import ensure_embedded; "
                f"ensure_embedded(Path({str(server)!r}))"
            )
            await anyio.run_process([sys.executable, "-c", restart])
            conn = await asyncpg.connect(db_url)
            for n in range(3):
                await conn.execute(
                    "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, 'jamal', 'notitie', $2)",
                    task_id,
                    f"na de herstart {n}",
                )
            await conn.close()
            await wait_for(lambda: _anyio_true(len(lines) >= 4), timeout=30, what="the rows after the restart")
            assert tail.poll() is None  # still following
        finally:
            tail.send_signal(signal.SIGINT)
            _out, err = tail.communicate(timeout=30)
        assert tail.returncode == 0, err
        shown = [line for line in lines if "na de herstart" in line]
        assert len(shown) == 3  # each once, none missed
        said = err.splitlines()
        assert said[0].startswith("taak: database niet bereikbaar op ")
        assert said[0].endswith("; tail wacht en gaat verder zodra de database terug is (Ctrl-C stopt)")
        assert said[1] == "taak: de database is terug; tail gaat verder waar het was"
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)


async def _anyio_true(value: bool) -> bool:
    return value


def test_queue_worker_once_with_the_database_down_gives_up_after_its_connect_attempts_with_exit_4(
    tmp_path: Path,
) -> None:
    """A run from cron or a test must end: the daemon waits for its database for ever, --once for as long as
    TAAK_CONNECT_ATTEMPTS (each TAAK_CONNECT_TIMEOUT_SECONDS at most) take, and then says why in one line."""
    url = "postgresql://bot:geheim@127.0.0.1:1/taak"
    env = worker_env(url, tmp_path, TAAK_CONNECT_ATTEMPTS="2", TAAK_CONNECT_TIMEOUT_SECONDS="1")
    started = time.monotonic()
    daemon = Daemon(env, tmp_path / "worker.log", "--once")
    try:
        code = daemon.wait(timeout=30)
    finally:
        daemon.stop()
    assert code == 4
    assert time.monotonic() - started < 20
    (line,) = (tmp_path / "worker.log").read_text().strip().splitlines()
    assert line == "queue-worker: database niet bereikbaar op 127.0.0.1:1 (verbinding geweigerd)"


def _freeze(server: Path, sig: signal.Signals) -> None:
    """SIGSTOP or SIGCONT to the server's postmaster and every process under it (its backends, its writers):
    a server that answers nothing and closes nothing, as a hung host or a stalled disk leaves it."""
    import psutil

    postmaster = psutil.Process(int((server / "data" / "postmaster.pid").read_text().splitlines()[0]))
    for process in [postmaster, *postmaster.children(recursive=True)]:
        process.send_signal(sig)


async def test_a_frozen_database_is_said_by_the_daemon_and_by_tail_within_the_statement_timeout(
    tmp_path: Path,
) -> None:
    """The server stopped with SIGSTOP for 12 seconds: with no timeout on a statement the daemon's claim hung
    and it said nothing (30 s seen), and `taak tail` stood still. Now a statement gives up after
    TAAK_STATEMENT_TIMEOUT_SECONDS: the daemon says database_unreachable, tail says it waits, both say when the
    server is back, and the daemon runs the next task."""
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)  # a server this test owns, and freezes
    frozen = False
    try:
        db_url, conn = await _migrated_database(url, "bevroren")
        await switch_on(conn, "paco")
        await conn.close()
        env = worker_env(
            db_url,
            tmp_path,
            mode="klaar",
            TAAK_POLL_SECONDS="1",
            TAAK_STATEMENT_TIMEOUT_SECONDS="2",
            TAAK_CONNECT_TIMEOUT_SECONDS="1",
            TAAK_CONNECT_ATTEMPTS="1",
        )
        daemon = Daemon(env, tmp_path / "worker.log")
        tail = subprocess.Popen(
            [sys.executable, "-m", "worker.cli.taak", "tail", "-n", "0"],
            env={**env, "TAAK_DATA_DIR": str(tmp_path / "owner")},
            stdout=subprocess.DEVNULL,
            stderr=(tmp_path / "tail.err").open("wb"),
            stdin=subprocess.DEVNULL,
        )
        try:
            await wait_for(lambda: _said(daemon, "listening"), timeout=30, what="the daemon to listen")
            await anyio.sleep(2)  # tail is following
            _freeze(server, signal.SIGSTOP)
            frozen, since = True, time.monotonic()
            await wait_for(lambda: _said(daemon, "database_unreachable"), timeout=15, what="the daemon to say so")
            said_after = time.monotonic() - since
            await wait_for(lambda: _err_has(tmp_path / "tail.err", "tail wacht"), timeout=15, what="tail to say so")
            # The owner's command with the default connect settings: it waited 28.7 s, five connects of 5 s each.
            owner = {k: v for k, v in env.items() if not k.startswith("TAAK_CONNECT_")}
            asked = time.monotonic()
            shown = await anyio.run_process(
                [sys.executable, "-m", "worker.cli.taak", "toon", "HV-20261205-001"], env=owner, check=False
            )
            toon_took = time.monotonic() - asked
            await anyio.sleep(max(0.0, 12 - (time.monotonic() - since)))
            _freeze(server, signal.SIGCONT)
            frozen = False
            await wait_for(lambda: _said(daemon, "database_back"), timeout=30, what="the daemon to say it is back")
            await wait_for(lambda: _err_has(tmp_path / "tail.err", "de database is terug"), timeout=30, what="tail")
            conn = await asyncpg.connect(db_url)
            task_id = await new_task(conn, "na de bevriezing", toegewezen_aan="paco")
            await wait_for(lambda: _klaar(conn, task_id), timeout=60, what="the next task after the freeze")
            await conn.close()
            assert tail.poll() is None  # still following
        finally:
            if frozen:
                _freeze(server, signal.SIGCONT)
            tail.terminate()
            tail.wait(timeout=30)
            await anyio.to_thread.run_sync(daemon.stop)
        assert said_after < 10, said_after
        assert shown.returncode == 4, shown.stderr
        assert toon_took < 12, toon_took  # one connect timeout (5 s), not a retry of each
        assert shown.stderr.decode().count("\n") == 1
        gone = [e for e in daemon.events() if e.get("event") == "database_unreachable"]
        assert gone[0]["error"] == "geen antwoord binnen de tijd"
        assert "Traceback" not in (tmp_path / "worker.log").read_text()
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)


async def _err_has(path: Path, text: str) -> bool:
    return text in path.read_text(encoding="utf-8", errors="replace")
