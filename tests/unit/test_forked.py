"""The tests' forked `taak` (tests/forked.py) ends as the command started as a process does: the same exit code,
stdout and stderr, and nothing of one command's environment reaches the next."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import forked

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the tests fork only on Linux")


def _as_a_process(argv: list[str], env: dict[str, str], cwd: Path, stdin: bytes) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "worker.cli.taak", *argv], env=env, cwd=cwd, input=stdin, capture_output=True
    )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.parametrize(
    ("argv", "language", "stdin"),
    [
        (["--help"], "nl", b""),
        (["lijst", "--help"], "en", b""),
        (["lijst", "--geen-optie"], "nl", b""),  # a usage error: exit 2 and one line
        (["log"], "en", b""),
        (["log", "HV-20261206-001", "notitie", "-"], "nl", b"hoi\xff"),  # stdin read, refused before any database
        (["hook", "prompt"], "nl", b"{not json"),  # a hook never fails its session: exit 0, the line in its log
    ],
)
def test_a_forked_command_ends_as_the_same_command_started_as_a_process(
    argv: list[str], language: str, stdin: bytes, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "TAAK_LANGUAGE": language,
        "TAAK_DATA_DIR": str(tmp_path / "data"),
        "TAAK_DATABASE_URL": "postgresql://nobody@127.0.0.1:9/none",
    }
    forked_run = forked.run(argv, env, tmp_path, stdin, 60)
    assert forked_run == _as_a_process(argv, env, tmp_path, stdin)


def test_a_forked_command_runs_in_its_folder_with_only_the_environment_it_was_given(tmp_path: Path) -> None:
    """Its folder's `.env` says English, and the environment that said so to the command before it is gone."""
    (tmp_path / ".env").write_text("TAAK_LANGUAGE=en\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env["TAAK_DATABASE_URL"] = "postgresql://nobody@127.0.0.1:9/none"
    said_before = forked.run(["lijst", "--geen-optie"], {**env, "TAAK_LANGUAGE": "en"}, elsewhere, b"", 60)
    in_its_folder = forked.run(["lijst", "--geen-optie"], env, tmp_path, b"", 60)
    elsewhere_now = forked.run(["lijst", "--geen-optie"], env, elsewhere, b"", 60)
    assert said_before == in_its_folder == _as_a_process(["lijst", "--geen-optie"], env, tmp_path, b"")
    assert elsewhere_now == _as_a_process(["lijst", "--geen-optie"], env, elsewhere, b"")
    assert elsewhere_now != in_its_folder


def test_a_forked_daemon_writes_its_output_to_its_log_and_ends_with_its_exit_code(tmp_path: Path) -> None:
    env = {**os.environ, "TAAK_DATA_DIR": str(tmp_path), "TAAK_LANGUAGE": "en"}
    started = forked.Forked.start("queue-worker", ["--geen-optie"], env, log=tmp_path / "forked.log")
    assert started is not None
    with (tmp_path / "process.log").open("ab") as log:
        done = subprocess.run(
            [sys.executable, "-m", "worker.cli.queue_worker", "--geen-optie"], env=env, stdout=log, stderr=log
        )
    assert started.wait(60) == done.returncode == 2
    assert (tmp_path / "forked.log").read_text() == (tmp_path / "process.log").read_text() != ""


def test_a_command_that_needs_another_interpreter_environment_starts_no_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(forked, "_server", None)
    env = {**os.environ, "PYTHONHASHSEED": "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"}
    assert forked.Forked.start("taak", ["--help"], env, cwd=tmp_path) is None
    assert forked._server is None
