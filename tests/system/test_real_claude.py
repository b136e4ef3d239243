"""The real Claude Code CLI (pinned 2.1.332) run by the daemon against a scripted stand-in for the
Messages API: a step is logged, the session compacts, and the task is re-injected and finished."""

from __future__ import annotations

import itertools
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from tests.fakes.fake_anthropic import Script, serve
from tests.helpers import run_taak
from tests.system.harness import Daemon, kinds, new_task, status_of, switch_on, worker_env

pytestmark = pytest.mark.slow  # see pyproject.toml: the fast loop is -m "not slow"

VERSION = "2.1.332"
CACHE = Path(os.environ.get("TAAK_CLAUDE_CACHE", Path.home() / ".cache" / "taak-test" / f"claude-code-{VERSION}"))
THREE_TURNS = Path(__file__).resolve().parents[1] / "fakes" / "claude_three_turns.py"
OPDRACHT = 'Zet de foto\'s van de veranda online in album "Zomer".\nNiet de privé-map.'


def claude_binary() -> Path:
    """The pinned CLI from the cache folder outside the clone; installed with npm when missing."""
    binary = CACHE / "node_modules" / ".bin" / "claude"
    if binary.exists():
        return binary
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not available: the real Claude Code CLI cannot be installed here")
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", f"@anthropic-ai/claude-code@{VERSION}"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return binary


async def test_a_compacted_queue_session_gets_its_task_back_and_finishes_it(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    claude = claude_binary()
    assert subprocess.run([str(claude), "--version"], capture_output=True, text=True, check=True).stdout.startswith(
        VERSION
    )
    await switch_on(conn, "paco")
    task_id = await new_task(conn, OPDRACHT, toegewezen_aan="paco", volgende_stap="zoek de map")
    script = Script(
        log_command=f'taak log stap_klaar "map gevonden voor {task_id}"',
        klaar_command='taak klaar --bewijs /srv/foto/zomer "album staat online"',
    )
    home = tmp_path / "home"
    home.mkdir()
    with serve(script) as url:
        env = worker_env(
            db_url,
            tmp_path,
            TAAK_AGENT_CMD=f"{shlex.quote(sys.executable)} {shlex.quote(str(THREE_TURNS))}",
            TAAK_AGENT_ARGS="--allowedTools Bash --model claude-sonnet-4-5",
            TAAK_SILENCE_TIMEOUT_SECONDS="120",
        )
        env.update(
            CLAUDE_BIN=str(claude),
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-test-dummy",
            HOME=str(home),
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}",
        )
        daemon = Daemon(env, tmp_path / "worker.log", "--once")
        try:
            assert daemon.wait(timeout=240) == 0
        finally:
            daemon.stop()
    assert await status_of(conn, task_id) == "klaar", (tmp_path / "worker.log").read_text()[-3000:]
    assert await kinds(conn, task_id) == ["gestart", "stap_klaar", "compact", "compact", "klaar", "notitie"]

    requests = [json.dumps(r, ensure_ascii=False) for r in script.requests]
    summary_requests = [r for r in requests if "Respond with TEXT ONLY" in r]
    assert summary_requests, "no compaction happened"
    # PreCompact steered the summariser: keep the task ID and the opdracht word for word.
    assert f"het taak-ID {task_id}" in summary_requests[-1]
    assert json.dumps(OPDRACHT, ensure_ascii=False)[1:-1] in summary_requests[-1]
    # After the compaction the SessionStart hook put the task back into the conversation itself.
    after = [json.loads(r) for r in requests if "This session is being continued" in r and r not in summary_requests]
    assert after
    injected = [
        b["text"]
        for m in after[0]["messages"]
        if m["role"] == "user" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "text" and "SessionStart hook additional context: === TAAK" in b.get("text", "")
    ]
    assert injected
    assert f"=== TAAK {task_id}" in injected[-1]
    assert "zojuist samengevat" in injected[-1]  # the compact variant, made for exactly this moment
    assert f'"{OPDRACHT}"' in injected[-1]

    report_row = await conn.fetchval(
        "select meta->>'rapport' from agent_taak_log where taak_id = $1 and soort = 'compact' and meta ? 'rapport'",
        task_id,
    )
    report = Path(report_row).read_text()
    assert f"map gevonden voor {task_id}" in report
    assert report.strip()

    # The archive: the real CLI's transcript of the queue session, its lines tagged with the task, once
    # (the daemon's capture of the same session is left alone because the transcript exists).
    assert run_taak(env, "archief", "bijwerken").code == 0
    session = await conn.fetchval("select sessie from agent_taak_log where taak_id = $1 and soort = 'gestart'", task_id)
    assert list((home / ".claude" / "projects").glob(f"*/{session}.jsonl")), "claude -p kept no transcript"
    records = [json.loads(line) for day in (tmp_path / "data" / "archief").glob("*/*.jsonl") for line in day.open()]
    logged = [r for r in records if f"map gevonden voor {task_id}" in r["text"] and r["type"] == "action"]
    assert len(logged) == 1
    assert (logged[0]["session"], logged[0]["taak"], logged[0]["actor"]) == (session, task_id, "paco")
    assert {r.get("taak") for r in records if r["session"] == session} == {task_id}


@pytest.mark.parametrize("how", ["threshold", "prompt_too_long"])
async def test_an_automatic_compaction_inside_one_turn_keeps_the_task_and_finishes_it(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, how: str
) -> None:
    """One `claude -p` turn: a tool call, Claude Code compacts by itself (both ways it does: its window made
    small while the stand-in reports a full context, or the stand-in answering "prompt is too long"), then the
    task is finished after the compaction, through the daemon's socket."""
    claude = claude_binary()
    await switch_on(conn, "paco")
    task_id = await new_task(conn, OPDRACHT, toegewezen_aan="paco", volgende_stap="zoek de map")
    script = Script(
        log_command=f'taak log stap_klaar "map gevonden voor {task_id}"',
        klaar_command=f'taak klaar {task_id} --bewijs /srv/foto/zomer "album staat online"',
        too_long_once=how == "prompt_too_long",
    )
    home = tmp_path / "home"
    home.mkdir()
    with serve(script) as url:
        env = worker_env(
            db_url,
            tmp_path,
            TAAK_AGENT_CMD=str(claude),
            TAAK_AGENT_ARGS="--allowedTools Bash --model claude-sonnet-4-5",
            TAAK_SILENCE_TIMEOUT_SECONDS="120",
        )
        if how == "threshold":
            env["CLAUDE_CODE_AUTO_COMPACT_WINDOW"] = "100000"
        env.update(
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-test-dummy",
            HOME=str(home),
        )
        daemon = Daemon(env, tmp_path / "worker.log", "--once")
        try:
            assert daemon.wait(timeout=240) == 0
        finally:
            daemon.stop()
    assert await status_of(conn, task_id) == "klaar", (tmp_path / "worker.log").read_text()[-3000:]
    assert await kinds(conn, task_id) == ["gestart", "stap_klaar", "compact", "compact", "klaar", "notitie"]
    triggers = await conn.fetch(
        "select meta->>'trigger' as trigger from agent_taak_log where taak_id = $1 and soort = 'compact'", task_id
    )
    assert [r["trigger"] for r in triggers] == ["auto", "auto"]
    requests = [json.dumps(r, ensure_ascii=False) for r in script.requests]
    (summary,) = [r for r in requests if "Respond with TEXT ONLY" in r]
    assert f"het taak-ID {task_id}" in summary
    assert json.dumps(OPDRACHT, ensure_ascii=False)[1:-1] in summary
    continued = [r for r in requests if "This session is being continued" in r and r != summary]
    assert continued
    assert f"=== TAAK {task_id}" in continued[0]
    assert json.dumps(OPDRACHT, ensure_ascii=False)[1:-1] in continued[0]


async def test_three_resumes_and_a_compaction_leave_one_task_block_in_the_context(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    claude = claude_binary()
    await switch_on(conn, "paco")
    task_id = await new_task(conn, OPDRACHT, toegewezen_aan="paco", volgende_stap="zoek de map")
    script = Script(
        log_command=f'taak log stap_klaar "map gevonden voor {task_id}"',
        klaar_command=f'taak klaar {task_id} --bewijs /srv/foto/zomer "album staat online"',
    )
    home = tmp_path / "home"
    home.mkdir()
    installed = run_taak({**os.environ, "HOME": str(home), "TAAK_DATA_DIR": str(tmp_path / "data")}, "hooks", "install")
    assert installed.code == 0, installed.err
    with serve(script) as url:
        env = worker_env(
            db_url,
            tmp_path,
            TAAK_AGENT_CMD=f"{shlex.quote(sys.executable)} {shlex.quote(str(THREE_TURNS))}",
            TAAK_AGENT_ARGS="--allowedTools Bash --model claude-sonnet-4-5",
            TAAK_SILENCE_TIMEOUT_SECONDS="120",
        )
        env.update(
            CLAUDE_BIN=str(claude),
            CLAUDE_TURNS=json.dumps(["ga verder", "nog even", "en door", "/compact", "rond af"]),
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-test-dummy",
            HOME=str(home),
        )
        daemon = Daemon(env, tmp_path / "worker.log", "--once")
        try:
            assert daemon.wait(timeout=300) == 0
        finally:
            daemon.stop()
    requests = [json.dumps(r, ensure_ascii=False) for r in script.requests if r.get("tools")]
    blocks = [r.count(f"=== TAAK {task_id}") for r in requests]
    # Before the compaction the briefing (the first prompt) is the one block; three resumes add none.
    before = [n for r, n in zip(requests, blocks, strict=True) if "This session is being continued" not in r]
    after = [n for r, n in zip(requests, blocks, strict=True) if "This session is being continued" in r]
    assert len(before) >= 4
    assert set(before) == {1}
    assert after
    assert set(after) == {1}  # the summary replaced the history; the hook put one block back
    assert await status_of(conn, task_id) == "klaar"
    # The hooks are installed globally too (taak hooks install), yet each turn got one "where are we" line.
    where = [r.count(f"Taak {task_id} (") for r in requests if "This session is being continued" not in r]
    print("where-are-we lines per request:", where)
    assert all(later - earlier in (0, 1) for earlier, later in itertools.pairwise(where))
    assert where[-1] == 4  # the daemon's turn and three resumes, one line each


async def test_a_session_the_agent_resumes_without_the_daemons_settings_still_gets_its_hooks(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path
) -> None:
    """The agent resumes its own session with `claude --resume` and no `--settings`: the hooks in ~/.claude stood
    down because TAAK_SOCKET was set, though the daemon's copies were not loaded, and the resumed turns had no
    "where are we" line, no report and no task block after their compaction. Now they do the daemon's work."""
    claude = claude_binary()
    await switch_on(conn, "paco")
    task_id = await new_task(conn, OPDRACHT, toegewezen_aan="paco", volgende_stap="zoek de map")
    script = Script(
        log_command=f'taak log stap_klaar "map gevonden voor {task_id}"',
        klaar_command=f'taak klaar {task_id} --bewijs /srv/foto/zomer "album staat online"',
    )
    home = tmp_path / "home"
    home.mkdir()
    installed = run_taak({**os.environ, "HOME": str(home), "TAAK_DATA_DIR": str(tmp_path / "data")}, "hooks", "install")
    assert installed.code == 0, installed.err
    with serve(script) as url:
        env = worker_env(
            db_url,
            tmp_path,
            TAAK_AGENT_CMD=f"{shlex.quote(sys.executable)} {shlex.quote(str(THREE_TURNS))}",
            TAAK_AGENT_ARGS="--allowedTools Bash --model claude-sonnet-4-5",
            TAAK_SILENCE_TIMEOUT_SECONDS="120",
        )
        env.update(
            CLAUDE_BIN=str(claude),
            CLAUDE_TURNS=json.dumps(["ga verder", "nog even", "/compact", "rond af"]),
            CLAUDE_RESUME_BARE="1",
            ANTHROPIC_BASE_URL=url,
            ANTHROPIC_API_KEY="sk-ant-test-dummy",
            HOME=str(home),
        )
        daemon = Daemon(env, tmp_path / "worker.log", "--once")
        try:
            assert daemon.wait(timeout=300) == 0
        finally:
            daemon.stop()
    assert await status_of(conn, task_id) == "klaar", (tmp_path / "worker.log").read_text()[-3000:]
    requests = [json.dumps(r, ensure_ascii=False) for r in script.requests if r.get("tools")]
    before = [r for r in requests if "This session is being continued" not in r]
    after = [r for r in requests if "This session is being continued" in r]
    # One "where are we" line per turn: the daemon's copy in its own turn, the installed copy in each resume.
    assert before[-1].count(f"Taak {task_id} (") == 3
    assert after
    assert all(r.count(f"=== TAAK {task_id}") == 1 for r in after)  # the installed copy put the task back
    assert "compact" in await kinds(conn, task_id)  # and the report before it was logged


async def test_a_compaction_while_the_database_is_down_is_steered_and_nothing_is_lost(tmp_path: Path) -> None:
    """The real CLI compacts by itself while the task database is stopped: the summary is steered from the
    session's own files, the task comes back from the daemon's copy, and every row lands once it is back."""
    import anyio

    from tests.conftest import with_database
    from tests.system.test_session_gate import start, stop
    from worker.db.embedded import ensure_embedded, stop_embedded
    from worker.db.migrate import migrate

    claude = claude_binary()
    server = tmp_path / "pg"
    url = await anyio.to_thread.run_sync(ensure_embedded, server)
    try:
        admin = await asyncpg.connect(with_database(url, "postgres"))
        await admin.execute("create database uitval")
        await admin.close()
        db_url = with_database(url, "uitval")
        conn = await asyncpg.connect(db_url)
        await migrate(conn)
        await switch_on(conn, "paco")
        task_id = await new_task(conn, OPDRACHT, toegewezen_aan="paco", volgende_stap="zoek de map")
        await conn.close()
        script = Script(
            # The tool call lasts long enough for the test to stop the database before the compaction.
            log_command=f'taak log stap_klaar "map gevonden voor {task_id}" && sleep 4',
            klaar_command=f'taak klaar {task_id} --bewijs /srv/foto/zomer "album staat online"',
        )
        home = tmp_path / "home"
        home.mkdir()
        with serve(script) as api:
            env = worker_env(
                db_url,
                tmp_path,
                TAAK_AGENT_CMD=str(claude),
                TAAK_AGENT_ARGS="--allowedTools Bash --model claude-sonnet-4-5",
                TAAK_SILENCE_TIMEOUT_SECONDS="120",
            )
            env.update(
                CLAUDE_CODE_AUTO_COMPACT_WINDOW="100000",
                ANTHROPIC_BASE_URL=api,
                ANTHROPIC_API_KEY="sk-ant-test-dummy",
                HOME=str(home),
            )
            daemon = Daemon(env, tmp_path / "worker.log", "--once")
            try:
                conn = await asyncpg.connect(db_url)
                for _ in range(300):
                    if "stap_klaar" in await kinds(conn, task_id):
                        break
                    await anyio.sleep(0.1)
                await conn.close()
                await stop(server)
                for _ in range(600):  # the session finishes its turn while the database is away
                    if daemon.has_event("session_end"):
                        break
                    await anyio.sleep(0.1)
                assert daemon.has_event("session_end")
                await start(server)
                assert daemon.wait(timeout=120) == 0
            finally:
                daemon.stop()
        conn = await asyncpg.connect(db_url)
        assert await status_of(conn, task_id) == "klaar", (tmp_path / "worker.log").read_text()[-3000:]
        assert await kinds(conn, task_id) == ["gestart", "stap_klaar", "compact", "compact", "klaar", "notitie"]
        await conn.close()
        requests = [json.dumps(r, ensure_ascii=False) for r in script.requests]
        (summary,) = [r for r in requests if "Respond with TEXT ONLY" in r]
        assert f"het taak-ID {task_id}" in summary
        assert json.dumps(OPDRACHT, ensure_ascii=False)[1:-1] in summary
        continued = [r for r in requests if "This session is being continued" in r and r != summary]
        assert f"=== TAAK {task_id}" in continued[0]
        assert "database niet bereikbaar" in continued[0]
    finally:
        await anyio.to_thread.run_sync(stop_embedded, server)
