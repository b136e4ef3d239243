"""`queue-worker service install`: the files it writes are valid and point at this installation."""

from __future__ import annotations

import json
import os
import plistlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def service(home: Path, *args: str, language: str = "nl") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "TAAK_LANGUAGE": language}
    return subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "service", "install", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_systemd_unit_restarts_on_failure_and_outlasts_the_drain(tmp_path: Path) -> None:
    done = service(tmp_path, "--bot", "paco", "--platform", "linux", "--dry-run")
    assert done.returncode == 0, done.stderr
    unit = done.stdout
    assert "Restart=on-failure" in unit
    assert "TimeoutStopSec=60" in unit
    assert "KillMode=mixed" in unit
    assert f"EnvironmentFile={tmp_path}/.config/taak/%i.env" in unit
    assert "Description=taak queue-worker voor bot %i" in unit  # what systemctl status shows, in the run's language
    assert "@" not in unit.replace("queue-worker@", "")  # every placeholder filled in
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    assert Path(exec_start.removeprefix("ExecStart=")).name == "queue-worker"
    assert "@" not in exec_start
    assert not (tmp_path / ".config").exists()  # a dry run writes nothing


def test_install_writes_the_unit_and_a_private_env_file_and_says_how_to_load_it(tmp_path: Path) -> None:
    done = service(tmp_path, "--bot", "paco", "--platform", "linux")
    assert done.returncode == 0, done.stderr
    unit = tmp_path / ".config" / "systemd" / "user" / "queue-worker@.service"
    env_file = tmp_path / ".config" / "taak" / "paco.env"
    assert unit.is_file()
    assert oct(env_file.stat().st_mode & 0o777) == "0o600"
    assert "systemctl --user daemon-reload && systemctl --user enable --now queue-worker@paco" in done.stdout
    assert "journalctl --user -fu queue-worker@paco" in done.stdout
    env_file.write_text("TAAK_DATABASE_URL=postgresql://x\n")
    service(tmp_path, "--bot", "paco", "--platform", "linux")
    assert env_file.read_text() == "TAAK_DATABASE_URL=postgresql://x\n"  # never overwritten
    if shutil.which("systemd-analyze"):
        instance = tmp_path / "queue-worker@paco.service"
        shutil.copy(unit, instance)
        verify = subprocess.run(
            ["systemd-analyze", "verify", str(instance)], capture_output=True, text=True, check=False
        )
        assert verify.returncode == 0, verify.stderr


@pytest.mark.parametrize(
    ("language", "said", "other"), [("nl", "Instellingen van", "Settings of"), ("en", "Settings of", "Instellingen")]
)
def test_the_settings_file_speaks_the_owners_language_and_its_path_line_is_read(
    tmp_path: Path, language: str, said: str, other: str
) -> None:
    from dotenv import dotenv_values

    done = service(tmp_path, "--bot", "paco", "--platform", "linux", language=language)
    assert done.returncode == 0, done.stderr
    env_file = tmp_path / ".config" / "taak" / "paco.env"
    comments = [line for line in env_file.read_text().splitlines() if line.startswith("#")]
    assert comments[0].startswith(f"# {said}")
    assert not any(other in line for line in comments)
    # The examples stay comments; the installer's language is the daemon's (an English install logged in Dutch)
    assert dotenv_values(env_file).keys() == {"PATH", "TAAK_LANGUAGE"}
    assert dotenv_values(env_file)["TAAK_LANGUAGE"] == language


def test_the_launchd_agent_is_a_valid_plist_with_keepalive_and_log_files(tmp_path: Path) -> None:
    done = service(tmp_path, "--bot", "paco", "--platform", "macos", "--dry-run")
    assert done.returncode == 0, done.stderr
    plist = plistlib.loads(done.stdout.encode())
    assert plist["Label"] == "nl.taak.queue-worker.paco"
    assert plist["KeepAlive"] == {"SuccessfulExit": False}
    assert plist["ExitTimeOut"] == 60
    assert plist["EnvironmentVariables"]["TAAK_BOTS"] == "paco"
    assert plist["StandardOutPath"] == f"{tmp_path}/Library/Logs/taak/queue-worker-paco.log"
    assert Path(plist["ProgramArguments"][0]).name == "queue-worker"
    assert plist["EnvironmentVariables"]["TAAK_ENV_FILE"] == f"{tmp_path}/.config/taak/paco.env"
    if shutil.which("plutil"):
        path = tmp_path / "agent.plist"
        path.write_text(done.stdout)
        assert subprocess.run(["plutil", "-lint", str(path)], check=False).returncode == 0


REPOSITORY = Path(__file__).resolve().parents[2]
TEMPLATES = {
    "linux": REPOSITORY / "deploy" / "systemd" / "queue-worker@.service",
    "macos": REPOSITORY / "deploy" / "launchd" / "nl.taak.queue-worker.plist",
}


def comments(text: str) -> list[str]:
    """A service file's comment lines: systemd's `#` lines and the text of launchd's `<!-- -->` blocks."""
    hashed = [line for line in text.splitlines() if line.startswith("#")]
    tagged = [line.strip() for block in re.findall(r"<!--(.*?)-->", text, re.S) for line in block.splitlines()]
    return [line for line in hashed + tagged if line.strip()]


@pytest.mark.parametrize("platform", ["linux", "macos"])
def test_the_installed_service_file_comments_in_the_runs_language(tmp_path: Path, platform: str) -> None:
    english = set(comments(TEMPLATES[platform].read_text()))
    dutch = service(tmp_path, "--bot", "paco", "--platform", platform, "--dry-run", language="nl")
    kept = service(tmp_path, "--bot", "paco", "--platform", platform, "--dry-run", language="en")
    assert dutch.returncode == kept.returncode == 0, dutch.stderr + kept.stderr
    said = comments(dutch.stdout)
    assert said
    assert not english & set(said), [line for line in said if line in english]
    assert set(comments(kept.stdout)) == english
    if platform == "macos":
        assert plistlib.loads(dutch.stdout.encode()) == plistlib.loads(kept.stdout.encode())
    else:
        assert [line for line in dutch.stdout.splitlines() if not line.startswith(("#", "Description="))] == [
            line for line in kept.stdout.splitlines() if not line.startswith(("#", "Description="))
        ]


@pytest.mark.parametrize("bot", ["", "paco; rm -rf /", "../x"])
def test_a_bad_bot_name_is_refused(tmp_path: Path, bot: str) -> None:
    done = service(tmp_path, "--bot", bot, "--platform", "linux")
    assert done.returncode == 2
    assert not (tmp_path / ".config").exists()


def test_the_unit_drains_on_stop_and_the_env_file_carries_the_path_where_claude_was_found(tmp_path: Path) -> None:
    tools = tmp_path / "home" / ".local" / "bin"
    tools.mkdir(parents=True)
    claude = tools / "claude"
    claude.write_text("#!/bin/sh\necho 2.1.332\n")
    claude.chmod(0o755)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "service", "install", "--bot", "paco", "--platform", "linux"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    unit = (tmp_path / "home" / ".config" / "systemd" / "user" / "queue-worker@.service").read_text()
    assert "KillMode=mixed" in unit.splitlines()
    settings = (tmp_path / "home" / ".config" / "taak" / "paco.env").read_text().splitlines()
    path = next(line for line in settings if line.startswith("PATH=")).removeprefix("PATH=").split(":")
    assert str(tools) in path
    assert str(Path(sys.executable).parent) in path
    # What systemd would do with that file: the agent is found with the service's own bare PATH.
    found = subprocess.run(
        ["env", "-i", f"PATH={':'.join(path)}", "sh", "-c", "command -v claude"], capture_output=True, text=True
    )
    assert found.stdout.strip() == str(claude)


def test_a_system_unit_runs_as_a_named_user_never_as_root(tmp_path: Path) -> None:
    refused = service(tmp_path, "--bot", "paco", "--platform", "linux", "--system", "--dry-run")
    assert refused.returncode == 2
    assert "--user" in refused.stderr
    as_root = service(tmp_path, "--bot", "paco", "--platform", "linux", "--system", "--user", "root", "--dry-run")
    assert as_root.returncode == 2
    assert as_root.stderr.strip() == (
        "queue-worker: --user root: de bot draait nooit als root; noem de gebruiker van wie de bot is"
    )  # the reason, not a request for the --user it was given
    done = service(tmp_path, "--bot", "paco", "--platform", "linux", "--system", "--user", "nobody", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "User=nobody" in done.stdout.splitlines()
    assert "EnvironmentFile=/etc/taak/%i.env" in done.stdout


# A stand-in for systemctl and launchctl: a real program on PATH that records how it was called, answers
# `is-enabled` from FAKE_ENABLED, and fails when FAKE_FAIL is set (as systemctl does without a user bus).
FAKE_MANAGER = """#!/bin/sh
echo "$(basename "$0") $*" >> "$FAKE_CALLS"
if [ -n "$FAKE_FAIL" ]; then echo "Failed to connect to bus: No medium found" >&2; exit 1; fi
case "$*" in
  *is-enabled*) for bot in $FAKE_ENABLED; do case "$*" in *"@$bot") echo enabled; exit 0;; esac; done
                echo disabled; exit 1;;
esac
exit 0
"""


def manage(home: Path, *args: str, fail: bool = False, enabled: str = "") -> subprocess.CompletedProcess[str]:
    tools = home / "fake-bin"
    tools.mkdir(parents=True, exist_ok=True)
    for name in ("systemctl", "launchctl", "loginctl"):
        (tools / name).write_text(FAKE_MANAGER)
        (tools / name).chmod(0o755)
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
        "FAKE_CALLS": str(home / "calls.txt"),
        "FAKE_ENABLED": enabled,
        "TAAK_LANGUAGE": "en",
    }
    if fail:
        env["FAKE_FAIL"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "service", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("platform", ["linux", "macos"])
def test_status_and_uninstall_find_remove_and_keep_the_right_files(tmp_path: Path, platform: str) -> None:
    assert manage(tmp_path, "status", "--bot", "paco", "--platform", platform).returncode == 3  # not installed
    installed = manage(tmp_path, "install", "--bot", "paco", "--platform", platform)
    assert installed.returncode == 0, installed.stderr
    if platform == "macos":
        assert "launchd does not rotate" in installed.stdout
    status = manage(tmp_path, "status", "--bot", "paco", "--platform", platform)
    assert status.returncode == 0, status.stdout
    assert "with PATH" in status.stdout
    unit = next(Path(line.split(": ")[0]) for line in status.stdout.splitlines() if line.endswith(": installed"))
    env_file = next(Path(line.split(": ")[0]) for line in status.stdout.splitlines() if ": there" in line)
    dry = manage(tmp_path, "uninstall", "--bot", "paco", "--platform", platform, "--dry-run")
    assert dry.returncode == 0
    assert unit.exists()
    refused = manage(tmp_path, "uninstall", "--bot", "paco", "--platform", platform, fail=True)
    assert refused.returncode == 1
    assert "nothing removed" in refused.stdout
    assert unit.exists()  # it may still run: its file stays
    gone = manage(tmp_path, "uninstall", "--bot", "paco", "--platform", platform)
    assert gone.returncode == 0, gone.stdout
    assert not unit.exists()
    assert env_file.exists()  # the owner's settings stay
    calls = (tmp_path / "calls.txt").read_text()
    assert ("systemctl --user disable --now queue-worker@paco" if platform == "linux" else "launchctl bootout") in calls


def test_the_systemd_template_stays_while_another_bot_has_it_enabled_and_goes_with_the_last(tmp_path: Path) -> None:
    for bot in ("paco", "sjakie"):
        assert manage(tmp_path, "install", "--bot", bot, "--platform", "linux").returncode == 0
    unit = tmp_path / ".config" / "systemd" / "user" / "queue-worker@.service"
    first = manage(tmp_path, "uninstall", "--bot", "paco", "--platform", "linux", enabled="sjakie")
    assert "sjakie" in first.stdout
    assert unit.exists()
    last = manage(tmp_path, "uninstall", "--bot", "sjakie", "--platform", "linux", enabled="")
    assert last.returncode == 0, last.stdout
    assert not unit.exists()  # paco's kept settings file does not keep it


def test_a_system_unit_needs_a_user_that_exists(tmp_path: Path) -> None:
    done = service(tmp_path, "--bot", "paco", "--platform", "linux", "--system", "--user", "niemand_hier", "--dry-run")
    assert done.returncode == 2
    assert "queue-worker: --user niemand_hier: die gebruiker bestaat niet op deze machine" in done.stderr


def test_the_settings_file_is_read_literally_so_a_password_with_shell_characters_stays_whole(
    db_url: str, tmp_path: Path
) -> None:
    from urllib.parse import urlsplit

    parts = urlsplit(db_url)  # the test server trusts its user, so any password connects; this one must arrive whole
    # The host as the test server is reached: a name and port, or the embedded server's socket (`?host=`).
    where = parts.netloc.rpartition("@")[2] + parts.path + (f"?{parts.query}" if parts.query else "")
    url = f"postgresql://{parts.username or 'postgres'}:pa$$w0rd&x@{where}"
    settings = tmp_path / "paco.env"
    settings.write_text(f"TAAK_DATABASE_URL={url}\nTAAK_LOG_FORMAT=json\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_ENV_FILE=str(settings),
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_LOCK_DIR=str(tmp_path / "locks"),
        TAAK_BOTS="paco",
        TAAK_SEMANTIC="false",
    )
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    started = next(json.loads(line) for line in done.stdout.splitlines() if '"worker_started"' in line)
    assert started["database"] == url.replace(":pa$$w0rd&x@", ":***@")
    assert "pa$$w0rd" not in done.stdout + done.stderr


@pytest.mark.parametrize(("language", "said"), [("nl", "staat niet op deze machine"), ("en", "is not on this machine")])
def test_without_the_service_manager_status_and_uninstall_say_so_in_the_runs_language(
    tmp_path: Path, language: str, said: str
) -> None:
    platform = "linux" if sys.platform == "darwin" else "macos"  # the other system's manager is not here
    bare = f"{Path(sys.executable).parent}{os.pathsep}/usr/bin{os.pathsep}/bin"
    env = {**os.environ, "HOME": str(tmp_path), "PATH": bare, "TAAK_LANGUAGE": language}
    manager = "systemctl" if platform == "linux" else "launchctl"
    if shutil.which(manager, path=bare):
        pytest.skip(f"{manager} is on this machine")

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        words = [sys.executable, "-m", "worker.cli.queue_worker", "service", *args, "--bot", "paco"]
        return subprocess.run([*words, "--platform", platform], env=env, capture_output=True, text=True, timeout=60)

    assert command("install").returncode == 0
    status, dry, gone = command("status"), command("uninstall", "--dry-run"), command("uninstall")
    assert status.returncode == 1
    for done in (status, dry, gone):
        assert f"{manager} {said}" in done.stdout, done.stdout
    assert gone.returncode == 0
    assert manager not in gone.stdout.replace(f"{manager} {said}", "")  # no command said to run that cannot run


def test_status_that_could_not_ask_systemd_exits_4_not_1(tmp_path: Path) -> None:
    """No user bus: systemd was not asked, yet status exited 1, which the README gives for "not running"."""
    assert manage(tmp_path, "install", "--bot", "paco", "--platform", "linux").returncode == 0
    status = manage(tmp_path, "status", "--bot", "paco", "--platform", "linux", fail=True)
    assert status.returncode == 4
    assert "systemctl cannot reach this user's systemd" in status.stdout


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b'TAAK_LANGUAGE=en\nTAAK_POLL_SECONDS="abc\n', "paco.env: line 2 is not NAME=VALUE"),
        (b"TAAK_LANGUAGE=en\nTAAK_OWNER=\xff\n", "paco.env: is not valid UTF-8"),
    ],
)
def test_a_settings_file_that_cannot_be_read_stops_the_daemon_before_it_claims(
    tmp_path: Path, content: bytes, said: str
) -> None:
    """python-dotenv skipped the broken line with an English warning and the daemon ran on the default; a file that
    is no UTF-8 ended in a traceback (outside try of the settings reader)."""
    settings = tmp_path / "paco.env"
    settings.write_bytes(content)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(TAAK_ENV_FILE=str(settings), TAAK_DATA_DIR=str(tmp_path / "data"), TAAK_BOTS="paco", TAAK_LANGUAGE="en")
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.queue_worker", "--once"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
