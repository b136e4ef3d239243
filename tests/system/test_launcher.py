"""The launcher a session starts through: transparent to the agent's exit, and fatal to the session's whole tree
once the daemon's end of the lifeline closes, or once the daemon is late confirming the lease."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.system.harness import pid_alive
from worker.proc import confirm_lease, lease_clock, supervised_argv


def _launch(
    argv: list[str], stderr: int | None = None, *, stop_in: float = 3600, umask: int = 0o022
) -> tuple[subprocess.Popen[bytes], int]:
    """The launcher in a new session, as the daemon starts it; returns it and the lifeline's write end."""
    lifeline, held = os.pipe()
    try:
        argv = supervised_argv(argv, lifeline, stop_by=lease_clock() + stop_in, umask=umask)
        process = subprocess.Popen(argv, pass_fds=(lifeline,), start_new_session=True, stderr=stderr)
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
    assert b"usage: python -m worker.proc LIFELINE_FD STOP_BY UMASK -- ARGV..." in done.stderr


def _wait_for_pid(path: Path) -> int:
    deadline = time.monotonic() + 30
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < deadline, f"no pid in {path}"
        time.sleep(0.02)
    return int(path.read_text())


def test_a_daemon_that_confirms_nothing_loses_its_session_by_the_time_it_was_given(tmp_path: Path) -> None:
    """A frozen daemon (SIGSTOP) holds its end of the lifeline open and says nothing: the session must stop
    before its lease can end at the database, with everything it started, also what left its process group
    (the real Claude Code runs each tool call with setsid)."""
    detached = tmp_path / "detached.pid"
    agent = f"trap '' TERM PIPE; setsid sh -c 'echo $$ > {detached}; exec sleep 3600' & wait"
    began = time.monotonic()
    process, held = _launch(["sh", "-c", agent], stderr=subprocess.PIPE, stop_in=2)
    try:
        tool_call = _wait_for_pid(detached)
        _, stderr = process.communicate(timeout=30)
    finally:
        os.close(held)
    assert process.returncode == -signal.SIGKILL
    assert 1.5 < time.monotonic() - began < 10
    assert b"did not confirm the lease in time" in stderr
    assert _gone(tool_call, timeout=5), "a tool call in a session of its own outlived the session"


@pytest.mark.slow
def test_each_confirmation_gives_the_session_the_time_it_names(tmp_path: Path) -> None:
    process, held = _launch(["sleep", "3600"], stop_in=1.5)
    try:
        for _ in range(6):  # three seconds, past the first time given, confirmed each half second
            confirm_lease(held, lease_clock() + 1.5)
            time.sleep(0.5)
        assert process.poll() is None
        assert process.wait(timeout=10) == -signal.SIGKILL  # confirmed no more: stopped by the last time given
    finally:
        os.close(held)


def test_the_agent_runs_with_the_users_umask_not_the_daemons(tmp_path: Path) -> None:
    made = tmp_path / "made"
    os.umask(old := os.umask(0o077))  # the daemon's own
    try:
        os.umask(0o077)
        process, held = _launch(["sh", "-c", f"touch {made}"], umask=0o002)
        try:
            assert process.wait(timeout=30) == 0
        finally:
            os.close(held)
    finally:
        os.umask(old)
    assert made.stat().st_mode & 0o777 == 0o664


def test_what_a_session_leaves_running_when_its_agent_exits_goes_with_it(tmp_path: Path) -> None:
    detached = tmp_path / "detached.pid"
    agent = f"setsid sh -c 'echo $$ > {detached}; exec sleep 3600' & sleep 0.5; exit 0"
    process, held = _launch(["sh", "-c", agent])
    try:
        assert process.wait(timeout=30) == 0
    finally:
        os.close(held)
    assert _gone(_wait_for_pid(detached), timeout=5)
