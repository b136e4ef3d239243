"""One language per run (issue 16): the main verbs' output, their errors and argparse's own messages, in
TAAK_LANGUAGE, with no word of the other language; the help texts and doctor too."""

from __future__ import annotations

import json
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on, run_taak

MARKERS = {
    "nl": [
        "getoond van",
        "bereik:",
        "gebruik:",
        "ongeldige keuze",
        "bestaat niet",
        "titel",
        "pogingen",
        "nergens",
        "alleen taken met deze status",
        "opties:",
        "opdrachtgever",
        "is een map",
    ],
    "en": [
        "shown of",
        "range:",
        "usage:",
        "invalid choice",
        "does not exist",
        "title",
        "attempts",
        "nowhere",
        "only tasks with this status",
        "options:",
        "given by",
        "is a directory",
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize(("language", "other"), [("nl", "en"), ("en", "nl")])
async def test_the_main_verbs_speak_one_language(
    cli_env: dict[str, str], tmp_path: Path, language: str, other: str
) -> None:
    env = {**cli_env, "TAAK_LANGUAGE": language, "TAAK_SEMANTIC": "false", "TAAK_TIMEZONE": "UTC"}
    said = tmp_path / "said.jsonl"
    said.write_text(json.dumps({"ts": "2026-11-28T10:00:00Z", "role": "user", "text": "de lamp is kapot"}) + "\n")
    assert run_taak(env, "archief", "import", "--simple", str(said)).code == 0
    task_id = run_taak(env, "nieuw", "Vervang de lamp", "--aan", "paco").out.strip()
    outputs = [
        run_taak(env, "lijst").out,
        run_taak(env, "toon", task_id).out,
        run_taak({**env, "TAAK_MEMORY_DIR": str(tmp_path / "geen-geheugen")}, "geheugen", "check").out,
        run_taak(env, "hooks", "check", "--settings", str(tmp_path / "settings.json")).out,
        run_taak(env, "recall", "2026-11-28 lamp olifant").out,
        run_taak(env, "recall", "olifant").out,
        run_taak(env, "lijst", "--status", "rommel").err,
        run_taak(env, "toon", "HV-20990101-001").err,
        run_taak(env, "claude-md", str(tmp_path)).err,  # a folder where a file belongs: the system's reason
        run_taak(env, "lijst", "--help").out,
        run_taak(env, "--help").out,
        run_taak(env, "doctor").out,
    ]
    text = "\n".join(outputs)
    assert [m for m in MARKERS[language] if m in text], text  # it spoke
    assert [m for m in MARKERS[other] if m in text] == [], text


QUEUE_WORKER_MARKERS = {
    "nl": ["gebruik:", "opties:", "hoogstens één taak", "onbekende argumenten", "niet geïnstalleerd", "staat aan"],
    "en": ["usage:", "options:", "at most one task", "unrecognized arguments", "not installed", "switched on"],
}


def run_queue_worker(env: dict[str, str], *args: str) -> str:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", *args], env=env, capture_output=True, text=True, timeout=60
    )
    return done.stdout + done.stderr


@pytest.mark.parametrize(("language", "other"), [("nl", "en"), ("en", "nl")])
async def test_the_queue_worker_speaks_one_language(
    cli_env: dict[str, str], tmp_path: Path, language: str, other: str
) -> None:
    """Its help, argparse's words, the service manager's lines and the reasons in the daemon's log."""
    env = {
        **cli_env,
        "TAAK_LANGUAGE": language,
        "HOME": str(tmp_path / "home"),
        "TAAK_BOTS": "coco",
        "TAAK_LOG_FORMAT": "json",
    }
    assert run_taak(env, "bot", "uit", "coco").code == 0
    outputs = [
        run_queue_worker(env, "--help"),
        run_queue_worker(env, "service", "install", "--help"),
        run_queue_worker(env, "--bogus"),
        run_queue_worker(env, "service", "status", "--bot", "coco", "--platform", "linux"),
        run_queue_worker(env, "--once"),  # the bot is off: the log says why nothing was claimed
    ]
    text = "\n".join(outputs)
    assert [m for m in QUEUE_WORKER_MARKERS[language] if m in text] == QUEUE_WORKER_MARKERS[language], text
    assert [m for m in QUEUE_WORKER_MARKERS[other] if m in text] == [], text


async def test_the_daemons_reasons_are_said_in_the_runs_language_and_kept_in_dutch_in_the_ledger(
    cli_env: dict[str, str], tmp_path: Path, conn: asyncpg.Connection
) -> None:
    env = {
        **cli_env,
        "TAAK_LANGUAGE": "en",
        "HOME": str(tmp_path / "home"),
        "TAAK_BOTS": "coco",
        "TAAK_LOG_FORMAT": "json",
        "TAAK_AGENT_CMD": str(tmp_path / "no-such-agent"),
    }
    assert run_taak(env, "bot", "aan", "coco").code == 0
    task_id = run_taak(env, "nieuw", "Doe iets", "--aan", "coco").out.strip()
    said = run_queue_worker(env, "--once")
    events = [json.loads(line) for line in said.splitlines() if line.startswith("{")]
    reasons = [e["reason"] for e in events if e.get("event") in ("outcome", "worker_paused")]
    assert len(reasons) == 2, said
    assert [r for r in reasons if not r.startswith("infrastructure: the agent does not start")] == [], said
    row = await conn.fetchval(
        "select tekst from agent_taak_log where taak_id = $1 and soort = 'vrijgegeven' order by id desc limit 1",
        task_id,
    )
    assert row is not None
    assert "infrastructuur: agent start niet" in row
    # Shown to an English reader, the ledger's own rows are in English too; the record above stays Dutch.
    shown = run_taak(env, "toon", task_id).out
    assert "infrastructure: the agent does not start" in shown, shown
    assert "session result: no result line (not started, file " in shown, shown
    assert [w for w in ("infrastructuur", "sessie-resultaat", "aangemaakt door", "poging 1 van") if w in shown] == []


async def test_a_session_that_asks_in_english_is_answered_in_english_by_a_dutch_daemon(
    db_url: str, tmp_path: Path, conn: asyncpg.Connection
) -> None:
    from tests.system.harness import InProcess, switch_on, wait_for, worker_env
    from worker.db.ledger import NewTask

    await switch_on(conn, "paco")
    await ledger_on(conn).nieuw(NewTask("Zet de foto's online", "jamal", toegewezen_aan="paco"))
    stand = tmp_path / "data" / "sessies" / "{id}" / "stand.json"
    asked = [
        "TAAK_LANGUAGE=en taak toon",
        "TAAK_LANGUAGE=en taak brief --compact",
        "taak toon",
        f"echo '{{}}' | TAAK_LANGUAGE=en taak hook prompt --stand {stand}",
    ]
    env = worker_env(db_url, tmp_path, mode="run", TAAK_LANGUAGE="nl", FAKE_RUN="\n".join(asked))
    daemon = InProcess(env, tmp_path / "worker.log")
    try:
        ran = await wait_for(lambda: _ran(tmp_path), timeout=60, what="the session's commands")
    finally:
        await daemon.stop()
    english_toon, english_brief, dutch_toon, english_prompt = (r["out"] for r in ran)
    assert [r["code"] for r in ran] == [0, 0, 0, 0], ran
    assert "Next step:" in english_prompt, english_prompt  # the hook too, though the daemon's stand says nl
    assert "given by" in english_toon, english_toon
    assert "opdrachtgever" not in english_toon, english_toon
    assert "(attempt 1 of 3) ===" in english_brief, english_brief  # its rows keep the ledger's Dutch
    assert "Original instruction, verbatim:" in english_brief, english_brief
    assert "opdrachtgever" in dutch_toon, dutch_toon  # the daemon's own language when none is asked


async def _ran(folder: Path) -> list[dict[str, object]] | None:
    found = list((folder / "records").glob("*.ran"))
    return json.loads(found[0].read_text()) if found else None


# The words of the system's own log rows, in each language: a task created, claimed, taken back, given a next
# step and cancelled, as `taak toon`, `taak brief` and `taak tail` show it.
ROW_WORDS = {
    "nl": ["aangemaakt door jamal", "poging 1 van 3 door paco@", "lease teruggenomen door", "met de hand",
           "volgende stap: bel de elektricien", "geannuleerd door jamal: toch niet"],
    "en": ["created by jamal", "attempt 1 of 3 by paco@", "lease taken back by", "by hand",
           "next step: bel de elektricien", "cancelled by jamal: toch niet"],
}  # fmt: skip


@pytest.mark.parametrize(("language", "other"), [("nl", "en"), ("en", "nl")])
async def test_the_ledgers_own_rows_are_said_in_the_readers_language(
    cli_env: dict[str, str], language: str, other: str
) -> None:
    import subprocess
    import sys

    writer = {**cli_env, "TAAK_LANGUAGE": other, "TAAK_OWNER": "jamal"}  # written by a run of the other language
    task_id = run_taak(writer, "nieuw", "Vervang de lamp", "--aan", "paco").out.strip()
    assert run_taak(writer, "claim", "--bot", "paco").code == 0
    assert run_taak(writer, "vrijgeven", task_id).code == 0  # the owner takes the lease back, no reason given
    assert run_taak(writer, "stap", task_id, "bel de elektricien").code == 0
    assert run_taak(writer, "brief", task_id).code == 0
    assert run_taak(writer, "annuleer", task_id, "--reden", "toch niet").code == 0
    env = {**cli_env, "TAAK_LANGUAGE": language}
    follow = subprocess.Popen(
        [sys.executable, "-m", "worker.cli.taak", "tail", task_id], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert follow.stdout is not None
        tailed = "".join(follow.stdout.readline() for _ in range(5))
    finally:
        follow.terminate()
        follow.wait(timeout=30)
    shown = run_taak(env, "toon", task_id).out
    for said in (shown, tailed):
        assert [w for w in ROW_WORDS[language] if w not in said] == [], said
        assert [w for w in ROW_WORDS[other] if w in said and w not in ROW_WORDS[language]] == [], said
    briefing = run_taak(env, "brief", task_id).out
    assert ROW_WORDS[language][0] in briefing, briefing
    # recall over the task log too (tester 20): the words are matched as stored, the rows said as the reader reads
    recalled = run_taak(env, "recall", "--taken", "--taak", task_id, "jamal").out
    created, cancelled = ROW_WORDS[language][0], ROW_WORDS[language][-1]
    assert created in recalled, recalled
    assert cancelled in recalled, recalled
    assert ROW_WORDS[other][0] not in recalled, recalled
