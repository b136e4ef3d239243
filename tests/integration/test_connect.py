"""Reaching the database: one clear line and the documented exit code when it cannot be done."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_taak


def env_with(url: str, tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_DATABASE_URL=url,
        TAAK_DATA_DIR=str(tmp_path),
        TAAK_LOCK_DIR=str(tmp_path / "locks"),
        TAAK_CONNECT_ATTEMPTS="2",
        TAAK_CONNECT_TIMEOUT_SECONDS="1",
    )
    return env


def test_an_unreachable_database_exits_4_naming_host_and_port_but_not_the_password(tmp_path: Path) -> None:
    result = run_taak(env_with("postgresql://bot:geheim-wachtwoord@127.0.0.1:1/taak", tmp_path), "db", "status")
    assert result.code == 4
    assert len(result.err.strip().splitlines()) == 1
    assert "127.0.0.1:1" in result.err
    assert "geheim-wachtwoord" not in result.err + result.out


@pytest.mark.parametrize(("mode", "reason"), [("", "geen Postgres-server"), ("?sslmode=require", "spreekt geen SSL")])
async def test_a_port_where_something_else_answers_is_said_as_no_postgres_server(
    tmp_path: Path, mode: str, reason: str
) -> None:
    """A web server on the port answered the SSL offer with `HTTP/1.1 400`: the line said "the server does not
    speak SSL", and `sslmode=disable`, which that suggests, only reached "the connection is closed". Where SSL
    is required, the answer cannot tell a server without SSL from something else, and says the first."""
    import anyio

    async def answer_as_a_web_server(client: anyio.abc.SocketStream) -> None:
        async with client:
            await client.receive()
            await client.send(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as group:
        group.start_soon(listener.serve, answer_as_a_web_server)
        env = {**env_with(f"postgresql://bot@127.0.0.1:{port}/taak{mode}", tmp_path), "TAAK_LANGUAGE": "nl"}
        result = await anyio.to_thread.run_sync(lambda: run_taak(env, "lijst"))
        group.cancel_scope.cancel()
    assert result.code == 4
    assert result.err.strip().endswith(f"{reason})")
    assert len(result.err.strip().splitlines()) == 1


def test_a_malformed_url_exits_2_with_one_line(tmp_path: Path) -> None:
    result = run_taak(env_with("postgresql://bot:geheim@host:poort/taak", tmp_path), "lijst")
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "geheim" not in result.err


@pytest.mark.parametrize("control", ["\n", "\r", "\t", "\x1b", "\x7f", "\x85"])
def test_a_control_character_inside_the_url_is_refused_naming_the_setting_not_the_password(
    tmp_path: Path, control: str
) -> None:
    """`post\\ngres` reached the server as `postgres` (the URL parser drops line breaks and tabs unseen): the
    database a person wrote was not the one used."""
    result = run_taak(env_with(f"postgresql://postgres:geheim@127.0.0.1:5432/post{control}gres", tmp_path), "lijst")
    assert result.code == 2, result.err
    (line,) = result.err.strip().splitlines()
    assert line.startswith("taak: ongeldige instelling: TAAK_DATABASE_URL: ")
    assert "stuurteken" in line
    assert "geheim" not in result.err + result.out


def test_an_invalid_setting_exits_2_with_one_line(tmp_path: Path) -> None:
    env = env_with("postgresql://postgres@127.0.0.1:5432/postgres", tmp_path)
    env["TAAK_LANGUAGE"] = "fr"
    result = run_taak(env, "lijst")
    assert result.code == 2
    assert "TAAK_LANGUAGE" in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_embedded_server_is_started_once_and_shared(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env["TAAK_DATA_DIR"] = str(tmp_path / "data")

    command = [sys.executable, "-m", "worker.cli.taak", "nieuw", "gedeelde server", "--van", "test"]
    processes = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)]
    outputs = [p.communicate(timeout=120) for p in processes]
    assert [p.returncode for p in processes] == [0, 0, 0], outputs
    ids = sorted(out.decode().strip() for out, _ in outputs)
    assert len(set(ids)) == 3
    listing = run_taak(env, "lijst", "--json")
    stopped = run_taak(env, "db", "stop")
    assert listing.code == 0, listing.err
    assert sorted(t["id"] for t in json.loads(listing.out)) == ids
    assert stopped.code == 0
    assert "is gestopt" in stopped.out


async def test_a_pooled_connection_goes_back_without_a_reset_round_trip_and_without_its_transaction(
    db_url: str,
) -> None:
    import asyncpg

    from worker.db.connect import create_pool
    from worker.settings import Settings

    pool = await create_pool(Settings(_env_file=None, database_url=db_url), min_size=1, max_size=1)
    watcher = await asyncpg.connect(db_url)
    try:
        async with pool.acquire() as conn:
            pid = await conn.fetchval("select pg_backend_pid()")
            await conn.fetchval("select 42 as laatste_vraag")
        last = await watcher.fetchval("select query from pg_stat_activity where pid = $1", pid)
        assert "laatste_vraag" in last  # no RESET ALL after it
        async with pool.acquire() as conn:
            transaction = conn.transaction()
            await transaction.start()  # left open: asyncpg rolls it back on release, before our (empty) reset
            await conn.execute("create temporary table vergeten (x int)")
        async with pool.acquire() as conn:
            assert not conn.is_in_transaction()
            assert await conn.fetchval("select to_regclass('pg_temp.vergeten')") is None
    finally:
        await watcher.close()
        await pool.close()


@pytest.mark.slow
def test_a_wrong_or_missing_password_is_said_as_such_by_both_programs(tmp_path: Path) -> None:
    """A server of the test's own that asks this role for a password (scram): a wrong one and none at all are
    each said as what they are, in the run's language, with exit 4; never the server's English."""
    import asyncio
    from urllib.parse import parse_qs, urlsplit

    import asyncpg

    from worker.db.embedded import ensure_embedded, stop_embedded

    server = tmp_path / "pg"
    url = ensure_embedded(server)
    try:

        async def ask_for_a_password() -> None:
            conn = await asyncpg.connect(url)
            try:
                await conn.execute("create role td_wachtwoord login password 'goed'")
                hba = Path(await conn.fetchval("show hba_file"))
                hba.write_text("local all td_wachtwoord scram-sha-256\n" + hba.read_text())
                await conn.execute("select pg_reload_conf()")
            finally:
                await conn.close()

        asyncio.run(ask_for_a_password())
        socket_dir = parse_qs(urlsplit(url).query)["host"][0]
        said = {}
        for password, expected in (
            ("fout", "database weigert het wachtwoord voor "),
            (None, "vraagt een wachtwoord, en TAAK_DATABASE_URL geeft er geen (gebruiker:wachtwoord@)"),
        ):
            userinfo = "td_wachtwoord" + (f":{password}" if password else "")
            env = {
                **env_with(f"postgresql://{userinfo}@/taak?host={socket_dir}", tmp_path),
                "TAAK_LANGUAGE": "nl",
                "PGPASSFILE": str(tmp_path / "geen-pgpass"),  # never the machine's ~/.pgpass
            }
            owner = run_taak(env, "lijst")
            daemon = subprocess.run(
                [sys.executable, "-m", "worker.cli.queue_worker"],
                env={**env, "TAAK_BOTS": "paco"},
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert (owner.code, daemon.returncode) == (4, 4), (owner, daemon.stderr)
            assert expected in owner.err
            assert daemon.stderr.removeprefix("queue-worker: ") == owner.err.removeprefix("taak: ")
            said[password] = owner.err
        assert "fout" not in said["fout"]
    finally:
        stop_embedded(server)


async def test_a_pooled_connection_its_server_ended_is_a_lost_connection_the_daemon_waits_out(
    db_url: str, server_url: str
) -> None:
    """The server terminates an idle pooled connection (a restart, `pg_terminate_backend`, a failover): its
    FATAL arrives before the socket's close, and a statement in between finds the connection mid-error.
    That is a lost connection like any other to the daemon: waited out, then served by a new connection."""
    import anyio
    import asyncpg

    from tests.helpers import SlowClosingProxy
    from worker.daemon.retry import Outages
    from worker.db.connect import CONNECTION_ERRORS, create_pool
    from worker.settings import Settings

    admin = await asyncpg.connect(server_url)
    async with SlowClosingProxy.in_front_of(server_url, hold_seconds=3) as proxy:
        pool = await create_pool(Settings(_env_file=None, database_url=proxy.url(db_url)), min_size=1, max_size=1)
        try:
            ended = await pool.fetchval("select pg_backend_pid()")
            await admin.execute("select pg_terminate_backend($1, 5000)", ended)  # waits until it is gone
            await anyio.sleep(0.2)  # its FATAL has reached the pool; the close is still held back
            with pytest.raises(CONNECTION_ERRORS):  # what the daemon retries
                await pool.fetchval("select 1")
            outages = Outages(give_up=anyio.Event())
            with anyio.fail_after(20):
                served_by = await outages.run("a statement", lambda: pool.fetchval("select pg_backend_pid()"))
            assert served_by != ended
            assert outages.ok
        finally:
            pool.terminate()
    await admin.close()
