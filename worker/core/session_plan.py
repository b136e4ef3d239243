"""A session's plan, decided before anything starts: its command line, its environment, where its output
goes. Pure: values in, values out (the daemon does the I/O)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from worker.core.session_files import SessionFiles


@dataclass(frozen=True)
class SessionPlan:
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    raw_path: Path
    stderr_path: Path
    session_id: str
    umask: int = 0o022  # the user's, for the agent: the daemon's own keeps its files private


def build_argv(
    agent_cmd: str,
    agent_args: list[str],
    *,
    session_id: str,
    system_prompt: str,
    prompt: str,
    settings_json: str | None = None,
) -> list[str]:
    """The command line; the prompt goes last, as an argument (stdin is closed).

    `agent_cmd` is split like a shell would, so `python3 /path/agent.py` works as well as `claude`."""
    argv = [
        *shlex.split(agent_cmd),
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--session-id",
        session_id,
        "--append-system-prompt",
        system_prompt,
    ]
    if settings_json is not None:
        argv += ["--settings", settings_json]
    return [*argv, *agent_args, prompt]


def build_env(base: Mapping[str, str], extra: Mapping[str, str], *, taak_dir: Path | None = None) -> dict[str, str]:
    """The session's environment: ours without any TAAK_ setting it was not given and without database
    credentials of any spelling (libpq's PG* variables, DATABASE_URL), plus `extra`."""
    env = {k: v for k, v in base.items() if not _credential(k) and (not k.startswith("TAAK_") or k in extra)}
    env.update(extra)
    if taak_dir is not None:  # the commands the briefing prints must be found, whatever PATH the service has
        env["PATH"] = os.pathsep.join([str(taak_dir), *[p for p in env.get("PATH", "").split(os.pathsep) if p]])
    env.setdefault("DISABLE_AUTOUPDATER", "1")
    env.setdefault("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
    return env


def _credential(name: str) -> bool:
    return name.startswith("PG") or name.endswith("DATABASE_URL")


def session_env(
    *,
    task_id: str,
    token: str,
    bot: str,
    session_id: str,
    files: SessionFiles,
    socket: Path,
    data_dir: Path,
    timezone: str,
    language: str,
    machine: str,
) -> dict[str, str]:
    """What the daemon adds for its session: the task, its token, and the way to the ledger, which is the
    daemon's socket and never a database URL."""
    return {
        "TAAK_ID": task_id,
        "TAAK_TOKEN": token,
        "TAAK_BOT": bot,
        "TAAK_SESSIE": session_id,
        "TAAK_BRIEFING_FILE": str(files.briefing),
        "TAAK_SOCKET": str(socket),
        "TAAK_DATA_DIR": str(data_dir),
        "TAAK_TIMEZONE": timezone,
        "TAAK_LANGUAGE": language,
        "TAAK_MACHINE": machine,
    }


# Claude Code event -> our handler. SessionStart has no matcher: the handler decides by `source`.
EVENTS = {
    "SessionStart": "session-start",
    "PreCompact": "pre-compact",
    "PostCompact": "post-compact",
    "UserPromptSubmit": "prompt",
}
HOOK_TIMEOUT_SECONDS = 30
QUEUE_MARK = "--queue"


def taak_command() -> str:
    """How a hook calls this installation's `taak`: its own script, so the right environment is used."""
    script = Path(sys.executable).parent / "taak"
    if script.is_file():
        return shlex.quote(str(script))
    found = shutil.which("taak")
    return shlex.quote(found) if found else f"{shlex.quote(sys.executable)} -m worker.cli.taak"


def hooks_block(command: str | None = None, *, stand: Path | None = None) -> dict[str, Any]:
    """Our hooks; with `stand`, the prompt hook reads that session file instead of loading settings."""
    base = command or taak_command()

    def line(name: str) -> str:
        if stand is None:
            return f"{base} hook {name}"
        # The daemon's own copy is marked, so the same hook installed in ~/.claude stands down in a queue
        # session and each event runs once (Claude Code merges only identical commands).
        extra = f" --stand {shlex.quote(str(stand))}" if name == "prompt" else f" {QUEUE_MARK}"
        return f"{base} hook {name}{extra}"

    return {
        event: [{"hooks": [{"type": "command", "command": line(name), "timeout": HOOK_TIMEOUT_SECONDS}]}]
        for event, name in EVENTS.items()
    }


def settings_json(command: str | None = None, *, stand: Path | None = None) -> str:
    """The `--settings` value the daemon passes: these hooks for this run only."""
    return json.dumps({"hooks": hooks_block(command, stand=stand)})
