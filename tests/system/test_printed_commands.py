"""The printed word is a contract: every command the system shows a bot or a person runs as shown.

Each test takes the commands from the real output (the briefings, the system prompt, the hooks, the
message catalogue, doctor, the daemon's log, the shell blocks of the README and the docs), fills their placeholders,
puts the database in a state where the command should work, runs it as a user types it (through
bash, with the installed `taak` on PATH) and expects exit 0. New text in those places is covered by
these tests without anyone adding a case.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import string
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import asyncpg
import pytest

from tests.fixtures import FIXTURES
from tests.helpers import ledger_on
from tests.printed import commands_in, documentation, fill, shell_scripts, todays_ids
from tests.system.harness import FAKE
from worker.core.briefing import system_prompt
from worker.core.catalogue import catalogue, filled
from worker.db import bots
from worker.db.embedded import stop_embedded
from worker.db.ledger import NewTask

REPO = Path(__file__).resolve().parents[2]
SESSION_VERBS = {"log", "klaar", "blokkeer", "vrijgeven", "stap"}


@dataclass
class World:
    """A test database, a home folder, and tasks made to order for each command."""

    conn: asyncpg.Connection
    env: dict[str, str]
    folder: Path
    made: int = 0
    failures: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)

    async def task(self, bot: str) -> str:
        """A task for a bot the fleet knows (a daemon registers its bots when it starts)."""
        self.made += 1
        await bots.register(self.conn, [bot])
        new = NewTask(
            f"Opdracht {self.made}: zet de foto's online",
            "jamal",
            toegewezen_aan=bot,
            klaar_wanneer="de link werkt",
            context={"machine": "McMini Veranda"},
            volgende_stap="zoek de map",
        )
        return await ledger_on(self.conn).nieuw(new)

    async def held(self) -> tuple[str, dict[str, str]]:
        bot = f"bot{self.made + 1}"
        task_id = await self.task(bot)
        claim = await ledger_on(self.conn).claim([bot], sessie=None)
        assert claim is not None
        assert claim.task.id == task_id
        return task_id, {"TAAK_ID": task_id, "TAAK_TOKEN": claim.token, "TAAK_BOT": bot}

    async def prepared(self, command: str) -> tuple[str, dict[str, str]]:
        """The command with its placeholders filled, and the environment of a user for whom it should work."""
        words = command.split()
        verb = words[1] if len(words) > 1 and words[0] == "taak" else ""
        if verb in SESSION_VERBS:
            task_id, session = await self.held()
            return fill(command, task_id), {**self.env, **session}
        if verb == "antwoord":
            task_id, session = await self.held()
            await ledger_on(self.conn).blokkeer(task_id, "welk album?", token=session["TAAK_TOKEN"])
            return fill(command, task_id), self.env
        task_id = await self.task("paco")  # `taak claim --bot paco`, `taak toon ID`, `taak brief ID`, ...
        return fill(command, task_id), self.env

    async def run_each(self, commands: list[str]) -> None:
        for command in commands:
            filled, env = await self.prepared(command)
            self.expect_success(filled, env)

    def expect_success(self, script: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        done = run_shell(script, env or self.env, self.folder)
        self.ran.append(script)
        if done.returncode != 0:
            said = (done.stderr.strip() or done.stdout.strip()).splitlines()
            self.failures.append(f"{script!r} exited {done.returncode}: {said[-1] if said else ''}")
        return done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def on_a_free_port(script: str) -> str:
    """`taak cockpit` serves on a port of this test's own, not the default 8765 (nor a page's example port), which
    another program or a test beside this one may hold: the rest of the command stays as written."""
    port = free_port()
    script = re.sub(r"(\btaak cockpit\b[^\n;&|#]*--port[ =])\d+", rf"\g<1>{port}", script)
    return re.sub(r"\btaak cockpit\b(?![^\n;&|#]*--port)", f"taak cockpit --port {port}", script)


def run_shell(script: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """As typed at a terminal; `taak tail` follows and `taak cockpit` serves forever, so they get Ctrl-C after a
    moment."""
    process = subprocess.Popen(
        ["bash", "-e", "-c", on_a_free_port(script)],
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        forever = "taak tail" in script or re.search(r"taak cockpit(?! --link)", script) is not None
        out, err = process.communicate(timeout=8 if forever else 180)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def world_env(db_url: str, folder: Path, language: str) -> dict[str, str]:
    home = folder / "home"
    (home / ".claude" / "memory").mkdir(parents=True)
    (home / ".claude" / "memory" / "MEMORY.md").write_text("# Geheugen\n- [veranda](veranda.md)\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        HOME=str(home),
        TAAK_DATABASE_URL=db_url,
        TAAK_DATA_DIR=str(folder / "data"),
        TAAK_LOCK_DIR=str(folder / "locks"),
        TAAK_LANGUAGE=language,
        TAAK_CONNECT_ATTEMPTS="2",
        TAAK_SEMANTIC="false",
        TAAK_BOTS="paco",
        TAAK_AGENT_CMD=f"{sys.executable} {FAKE}",
        TAAK_AGENT_ARGS="--fake-mode finish",
        TAAK_WORKDIR=str(folder),
        TAAK_LOG_FORMAT="json",
    )
    return env


async def make_world(db_url: str, folder: Path, language: str = "nl") -> World:
    folder.mkdir(parents=True, exist_ok=True)
    return World(await asyncpg.connect(db_url), world_env(db_url, folder, language), folder)


@pytest.fixture(params=["nl", "en"])
async def world(request: pytest.FixtureRequest, db_url: str, tmp_path: Path) -> Any:
    made = await make_world(db_url, tmp_path, request.param)
    yield made
    await made.conn.close()


def taak_out(world: World, *args: str, env: dict[str, str] | None = None, stdin: str = "") -> str:
    done = subprocess.run(
        ["taak", *args], env=env or world.env, cwd=world.folder, input=stdin, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_all_ran(world: World, at_least: int) -> None:
    assert len(world.ran) >= at_least, f"only {len(world.ran)} commands found: {world.ran}"
    assert world.failures == []


# --- what a session is shown -----------------------------------------------------------------------


@pytest.mark.parametrize("variant", [[], ["--compact"]], ids=["full", "compact"])
async def test_every_command_in_a_briefing_runs(world: World, variant: list[str]) -> None:
    task_id, session = await world.held()
    taak_out(world, "log", "stap_klaar", "de map gevonden", env={**world.env, **session})
    briefing = taak_out(world, "brief", task_id, *variant)
    commands = commands_in(briefing)
    assert {c.split()[1] for c in commands} >= {"log", "klaar", "blokkeer"}, briefing
    await world.run_each(commands)
    assert_all_ran(world, 3)


async def test_every_command_in_the_system_prompt_runs(world: World) -> None:
    task_id, _session = await world.held()
    task = await ledger_on(world.conn).toon(task_id)
    commands = commands_in(system_prompt(task, world.env["TAAK_LANGUAGE"]))
    await world.run_each(commands)
    assert_all_ran(world, 3)


@pytest.mark.slow
async def test_every_command_the_hooks_print_runs(world: World) -> None:
    task_id, session = await world.held()
    transcript = world.folder / "transcript.jsonl"
    transcript.write_bytes((FIXTURES / "agentlogs__compact.jsonl").read_bytes())
    base = {"session_id": "s-1", "transcript_path": str(transcript), "cwd": str(world.folder)}
    said = ""
    for name, event in (
        ("pre-compact", {"hook_event_name": "PreCompact", "trigger": "auto", "custom_instructions": None}),
        ("session-start", {"hook_event_name": "SessionStart", "source": "compact"}),
        ("post-compact", {"hook_event_name": "PostCompact", "trigger": "auto", "compact_summary": "samenvatting"}),
        ("prompt", {"hook_event_name": "UserPromptSubmit", "prompt": "ga verder"}),
    ):
        out = taak_out(world, "hook", name, env={**world.env, **session}, stdin=json.dumps({**base, **event}))
        said += _hook_text(out) + "\n"
    assert task_id in said
    await world.run_each(commands_in(said))
    assert_all_ran(world, 3)


def _hook_text(out: str) -> str:
    try:
        return str(json.loads(out)["hookSpecificOutput"]["additionalContext"])
    except (ValueError, KeyError, TypeError):
        return out


# --- what a person is shown ------------------------------------------------------------------------


@pytest.mark.slow
async def test_every_command_in_the_message_catalogue_runs(world: World) -> None:
    language = world.env["TAAK_LANGUAGE"]
    # Help texts are synopses read beside their usage line (`taak bot aan|uit BOT`), not commands to type.
    texts = [_formatted(texts[language]) for key, texts in catalogue().items() if not key.startswith("help.")]
    # Doctor names `taak db heartbeats` where the owner has that table (a Supabase project's).
    await world.conn.execute("create table bot_heartbeats (bot text primary key, seen timestamptz default now())")
    commands = [c for text in texts for c in commands_in(text)]
    await world.run_each(commands)
    assert_all_ran(world, 2)


def _formatted(template: str) -> str:
    # What the program fills in: a bot, a task, the option that lifts a brake (both kinds are run); else a number.
    examples = {
        "bot": "paco",
        "id": "HV-20260101-001",
        "raise_it": "--sessies 1000",
        "retyped": "taak lll -- -5C",
        "options": " --port 8766",  # the cockpit's own, when not the default's
    }
    values = {name: examples.get(name, "1") for _, name, _, _ in string.Formatter().parse(template) if name}
    return filled(template, **values)


@pytest.mark.slow
async def test_every_fix_doctor_prints_runs_and_clears_its_check(
    empty_db_url: str, tmp_path: Path, machine_processes: None
) -> None:
    world = await make_world(empty_db_url, tmp_path, "en")
    try:
        settings_file = Path(world.env["HOME"]) / ".claude" / "settings.json"
        dead = {"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "/weg/resize-large-images.sh"}]}]}}
        settings_file.write_text(json.dumps(dead), encoding="utf-8")
        fixed: list[str] = []
        for _round in range(5):
            report = subprocess.run(["taak", "doctor"], env=world.env, capture_output=True, text=True, timeout=60)
            fixes = [c for c in commands_in(report.stdout) if c not in fixed]
            if not fixes:
                break
            for fix in fixes:
                world.expect_success(fix)
                fixed.append(fix)
    finally:
        await world.conn.close()
    assert {"taak db migrate", "taak bot aan paco --nieuwe-bot", "taak hooks install", "taak hooks check --fix"} <= set(
        fixed
    )
    assert world.failures == []
    assert report.returncode == 0, report.stdout


async def test_every_command_in_the_daemons_log_runs(world: World) -> None:
    # Bot paco is off: the daemon says how to switch it on.
    done = subprocess.run(
        ["queue-worker", "--once"], env=world.env, capture_output=True, text=True, timeout=60, check=False
    )
    hints = [json.loads(line).get("hint", "") for line in done.stdout.splitlines() if line.startswith("{")]
    commands = [c for hint in hints for c in commands_in(hint)]
    assert "taak bot aan paco" in commands
    await world.run_each(commands)
    assert_all_ran(world, 1)


# --- the README and the docs ------------------------------------------------------------------------

PAGES = documentation(REPO)
SCRIPTS = [(page, script) for page, text in PAGES.items() for script in shell_scripts(text)]


def test_the_readme_and_the_docs_have_shell_blocks_with_commands() -> None:
    assert any("queue-worker demo" in script for page, script in SCRIPTS if page == "README.md")
    assert {page for page, _ in SCRIPTS} >= {"README.md", "docs/taak.md", "docs/fleet.md"}
    assert any("taak klaar" in script for _, script in SCRIPTS)


@pytest.mark.slow
@pytest.mark.parametrize(("page", "script"), SCRIPTS, ids=[f"{p}: {s.splitlines()[0][:40]}" for p, s in SCRIPTS])
async def test_every_shell_block_of_the_readme_and_the_docs_runs_as_written_on_a_fresh_database(
    db_url: str, tmp_path: Path, page: str, script: str
) -> None:
    world = await make_world(db_url, tmp_path, "nl")
    try:
        if "taak intake" in script:
            await old_queue(world.conn)
        today = datetime.now(ZoneInfo("Europe/Amsterdam")).date()
        done = world.expect_success(todays_ids(script, today))
        # What those commands print for someone to type next works too ("See it again with: taak toon ...").
        await world.run_each(commands_in(done.stdout + done.stderr))
    finally:
        await world.conn.close()
        # `queue-worker demo` never uses the configured queue: it starts the embedded server, which stays up.
        stop_embedded(Path(world.env["TAAK_DATA_DIR"]) / "postgres")
    assert world.failures == []


async def old_queue(conn: asyncpg.Connection) -> None:
    """The owner's old queue as the pages' intake examples find it: months of messages the old worker left open
    for paco (from conductor) and sjakie (from kimi), before the cut-off, and one it handled."""
    await conn.execute(
        "create table agent_messages (id serial primary key, sender text, recipient text, content text, "
        "status text, created_at timestamptz, task_id text, parent_id text)"
    )
    await conn.execute(
        "insert into agent_messages (sender, recipient, content, status, created_at) "
        "select s, r, c || ' ' || g, st, now() - make_interval(days => 30 * g) from generate_series(1, 4) g, "
        "(values ('conductor', 'paco', 'Zet de foto''s online', 'pending'), "
        "('kimi', 'sjakie', 'Oude vraag', 'pending'), ('jamal', 'paco', 'al gedaan', 'done')) m(s, r, c, st)"
    )
    await bots.register(conn, ["paco"])


# --- inside a real queue session, through the daemon -------------------------------------------------


@pytest.mark.parametrize(("language", "close"), [("nl", "klaar"), ("en", "blokkeer")])
async def test_a_queue_session_that_types_its_briefings_commands_succeeds_with_each(
    db_url: str, conn: asyncpg.Connection, tmp_path: Path, language: str, close: str
) -> None:
    from tests.system.harness import Daemon, switch_on, wait_for, worker_env

    await switch_on(conn, "paco")
    task_id = await ledger_on(conn).nieuw(NewTask("Zet de foto's online", "jamal", toegewezen_aan="paco"))
    env = worker_env(db_url, tmp_path, TAAK_LANGUAGE=language, TAAK_AGENT_ARGS=f"--fake-mode obey --fake-close {close}")
    daemon = Daemon(env, tmp_path / "worker.log")
    try:
        obeyed = await wait_for(lambda: _obeyed(tmp_path), timeout=60, what="the session's commands")
        await wait_for(lambda: _event(daemon, "outcome"), timeout=30, what="the outcome")
    finally:
        daemon.stop()
    assert {c["command"].split()[1] for c in obeyed} >= {"log", close}
    assert [c for c in obeyed if c["code"] != 0] == []
    expected = "klaar" if close == "klaar" else "wacht_op_mens"
    assert await conn.fetchval("select status from agent_taken where id = $1", task_id) == expected


async def _obeyed(folder: Path) -> list[dict[str, Any]] | None:
    found = list((folder / "records").glob("*.obeyed"))
    return json.loads(found[0].read_text()) if found else None


async def _event(daemon: Any, name: str) -> bool:
    return bool(daemon.has_event(name))
