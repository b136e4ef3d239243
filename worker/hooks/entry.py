"""`taak hook NAME`: read the hook's JSON, run its handler, and never break the session.

Kept apart from the rest of the command so that a hook imports only what it needs."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker.core.catalogue import file_error_line, message
from worker.core.defaults import default_data_dir
from worker.core.folders import loads, make_folder
from worker.core.language import early_language, unreadable_dotenv
from worker.core.session_files import STAND_FILE, stand_path
from worker.hooks.lines import HookFailed, HookResult, answered, bug_line
from worker.hooks.lines import record_hook_run as record_hook_run  # taak's guard records a hook's crash with it

if TYPE_CHECKING:
    from worker.hooks.place import HookPlace
    from worker.settings import Settings

HOOK_NAMES = ("session-start", "pre-compact", "post-compact", "prompt")


def run_hook_command(words: list[str]) -> int | None:
    """`taak hook NAME` (and the queue session's `taak hook prompt --stand FILE`): the exit code, or None
    when the words are not a hook call, so the ordinary parser can explain what is wrong."""
    started = time.monotonic()
    in_queue_session = bool(os.environ.get("TAAK_SOCKET"))
    words, stands_down = _as_daemon_copy(words, in_queue_session, daemon_copies_marker())
    if stands_down:  # the copy installed in ~/.claude stands down: the daemon's runs in this process
        sys.stdin.read()
        data_dir = Path(_env("TAAK_DATA_DIR") or ".")
        record_hook_run(data_dir, words[0], _env("TAAK_ID"), _env("TAAK_BOT"), started, stood_down=True)
        return 0
    stdin_read = False
    if len(words) == 3 and words[:2] == ["prompt", "--stand"]:
        from worker.hooks.stand import prompt_from_stand  # start-up: the fast path loads only what it reads

        if (answered := prompt_from_stand(words[2])) is not None:
            return answered
        words, stdin_read = words[:1], True  # the file could not be used: take the ordinary path
    if not _one_hook(words):
        return None
    if in_queue_session:  # a queue session: its daemon answers, never the database
        return _in_queue_session(words[0], stdin_read, started)
    return main(words[0], stdin_read=stdin_read)


def _as_daemon_copy(words: list[str], in_queue_session: bool, marker: Path | None) -> tuple[list[str], bool]:
    """The hook's words as the daemon's copy runs them, and whether this copy stands down for the daemon's."""
    if words[1:] == ["--queue"] and words[0] in HOOK_NAMES:  # the daemon's copy of the hook
        if words[0] == "session-start" and marker is not None:
            # Before anything else at SessionStart: every later event of this process finds it there.
            with contextlib.suppress(OSError):  # then both copies act: a line twice, never none
                make_folder(marker.parent)
                marker.touch()
        return words[:1], False
    if not (in_queue_session and _one_hook(words) and marker is not None):
        return words, False
    if marker.exists():
        return words, True
    # The daemon's copies are not loaded here (`claude --resume` by the agent itself): this one does their work.
    if words[0] == "prompt":
        return ["prompt", "--stand", str(marker.with_name(STAND_FILE))], False  # the daemon's copy's own file
    return words, False


def _one_hook(words: list[str]) -> bool:
    return len(words) == 1 and words[0] in HOOK_NAMES


def _in_queue_session(name: str, stdin_read: bool, started: float) -> int:
    from worker.hooks.queue_session import run  # start-up: a queue session's hooks ask its daemon, nothing more

    try:
        payload = {} if stdin_read else _read_payload()
    except ValueError as exc:
        if name != "pre-compact":
            return _unread(name, str(exc), started)
        return run(name, {}, unreadable_input=str(exc))  # the summary is steered all the same
    return run(name, payload)


def daemon_copies_marker() -> Path | None:
    """The file by which the daemon's copies of the hooks say that they run in this Claude Code process
    (CLAUDE_PID, which Claude Code gives each hook it runs), in the queue session's task folder. Per process, not
    per session: a session the agent resumes itself keeps its session id, but not the daemon's --settings."""
    data_dir, task_id = _env("TAAK_DATA_DIR"), _env("TAAK_ID")
    if data_dir is None or task_id is None or not _env("TAAK_SOCKET"):
        return None
    return stand_path(Path(data_dir), task_id).with_name(f"daemon-hooks.{_env('CLAUDE_PID') or 'onbekend'}")


def _env(name: str) -> str | None:
    return os.environ.get(name) or None


def main(name: str, *, stdin_read: bool = False) -> int:
    from worker.hooks.place import read_place  # start-up: outside a queue session only (a time zone, a dataclass)

    started = time.monotonic()
    try:
        payload = {} if stdin_read else _read_payload()
        if (said := unreadable_dotenv(".env")) is not None:  # as taak refuses it, in one line
            return _unread(name, said, started)
        place = read_place()
    except BadPayload as exc:
        return _unread(name, str(exc), started)
    except Exception as exc:  # a hook never breaks a session
        return _unread(name, bug_line(exc), started)
    if place is not None and place.id is None:
        return owner_main(name, payload, place, started)
    return task_main(name, payload, started)


def owner_main(name: str, payload: dict[str, Any], place: HookPlace, started: float) -> int:
    """Outside a task: files only, no settings class, no database, no event loop (worker/hooks/owner.py)."""
    try:
        from worker.hooks.owner import OWNER_HANDLERS  # start-up: the owner's hooks load no task's modules

        result = OWNER_HANDLERS[name](payload, place)
    except Exception as exc:
        result = _failed(exc, place, name)
    return answered(name, result, partial(record_hook_run, place.data_dir, name, place.id, place.bot, started))


def task_main(name: str, payload: dict[str, Any], started: float) -> int:
    try:
        from worker.settings import Settings  # start-up: the settings class only for a task's hooks

        settings = Settings()
    except Exception as exc:  # a hook never breaks a session: which setting, and why, as the commands say it
        from worker.settings import unreadable_settings  # start-up: as Settings above, for a task's hooks only

        return _unread(name, unreadable_settings(exc, early_language()) or bug_line(exc), started)
    try:
        import anyio

        from worker.hooks.handlers import HANDLERS  # start-up: the driver and event loop only for a task's hooks

        result = anyio.run(HANDLERS[name], payload, settings)
    except Exception as exc:
        result = _failed(exc, settings, name)
    record = partial(record_hook_run, settings.data_dir, name, settings.id, settings.bot, started)
    return answered(name, result, record)


def _unread(name: str, said: str, started: float) -> int:
    """What the hook was given or must read first (its input, its settings) cannot be read: said in one line,
    recorded where hooks.log would be, and exit 0."""
    record = partial(record_hook_run, data_dir_anyway(), name, os.environ.get("TAAK_ID"), None, started)
    return answered(name, HookResult(stderr=f"taak hook {name}: {said}"), record)


def _failed(exc: Exception, settings: Settings | HookPlace, name: str) -> HookResult:
    """A handler's own failure: one line on stderr and in hooks.log, and exit 0 (a hook never breaks a session).
    In the run's language where it is one of ours or a file's; a bug keeps its class name."""
    from worker.hooks.place import HookPlace  # start-up: as in main

    if isinstance(exc, HookFailed):
        said = str(exc)
    elif not isinstance(settings, HookPlace):
        from worker.db.failures import failure_text  # start-up: loaded with the settings class, for a task's hooks

        said = failure_text(exc, settings)  # a database away, a URL that is no URL, a file: as `taak lijst` says it
    elif isinstance(exc, OSError) and (file_line := file_error_line(exc, settings.language)):
        said = file_line
    else:
        said = bug_line(exc)
    return HookResult(stderr=f"taak hook {name}: {said}")


def data_dir_anyway() -> Path:
    """Where hooks.log is when the settings cannot be read: TAAK_DATA_DIR as given, else the default."""
    from worker.hooks.place import folder_setting  # start-up: as in main

    return folder_setting(os.environ.get("TAAK_DATA_DIR"), default_data_dir) or default_data_dir()


class BadPayload(ValueError):
    """What Claude Code sent the hook is no JSON object; said in the run's language."""


def _read_payload() -> dict[str, Any]:
    raw = sys.stdin.read()
    try:
        payload = loads(raw) if raw.strip() else {}
    except ValueError:
        payload = None
    if not isinstance(payload, dict):
        raise BadPayload(message("hook_input_not_json", early_language()))
    return payload
