"""`queue-worker service install`: the systemd unit or launchd agent for one bot, filled in for this machine.

Rendering is pure (templates in `deploy/` and values in, text out); installing writes the file, creates
an environment file for the settings (mode 600, never overwritten), and says how to load it."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from worker.db.sqlfiles import sql_dir

Platform = Literal["linux", "macos"]

ENV_TEMPLATE = """# Settings of the taak queue-worker for bot {bot} (see the README's settings table).
# TAAK_DATABASE_URL=postgresql://user:password@host:5432/postgres
# TAAK_CONCURRENCY=1
# TAAK_WORKDIR={home}
"""


@dataclass(frozen=True)
class ServiceFile:
    path: Path
    text: str
    env_file: Path
    load: str
    logs: str


def deploy_dir() -> Path:
    """`deploy/` beside `sql/`: in the checkout, or inside the installed wheel."""
    return sql_dir().parent / "deploy"


def this_platform() -> Platform:
    return "macos" if sys.platform == "darwin" else "linux"


def queue_worker_path() -> str:
    script = Path(sys.executable).parent / "queue-worker"
    return str(script) if script.exists() else (shutil.which("queue-worker") or str(script))


def render(template: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        template = template.replace(f"@{key}@", value)
    return template


def service_file(bot: str, platform: Platform, *, home: Path, system: bool) -> ServiceFile:
    command = queue_worker_path()
    if platform == "macos":
        env_dir = home / ".config" / "taak"
        text = render(
            (deploy_dir() / "launchd" / "nl.taak.queue-worker.plist").read_text(),
            {
                "BOT": bot,
                "ENV_DIR": str(env_dir),
                "QUEUE_WORKER": command,
                "LOG_DIR": str(home / "Library" / "Logs" / "taak"),
            },
        )
        path = home / "Library" / "LaunchAgents" / f"nl.taak.queue-worker.{bot}.plist"
        return ServiceFile(
            path,
            text,
            env_dir / f"{bot}.env",
            load=f"launchctl bootstrap gui/$(id -u) {path}",
            logs=f"tail -f {home}/Library/Logs/taak/queue-worker-{bot}.log",
        )
    env_dir = Path("/etc/taak") if system else home / ".config" / "taak"
    unit_dir = Path("/etc/systemd/system") if system else home / ".config" / "systemd" / "user"
    text = render(
        (deploy_dir() / "systemd" / "queue-worker@.service").read_text(),
        {
            "ENV_DIR": str(env_dir),
            "QUEUE_WORKER": command,
            "WANTED_BY": "multi-user.target" if system else "default.target",
            "README": str(deploy_dir().parent / "README.md"),
        },
    )
    scope = "" if system else " --user"
    return ServiceFile(
        unit_dir / "queue-worker@.service",
        text,
        env_dir / f"{bot}.env",
        load=f"systemctl{scope} daemon-reload && systemctl{scope} enable --now queue-worker@{bot}",
        logs=f"journalctl{' --user' if not system else ''} -fu queue-worker@{bot}",
    )


def install(service: ServiceFile, bot: str, home: Path) -> list[Path]:
    written = []
    service.path.parent.mkdir(parents=True, exist_ok=True)
    service.path.write_text(service.text, encoding="utf-8")
    written.append(service.path)
    if not service.env_file.exists():
        service.env_file.parent.mkdir(parents=True, exist_ok=True)
        service.env_file.write_text(ENV_TEMPLATE.format(bot=bot, home=home), encoding="utf-8")
        os.chmod(service.env_file, 0o600)
        written.append(service.env_file)
    if "Library/Logs" in service.logs:
        (home / "Library" / "Logs" / "taak").mkdir(parents=True, exist_ok=True)
    return written
