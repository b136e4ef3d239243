"""Wall time of the hooks as Claude Code runs them: a process, start to exit."""

from __future__ import annotations

import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg

from tests.helpers import INBOX, ledger_on, outside, session_env, session_run
from worker.core.session_files import stand_path, write_stand
from worker.db.ledger import NewTask


def _time(command: list[str], env: dict[str, str], stdin: bytes, repeats: int) -> float:
    return _time_beside(command, env, stdin, repeats)[0]


def _time_beside(command: list[str], env: dict[str, str], stdin: bytes, repeats: int) -> tuple[float, float]:
    """The command's median ms and a bare `python -c pass`'s, the two run by turns: on this shared machine the load
    moves, and a baseline measured apart swung from 17 to 88 ms in one run (the outside try of issue 42)."""
    bare = [sys.executable, "-c", "pass"]
    if INBOX in env:  # a queue session's command: timed by a process of the session (the daemon answers no other)
        asked = json.dumps({"commands": [command, bare], "stdin": stdin.decode(), "repeats": repeats})
        done = session_run([sys.executable, "-c", TIMER], env=env, input=asked, timeout=600)
        assert done.returncode == 0, done.stderr
        timed, baseline = json.loads(done.stdout)
        return float(timed), float(baseline)
    timings: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for words, into, given in ((command, timings[0], stdin), (bare, timings[1], b"")):
            started = time.perf_counter()
            subprocess.run(words, env=env, input=given, capture_output=True, check=True)
            into.append(time.perf_counter() - started)
    return statistics.median(timings[0]) * 1000, statistics.median(timings[1]) * 1000


TIMER = """
import json, statistics, subprocess, sys, time
asked = json.loads(sys.stdin.read())
timings = [[] for _ in asked["commands"]]
for _ in range(asked["repeats"]):
    for command, into in zip(asked["commands"], timings):
        started = time.perf_counter()
        given = asked["stdin"].encode() if command is asked["commands"][0] else b""
        subprocess.run(command, input=given, capture_output=True, check=True)
        into.append(time.perf_counter() - started)
print(json.dumps([statistics.median(t) * 1000 for t in timings]))
"""


async def hooks_table(url: str, *, repeats: int) -> str:
    conn = await asyncpg.connect(url)
    try:
        ledger = ledger_on(conn)
        task_id = await ledger.nieuw(NewTask("Meet de hooks", "bench", toegewezen_aan="bench", volgende_stap="meten"))
        claim = await ledger.claim(["bench"])
        assert claim is not None
    finally:
        await conn.close()
    with tempfile.TemporaryDirectory() as folder:
        # As on the bots' machines, Python may cache compiled modules (this workplace sets
        # PYTHONDONTWRITEBYTECODE, which makes every start compile the package again).
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            TAAK_DATABASE_URL=url,
            TAAK_DATA_DIR=str(Path(folder) / "data"),
            TAAK_ID=task_id,
            TAAK_TOKEN=claim.token,
            TAAK_BOT="bench",
        )
        taak = [sys.executable, "-m", "worker.cli.taak", "hook"]
        _time([*taak, "session-start"], env, b"{}", 1)  # fills the bytecode cache
        bare = _time([sys.executable, "-c", "pass"], env, b"", repeats)
        start = _time([*taak, "session-start"], env, json.dumps({"source": "compact"}).encode(), repeats)
        turn = json.dumps({"prompt": "ga door"}).encode()
        prompt_db = _time([*taak, "prompt"], env, turn, repeats)
        # What the daemon leaves for a queue session: the prompt hook then needs no database.
        write_stand(Path(folder) / "data", task_id, status="bezig", volgende_stap="meten")
        stand = str(stand_path(Path(folder) / "data", task_id))
        prompt = _time([*taak, "prompt", "--stand", stand], env, turn, repeats)
        # The owner's own sessions, with no task: files only (worker/hooks/owner.py).
        owner_env = {k: v for k, v in env.items() if k not in ("TAAK_ID", "TAAK_TOKEN", "TAAK_BOT")}
        owner_start = _time([*taak, "session-start"], owner_env, json.dumps({"source": "startup"}).encode(), repeats)
        owner_prompt = _time([*taak, "prompt"], owner_env, turn, repeats)
    return "\n".join(
        [
            f"### Hooks, wall time as a process (median of {repeats}; with the database; bytecode cached)",
            "",
            "| hook | median ms | goal | bare `python -c pass` ms |",
            "|---|---:|---|---:|",
            f"| session-start (compact) | {start:.0f} | <= 250 | {bare:.0f} |",
            f"| prompt (queue session) | {prompt:.0f} | <= 150 | {bare:.0f} |",
            f"| prompt (no session file: the database) | {prompt_db:.0f} | | {bare:.0f} |",
            f"| session-start (startup, the owner's session, no task) | {owner_start:.0f} | <= 100 | {bare:.0f} |",
            f"| prompt (the owner's session, no task) | {owner_prompt:.0f} | <= 100 | {bare:.0f} |",
        ]
    )


async def session_table(url: str, *, repeats: int) -> str:
    """`taak log` and the hooks inside a real queue session (through the daemon's socket and journal),
    beside the direct database path and a bare interpreter."""
    from tests.system.harness import Daemon, records, switch_on, worker_env

    conn = await asyncpg.connect(url)
    try:
        await switch_on(conn, "paco")
        await ledger_on(conn).nieuw(NewTask("Meet de sessie", "bench", toegewezen_aan="paco"))
    finally:
        await conn.close()
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(worker_env(url, Path(folder), mode="busy"), Path(folder) / "worker.log")
        try:
            deadline = time.monotonic() + 30
            while not records(Path(folder)) and time.monotonic() < deadline:
                time.sleep(0.1)
            record = records(Path(folder))[0]
            session = {k: v for k, v in session_env(record).items() if k != "PYTHONDONTWRITEBYTECODE"}
            direct = {k: v for k, v in outside(session).items() if k != "TAAK_SOCKET"} | {"TAAK_DATABASE_URL": url}
            taak = [sys.executable, "-m", "worker.cli.taak"]
            log = [*taak, "log", "stap_klaar", "gemeten"]
            _time(log, session, b"", 1)  # fills the bytecode cache
            bare = _time([sys.executable, "-c", "pass"], outside(session), b"", repeats)
            via_daemon = _time(log, session, b"", repeats)
            via_database = _time(log, direct, b"", repeats)
            start = _time(
                [*taak, "hook", "session-start"], session, json.dumps({"source": "compact"}).encode(), repeats
            )
            stand = str(stand_path(Path(session["TAAK_DATA_DIR"]), session["TAAK_ID"]))
            turn = json.dumps({"prompt": "ga door"}).encode()
            prompt = _time([*taak, "hook", "prompt", "--stand", stand], session, turn, repeats)
        finally:
            daemon.stop()
    return "\n".join(
        [
            f"### Inside a queue session, as a process (median of {repeats}; bytecode cached)",
            "",
            "| command | median ms | ratio to `python -c pass` |",
            "|---|---:|---:|",
            f"| bare `python -c pass` | {bare:.0f} | 1.0x |",
            f"| `taak log` through the daemon (socket, journal, then Postgres) | {via_daemon:.0f} | "
            f"{via_daemon / bare:.1f}x |",
            f"| `taak log` straight to the database (the owner's path) | {via_database:.0f} | "
            f"{via_database / bare:.1f}x |",
            f"| `taak hook session-start` (compact, from the daemon) | {start:.0f} | {start / bare:.1f}x |",
            f"| `taak hook prompt --stand` | {prompt:.0f} | {prompt / bare:.1f}x |",
        ]
    )


async def startup_table(url: str, *, repeats: int) -> str:
    """The owner's commands as processes beside a bare interpreter (issue 16): help needs no settings and no
    database driver; a read pays for them and one connection."""
    conn = await asyncpg.connect(url)
    try:
        await ledger_on(conn).nieuw(NewTask("Meet het opstarten", "bench", toegewezen_aan="bench"))
    finally:
        await conn.close()
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(TAAK_DATABASE_URL=url, TAAK_DATA_DIR=str(Path(folder) / "data"))
        taak = [sys.executable, "-m", "worker.cli.taak"]
        _time([*taak, "lijst"], env, b"", 1)  # fills the bytecode cache
        bare = _time([sys.executable, "-c", "pass"], env, b"", repeats)
        figures = [
            ("`taak --help`", _time([*taak, "--help"], env, b"", repeats), "<= 100"),
            ("`taak lijst --help`", _time([*taak, "lijst", "--help"], env, b"", repeats), "<= 100"),
            (
                "`taak lijst` (settings, asyncpg, one connection, one query)",
                _time([*taak, "lijst"], env, b"", repeats),
                "<= 300",
            ),
        ]
    rows = [f"| {name} | {ms:.0f} | {goal} | {ms / bare:.1f}x |" for name, ms, goal in figures]
    return "\n".join(
        [
            f"### Start-up of the owner's commands ({repeats} runs each, median)",
            "",
            "| command, as a process | ms | goal ms | ratio to `python -c pass` |",
            "|---|---:|---|---:|",
            f"| bare `python -c pass` | {bare:.0f} | | 1.0x |",
            *rows,
        ]
    )


async def waiting_table(url: str, *, repeats: int, recall_lines: int) -> str:
    """Issue 42, where someone waits: each command a whole process (bytecode cached) beside a bare interpreter
    measured in the same run, as a ratio: `taak log` and the hooks inside a real queue session (through the
    daemon's socket), the owner's commands straight to the database, and `taak recall` on a local archive of
    `recall_lines` lines."""
    from tests.bench.memory_bench import _write_archive
    from tests.system.harness import Daemon, records, switch_on, worker_env
    from worker.memory.index import Index
    from worker.memory.layout import Layout
    from worker.proc import running_commands

    conn = await asyncpg.connect(url)
    try:
        await switch_on(conn, "paco")
        await ledger_on(conn).nieuw(NewTask("Meet het wachten", "bench", toegewezen_aan="paco"))
        owners = await ledger_on(conn).nieuw(NewTask("Bekijk het wachten", "bench", toegewezen_aan="bench"))
    finally:
        await conn.close()
    rows: list[tuple[str, tuple[float, float], str]] = []  # a command, (its ms, a bare interpreter's by turns)
    with tempfile.TemporaryDirectory() as folder:
        base = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_") and k != "PYTHONDONTWRITEBYTECODE"}
        taak = [sys.executable, "-m", "worker.cli.taak"]
        owner = {**base, "TAAK_DATABASE_URL": url, "TAAK_DATA_DIR": str(Path(folder) / "eigenaar")}
        _time([*taak, "lijst"], owner, b"", 1)  # fills the bytecode cache
        daemon = Daemon(worker_env(url, Path(folder), mode="busy"), Path(folder) / "worker.log")
        try:
            deadline = time.monotonic() + 30
            while not records(Path(folder)) and time.monotonic() < deadline:
                time.sleep(0.1)
            session = {k: v for k, v in session_env(records(Path(folder))[0]).items() if k != "PYTHONDONTWRITEBYTECODE"}
            stand = str(stand_path(Path(session["TAAK_DATA_DIR"]), session["TAAK_ID"]))
            hook = [*taak, "hook"]
            in_session = [
                ("`taak log stap_klaar ...` (through the daemon)", [*taak, "log", "stap_klaar", "gemeten"], b""),
                ("`taak hook session-start` (compact)", [*hook, "session-start"], b'{"source": "compact"}'),
                ("`taak hook pre-compact`", [*hook, "pre-compact"], b'{"trigger": "auto", "session_id": "s1"}'),
                ("`taak hook prompt --stand`", [*hook, "prompt", "--stand", stand], b'{"prompt": "ga door"}'),
            ]
            for name, command, stdin in in_session:
                rows.append((f"queue session: {name}", _time_beside(command, session, stdin, repeats), "<= 4x"))
        finally:
            daemon.stop()
        for name, words in [
            ("`taak lijst`", ["lijst"]),
            ("`taak toon ID`", ["toon", owners]),
            ('`taak log ID notitie "..."`', ["log", owners, "notitie", "gemeten"]),
        ]:
            rows.append((f"owner: {name}", _time_beside([*taak, *words], owner, b"", repeats), "<= 15x"))
        local = Path(folder) / "archief"
        _write_archive(Layout(local).archive, recall_lines, datetime.now(UTC) - timedelta(days=365))
        index = Index(Layout(local).index)
        index.update(sorted(Layout(local).archive.glob("*/*.jsonl")))
        index.close()
        recall_env = {**owner, "TAAK_DATA_DIR": str(local)}
        searches = [
            ("a time phrase and words", ["vorige week budget veranda"], {}),
            ("words only", ["budget veranda"], {}),
            (
                "a time phrase and words, semantic extra switched off",
                ["vorige week budget veranda"],
                {"TAAK_SEMANTIC": "false"},
            ),
        ]
        for name, words, extra in searches:
            _time([*taak, "recall", *words], {**recall_env, **extra}, b"", 1)  # the index into the page cache
            searched = _time_beside([*taak, "recall", *words], {**recall_env, **extra}, b"", repeats)
            rows.append((f"`taak recall` on {recall_lines:,} lines here: {name}", searched, "<= 8x"))
        for pid, args in running_commands():  # a recall that fell back to meaning started the model's helper
            if "worker.memory.embedder" in args and folder in args:
                os.kill(pid, signal.SIGTERM)
    lines = [f"| {name} | {ms:.0f} | {bare:.0f} | {ms / bare:.1f}x | {goal} |" for name, (ms, bare), goal in rows]
    return "\n".join(
        [
            f"### Start-up where someone waits (issue 42; median of {repeats}; whole process, bytecode cached; "
            "each command by turns with a bare `python -c pass`)",
            "",
            "| command, as a process | ms | bare ms | ratio to `python -c pass` | goal |",
            "|---|---:|---:|---:|---|",
            *lines,
        ]
    )
