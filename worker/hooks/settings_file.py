"""Claude Code's settings.json: our hooks merged in, dead hook commands found and removed.

Every change is made on a copy, written only when something changed, after a backup of the original."""

from __future__ import annotations

import copy
import json
import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from worker.core.catalogue import message
from worker.core.folders import make_folder
from worker.core.phrases import Phrase, phrase
from worker.core.session_plan import EVENTS, QUEUE_MARK, hooks_block

_INTERPRETERS = {"sh", "bash", "zsh", "python", "python3", "node", "bun", "deno", "ruby", "perl", "uv", "env"}


def _is_ours(hook: dict[str, Any]) -> bool:
    command = hook.get("command")
    return isinstance(command, str) and any(command.endswith(f" hook {name}") for name in EVENTS.values())


def merged(settings: dict[str, Any], command: str | None = None) -> dict[str, Any]:
    """`settings` with our hooks in place of any earlier copy of them; everything else untouched."""
    result = copy.deepcopy(settings)
    hooks = result.setdefault("hooks", {})
    for event, groups in hooks_block(command).items():
        hooks[event] = _kept(event, hooks.get(event), lambda _event, hook: not _is_ours(hook)) + groups
    return result


def _kept(event: str, groups: list[Any] | None, keep: Callable[[str, dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """An event's groups with only the hooks `keep` accepts; a group left empty goes."""
    return [{**g, "hooks": kept} for g in groups or [] if (kept := [h for h in g.get("hooks", []) if keep(event, h)])]


def installed(settings: dict[str, Any], command: str | None = None) -> bool:
    """Our hooks are there as `merged` would put them, wherever other hooks stand beside them: a hook the owner
    added after ours made doctor say "not (all) installed" and `hooks install` move ours behind it."""

    def ours(of: dict[str, Any]) -> dict[str, list[Any]]:
        return {
            event: [g for g in (of.get("hooks") or {}).get(event) or [] if any(map(_is_ours, g.get("hooks", [])))]
            for event in hooks_block(command)
        }

    return ours(settings) == ours(merged(settings, command))


@dataclass(frozen=True)
class DeadHook:
    event: str
    command: str
    missing: str


@dataclass(frozen=True)
class OldHook:
    """A hook of the old set-up that does our work a second way (the seed's rule: one path)."""

    event: str
    command: str
    why: str  # a key of the catalogue (worker/core/catalogue.json): said in the run's language

    def reason(self, language: str) -> str:
        return message(self.why, language)


# The seed's scripts, by name, and what is wrong with running them beside ours (message keys).
OLD_SCRIPTS = {
    "session-compact-report.py": "old_hook_compact_report",
    "session-start-context.py": "old_hook_session_start",
    "sessie-omvang.py": "old_hook_session_size",
    "task-claim.py": "old_hook_task_claim",
}
_OUR_EVENTS_WITH_REPORTS = ("PreCompact", "PostCompact", "SessionStart")


def dead_hooks(settings: dict[str, Any], home: Path | None = None) -> list[DeadHook]:
    """Hook commands that run a script that is not there. Only a missing script of certain location counts:
    a shell builtin (`cd`, `echo`), an inline script (`bash -c '...'`) or a relative path after a `cd` is
    never called dead, so `--fix` removes nothing that works."""
    found = []
    for event, hook in _each_hook(settings):
        if _guarded(hook.get("command")):
            continue  # `test -f X && X || true`: it says itself what to do when the script is gone
        for word, path in _scripts(hook.get("command"), home or Path.home()):
            if path is None:
                found.append(DeadHook(event, hook["command"], word))
                break
    return found


def _guarded(command: object) -> bool:
    if not isinstance(command, str):
        return False
    return "||" in command or any(guard in command for guard in ("test ", "[ ", "if "))


def old_hooks(settings: dict[str, Any], home: Path | None = None) -> list[OldHook]:
    """The old hooks beside ours: the seed's scripts by name (anywhere in the command, inline scripts too),
    and any other hook on our compaction and session-start events whose script writes compact reports."""
    found = (_old_hook(event, hook, home or Path.home()) for event, hook in _each_hook(settings))
    return [old for old in found if old is not None]


def _old_hook(event: str, hook: dict[str, Any], home: Path) -> OldHook | None:
    command = str(hook.get("command") or "")
    if _is_ours(hook) or QUEUE_MARK in command:
        return None
    named = next((name for name in OLD_SCRIPTS if name in _file_names(command)), None)
    if named is not None:
        return OldHook(event, command, OLD_SCRIPTS[named])
    if event in _OUR_EVENTS_WITH_REPORTS and _script_writes_reports(command, home):
        return OldHook(event, command, "old_hook_other_reports")
    return None


def _script_writes_reports(command: str, home: Path) -> bool:
    return any(path is not None and _writes_compact_reports(path) for _word, path in _scripts(command, home))


def without(settings: dict[str, Any], hooks: list[DeadHook] | list[OldHook]) -> dict[str, Any]:
    """`settings` without these hook commands (an emptied group goes too)."""
    commands = {(h.event, h.command) for h in hooks}
    result = copy.deepcopy(settings)
    for event, groups in list((result.get("hooks") or {}).items()):
        result["hooks"][event] = _kept(event, groups, lambda e, hook: (e, hook.get("command")) not in commands)
    return result


def _each_hook(settings: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (event, hook)
        for event, groups in (settings.get("hooks") or {}).items()
        for group in groups or []
        for hook in group.get("hooks", [])
        if isinstance(hook, dict)
    ]


def _writes_compact_reports(script: Path) -> bool:
    """Reads the transcript and writes a compaction report: what the seed's old hook did (a notifier that
    only mentions a report in a comment is not one)."""
    try:
        text = script.read_bytes()[:200_000].decode("utf-8", errors="replace").lower()
    except OSError:
        return False
    reports = "compact" in text and any(word in text for word in ("report", "verslag", "rapport"))
    return reports and "transcript" in text and any(w in text for w in ("write", "open(", " > ", ">>", "tee "))


def _file_names(command: str) -> set[str]:
    """The file names a command names, inline scripts (`bash -c '...'`) included: whole names, not substrings."""
    names: set[str] = set()
    pending = [command]
    while pending:
        try:
            words = shlex.split(pending.pop())
        except ValueError:
            continue
        for index, word in enumerate(words):
            names.add(Path(word).name)
            if word == "-c" and index + 1 < len(words):
                pending.append(words[index + 1])
    return names


# Shell builtins and keywords: a segment that starts with one runs no script of its own.
_BUILTINS = {"cd", "echo", "printf", "export", "set", "unset", "true", "false", ":", "test", "[", "exit", "return"}
_BUILTINS |= {"if", "then", "else", "fi", "for", "do", "done", "while", "case", "esac", "read", "wait", "eval", "exec"}
_OPERATORS = {"&&", "||", ";", "|", "&", "(", ")", ";;", "|&"}


def _scripts(command: object, home: Path) -> list[tuple[str, Path | None]]:
    """Each script a hook command runs, segment by segment (`a && b; c | d`), with where it is (None: it
    does not exist). Builtins, inline scripts and paths relative to an earlier `cd` are left out: for them
    no one can say from here whether they exist."""
    if not isinstance(command, str):
        return []
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return []
    segments: list[list[str]] = [[]]
    for word in words:
        if word in _OPERATORS:
            segments.append([])
        else:
            segments[-1].append(word)
    found: list[tuple[str, Path | None]] = []
    moved = False  # after a `cd`, a relative path is relative to somewhere else
    for segment in segments:
        script = _segment_script(segment, home, relative_known=not moved)
        if segment and segment[0] == "cd":
            moved = True
        if script is not None:
            found.append(script)
    return found


def _segment_script(words: list[str], home: Path, *, relative_known: bool) -> tuple[str, Path | None] | None:
    if "-c" in words or "-e" in words or "-m" in words:
        return None  # an inline script or a module: nothing on disk to look for
    for word in words:
        if word in _BUILTINS and word == words[0]:
            return None
        if Path(word).name in _INTERPRETERS or word.startswith("-") or "=" in word:
            continue
        return _script_of(word, home, relative_known=relative_known)
    return None


def _script_of(word: str, home: Path, *, relative_known: bool) -> tuple[str, Path | None] | None:
    """The script a word names, on PATH or as a path (`~` and `$HOME` filled in), and where it is when it is there;
    None when this cannot be told here."""
    if "/" not in word and not word.startswith("~"):
        return _on_path(word, relative_known=relative_known)
    if not word.startswith(("/", "~", "$HOME")) and not relative_known:
        return None
    expanded = os.path.expandvars(word.replace("~", str(home), 1) if word.startswith("~") else word)
    expanded = expanded.replace("$HOME", str(home))
    if "$" in expanded:
        return None  # a variable only the hook's own run has ($CLAUDE_PROJECT_DIR): cannot be checked here
    path = Path(expanded)
    return word, path if path.exists() else None


def _on_path(word: str, *, relative_known: bool) -> tuple[str, Path | None] | None:
    found = shutil.which(word)
    return None if found is None and not relative_known else (word, Path(found) if found else None)


class BadSettingsFile(ValueError):
    """A settings file no reader here can walk; `detail` says why, in either language."""

    def __init__(self, detail: Phrase) -> None:
        super().__init__(str(detail))
        self.detail = detail


def load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BadSettingsFile(phrase("settings_not_json", line=exc.lineno, column=exc.colno)) from None
    except RecursionError:  # nested deeper than the parser goes: no JSON this can read, said as such
        raise BadSettingsFile(phrase("settings_not_json", line=1, column=1)) from None
    except UnicodeDecodeError:
        raise BadSettingsFile(phrase("settings_not_utf8")) from None
    if not isinstance(data, dict):
        raise BadSettingsFile(phrase("settings_not_object"))
    _check_hooks_shape(data.get("hooks"))
    return data


def _check_hooks_shape(hooks: object) -> None:
    """Claude Code's shape, `{"Event": [{"matcher": ..., "hooks": [{...}]}]}`, or a clear refusal: every reader
    here walks it, and a string where a list belongs must not end in a traceback."""
    if hooks is None:
        return
    if not isinstance(hooks, dict):
        raise BadSettingsFile(phrase("settings_hooks_not_object"))
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(
            isinstance(g, dict)
            and isinstance(g.get("hooks", []), list)
            and all(isinstance(h, dict) for h in g.get("hooks", []))
            for g in groups
        ):
            raise BadSettingsFile(phrase("settings_hooks_event_shape", event=event))


def save_with_backup(path: Path, data: dict[str, Any]) -> Path | None:
    """Write `data` (valid JSON, atomically) after copying the old file aside; returns the backup."""
    backup = None
    if path.exists():
        backup = path.with_name(f"{path.name}.bak-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%fZ')}")
        shutil.copy2(path, backup)
    make_folder(path.parent)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return backup
