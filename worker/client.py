"""A queue session's side of the socket to its daemon (worker/daemon/gate.py): one JSON line out, one back. The
session's `taak` and its hooks use it; it needs the standard library and the message catalogue only."""

from __future__ import annotations

import json
import socket

from worker.core.catalogue import message, os_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ANSWER_TIMEOUT_SECONDS = 15


class Unanswered(TimeoutError):
    """The daemon has the request but gave no answer in time: it may still carry it out (a daemon that was
    paused, or stalled), and a write it takes is kept, so the caller cannot know whether it happened."""


def exchange(path: str, request: dict[str, Any], *, timeout: float = ANSWER_TIMEOUT_SECONDS) -> Any:
    """One JSON line to the daemon and one back; OSError or ValueError when that cannot be had."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(timeout)
        connection.connect(path)
        connection.sendall(json.dumps(request, ensure_ascii=False).encode("utf-8") + b"\n")
        raw = b""
        while not raw.endswith(b"\n"):
            try:
                chunk = connection.recv(65536)
            except TimeoutError as exc:
                raise Unanswered(str(exc) or "timed out") from exc
            if not chunk:
                break
            raw += chunk
    return json.loads(raw)


def no_daemon(path: str, exc: Exception, language: str) -> str:
    """The daemon could not be asked, as every command and hook of a queue session says it."""
    from worker.core.terminal import bytes_shown  # start-up: only when the daemon cannot be asked

    reason = _socket_reason(exc, language) if isinstance(exc, OSError) else message("reason_no_answer", language)
    return message("no_daemon", language, path=bytes_shown(path), reason=reason)


def _socket_reason(exc: OSError, language: str) -> str:
    if isinstance(exc, FileNotFoundError):
        return message("reason_no_socket", language)
    if isinstance(exc, ConnectionRefusedError):
        return message("reason_no_listener", language)
    if isinstance(exc, TimeoutError):
        return message("reason_timeout", language)
    return os_reason(exc, language)
