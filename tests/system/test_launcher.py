"""The launcher a session starts through: transparent to the agent's exit, and fatal to the session's whole
process group once the daemon's end of the lifeline closes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system.harness import pid_alive
from worker.proc import supervised_argv


def _launch(argv: list[str], stderr: int | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """The launcher in a new session, as the daemon starts it; returns it and the lifeline's write end."""
    lifeline, held = os.pipe()
    try:
        process = subprocess.Popen(
            supervised_argv(argv, lifeline), pass_fds=(lifeline,), start_new_session=True, stderr=stderr
        )
    finally:
        os.close(lifeline)
    return process, held


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize(("script", "expected"), [("exit 0", 0), ("exit 3", 3), ("kill -TERM $$", -signal.SIGTERM)])
def test_the_launcher_ends_as_its_agent_ended(script: str, expected: int) -> None:
    process, held = _launch(["sh", "-c", script])
    try:
        assert process.wait(timeout=30) == expected
    finally:
        os.close(held)


def test_a_sigterm_to_the_group_reaches_the_agent_and_the_launcher_reports_its_exit(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    agent = f"trap 'exit 7' TERM; touch {ready}; while :; do sleep 0.05; done"
    process, held = _launch(["sh", "-c", agent])
    try:
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(process.pid, signal.SIGTERM)
        assert process.wait(timeout=30) == 7
    finally:
        os.close(held)


def test_a_missing_agent_is_exit_127_with_its_name_and_error_number_on_stderr() -> None:
    import errno

    from worker.core.launch import failed_start

    process, held = _launch(["taak-geen-agent-hier"], stderr=subprocess.PIPE)
    try:
        _, stderr = process.communicate(timeout=30)
    finally:
        os.close(held)
    assert process.returncode == 127
    # A line the daemon reads back and says in the run's language (the OS's strerror is English).
    assert failed_start(stderr.decode()) == (errno.ENOENT, "taak-geen-agent-hier")


def test_a_cut_lifeline_kills_the_agent_and_a_child_that_ignores_sigterm(tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    agent = f"trap '' TERM PIPE; sleep 3600 & echo $! > {child_pid}; wait"
    process, held = _launch(["sh", "-c", agent])
    deadline = time.monotonic() + 30
    while not child_pid.exists() or not child_pid.read_text().strip():
        assert time.monotonic() < deadline, "the agent never started its child"
        time.sleep(0.02)
    child = int(child_pid.read_text())
    assert process.poll() is None
    os.close(held)  # what the kernel does when the daemon dies, even by kill -9
    assert process.wait(timeout=5) == -signal.SIGKILL
    assert _gone(child, timeout=5), "the agent's child outlived the lifeline"


def test_the_launcher_refuses_a_command_line_without_its_lifeline() -> None:
    done = subprocess.run([sys.executable, "-m", "worker.proc", "--", "true"], capture_output=True, check=False)
    assert done.returncode != 0
    assert b"usage: python -m worker.proc LIFELINE_FD -- ARGV..." in done.stderr
