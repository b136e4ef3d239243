"""The hook handlers as Claude Code runs them: a process, the hook JSON on stdin, real files and database."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from tests.fixtures import FIXTURES
from tests.helpers import Result, ledger_on, run_taak
from worker.core.model import Soort
from worker.core.transcript import parse_lines, render
from worker.db.ledger import NewTask

OPDRACHT = 'Zet de foto\'s van de veranda online, in album "Zomer".\nLet op: niet de privé-map.'


@pytest.fixture
async def session_env(cli_env: dict[str, str], pool: asyncpg.Pool, tmp_path: Path) -> dict[str, str]:
    """The environment of a queue session: a claimed task, its token, its briefing files."""
    ledger = ledger_on(pool)
    task_id = await ledger.nieuw(NewTask(OPDRACHT, "jamal", toegewezen_aan="paco", volgende_stap="zoek de map"))
    claim = await ledger.claim(["paco"])
    assert claim is not None
    await ledger.log(task_id, Soort.STAP_KLAAR, "map gevonden: /srv/foto/veranda", token=claim.token, bot="paco")
    briefing = tmp_path / "1-sessie.briefing.txt"
    briefing.write_text("volledige briefing\n")
    (tmp_path / "1-sessie.briefing.compact.txt").write_text(f"=== TAAK {task_id} (uit het bestand) ===\n")
    return {
        **cli_env,
        "TAAK_LANGUAGE": "nl",
        "TAAK_ID": task_id,
        "TAAK_TOKEN": claim.token,
        "TAAK_BOT": "paco",
        "TAAK_SESSIE": "sessie-1",
        "TAAK_BRIEFING_FILE": str(briefing),
    }


def hook(env: dict[str, str], name: str, payload: dict[str, object]) -> tuple[int, str, str]:
    result = run_taak(env, "hook", name, stdin=json.dumps(payload).encode())
    return result.code, result.out, result.err


def context_of(out: str, event: str) -> str:
    data = json.loads(out)
    assert data["hookSpecificOutput"]["hookEventName"] == event
    text: str = data["hookSpecificOutput"]["additionalContext"]
    return text


async def test_session_start_after_a_compaction_reinjects_the_task(session_env: dict[str, str]) -> None:
    code, out, err = hook(
        session_env,
        "session-start",
        {
            "hook_event_name": "SessionStart",
            "source": "compact",
            "session_id": "s",
            "transcript_path": "/x",
            "cwd": "/",
        },
    )
    assert code == 0, err
    text = context_of(out, "SessionStart")
    task_id = session_env["TAAK_ID"]
    assert text.startswith(f"=== TAAK {task_id}")
    assert f'"{OPDRACHT}"' in text
    assert "map gevonden: /srv/foto/veranda" in text
    assert "zoek de map" in text
    assert text.rstrip().splitlines()[-1].startswith(f"Nogmaals: je werkt aan taak {task_id}")
    assert len(text) < 10_000


async def test_session_start_on_resume_adds_no_second_copy_of_the_task(session_env: dict[str, str]) -> None:
    code, out, err = hook(session_env, "session-start", {"hook_event_name": "SessionStart", "source": "resume"})
    assert (code, out) == (0, ""), err


async def test_pre_compact_steers_with_the_task_id_when_the_database_is_away(
    session_env: dict[str, str], tmp_path: Path
) -> None:
    transcript = tmp_path / "t.jsonl"
    shutil.copy(FIXTURES / "agentlogs__compact.jsonl", transcript)
    env = {**session_env, "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak"}
    code, out, err = hook(env, "pre-compact", {"trigger": "auto", "transcript_path": str(transcript)})
    assert code == 0
    assert session_env["TAAK_ID"] in out
    assert "niet gelogd" in err  # in the run's language
    code, _, err = hook({**env, "TAAK_LANGUAGE": "en"}, "pre-compact", {"transcript_path": str(transcript)})
    assert (code, "not logged" in err, "niet" in err) == (0, True, False)


def test_two_summaries_in_one_second_get_two_files(tmp_path: Path) -> None:
    from worker.hooks.reports import summary_path

    assert summary_path(tmp_path, "s") != summary_path(tmp_path, "s")


async def test_session_start_without_a_database_uses_the_briefing_file(session_env: dict[str, str]) -> None:
    env = {**session_env, "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak"}
    code, out, _ = hook(env, "session-start", {"source": "compact"})
    assert code == 0
    assert context_of(out, "SessionStart") == f"=== TAAK {session_env['TAAK_ID']} (uit het bestand) ==="


async def test_session_start_at_startup_of_a_queue_session_adds_nothing(session_env: dict[str, str]) -> None:
    code, out, _ = hook(session_env, "session-start", {"source": "startup"})
    assert (code, out) == (0, "")


async def test_pre_compact_saves_the_conversation_logs_it_and_steers_the_summary(
    session_env: dict[str, str], tmp_path: Path, conn: asyncpg.Connection
) -> None:
    transcript = tmp_path / "sessie.jsonl"
    shutil.copy(FIXTURES / "agentlogs__compact.jsonl", transcript)
    code, out, err = hook(
        session_env,
        "pre-compact",
        {"transcript_path": str(transcript), "trigger": "auto", "custom_instructions": None, "session_id": "sessie-1"},
    )
    assert code == 0, err
    assert not out.lstrip().startswith("{")  # plain text: JSON here would fail Claude Code's validation
    assert session_env["TAAK_ID"] in out
    assert OPDRACHT in out
    (report,) = (Path(session_env["TAAK_DATA_DIR"]) / "rapporten").glob("*.txt")
    saved = report.read_text()
    assert "user: how are you doing" in saved
    assert "assistant: I'm doing well, thanks for asking!" in saved
    row = await conn.fetchrow("select tekst, meta, sessie from agent_taak_log where soort = 'compact'")
    assert str(report) in row["tekst"]
    meta = json.loads(row["meta"])
    assert meta.pop("zin")["sleutel"] == "row_compact_report"  # its words, for a reader of another language
    assert meta == {"rapport": str(report), "trigger": "auto"}
    assert row["sessie"] == "sessie-1"


async def test_pre_compact_reports_only_what_came_since_the_previous_report(
    session_env: dict[str, str], tmp_path: Path
) -> None:
    transcript = tmp_path / "sessie.jsonl"
    lines = (FIXTURES / "agentlogs__crud.jsonl").read_text().splitlines(keepends=True)
    transcript.write_text("".join(lines[:10]))
    assert hook(session_env, "pre-compact", {"transcript_path": str(transcript)})[0] == 0
    transcript.write_text("".join(lines))
    assert hook(session_env, "pre-compact", {"transcript_path": str(transcript)})[0] == 0
    first, second = sorted((Path(session_env["TAAK_DATA_DIR"]) / "rapporten").glob("*.txt"))
    zone = ZoneInfo(session_env.get("TAAK_TIMEZONE", "Europe/Amsterdam"))  # the household's, as recall shows
    assert first.read_text() == render(parse_lines(lines[:10]), zone=zone) + "\n"
    assert second.read_text() == render(parse_lines(lines[10:]), zone=zone) + "\n"
    assert "The file has been successfully removed" in second.read_text()


async def test_pre_compact_refuses_to_report_success_on_an_empty_report(
    session_env: dict[str, str], tmp_path: Path
) -> None:
    # A parser that finds nothing where there is conversation (the old bug): the guard must say so.
    shim = tmp_path / "sitecustomize.py"
    shim.write_text("import worker.core.transcript as t\nt.parse_lines = lambda lines, first_line=0: []\n")
    env = {**session_env, "PYTHONPATH": str(tmp_path)}
    transcript = tmp_path / "sessie.jsonl"
    shutil.copy(FIXTURES / "agentlogs__compact.jsonl", transcript)
    code, _, err = hook(env, "pre-compact", {"transcript_path": str(transcript)})
    assert code == 1
    assert "het verslag zou leeg zijn" in err
    assert not (Path(session_env["TAAK_DATA_DIR"]) / "rapporten").exists() or not list(
        (Path(session_env["TAAK_DATA_DIR"]) / "rapporten").glob("*.txt")
    )


async def test_post_compact_stores_the_summary_without_its_analysis(
    session_env: dict[str, str], conn: asyncpg.Connection
) -> None:
    summary = "<analysis>\nEerst denk ik na.\n</analysis>\n\n<summary>\nDe foto's staan klaar.\n</summary>"
    code, out, err = hook(
        session_env, "post-compact", {"compact_summary": summary, "trigger": "manual", "session_id": "sessie-1"}
    )
    assert (code, out) == (0, ""), err
    stored = await conn.fetchval("select tekst from agent_taak_log where soort = 'compact'")
    assert stored == "<summary>\nDe foto's staan klaar.\n</summary>"
    (saved,) = (Path(session_env["TAAK_DATA_DIR"]) / "samenvattingen").glob("*.txt")
    assert "Eerst denk ik na" not in saved.read_text()


async def test_prompt_says_where_we_are(session_env: dict[str, str]) -> None:
    code, out, _ = hook(session_env, "prompt", {"prompt": "ga door"})
    assert code == 0
    assert context_of(out, "UserPromptSubmit") == f"Taak {session_env['TAAK_ID']} (bezig). Volgende stap: zoek de map"


@pytest.mark.slow
async def test_outside_a_queue_the_prompt_hook_asks_the_database_so_a_change_made_elsewhere_shows(
    session_env: dict[str, str],
) -> None:
    assert run_taak(session_env, "stap", "upload het album").code == 0
    said = context_of(hook(session_env, "prompt", {"prompt": "ga door"})[1], "UserPromptSubmit")
    assert said == f"Taak {session_env['TAAK_ID']} (bezig). Volgende stap: upload het album"
    owner = {k: v for k, v in session_env.items() if k not in ("TAAK_TOKEN", "TAAK_BOT", "TAAK_SESSIE")}
    cancelled = run_taak(owner, "annuleer", session_env["TAAK_ID"], "--reden", "niet meer nodig")  # from elsewhere
    assert cancelled.code == 0, cancelled.err
    assert "(geannuleerd)" in context_of(hook(session_env, "prompt", {})[1], "UserPromptSubmit")
    away = {**session_env, "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak"}
    code, out, err = hook(away, "prompt", {"prompt": "ga door"})
    assert (code, out) == (0, "")  # no stale status in its place
    assert err.startswith("taak hook prompt: database niet bereikbaar op 127.0.0.1:1"), err
    assert len(err.splitlines()) == 1


def test_the_daemons_prompt_hook_reads_the_file_it_is_given_and_nothing_else(tmp_path: Path) -> None:
    from worker.core.session_files import stand_path, write_stand

    write_stand(tmp_path, "HV-20261129-004", status="bezig", volgende_stap="test het album", language="nl")
    bare = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    bare["TAAK_DATA_DIR"] = str(tmp_path / "elders")  # the ordinary path's hooks.log stays in the test's folder
    result = run_taak_entry(bare, "hook", "prompt", "--stand", str(stand_path(tmp_path, "HV-20261129-004")))
    assert result.code == 0, result.err
    assert context_of(result.out, "UserPromptSubmit") == "Taak HV-20261129-004 (bezig). Volgende stap: test het album"
    from datetime import UTC, datetime

    from worker.memory.lll import append, lll_path

    append(lll_path(tmp_path), "open", "Verbouwing veranda", datetime.now(UTC))
    with_lll = run_taak_entry(bare, "hook", "prompt", "--stand", str(stand_path(tmp_path, "HV-20261129-004")))
    lines = context_of(with_lll.out, "UserPromptSubmit").splitlines()
    assert lines[0] == "Waar we nu zijn (bijgehouden door de eigenaar):"
    assert lines[1].startswith("- Verbouwing veranda (sinds ")
    assert lines[-1] == "Taak HV-20261129-004 (bezig). Volgende stap: test het album"
    missing = run_taak_entry(bare, "hook", "prompt", "--stand", str(tmp_path / "weg.json"))
    assert (missing.code, missing.out) == (0, "")  # no task known: the ordinary path says nothing


def test_the_prompt_hook_shows_where_we_are_now_every_turn(session_env: dict[str, str]) -> None:
    owner = {k: v for k, v in session_env.items() if k not in ("TAAK_ID", "TAAK_TOKEN", "TAAK_BOT")}
    assert run_taak(owner, "lll", "Verbouwing veranda").code == 0
    assert run_taak(owner, "lll", "Budget 2027").code == 0
    assert run_taak(owner, "lll", "klaar", "budget 2027").code == 0
    assert run_taak(owner, "lll", "klaar", "bestaat niet").code == 3
    shown = run_taak(session_env, "lll", "toon").out
    assert "- Verbouwing veranda (sinds" in shown
    assert "- afgerond: Budget 2027" in shown  # closed under the name it was opened with
    text = context_of(hook(session_env, "prompt", {"prompt": "ga door"})[1], "UserPromptSubmit")
    assert text.startswith("Waar we nu zijn")
    assert text.splitlines()[-1] == f"Taak {session_env['TAAK_ID']} (bezig). Volgende stap: zoek de map"
    outside = {k: v for k, v in session_env.items() if k not in ("TAAK_ID", "TAAK_TOKEN")}
    assert context_of(hook(outside, "prompt", {"prompt": "hoi"})[1], "UserPromptSubmit") == shown.rstrip("\n")


@pytest.mark.parametrize("model_env", [{}, {"CLAUDECODE": "1"}], ids=["queue-session", "any-claude-session"])
def test_a_claude_session_can_read_the_lll_but_never_write_it(
    session_env: dict[str, str], model_env: dict[str, str]
) -> None:
    owner = {k: v for k, v in session_env.items() if k not in ("TAAK_ID", "TAAK_TOKEN", "TAAK_BOT")}
    assert run_taak(owner, "lll", "Verbouwing veranda").code == 0
    writer = {**session_env, **model_env} if not model_env else {**owner, **model_env}
    for words in (["lll", "Nieuw onderwerp"], ["lll", "klaar", "verbouwing veranda"]):
        refused = run_taak(writer, *words)
        assert refused.code == 1
        assert "eigenaar" in refused.err
    shown = run_taak(writer, "lll", "toon").out
    assert "- Verbouwing veranda (sinds" in shown
    assert "Nieuw onderwerp" not in shown


def run_taak_entry(env: dict[str, str], *args: str) -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *args],
        env=env,
        input=b"{}",
        capture_output=True,
        timeout=60,
        check=False,
    )
    return Result(done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.parametrize("name", ["prompt", "session-start", "post-compact", "pre-compact"])
async def test_a_broken_database_or_input_never_breaks_the_session(session_env: dict[str, str], name: str) -> None:
    env = {**session_env, "TAAK_DATABASE_URL": "postgresql://bot:geheim@127.0.0.1:1/taak", "TAAK_BRIEFING_FILE": ""}
    for stdin in (
        b"{niet json",
        json.dumps({"source": "compact", "compact_summary": "x", "transcript_path": "/bestaat/niet.jsonl"}).encode(),
    ):
        result = run_taak(env, "hook", name, stdin=stdin)
        assert result.code == 0
        assert len(result.err.strip().splitlines()) == 1
        assert "geheim" not in result.err


def test_outside_a_queue_session_startup_injects_the_memory_index(cli_env: dict[str, str], tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    lines = ["# Geheugen", *[f"- [notitie {n}](notitie-{n}.md): iets om te onthouden nummer {n}" for n in range(400)]]
    (memory / "MEMORY.md").write_text("\n".join(lines) + "\nGewone tekst die geen index is.\n")
    env = {**cli_env, "TAAK_MEMORY_DIR": str(memory)}
    result = run_taak(env, "hook", "session-start", stdin=b'{"source": "startup"}')
    text = context_of(result.out, "SessionStart")
    assert text.startswith("# Geheugen\n- [notitie 0]")
    assert len(text) <= 6000
    left_out = text.splitlines()[-1]
    assert all(line in lines for line in text.splitlines()[:-1])
    assert left_out.startswith("(")
    assert " more lines of the index left out; read them in " in left_out
    assert str(memory / "MEMORY.md") in text.splitlines()[-1]
    assert run_taak(env, "lll", "Verbouwing veranda").code == 0
    with_lll = context_of(run_taak(env, "hook", "session-start", stdin=b'{"source": "startup"}').out, "SessionStart")
    assert with_lll.startswith("Where we are now (kept by the owner):\n- Verbouwing veranda")
    assert "# Geheugen" in with_lll


def owner_on_a_task(session_env: dict[str, str]) -> dict[str, str]:
    """The owner's own Claude session working on a task: TAAK_ID set, no lease token, no daemon."""
    return {k: v for k, v in session_env.items() if k not in ("TAAK_TOKEN", "TAAK_BRIEFING_FILE")}


async def test_the_owners_session_on_a_task_gets_the_memory_index_at_startup(
    session_env: dict[str, str], tmp_path: Path
) -> None:
    memory = tmp_path / "geheugen"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Geheugen\n- [veranda](veranda.md): het album heet Zomer\n")
    env = {**owner_on_a_task(session_env), "TAAK_MEMORY_DIR": str(memory)}
    code, out, err = hook(env, "session-start", {"source": "startup"})
    assert (code, err) == (0, "")
    assert "- [veranda](veranda.md): het album heet Zomer" in context_of(out, "SessionStart")


async def test_the_owners_session_on_a_task_records_its_compaction(
    session_env: dict[str, str], tmp_path: Path, conn: asyncpg.Connection
) -> None:
    transcript = tmp_path / "eigen.jsonl"
    shutil.copy(FIXTURES / "agentlogs__compact.jsonl", transcript)
    env = owner_on_a_task(session_env)
    code, out, err = hook(env, "pre-compact", {"transcript_path": str(transcript), "session_id": "eigen-1"})
    assert (code, err) == (0, "")
    assert OPDRACHT in out
    code, _, err = hook(
        env, "post-compact", {"compact_summary": "<analysis>x</analysis>Samenvatting", "session_id": "e"}
    )
    assert (code, err) == (0, "")
    rows = await conn.fetch(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'compact' order by id", env["TAAK_ID"]
    )
    assert len(rows) == 2
    assert rows[0]["tekst"].startswith("verslag voor de compact: ")
    assert rows[1]["tekst"] == "Samenvatting"


@pytest.mark.parametrize(
    ("task_id", "said"),
    [("HV-20261203-999", "taak HV-20261203-999 bestaat niet"), ("bogus", "'bogus' is geen taak-ID")],
)
async def test_a_taak_id_that_names_no_task_is_said_by_the_prompt_hook(
    session_env: dict[str, str], task_id: str, said: str
) -> None:
    code, out, err = hook({**session_env, "TAAK_ID": task_id}, "prompt", {"prompt": "ga door"})
    assert code == 0  # a hook never breaks a session
    assert task_id not in out
    assert err.strip().startswith(f"taak hook prompt: TAAK_ID: {said}"), err


@pytest.mark.slow
async def test_the_briefing_counts_compactions_not_the_two_rows_each_writes(
    session_env: dict[str, str], tmp_path: Path
) -> None:
    """Each compaction writes a report row before it and a summary row after it. After two, `taak brief` said
    "4x compact", and the block put back during the second said "3x"; `taak overzicht` said 2."""
    transcript = tmp_path / "sessie.jsonl"
    lines = (FIXTURES / "agentlogs__crud.jsonl").read_text().splitlines(keepends=True)
    for done, upto in enumerate((10, len(lines)), start=1):
        transcript.write_text("".join(lines[:upto]))
        assert hook(session_env, "pre-compact", {"transcript_path": str(transcript), "trigger": "auto"})[0] == 0
        code, out, err = hook(session_env, "session-start", {"source": "compact"})
        assert code == 0, err
        assert f": {done}x compact)" in context_of(out, "SessionStart")  # this compaction counted once already
        summary = f"<summary>samenvatting {done}</summary>"
        assert hook(session_env, "post-compact", {"compact_summary": summary, "trigger": "auto"})[0] == 0
    brief = run_taak(session_env, "brief", session_env["TAAK_ID"])
    assert brief.code == 0, brief.err
    (older,) = [line for line in brief.out.splitlines() if "eerdere regel" in line]
    assert older.startswith("(4 eerdere regels sinds ")  # the rows there are: two a compaction (tester of issue 38)
    assert older.endswith(": 2x compact)")  # the compactions


MESSAGE_START = re.compile(r"\[\d{4}-\d\d-\d\d \d\d:\d\d\] (user|assistant)(: | -> )")


@pytest.mark.parametrize(
    "fixture",
    ["agentlogs__compact.jsonl", "generated-2.1.332__manual-compact__trimmed.jsonl"],  # the two with a compaction
)
async def test_the_report_row_counts_the_lines_and_messages_the_report_holds(
    session_env: dict[str, str], tmp_path: Path, conn: asyncpg.Connection, fixture: str
) -> None:
    """The row said "(2 regels, 10 berichten)" of a report of two lines: the compaction's boundary, its summary
    and the command noise, left out of the report, were counted as messages."""
    transcript = tmp_path / "sessie.jsonl"
    shutil.copy(FIXTURES / fixture, transcript)
    code, _, err = hook(session_env, "pre-compact", {"transcript_path": str(transcript), "trigger": "manual"})
    assert code == 0, err
    (report,) = (Path(session_env["TAAK_DATA_DIR"]) / "rapporten").glob("*.txt")
    held = report.read_text().splitlines()
    messages = sum(1 for line in held if MESSAGE_START.match(line))
    row = await conn.fetchval("select tekst from agent_taak_log where soort = 'compact'")
    assert row == f"verslag voor de compact: {report} ({len(held)} regels, {messages} berichten)"


def queue_session_env(tmp_path: Path, claude_pid: str) -> dict[str, str]:
    """Inside a queue session (its daemon away: these hooks need none) and one Claude Code process of it, as
    Claude Code names that process to every hook it runs (CLAUDE_PID)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "CLAUDECODE"}
    env.update(
        TAAK_SOCKET=str(tmp_path / "geen.sock"),
        TAAK_ID="HV-20261129-004",
        TAAK_BOT="paco",
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_LANGUAGE="nl",
        CLAUDE_PID=claude_pid,
    )
    return env


def test_an_installed_hook_in_a_queue_session_stands_down_only_where_the_daemons_copy_runs(tmp_path: Path) -> None:
    """A session the agent resumed itself, without the daemon's --settings, had no hooks at all: the copies in
    ~/.claude stood down because TAAK_SOCKET was set, though the daemon's were not loaded. They stand down
    only in the process where the daemon's copy said at its SessionStart that it runs."""
    from worker.core.session_files import write_stand

    write_stand(tmp_path / "data", "HV-20261129-004", status="bezig", volgende_stap="test het album")
    line = "Taak HV-20261129-004 (bezig). Volgende stap: test het album"
    daemons = queue_session_env(tmp_path, "4100")
    started = run_taak(daemons, "hook", "session-start", "--queue", stdin=b'{"source": "startup"}')
    assert (started.code, started.err) == (0, "")
    assert run_taak(daemons, "hook", "prompt", stdin=b"{}").out == ""  # the daemon's copy answers this turn
    resumed = queue_session_env(tmp_path, "4200")  # `claude --resume` by the agent: only ~/.claude's hooks
    assert run_taak(resumed, "hook", "session-start", stdin=b'{"source": "resume"}').code == 0
    acted = run_taak(resumed, "hook", "prompt", stdin=b"{}")
    assert (acted.code, acted.err) == (0, "")
    assert context_of(acted.out, "UserPromptSubmit") == line


def test_hooks_log_has_a_row_for_the_queue_prompt_hook_and_for_an_installed_copy_that_stood_down(
    tmp_path: Path,
) -> None:
    from worker.core.session_files import stand_path, write_stand

    write_stand(tmp_path / "data", "HV-20261129-004", status="bezig", volgende_stap="test het album")
    env = queue_session_env(tmp_path, "4100")
    assert run_taak(env, "hook", "session-start", "--queue", stdin=b'{"source": "startup"}').code == 0
    stand = str(stand_path(tmp_path / "data", "HV-20261129-004"))
    assert run_taak(env, "hook", "prompt", "--stand", stand, stdin=b"{}").out  # the daemon's copy: its line
    assert run_taak(env, "hook", "prompt", stdin=b"{}").out == ""  # the installed copy: stands down
    rows = [json.loads(line) for line in (tmp_path / "data" / "hooks.log").read_text().splitlines()]
    assert [(r["hook"], r["task_id"], r["bot"], r["error"], r["stood_down"]) for r in rows] == [
        ("session-start", "HV-20261129-004", "paco", None, False),
        ("prompt", "HV-20261129-004", "paco", None, False),
        ("prompt", "HV-20261129-004", "paco", None, True),
    ]
