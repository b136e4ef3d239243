"""Issue 42: the commands someone waits for load only what they need. `taak log` and the hooks inside a queue
session, and `taak recall` on this machine's archive, never load pydantic, the settings class, the database driver
or an event loop: an import that brings one back fails here, before the start-up figures
(`python -m tests.bench --only hooks`) show it. What a process loaded is read from `python -X importtime`."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.bench.memory_bench import _write_archive
from worker.core.session_files import stand_path, write_stand
from worker.memory.index import Index
from worker.memory.layout import Layout

HEAVY = {"asyncpg", "asyncio", "anyio", "structlog", "worker.settings"}
TASK_ID = "HV-20261205-001"


def loaded(env: dict[str, str], *words: str, stdin: bytes = b"") -> set[str]:
    """The heavy modules (HEAVY) a `taak` process loaded."""
    names = imported(env, *words, stdin=stdin)
    return {
        name if name in HEAVY else name.split(".")[0] for name in names if name in HEAVY or name.split(".")[0] in HEAVY
    }


def imported(env: dict[str, str], *words: str, stdin: bytes = b"") -> list[str]:
    """The modules a `taak` process loaded, as `python -X importtime` lists them on stderr."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "worker.cli.taak", *words],
        env=env,
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
    )
    err = done.stderr.decode()
    assert done.returncode == 0, err
    names = re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", err, re.MULTILINE)
    assert "worker.cli.taak" in names or "worker.cli.guard" in names  # the listing was read
    return names


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[Path]:
    """A socket that answers every request as the daemon answers a write it kept (worker/daemon/gate.py)."""
    path = tmp_path / "d.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen()

    def serve() -> None:
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                request = b""
                while not request.endswith(b"\n"):
                    chunk = connection.recv(65536)
                    if not chunk:
                        break
                    request += chunk
                connection.sendall(json.dumps({"code": 0, "out": f"genoteerd bij {TASK_ID}"}).encode() + b"\n")

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield path
    finally:
        server.close()


def _env(tmp_path: Path, **values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    return {**env, "TAAK_DATA_DIR": str(tmp_path / "data"), **values}


def test_taak_log_in_a_queue_session_asks_the_daemon_with_the_standard_library(tmp_path: Path, daemon: Path) -> None:
    env = _env(tmp_path, TAAK_SOCKET=str(daemon), TAAK_ID=TASK_ID, TAAK_TOKEN="t")
    assert loaded(env, "log", "notitie", "gemeten") == set()


def test_taak_log_in_a_queue_session_loads_not_even_typing_or_pathlib(tmp_path: Path, daemon: Path) -> None:
    """Each was 4 to 5 ms of the 4x a bare interpreter that a bot's every step may take (issue 42)."""
    env = _env(tmp_path, TAAK_SOCKET=str(daemon), TAAK_ID=TASK_ID, TAAK_TOKEN="t")
    assert {"typing", "pathlib"} & set(imported(env, "log", "notitie", "gemeten")) == set()


@pytest.mark.parametrize(
    ("hook", "stdin"),
    [
        (["session-start"], b'{"source": "compact"}'),
        (["pre-compact"], b'{"trigger": "auto", "session_id": "s1"}'),
        (["prompt", "--stand"], b'{"prompt": "ga door"}'),
    ],
)
def test_a_queue_sessions_hook_loads_nothing_heavy(tmp_path: Path, daemon: Path, hook: list[str], stdin: bytes) -> None:
    env = _env(tmp_path, TAAK_SOCKET=str(daemon), TAAK_ID=TASK_ID, TAAK_TOKEN="t")
    if hook[-1] == "--stand":
        write_stand(tmp_path / "data", TASK_ID, status="bezig", volgende_stap="meten")
        hook = [*hook, str(stand_path(tmp_path / "data", TASK_ID))]
    assert loaded(env, "hook", *hook, stdin=stdin) == set()


def test_recall_on_this_machines_archive_loads_no_settings_class_and_no_driver(tmp_path: Path) -> None:
    layout = Layout(tmp_path / "data")
    _write_archive(layout.archive, 2_000, datetime.now(UTC) - timedelta(days=365))
    index = Index(layout.index)
    index.update(sorted(layout.archive.glob("*/*.jsonl")))
    index.close()
    # The semantic extra is another matter (its model's helper): switched off, the search is the word index's.
    env = _env(tmp_path, TAAK_SEMANTIC="false", TAAK_LANGUAGE="en")
    assert loaded(env, "recall", "last week budget veranda") == set()


def test_recall_with_the_semantic_extra_on_loads_no_package_metadata_and_no_subprocess(tmp_path: Path) -> None:
    """They serve the extra's install hint and the start of the model's helper: a recall whose words are found
    needs neither (they took ~10 ms of its start)."""
    layout = Layout(tmp_path / "data")
    _write_archive(layout.archive, 2_000, datetime.now(UTC) - timedelta(days=365))
    index = Index(layout.index)
    index.update(sorted(layout.archive.glob("*/*.jsonl")))
    index.close()
    names = imported(_env(tmp_path, TAAK_SEMANTIC="true", TAAK_LANGUAGE="en"), "recall", "budget veranda")
    assert "worker.memory.semantic" in names  # the extra's side was opened
    assert not {"importlib.metadata", "subprocess"} & set(names)


def test_a_verb_built_alone_reads_its_words_as_among_all_verbs() -> None:
    """`taak VERB` builds only that verb's parser (worker/cli/taak.build_parser): the same help, the same usage."""
    from worker.cli import memory, tasks
    from worker.cli.args import _subparsers
    from worker.cli.taak import MEMORY_VERBS, build_parser

    assert set(MEMORY_VERBS) == set(memory.PARSERS)
    everything = _subparsers(build_parser()).choices
    for verb in [*tasks.PARSERS, *MEMORY_VERBS]:
        alone = _subparsers(build_parser(verb=verb)).choices
        assert list(alone) == [verb]
        assert alone[verb].format_help() == everything[verb].format_help()
