"""The PreCompact report and the summariser's instructions: standard library only, for both hook paths."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import NamedTuple

from worker.core.catalogue import message
from worker.core.folders import CHUNK, make_folder, read_regular, read_small_text
from worker.core.session_files import SessionFiles
from worker.core.terminal import clip, printable
from worker.hooks.lines import HookResult

TRANSCRIPT_READ_LIMIT = 64 * 1024 * 1024  # bytes of new transcript one report reads at most


def summary_instructions(language: str, task_id: str | None = None, opdracht: str | None = None, stap: str = "") -> str:
    """What the summariser is told to keep, in the run's language. The opdracht and the next step are the
    ledger's text, shown escaped as everywhere a person reads them (the summariser's instructions are shown
    in Claude Code's window)."""
    words = "en" if language == "en" else "nl"
    if task_id and opdracht is not None:
        shown = {"opdracht": printable(opdracht), "stap": printable(stap)}
        return message("hook.summary_instructions", words, id=task_id, **shown)
    task_line = message("hook.task_id_line", words, id=task_id) if task_id else ""
    return message("hook.summary_instructions_no_task", words) + task_line


class TranscriptUnreadable(OSError):
    """The transcript itself (not the report's folder) could not be read."""


class Report(NamedTuple):  # no dataclass: the queue session's hooks load this module
    path: Path | None
    entries: int
    error: str | None = None
    lines: int = 0  # lines in the report file, as the compact row says
    note: str = ""  # what the report could not hold, said on stderr too

    def row(self, trigger: str) -> tuple[str, dict[str, object]]:
        """The compaction's log row: its Dutch text, and its meta with the same words as a phrase."""
        from worker.core.phrases import phrase  # start-up: a queue session's session-start needs none of it
        from worker.core.row_phrases import phrase_json  # start-up: as above

        said = phrase("row_compact_report", path=str(self.path), lines=self.lines, entries=self.entries)
        return str(said), {"rapport": str(self.path), "trigger": trigger, "zin": phrase_json(said)}


def write_report(
    transcript_path: Path, folder: Path, *, session: object = None, language: str = "nl", zone: tzinfo | None = None
) -> Report:
    """Everything said since the previous report, verbatim, to a new file; remembers where it stopped. Times
    in `zone`, the household's. A transcript that cannot be read raises TranscriptUnreadable; a report that
    cannot be written, the OSError of its own file."""
    from worker.core import transcript  # start-up: as above

    state_file = folder / ".voortgang.json"
    state: dict[str, object] = json.loads(state_file.read_text()) if state_file.is_file() else {}
    try:
        part = new_part(transcript_path, state.get(str(transcript_path)))
    except OSError as exc:
        raise TranscriptUnreadable(exc.errno, exc.strerror, exc.filename) from exc
    new_lines = part.data.splitlines()
    # What the report holds, and what its row counts: a compaction's boundary and summary are no messages.
    entries = [entry for entry in transcript.parse_lines(new_lines) if entry.kind != "meta"]
    text = transcript.render(entries, zone=zone)
    if not text.strip():
        spoken = transcript.conversation_line_count(new_lines)
        if spoken:
            return Report(None, 0, message("hook_report_empty", language, spoken=spoken, path=transcript_path))
        return Report(None, 0)
    note = ""
    if part.skipped:
        note = message("report_start_not_read", language, size=part.skipped, path=transcript_path, at=part.since)
        text = f"{note}\n{text}"
    make_folder(folder)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    # The byte range makes the name unique: two compactions in one second must not share a file.
    name = f"{stamp}-{session if isinstance(session, str) else transcript_path.stem}-{part.start}-{part.end}.txt"
    report_path = folder / name
    report_path.write_text(text + "\n", encoding="utf-8")
    state[str(transcript_path)] = {"bytes": part.end}
    state_file.write_text(json.dumps(state, indent=1))
    return Report(report_path, len(entries), lines=len(text.splitlines()), note=note)


class NewPart(NamedTuple):
    data: bytes  # the transcript's lines after the previous report, the newest TRANSCRIPT_READ_LIMIT bytes of them
    since: int  # where the previous report ended
    start: int  # where `data` begins: later than `since` when there was more than the limit
    end: int

    @property
    def skipped(self) -> int:
        return self.start - self.since


def new_part(path: Path, previous: object) -> NewPart:
    """What the transcript holds after the previous report (`previous`: its end as stored), read as a regular
    file and never more than TRANSCRIPT_READ_LIMIT bytes: when there is more, the newest whole lines."""
    size = read_regular(path, 0)[1]
    since = _previous_end(path, previous)
    since = since if since <= size else 0  # a transcript that shrank was written anew: read it again
    start = max(since, size - TRANSCRIPT_READ_LIMIT)
    data = read_regular(path, TRANSCRIPT_READ_LIMIT, start=start)[0]
    if start > since:  # begun inside a line: from the next whole one
        cut = data.find(b"\n") + 1
        data, start = data[cut:], start + cut
    return NewPart(data, since, start, start + len(data))


def _previous_end(path: Path, previous: object) -> int:
    """Where the previous report ended: a byte offset, or (as reports before issue 38 kept it) a line count."""
    if isinstance(previous, dict) and isinstance(previous.get("bytes"), int):
        return int(previous["bytes"])
    if not isinstance(previous, int) or previous <= 0:
        return 0
    offset, lines = 0, 0
    while chunk := read_regular(path, CHUNK, start=offset)[0]:
        if lines + chunk.count(b"\n") < previous:
            lines, offset = lines + chunk.count(b"\n"), offset + len(chunk)
            continue
        at = -1
        for _ in range(previous - lines):
            at = chunk.index(b"\n", at + 1)
        return offset + at + 1
    return offset


_ANALYSIS = re.compile(r"<analysis>.*?</analysis>\s*", re.DOTALL)


def summary_for_the_log(text: str, path: Path) -> tuple[str, dict[str, object]]:
    """The summary as the compaction's row holds it, and what its meta adds: whole when it fits a log row, else
    its start and where the whole one is kept, that ending kept as a phrase for readers of another language. A
    longer one was refused, and the compaction went uncounted (or, over the socket's limit, was blamed on the
    daemon)."""
    from worker.core.model import TEXT_MAX_CHARS  # start-up: as above
    from worker.core.phrases import phrase  # start-up: as above
    from worker.core.row_phrases import ending_json  # start-up: as above

    if len(text) <= TEXT_MAX_CHARS:
        return text, {}

    ending = phrase("row_summary_cut", path=str(path))
    return clip(text, TEXT_MAX_CHARS, str(ending)), {"zin": ending_json(ending)}


def trigger_of(payload: dict[str, object]) -> str:
    """auto or manual, as Claude Code says; stored on the compact row so compactions are counted by kind."""
    trigger = payload.get("trigger")
    return trigger if isinstance(trigger, str) and trigger in ("auto", "manual") else "onbekend"


def save_summary(payload: dict[str, object], data_dir: Path, language: str) -> tuple[Path, str] | HookResult:
    """The summary Claude Code made, without its analysis block, in a file of its own (where, and the text);
    or what to say instead."""
    summary = payload.get("compact_summary")
    if not isinstance(summary, str) or not summary.strip():
        return HookResult(stderr=message("hook_no_summary", language))
    folder = data_dir / "samenvattingen"
    make_folder(folder)
    path, text = summary_path(folder, payload.get("session_id")), _ANALYSIS.sub("", summary).strip()
    path.write_text(text + "\n", encoding="utf-8")
    return path, text


def summary_path(folder: Path, session: object) -> Path:
    """A new file for each summary: two compactions in one second of one session must not share one."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return folder / f"{stamp}-{session if isinstance(session, str) else 'sessie'}-{os.urandom(4).hex()}.txt"


def briefing_from_file(path: Path | None) -> str | None:
    """The compact briefing the daemon wrote beside the full one, else the full one cut to size."""
    from worker.core.briefing import COMPACT_LIMIT  # start-up: as above

    if path is None:
        return None
    for candidate in (SessionFiles.from_briefing(path).compact_briefing, path):
        try:
            return clip(read_small_text(candidate).rstrip("\n"), COMPACT_LIMIT, " […]")
        except (OSError, ValueError):
            continue
    return None
