"""`taak` and `queue-worker` as the tests run them: each command in a process of its own, forked from a server that
has started Python and imported the whole package once, instead of a new interpreter that imports it all again.

A `taak` process the tests started cost 80 to 200 ms of CPU, nearly all of it start-up, and the fast subset ran
about a thousand of them. The forked child is still a process of its own: its own pid, environment, folder, stdin,
stdout and stderr (kept for the answer, or appended to a daemon's log), its signals, its exit code or the signal
that ended it, and nothing of one command's state reaches the next. What it does not show is the command's
start-up and the interpreter's teardown of every module at its end (it ends as `_end_as_python_does` says); the
printed-command contract and the start-up benchmarks run `taak` as a user does.

`Forked.start` says None, and the caller starts the command as before, where forking is not the same: off Linux (a
fork without exec is unsafe on macOS once its system frameworks are loaded) and where the environment changes how
the interpreter itself starts (`PYTHON*`, the locale).

One connection a command: the request as JSON (program, argv, env, cwd, stdin, log), then the command's pid on a
line, then the answer as JSON when it has ended (the exit code, negative for a signal, stdout and stderr). Bytes
travel as latin-1 text.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn


def _interpreter_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(("PYTHON", "LC_", "LANG"))}


class _Server:
    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="taak-forked-")) / "socket"
        self.env = _interpreter_env(dict(os.environ))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.forked", str(self.path)],
            stdin=subprocess.PIPE,  # the server ends when the tests' process does: its stdin reaches end of file
            stdout=subprocess.PIPE,
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline() != b"ready\n":
            raise RuntimeError("the forked taak server did not start")


_server: _Server | None = None


def run(
    argv: list[str], env: dict[str, str], cwd: Path | None, stdin: bytes, timeout: float
) -> tuple[int, str, str] | None:
    """`taak argv` in a forked process: its exit code, stdout and stderr; None where it cannot be forked."""
    started = Forked.start("taak", argv, env, cwd=cwd, stdin=stdin)
    if started is None:
        return None
    try:
        code = started.wait(timeout)
    except subprocess.TimeoutExpired:
        started.kill()
        raise
    return code, _text(started.answer["out"]), _text(started.answer["err"])


class Forked:
    """A command running in a forked process, as much of `subprocess.Popen` as the tests use."""

    def __init__(self, argv: list[str], client: socket.socket) -> None:
        self.args = argv
        self._client = client
        self._answers = client.makefile("rb")
        self.pid = int(self._answers.readline())
        self.returncode: int | None = None
        self.answer: dict[str, Any] = {}

    @classmethod
    def start(
        cls,
        program: str,
        argv: list[str],
        env: dict[str, str],
        *,
        cwd: Path | None = None,
        stdin: bytes = b"",
        log: Path | None = None,
    ) -> Forked | None:
        """`program argv` (taak or queue-worker) forked; its stdout and stderr kept for the answer, or appended to
        `log`; None where it cannot be forked."""
        global _server
        if not sys.platform.startswith("linux"):
            return None
        wanted = _interpreter_env(env)
        if _server is None or _server.process.poll() is not None:
            if wanted != _interpreter_env(dict(os.environ)):
                return None  # a server started now could not run it either
            _server = _Server()
        if wanted != _server.env:
            return None
        request = {
            "program": program,
            "argv": argv,
            "env": env,
            "cwd": str(cwd or Path.cwd()),
            "stdin": stdin.decode("latin-1"),
            "log": str(log) if log else None,
        }
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(_server.path))
        client.sendall(json.dumps(request).encode())
        client.shutdown(socket.SHUT_WR)
        return cls(argv, client)

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self._client], [], [], 0)[0]:
            self.wait(None)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._client.settimeout(timeout)
            try:
                self.answer = json.loads(self._answers.read())
            except TimeoutError:
                raise subprocess.TimeoutExpired(self.args, timeout or 0) from None
            self.returncode = int(self.answer["code"])
            self._answers.close()
            self._client.close()
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # ended since, its answer on its way: as Popen, no signal
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def _text(latin: str) -> str:
    return latin.encode("latin-1").decode()  # as subprocess's output is decoded: strictly UTF-8


# --- the server: one per test process, started by the first `run` --------------------------------------------


def _preload() -> None:
    """Every module of the package (and so every library it imports), imported once here, never run."""
    import importlib
    import pkgutil

    import worker

    for module in pkgutil.walk_packages(worker.__path__, "worker."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


def _serve(path: str) -> tuple[dict[str, Any], socket.socket]:
    """Fork a waiter for each connection; return only in a waiter, with its connection."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the waiters are reaped as they end
    watch = selectors.DefaultSelector()
    watch.register(listener, selectors.EVENT_READ)
    watch.register(sys.stdin, selectors.EVENT_READ)
    print("ready", flush=True)
    while True:
        for key, _ in watch.select():
            if key.fileobj is sys.stdin:  # the tests' process is gone
                os.unlink(path)
                os.rmdir(os.path.dirname(path))
                raise SystemExit(0)
            conn, _ = listener.accept()
            if os.fork() == 0:
                watch.close()
                listener.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                with conn.makefile("rb") as asked:
                    return json.loads(asked.read()), conn
            conn.close()


def _fork_the_command(request: dict[str, Any], conn: socket.socket) -> dict[str, Any]:
    """In a waiter: fork the command's process, answer with how it ended, and end; return only in the command's
    process, with its request."""
    # Held open until the process ends (os._exit), in the waiter and in the command's process alike.
    given, out, err = (tempfile.TemporaryFile() for _ in range(3))  # noqa: SIM115
    given.write(request["stdin"].encode("latin-1"))
    given.seek(0)
    pid = os.fork()
    if pid == 0:
        conn.close()
        outputs = [out.fileno(), err.fileno()]
        if request["log"]:  # a daemon's: its stdout and stderr both, as the harness's Popen had them
            outputs = [os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)] * 2
        for fd, source in enumerate([given.fileno(), *outputs]):
            os.dup2(source, fd)
        return request
    conn.sendall(f"{pid}\n".encode())
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    said: dict[str, str] = {}
    for name, file in (("out", out), ("err", err)):
        file.seek(0)
        said[name] = file.read().decode("latin-1")
    conn.sendall(json.dumps({"code": code, **said}).encode())
    os._exit(0)


def _run_command(request: dict[str, Any]) -> NoReturn:
    """In the command's process: its environment and folder, then the program as `python -m` runs it."""
    import time

    from worker.cli import queue_worker, taak

    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    os.chdir(request["cwd"])
    main = {"taak": taak.main, "queue-worker": queue_worker.main}[request["program"]]
    sys.argv = [main.__code__.co_filename, *request["argv"]]
    _end_as_python_does(lambda: main(request["argv"]))


def _end_as_python_does(command: Callable[[], None]) -> NoReturn:
    """The exit code, traceback and atexit handlers a Python process has at its end, without its teardown of every
    module: with the whole package loaded that took 25 to 50 ms a command, more than most commands take."""
    import atexit
    import traceback

    try:
        command()
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except KeyboardInterrupt:  # after the traceback, Python ends itself with SIGINT
        traceback.print_exc()
        code = -signal.SIGINT
    except BaseException:
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _exit_code(given: object) -> int:
    if given is None:
        return 0
    if isinstance(given, int):
        return given & 0xFF
    print(given, file=sys.stderr)
    return 1


if __name__ == "__main__":
    _preload()
    gc.freeze()  # the preloaded objects stay out of every collection, so that no child copies their pages for one
    _run_command(_fork_the_command(*_serve(sys.argv[1])))
