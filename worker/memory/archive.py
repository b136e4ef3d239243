"""The lossless archive: every conversation line kept raw, never summarised, in one JSONL file per day.

A record has the fields `ts` (ISO-8601 UTC), `actor`, `role` (user|assistant|system), `type`
(text|action|meta), `text` (verbatim), `model`, `session`, and `taak` when known. Imports are incremental
(a byte offset per source file, whole lines only) and idempotent (a transcript line's `uuid` is archived
once). Tool-result bodies stay in the raw transcripts: they are not conversation and would drown the index.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

from worker.core.catalogue import message, os_reason
from worker.core.errors import Refused
from worker.core.folders import loads, make_folder
from worker.core.model import is_task_id
from worker.core.transcript import Entry, jsonl_lines, parse_lines, parsed_lines, storable_json
from worker.memory.index import ALL_TIME, Index
from worker.memory.layout import Layout, iso_utc, open_vectors

# What the daemon keeps of a session in <sessies>/<task>/, each file named <attempt>-<session>: a small record
# of whose session it is (.sessie.json, written before the session starts), its stdout byte for byte
# (.jsonl), and the arrival time of every stdout line (.tijden.open while it runs, .tijden after).
SESSION_RECORD = ".sessie.json"
TIMES_OPEN = ".tijden.open"
TIMES_DONE = ".tijden"
# A capture whose times file was never closed belonged to a daemon that died; after this long it is over.
ABANDONED_SECONDS = 24 * 3600


def _one_writer(layout: Layout) -> contextlib.AbstractContextManager[None]:
    """The archive's file lock: one writer at a time on this machine."""
    from worker.proc import exclusive  # start-up: a recall writes nothing, and loads no process module

    return exclusive(layout.data_dir / "archief.lock")


def folder_size(folder: Path) -> tuple[int, int]:
    """The bytes of every file under `folder`, and how many folders it holds at its top (0, 0: none). A file that
    goes while it is counted (a session's times file renamed) counts nothing."""
    if not folder.is_dir():
        return 0, 0
    size = 0
    for path in folder.rglob("*"):
        with contextlib.suppress(OSError):
            size += path.lstat().st_size if path.is_file() and not path.is_symlink() else 0
    return size, sum(1 for path in folder.iterdir() if path.is_dir())


def _last_written(folder: Path) -> float:
    """When anything in a folder was last written; now-ish when something in it changed while it was read."""
    try:
        return max(path.lstat().st_mtime for path in (folder, *folder.rglob("*")))
    except OSError:
        return time.time()


def _quiet_folder(layout: Layout, task_id: str, days: int, now: float) -> Path | None:
    """The task's folder in `sessies/` when nothing was written in it for `days` days (an ID is all a folder's
    name may be; anything else is left alone)."""
    folder = layout.sessions / task_id
    if not is_task_id(task_id) or folder.is_symlink() or not folder.is_dir():
        return None
    return folder if _last_written(folder) < now - days * 86400 else None


def quiet_task_folders(layout: Layout, days: int, now: float) -> list[str]:
    """The tasks with a quiet folder: candidates for pruning, once the database says the task is finished."""
    names = sorted(path.name for path in layout.sessions.iterdir()) if layout.sessions.is_dir() else []
    return [name for name in names if _quiet_folder(layout, name, days, now)]


def prune_task_folders(layout: Layout, task_ids: Iterable[str], days: int, now: float) -> tuple[int, int]:
    """Remove these tasks' folders from `sessies/` (the archive keeps every line of their sessions: the daemon prunes
    only after an update that read them all); returns how many folders, and their bytes. Under the archive's lock,
    so that no update reads a folder while it goes, and each folder still quiet (a task reopened since it was
    found may have a session writing in it again)."""
    removed = freed = 0
    with _one_writer(layout):
        for task_id in task_ids:
            if (folder := _quiet_folder(layout, task_id, days, now)) is None:
                continue
            size, _ = folder_size(folder)
            shutil.rmtree(folder)
            removed, freed = removed + 1, freed + size
    return removed, freed


@dataclass(frozen=True)
class QueueSession:
    """A session the daemon ran, and where its stdout was captured."""

    session: str
    task: str
    bot: str
    capture: Path

    def times_file(self, suffix: str) -> Path:
        return self.capture.with_suffix(suffix)

    def finished(self, now: float) -> bool:
        if self.times_file(TIMES_DONE).exists():
            return True
        newest = max(p.stat().st_mtime for p in (self.capture, self.times_file(TIMES_OPEN)) if p.exists())
        return now - newest > ABANDONED_SECONDS


def write_session_record(folder: Path, stem: str, *, session: str, task: str, bot: str) -> None:
    record = {"sessie": session, "taak": task, "bot": bot}
    (folder / f"{stem}{SESSION_RECORD}").write_text(json.dumps(record) + "\n", encoding="utf-8")


def queue_sessions(sessions_dir: Path) -> dict[str, QueueSession]:
    """The daemon's sessions on this machine by session id, read from the records it writes before each
    session starts: so a transcript is never seen before its task and bot are known."""
    found = {}
    for path in sessions_dir.glob(f"*/*{SESSION_RECORD}"):
        try:
            data = loads(path.read_text(encoding="utf-8"))
            session, task, bot = str(data["sessie"]), str(data["taak"]), str(data["bot"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a damaged record: the session's lines are archived without a task
        capture = path.with_name(path.name.removesuffix(SESSION_RECORD) + ".jsonl")
        found[session] = QueueSession(session, task, bot, capture)
    return found


@dataclass(frozen=True)
class Record:
    ts: str
    actor: str
    role: str
    type: str
    text: str
    model: str | None
    session: str | None
    taak: str | None = None

    def line(self) -> str:
        values = {k: v for k, v in asdict(self).items() if not (k == "taak" and v is None)}
        return json.dumps(values, ensure_ascii=False)


def record_from_entry(entry: Entry, queue: QueueSession | None = None) -> Record | None:
    """A queue session's lines carry their task, and the assistant speaks as the bot that ran it. A line of
    the conversation without a readable time is refused (ValueError): it is counted as unreadable, not lost
    in silence."""
    if entry.ts is None:
        if entry.kind == "meta":
            return None
        raise ValueError("no timestamp (missing, or not text)")
    return Record(
        ts=_utc(entry.ts),
        actor=entry.role if entry.role != "assistant" else queue.bot if queue else entry.model or "assistant",
        role=entry.role,
        type=entry.kind,
        text=entry.text,
        model=entry.model,
        session=entry.session,
        taak=queue.task if queue else None,
    )


def _utc(ts: object) -> str:
    if not isinstance(ts, str):
        raise TypeError(f"the time is {type(ts).__name__}, not text")
    moment = datetime.fromisoformat(ts.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Archive:
    """Day files under `folder`, with the import state (offsets and seen uuids) beside them."""

    def __init__(self, folder: Path, zone: ZoneInfo) -> None:
        self.folder = folder
        self.zone = zone
        make_folder(folder)
        self._state = sqlite3.connect(folder / ".import.sqlite")
        self._state.executescript(
            "create table if not exists bronnen (pad text primary key, offset integer not null);"
            # What was read last of each source: a file deleted and made again under the same name does not hold it.
            "create table if not exists bron_staarten (pad text primary key, staart text not null);"
            "create table if not exists gezien (sleutel text primary key);"
            "create table if not exists vangsten (pad text primary key, regels integer not null);"
            # The size of each day file before the batch being written: what to cut back to after a crash.
            "create table if not exists bezig (bestand text not null, grootte integer not null);"
            # Lines that could not be read (an impossible date, an offset of +99:00): skipped, never fatal.
            "create table if not exists onleesbaar (waar text primary key, reden text not null);"
        )
        self.skipped = 0  # unreadable lines met by this run
        self._undo_unfinished()

    def close(self) -> None:
        self._state.close()

    def day_file(self, ts: str) -> Path:
        day = datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(self.zone).date()
        return self.folder / f"{day:%Y}" / f"{day:%Y-%m-%d}.jsonl"

    def day_files(self) -> list[Path]:
        return sorted(self.folder.glob("*/*.jsonl"))

    def import_transcript(self, path: Path, queue: Mapping[str, QueueSession] | None = None) -> int:
        """Append what is new in one Claude Code transcript; returns how many records were added.
        `queue` holds the daemon's sessions, so that a queue session's lines carry their task and bot."""
        offset = self._offset(path)
        complete = _whole_lines_from(path, offset)
        if not complete:
            return 0
        lines, broken = parsed_lines(jsonl_lines(complete.decode("utf-8", errors="replace")))
        queue = queue or {}
        with path.open("rb") as handle:  # the number of the line at `offset`
            first_line = handle.read(offset).count(b"\n")
        for number in broken:  # a line whose end was lost: said, and what was glued to it is kept
            self._unreadable(f"{path}:{first_line + number + 1}", json.JSONDecodeError("no JSON object", "", 0))
        records = []
        for entry in parse_lines(lines, first_line=first_line, tool_results=True):
            try:
                record = record_from_entry(entry, queue.get(entry.session or ""))
                if record is not None:
                    self.day_file(record.ts)
                    records.append((self._key(entry, path), record))
            except (ValueError, OverflowError) as exc:
                self._unreadable(f"{path}:{entry.line + 1}", exc)
        added = self._write(records)
        self._set_offset(path, offset + len(complete))
        return added

    def import_capture(self, queue: QueueSession) -> int:
        """A finished session's stdout (stream-json) when Claude Code kept no transcript of it: every line
        timed by its arrival, tagged with the task and session the daemon ran it for."""
        offset = self._offset(queue.capture)
        complete = _whole_lines_from(queue.capture, offset)
        if not complete:
            return 0
        row = self._state.execute("select regels from vangsten where pad = ?", (str(queue.capture),)).fetchone()
        first_line = int(row[0]) if row and offset else 0
        entries = parse_lines(_timed_lines(queue, complete, first_line), first_line=first_line, tool_results=True)
        records = [(e, r) for e in entries if (r := record_from_entry(e, queue)) is not None]
        added = self._write((self._key(e, queue.capture), r) for e, r in records)
        self._state.execute(
            "insert into vangsten (pad, regels) values (?, ?) on conflict (pad) do update set regels = excluded.regels",
            (str(queue.capture), first_line + complete.count(b"\n")),
        )
        self._set_offset(queue.capture, offset + len(complete))
        return added

    def import_simple(self, path: Path, actor: str = "user") -> int:
        """A plain `{ts, role, text}` JSONL file."""
        records = []
        for number, line in enumerate(jsonl_lines(path.read_text(encoding="utf-8"))):
            try:
                data = storable_json(line)
                role = data["role"] if data["role"] in ("user", "assistant", "system") else "user"
                record = Record(
                    _utc(data["ts"]),
                    data.get("actor") or (actor if role == "user" else role),
                    role,
                    "text",
                    data["text"],
                    data.get("model"),
                    data.get("session"),
                    data.get("taak"),
                )
                self.day_file(record.ts)
            except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as exc:
                self._unreadable(f"{path}:{number + 1}", exc)
                continue
            records.append((f"{path}:{number}", record))
        return self._write(records)

    def _unreadable(self, where: str, why: BaseException) -> None:
        """Count and keep where a line could not be read; the import goes on with the next one."""
        self.skipped += 1
        self._state.execute(
            "insert into onleesbaar (waar, reden) values (?, ?) on conflict (waar) do nothing",
            (where, f"{type(why).__name__}: {str(why).splitlines()[0] if str(why) else ''}"[:200]),
        )
        self._state.commit()

    def unreadable(self) -> list[tuple[str, str]]:
        """Every line skipped so far, with why (`taak archief bijwerken` and doctor report them)."""
        return [(w, r) for w, r in self._state.execute("select waar, reden from onleesbaar order by rowid")]

    def _write(self, keyed: Iterable[tuple[str, Record]]) -> int:
        """Append the new records to their day files as one unit: either every line is in its file and every
        key is stored, or (killed, or a full disk) the next Archive cuts the files back to their size before
        the batch, so that the retry archives each line once and no half line is left behind."""
        batch: dict[Path, list[str]] = {}
        keys: dict[str, None] = {}
        for key, record in keyed:
            if key in keys or self._state.execute("select 1 from gezien where sleutel = ?", (key,)).fetchone():
                continue
            keys[key] = None
            batch.setdefault(self.day_file(record.ts), []).append(record.line() + "\n")
        if not keys:
            return 0
        before = [(str(path), path.stat().st_size if path.exists() else 0) for path in batch]
        self._state.executemany("insert into bezig (bestand, grootte) values (?, ?)", before)
        self._state.commit()
        for path, lines in batch.items():
            make_folder(path.parent)
            with path.open("a", encoding="utf-8") as handle:
                handle.write("".join(lines))
                handle.flush()
                os.fsync(handle.fileno())
        self._state.executemany("insert into gezien values (?)", [(key,) for key in keys])
        self._state.execute("delete from bezig")
        self._state.commit()
        return len(keys)

    def _undo_unfinished(self) -> None:
        for bestand, size in self._state.execute("select bestand, grootte from bezig").fetchall():
            path = Path(bestand)
            if path.exists() and path.stat().st_size > size:
                with path.open("r+b") as handle:
                    handle.truncate(size)
        self._state.execute("delete from bezig")
        self._state.commit()

    @staticmethod
    def _key(entry: Entry, path: Path) -> str:
        return f"{entry.uuid}:{entry.kind}:{entry.text[:40]}" if entry.uuid else f"{path}:{entry.line}:{entry.kind}"

    def _set_offset(self, path: Path, offset: int) -> None:
        self._state.execute(
            "insert into bronnen (pad, offset) values (?, ?) on conflict (pad) do update set offset = excluded.offset",
            (str(path), offset),
        )
        self._state.execute(
            "insert into bron_staarten (pad, staart) values (?, ?) "
            "on conflict (pad) do update set staart = excluded.staart",
            (str(path), _tail(path, offset)),
        )
        self._state.commit()

    def _offset(self, path: Path) -> int:
        """Where to read on; from the start for a file that is not the one read before (it shrank, or what was read
        last is not there any more: deleted and made again), whose lines the archive then takes once each."""
        row = self._state.execute(
            "select offset, staart from bronnen left join bron_staarten using (pad) where pad = ?", (str(path),)
        ).fetchone()
        if row is None or row[0] > path.stat().st_size or row[1] not in (None, _tail(path, row[0])):
            return 0
        return int(row[0])


def default_sources() -> list[Path]:
    """Every Claude Code transcript of this user, queue sessions included."""
    return sorted((Path.home() / ".claude" / "projects").glob("**/*.jsonl"))


@dataclass(frozen=True)
class Update:
    archived: int
    indexed: int
    embedded: int = 0
    to_embed: int = 0
    skipped: int = 0  # unreadable lines met by this run
    # Where every unreadable line so far is (file:line), first ones first; of the named files only, when named.
    unreadable: tuple[str, ...] = ()
    files_skipped: tuple[tuple[str, str], ...] = ()  # found transcripts this run could not read: (path, why)

    def as_json(self) -> str:
        return json.dumps(asdict(self))

    def summary(self, language: str) -> str:
        text = message("archive_done", language, archived=self.archived, indexed=self.indexed)
        if self.embedded or self.to_embed:
            text += message("archive_embedded", language, embedded=self.embedded, to_embed=self.to_embed)
        if self.unreadable:
            shown = ", ".join(self.unreadable[:3]) + (" ..." if len(self.unreadable) > 3 else "")
            text += message("archive_unreadable", language, count=len(self.unreadable), now=self.skipped, shown=shown)
        if self.files_skipped:
            said = [f"{path} ({unreadable_reason(why, language)})" for path, why in self.files_skipped[:3]]
            shown = "; ".join(said) + (" ..." if len(self.files_skipped) > 3 else "")
            text += message("archive_files_skipped", language, count=len(self.files_skipped), shown=shown)
        return text


def bring_up_to_date(
    layout: Layout,
    zone: ZoneInfo,
    sources: list[Path] | None = None,
    *,
    simple: list[Path] | None = None,
    rebuild: bool = False,
) -> Update:
    """Import new lines and index them; their vectors are `embed_new`'s, in a run of its own.

    `sources` None means: every transcript under ~/.claude/projects, and the daemon's finished captures of
    sessions that left no transcript. `simple`: plain {ts, role, text} files. `rebuild`: delete the indexes
    first, to build them again from the day files. One writer at a time on this machine (a file lock), so
    that the indexer and `taak archief` never write the same lines twice."""
    with _one_writer(layout):
        if rebuild:
            for path in (layout.index, layout.vectors):  # checked first: nothing is deleted unless all can be
                if path.exists() and not path.is_file():
                    raise Refused("not_a_file", path=path)
            layout.index.unlink(missing_ok=True)
            layout.vectors.unlink(missing_ok=True)
        return _bring_up_to_date(layout, zone, sources, simple or [])


def _bring_up_to_date(layout: Layout, zone: ZoneInfo, sources: list[Path] | None, simple: list[Path]) -> Update:
    queue = queue_sessions(layout.sessions)
    archive = Archive(layout.archive, zone)
    files_skipped: list[tuple[str, str]] = []
    try:
        archived = sum(archive.import_simple(path) for path in simple)
        if sources is None:
            archived += _archive_found(archive, queue, files_skipped)
        else:
            archived += sum(archive.import_transcript(path, queue) for path in sources)
        index = Index(layout.index)
        try:
            indexed = index.update(archive.day_files())
        finally:
            index.close()
        skipped, unreadable = archive.skipped, tuple(where for where, _why in archive.unreadable())
        if sources is not None:  # files the owner named: their own unreadable lines, not every file's so far
            named = tuple(f"{path}:" for path in [*sources, *simple])
            unreadable = tuple(where for where in unreadable if where.startswith(named))
    finally:
        archive.close()
    return Update(archived, indexed, 0, 0, skipped, unreadable, tuple(files_skipped))


def _archive_found(archive: Archive, queue: dict[str, QueueSession], files_skipped: list[tuple[str, str]]) -> int:
    """Every transcript found, and the captures of finished queue sessions that left none. A file found, not named
    by the owner: one that cannot be read (a folder with a transcript's name, no permission) is said and skipped,
    and every other file is still archived."""

    def found(path: Path, take: Callable[[], int]) -> int:
        try:
            return take()
        except OSError as exc:
            files_skipped.append((str(path), f"{type(exc).__name__}: [Errno {exc.errno}] {exc.strerror}"))
            return 0

    transcripts = default_sources()
    archived = sum(found(path, partial(archive.import_transcript, path, queue)) for path in transcripts)
    with_transcript = {path.stem for path in transcripts}
    now = time.time()
    return archived + sum(
        found(session.capture, partial(archive.import_capture, session))
        for session in queue.values()
        if session.session not in with_transcript and session.capture.exists() and session.finished(now)
    )


def embed_new(layout: Layout, rows: int, *, helper_idle_seconds: float | None = None) -> Update:
    """The semantic side, in a run of its own (`taak archief vectoren`): up to `rows` lines without a vector,
    newest first. Importing never waits for this (issue 15: 10 of 12 minutes of an import were embedding)."""
    vectors = open_vectors(layout, helper_idle_seconds=helper_idle_seconds) if rows else None
    if vectors is None:
        return Update(0, 0)
    if layout.vectors.exists() and not layout.vectors.is_file():
        raise Refused("not_a_file", path=layout.vectors)
    Index(layout.index).close()  # the exact index the vectors point into, made if it is missing or empty
    with _one_writer(layout):
        try:
            vectors.forget_orphans()
            coverage = vectors.fill(ALL_TIME, rows)
        except Exception as error:  # apsw's and sqlite-vec's errors: a damaged file, said in one line
            if isinstance(error, Refused):
                raise
            raise Refused("vectors_unusable", path=layout.vectors, reason=f"{type(error).__name__}: {error}") from None
        finally:
            vectors.close()
    return Update(0, 0, coverage.embedded_now, coverage.still_missing)


def _timed_lines(queue: QueueSession, complete: bytes, first_line: int) -> list[str]:
    """A capture's lines, each timed by its arrival (else the file's time) and tagged with its session."""
    found = [path for path in map(queue.times_file, (TIMES_DONE, TIMES_OPEN)) if path.exists()]
    times = [int(line) for line in found[0].read_text().split() if line.isdigit()] if found else []
    fallback = iso_utc(int(queue.capture.stat().st_mtime * 1000))
    lines: list[str] = []
    for number, raw in enumerate(jsonl_lines(complete.decode("utf-8", errors="replace")), start=first_line):
        try:
            record = loads(raw)
        except ValueError:
            lines.append(raw)  # kept in place so that line numbers stay true; the parser skips it
            continue
        if isinstance(record, dict):
            record["timestamp"] = iso_utc(times[number]) if number < len(times) else fallback
            record["sessionId"] = queue.session
        lines.append(json.dumps(record))
    return lines


TAIL_BYTES = 4096


def _tail(path: Path, offset: int) -> str:
    """The last bytes read of a file (up to `offset`), as a digest: a file that only grew still holds them."""
    with path.open("rb") as handle:
        handle.seek(max(0, offset - TAIL_BYTES))
        return hashlib.sha256(handle.read(min(offset, TAIL_BYTES))).hexdigest()


def _whole_lines_from(path: Path, offset: int) -> bytes:
    with path.open("rb") as handle:
        handle.seek(offset)
        chunk = handle.read()
    return chunk[: chunk.rfind(b"\n") + 1]  # a line still being written is read next time


def unreadable_reason(stored: str, language: str) -> str:
    """Why a line was skipped, as a person reads it: the archive keeps the exception's name and first line
    (`JSONDecodeError: Expecting value: ...`), which says little to the owner and nothing in Dutch."""
    kind, _, detail = stored.partition(": ")
    if errno_said := re.match(r"\[Errno (\d+)\] (.*)", detail):  # a file that could not be read
        return os_reason(OSError(int(errno_said[1]), errno_said[2]), language)
    if kind == "JSONDecodeError":
        return message("unreadable_no_json", language)
    if kind == "KeyError":
        return message("unreadable_field_missing", language, field=detail.strip("'\""))
    if kind in ("ValueError", "OverflowError", "TypeError", "AttributeError"):
        return message("unreadable_no_record", language)
    return stored
