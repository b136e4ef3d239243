"""Behind a pgbouncer in transaction mode on a port of its own (not Supabase's 6543): the daemon recognises it
by behaviour, runs without a statement cache and polls, and a task runs end to end. pgbouncer comes from
Debian's packages (`.ci/run` installs it) and is started by the test on a free port."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import asyncpg
import pytest

from tests.helpers import ledger_on
from tests.system.harness import Daemon, switch_on, wait_for, worker_env
from worker.db.ledger import NewTask

PGBOUNCER = shutil.which("pgbouncer") or ("/usr/sbin/pgbouncer" if Path("/usr/sbin/pgbouncer").exists() else None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def transaction_pooler(db_url: str) -> Iterator[str]:
    """A pgbouncer in transaction mode in front of the test's database; yields the URL through it."""
    if PGBOUNCER is None:
        pytest.skip("pgbouncer is not installed (Debian: apt-get install pgbouncer; .ci/run does)")
    parts = urlsplit(db_url)
    # The embedded server is reached by its socket folder, given as `?host=` (a socket URL has no host name).
    query = parse_qs(parts.query)
    host = parts.hostname or query.pop("host", [""])[0]
    # Its own folder directly under the temporary folder: pytest's is private to the user running the tests,
    # and pgbouncer may run as another one.
    folder = Path(tempfile.mkdtemp(prefix="taak-pgbouncer-"))
    port = free_port()
    user = parts.username or "postgres"
    (folder / "users.txt").write_text(f'"{user}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={host} port={parts.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\n"
        f"auth_type = trust\nauth_file = {folder}/users.txt\n"
        "pool_mode = transaction\ndefault_pool_size = 4\nmax_client_conn = 200\n"
        "unix_socket_dir =\nignore_startup_parameters = extra_float_digits\n"
        f"logfile = {folder}/pgbouncer.log\npidfile = {folder}/pgbouncer.pid\n"
    )
    command = [PGBOUNCER, str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:  # pgbouncer refuses to run as root: as the server's own user
        # (the embedded server's socket folder is private to the user it runs as)
        owner = pwd.getpwuid(Path(host).stat().st_uid) if host.startswith("/") else pwd.getpwnam("postgres")
        for path in (folder, *folder.iterdir()):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        command = ["su", owner.pw_name, "-s", "/bin/sh", "-c", " ".join(command)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 15
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        if process.poll() is not None or time.monotonic() > deadline:
            log = (folder / "pgbouncer.log").read_text() if (folder / "pgbouncer.log").exists() else ""
            raise AssertionError(f"pgbouncer did not start: {process.stdout.read() if process.stdout else ''} {log}")
        time.sleep(0.1)
    try:
        yield urlunsplit((parts.scheme, f"{user}@127.0.0.1:{port}", parts.path, urlencode(query, doseq=True), ""))
    finally:
        # `su` leaves pgbouncer in a session of its own: stop it by its pid file, then the wrapper.
        pidfile = folder / "pgbouncer.pid"
        if pidfile.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pidfile.read_text().strip()), signal.SIGTERM)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while pidfile.exists() and time.monotonic() < deadline:  # pgbouncer removes it when it has stopped
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


async def test_a_task_runs_end_to_end_through_a_transaction_pgbouncer_on_its_own_port(
    transaction_pooler: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    await switch_on(conn, "paco")
    task_ids = [
        await ledger_on(conn).nieuw(NewTask(f"Achter de pooler {n}", "jamal", toegewezen_aan="paco")) for n in range(3)
    ]
    daemon = Daemon(
        worker_env(transaction_pooler, tmp_path, TAAK_CONCURRENCY="3", TAAK_POLL_SECONDS="0.5"), tmp_path / "d.log"
    )
    try:
        await wait_for(
            lambda: conn.fetchval("select count(*) = 3 from agent_taken where status = 'klaar'"),
            timeout=90,
            what="three tasks finished through pgbouncer",
        )
    finally:
        daemon.stop()
    events = daemon.events()
    names = [e.get("event") for e in events]
    pooler = next(e for e in events if e.get("event") == "transaction_pooler")
    assert pooler["recognised_by"] == "probe"
    assert "listen_unavailable" in names
    assert not [e for e in events if "DuplicatePreparedStatement" in str(e) or "__asyncpg_stmt" in str(e)]
    assert not [e for e in events if e.get("level") == "error"]
    for task_id in task_ids:
        rows = await conn.fetch("select soort from agent_taak_log where taak_id = $1 order by id", task_id)
        assert [r["soort"] for r in rows].count("klaar") == 1


async def test_the_probe_sees_no_pooler_on_a_direct_connection_and_the_setting_overrides_it(db_url: str) -> None:
    from worker.core.dsn import parse_database_url
    from worker.db.pooler import resolve_pooler
    from worker.settings import Settings

    direct = await resolve_pooler(Settings(database_url=db_url), parse_database_url(db_url))
    assert direct.pooler == "session"
    assert not direct.is_transaction_pooler
    forced = await resolve_pooler(Settings(database_url=db_url, pooler="transaction"), parse_database_url(db_url))
    assert forced.is_transaction_pooler
