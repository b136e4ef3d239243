"""Why the embedded server did not start, in one line that names what failed and what it said."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from worker.db.embedded import _wait_until_ready, _why


def failed(command: list[str], stderr: bytes | str | None, stdout: bytes | str | None = None) -> Exception:
    return subprocess.CalledProcessError(1, command, output=stdout, stderr=stderr)


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (
            failed(["/x/bin/initdb", "-D", "d"], b"initdb: error: directory exists\n\n"),
            "initdb exit 1: initdb: error: directory exists",
        ),
        (
            failed(["/x/bin/pg_ctl", "start"], None, "waiting\npg_ctl: could not start server\n"),
            "pg_ctl exit 1: pg_ctl: could not start server",
        ),
        (failed(["initdb"], b""), "initdb exit 1: no output"),
        (Exception("postmaster.pid is stale\nmore"), "postmaster.pid is stale"),
        (Exception(""), "Exception"),
    ],
)
def test_the_reason_names_the_failed_program_and_its_last_words(exc: Exception, said: str) -> None:
    assert _why(exc) == said


def test_a_server_still_starting_is_waited_for_until_its_pid_file_says_ready(tmp_path: Path) -> None:
    pid_file = tmp_path / "postmaster.pid"
    pid_file.write_text("1\n/d\n0\n5432\n/s\n\n0 0\nstarting\n")
    later = threading.Timer(0.5, lambda: pid_file.write_text("1\n/d\n0\n5432\n/s\n\n0 0\nready\n"))
    later.start()
    _wait_until_ready(pid_file, seconds=30)
    assert pid_file.read_text().splitlines()[7] == "ready"
    assert not later.is_alive()
