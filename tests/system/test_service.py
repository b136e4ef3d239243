"""`queue-worker service install`: the files it writes are valid and point at this installation."""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def service(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
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
    assert f"EnvironmentFile={tmp_path}/.config/taak/%i.env" in unit
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


def test_the_launchd_agent_is_a_valid_plist_with_keepalive_and_log_files(tmp_path: Path) -> None:
    done = service(tmp_path, "--bot", "paco", "--platform", "macos", "--dry-run")
    assert done.returncode == 0, done.stderr
    plist = plistlib.loads(done.stdout.encode())
    assert plist["Label"] == "nl.taak.queue-worker.paco"
    assert plist["KeepAlive"] == {"SuccessfulExit": False}
    assert plist["ExitTimeOut"] == 60
    assert plist["EnvironmentVariables"]["TAAK_BOTS"] == "paco"
    assert plist["StandardOutPath"] == f"{tmp_path}/Library/Logs/taak/queue-worker-paco.log"
    assert plist["ProgramArguments"][-1].endswith('queue-worker"')
    if shutil.which("plutil"):
        path = tmp_path / "agent.plist"
        path.write_text(done.stdout)
        assert subprocess.run(["plutil", "-lint", str(path)], check=False).returncode == 0


@pytest.mark.parametrize("bot", ["", "paco; rm -rf /", "../x"])
def test_a_bad_bot_name_is_refused(tmp_path: Path, bot: str) -> None:
    done = service(tmp_path, "--bot", bot, "--platform", "linux")
    assert done.returncode == 2
    assert not (tmp_path / ".config").exists()
