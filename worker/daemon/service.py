"""`queue-worker service install|status|uninstall`: the systemd unit or launchd agent for one bot.

Rendering is pure (templates in `deploy/` and values in, text out); installing writes the file, creates
an environment file for the settings (mode 600, never overwritten) with the PATH this installation found
`claude` on, and says how to load it. A service manager starts programs with a bare PATH (systemd's
`/usr/bin:/bin`, launchd's `/usr/bin:/bin:/usr/sbin:/sbin`), so a `claude` in `~/.local/bin` or
`/opt/homebrew/bin` would not be found without it, although `taak doctor` in a shell finds it."""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from worker.core.catalogue import from_english, message
from worker.core.folders import make_folder
from worker.db.sqlfiles import sql_dir

Platform = Literal["linux", "macos"]

# What every PATH of a service gets after the folders found at install.
BASE_PATH = {
    "linux": ["/usr/local/bin", "/usr/bin", "/bin"],
    "macos": ["/opt/homebrew/bin", "/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"],
}


@dataclass(frozen=True)
class ServiceFile:
    path: Path
    text: str
    env_file: Path
    load: str
    logs: str
    stop: list[str]  # the command that stops and disables it (uninstall)
    status: list[str]  # the command that shows whether it runs
    log_file: Path | None = None  # launchd: the log file it writes (launchd does not rotate it)
    systemctl_scope: tuple[str, ...] = ()  # systemd: ("--user",) for a user unit


def deploy_dir() -> Path:
    """`deploy/` beside `sql/`: in the checkout, or inside the installed wheel."""
    return sql_dir().parent / "deploy"


def this_platform() -> Platform:
    return "macos" if sys.platform == "darwin" else "linux"


def queue_worker_path() -> str:
    script = Path(sys.executable).parent / "queue-worker"
    return str(script) if script.exists() else (shutil.which("queue-worker") or str(script))


def service_path(platform: Platform, agent: str = "claude") -> str:
    """The PATH a service needs: where this installation's scripts and the agent (and node beside it) are,
    then the platform's usual folders; each folder once, in that order."""
    found = [str(Path(sys.executable).parent)]
    for program in (agent, "node"):
        where = shutil.which(program)
        if where:
            found.append(str(Path(where).parent))
    return ":".join(dict.fromkeys([*found, *BASE_PATH[platform]]))


def render(template: str, values: dict[str, str], comments: Mapping[str, str] | None = None) -> str:
    """The template with its @KEY@ filled in and, for a Dutch run, its comments said in Dutch (the catalogue's
    `service.` keys: the templates are written in English for the engineer who opens the repository)."""
    for english, said in (comments or {}).items():
        template = template.replace(english, said)
    for key, value in values.items():
        template = template.replace(f"@{key}@", value)
    return template


def service_file(
    bot: str, platform: Platform, *, home: Path, system: bool, user: str | None = None, language: str = "en"
) -> ServiceFile:
    command = queue_worker_path()
    if platform == "macos":
        return _launchd_file(bot, home, command, language)
    return _systemd_file(bot, home, command, system=system, user=user, language=language)


def _launchd_file(bot: str, home: Path, command: str, language: str) -> ServiceFile:
    env_dir = home / ".config" / "taak"
    log_file = home / "Library" / "Logs" / "taak" / f"queue-worker-{bot}.log"
    label = f"nl.taak.queue-worker.{bot}"
    text = render(
        (deploy_dir() / "launchd" / "nl.taak.queue-worker.plist").read_text(),
        {"BOT": bot, "ENV_DIR": str(env_dir), "QUEUE_WORKER": command, "LOG_DIR": str(log_file.parent)},
        from_english("service.launchd", "nl") if language == "nl" else None,
    )
    path = home / "Library" / "LaunchAgents" / f"{label}.plist"
    return ServiceFile(
        path,
        text,
        env_dir / f"{bot}.env",
        load=f"launchctl bootstrap gui/$(id -u) {path}",
        logs=f"tail -f {log_file}",
        stop=["launchctl", "bootout", f"gui/{os.getuid()}/{label}"],
        status=["launchctl", "print", f"gui/{os.getuid()}/{label}"],
        log_file=log_file,
    )


def _systemd_file(bot: str, home: Path, command: str, *, system: bool, user: str | None, language: str) -> ServiceFile:
    env_dir = Path("/etc/taak") if system else home / ".config" / "taak"
    unit_dir = Path("/etc/systemd/system") if system else home / ".config" / "systemd" / "user"
    text = render(
        (deploy_dir() / "systemd" / "queue-worker@.service").read_text(),
        {
            "ENV_DIR": str(env_dir),
            "QUEUE_WORKER": command,
            "WANTED_BY": "multi-user.target" if system else "default.target",
            "README": str(deploy_dir().parent / "README.md"),
            "USER_LINE": f"User={user}\n" if system and user else "",
            # What `systemctl status` shows, in the owner's language (%i: the bot, filled in by systemd).
            "DESCRIPTION": message("service.description", language),
        },
        from_english("service.systemd", "nl") if language == "nl" else None,
    )
    scope = [] if system else ["--user"]
    shown = "" if system else " --user"
    return ServiceFile(
        unit_dir / "queue-worker@.service",
        text,
        env_dir / f"{bot}.env",
        load=f"systemctl{shown} daemon-reload && systemctl{shown} enable --now queue-worker@{bot}",
        logs=f"journalctl{shown} -fu queue-worker@{bot}",
        stop=["systemctl", *scope, "disable", "--now", f"queue-worker@{bot}"],
        status=["systemctl", *scope, "status", "--no-pager", f"queue-worker@{bot}"],
        systemctl_scope=tuple(scope),
    )


def install(
    service: ServiceFile, bot: str, home: Path, *, path: str, owner: str | None = None, language: str = "en"
) -> list[Path]:
    make_folder(service.path.parent)
    service.path.write_text(service.text, encoding="utf-8")
    written = [service.path]
    if not service.env_file.exists():
        make_folder(service.env_file.parent)
        service.env_file.write_text(
            # The settings file the owner fills in, its comments in the run's language.
            message("service.env_file", language, bot=bot, home=home, path=path, run_language=language),
            encoding="utf-8",
        )
        os.chmod(service.env_file, 0o600)
        if owner is not None:  # a system unit runs as this user, who must read its own settings
            shutil.chown(service.env_file, user=owner)
        written.append(service.env_file)
    if service.log_file is not None:
        make_folder(service.log_file.parent)
    return written


def env_file_has_path(service: ServiceFile) -> bool:
    try:
        lines = service.env_file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    return any(line.strip().startswith(("PATH=", "export PATH=")) for line in lines)


def lingering(user: str) -> bool | None:
    """Does systemd keep this user's services running without a login? None: cannot tell (no loginctl)."""
    if shutil.which("loginctl") is None:
        return None
    try:
        shown = subprocess.run(
            ["loginctl", "show-user", user, "--property=Linger", "--value"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    value = shown.stdout.strip()
    return value == "yes" if value in ("yes", "no") else None


def other_bots(service: ServiceFile, bot: str) -> list[str]:
    """The other bots that still use the systemd template unit: enabled, when systemd can say so; else every
    bot whose settings file sits beside this one's."""
    folder = service.env_file.parent
    if not folder.is_dir():
        return []
    others = sorted(p.stem for p in folder.glob("*.env") if p.stem != bot)
    enabled = []
    for other in others:
        code, said = run_manager(["systemctl", *service.systemctl_scope, "is-enabled", f"queue-worker@{other}"])
        if code == NO_MANAGER or said.strip() not in ("enabled", "disabled", "static", "masked", "not-found"):
            return others  # systemd cannot tell: keep the template for anyone who may use it
        if said.strip() == "enabled":
            enabled.append(other)
    return enabled


NO_MANAGER = 127  # the service manager is not on this machine: nothing of it can be running


def said_by_manager(output: str, language: str) -> str:
    """systemctl's output as shown to the owner; its one common failure, no user bus to reach (a shell that is
    no login session: `su`, a container, ssh without lingering), said in the run's language with what to do."""
    if not manager_unreachable(output):
        return output
    return message("no_user_bus", language, user=getpass.getuser())


def manager_unreachable(output: str) -> bool:
    """The service manager is here but could not be asked (no user bus): it said nothing of the service. (One
    that is not on the machine at all runs nothing: that is an answer.)"""
    return "Failed to connect to bus" in output


def run_manager(words: list[str], language: str = "en") -> tuple[int, str]:
    """Run a service-manager command; its exit code and its output (or why it could not run)."""
    if shutil.which(words[0]) is None:
        return NO_MANAGER, message("manager_missing", language, program=words[0])
    try:
        done = subprocess.run(words, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, f"{words[0]}: {exc}"
    return done.returncode, (done.stdout + done.stderr).strip()
