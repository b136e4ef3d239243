"""A queue session talks to its daemon, never to the database: no credentials, nothing lost in an outage,
nothing re-run after one. Real processes; the outages stop a Postgres server the test started itself."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import asyncpg
import pytest

from tests.conftest import with_database
from tests.helpers import ledger_on, outside, send_raw, session_env, session_run
from tests.system.harness import Daemon, new_task, records, switch_on, wait_for, worker_env
from worker.core.dsn import parse_database_url
from worker.core.row_phrases import said_row
from worker.db.embedded import ensure_embedded, stop_embedded
from worker.db.migrate import migrate


@asynccontextmanager
async def _busy_session(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, opdracht: str = "Schrijf de blog", **settings: str
) -> AsyncIterator[tuple[str, Daemon, dict[str, str]]]:
    """A daemon running one busy session of a new task for paco: the task, the daemon, the session's own
    environment (what its `taak` and its hooks get); the daemon is stopped on the way out."""
    await switch_on(conn, "paco")
    task_id = await new_task(conn, opdracht, toegewezen_aan="paco")
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy", **settings), tmp_path / "worker.log")
    try:
        (record,) = await wait_for(lambda: _records(tmp_path, 1), what="the session")
        yield task_id, daemon, session_env(record)
    finally:
        daemon.stop()


@pytest.mark.slow
async def test_the_agent_holds_no_database_url_or_password_and_its_socket_is_the_users_alone(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    secret = "geheim-wachtwoord-" + os.urandom(4).hex()  # trust auth here: any password is accepted
    with_password = db_url.replace("postgres@", f"postgres:{secret}@", 1)
    await switch_on(conn, "paco")
    await new_task(conn, toegewezen_aan="paco")
    env = worker_env(with_password, tmp_path, mode="busy", PGPASSWORD=secret)
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        (record,) = await wait_for(lambda: _records(tmp_path, 1), what="the session")
        environ = Path(f"/proc/{record['pid']}/environ").read_bytes() if sys.platform == "linux" else b""
        socket_path = Path(record["env"]["TAAK_SOCKET"])
        socket_mode = socket_path.stat().st_mode & 0o777
        folder_mode = socket_path.parent.stat().st_mode & 0o777
    finally:
        daemon.stop()
    seen = environ.decode(errors="replace") + json.dumps(record["env"])
    assert secret not in seen
    assert "postgresql://" not in seen
    assert not [k for k in record["env"] if k.startswith("PG") or k.endswith("DATABASE_URL")]
    assert (socket_mode, folder_mode) == (0o600, 0o700)


@pytest.fixture
async def private_server(tmp_path: Path) -> AsyncIterator[tuple[str, Path]]:
    """A migrated database on a Postgres server of this test's own, which the test may stop and start."""
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)
    admin = await asyncpg.connect(with_database(url, "postgres"))
    await admin.execute("create database gate")
    await admin.close()
    db_url = with_database(url, "gate")
    conn = await asyncpg.connect(db_url)
    await migrate(conn)
    await switch_on(conn, "paco")
    await conn.close()
    try:
        yield db_url, server
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)


async def stop(server: Path) -> None:
    await anyio.to_thread.run_sync(stop_embedded, server)


async def start(server: Path) -> None:
    # From another process, as an operator would (pgserver caches its handle per process).
    code = (
        "from pathlib import Path; from worker.db.embedded import ensure_embedded; "
        f"ensure_embedded(Path({str(server)!r}))"
    )
    await anyio.run_process([sys.executable, "-c", code])


@pytest.mark.slow
async def test_every_step_line_said_through_a_30_second_outage_is_written_once_in_order(
    private_server: tuple[str, Path], tmp_path: Path
) -> None:
    db_url, server = private_server
    steps = 50
    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, toegewezen_aan="paco")
    await conn.close()
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS=f"--fake-mode steps --fake-steps {steps}", TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _steps_said(tmp_path, 5), timeout=60, what="five steps")
        await stop(server)
        down_at = _steps_said_now(tmp_path)
        await anyio.sleep(30)
        up_at = _steps_said_now(tmp_path)
        await start(server)
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _status(conn, task_id, "klaar"), timeout=90, what="klaar")
        texts = [
            r["tekst"]
            for r in await conn.fetch(
                "select tekst from agent_taak_log where taak_id = $1 and soort = 'stap_klaar' order by id", task_id
            )
        ]
        await conn.close()
    finally:
        daemon.stop()
    timings = _timings(tmp_path)
    during = timings[down_at:up_at]
    print(f"taak log during the outage: {len(during)} calls, slowest {max(during):.3f} s")
    assert up_at - down_at >= 20  # the session went on talking while the database was away
    assert texts == [f"stap {n}" for n in range(1, steps + 1)]
    assert max(during) < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("outage", ["restart", "refused"])
async def test_an_outage_longer_than_the_lease_re_runs_nothing(
    private_server: tuple[str, Path], tmp_path: Path, outage: str
) -> None:
    """`refused`: the server stays up and the database refuses connections (a restore, `ALLOW_CONNECTIONS
    false`), as a network that is away looks: the server's start time says nothing of it. Which daemon gets
    back first is up to their backoff, so this one passed before the reaper's grace after an outage too;
    `test_a_reaper_back_from_an_outage_leaves_the_other_daemons_their_grace_first` holds that grace itself."""
    db_url, server = private_server
    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, toegewezen_aan="paco")
    await conn.close()
    # A lease of 15 s: the session's eight seconds end well inside it on a busy machine too (with 10 s a session
    # slowed by tests running beside it was still running when its lease had to be given up, and ran again).
    quick = {"TAAK_LEASE_SECONDS": "15", "TAAK_LEASE_EXTEND_SECONDS": "1", "TAAK_POLL_SECONDS": "1"}
    runner = Daemon(
        # Eight steps, a second each: the session ends during the outage, its `klaar` kept in the journal.
        worker_env(db_url, tmp_path / "a", TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 8", **quick),
        tmp_path / "a.log",
    )
    # A second daemon on another machine, for another bot: it never claims paco's task, but its reaper
    # would take the expired lease if it could.
    other = Daemon(
        worker_env(db_url, tmp_path / "b", TAAK_MACHINE="mac-b", TAAK_BOTS="sjakie", **quick), tmp_path / "b.log"
    )
    try:
        await wait_for(lambda: _steps_said(tmp_path / "a", 3), timeout=60, what="three steps")
        if outage == "restart":
            await stop(server)
            await anyio.sleep(20)  # longer than the 15 s lease
            await start(server)
        else:
            await _refusing(db_url, True)
            await anyio.sleep(20)
            await _refusing(db_url, False)
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _status(conn, task_id, "klaar"), timeout=90, what="klaar")
        kinds = [r["soort"] for r in await conn.fetch("select soort from agent_taak_log where taak_id = $1", task_id)]
        await conn.close()
    finally:
        runner.stop()
        other.stop()
    assert kinds.count("gestart") == 1
    assert "verlopen" not in kinds
    assert kinds.count("klaar") == 1
    assert len(records(tmp_path / "a")) + len(records(tmp_path / "b")) == 1


@pytest.mark.slow
async def test_a_daemon_started_while_the_database_is_down_waits_and_then_works(
    private_server: tuple[str, Path], tmp_path: Path
) -> None:
    db_url, server = private_server
    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, toegewezen_aan="paco")
    await conn.close()
    await stop(server)
    daemon = Daemon(worker_env(db_url, tmp_path, mode="klaar", TAAK_POLL_SECONDS="1"), tmp_path / "worker.log")
    try:
        await wait_for(lambda: _event(daemon, "database_unreachable"), timeout=30, what="the daemon to say so")
        await anyio.sleep(3)
        assert daemon.process.poll() is None  # still waiting, not exited
        await start(server)
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _status(conn, task_id, "klaar"), timeout=60, what="klaar once the database is up")
        await conn.close()
    finally:
        daemon.stop()
    names = [e.get("event") for e in daemon.events()]
    assert names.count("database_unreachable") == 1
    assert "worker_started" in names


async def _refusing(db_url: str, refuse: bool) -> None:
    name = parse_database_url(db_url).database
    admin = await asyncpg.connect(with_database(db_url, "postgres"))
    try:
        await admin.execute(f'alter database "{name}" allow_connections {"false" if refuse else "true"}')
        if refuse:
            await admin.execute("select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = $1", name)
    finally:
        await admin.close()


async def _records(folder: Path, count: int) -> list[dict[str, object]] | None:
    found = records(folder)
    return found if len(found) >= count else None


def _timings(folder: Path) -> list[float]:
    return [float(x) for p in (folder / "records").glob("*.steps") for x in p.read_text().split()]


def _steps_said_now(folder: Path) -> int:
    return len(_timings(folder))


async def _steps_said(folder: Path, count: int) -> bool:
    return _steps_said_now(folder) >= count


async def _status(conn: asyncpg.Connection, task_id: str, status: str) -> bool:
    return bool(await conn.fetchval("select status = $2 from agent_taken where id = $1", task_id, status))


async def _event(daemon: Daemon, name: str) -> bool:
    return daemon.has_event(name)


@pytest.mark.slow
async def test_the_hooks_of_a_queue_session_ask_its_daemon_and_their_rows_land(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    import subprocess

    from tests.fixtures import FIXTURES

    opdracht = 'Zet de foto\'s van de veranda online, "album Zomer"'
    async with _busy_session(db_url, conn, tmp_path, opdracht) as (task_id, _daemon, env):
        # env: exactly what the session's hooks get, no database URL
        transcript = tmp_path / "t.jsonl"
        transcript.write_bytes((FIXTURES / "agentlogs__compact.jsonl").read_bytes())

        def hook(name: str, payload: dict[str, object], *flags: str) -> subprocess.CompletedProcess[str]:
            command = [sys.executable, "-m", "worker.cli.taak", "hook", name, *flags]
            return session_run(command, env=env, input=json.dumps(payload))

        started = hook("session-start", {"source": "compact", "session_id": "s"}, "--queue")
        # Where the daemon's copies run, the copies installed in ~/.claude stand down: each event is answered once.
        installed = [hook(n, {"source": "compact"}).stdout for n in ("session-start", "prompt", "pre-compact")]
        payload = {"trigger": "auto", "transcript_path": str(transcript), "session_id": "s"}
        steered = hook("pre-compact", payload, "--queue")
        summary = {"trigger": "manual", "compact_summary": "<analysis>x</analysis>Samenvatting"}
        summed = hook("post-compact", summary, "--queue")
        rows = await conn.fetch(
            "select tekst, meta from agent_taak_log where taak_id = $1 and soort = 'compact' order by id", task_id
        )
    # With nobody to ask (the daemon gone, so no database either), the summariser is still steered.
    env = outside(env)
    with transcript.open("a") as more:
        more.write((FIXTURES / "agentlogs__crud.jsonl").read_text())
    began = time.monotonic()
    alone = hook("pre-compact", {"trigger": "auto", "transcript_path": str(transcript)}, "--queue")
    print(f"pre-compact with nobody to ask: {time.monotonic() - began:.2f} s")
    assert alone.returncode == 0
    assert opdracht in alone.stdout
    assert task_id in alone.stdout
    copy = hook("session-start", {"source": "compact", "session_id": "s"}, "--queue")
    context_alone = json.loads(copy.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context_alone.startswith("(de daemon antwoordt niet: dit is zijn laatste kopie van de briefing, ")
    assert opdracht in context_alone
    gone = f"de daemon antwoordt niet op {env['TAAK_SOCKET']} (het socket bestaat niet: draait de daemon nog?)"
    assert copy.stderr == f"taak hook session-start: {gone}; de laatste briefing van de daemon gebruikt\n"
    unsaved = hook("post-compact", summary, "--queue")
    assert unsaved.stderr == f"taak hook post-compact: {gone}\n"  # the words `taak log` says it with
    context = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert task_id in context
    assert opdracht in context
    assert (started.returncode, steered.returncode, summed.returncode) == (0, 0, 0), steered.stderr
    assert opdracht in steered.stdout
    assert task_id in steered.stdout
    assert installed == ["", "", ""]
    metas = [json.loads(r["meta"]) for r in rows]
    assert [m.keys() & {"rapport", "samenvatting"} for m in metas] == [{"rapport"}, {"samenvatting"}]
    assert [m["trigger"] for m in metas] == ["auto", "manual"]
    assert rows[1]["tekst"] == "Samenvatting"
    report_lines = len(Path(metas[0]["rapport"]).read_text().splitlines())
    assert f"({report_lines} regels, " in rows[0]["tekst"]


@pytest.mark.slow
async def test_a_klaar_text_that_shows_nothing_is_stored_empty_through_the_daemon(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    from tests.helpers import run_taak

    async with _busy_session(db_url, conn, tmp_path) as (task_id, _daemon, env):
        done = run_taak(env, "klaar", "--bewijs", "/tmp/x", "\u200b\ufeff")
        row = await wait_for(
            lambda: conn.fetchrow("select tekst from agent_taak_log where taak_id = $1 and soort = 'klaar'", task_id),
            what="the klaar row",
        )
    assert done.code == 0, done.err
    assert row["tekst"] == ""


@pytest.mark.slow
async def test_nothing_a_client_sends_on_the_socket_ends_the_daemon(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    async with _busy_session(db_url, conn, tmp_path) as (task_id, daemon, env):
        own = {"id": task_id, "token": env["TAAK_TOKEN"], "taal": "nl"}
        kept = {"op": "log", "id": task_id, "token": env["TAAK_TOKEN"], "soort": "notitie", "tekst": "en weg"}
        nested, garbage, evidence, kind, _, _ = send_raw(
            env,
            [
                (b'{"a":' + b"[" * 2000 + b"]" * 2000 + b"}\n", True),
                (b"\x00\xff niet json\n", True),
                (json.dumps({**own, "op": "klaar", "bewijs": {"a": 1}}).encode() + b"\n", True),
                (json.dumps({**own, "op": "log", "soort": ["x"], "tekst": "t"}).encode() + b"\n", True),
                (b"", False),  # hangs up at once
                (json.dumps(kept).encode() + b"\n", False),  # hangs up before the answer
            ],
        )
        await anyio.sleep(1)
        alive = daemon.process.poll() is None
        after = session_run([sys.executable, "-m", "worker.cli.taak", "log", "stap_klaar", "nog steeds"], env=env)
        hostile = "Hoi \x1b]0;gekaapt\x07\x1b[2J wereld\u202eomgekeerd"
        session_says = [sys.executable, "-m", "worker.cli.taak"]
        assert session_run([*session_says, "log", "notitie", hostile], env=env).returncode == 0
        toon = session_run([*session_says, "toon"], env=env)
        piped = session_run(["bash", "-c", f"{sys.executable} -m worker.cli.taak toon --json | head -c 10"], env=env)
        # What the daemon kept reaches the database through its journal: read once it is there.
        texts = await wait_for(lambda: _texts_with(conn, task_id, {"en weg", "nog steeds"}), what="the kept rows")
    assert "gekaapt" in toon.stdout
    assert [ch for ch in ("\x1b", "\x07", "\u202e") if ch in toon.stdout] == []  # escaped, as on the owner's side
    assert "Traceback" not in piped.stderr  # a reader that stops early ends it quietly
    assert json.loads(nested)["code"] == 2
    assert json.loads(garbage)["code"] == 2
    assert json.loads(garbage)["err"].startswith("onleesbaar verzoek aan de daemon (")  # the daemon's language
    # A value that is no text is refused as such, never stored or quoted as its Python form.
    assert (json.loads(evidence)["code"], json.loads(evidence)["err"]) == (2, "bewijs moet tekst zijn")
    assert (json.loads(kind)["code"], json.loads(kind)["err"]) == (2, "soort moet tekst zijn")
    assert alive
    assert after.returncode == 0, after.stderr
    assert after.stdout == f"{task_id}: stap_klaar gelogd\n"  # through the daemon, the same success line
    assert {"en weg", "nog steeds"} <= set(texts)


async def _texts_with(conn: asyncpg.Connection, task_id: str, wanted: set[str]) -> list[str] | None:
    texts = [r["tekst"] for r in await conn.fetch("select tekst from agent_taak_log where taak_id = $1", task_id)]
    return texts if wanted <= set(texts) else None


@pytest.mark.slow
async def test_with_the_database_down_a_compaction_gets_the_latest_steps_from_the_daemon(
    private_server: tuple[str, Path], tmp_path: Path
) -> None:

    db_url, server = private_server
    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, "Zet de foto's online", toegewezen_aan="paco")
    await conn.close()
    env = worker_env(db_url, tmp_path, TAAK_AGENT_ARGS="--fake-mode steps --fake-steps 30", TAAK_POLL_SECONDS="1")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _steps_said(tmp_path, 4), timeout=60, what="four steps")
        await stop(server)
        await wait_for(lambda: _steps_said(tmp_path, 7), timeout=30, what="steps during the outage")
        (record,) = records(tmp_path)
        began = time.monotonic()
        started = session_run(
            [sys.executable, "-m", "worker.cli.taak", "hook", "session-start", "--queue"],
            env=session_env(record),
            input=json.dumps({"source": "compact", "session_id": "s"}),
        )
        print(f"session-start(compact) with the database down: {time.monotonic() - began:.2f} s")
        shown = session_run([sys.executable, "-m", "worker.cli.taak", "toon"], env=session_env(record))
        await start(server)
    finally:
        daemon.stop()
    assert shown.returncode == 4, shown.stderr  # unreachable, as everywhere else: not a refusal
    assert len(shown.stderr.splitlines()) == 1
    context = json.loads(started.stdout)["hookSpecificOutput"]["additionalContext"]
    assert task_id in context
    assert "database niet bereikbaar" in context
    assert "stap 4" in context  # written before the outage: in the copy the daemon refreshed
    assert "stap 7" in context  # said during the outage: from the journal


@pytest.mark.slow
async def test_pre_compact_steers_the_summary_whatever_transcript_or_input_it_is_given(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    import subprocess

    opdracht = "Maak de jaarrekening van de vereniging af"
    async with _busy_session(db_url, conn, tmp_path, opdracht) as (task_id, _daemon, env):
        env = {**env, "TAAK_LANGUAGE": "nl"}

        def pre_compact(given: str) -> subprocess.CompletedProcess[str]:
            command = [sys.executable, "-m", "worker.cli.taak", "hook", "pre-compact", "--queue"]
            return session_run(command, env=env, input=given)

        given = {
            "gone": json.dumps({"trigger": "auto", "transcript_path": str(tmp_path / "weg.jsonl")}),
            "a folder": json.dumps({"trigger": "auto", "transcript_path": str(tmp_path)}),
            "no JSON": "dit is geen json",
        }
        answers = {why: pre_compact(text) for why, text in given.items()}
    for why, answer in answers.items():
        assert answer.returncode == 0, (why, answer.stderr)
        assert opdracht in answer.stdout, why  # the summariser is told what to keep, first
        assert task_id in answer.stdout, why
        (line,) = answer.stderr.splitlines()
        assert "Error" not in line, (why, line)  # no Python class names: the file's or the input's trouble in words
    assert "bestaat niet" in answers["gone"].stderr
    assert "is een map" in answers["a folder"].stderr
    assert "geen JSON" in answers["no JSON"].stderr


@pytest.mark.slow
async def test_a_write_the_database_refuses_is_said_in_the_sessions_language(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """In an English run the session heard `HV-... is wachtend, niet bezig` and the daemon logged it so: the
    refusal was rendered once, in the ledger's Dutch, for the journal."""
    from tests.helpers import run_taak

    async with _busy_session(db_url, conn, tmp_path, TAAK_LANGUAGE="en") as (task_id, daemon, env):
        await ledger_on(conn).terugnemen(task_id, "hangt", wie="jamal", wait_seconds=600)
        refused = run_taak(env, "log", "stap_klaar", "nog een stap")
        await wait_for(lambda: _said(daemon, "journal_write_refused"), timeout=30, what="the refusal logged")
    assert refused.code == 1
    assert refused.err == f"taak: {task_id} is wachtend, not bezig\n"
    (logged,) = [e for e in daemon.events() if e.get("event") == "journal_write_refused"]
    assert logged["reason"] == f"{task_id} is wachtend, not bezig"
    assert logged["level"] == "warning"  # the owner's taking back is routine, no error of the daemon's (tester M)


@pytest.mark.slow
async def test_two_sessions_writing_at_once_each_have_their_rows_once_in_the_order_they_said_them(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """The forwarder writes the tasks side by side (issue 42): a task's own writes still go one after another."""
    await switch_on(conn, "paco")
    tasks = [await new_task(conn, f"Schrijf {n}", toegewezen_aan="paco") for n in range(2)]
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy", TAAK_CONCURRENCY="2"), tmp_path / "worker.log")
    try:
        envs = [session_env(record) for record in await wait_for(lambda: _records(tmp_path, 2), what="two sessions")]
        answers: list[bytes] = []

        async def write(env: dict[str, str]) -> None:
            said = {"op": "log", "id": env["TAAK_ID"], "token": env["TAAK_TOKEN"], "soort": "notitie"}
            sends = [(json.dumps({**said, "tekst": str(n)}).encode() + b"\n", True) for n in range(30)]
            answers.extend(await anyio.to_thread.run_sync(send_raw, env, sends))

        async with anyio.create_task_group() as group:
            for env in envs:
                group.start_soon(write, env)
        rows = {
            task_id: await wait_for(lambda task_id=task_id: _notes(conn, task_id, 30), what="the rows")
            for task_id in tasks
        }
    finally:
        daemon.stop()
    assert [json.loads(answer)["code"] for answer in answers] == [0] * 60
    assert rows == {task_id: [str(n) for n in range(30)] for task_id in tasks}


async def _notes(conn: asyncpg.Connection, task_id: str, count: int) -> list[str] | None:
    found = await conn.fetch(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'notitie' order by id", task_id
    )
    return [r["tekst"] for r in found] if len(found) >= count else None


@pytest.mark.slow
async def test_a_briefing_read_while_the_journal_still_holds_lines_shows_them_and_the_latest_step(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """Just after an outage the database answered reads while the journal still held the session's steps: for
    seconds `taak brief` said the steps and the first action of before the outage, with no word of the rest
    (tester 23). Here the log table is locked so that the writes wait as they do then, and reads still work."""
    from tests.helpers import run_taak

    async with _busy_session(db_url, conn, tmp_path) as (task_id, _daemon, env):
        locker = await asyncpg.connect(db_url)
        try:
            transaction = locker.transaction()
            await transaction.start()
            await locker.execute("lock table agent_taak_log in exclusive mode")  # writes wait, reads go on
            assert "journaal" in run_taak(env, "log", "stap_klaar", "lamp gekocht").out
            assert "journaal" in run_taak(env, "stap", "de fitting vervangen").out
            briefed = run_taak(env, "brief")
            await transaction.rollback()
        finally:
            await locker.close()
        await wait_for(
            lambda: conn.fetchval(
                "select volgende_stap = 'de fitting vervangen' from agent_taken where id = $1", task_id
            ),
            what="the journal written",
        )
        after = run_taak(env, "brief").out.splitlines()
    lines = briefed.out.splitlines()
    assert briefed.code == 0
    assert lines[0] == "(het journaal van de daemon houdt nog 2 regels die de database nog niet heeft, hier)"
    assert lines[1].endswith(" stap klaar, lamp gekocht")
    assert lines[2].endswith(" notitie, volgende stap: de fitting vervangen")
    assert lines[-1].endswith("Jouw eerste actie nu: de fitting vervangen")
    assert not after[0].startswith("(het journaal")  # written: the database's own briefing again
    assert after[-1].endswith("Jouw eerste actie nu: de fitting vervangen")


async def _said(daemon: Daemon, event: str) -> bool:
    return daemon.has_event(event)


@pytest.mark.slow
@pytest.mark.parametrize("length", [150_000, 5_000_000])
async def test_a_summary_longer_than_a_log_row_is_counted_with_its_start_and_where_the_whole_is(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, length: int
) -> None:
    """150,000 characters: the row was refused (at most 100,000), so the compaction went uncounted; 5 MB: over
    the socket's limit, and said as "the daemon does not answer"."""

    summary = ("De veranda: het budget is 4000 euro. " * (length // 37 + 1))[:length]
    async with _busy_session(db_url, conn, tmp_path) as (task_id, _daemon, env):
        command = [sys.executable, "-m", "worker.cli.taak", "hook", "post-compact", "--queue"]
        payload = json.dumps({"trigger": "auto", "compact_summary": summary, "session_id": "s"})
        done = session_run(command, env=env, input=payload)
        row = await conn.fetchrow(
            "select tekst, meta from agent_taak_log where taak_id = $1 and soort = 'compact'", task_id
        )
    assert (done.returncode, done.stderr) == (0, "")
    assert row is not None
    kept = Path(json.loads(row["meta"])["samenvatting"])
    assert kept.read_text(encoding="utf-8") == summary.strip() + "\n"
    assert row["tekst"].startswith("De veranda: het budget is 4000 euro.")
    assert row["tekst"].endswith(f"\n[…] (de hele samenvatting: {kept})")
    assert 100_000 - 1 <= len(row["tekst"]) <= 100_000  # one less when the cut falls on a space, which goes
    english = said_row(row["tekst"], json.loads(row["meta"]), "en")  # the ending is the system's: said anew
    assert english.endswith(f"\n[…] (the whole summary: {kept})")


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "nl"])
async def test_a_session_giving_back_its_last_attempt_is_told_the_task_failed(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, language: str
) -> None:
    """It was told "given back to the queue" while the ledger had failed the task: an agent counts on a retry
    that never comes (tester 20)."""
    from tests.helpers import run_taak
    from worker.core.catalogue import message

    await switch_on(conn, "paco")
    task_id = await new_task(conn, toegewezen_aan="paco", max_pogingen=1)
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy"), tmp_path / "worker.log")
    try:
        (record,) = await wait_for(lambda: _records(tmp_path, 1), what="the session")
        given = run_taak({**session_env(record), "TAAK_LANGUAGE": language}, "vrijgeven", "--reden", "geen toegang")
    finally:
        daemon.stop()
    assert (given.code, given.out) == (0, message("released_failed", language, id=task_id) + "\n"), given.err
    assert await conn.fetchval("select status from agent_taken where id = $1", task_id) == "mislukt"


@pytest.mark.slow
async def test_a_sessions_result_row_survives_a_kill_9_of_its_daemon_during_an_outage(
    private_server: tuple[str, Path], tmp_path: Path
) -> None:
    """The session finished (`taak klaar`, then its result line with turns and cost) while the database was away;
    the daemon held the result row in memory until the database came back, and a `kill -9` then lost it, and
    with it the session's cost for the brake and `taak overzicht` (tester 21)."""
    import signal

    db_url, server = private_server
    conn = await asyncpg.connect(db_url)
    task_id = await new_task(conn, toegewezen_aan="paco")
    await conn.close()
    go = tmp_path / "ga"
    run = f"while [ ! -e {go} ]; do sleep 0.1; done; taak klaar --bewijs /tmp/x 'af tijdens de storing'"
    env = worker_env(db_url, tmp_path, mode="run", FAKE_RUN=run)
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        await wait_for(lambda: _records(tmp_path, 1), timeout=60, what="the session")
        await stop(server)
        go.touch()
        await wait_for(lambda: _said(daemon, "session_end"), timeout=60, what="the session's end")
        await anyio.sleep(1)  # the daemon now waits for the database with the session's ending
        daemon.signal(signal.SIGKILL)
        daemon.wait()
    finally:
        daemon.stop()
    await start(server)
    again = Daemon(env, tmp_path / "worker-again.log")
    try:
        conn = await asyncpg.connect(db_url)
        await wait_for(lambda: _status(conn, task_id, "klaar"), timeout=60, what="klaar")
        await wait_for(lambda: _said(again, "worker_started"), timeout=60, what="the restart")
        results = await conn.fetch("select meta from agent_taak_log where taak_id = $1 and meta ? 'resultaat'", task_id)
        await conn.close()
    finally:
        again.stop()
    assert len(results) == 1, results
    assert json.loads(results[0]["meta"])["subtype"] == "success"


@pytest.mark.slow
async def test_the_daemons_copy_shows_what_waits_in_the_journal_as_the_briefings_own_lines(
    private_server: tuple[str, Path], tmp_path: Path
) -> None:
    """During an outage the copy listed `05:36 log stap_klaar ...` and `05:36 stap ...`, the journal's
    operations, under a note with seconds and `(0 min old)` (tester 21)."""
    import re

    from tests.helpers import run_taak

    db_url, server = private_server
    conn = await asyncpg.connect(db_url)
    await new_task(conn, toegewezen_aan="paco")
    await conn.close()
    daemon = Daemon(worker_env(db_url, tmp_path, mode="busy"), tmp_path / "worker.log")
    try:
        (record,) = await wait_for(lambda: _records(tmp_path, 1), timeout=60, what="the session")
        session = {**session_env(record), "TAAK_LANGUAGE": "en"}
        await stop(server)
        assert run_taak(session, "log", "stap_klaar", "lamp gekocht").code == 0
        assert run_taak(session, "stap", "de fitting vervangen").code == 0
        briefed = run_taak(session, "brief").out.splitlines()
    finally:
        daemon.stop()
    assert briefed[0].startswith("(database unreachable: this is the daemon's copy of"), briefed[0]
    assert re.search(r"from \d\d:\d\d \(\d+(\.\d)?s old\)", briefed[0]), briefed[0]
    assert re.fullmatch(r"\d\d:\d\d stap klaar, lamp gekocht", briefed[1]), briefed[1]
    assert re.fullmatch(r"\d\d:\d\d notitie, next step: de fitting vervangen", briefed[2]), briefed[2]
    # The step set during the outage is the first action, not the one the copy was made with (the copy is in
    # the daemon's language, Dutch here, where the session asked in English).
    assert briefed[-1].endswith(". Jouw eerste actie nu: de fitting vervangen"), briefed[-1]
    assert "Jouw eerste actie nu: de fitting vervangen" in briefed[:-1]
