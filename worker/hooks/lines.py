"""The small texts hooks print, importable without the settings class: the prompt hook's fast path uses it."""

from __future__ import annotations

import json

from worker.core.phrases import message
from worker.core.terminal import clip, json_safe


def additional_context(event: str, text: str) -> str:
    # Escaped the JSON way, as --json is: Claude Code reads back the same text, and a terminal that shows the
    # hook's output (`claude --debug`, a person trying the hook by hand) obeys no control character in it.
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json_safe(json.dumps(output, ensure_ascii=False))


def where_we_are(task_id: str, status: str, next_step: str | None, language: str) -> str:
    step = clip(" ".join((next_step or "-").split()), 300, " […]")
    return message("hook.where_we_are", "en" if language == "en" else "nl", id=task_id, status=status, step=step)
